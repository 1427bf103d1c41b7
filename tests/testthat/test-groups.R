# The groups a map holds (R/rule_gaussian.R, R/math_mixture.R): the agglomeration of its cells and EM
# over the rows (in C, src/groups/som_groups.c and som_mixture.c) against slow pure-R
# references (helper-groups.R: every union of every step from the rows' scatter; EM row by
# row); the whole rule is checked against ref_grouping() in test-select.R.

cells_of <- function(x, cl, N) somgpu:::neuron_moments(x, cl, N)

test_that("the cells join as the reference joins them, every shape, every step", {
  for (case in 1:3) {
    x <- switch(case,
                withr::with_seed(1, rbind(matrix(rnorm(120), 60), matrix(rnorm(80, 4), 40))),
                withr::with_seed(2, matrix(runif(450), 150)),
                as.matrix(scale(iris[1:4])))
    N <- c(8L, 9L, 7L)[case]
    cl <- withr::with_seed(case, sample(rep_len(seq_len(N - 1L), nrow(x)))) # neuron N empty
    prior <- somgpu:::mixture_prior(x, 0.1)
    moments <- cells_of(x, cl, N)
    for (fam in c("VVV", "EEE", "VVI", "EEI", "VII", "EII")) {
      got <- somgpu:::agglomerate_cells(moments, fam, nrow(x), prior)
      want <- ref_agglomerate(moments, fam, nrow(x), prior$psi, prior$nu)
      lab <- sprintf("case %d, %s", case, fam)
      expect_identical(length(got), length(want), label = lab)
      expect_identical(lapply(got, `[[`, "labels"), lapply(want, `[[`, "labels"), label = lab)
      expect_identical(lapply(got, `[[`, "rows"), lapply(want, `[[`, "rows"), label = lab)
      expect_equal(vapply(got, `[[`, 0, "loglik"), vapply(want, `[[`, 0, "loglik"),
                   tolerance = 1e-10, label = lab)
      expect_identical(got[[1L]]$labels[N], 0L) # a neuron without rows takes no part
    }
  }
})

test_that("the agglomeration stops at the count asked for, the path the same up to it", {
  x <- withr::with_seed(3, matrix(rnorm(300), 100))
  cl <- withr::with_seed(4, sample(rep_len(1:10, 100)))
  prior <- somgpu:::mixture_prior(x, 0.1)
  m <- cells_of(x, cl, 10L)
  all <- somgpu:::agglomerate_cells(m, "EEE", 100, prior)
  down <- somgpu:::agglomerate_cells(m, "EEE", 100, prior, down_to = 4L)
  expect_length(all, 10L)
  expect_length(down, 7L) # 10, 9, ..., 4 groups
  expect_identical(down, all[1:7])
  expect_identical(max(down[[7]]$labels), 4L)
})

test_that("cells whose union has no finite log-likelihood end the path early", {
  # two cells of one repeated row each and no prior scatter: every union is degenerate
  m <- list(list(n = 3, s = c(3, 3), q = matrix(3, 2, 2)),
            list(n = 3, s = c(6, 6), q = matrix(12, 2, 2)))
  prior <- list(psi = matrix(0, 2, 2), nu = 4)
  p <- somgpu:::agglomerate_cells(m, "VVV", 6, prior)
  expect_length(p, 1L)
  expect_identical(p[[1]]$labels, 1:2)
  expect_identical(p[[1]]$loglik, -Inf)
})

# EM's mixture from `start` under covariance model `fam` equals the slow reference's (ref_em()):
# proportions, means and covariances; the mixture, for more checks.
expect_em_reference <- function(x, start, fam, prior) {
  got <- somgpu:::mixture_em(x, start, fam, prior)
  want <- ref_em(x, start, fam, prior$psi, prior$nu)
  expect_equal(got$par$pro, want$pro, tolerance = 1e-10, label = fam)
  expect_equal(unname(got$par$mean), unname(do.call(rbind, want$means)), tolerance = 1e-10,
               label = fam)
  expect_equal(got$par$cov, want$covs, tolerance = 1e-10, label = fam)
  invisible(got)
}

test_that("EM gives the reference's mixture, every model, and NULL when a group empties", {
  x <- withr::with_seed(5, rbind(matrix(rnorm(135, 0, 1), 45), matrix(rnorm(90, 3, 0.7), 30),
                                 matrix(c(rnorm(25, -3), rnorm(25, 4), rnorm(25)), 25)))
  start <- withr::with_seed(6, ifelse(runif(100) < 0.8, rep(1:3, c(45, 30, 25)),
                                      sample.int(3, 100, replace = TRUE)))
  prior <- somgpu:::mixture_prior(x, 0.1)
  for (fam in c("VVV", "EEE", "VVI", "EEI", "VII", "EII")) {
    got <- expect_em_reference(x, start, fam, prior)
    expect_identical(got$labels, somgpu:::mixture_classify(x, got$par))
  }
  # a group given a single row loses it: no mixture
  expect_null(somgpu:::mixture_em(x, c(rep(1L, 99), 2L), "VVV", list(psi = diag(0, 3), nu = 0)))
})

test_that("EM with six columns and six groups gives the reference's mixture", {
  # the C sums run four columns, groups or rows side by side: blocks and remainders
  x <- withr::with_seed(8, do.call(rbind, lapply(1:6, function(g) {
    matrix(rnorm(17 * 6, mean = 3 * (seq_len(6) == g), sd = 0.6 + g / 10), 17, byrow = TRUE)
  })))
  x <- rbind(x, withr::with_seed(9, matrix(rnorm(6), 1)))       # 103 rows: 4 per block, 3 left
  start <- c(rep(1:6, each = 17), 1L)
  prior <- somgpu:::mixture_prior(x, 0.1)
  for (fam in c("VVV", "EEE", "VII")) expect_em_reference(x, start, fam, prior)
})

test_that("a column takes few values when nine rows in ten tie with another", {
  few <- somgpu:::discrete_columns
  x <- withr::with_seed(1, cbind(rnorm(200), rbinom(200, 1, 0.05), round(rnorm(200), 1),
                                 c(rnorm(100), rep(0, 100))))
  xc <- sweep(x, 2, colMeans(x))
  # continuous; binary; rounded to a tenth (200 rows on some 50 values); a flat half: a
  # group lying in a plane beside one that varies in the column
  expect_identical(few(xc), c(FALSE, TRUE, TRUE, FALSE))
  # noise far below the data's scale leaves ties ties (the suite's 1e-6 of the spread)
  jitter <- withr::with_seed(2, rnorm(length(xc), sd = 1e-7))
  expect_identical(few(xc + jitter), c(FALSE, TRUE, TRUE, FALSE))
})

test_that("the columns that take few values are those of the column-by-column rule", {
  # the rule as first written, one column at a time: a slow reference
  slow <- function(xc) {
    tol <- somgpu::selection_constants()
    tol <- tol$value[tol$name == "few_values_tie"] * sqrt(mean(xc^2))
    tied <- somgpu::selection_constants()
    tied <- tied$value[tied$name == "few_values_tied"]
    vapply(seq_len(ncol(xc)), function(j) {
      v <- sort(xc[, j])
      close <- diff(v) <= tol
      mean(c(close, FALSE) | c(FALSE, close)) >= tied
    }, TRUE)
  }
  for (s in 1:5) {
    x <- withr::with_seed(s, cbind(rnorm(60), round(rnorm(60)), rbinom(60, 3, 0.5),
                                   c(rep(1, 55), rnorm(5)), sample(c(-0, 0, 1), 60, TRUE)))
    xc <- sweep(x, 2, colMeans(x))
    expect_identical(somgpu:::discrete_columns(xc), slow(xc))
  }
  expect_identical(somgpu:::discrete_columns(matrix(1, 1, 3)), rep(FALSE, 3))
})

test_that("a group that is a binary column's point mass is no candidate", {
  y <- lip_blobs(1)
  fit <- train(y, sizes = 8L, restarts = 2, seed = 1, sigma0 = "auto", backend = "cpu")
  got <- somgpu:::map_grouping(unname(y), fit$clusters[[1L]], 8L)
  expect_identical(got$groups, 3L)
  expect_gte(somgpu:::ari(got$labels, attr(y, "groups"), 3L, 3L), 0.7)
  # no candidate scored has a group whose rows all share the binary column's value under a
  # model with a variance per group; without the rule, one is chosen
  lip <- y[, 3]
  expect_false(any(tapply(lip, got$labels, stats::var) == 0) && !somgpu:::model_shared(got$model))
  without <- somgpu:::with_control(select_control(point_variance = 0),
                                   somgpu:::map_grouping(unname(y), fit$clusters[[1L]], 8L))
  expect_false(somgpu:::model_shared(without$model))
  expect_true(any(tapply(lip, without$labels, function(v) length(unique(v))) == 1L))
})
