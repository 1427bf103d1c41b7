# The batch algorithm against the pure-R reference of its rule (helper-reference.R).

test_that("batch with a user init agrees with the R reference to 1e-12", {
  for (m in c(1, 3, 8)) {
    y <- seed_data(150, m, rng_seed = 20 + m)
    sizes <- c(2, 5, 9)
    init <- withr::with_seed(m, lapply(sizes, function(N) matrix(runif(N * m), N, m)))
    fit <- train(y, sizes = sizes, iter_max = 8, init = init, algorithm = "batch", seed = 1)
    expect_identical(fit$params$algorithm, "batch")
    for (i in seq_along(sizes)) {
      ref <- ref_batch_map(y, init[[i]], iter_max = 8)
      expect_equal(unname(fit$weights[[i]]), ref, tolerance = 1e-12, info = paste("m =", m))
      expect_identical(fit$clusters[[i]], ref_assess(y, ref)$clusters)
    }
  }
})

test_that("batch from the default and the sampled init follows the reference", {
  y <- seed_data(120, 2, rng_seed = 30)
  fit <- train(y, sizes = c(3, 6), iter_max = 10, sigma0 = 2, algorithm = "batch", seed = 11)
  for (N in c(3, 6)) {
    ref <- ref_batch_map(y, ref_init_uniform(11, N, 0, 2), iter_max = 10, sigma0 = 2)
    expect_equal(unname(fit$weights[[paste0("N", N)]]), ref, tolerance = 1e-12)
  }
  fit <- train(y, sizes = 4, iter_max = 6, init = "sample", algorithm = "batch", seed = 12)
  start <- unname(y[ref_order(120, 12, "sample", 4, 0, 0)[1:4] + 1, ])
  expect_equal(unname(fit$weights$N4), ref_batch_map(y, start, iter_max = 6),
               tolerance = 1e-12)
})

test_that("many small blocks follow the reference with those blocks", {
  y <- seed_data(230, 3, rng_seed = 31)
  init <- withr::with_seed(4, list(matrix(runif(15), 5, 3)))
  fit <- withr::with_options(list(somgpu.batch_block = 7),
                             train(y, sizes = 5, iter_max = 6, init = init,
                                   algorithm = "batch", seed = 1))
  ref <- ref_batch_map(y, init[[1]], iter_max = 6, block = 7)
  expect_equal(unname(fit$weights$N5), ref, tolerance = 1e-12)
})

test_that("batch results do not depend on threads or rounds", {
  skip_if(somgpu:::build_info()$max_threads < 2, "this build or machine runs one thread")
  y <- seed_data(9000, 4, rng_seed = 32)
  a <- train(y, sizes = 2:7, restarts = 2, iter_max = 5, algorithm = "batch", seed = 3,
             threads = 1)
  b <- train(y, sizes = 2:7, restarts = 2, iter_max = 5, algorithm = "batch", seed = 3,
             threads = 2)
  c <- withr::with_options(list(somgpu.cpu_round_units = 50),
                           train(y, sizes = 2:7, restarts = 2, iter_max = 5,
                                 algorithm = "batch", seed = 3, threads = 2))
  expect_identical(a$weights, b$weights)
  expect_identical(a$weights, c$weights)
  expect_identical(a$quality, c$quality)
  alone <- train(y, sizes = 6, restarts = 2, iter_max = 5, algorithm = "batch", seed = 3)
  expect_identical(alone$weights$N6, a$weights$N6)
  # one map and one block: rows cut into segments, neurons into runs
  big <- seed_data(3000, 3, rng_seed = 34)
  one <- train(big, sizes = 90, iter_max = 4, algorithm = "batch", seed = 5, threads = 1)
  two <- withr::with_options(list(somgpu.cpu_round_units = 50),
                             train(big, sizes = 90, iter_max = 4, algorithm = "batch", seed = 5,
                                   threads = 2))
  expect_identical(one$weights, two$weights)
})

test_that("a neuron that wins nothing and has no neighbourhood keeps its weights", {
  # factors below 1e-30 count as 0, in double as in single precision
  y <- seed_data(60, 2, rng_seed = 33)
  # neuron 3 far away: with a tiny sigma its factor to every winner underflows to 0
  init <- list(rbind(c(0.2, 0.2), c(0.8, 0.8), c(100, 100), c(0.5, 0.5)))
  fit <- train(y, sizes = 4, iter_max = 5, sigma0 = 0.01, init = init,
               algorithm = "batch", seed = 1)
  expect_identical(unname(fit$weights$N4[3, ]), c(100, 100))
  expect_true(all(is.finite(fit$weights$N4)))
  expect_false(any(fit$clusters$N4 == 3))
})

test_that("batch returns the same classes and fields as online, and reasonable maps", {
  y <- seed_data(2000, 3, rng_seed = 0)
  on <- train(y, nmax = 6, iter_max = 30, seed = 1)
  ba <- train(y, nmax = 6, iter_max = 30, seed = 1, algorithm = "batch")
  expect_identical(names(ba), names(on))
  expect_identical(lapply(ba, class), lapply(on, class))
  expect_identical(names(ba$clusters), names(on$clusters))
  expect_identical(vapply(ba$clusters, typeof, ""), vapply(on$clusters, typeof, ""))
  # on uniform data a batch ring quantizes about as well as an online one
  expect_true(all(abs(ba$quality$qe / on$quality$qe - 1) < 0.15))
  expect_match(capture.output(print(ba))[2], "batch, 29 passes")
  expect_error(train(y, algorithm = "both"), "`algorithm` must be one of",
               class = "somgpu_input_error")
})
