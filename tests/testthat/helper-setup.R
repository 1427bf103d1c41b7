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

# expr's value and what somgpu said of workers it lost (somgpu_worker_lost messages, each
# muffled): list(value, said).
lost_said <- function(expr) {
  said <- character(0)
  value <- withCallingHandlers(expr, somgpu_worker_lost = function(m) {
    said <<- c(said, sub("\n$", "", conditionMessage(m)))
    invokeRestart("muffleMessage")
  })
  list(value = value, said = said)
}

# A cluster of n workers of the user's own (parallelly), that find this session's
# libraries, stopped when the calling test ends (each node alone, and its connection
# closed: a dead one is skipped).
local_cluster <- function(n, ..., .env = parent.frame()) {
  cl <- parallelly::makeClusterPSOCK(n, rscript_libs = .libPaths(), ...)
  withr::defer(stop_nodes(cl), envir = .env)
  cl
}
stop_nodes <- function(cl) {
  for (i in seq_along(cl)) {
    try(parallel::stopCluster(cl[i]), silent = TRUE)
    try(close(cl[[i]]$con), silent = TRUE)
  }
}

# How many fits' rows each worker of cl holds in memory (somgpu's data-parallel batch).
rows_held <- function(cl) {
  unlist(parallel::clusterEvalQ(cl, length(ls(somgpu:::the_shards, pattern = ":"))))
}

# n x m normal rows (seed) as a file-backed big.matrix in a folder of the calling test's.
file_rows <- function(seed, n, m, env = parent.frame()) {
  skip_if_not_installed("bigmemory")
  dir <- withr::local_tempdir(.local_envir = env)
  big <- withr::with_seed(seed, matrix(rnorm(n * m), ncol = m))
  bigmemory::as.big.matrix(big, backingfile = "y.bin", backingpath = dir,
                           descriptorfile = "y.desc")
}
