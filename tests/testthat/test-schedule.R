# The neighbourhood schedule per ring size: sigma0 = "auto" (N / 8 for a ring of N neurons)
# and sigma0 given per size, on every backend, algorithm and precision.

sched_data <- function(n = 160, m = 3, seed = 4) {
  withr::with_seed(seed, matrix(rnorm(n * m), n, m))
}

test_that("sigma0 = \"auto\" trains each ring as sigma0 = N / 8 alone, online and batch", {
  y <- sched_data()
  for (algorithm in c("online", "batch")) {
    fam <- train(y, sizes = c(2, 5, 9, 16), sigma0 = "auto", restarts = 2, iter_max = 12,
                 seed = 3, algorithm = algorithm, backend = "cpu")
    for (N in c(2, 5, 9, 16)) {
      alone <- train(y, sizes = N, sigma0 = N / 8, restarts = 2, iter_max = 12, seed = 3,
                     algorithm = algorithm, backend = "cpu")
      expect_identical(fam$weights[[paste0("N", N)]], alone$weights[[1]],
                       label = sprintf("%s N = %d", algorithm, N))
      expect_identical(fam$quality[fam$quality$size == N, "qe"], alone$quality$qe)
    }
    expect_identical(fam$params$sigma0, c(2, 5, 9, 16) / 8)
    expect_identical(fam$params$schedule, "auto")
  }
})

test_that("a ring-scaled schedule follows the pure-R reference of the rule", {
  y <- sched_data(n = 40, m = 2, seed = 9)
  fit <- train(y, sizes = c(3, 7), sigma0 = "auto", iter_max = 6, seed = 5, init = "uniform",
               backend = "cpu", threads = 1)
  for (N in c(3, 7)) {
    ref <- ref_train_map(y, ref_init_uniform(5, N, 0, 2), iter_max = 6, sigma0 = N / 8,
                         seed = 5)
    expect_equal(unname(fit$weights[[paste0("N", N)]]), ref, tolerance = 1e-12)
  }
  b <- train(y, sizes = c(3, 7), sigma0 = c(0.7, 2.5), iter_max = 6, seed = 5,
             algorithm = "batch", backend = "cpu")
  expect_equal(unname(b$weights$N7), ref_batch_map(y, ref_init_uniform(5, 7, 0, 2),
                                                   iter_max = 6, sigma0 = 2.5),
               tolerance = 1e-12)
})

test_that("sigma0 per size: one number per size, in the order of sizes", {
  y <- sched_data()
  fam <- train(y, sizes = c(6, 3), sigma0 = c(0.4, 2), iter_max = 10, seed = 1,
               backend = "cpu")
  expect_identical(fam$weights$N6, train(y, sizes = 6, sigma0 = 0.4, iter_max = 10,
                                         seed = 1, backend = "cpu")$weights$N6)
  expect_identical(fam$weights$N3, train(y, sizes = 3, sigma0 = 2, iter_max = 10, seed = 1,
                                         backend = "cpu")$weights$N3)
  # equal widths share their factors: the same maps as one width for all
  same <- train(y, sizes = c(6, 3), sigma0 = c(2, 2), iter_max = 10, seed = 1, backend = "cpu")
  expect_identical(same$weights, train(y, sizes = c(6, 3), sigma0 = 2, iter_max = 10,
                                       seed = 1, backend = "cpu")$weights)
  expect_identical(same$params$sigma0, 2)
  expect_identical(same$params$schedule, "fixed")
})

test_that("the default stays the original script's sigma0 = 5 at every size", {
  y <- sched_data()
  expect_identical(train(y, nmax = 5, iter_max = 8, seed = 2, backend = "cpu")$weights,
                   train(y, nmax = 5, iter_max = 8, seed = 2, sigma0 = 5,
                         backend = "cpu")$weights)
  expect_identical(formals(train)$sigma0, 5)
})

test_that("OpenCL gives the CPU's bits with ring-scaled schedules", {
  skip_if_no_opencl()
  y <- sched_data(n = 300)
  for (algorithm in c("online", "batch")) {
    args <- list(y, sizes = c(2:6, 40), sigma0 = "auto", restarts = 2, iter_max = 8,
                 seed = 6, algorithm = algorithm, trace = TRUE)
    cpu <- do.call(train, c(args, backend = "cpu"))
    ocl <- do.call(train, c(args, backend = "opencl"))
    expect_identical(ocl$weights, cpu$weights, label = algorithm)
    expect_identical(ocl$trace, cpu$trace)
  }
  # both online kernels (a work-group per map for every ring) and single precision
  args <- list(y, sizes = c(3, 9, 17), sigma0 = c(0.3, 1, 4), iter_max = 6, seed = 2)
  cpu <- do.call(train, c(args, backend = "cpu"))
  group <- withr::with_options(list(somgpu.opencl_kernel = "group"),
                               do.call(train, c(args, backend = "opencl")))
  expect_identical(group$weights, cpu$weights)
  cpu1 <- do.call(train, c(args, backend = "cpu", precision = "single"))
  ocl1 <- do.call(train, c(args, backend = "opencl", precision = "single"))
  expect_identical(ocl1$weights, cpu1$weights)
})

test_that("OpenCL groups of maps narrower than the family read their own schedules", {
  skip_if_no_opencl()
  # groups of a few small maps (a cap on a device buffer) each hold several schedules, with
  # a factor row narrower than the family's largest map needs
  y <- seed_data(2000, 2, rng_seed = 9)
  args <- list(y, sizes = 2:9, restarts = 2, iter_max = 4, seed = 7, sigma0 = "auto")
  cpu <- do.call(train, c(args, backend = "cpu"))
  small <- withr::with_options(list(somgpu.opencl_max_alloc = 40000),
                               do.call(train, c(args, backend = "opencl")))
  expect_identical(small$weights, cpu$weights)
  y <- seed_data(500, 3, rng_seed = 45)
  args <- list(y, sizes = 2:12, restarts = 2, iter_max = 4, seed = 3, algorithm = "batch",
               sigma0 = "auto")
  cpu <- do.call(train, c(args, backend = "cpu"))
  small <- withr::with_options(list(somgpu.opencl_max_alloc = 13000),
                               do.call(train, c(args, backend = "opencl")))
  expect_identical(small$weights, cpu$weights)
})

test_that("future workers train ring-scaled schedules as one process does", {
  skip_if_no_future()
  local_plan(future::sequential)
  y <- sched_data()
  args <- list(y, sizes = 2:9, sigma0 = "auto", restarts = 2, iter_max = 8, seed = 4,
               backend = "cpu")
  expect_identical(do.call(train, c(args, parallel = "future"))$weights,
                   do.call(train, args)$weights)
})

test_that("bad sigma0 values are refused with what is expected", {
  y <- sched_data()
  for (bad in list("aut", "AUTO", c(1, 2), c(1, -1, 2), c(1, NA, 1), list(1))) {
    expect_error(train(y, sizes = 2:4, sigma0 = bad), "`sigma0` must be \"auto\"",
                 class = "somgpu_input_error")
  }
  expect_error(train(y, sizes = 2:4, sigma0 = c(1, 2, 3, 4)), "one such number per size \\(3\\)",
               class = "somgpu_input_error")
})
