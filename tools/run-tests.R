# Installs somgpu from this checkout into a temporary library and runs its testthat suite.
# Prints the usual testthat report, then one last line: "N passed, N failed, N skipped"
# (expectations passed; expectations failed plus tests that errored; tests skipped).
# Exit status 1 when anything failed. Usage, from the repository root:
#   Rscript tools/run-tests.R
local({
  lib <- file.path(tempdir(), "somgpu-lib")
  dir.create(lib, showWarnings = FALSE)
  Sys.setenv(POCL_CACHE_DIR = file.path(tempdir(), "pocl-cache"))
  r <- file.path(R.home("bin"), "R")
  status <- system2(r, c("CMD", "INSTALL", "--preclean", "--no-multiarch",
                         paste0("--library=", shQuote(lib)), "."))
  if (status != 0) {
    cat("0 passed, 1 failed\n")
    quit(status = 1)
  }
  .libPaths(c(lib, .libPaths()))
  res <- testthat::test_dir("tests/testthat", package = "somgpu", load_package = "installed",
                            reporter = testthat::ProgressReporter$new(show_praise = FALSE),
                            stop_on_failure = FALSE, stop_on_warning = FALSE)
  df <- as.data.frame(res)
  passed <- sum(df$passed)
  failed <- sum(df$failed) + sum(df$error)
  skipped <- sum(df$skipped)
  cat(sprintf("%d passed, %d failed, %d skipped\n", passed, failed, skipped))
  quit(status = if (failed > 0) 1 else 0)
})
