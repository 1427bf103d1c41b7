# Numerically hard data: huge and tiny magnitudes, all points identical, a column of zeros,
# fewer rows than neurons. Each gives finite weights and valid clusters, or a clear error.

expect_valid_fit <- function(fit, n, m) {
  expect_identical(c(fit$params$n, fit$params$m), as.integer(c(n, m)))
  expect_null(valid_fit(fit))
}

hard_backends <- function() c("cpu", if (has_opencl_device()) "opencl")

test_that("values around 1e150 train like the same data at scale 1", {
  y <- seed_data(300, 3, rng_seed = 5)
  for (be in hard_backends()) for (alg in c("online", "batch")) {
    # init = "pca" and the batch rule are equivariant under scaling, so the maps of the
    # scaled data are the scaled maps (to rounding)
    args <- list(nmax = 6, iter_max = 8, init = "pca", algorithm = alg, seed = 3,
                 backend = be, progress = FALSE)
    one <- do.call(train, c(list(y), args))
    big <- do.call(train, c(list(y * 1e150), args))
    expect_valid_fit(big, 300, 3)
    for (k in seq_along(one$weights)) {
      expect_equal(big$weights[[k]] / 1e150, one$weights[[k]], tolerance = 1e-9,
                   label = sprintf("%s %s N%d weights / 1e150", be, alg, k + 1))
    }
    expect_identical(big$clusters, one$clusters)
  }
})

test_that("magnitudes whose squared distances overflow or vanish are refused", {
  y <- seed_data(50, 3)
  expect_error(train(y * 1e160, nmax = 3, progress = FALSE), "overflow",
               class = "somgpu_input_error")
  expect_error(train(y * 1e-150, nmax = 3, progress = FALSE), "underflow",
               class = "somgpu_input_error")
  if (has_opencl_device()) {
    expect_error(train(y * 1e20, nmax = 3, precision = "single", backend = "opencl",
                       progress = FALSE),
                 "overflow in single precision", class = "somgpu_input_error")
  }
  fit <- train(y, nmax = 3, iter_max = 3, seed = 1, progress = FALSE)
  expect_error(predict(fit, y * 1e160), "overflow", class = "somgpu_input_error")
})

test_that("identical points put every row in one cluster with finite weights", {
  y <- matrix(rep(c(0.3, -2, 7), each = 60), 60, 3)
  for (be in hard_backends()) for (alg in c("online", "batch")) {
    for (init in c("uniform", "sample", "pca")) {
      fit <- train(y, nmax = 5, iter_max = 6, init = init, algorithm = alg, seed = 2,
                   backend = be, restarts = 2, align = TRUE, progress = FALSE)
      expect_valid_fit(fit, 60, 3)
      for (k in seq_along(fit$clusters)) {
        expect_length(unique(fit$clusters[[k]]), 1L)
      }
      # no variance to explain: NA, not a division by zero
      expect_true(all(is.na(fit$quality$explained_var)))
      expect_true(all(fit$stability$stability == 1))
    }
  }
})

test_that("a column of zeros and a constant column stay finite and do not move the rest", {
  y <- seed_data(200, 3, rng_seed = 9)
  z <- cbind(y, zero = 0, const = 4)
  for (be in hard_backends()) for (alg in c("online", "batch")) {
    fit <- train(z, nmax = 6, iter_max = 10, init = "pca", algorithm = alg, seed = 4,
                 backend = be, progress = FALSE)
    expect_valid_fit(fit, 200, 5)
    # constant columns add the same amount to every distance's neuron-specific part only
    # through the weights, which the batch rule sets to the column's value exactly
    if (alg == "batch") {
      for (w in fit$weights) {
        expect_equal(unname(w[, "zero"]), rep(0, nrow(w)))
        expect_equal(unname(w[, "const"]), rep(4, nrow(w)))
      }
    }
  }
})

test_that("fewer rows than neurons trains or says why", {
  y <- seed_data(5, 2, rng_seed = 3)
  for (be in hard_backends()) for (alg in c("online", "batch")) {
    fit <- train(y, sizes = c(3, 8, 20), iter_max = 6, algorithm = alg, seed = 1,
                 backend = be, progress = FALSE)
    expect_valid_fit(fit, 5, 2)
  }
  expect_error(train(y, nmax = 10, init = "sample", progress = FALSE),
               "sample", class = "somgpu_input_error")
  two <- train(y[1:2, ], nmax = 4, iter_max = 4, seed = 1, progress = FALSE)
  expect_valid_fit(two, 2, 2)
})

test_that("denormal and mixed-scale columns give finite maps", {
  y <- seed_data(100, 3, rng_seed = 4)
  y[, 2] <- y[, 2] * 1e-300 # denormal-free but tiny next to the other columns
  y[1:3, 3] <- 5e-324       # denormals
  for (be in hard_backends()) {
    fit <- train(y, nmax = 4, iter_max = 5, seed = 1, backend = be, progress = FALSE)
    expect_valid_fit(fit, 100, 3)
  }
})
