# At most 2 threads in tests (CRAN policy); tests that compare thread counts pass them.
options(somgpu.threads = 2L)

# The seed script's problem: n x m uniform points, without touching the session's RNG.
seed_data <- function(n = 2000, m = 3, rng_seed = 0) {
  withr::with_seed(rng_seed, {
    matrix(runif(n * m), n, m, dimnames = list(NULL, paste0("x", seq_len(m))))
  })
}
