# OpenCL tests run where this build has OpenCL and a device exists (PoCL on CI), and are
# skipped cleanly elsewhere.
Sys.setenv(POCL_CACHE_DIR = file.path(tempdir(), "pocl-cache"))

has_opencl_device <- function() {
  somgpu:::build_info()$opencl && nrow(devices()) > 0L
}

skip_if_no_opencl <- function() {
  skip_if_not(somgpu:::build_info()$opencl, "this build has no OpenCL support")
  skip_if_not(nrow(devices()) > 0L, "no OpenCL device")
}

# The relabelling sigma of a ring (a rotation or reflection: the ring's symmetries) that
# best matches ref, and the remaining largest weight difference.
ring_align <- function(w, ref) {
  N <- nrow(ref)
  best <- NULL
  bd <- Inf
  for (refl in c(FALSE, TRUE)) for (r in 0:(N - 1)) {
    perm <- if (refl) ((r - 0:(N - 1)) %% N) + 1 else ((0:(N - 1) + r) %% N) + 1
    d <- max(abs(w[perm, , drop = FALSE] - ref))
    if (d < bd) {
      bd <- d
      best <- perm
    }
  }
  list(perm = best, diff = bd)
}

# A device table in the shape device_table() returns, for testing the device choice.
fake_devices <- function(type = c("CPU"), fp64 = TRUE) {
  if (length(type) == 0L) return(fake_devices("CPU")[0, ])
  n <- length(type)
  data.frame(index = seq_len(n), platform = "Fake", name = paste("Fake", type, seq_len(n)),
             type = type, version = "OpenCL 1.2", compute_units = 4L, global_mem = 2^32,
             max_alloc = 2^30, local_mem = 2^15, max_wg = 256, fp64 = rep(fp64, length.out = n),
             stringsAsFactors = FALSE)
}
