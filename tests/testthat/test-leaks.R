# 1000 repeated calls keep the process's memory flat: nothing the C code or the OpenCL
# backend allocates outlives a call, on success or on error.

rss_mb <- function() {
  line <- grep("^VmRSS:", readLines("/proc/self/status"), value = TRUE)
  as.numeric(gsub("[^0-9]", "", line)) / 1024
}

test_that("1000 train calls (CPU, OpenCL, errors) keep memory flat", {
  skip_if_not(file.exists("/proc/self/status"), "needs /proc to read the resident memory")
  y <- seed_data(60, 3, rng_seed = 2)
  opencl <- has_opencl_device()
  # of every ten calls: CPU online (3), CPU batch, OpenCL online (2), OpenCL batch in
  # single precision, refused input, and an OpenCL failure (a buffer cap too small for the
  # maps: the context is dropped and rebuilt)
  kinds <- c("cpu", "cpu", "cpu", "batch", "opencl", "opencl", "opencl_batch", "refused",
             "opencl_failure", "cpu")
  call_k <- function(k) {
    kind <- kinds[k %% 10 + 1]
    if (!opencl && startsWith(kind, "opencl")) kind <- "cpu"
    switch(kind,
      cpu = train(y, nmax = 5, iter_max = 3, seed = k, backend = "cpu", progress = FALSE),
      batch = train(y, nmax = 5, iter_max = 3, seed = k, algorithm = "batch", backend = "cpu",
                    restarts = 2, trace = TRUE, progress = FALSE),
      opencl = train(y, nmax = 5, iter_max = 3, seed = k, backend = "opencl", trace = TRUE,
                     progress = FALSE),
      opencl_batch = train(y, nmax = 5, iter_max = 3, seed = k, backend = "opencl",
                           algorithm = "batch", precision = "single", progress = FALSE),
      refused = try(train(y, nmax = 5, init = list(1), progress = FALSE), silent = TRUE),
      opencl_failure = withr::with_options(list(somgpu.opencl_max_alloc = 64), try(
        train(y, nmax = 5, iter_max = 3, backend = "opencl", progress = FALSE),
        silent = TRUE)))
    invisible(NULL)
  }
  # resident memory after each 200 calls (and a gc()); the first 400 warm up (kernels
  # built, R's heap at its working size, and glibc's mmap threshold raised by the first
  # large frees, a one-time step of ~20 MB), the next 1000 count
  rss <- vapply(0:6, function(phase) {
    for (k in seq_len(200) + 200 * phase) call_k(k)
    gc()
    rss_mb()
  }, numeric(1))
  expect_lt(rss[7] - rss[2], 10, label = sprintf(
    "growth of resident memory over 1000 calls (MB after each 200: %s)",
    paste(sprintf("%.1f", rss), collapse = ", ")))
})
