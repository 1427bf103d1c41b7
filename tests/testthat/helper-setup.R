# At most 2 threads in tests (CRAN policy); tests that compare thread counts pass them.
options(somgpu.threads = 2L)

# The seed script's problem: n x m uniform points, without touching the session's RNG.
seed_data <- function(n = 2000, m = 3, rng_seed = 0) {
  withr::with_seed(rng_seed, {
    matrix(runif(n * m), n, m, dimnames = list(NULL, paste0("x", seq_len(m))))
  })
}

# Two well separated blobs of n rows each in m columns (a, b, ...).
two_blobs <- function(n = 150, m = 3, seed = 1) {
  withr::with_seed(seed, {
    y <- rbind(matrix(rnorm(n * m, 0, 0.2), ncol = m), matrix(rnorm(n * m, 2, 0.2), ncol = m))
  })
  colnames(y) <- letters[seq_len(m)]
  y
}

skip_if_no_future <- function() {
  skip_if_not_installed("future")
  skip_if_not_installed("future.apply")
}

# Use `plan` for the rest of the calling test; workers find this session's libraries.
local_plan <- function(..., .env = parent.frame()) {
  withr::local_envvar(R_LIBS = paste(.libPaths(), collapse = .Platform$path.sep),
                      .local_envir = .env)
  old <- future::plan(...)
  withr::defer(future::plan(old), envir = .env)
}
