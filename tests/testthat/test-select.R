# select_size(): held-out error and bootstrap stability per ring size, and a recommended
# size.

# k groups of n_per rows around the vertices of a regular simplex in 5 dimensions (every
# two centres `sep` apart), unit spread
simplex_blobs <- function(k, sep = 8, n_per = 50, seed = 1) {
  set.seed(seed)
  basis <- qr.Q(qr(cbind(1, diag(6)[, 1:5])))[, 2:6] # orthonormal, orthogonal to (1, ..., 1)
  centres <- (diag(6) %*% basis)[seq_len(k), ] * sep / sqrt(2)
  centres[rep(seq_len(k), each = n_per), ] + matrix(rnorm(k * n_per * 5), ncol = 5)
}

# k groups around random centres at least min_sep apart
random_blobs <- function(k, min_sep = 8, n_per = 50, seed = 1) {
  set.seed(seed)
  repeat {
    centres <- matrix(stats::runif(k * 5, -8, 8), k)
    if (min(stats::dist(centres)) >= min_sep) break
  }
  centres[rep(seq_len(k), each = n_per), ] + matrix(rnorm(k * n_per * 5), ncol = 5)
}

test_that("on k well-separated Gaussian groups in 5 dimensions it recommends k", {
  for (k in 3:6) {
    sel <- select_size(simplex_blobs(k, seed = k), sizes = 2:9, seed = k, backend = "cpu",
                       threads = 2)
    expect_identical(sel$recommended, as.integer(k), label = sprintf("simplex, k = %d", k))
    expect_identical(sel$criteria$occupied[sel$criteria$size == k], as.integer(k))
    sel <- select_size(random_blobs(k, seed = 10 + k), sizes = 2:9, seed = k,
                       backend = "cpu", threads = 2)
    expect_identical(sel$recommended, as.integer(k), label = sprintf("random, k = %d", k))
  }
})

test_that("the criteria follow from the replicates by the documented rule", {
  y <- random_blobs(4, seed = 3)
  sel <- select_size(y, sizes = c(6, 2, 4, 3, 5), restarts = 2, bootstrap = 7, seed = 2,
                     iter_max = 60, backend = "cpu", threads = 2)
  cr <- sel$criteria
  rp <- sel$replicates
  expect_s3_class(sel, "somgpu_selection")
  expect_identical(cr$size, 2:6)
  expect_identical(nrow(rp), 7L * 5L)
  by_size <- split(rp, rp$size)
  expect_equal(cr$criterion, unname(vapply(by_size, function(d) median(d$criterion), 1)))
  expect_equal(cr$criterion_se, unname(vapply(by_size, function(d) {
    sqrt(pi / 2) * mad(d$criterion) / sqrt(nrow(d))
  }, 1)))
  expect_equal(cr$heldout_qe, unname(vapply(by_size, function(d) mean(d$heldout_qe), 1)))
  expect_equal(cr$train_qe, unname(vapply(by_size, function(d) mean(d$train_qe), 1)))
  expect_equal(rp$criterion, rp$heldout_qe / pmax(rp$stability, 1e-3))
  expect_true(all(cr$stability_lo <= cr$stability + 1e-12 & cr$stability <= cr$stability_hi + 1e-12))
  # the one-standard-error rule
  best <- which.min(cr$criterion)
  ok <- cr$criterion <= cr$criterion[best] + cr$criterion_se[best]
  expect_identical(sel$recommended, cr$size[which(ok)[1]])
  expect_match(sel$reason, sprintf("^N = %d %s", sel$recommended,
                                   if (sel$recommended == cr$size[best]) "has the lowest"
                                   else "is the smallest size"))
  # the fit on all rows is train()'s with the same arguments
  direct <- train(y, sizes = c(6, 2, 4, 3, 5), restarts = 2, iter_max = 60, seed = 2,
                  backend = "cpu", threads = 2, keep_data = FALSE, progress = FALSE)
  expect_identical(sel$fit$weights, direct$weights)
  expect_identical(sel$fit$clusters, direct$clusters)
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
  # holdout = 0: the training qe stands in for the held-out one
  h0 <- select_size(iris[1:4], sizes = 2:4, restarts = 1, bootstrap = 3, holdout = 0,
                    iter_max = 20, seed = 1, backend = "cpu", threads = 2)
  expect_identical(h0$criteria$heldout_qe, h0$criteria$train_qe)
})

test_that("print and plot show the criteria and take graphical parameters", {
  sel <- select_size(iris[1:4], sizes = 2:5, restarts = 1, bootstrap = 3, iter_max = 20,
                     seed = 1, backend = "cpu", threads = 2)
  out <- capture.output(print(sel))
  expect_match(out[1], "3 replicates")
  expect_true(any(grepl(sprintf("recommended: N = %d", sel$recommended), out)))
  expect_true(any(grepl("<-", out)))
  png(tempfile(fileext = ".png"))
  on.exit(dev.off())
  expect_silent(plot(sel))
  expect_silent(plot(sel, main = "iris", col = "red", pch = 2, xlab = "N", lwd = 2))
})

test_that("bad arguments are classed errors that name them", {
  y <- iris[1:4]
  err <- function(expr, pattern) {
    expect_error(expr, pattern, class = "somgpu_input_error")
  }
  err(select_size(iris), "numeric columns only")
  err(select_size(y, sizes = 3), "`sizes` must hold at least two")
  err(select_size(y, bootstrap = 1), "`bootstrap`")
  err(select_size(y, holdout = 0.95), "`holdout`")
  err(select_size(y, restarts = 0), "`restarts`")
  err(select_size(y, seed = "a"), "`seed`")
  err(select_size(y, nmax = 5), "sets `nmax` itself")
  err(select_size(y, sizes = 2:3, bootstrap = 2, iter_max = -1), "`iter_max`")
  err(select_size(y[1:2, ], sizes = 2:3, holdout = 0.5), "fewer than 2 rows")
})
