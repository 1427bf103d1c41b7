# Wide data (issue 66): from "wide_columns" columns select_size() runs on the leading
# principal components above the noise (R/select_reduce.R). The projection is checked
# against R's own svd()/prcomp(), the groups against the truth, new rows against the
# selection's own, and a time limit stops it at every width.

# k groups of `per` rows apart in the first `informative` of m columns (unit noise).
wide_groups <- function(k = 3, per = 40, m = 600, informative = 20, sep = 3, seed = 1) {
  withr::with_seed(seed, {
    centres <- matrix(0, k, m)
    centres[, seq_len(informative)] <- rnorm(k * informative, sd = sep)
    g <- rep(seq_len(k), each = per)
    x <- centres[g, ] + matrix(rnorm(k * per * m), k * per)
  })
  colnames(x) <- sprintf("gene%04d", seq_len(m))
  list(x = x, g = g)
}

quick_wide <- function(x, ...) {
  select_size(x, sizes = 2:8, restarts = 2, bootstrap = 6, seed = 1, backend = "cpu",
              threads = 2, progress = FALSE, ...)
}

test_that("the truncated SVD is R's svd(): the same values and subspace, signs fixed", {
  planted <- function(n, m, seed) {
    withr::with_seed(seed, {
      matrix(rnorm(n * m), n) + outer(rnorm(n, sd = 6), rnorm(m)) +
        outer(rnorm(n, sd = 4), rnorm(m))
    })
  }
  check <- function(x, k, bulk) {
    xc <- scale(x, scale = FALSE)
    ref <- svd(xc, nu = 0, nv = 5)
    s <- somgpu:::truncated_svd(xc, k, seed = 1)
    # the two planted directions to machine precision, the noise's bulk within `bulk`
    expect_equal(s$d[1:2], ref$d[1:2], tolerance = 1e-10)
    expect_equal(s$d[3:5], ref$d[3:5], tolerance = bulk)
    # the leading directions span the same subspace: |cos| of each with svd()'s is 1
    expect_equal(abs(colSums(s$v[, 1:2] * ref$v[, 1:2])), c(1, 1), tolerance = 1e-8)
    # each direction with its largest loading positive
    expect_true(all(apply(s$v, 2, function(v) v[which.max(abs(v))] > 0)))
    invisible(xc)
  }
  x <- planted(200, 400, 3)
  check(x, 60L, 1e-10) # LAPACK's svd() itself
  check(x, 5L, 1e-10) # the Gram matrix's eigenvectors
  check(t(x), 5L, 1e-10) # ... of the other side
  xc <- check(planted(650, 700, 5), 5L, 0.02) # randomized
  # the same from the same seed, whatever the session's generator
  set.seed(99)
  a <- somgpu:::truncated_svd(xc, 5L, seed = 7)
  set.seed(100)
  expect_identical(somgpu:::truncated_svd(xc, 5L, seed = 7), a)
})

test_that("the components above the noise: none of pure noise, each planted one", {
  withr::with_seed(4, {
    noise <- matrix(rnorm(150 * 1000), 150)
    planted <- noise + outer(rep(c(-3, 3), 75), rnorm(1000) / sqrt(1000) * 10) +
      outer(rep(c(-2, 0, 2), 50), rnorm(1000) / sqrt(1000) * 10)
  })
  count <- function(x) {
    xc <- scale(x, scale = FALSE)
    s <- somgpu:::truncated_svd(xc, 20L, seed = 1)
    somgpu:::above_noise(s$d, sum(xc^2), nrow(x), ncol(x))
  }
  expect_identical(count(noise), 1L) # at least one is kept
  expect_identical(count(planted), 2L)
})

test_that("wide data: the groups found on the components, said in print, decisions, glance", {
  d <- wide_groups()
  x0 <- d$x
  sel <- quick_wide(d$x)
  expect_identical(d$x, x0) # the user's data untouched
  expect_identical(sel$groups, 3L)
  expect_identical(somgpu:::ari(sel$partition, d$g), 1)
  red <- sel$reduction
  expect_false(is.null(red))
  expect_identical(names(red), somgpu:::reduction_fields)
  k <- length(red$sdev)
  expect_true(k >= 2L && k <= 5L) # three groups span two directions; noise near the edge
  expect_identical(sel$strategy$components, k)
  expect_equal(sel$strategy$variance_explained, sum(red$explained))
  # the variance explained as prcomp() gives it
  pc <- stats::prcomp(d$x)
  # (the two the groups span to machine precision; a third is the noise's, within 0.1%)
  expect_equal(red$explained[1:2], (pc$sdev^2 / sum(pc$sdev^2))[1:2], tolerance = 1e-8)
  expect_equal(red$sdev[1:2], pc$sdev[1:2], tolerance = 1e-8)
  expect_equal(red$sdev, pc$sdev[1:k], tolerance = 1e-3)
  # the fit trained on the components, in their units
  expect_identical(sel$fit$params$colnames, paste0("PC", seq_len(k)))
  expect_null(sel$fit$scaling)
  # said: the first decision, the print (components, variance, more columns than rows)
  expect_identical(sel$decisions$rule[1], "components")
  expect_identical(sel$decisions$outcome[1], "applied")
  expect_equal(sel$decisions$value[1], sum(red$explained))
  expect_match(sel$decisions$reason[1], sprintf("%d leading principal components of the 600 columns", k))
  expect_match(sel$decisions$reason[1], "the columns outnumber the rows")
  out <- paste(capture.output(print(sel)), collapse = " ")
  expect_match(out, sprintf("reduced to their %d leading principal components", k))
  expect_match(out, "more columns \\(600\\) than rows")
  expect_match(out, "columns kept in their units")
  sm <- paste(capture.output(print(summary(sel))), collapse = " ")
  expect_match(sm, "components applied")
  skip_if_not_installed("generics")
  gl <- generics::glance(sel)
  expect_identical(gl$components, k)
  expect_identical(gl$groups, 3L)
})

test_that("new rows of a wide selection: projected, their groups as the selection's own", {
  d <- wide_groups()
  sel <- quick_wide(d$x)
  expect_identical(predict(sel, d$x), sel$partition)
  # by name, from a data frame with the columns in another order
  df <- as.data.frame(d$x)[, rev(colnames(d$x))]
  expect_identical(predict(sel, df[c(1, 41, 81), ]),
                   stats::setNames(sel$partition[c(1, 41, 81)], c("1", "41", "81")))
  # a row missing most of its values is left out; one missing a few keeps its group
  y <- d$x[c(1, 41), ]
  y[1, 1:500] <- NA
  y[2, 1:5] <- NA
  expect_identical(predict(sel, y), c(NA, sel$partition[41]))
  expect_error(predict(sel, d$x[, 1:10]), class = "somgpu_input_error")
  skip_if_not_installed("generics")
  au <- generics::augment(sel, data = d$x[1:5, ])
  expect_identical(as.integer(au$.group), sel$partition[1:5])
  expect_error(generics::augment(sel), class = "somgpu_input_error")
  kept <- quick_wide(d$x, keep_data = TRUE)
  expect_error(generics::augment(kept), "principal components", class = "somgpu_input_error")
  # saved and read back, it still predicts
  path <- tempfile(fileext = ".rds")
  saveRDS(sel, path)
  expect_identical(predict(readRDS(path), d$x[1:3, ]), sel$partition[1:3])
})

test_that("components: FALSE keeps the columns, k takes k, bad values are classed errors", {
  d <- wide_groups(m = 80, informative = 10, per = 30)
  sel <- quick_wide(d$x, components = FALSE)
  expect_null(sel$reduction)
  expect_false("components" %in% sel$decisions$rule)
  expect_identical(sel$fit$params$m, 80L)
  expect_true(is.na(sel$strategy$components))
  three <- quick_wide(d$x, components = 3)
  expect_identical(length(three$reduction$sdev), 3L)
  expect_false(three$reduction$auto)
  expect_identical(somgpu:::ari(three$partition, d$g), 1)
  # narrow data with a number of components: reduced too
  narrow <- quick_wide(iris[1:4], components = 2)
  expect_identical(narrow$fit$params$colnames, c("PC1", "PC2"))
  expect_identical(unname(predict(narrow, iris[1:3, 1:4])), narrow$partition[1:3])
  # narrow data under "auto": the columns, as before
  expect_null(quick_wide(iris[1:4])$reduction)
  expect_error(quick_wide(d$x, components = "many"), "components", class = "somgpu_input_error")
  expect_error(quick_wide(d$x, components = 0), class = "somgpu_input_error")
  expect_error(quick_wide(d$x, components = c(2, 3)), class = "somgpu_input_error")
  frame <- data.frame(d$x[, 1:70], f = factor(rep(c("a", "b", "c"), 30)))
  expect_error(quick_wide(frame, components = 5), "categorical", class = "somgpu_input_error")
})

test_that("scale = TRUE standardizes a wide table before its components", {
  d <- wide_groups()
  x <- d$x
  x[, 1:300] <- x[, 1:300] * 1000 # quiet noise columns made loud
  sel <- quick_wide(x, scale = TRUE)
  expect_equal(sel$reduction$scale, unname(apply(x, 2, sd)), tolerance = 1e-12)
  # (standardized, the group columns' spread shrinks the groups a little)
  expect_gt(somgpu:::ari(sel$partition, d$g), 0.9)
  expect_true(sel$strategy$scaled)
  # the same centres and scales given as a list: the same components and groups
  given <- quick_wide(x, scale = list(center = colMeans(x), scale = apply(x, 2, sd)))
  expect_equal(given$reduction$rotation, sel$reduction$rotation, tolerance = 1e-10)
  expect_identical(given$partition, sel$partition)
  expect_error(quick_wide(x, scale = list(center = 1:3, scale = apply(x, 2, sd))),
               "scale\\$center", class = "somgpu_input_error")
})

test_that("a time limit stops select_size() and train() on wide data within seconds", {
  d <- wide_groups(k = 4, per = 150, m = 3000, informative = 30)
  # the limit a quarter of the whole run, which it stops at the next check (the 30 s bound
  # is the interrupt tests' own: a hang would fail, not a slow machine)
  stop_after <- function(expr, limit) {
    t0 <- proc.time()[["elapsed"]]
    err <- tryCatch({
      setTimeLimit(elapsed = limit, transient = TRUE)
      force(expr)
      NULL
    }, error = function(e) e)
    setTimeLimit(elapsed = Inf)
    list(error = err, seconds = proc.time()[["elapsed"]] - t0)
  }
  whole <- stop_after(select_size(d$x, sizes = 2:20, bootstrap = 20, seed = 1, threads = 2,
                                  progress = FALSE), Inf)$seconds
  r <- stop_after(select_size(d$x, sizes = 2:20, bootstrap = 20, seed = 1, threads = 2,
                              progress = FALSE), whole / 4)
  expect_match(conditionMessage(r$error), "time limit")
  expect_lt(r$seconds, 30)
  r <- stop_after(train(d$x, nmax = 20, restarts = 4, seed = 1, threads = 2), 0.3)
  expect_match(conditionMessage(r$error), "time limit")
  expect_lt(r$seconds, 30)
  # the columns themselves (components = FALSE): the Gaussian joins stop between two pairs
  withr::with_seed(2, x <- matrix(rnorm(100 * 300), 100))
  r <- stop_after(select_size(x, sizes = 2:10, bootstrap = 2, seed = 1, threads = 2,
                              progress = FALSE, components = FALSE), 1)
  expect_match(conditionMessage(r$error), "time limit")
  expect_lt(r$seconds, 30)
  # and the session goes on
  expect_s3_class(quick_wide(wide_groups(m = 100)$x), "somgpu_selection")
})

test_that("profiles of thousands of columns: the 30 that differ most, said in the figure", {
  d <- wide_groups(m = 2000)
  fit <- train(d$x, nmax = 4, seed = 1, threads = 2, iter_max = 20)
  w <- fit$weights$N3
  pd <- somgpu:::profiles_data(w)
  expect_identical(length(pd$vars), 30L)
  spread <- apply(w, 2, function(v) diff(range(v)))
  expect_identical(pd$vars, colnames(w)[order(-spread)][1:30])
  expect_match(pd$note, "the 30 of 2,000 variables whose neurons differ most")
  expect_identical(dim(pd$span), c(3L, 30L))
  # narrow: every variable, no note
  expect_identical(somgpu:::profiles_data(w[, 1:5])$note, "")
  path <- tempfile(fileext = ".png")
  grDevices::png(path, 480, 480)
  expect_silent(plot(fit, type = "profiles", size = 3))
  grDevices::dev.off()
  expect_gt(file.size(path), 1000)
  skip_if_not_installed("ggplot2")
  p <- ggplot2::autoplot(fit, type = "profiles", size = 3)
  expect_identical(p$labels$subtitle, pd$note)
  expect_identical(nlevels(p$data$variable), 30L)
})

test_that("a fit of thousands of columns predicts and augments new rows by name", {
  d <- wide_groups(m = 2000)
  fit <- train(d$x, nmax = 4, seed = 1, threads = 2, iter_max = 20)
  expect_identical(predict(fit, d$x, sizes = 3)[[1]], fit$clusters$N3)
  df <- as.data.frame(d$x)[c(5, 50), rev(colnames(d$x))]
  expect_identical(predict(fit, df, sizes = 3)[[1]], fit$clusters$N3[c(5, 50)])
  # its summary: the elbow, saying why (the Gaussian rule on 2,000 columns took minutes)
  s <- summary(fit)
  expect_identical(s$rule, "elbow")
  expect_match(s$reason, "2,000 columns, whose groups select_size\\(\\) finds on their principal components")
  expect_error(plot(fit, "groups"), "select_size", class = "somgpu_input_error")
  skip_if_not_installed("generics")
  au <- generics::augment(fit, d$x[1:4, ], size = 3)
  expect_identical(nrow(au), 4L)
  expect_identical(as.integer(au$.cluster), fit$clusters$N3[1:4])
  expect_false(".group" %in% names(au))
})
