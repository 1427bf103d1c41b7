# select_size(): the groups the data hold (found on the largest map, every row given its
# group), the recommended size, held-out error and bootstrap stability per ring size, the
# groups' stability; and summary()'s suggestion by the same rule on one fit. The rule is
# checked against a slow reference written from its documentation (helper-groups.R).

quick <- function(y, ...) {
  select_size(y, ..., restarts = 2, bootstrap = 8, seed = 1, backend = "cpu", threads = 2,
              progress = FALSE)
}

test_that("on k separated groups it finds the k groups, every row in its own", {
  for (k in 3:6) {
    sel <- quick(simplex_blobs(k, seed = k), sizes = 2:9)
    expect_identical(sel$groups, as.integer(k), label = sprintf("simplex, k = %d", k))
    expect_identical(sel$recommended, as.integer(k))
    expect_match(sel$reason, sprintf("The data hold %d groups", k))
    truth <- rep(seq_len(k), each = 50)
    expect_identical(somgpu:::ari(sel$partition, truth), 1)
    y <- random_blobs(k, m = c(2, 3, 8, 12)[k - 2], seed = 10 + k)
    sel <- quick(y, sizes = 2:10)
    expect_identical(sel$groups, as.integer(k), label = sprintf("unequal groups, k = %d", k))
    expect_identical(sel$recommended, as.integer(k))
    # the groups: every row in one, each highly stable over the replicates
    expect_identical(length(sel$partition), nrow(y))
    expect_identical(sum(sel$group_table$rows), nrow(y))
    expect_identical(sel$group_table$rows, tabulate(sel$partition, k))
    expect_true(all(sel$group_table$stability > 0.9))
    expect_true(all(sel$group_table$reading == "highly stable"))
  }
})

test_that("data without groups: one group, no recommended size, said plainly", {
  u <- withr::with_seed(2, matrix(runif(600 * 3), ncol = 3))
  g <- withr::with_seed(3, matrix(rnorm(500 * 4), ncol = 4) %*% diag(c(3, 1, 1, 0.5)))
  for (y in list(u, g)) {
    sel <- quick(y, sizes = 2:8)
    expect_identical(sel$groups, 1L)
    expect_identical(sel$recommended, NA_integer_)
    expect_identical(sel$partition, rep(1L, nrow(y)))
    expect_match(sel$reason, "^No group structure")
    out <- capture.output(print(sel))
    expect_true(any(grepl("recommended: none", out)))
  }
})

test_that("many groups: as many as the largest size allows, small rings outvote nothing", {
  # 12 round groups on a 4 x 3 grid (spacing 10, sd 1, 40 rows each)
  centres <- as.matrix(expand.grid(x = (0:3) * 10, y = (0:2) * 10))
  y <- withr::with_seed(1, centres[rep(1:12, each = 40), ] + matrix(rnorm(960), ncol = 2))
  sel <- select_size(y, sizes = 2:16, bootstrap = 5, seed = 1, progress = FALSE)
  expect_identical(sel$groups, 12L)
  expect_identical(sel$recommended, 12L)
  expect_identical(somgpu:::ari(sel$partition, rep(1:12, each = 40)), 1)
  # with rings of at most 8 neurons: every neuron a group, said with a wider range
  sel <- select_size(y, sizes = 2:8, bootstrap = 5, seed = 1, progress = FALSE)
  expect_identical(sel$groups, 8L)
  expect_identical(sel$recommended, 8L)
  expect_match(sel$reason, "the groups reach the largest size and the data may hold more; compare a wider range \\(e.g. sizes = 2:16\\)")
  # fewer groups than the smallest size: the smallest size, with neurons to spare
  sel <- quick(simplex_blobs(2, seed = 3), sizes = c(3, 5, 6))
  expect_identical(sel$groups, 2L)
  expect_identical(sel$recommended, 3L)
  expect_match(sel$reason, "smallest size compared that holds them, with neurons to spare")
  expect_match(sel$reason, "Smaller sizes were not compared")
})

test_that("one column with two modes: two groups, each mode one", {
  v <- withr::with_seed(4, c(rnorm(150, 0, 1), rnorm(100, 5, 1)))
  sel <- quick(v, sizes = 2:12)
  expect_identical(sel$groups, 2L)
  expect_gt(somgpu:::ari(sel$partition, rep(1:2, c(150, 100))), 0.95)
  # a data frame's one column, with a gap and an extra row far out: still the two modes
  df <- data.frame(v = c(v, NA, 30))
  sel <- quick(df, sizes = 2:12)
  expect_identical(sel$groups, 2L)
  expect_identical(sel$partition[251], NA_integer_) # nothing observed: left out
})

test_that("the groups of a map follow the documented rule (a slow reference)", {
  for (case in 1:6) {
    y <- switch(case,
                random_blobs(3, m = 2, seed = 41),
                simplex_blobs(4, sep = 5, n_per = 30, seed = 42)[, 1:3],
                withr::with_seed(43, matrix(runif(400), ncol = 2)),
                as.matrix(scale(iris[1:4])),
                lip_blobs(1), # a binary column: its point masses no group of their own
                # a skewed group beside a Gaussian one: the classification cuts it into 3,
                # the mixture's BIC merges two of them back
                withr::with_seed(2, rbind(matrix(rnorm(600), ncol = 2),
                                          exp(matrix(rnorm(200, sd = 0.6), ncol = 2)) * 2 + 4)))
    N <- c(6L, 7L, 5L, 8L, 8L, 8L)[case]
    fit <- train(y, sizes = N, restarts = 2, seed = case, sigma0 = "auto", backend = "cpu")
    cl <- fit$clusters[[1L]]
    got <- somgpu:::map_grouping(unname(y), cl, N)
    want <- ref_grouping(unname(y), cl, N)
    expect_identical(got$model, want$family, label = sprintf("case %d model", case))
    expect_identical(got$groups, want$groups, label = sprintf("case %d groups", case))
    expect_equal(got$criterion, want$criterion, tolerance = 1e-8)
    expect_equal(got$scores, stats::setNames(want$scores, c("model", "groups", "criterion")),
                 tolerance = 1e-8)
    # the mixture's merge: the same BIC per count up to the classification's choice
    expect_equal(got$merged[c("groups", "mixture_bic")], want$merged, tolerance = 1e-8)
    if (case == 6) expect_identical(c(max(got$merged$groups), got$groups), c(4L, 3L))
    # EM from the chosen cells gives every row its group
    expect_identical(somgpu:::ari(got$labels, want$labels), 1)
  }
})

test_that("the reason claims a limit only where the map had one (issue 38)", {
  # mtcars: 4 groups joined from 8 cells of a few rows each; no claim that every neuron is
  # a group, no wider range
  sel <- select_size(mtcars, sizes = 2:8, scale = TRUE, seed = 1, progress = FALSE)
  expect_gt(sel$grouping$cells, sel$groups)
  expect_no_match(sel$reason, "group of its own|wider range|cannot show")
  # 50 rows, two groups, a ring of 200: no sizes = 2:400
  y <- withr::with_seed(2, rbind(matrix(rnorm(50, 0, 0.3), 25), matrix(rnorm(50, 3, 0.3), 25)))
  sel <- select_size(y, sizes = c(2, 200), seed = 1, bootstrap = 4, progress = FALSE)
  expect_identical(sel$groups, 2L)
  expect_no_match(sel$reason, "wider range|2:400")
  # the three limits, from the grouping's counts
  g <- function(groups, cells, occupied, size, rows) {
    list(rule = "gaussian", groups = groups, cells = cells, occupied = occupied, size = size,
         rows = rows, model = "EII", told = NA_integer_, par = list())
  }
  limit <- function(...) somgpu:::recommend_size(g(...), 2:8)$reason
  expect_match(limit(8L, 8L, 8L, 8L, 1000L),
               "Every neuron of N = 8 is a group of its own: .* compare a wider range \\(e.g. sizes = 2:16\\)")
  expect_match(limit(8L, 8L, 8L, 8L, 60L), # 60 rows: at most 12 groups of 5 rows
               "compare a wider range \\(e.g. sizes = 2:12\\)")
  expect_match(limit(8L, 8L, 8L, 8L, 40L),
               "the groups reach the largest size, and 40 rows cannot show more groups of at least 5 rows")
  expect_match(limit(6L, 6L, 4L, 8L, 30L),
               "Each group is one neuron's cell, and only 4 of the N = 8 map's neurons hold at least 5 of the 30 rows")
  expect_no_match(limit(4L, 8L, 8L, 8L, 1000L), "group of its own|wider range|cannot show")
})

test_that("rows that repeat as many points as groups: no more groups to show (issue 68)", {
  # 40 rows, 2 points 20 times each: 2 groups, every one a point, and no claim that more
  # rows could show more groups; with a third point among them (41 rows) the claim stays
  y <- cbind(a = rep(c(0, 5), each = 20), b = rep(c(0, 5), each = 20))
  sel <- select_size(y, seed = 1, threads = 1, progress = FALSE)
  expect_identical(sel$groups, 2L)
  expect_setequal(paste(sel$partition, y[, "a"]), c("1 0", "2 5", "2 0", "1 5")[
    if (sel$partition[1] == 1L) 1:2 else 3:4]) # each point one group
  expect_no_match(sel$reason, "may hold more groups|rows can show|wider range")
  expect_match(sel$reason, "the 40 rows are 2 distinct points")
  y3 <- rbind(y, c(a = 2.5, b = 0))
  sel <- select_size(y3, seed = 1, threads = 1, progress = FALSE)
  expect_identical(sel$groups, 2L)
  expect_match(sel$reason, "the data may hold more groups than 41 rows can show")
  # summary() of a fit says the same of its rows
  fit <- train(y, sizes = 2:20, seed = 1, threads = 1)
  expect_match(summary(fit)$reason, "the 40 rows are 2 distinct points")
})

test_that("the criteria follow from the replicates, the groups from the fit on all rows", {
  y <- random_blobs(4, seed = 3)
  sel <- select_size(y, sizes = c(6, 2, 4, 3, 5), restarts = 2, bootstrap = 7, seed = 2,
                     iter_max = 60, backend = "cpu", threads = 2)
  cr <- sel$criteria
  rp <- sel$replicates
  expect_s3_class(sel, "somgpu_selection")
  expect_identical(cr$size, 2:6)
  expect_identical(nrow(rp), 7L * 5L)
  by_size <- split(rp, rp$size)
  expect_equal(cr$heldout_qe, unname(vapply(by_size, function(d) mean(d$heldout_qe), 1)))
  expect_equal(cr$train_qe, unname(vapply(by_size, function(d) mean(d$train_qe), 1)))
  expect_true(all(cr$stability_lo <= cr$stability + 1e-12 & cr$stability <= cr$stability_hi + 1e-12))
  expect_identical(sel$recommended, sel$groups)
  # the fit on all rows is train()'s with the same arguments, the ring-scaled schedule
  direct <- train(y, sizes = c(6, 2, 4, 3, 5), restarts = 2, iter_max = 60, seed = 2,
                  sigma0 = "auto", backend = "cpu", threads = 2, keep_data = FALSE,
                  progress = FALSE)
  expect_identical(sel$fit$weights, direct$weights)
  expect_identical(sel$fit$clusters, direct$clusters)
  expect_identical(sel$sigma0, "auto")
  # its groups are those of its largest map, and summary() of it says the same
  g <- somgpu:::map_grouping(y, direct$clusters$N6, 6L)
  expect_identical(sel$partition, g$labels)
  expect_identical(sel$grouping$model, g$model)
  s <- summary(direct, data = y)
  expect_identical(s$groups, sel$groups)
  expect_identical(s$suggested, sel$recommended)
  expect_identical(s$partition, sel$partition)
  # the same words, and that they are the fit's largest map's Gaussian groups alone
  expect_identical(s$reason, paste(sub("the cells of the N", "the cells of the fit's N", sel$reason),
                                   "(The Gaussian groups of this fit's largest map alone: select_size() also tries groups of other shapes and checks them on bootstrap replicates, so its answer may differ.)"))
  printed <- gsub("\\s+", " ", paste(capture.output(print(s)), collapse = " "))
  expect_match(printed, "select_size() also tries groups of other shapes", fixed = TRUE)
  # the script's schedule on request
  s5 <- select_size(y, sizes = 2:4, restarts = 1, bootstrap = 2, seed = 2, iter_max = 20,
                    sigma0 = 5, backend = "cpu", threads = 2)
  expect_identical(s5$fit$params$sigma0, 5)
  expect_match(capture.output(print(s5))[1], "sigma0 = 5;")
})

test_that("each group's stability is its mean best Jaccard over the replicates", {
  # the groups of 10 rows, and two replicates' groups of them, each trained on some rows
  grouping <- list(groups = 3L, partition = c(1, 1, 1, 2, 2, 2, 3, 3, 3, 3))
  reps <- list(list(groups = c(2, 2, 1, 1, 1, 1, 3, 3, 3, NA)),
               list(groups = c(3, 3, 3, 3, 2, 2, 1, 1, 1, 1)),
               list(groups = NULL)) # a replicate whose map could not hold the groups
  work <- list(list(train = c(1, 2, 2, 3, 4, 5, 6, 7, 8, 9, 10)),
               list(train = c(1, 3, 5, 7, 9, 9)), list(train = 1:10))
  got <- somgpu:::group_stability(grouping, reps, work)
  jaccard <- function(a, b) length(intersect(a, b)) / length(union(a, b))
  want <- vapply(1:3, function(j) mean(vapply(1:2, function(b) {
    rows <- unique(work[[b]]$train)
    r <- reps[[b]]$groups
    rows <- rows[!is.na(r[rows])]
    mine <- rows[grouping$partition[rows] == j]
    max(vapply(unique(r[rows]), function(c) jaccard(mine, rows[r[rows] == c]), 0))
  }, 0)), 0)
  expect_equal(got$stability, want)
  expect_identical(got$rows, c(3L, 3L, 4L))
  expect_identical(got$reading, as.character(cut(want, c(-Inf, 0.6, 0.75, 0.85, Inf),
                                                 c("doubtful", "a pattern", "stable",
                                                   "highly stable"), right = FALSE)))
})

test_that("Davies-Bouldin and Calinski-Harabasz match a direct computation", {
  y <- random_blobs(3, seed = 5)
  sel <- select_size(y, sizes = 2:5, restarts = 2, bootstrap = 3, seed = 1, iter_max = 40,
                     backend = "cpu", threads = 2)
  for (s in 2:5) {
    cl <- sel$fit$clusters[[paste0("N", s)]]
    groups <- split(as.data.frame(y), cl)
    cent <- t(sapply(groups, colMeans))
    n <- nrow(y)
    k <- length(groups)
    within <- sum(sapply(seq_len(k), function(i) {
      sum((as.matrix(groups[[i]]) - matrix(cent[i, ], nrow(groups[[i]]), 5, byrow = TRUE))^2)
    }))
    between <- sum(sapply(seq_len(k), function(i) {
      nrow(groups[[i]]) * sum((cent[i, ] - colMeans(y))^2)
    }))
    ch <- (between / (k - 1)) / (within / (n - k))
    scatter <- sapply(seq_len(k), function(i) {
      g <- as.matrix(groups[[i]])
      mean(sqrt(rowSums((g - matrix(cent[i, ], nrow(g), 5, byrow = TRUE))^2)))
    })
    d <- as.matrix(dist(cent))
    db <- mean(sapply(seq_len(k), function(i) max((scatter[i] + scatter[-i]) / d[i, -i])))
    row <- sel$criteria$size == s
    expect_equal(sel$criteria$calinski_harabasz[row], ch)
    expect_equal(sel$criteria$davies_bouldin[row], db)
  }
})

test_that("it is reproducible, leaves R's generator alone and handles real data", {
  aq_args <- list(airquality, sizes = 2:5, restarts = 2, bootstrap = 4, iter_max = 30,
                  scale = TRUE, seed = 7, backend = "cpu", threads = 2)
  set.seed(42)
  before <- .Random.seed
  a <- do.call(select_size, aq_args)
  expect_identical(.Random.seed, before)
  b <- do.call(select_size, aq_args)
  expect_identical(a$criteria, b$criteria)
  expect_identical(a$recommended, b$recommended)
  expect_true(all(is.finite(a$criteria$heldout_qe)))
  # whatever the threads: the same selection, replicates, groups and their stability
  one <- do.call(select_size, utils::modifyList(aq_args, list(threads = 1)))
  expect_identical(one$criteria, a$criteria)
  expect_identical(one$replicates, a$replicates)
  expect_identical(one$partition, a$partition)
  expect_identical(one$group_table, a$group_table)
  expect_identical(nrow(a$fit$clusters), nrow(airquality))
  # seed = NULL: drawn from R's generator, stored
  set.seed(3)
  c1 <- select_size(iris[1:4], sizes = 2:4, restarts = 1, bootstrap = 3, iter_max = 20,
                    backend = "cpu", threads = 2)
  set.seed(3)
  c2 <- select_size(iris[1:4], sizes = 2:4, restarts = 1, bootstrap = 3, iter_max = 20,
                    backend = "cpu", threads = 2)
  expect_identical(c1$criteria, c2$criteria)
  expect_identical(c1$seed, c2$seed)
  # holdout = 0: no held-out error (NA), said in print
  h0 <- select_size(iris[1:4], sizes = 2:4, restarts = 1, bootstrap = 3, holdout = 0,
                    iter_max = 20, seed = 1, backend = "cpu", threads = 2)
  expect_true(all(is.na(h0$criteria$heldout_qe)))
  expect_output(print(h0), "no rows held out, holdout = 0")
})

test_that("replicates on future workers give the same selection", {
  skip_if_no_future()
  local_plan(future::sequential)
  y <- simplex_blobs(3, seed = 4)
  args <- list(y, sizes = 2:5, restarts = 2, bootstrap = 4, iter_max = 30, seed = 3,
               backend = "cpu", threads = 2, progress = FALSE)
  a <- do.call(select_size, args)
  b <- do.call(select_size, c(args, parallel = "future"))
  expect_identical(b$criteria, a$criteria)
  expect_identical(b$replicates, a$replicates)
  expect_identical(b$partition, a$partition)
  expect_identical(b$group_table, a$group_table)
})

test_that("print and plot show the selection and take graphical parameters", {
  sel <- quick(simplex_blobs(3, seed = 6), sizes = 2:5)
  out <- capture.output(print(sel))
  expect_match(out[1], "8 replicates .* sigma0 = \"auto\" \\(ring-scaled; the original script's: sigma0 = 5\\)")
  expect_true(any(grepl("recommended: N = 3", out)))
  expect_true(any(grepl("<-", out)))
  expect_true(any(grepl("groups \\(each row's in `partition`\\), bootstrap stability", out)))
  expect_true(any(grepl("highly stable", out)))
  png(tempfile(fileext = ".png"))
  on.exit(dev.off())
  expect_silent(plot(sel))
  expect_silent(plot(sel, main = "three groups", col = "red", pch = 2, xlab = "N", lwd = 2))
})

test_that("arguments: train()'s pass through, typos and conflicts are classed errors", {
  y <- iris[1:4]
  err <- function(expr, pattern) {
    expect_error(expr, pattern, class = "somgpu_input_error")
  }
  err(select_size(data.frame(y, when = Sys.Date())), "not usable: `when` \\(Date\\)")
  err(select_size(y, sizes = 3), "at least two ring sizes")
  err(select_size(y, bootstrap = 1), "`bootstrap`")
  err(select_size(y, holdout = 0.95), "`holdout`")
  err(select_size(y, restarts = 0), "`restarts`")
  err(select_size(y, seed = "a"), "`seed`")
  err(select_size(y, sigma0 = "ring"), "`sigma0`")
  err(select_size(y, itermax = 30), "`itermax` is not an argument of select_size\\(\\) or train\\(\\) \\(did you mean `iter_max`\\?\\)")
  err(select_size(y, 2:4, 2, 3, 0.2, 1, "auto", FALSE, "none", "auto", NULL, 30), "must be named")
  err(select_size(y, sizes = 2:4, nmax = 5), "either `sizes` or `nmin`/`nmax`")
  err(select_size(y, sizes = 2:3, bootstrap = 2, iter_max = -1), "`iter_max`")
  err(select_size(y[1:2, ], sizes = 2:3, holdout = 0.5), "fewer than 2 rows")
  err(select_size(y, sizes = 2:3, parallel = "fork"), "`parallel`")
  # nmin / nmax, progress, keep_data
  sel <- select_size(y, nmin = 2, nmax = 4, restarts = 1, bootstrap = 2, iter_max = 10,
                     seed = 1, progress = FALSE, keep_data = TRUE, threads = 2)
  expect_identical(sel$criteria$size, 2:4)
  expect_false(is.null(sel$fit$data))
})

test_that("summary() suggests the number of groups from its own maps", {
  y <- random_blobs(4, seed = 31)
  fit <- train(y, nmax = 9, restarts = 2, seed = 1, threads = 2)
  s <- summary(fit)
  expect_identical(s$groups, 4L)
  expect_identical(s$suggested, 4L)
  expect_identical(s$rule, "groups")
  expect_identical(s$partition, somgpu:::map_grouping(y, fit$clusters$N9, 9L)$labels)
  out <- capture.output(print(s))
  expect_true(any(grepl("suggested size \\(groups in the data\\): 4", out)))
  # without the data: the elbow of qe, said to be a rough guide
  lean <- train(y, nmax = 9, restarts = 2, seed = 1, threads = 2, keep_data = FALSE)
  s2 <- summary(lean)
  expect_identical(s2$rule, "elbow")
  expect_identical(s2$suggested, somgpu:::elbow(2:9, s2$table$qe))
  expect_match(s2$reason, "rough guide")
  expect_identical(summary(lean, data = y)$suggested, 4L)
  # no groups: no suggestion
  u <- withr::with_seed(2, matrix(runif(900), ncol = 3))
  su <- summary(train(u, nmax = 6, seed = 1, threads = 2))
  expect_identical(su$groups, 1L)
  expect_identical(su$suggested, NA_integer_)
})

test_that("one answer: summary(), tidy() and augment() describe select_size()'s groups", {
  # four groups at the corners of a square (the issue's case): both say 4
  corners <- rbind(c(0, 0), c(6, 0), c(0, 6), c(6, 6))
  g4 <- withr::with_seed(2, corners[rep(1:4, each = 60), ] + matrix(rnorm(480, sd = 0.6), ncol = 2))
  sel <- select_size(g4, sizes = 2:7, bootstrap = 6, seed = 1, progress = FALSE)
  fit <- train(g4, sizes = 2:7, restarts = 4, seed = 1, sigma0 = "auto")
  s <- summary(fit)
  expect_identical(sel$groups, 4L)
  expect_identical(s$suggested, sel$recommended)
  expect_identical(s$partition, sel$partition)
  skip_if_not_installed("generics")
  aug <- suppressMessages(generics::augment(fit))
  expect_identical(as.integer(aug$.group), sel$partition)
  expect_identical(nlevels(aug$.cluster), 4L) # the suggested size
  td <- generics::tidy(sel)
  expect_identical(nrow(td), 4L)
  expect_identical(td$rows, tabulate(sel$partition, 4))
  expect_equal(as.matrix(td[c("V1", "V2")]),
               unname(t(sapply(1:4, function(k) colMeans(g4[sel$partition == k, ])))),
               tolerance = 0.05, ignore_attr = TRUE)
  sa <- generics::augment(sel, g4)
  expect_identical(as.integer(sa$.group), sel$partition)
  # new rows near each corner join that corner's group
  near <- generics::augment(sel, newdata = corners + 0.1)
  expect_identical(as.integer(near$.group),
                   vapply(1:4, function(k) sel$partition[(k - 1) * 60 + 1], 1L))
})

test_that("at scale: the rule on a sample, every row given its group, in memory or from a file", {
  set.seed(11)
  centres <- matrix(c(0, 0, 8, 0, 0, 8), ncol = 2, byrow = TRUE)
  g <- sample.int(3, 3000, replace = TRUE)
  y <- centres[g, ] + matrix(rnorm(6000), ncol = 2)
  args <- list(sizes = 2:5, restarts = 1, bootstrap = 3, iter_max = 10, seed = 4,
               threads = 1, progress = FALSE)
  sel <- do.call(select_size, c(list(y, sample_rows = 1000), args))
  expect_true(sel$strategy$sampled)
  expect_identical(sel$strategy$rows, 1000L)
  expect_identical(sel$strategy$algorithm, "batch") # at scale unless `...` says otherwise
  expect_identical(sel$groups, 3L)
  expect_length(sel$partition, 3000L)
  expect_false(anyNA(sel$partition))
  expect_identical(sum(sel$group_table$rows), 3000L)
  expect_gt(somgpu:::ari(sel$partition, g), 0.99)
  expect_match(capture.output(print(sel))[2], "a sample of 1,000 of the 3,000 rows, batch training")
  expect_match(capture.output(print(summary(sel)))[2],
               "^3,000 of 3,000 rows grouped \\(the groups found on a sample of 1,000\\); ")
  # the rows assigned a block at a time: the same groups
  withr::with_options(list(somgpu.select_block_rows = 700L), {
    blocks <- do.call(select_size, c(list(y, sample_rows = 1000), args))
  })
  expect_identical(blocks$partition, sel$partition)
  # the same rows from a file-backed matrix: the same answer
  skip_if_not_installed("bigmemory")
  dir <- withr::local_tempdir()
  bm <- bigmemory::as.big.matrix(y, backingfile = "y.bin", backingpath = dir,
                                 descriptorfile = "y.desc")
  from_file <- do.call(select_size, c(list(bm, sample_rows = 1000), args))
  expect_identical(from_file$partition, sel$partition)
  expect_identical(from_file$criteria, sel$criteria)
  desc <- do.call(select_size, c(list(bigmemory::describe(bm), sample_rows = 1000), args))
  expect_identical(desc$partition, sel$partition)
  # every row's group to a file instead
  path <- file.path(dir, "groups.bin")
  to_file <- do.call(select_size, c(list(bm, sample_rows = 1000, groups_file = path), args))
  expect_null(to_file$partition)
  expect_identical(to_file$groups_file, file.path(normalizePath(dir), "groups.bin"))
  back <- bigmemory::attach.big.matrix(paste0(path, ".desc"))
  expect_identical(colnames(back), "group")
  expect_identical(back[, 1], sel$partition)
  expect_identical(to_file$group_table, sel$group_table)
  expect_error(do.call(select_size, c(list(bm, sample_rows = 1000, groups_file = path), args)),
               "`groups_file`: .* already exist", class = "somgpu_input_error")
  expect_error(do.call(select_size, c(list(y, groups_file = path), args)),
               "`groups_file` is for file-backed data", class = "somgpu_input_error")
})

test_that("no sampling below sample_rows; sample_rows is checked", {
  y <- iris[, 1:4]
  args <- list(sizes = 2:4, restarts = 1, bootstrap = 2, iter_max = 10, seed = 2,
               threads = 1, progress = FALSE, scale = TRUE)
  a <- do.call(select_size, c(list(y), args))
  b <- do.call(select_size, c(list(y), args, sample_rows = Inf))
  expect_false(a$strategy$sampled)
  expect_identical(a$strategy$algorithm, "online")
  expect_identical(a$partition, b$partition)
  expect_identical(a$criteria, b$criteria)
  expect_error(select_size(y, sample_rows = 10), "`sample_rows` must be a single whole number from 100",
               class = "somgpu_input_error")
  expect_error(select_size(y, sample_rows = "all"), "`sample_rows`", class = "somgpu_input_error")
})

test_that("from 5,000 rows the selection trains in batch, unless told the algorithm", {
  y <- withr::with_seed(8, matrix(c(rnorm(5000), rnorm(5000, 6)), ncol = 2))
  args <- list(sizes = 2:3, restarts = 1, bootstrap = 2, iter_max = 4, seed = 2,
               threads = 1, progress = FALSE)
  big <- do.call(select_size, c(list(y), args))
  expect_identical(big$fit$params$algorithm, "batch")
  expect_match(big$strategy$text, "all 5,000 rows, batch training")
  expect_identical(do.call(select_size, c(list(y[-1, ]), args))$fit$params$algorithm, "online")
  told <- do.call(select_size, c(list(y), args, algorithm = "online"))
  expect_identical(told$fit$params$algorithm, "online")
})

test_that("predict() of a selection gives new rows their groups, as its own rows got theirs", {
  y <- simplex_blobs(3, sep = 6, n_per = 40, seed = 7)
  sel <- quick(y, sizes = 2:5)
  expect_identical(predict(sel, y), sel$partition)
  expect_identical(predict(sel, y[c(5, 45, 85), ]), sel$partition[c(5, 45, 85)])
  expect_identical(predict(sel, y[0, , drop = FALSE]), integer(0))
  expect_identical(predict(sel), sel$partition) # its own rows, as predict() of a fit
  df <- data.frame(y, row.names = sprintf("r%d", seq_len(nrow(y))))
  named <- quick(df, sizes = 2:5)
  expect_identical(predict(named), named$partition)
  expect_identical(unname(predict(named, df)), unname(named$partition))
  skip_if_not_installed("bigmemory")
  dir <- withr::local_tempdir()
  expect_identical(predict(sel, file_matrix(y, dir)), sel$partition) # file-backed, in blocks
  skip_if_not_installed("generics")
  expect_identical(as.integer(generics::augment(sel, y)$.group), sel$partition)
})

test_that("each group's reading is that of its stability as printed", {
  # means written out: 0.5996 prints 0.60 and reads as 0.60 does; 0.594 prints 0.59
  jac <- rbind(rep(0.5996, 4), rep(0.594, 4), rep(0.7496, 4), rep(0.851, 4), rep(0.95, 4))
  tab <- somgpu:::stability_table(5L, c(1:5, 1L), jac)
  expect_identical(sprintf("%.2f", tab$stability), c("0.60", "0.59", "0.75", "0.85", "0.95"))
  expect_identical(tab$reading, c("a pattern", "doubtful", "stable", "highly stable",
                                  "highly stable"))
  expect_identical(tab$rows, c(2L, 1L, 1L, 1L, 1L))
})

test_that("the replicates run in rounds until every group's reading is settled", {
  # the rounds: 10 at a time up to bootstrap
  expect_identical(unname(somgpu:::replicate_rounds(25)), list(1:10, 11:20, 21:25))
  expect_identical(unname(somgpu:::replicate_rounds(4)), list(1:4))
  # settled: each group's mean plus and minus two standard errors in one reading band,
  # written out by hand (bands 0.6, 0.75, 0.85)
  settled <- function(jac) {
    somgpu:::readings_settled(structure(data.frame(group = seq_len(nrow(jac))), jaccard = jac))
  }
  expect_true(settled(rbind(rep(c(0.95, 0.97), 5), rep(c(0.65, 0.7), 5))))
  # mean 0.76, sd 0.0527: 0.76 - 2 * 0.0527 / sqrt(10) = 0.727 is below 0.75
  straddles <- rep(c(0.71, 0.81), 5)
  expect_lt(mean(straddles) - 2 * sd(straddles) / sqrt(10), 0.75)
  expect_false(settled(rbind(rep(0.95, 10), straddles)))
  # replicates a group could not be measured in are not counted; one reading is not enough
  expect_false(settled(rbind(c(0.9, rep(NA, 9)))))
  expect_true(settled(rbind(c(0.9, 0.9, 0.91, rep(NA, 7)))))
  expect_true(somgpu:::readings_settled(NULL)) # no groups: nothing to settle
  # on well separated groups the first round settles them: 10 replicates of 20, each the
  # same as in a call that asked for 10 (a replicate's rows and seed do not depend on the
  # rounds)
  y <- simplex_blobs(3, seed = 2)
  args <- list(y, sizes = 2:5, restarts = 1, iter_max = 30, seed = 5, backend = "cpu",
               threads = 2, progress = FALSE)
  s20 <- do.call(select_size, c(args, bootstrap = 20))
  s10 <- do.call(select_size, c(args, bootstrap = 10))
  expect_identical(s20$bootstrap, 10L)
  expect_true(all(s20$group_table$reading == "highly stable"))
  expect_identical(s20$replicates, s10$replicates)
  expect_identical(s20$group_table, s10$group_table)
  expect_identical(max(s20$replicates$replicate), 10L)
})

test_that("summary() of a selection: its groups in a few lines, as glance() and print() say", {
  y <- simplex_blobs(3, seed = 3)
  sel <- quick(y, sizes = 2:5)
  s <- summary(sel)
  expect_s3_class(s, "summary.somgpu_selection")
  g <- generics::glance(sel)
  expect_identical(s$groups, 3L)
  expect_identical(s$groups, g$groups)
  expect_identical(s$recommended, g$recommended)
  expect_identical(s$model, g$model)
  expect_identical(s$rule, g$rule)
  expect_identical(s$rule, sel$grouping$rule)
  expect_identical(s$decisions, sel$decisions)
  expect_identical(s$rows, sum(!is.na(sel$partition)))
  expect_identical(s$ran_on, g$rows)
  expect_identical(s$bootstrap, sel$bootstrap)
  expect_identical(s$group_table, sel$group_table)
  expect_identical(s$rule, "gaussian")
  expect_false(s$told)
  out <- capture.output(print(s))
  expect_match(out[1], sprintf("^3 groups \\(rule gaussian: Gaussian, %s\\); recommended size: N = 3$", s$model))
  # the decisions, every rule in the pipeline's order, one line each at least
  at <- grep("^how the groups were chosen", out)
  expect_length(at, 1L)
  lead <- sub("^  ([a-z]+) +(accepted|declined|not tried) .*$", "\\1 \\2",
              grep("^  [a-z]+ +(accepted|declined|not tried) ", out[-seq_len(at)], value = TRUE))
  expect_identical(lead, paste(sel$decisions$rule, sel$decisions$outcome))
  expect_match(out[2], "^150 of 150 rows grouped; [0-9]+ replicates; [0-9.]+ s$")
  expect_true(any(grepl("highly stable", out)))
  # told the number, noise set aside: said so
  told <- quick(y, sizes = 2:5, groups = 2, noise = TRUE)
  st <- summary(told)
  expect_true(st$told)
  expect_identical(st$groups, 2L)
  expect_identical(st$noise_rows, told$noise_rows)
  expect_identical(st$rows, sum(!is.na(told$partition)))
  out <- capture.output(print(st))
  expect_match(out[1], "^2 groups \\(.*, told their number\\); recommended size: N = 2$")
  expect_true(sprintf("in no group: %d %s", told$noise_rows,
                      if (told$noise_rows == 1) "row" else "rows") %in% out)
  expect_identical(somgpu:::count_text(1, "row"), "1 row")
  expect_identical(somgpu:::count_text(0, "row"), "0 rows")
  expect_identical(somgpu:::count_text(1500, "row"), "1,500 rows")
  # no group structure
  flat <- quick(matrix(stats::runif(600), ncol = 3), sizes = 2:4)
  expect_match(capture.output(print(summary(flat)))[1],
               "^1 group \\(rule gaussian: no group structure\\); recommended size: none$")
})

test_that("the extreme seeds work: the replicates' seeds are derived without overflow", {
  y <- as.matrix(iris[, 1:4])
  for (s in c(.Machine$integer.max, -.Machine$integer.max)) {
    expect_no_warning(sel <- select_size(y, sizes = 2:3, restarts = 1, bootstrap = 2, seed = s,
                                         threads = 1, progress = FALSE))
    expect_identical(sel$seed, as.integer(s))
    expect_true(all(sel$partition %in% seq_len(sel$groups)))
  }
  # the derived seeds stay R's integers, and equal the integer arithmetic where it fits
  expect_identical(somgpu:::derived_seed(.Machine$integer.max, 3), 3L)
  expect_identical(somgpu:::derived_seed(-5L, 1), (-5L + 1L) %% .Machine$integer.max)
})
