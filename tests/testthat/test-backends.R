test_that("backends() reports the CPU backend and whether OpenCL can be used", {
  b <- backends()
  expect_s3_class(b, "data.frame")
  expect_identical(b$backend, c("cpu", "opencl"))
  expect_true(b$available[1])
  expect_identical(b$available[2], has_opencl_device())
  expect_type(b$detail, "character")
})

test_that("devices() has the documented columns, and zero rows rather than an error", {
  d <- devices()
  expect_s3_class(d, "data.frame")
  expect_identical(names(d), c("index", "platform", "name", "type", "version",
                               "compute_units", "global_mem_gb", "max_alloc_gb", "fp64"))
  expect_identical(d$index, seq_len(nrow(d)))
  expect_true(all(d$type %in% c("GPU", "CPU", "ACCELERATOR", "OTHER")))
  expect_type(d$fp64, "logical")
  if (!somgpu:::build_info()$opencl) expect_identical(nrow(d), 0L)
})

test_that("without OpenCL, backend = 'opencl' is a clear backend error", {
  skip_if(has_opencl_device(), "an OpenCL device exists")
  y <- seed_data(30, 2)
  err <- expect_error(train(y, nmax = 3, backend = "opencl"), "OpenCL backend is not available",
                      class = "somgpu_backend_error")
  expect_s3_class(err, "somgpu_error")
  expect_identical(train(y, nmax = 3, iter_max = 3)$backend$name, "cpu")
})

# "auto" over the registry, with OpenCL's devices those of `table` (a device table as
# device_table() returns)
choose <- function(table, precision, work = NULL) {
  reg <- somgpu:::backend_table()
  reg$opencl$auto <- function(args, call, work) {
    somgpu:::opencl_gpu(table, args$precision, work, call)
  }
  somgpu:::auto_backend(reg, list(backend = "auto", precision = precision), NULL, work)
}

test_that("the registry has an entry per backend C has, with every field", {
  reg <- somgpu:::backend_table()
  expect_identical(names(reg), somgpu:::constants()$backends)
  fields <- c("label", "devices", "rank", "options", "spec", "record", "offer", "resolve",
              "auto", "failed")
  for (e in reg) expect_setequal(names(e), fields)
  expect_identical(anyDuplicated(vapply(reg, function(e) e$rank, numeric(1))), 0L)
  # the options of every backend, by name; its spec and record after the common fields
  opts <- somgpu:::backend_options(NULL)
  expect_identical(names(opts), names(reg))
  spec <- somgpu:::backend_spec(list(name = "cpu", precision = "single"), 2L, opts, NULL)
  expect_identical(spec, list(name = "cpu", threads = 2L, here = TRUE, round_units = 0,
                              precision = "single"))
  rec <- somgpu:::backend_record(list(name = "cpu", precision = "double"), 1L, character(0))
  expect_identical(names(rec), c("name", "device", "precision", "threads"))
})

test_that("auto prefers a GPU or accelerator, else the CPU backend", {
  expect_identical(choose(fake_devices(c("CPU", "GPU")), "double")$device$index, 2L)
  expect_identical(choose(fake_devices(c("ACCELERATOR", "GPU")), "double")$device$index, 2L)
  expect_identical(choose(fake_devices(c("CPU", "ACCELERATOR")), "double")$device$index, 2L)
  expect_identical(choose(fake_devices("CPU"), "double")$name, "cpu")
  expect_identical(choose(fake_devices(character(0)), "double")$name, "cpu")
  expect_identical(choose(NULL, "double")$name, "cpu")
  # a GPU without fp64 is skipped for double and taken for single
  gpus <- fake_devices(c("GPU", "GPU"), fp64 = c(FALSE, TRUE))
  expect_identical(choose(gpus, "double")$device$index, 2L)
  expect_identical(choose(gpus, "single")$device$index, 1L)
  expect_identical(choose(fake_devices("GPU", fp64 = FALSE), "double")$name, "cpu")
  # the CPU backend computes in single precision too
  expect_identical(choose(fake_devices("CPU"), "single")[c("name", "precision")],
                   list(name = "cpu", precision = "single"))
})

test_that("auto takes a GPU only for jobs big enough for it, by options", {
  gpu <- fake_devices(c("CPU", "GPU"))
  job <- function(seconds, maps, algorithm = "online") {
    list(seconds = seconds, maps = maps, algorithm = algorithm)
  }
  withr::local_options(somgpu.auto_gpu_seconds = NULL, somgpu.auto_gpu_maps = NULL)
  expect_identical(choose(gpu, "double", job(0.1, 500))$name, "cpu")        # too short
  expect_identical(choose(gpu, "double", job(5, 9))$name, "cpu")           # too few maps
  expect_identical(choose(gpu, "double", job(5, 500))$device$index, 2L)
  expect_identical(choose(gpu, "double", job(5, 1, "batch"))$device$index, 2L) # rows fill it
  expect_identical(choose(gpu, "single", job(0.1, 1))$name, "cpu")        # either precision
  expect_identical(choose(gpu, "single", job(5, 500))$device$index, 2L)
  expect_identical(choose(gpu, "double", NULL)$device$index, 2L)          # no estimate
  withr::with_options(list(somgpu.auto_gpu_seconds = 0, somgpu.auto_gpu_maps = 1), {
    expect_identical(choose(gpu, "double", job(0.001, 1))$device$index, 2L)
  })
  withr::with_options(list(somgpu.auto_gpu_seconds = 60), {
    expect_identical(choose(gpu, "double", job(5, 500))$name, "cpu")
  })
  withr::with_options(list(somgpu.auto_gpu_seconds = "soon"), {
    expect_error(choose(gpu, "double", job(5, 500)), "auto_gpu_seconds",
                 class = "somgpu_input_error")
  })
  withr::with_options(list(somgpu.auto_gpu_maps = 0.5), {
    expect_error(choose(gpu, "double", job(5, 500)), "auto_gpu_maps",
                 class = "somgpu_input_error")
  })
})

test_that("auto's work estimate grows with rows, passes, sizes and threads", {
  shape <- function(n = 1000, sizes = 2:10, iter_max = 150, restarts = 1) {
    spec <- somgpu:::check_sizes(2, 10, sizes, c(nmin = FALSE, nmax = FALSE, sizes = TRUE),
                                 NULL)
    somgpu:::family_dims(spec, n, 3L, restarts, iter_max, FALSE, "online", 4096L, FALSE)
  }
  w <- function(...) somgpu:::auto_work(shape(...), 1)$seconds
  expect_equal(w(n = 2000), 2 * w(n = 1000))
  expect_equal(w(iter_max = 299), 2 * w(iter_max = 150))
  expect_gt(w(sizes = 2:30), w(sizes = 2:10))
  expect_equal(somgpu:::auto_work(shape(), 2)$seconds, w() / 2)
  expect_identical(somgpu:::auto_work(shape(restarts = 4), 1)$maps, 36)
  # the seed case is far below a second on the CPU: "auto" keeps it there
  expect_lt(w(n = 2000), 0.5)
})

test_that("backend = 'opencl' picks, matches and checks devices", {
  pick <- function(table, device, precision = "double", built = TRUE) {
    somgpu:::opencl_device(table, built, device, precision, call = NULL)
  }
  two <- fake_devices(c("CPU", "GPU"), fp64 = c(TRUE, FALSE))
  expect_identical(pick(two, NULL, "single")$device$index, 2L)
  expect_identical(pick(two, 1)$device$index, 1L)
  expect_identical(pick(two, "cpu")$device$index, 1L)
  expect_identical(pick(two, "fake gpu", "single")$device$index, 2L)
  expect_error(pick(two, 3), "only 2 OpenCL devices", class = "somgpu_input_error")
  expect_error(pick(two, "tesla"), "No OpenCL device name matches \"tesla\"",
               class = "somgpu_input_error")
  expect_warning(expect_error(pick(two, "("), "No OpenCL device name matches",
                              class = "somgpu_input_error"), NA)
  err <- expect_error(pick(two, 2, "double"), "no double precision \\(fp64\\).*precision = \"single\"",
                      class = "somgpu_backend_error")
  expect_s3_class(err, "somgpu_error")
  expect_error(pick(fake_devices(character(0)), NULL), "no OpenCL device was found",
               class = "somgpu_backend_error")
  expect_error(pick(NULL, NULL, built = FALSE), "no OpenCL support",
               class = "somgpu_backend_error")
})

test_that("device and precision arguments are validated", {
  y <- seed_data(30, 2)
  expect_error(train(y, precision = "half"), "`precision` must be one of", class = "somgpu_input_error")
  expect_error(train(y, device = 0), "`device` must be NULL", class = "somgpu_input_error")
  expect_error(train(y, device = c(1, 2)), "`device` must be NULL", class = "somgpu_input_error")
  expect_error(train(y, device = NA), "`device` must be NULL", class = "somgpu_input_error")
  expect_error(train(y, backend = "cpu", device = 1), "cannot be used with backend = \"cpu\"",
               class = "somgpu_input_error")
  expect_identical(train(y, nmax = 3, iter_max = 3, backend = "cpu",
                         precision = "single")$backend$precision, "single")
})

test_that("the thread default follows the option, the variable and the check limit", {
  max <- somgpu:::build_info()$max_threads
  withr::with_options(list(somgpu.threads = 1L), expect_identical(somgpu_threads(), 1L))
  withr::with_options(list(somgpu.threads = NULL), {
    withr::with_envvar(c(SOMGPU_NUM_THREADS = "1", "_R_CHECK_LIMIT_CORES_" = ""),
                       expect_identical(somgpu_threads(), 1L))
    # R CMD check's limit caps any count at 2: exactly 2 from a count asked for, and from
    # the load-aware default at most 2 (fewer while other work keeps processors busy)
    withr::with_envvar(c(SOMGPU_NUM_THREADS = "1000", "_R_CHECK_LIMIT_CORES_" = "TRUE"),
                       expect_identical(somgpu_threads(), min(2L, max)))
    withr::with_envvar(c(SOMGPU_NUM_THREADS = "", "_R_CHECK_LIMIT_CORES_" = "TRUE"), {
      n <- somgpu_threads()
      expect_true(n >= 1L && n <= min(2L, max))
    })
    withr::with_envvar(c(SOMGPU_NUM_THREADS = "lots"),
                       expect_error(somgpu_threads(), "SOMGPU_NUM_THREADS",
                                    class = "somgpu_input_error"))
  })
  withr::with_options(list(somgpu.threads = 1000L), expect_identical(somgpu_threads(), max))
  withr::with_options(list(somgpu.threads = "10"),
                      expect_error(somgpu_threads(), "options\\(somgpu.threads\\)",
                                   class = "somgpu_input_error"))
  withr::with_options(list(somgpu.threads = 0),
                      expect_error(somgpu_threads(), class = "somgpu_input_error"))
  y <- seed_data(40, 2)
  expect_identical(train(y, nmax = 3, iter_max = 3, threads = 1000)$backend$threads, max)
})
