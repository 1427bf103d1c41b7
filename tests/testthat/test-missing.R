# Missing values and column weights: the general rule against the R reference, CPU and
# OpenCL bit for bit, rows left out (na_max), and real data end to end.

gappy <- function(n, m, share, rng_seed) {
  withr::with_seed(rng_seed, {
    y <- matrix(rnorm(n * m), n, m, dimnames = list(NULL, paste0("v", seq_len(m))))
    y[sample(length(y), round(share * length(y)))] <- NA
    y[rowSums(!is.na(y)) == 0, 1] <- 0 # every row keeps an observed value
    y
  })
}

test_that("online with missing values follows the reference (identical rows, any order)", {
  row <- c(0.3, NA, 0.8, -0.2)
  y <- matrix(row, 40, 4, byrow = TRUE)
  init <- list(matrix(seq(-1, 1, length.out = 12), 3), matrix(seq(0.5, -0.5, length.out = 20), 5))
  # a column never observed cannot be trained: refused (its weights would stay as they began)
  expect_error(train(y, sizes = c(3, 5), iter_max = 20, init = init, seed = 4),
               "column 2 of `y` has no observed value", class = "somgpu_input_error")
  y[c(5, 17), 2] <- 0.5
  fit <- train(y, sizes = c(3, 5), iter_max = 20, init = init, seed = 4, backend = "cpu")
  for (i in 1:2) {
    ref <- ref_train_map_general(y, init[[i]], iter_max = 20, seed = 4, restart = 0)
    expect_equal(unname(fit$weights[[i]]), ref, tolerance = 1e-12)
  }
})

test_that("online with missing values and weights follows the reference on random data", {
  y <- gappy(60, 4, 0.2, 1)
  v <- c(1, 2, 0.5, 3)
  init <- list(matrix(seq(-1, 1, length.out = 16), 4))
  fit <- train(y, sizes = 4, iter_max = 6, init = init, seed = 9, backend = "cpu",
               var_weights = v, na_max = 1) # every row kept: the reference's rows
  ref <- ref_train_map_general(y, init[[1]], v, iter_max = 6, seed = 9, restart = 0)
  expect_equal(unname(fit$weights$N4), ref, tolerance = 1e-12)
  a <- ref_assess_general(y, ref, v)
  expect_identical(fit$clusters$N4, a$clusters)
  expect_equal(fit$quality$qe, a$qe, tolerance = 1e-12)
  expect_equal(fit$quality$te, a$te)
})

test_that("online with missing values follows the reference on rings of several chunks", {
  # each row over its observed columns; one block of neurons, several, and more than eight
  y <- gappy(40, 6, 0.25, 6)
  y[1:5, ] <- seq(-1, 1, length.out = 6) # complete rows too
  sizes <- c(3L, 14L, 41L)
  init <- withr::with_seed(5, lapply(sizes, function(N) matrix(rnorm(N * 6), N)))
  for (v in list(rep(1, 6), c(1, 2, 0.5, 3, 1, 0.25))) {
    fit <- train(y, sizes = sizes, iter_max = 4, init = init, seed = 3, backend = "cpu",
                 var_weights = if (any(v != 1)) v, na_max = 1, threads = 2)
    for (i in seq_along(sizes)) {
      ref <- ref_train_map_general(y, init[[i]], v, iter_max = 4, seed = 3)
      expect_identical(unname(fit$weights[[i]]), ref,
                       info = paste("size", sizes[i], "weights", any(v != 1)))
    }
  }
})

test_that("batch with 10-30% missing follows the reference, small blocks included", {
  for (share in c(0.1, 0.3)) {
    y <- gappy(90, 3, share, 2)
    init <- list(matrix(seq(-1, 1, length.out = 15), 5))
    for (block in c(4096L, 7L)) {
      fit <- withr::with_options(list(somgpu.batch_block = block),
        train(y, sizes = 5, iter_max = 6, init = init, algorithm = "batch", seed = 1,
              backend = "cpu", na_max = 1))
      ref <- ref_batch_map_general(y, init[[1]], iter_max = 6, block = block)
      expect_equal(unname(fit$weights$N5), ref, tolerance = 1e-12,
                   info = paste("share", share, "block", block))
      expect_identical(fit$clusters$N5, ref_assess_general(y, ref)$clusters)
    }
  }
})

test_that("a weight of 4 on a column gives the maps of doubling it", {
  y <- gappy(80, 3, 0.15, 3)
  y2 <- y
  y2[, 1] <- 2 * y2[, 1]
  init <- lapply(2:5, function(N) matrix(seq(-1, 1, length.out = 3 * N), N))
  init2 <- lapply(init, function(w) {
    w[, 1] <- 2 * w[, 1]
    w
  })
  for (alg in c("online", "batch")) {
    a <- train(y, nmax = 5, iter_max = 10, init = init, seed = 1, algorithm = alg,
               var_weights = c(v1 = 4, v2 = 1, v3 = 1), backend = "cpu")
    b <- train(y2, nmax = 5, iter_max = 10, init = init2, seed = 1, algorithm = alg,
               backend = "cpu")
    for (i in 1:4) {
      wb <- b$weights[[i]]
      wb[, 1] <- wb[, 1] / 2
      expect_identical(a$weights[[i]], wb, info = alg)
    }
    expect_identical(a$clusters, b$clusters)
    expect_identical(a$quality$qe, b$quality$qe)
    expect_identical(a$var_weights, c(v1 = 4, v2 = 1, v3 = 1))
  }
})

test_that("CPU and OpenCL agree bit for bit in double with missing values and weights", {
  skip_if_no_opencl()
  skip_if_not(devices()$fp64[1], "the OpenCL device has no double precision")
  y <- gappy(500, 5, 0.2, 4)
  for (alg in c("online", "batch")) {
    for (v in list(NULL, c(1, 2, 0, 1, 3))) {
      args <- list(y, nmax = 7, iter_max = 8, seed = 2, algorithm = alg, var_weights = v,
                   trace = TRUE, restarts = 2)
      a <- do.call(train, c(args, backend = "cpu"))
      for (k in c("auto", "group")) {
        b <- withr::with_options(list(somgpu.opencl_kernel = k),
                                 do.call(train, c(args, backend = "opencl")))
        info <- paste(alg, k, is.null(v))
        expect_identical(a$weights, b$weights, info = info)
        expect_identical(a$trace, b$trace, info = info)
        expect_identical(a$quality, b$quality, info = info)
      }
    }
  }
})

test_that("rows missing more than na_max are left out, with NA clusters", {
  y <- gappy(50, 4, 0, 5)
  y[3, 1:3] <- NA          # 75% missing: left out
  y[7, 1:2] <- NA          # 50%: kept with the default na_max = 0.5
  y[9, ] <- NA             # nothing observed: always left out
  fit <- train(y, nmax = 4, iter_max = 5, seed = 1, backend = "cpu")
  expect_identical(fit$dropped, c(3L, 9L))
  expect_true(all(is.na(unlist(fit$clusters[c(3, 9), ]))))
  expect_false(anyNA(unlist(fit$clusters[-c(3, 9), ])))
  expect_match(paste(capture.output(print(fit)), collapse = "\n"), "2 rows left out")
  expect_match(paste(capture.output(print(summary(fit))), collapse = "\n"),
               "2 of 50 rows left out")
  strict <- train(y, nmax = 4, iter_max = 5, seed = 1, backend = "cpu", na_max = 0.25)
  expect_identical(strict$dropped, c(3L, 7L, 9L))
  # the rows kept give the maps of training on those rows alone
  alone <- train(y[-c(3, 9), ], nmax = 4, iter_max = 5, seed = 1, backend = "cpu")
  expect_identical(unname(fit$weights), unname(alone$weights))
  expect_error(train(y[c(3, 9), ], nmax = 3), "0 rows with enough observed values",
               class = "somgpu_input_error")
  expect_error(train(y, na_max = 2), "`na_max`", class = "somgpu_input_error")
})

test_that("init = 'sample' fills a drawn row's gaps with the column means; 'pca' works", {
  y <- gappy(30, 3, 0.3, 6)
  fit <- train(y, sizes = 30, iter_max = 1, init = "sample", seed = 2, backend = "cpu",
               na_max = 1)
  w <- fit$weights$N30
  expect_false(anyNA(w))
  means <- colMeans(y, na.rm = TRUE)
  # every neuron is a row of the data with its gaps filled by the means
  filled <- y
  for (k in 1:3) filled[is.na(filled[, k]), k] <- means[k]
  expect_true(all(apply(w, 1, function(r) any(apply(filled, 1, function(x) all(x == r))))))
  p <- train(y, nmax = 5, iter_max = 5, init = "pca", align = TRUE, seed = 1, backend = "cpu")
  expect_false(anyNA(unlist(p$weights)))
  expect_true(all(is.finite(p$quality$explained_var)))
})

test_that("airquality end to end: train, print, summary, predict, plots, kohonen", {
  aq <- airquality
  fit <- train(aq, nmax = 6, iter_max = 30, seed = 1, scale = TRUE)
  expect_identical(nrow(fit$clusters), nrow(aq))
  expect_identical(fit$dropped, integer(0)) # no row misses more than half
  expect_false(anyNA(unlist(fit$clusters)))
  expect_true(all(fit$quality$explained_var > 0 & fit$quality$explained_var < 1))
  expect_identical(predict(fit, aq), fit$clusters)
  expect_output(print(fit), "centred and scaled")
  expect_output(print(summary(fit)), "suggested size")
  png(tempfile(fileext = ".png"))
  plot(fit)
  plot(fit, type = "codes", size = 4)
  dev.off()
  skip_if_not_installed("kohonen")
  k <- as_kohonen(fit, 4)
  expect_identical(as.integer(k$unit.classif), fit$clusters$N4)
  expect_true(all(is.finite(k$distances)))
})

test_that("a time limit during training comes back as its own error, not an interrupt", {
  y <- seed_data(20000, 3)
  err <- tryCatch({
    setTimeLimit(elapsed = 0.5, transient = TRUE)
    train(y, nmax = 60, iter_max = 2000, threads = 2, progress = FALSE)
  }, error = function(e) e, interrupt = function(i) i)
  setTimeLimit()
  expect_s3_class(err, "error")
  expect_false(inherits(err, "interrupt"))
  expect_match(conditionMessage(err), "time limit")
  # the session trains again
  expect_s3_class(train(y[1:100, ], nmax = 3, iter_max = 3, threads = 1), "somgpu")
})

test_that("the call keeps names, not the data, when train() is called through do.call()", {
  y <- seed_data(10000, 2)
  fit <- do.call(train, list(y = as.data.frame(y), nmax = 3, iter_max = 2, threads = 1))
  expect_lt(as.numeric(object.size(fit$call)), 5000)
  expect_match(deparse1(fit$call), "^train\\(y = `<a data frame of 10000 x 2>`")
  expect_error(train(y, sizes = c(2, NA)), "with NA \\(element 2\\)",
               class = "somgpu_input_error")
})
