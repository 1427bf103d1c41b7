test_that("backends() reports the CPU backend and the missing OpenCL one", {
  b <- backends()
  expect_s3_class(b, "data.frame")
  expect_identical(b$backend, c("cpu", "opencl"))
  expect_identical(b$available, c(TRUE, FALSE))
  expect_type(b$detail, "character")
})

test_that("the thread default follows the option, the variable and the check limit", {
  max <- somgpu:::build_info()$max_threads
  withr::with_options(list(somgpu.threads = 1L), expect_identical(somgpu_threads(), 1L))
  withr::with_options(list(somgpu.threads = NULL), {
    withr::with_envvar(c(SOMGPU_NUM_THREADS = "1", "_R_CHECK_LIMIT_CORES_" = ""),
                       expect_identical(somgpu_threads(), 1L))
    withr::with_envvar(c(SOMGPU_NUM_THREADS = "", "_R_CHECK_LIMIT_CORES_" = "TRUE"),
                       expect_identical(somgpu_threads(), min(2L, max)))
  })
  withr::with_options(list(somgpu.threads = 1000L), expect_identical(somgpu_threads(), max))
  y <- seed_data(40, 2)
  expect_identical(train(y, nmax = 3, iter_max = 3, threads = 1000)$backend$threads, max)
})
