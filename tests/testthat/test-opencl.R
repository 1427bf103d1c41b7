# The OpenCL backend against the CPU backend (itself checked against the pure-R reference),
# on whatever device the machine has (PoCL's CPU device on CI). Skipped where this build has
# no OpenCL or the machine no device.

with_kernel <- function(kernel, code, local = TRUE) {
  withr::with_options(list(somgpu.opencl_kernel = kernel, somgpu.opencl_group_local = local),
                      code)
}

test_that("double precision: OpenCL equals the CPU backend on the seed case", {
  skip_if_no_opencl()
  y <- seed_data(2000, 3, rng_seed = 0)
  cpu <- train(y, nmax = 10, restarts = 3, seed = 1, backend = "cpu")
  for (kernel in c("item", "group")) {
    ocl <- with_kernel(kernel, train(y, nmax = 10, restarts = 3, seed = 1, backend = "opencl"))
    expect_identical(ocl$backend$name, "opencl")
    expect_identical(ocl$backend$precision, "double")
    expect_identical(ocl$backend$kernels,
                     if (kernel == "item") "work-item" else "work-group (local memory)")
    # the issue asks for 1e-9; the arithmetic is the same, so the bits are
    for (N in names(cpu$weights)) {
      expect_lt(max(abs(ocl$weights[[N]] - cpu$weights[[N]])), 1e-9)
    }
    expect_identical(ocl$weights, cpu$weights)
    expect_identical(ocl$clusters, cpu$clusters)
    expect_identical(ocl$quality, cpu$quality)
  }
})

test_that("double precision: every kernel and init agrees with the CPU backend", {
  skip_if_no_opencl()
  y <- seed_data(300, 5, rng_seed = 2)
  sizes <- c(2, 3, 7, 40)
  user <- withr::with_seed(3, lapply(sizes, function(N) matrix(rnorm(N * 5), N, 5)))
  for (init in list("uniform", "sample", user)) {
    cpu <- train(y, sizes = sizes, iter_max = 12, init = init, restarts = 2, seed = 4,
                 backend = "cpu")
    variants <- list(list("item", TRUE), list("group", TRUE), list("group", FALSE),
                     list("auto", TRUE))
    for (v in variants) {
      ocl <- with_kernel(v[[1]], local = v[[2]],
                         train(y, sizes = sizes, iter_max = 12, init = init, restarts = 2,
                               seed = 4, backend = "opencl"))
      what <- paste(if (is.list(init)) "user" else init, v[[1]], v[[2]])
      expect_identical(ocl$weights, cpu$weights, info = what)
      expect_identical(ocl$clusters, cpu$clusters, info = what)
    }
  }
  global <- with_kernel("group", local = FALSE,
                        train(y, sizes = 5, iter_max = 3, seed = 1, backend = "opencl"))
  expect_identical(global$backend$kernels, "work-group (global memory)")
})

test_that("work-item and work-group maps in one call, and rings above 256 neurons", {
  skip_if_no_opencl()
  y <- seed_data(400, 2, rng_seed = 8)
  sizes <- c(3, 12, 40, 300)
  cpu <- train(y, sizes = sizes, iter_max = 4, seed = 6, backend = "cpu")
  mixed <- withr::with_options(list(somgpu.opencl_group_min_size = 20),
                               train(y, sizes = sizes, iter_max = 4, seed = 6, backend = "opencl"))
  expect_setequal(mixed$backend$kernels, c("work-item", "work-group (local memory)"))
  expect_identical(mixed$weights, cpu$weights)
  expect_identical(mixed$clusters, cpu$clusters)
  global <- withr::with_options(list(somgpu.opencl_group_min_size = 20,
                                     somgpu.opencl_group_local = FALSE),
                                train(y, sizes = sizes, iter_max = 4, seed = 6, backend = "opencl"))
  expect_identical(global$weights, cpu$weights)
})

test_that("without local memory (somgpu.opencl_local_mem = 1) the same bits, in global memory", {
  skip_if_no_opencl()
  y <- seed_data(400, 3, rng_seed = 12)
  for (algorithm in c("online", "batch")) {
    cpu <- train(y, sizes = c(3, 40), iter_max = 4, seed = 2, algorithm = algorithm,
                 backend = "cpu")
    none <- withr::with_options(
      list(somgpu.opencl_kernel = "group", somgpu.opencl_local_mem = 1),
      train(y, sizes = c(3, 40), iter_max = 4, seed = 2, algorithm = algorithm,
            backend = "opencl"))
    if (algorithm == "online") expect_identical(none$backend$kernels, "work-group (global memory)")
    expect_identical(none$weights, cpu$weights)
    expect_identical(none$clusters, cpu$clusters)
  }
  expect_error(withr::with_options(list(somgpu.opencl_local_mem = -1),
                                   train(y, nmax = 3, iter_max = 2, backend = "opencl")),
               "somgpu.opencl_local_mem", class = "somgpu_input_error")
})

test_that("maps whose visiting orders do not fit one buffer are trained in cohorts", {
  skip_if_no_opencl()
  y <- seed_data(2000, 2, rng_seed = 9)
  cpu <- train(y, sizes = 2:9, restarts = 2, iter_max = 4, seed = 7, backend = "cpu")
  # 16 maps x 2000 points x 4 bytes = 128 kB of orders; at most 5 maps' orders per buffer
  small <- withr::with_options(list(somgpu.opencl_max_alloc = 40000),
                               train(y, sizes = 2:9, restarts = 2, iter_max = 4, seed = 7,
                                     backend = "opencl"))
  expect_identical(small$weights, cpu$weights)
  expect_identical(small$quality, cpu$quality)
})

test_that("launches that split passes do not change the result", {
  skip_if_no_opencl()
  y <- seed_data(3000, 2, rng_seed = 5)
  cpu <- train(y, sizes = c(3, 9), iter_max = 4, seed = 2, backend = "cpu")
  tiny <- withr::with_options(list(somgpu.opencl_launch_seconds = 1e-6), {
    list(item = with_kernel("item", train(y, sizes = c(3, 9), iter_max = 4, seed = 2,
                                          backend = "opencl")),
         group = with_kernel("group", train(y, sizes = c(3, 9), iter_max = 4, seed = 2,
                                            backend = "opencl")))
  })
  expect_identical(tiny$item$weights, cpu$weights)
  expect_identical(tiny$group$weights, cpu$weights)
})

test_that("single precision: the same maps up to the ring's labelling", {
  skip_if_no_opencl()
  y <- seed_data(2000, 3, rng_seed = 0)
  cpu <- train(y, nmax = 10, restarts = 3, seed = 1, backend = "cpu")
  one <- train(y, nmax = 10, restarts = 3, seed = 1, backend = "opencl", precision = "single")
  expect_identical(one$backend$precision, "single")
  expect_identical(one$quality$best, cpu$quality$best)
  expect_equal(one$quality$qe, cpu$quality$qe, tolerance = 1e-5)
  for (N in names(cpu$weights)) {
    # an early near-tie, decided differently in float, can rotate or mirror a ring's
    # labels (in double precision too: a 1e-15 change of the data does it); compare the
    # maps after undoing that
    al <- ring_align(one$weights[[N]], cpu$weights[[N]])
    expect_lt(al$diff, 1e-4)
    agree <- mean(match(one$clusters[[N]], al$perm) == cpu$clusters[[N]])
    expect_gte(agree, 0.99)
  }
})

test_that("single precision on a gentle schedule agrees label for label", {
  skip_if_no_opencl()
  y <- seed_data(1000, 3, rng_seed = 6)
  cpu <- train(y, nmax = 8, seed = 3, sigma0 = 2, eta0 = 0.1, backend = "cpu")
  for (kernel in c("item", "group")) {
    one <- with_kernel(kernel, train(y, nmax = 8, seed = 3, sigma0 = 2, eta0 = 0.1,
                                     backend = "opencl", precision = "single"))
    for (N in names(cpu$weights)) {
      expect_lt(max(abs(one$weights[[N]] - cpu$weights[[N]])), 1e-4)
      expect_gte(mean(one$clusters[[N]] == cpu$clusters[[N]]), 0.99)
    }
  }
})

test_that("built programs are cached per device and precision", {
  skip_if_no_opencl()
  somgpu:::opencl_release()
  y <- seed_data(100, 2)
  train(y, nmax = 3, iter_max = 3, seed = 1, backend = "opencl")
  ctx <- somgpu:::.state$contexts
  expect_named(ctx, "1 double")
  train(y, nmax = 4, iter_max = 3, seed = 2, backend = "opencl")
  expect_identical(somgpu:::.state$contexts[["1 double"]], ctx[["1 double"]])
  train(y, nmax = 3, iter_max = 3, seed = 1, backend = "opencl", precision = "single")
  expect_setequal(names(somgpu:::.state$contexts), c("1 double", "1 single"))
  somgpu:::opencl_release()
  expect_length(somgpu:::.state$contexts, 0L)
  expect_false(.Call(somgpu:::C_ocl_valid, ctx[["1 double"]]))
  # released contexts are rebuilt on the next call
  fit <- train(y, nmax = 3, iter_max = 3, seed = 1, backend = "opencl")
  expect_true(.Call(somgpu:::C_ocl_valid, somgpu:::.state$contexts[["1 double"]]))
})

test_that("a kernel that fails to build gives the OpenCL status and the build log", {
  skip_if_no_opencl()
  err <- expect_error(
    somgpu:::call_core("build the OpenCL kernels", NULL, function() {
      .Call(somgpu:::C_ocl_open, list(index = 1L, precision = "double",
                                      source = "__kernel void broken(__global float *x) { x[0] = ; }"))
    }),
    "CL_BUILD_PROGRAM_FAILURE", class = "somgpu_opencl_error")
  expect_s3_class(err, "somgpu_error")
  expect_identical(err$status, "CL_BUILD_PROGRAM_FAILURE")
  expect_true(is.character(err$log) && nzchar(err$log))
  expect_match(conditionMessage(err), "Build log")
})

test_that("a buffer larger than the device allows is a clear error with the sizes", {
  skip_if_no_opencl()
  y <- seed_data(5000, 4)
  err <- withr::with_options(list(somgpu.opencl_max_alloc = 1e5), {
    expect_error(train(y, nmax = 5, backend = "opencl"),
                 "the data need a buffer of 160.0 kB but device .* allows at most 100.0 kB",
                 class = "somgpu_opencl_error")
  })
  expect_identical(err$status, "CL_INVALID_BUFFER_SIZE")
  # nothing is left behind: the next call works
  expect_s3_class(train(y, nmax = 3, iter_max = 3, backend = "opencl"), "somgpu")
})

test_that("the fit records the device, and print shows it", {
  skip_if_no_opencl()
  y <- seed_data(100, 2)
  fit <- train(y, nmax = 3, iter_max = 3, seed = 1, backend = "opencl", device = 1)
  expect_identical(fit$backend$index, 1L)
  expect_identical(fit$backend$device,
                   sprintf("%s (%s, %s)", devices()$name[1], devices()$platform[1],
                           devices()$type[1]))
  expect_match(capture.output(print(fit))[2], "backend opencl: .*double precision")
  named <- train(y, nmax = 3, iter_max = 3, seed = 1, backend = "opencl",
                 device = substr(devices()$name[1], 1, 5))
  expect_identical(named$weights, fit$weights)
})

test_that("a child forked after OpenCL was used gets a clear error, not a hang", {
  skip_on_os("windows")
  skip_if_no_opencl()
  skip_if_not_installed("processx")
  code <- sprintf('
    .libPaths(c(%s, .libPaths()))
    Sys.setenv(POCL_CACHE_DIR = %s)
    library(somgpu)
    y <- matrix(runif(600), 200, 3)
    a <- train(y, nmax = 4, iter_max = 5, seed = 1, backend = "opencl")
    r <- parallel::mclapply(1:2, function(i) {
      e <- tryCatch(train(y, nmax = 4, iter_max = 5, seed = 1, backend = "opencl"),
                    somgpu_backend_error = function(e) "refused")
      auto <- train(y, nmax = 4, iter_max = 5, seed = 1)
      c(if (is.character(e)) e else "ran", auto$backend$name, nrow(devices()),
        identical(auto$weights, a$weights))
    }, mc.cores = 2)
    cat("CHILD", unlist(r), "\\n")
  ', deparse(dirname(find.package("somgpu"))), deparse(file.path(tempdir(), "pocl-cache")))
  p <- processx::process$new(file.path(R.home("bin"), "Rscript"), c("-e", code),
                             stdout = "|", stderr = "|")
  on.exit(p$kill(), add = TRUE)
  p$wait(60000)
  expect_false(p$is_alive())
  expect_match(p$read_all_output(), "CHILD refused cpu 0 TRUE refused cpu 0 TRUE")
})

test_that("batch: OpenCL double precision equals the CPU backend, chunked and streamed too", {
  skip_if_no_opencl()
  y <- seed_data(3000, 5, rng_seed = 40)
  sizes <- c(2, 7, 30)
  user <- withr::with_seed(5, lapply(sizes, function(N) matrix(runif(N * 5), N, 5)))
  for (init in list("uniform", "sample", user)) {
    cpu <- train(y, sizes = sizes, restarts = 2, iter_max = 8, init = init,
                 algorithm = "batch", seed = 1, backend = "cpu")
    ocl <- train(y, sizes = sizes, restarts = 2, iter_max = 8, init = init,
                 algorithm = "batch", seed = 1, backend = "opencl")
    expect_identical(ocl$backend$kernels, "batch")
    expect_identical(ocl$weights, cpu$weights)
    expect_identical(ocl$clusters, cpu$clusters)
  }
  # small blocks and buffers: the data in many chunks (the last one short, its last block
  # partial), resident or streamed each pass
  y <- seed_data(3037, 5, rng_seed = 43)
  # (chunks of a size that is not a multiple of the trace's 1024-row blocks: the trace must
  # still add its sums in the CPU's order)
  withr::with_options(list(somgpu.batch_block = 100, somgpu.opencl_max_alloc = 20000), {
    cpu <- train(y, sizes = sizes, iter_max = 5, algorithm = "batch", seed = 2, backend = "cpu",
                 trace = TRUE)
    chunked <- train(y, sizes = sizes, iter_max = 5, algorithm = "batch", seed = 2,
                     backend = "opencl", trace = TRUE)
    streamed <- withr::with_options(list(somgpu.opencl_stream_data = TRUE),
                                    train(y, sizes = sizes, iter_max = 5, algorithm = "batch",
                                          seed = 2, backend = "opencl", trace = TRUE))
  })
  expect_identical(chunked$weights, cpu$weights)
  expect_identical(streamed$weights, cpu$weights)
  expect_identical(chunked$trace, cpu$trace)
  expect_identical(streamed$trace, cpu$trace)
})

test_that("batch: single precision within 1e-4 and 99% identical clusters", {
  skip_if_no_opencl()
  y <- seed_data(3000, 5, rng_seed = 41)
  cpu <- train(y, sizes = 2:12, iter_max = 11, algorithm = "batch", seed = 3, backend = "cpu")
  one <- train(y, sizes = 2:12, iter_max = 11, algorithm = "batch", seed = 3,
               backend = "opencl", precision = "single")
  for (N in names(cpu$weights)) {
    expect_lt(max(abs(one$weights[[N]] - cpu$weights[[N]])), 1e-4)
    expect_gte(mean(one$clusters[[N]] == cpu$clusters[[N]]), 0.99)
  }
})

test_that("batch: on larger data single precision moves a neuron only by near-tie rows", {
  skip_if_no_opencl()
  # a row nearly equidistant from two neurons can go either way in float; each such row
  # moves a neuron's mean by about |x - w| / (rows it wins): here up to ~1e-3, clusters
  # still agree for 99% of rows
  y <- seed_data(20000, 8, rng_seed = 41)
  cpu <- train(y, sizes = 2:12, iter_max = 11, algorithm = "batch", seed = 3, backend = "cpu")
  one <- train(y, sizes = 2:12, iter_max = 11, algorithm = "batch", seed = 3,
               backend = "opencl", precision = "single")
  for (N in names(cpu$weights)) {
    won <- min(tabulate(cpu$clusters[[N]], nrow(cpu$weights[[N]])))
    expect_lt(max(abs(one$weights[[N]] - cpu$weights[[N]])), 20 / won)
    expect_gte(mean(one$clusters[[N]] == cpu$clusters[[N]]), 0.99)
  }
  expect_equal(one$quality$qe, cpu$quality$qe, tolerance = 1e-4)
})

test_that("online: a map of 2000 neurons in 1000 dimensions runs (weights in global memory)", {
  skip_if_no_opencl()
  y <- seed_data(30, 1000, rng_seed = 42)
  cpu <- train(y, sizes = 2000, iter_max = 3, seed = 1, backend = "cpu")
  ocl <- train(y, sizes = 2000, iter_max = 3, seed = 1, backend = "opencl")
  expect_identical(ocl$backend$kernels, "work-group (global memory)")
  expect_identical(ocl$weights, cpu$weights)
  expect_identical(ocl$clusters, cpu$clusters)
})

test_that("batch: no neighbourhood is the same in single and double precision", {
  skip_if_no_opencl()
  y <- seed_data(60, 2, rng_seed = 44)
  init <- list(rbind(c(0.2, 0.2), c(0.8, 0.8), c(100, 100), c(0.5, 0.5)))
  for (prec in c("double", "single")) {
    fit <- train(y, sizes = 4, iter_max = 2, sigma0 = 0.09, init = init, algorithm = "batch",
                 seed = 1, backend = "opencl", precision = prec)
    expect_equal(unname(fit$weights$N4[3, ]), c(100, 100), info = prec)
  }
})

test_that("batch: families larger than a device buffer are trained in cohorts of maps", {
  skip_if_no_opencl()
  y <- seed_data(500, 3, rng_seed = 45)
  cpu <- train(y, sizes = 2:12, restarts = 2, iter_max = 4, algorithm = "batch", seed = 3,
               backend = "cpu")
  # the data (one block of 500 rows, 12 kB) fit, but the winners take 2 kB per map: at most
  # 6 of the 22 maps per cohort
  small <- withr::with_options(list(somgpu.opencl_max_alloc = 13000),
                               train(y, sizes = 2:12, restarts = 2, iter_max = 4,
                                     algorithm = "batch", seed = 3, backend = "opencl"))
  expect_identical(small$weights, cpu$weights)
})
