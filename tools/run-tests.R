# Installs somgpu from this checkout into a temporary library and runs its testthat suite,
# every help page's examples and the vignette, twice: as configure builds it here (with
# OpenCL where the headers and ICD loader exist) and CPU-only (SOMGPU_NO_OPENCL=1). Prints
# each report, then one last line: "N passed, N failed, N skipped" over both builds
# (expectations passed, each example and the vignette counting as one; expectations failed
# plus tests that errored, examples or vignette that failed; tests skipped). Exit status 1
# when anything failed.
#
#   Rscript tools/run-tests.R            both builds
#   Rscript tools/run-tests.R default    the configured build only
#   Rscript tools/run-tests.R cpu-only   the CPU-only build only
args <- commandArgs(trailingOnly = TRUE)
builds <- if (length(args)) args else c("default", "cpu-only")

run_build <- function(build) {
  lib <- file.path(tempdir(), paste0("somgpu-lib-", build))
  dir.create(lib, showWarnings = FALSE)
  # R_LIBS: so that future workers started by the tests and the vignette find this build
  Sys.setenv(SOMGPU_NO_OPENCL = if (build == "cpu-only") "1" else "",
             POCL_CACHE_DIR = file.path(tempdir(), "pocl-cache"),
             R_LIBS = paste(c(lib, .libPaths()), collapse = .Platform$path.sep))
  cat(sprintf("\n==== %s build ====\n", build))
  r <- file.path(R.home("bin"), "R")
  status <- system2(r, c("CMD", "INSTALL", "--preclean", "--no-multiarch",
                         paste0("--library=", shQuote(lib)), "."))
  if (status != 0) return(c(passed = 0, failed = 1, skipped = 0))
  # a fresh R process per build: the two builds cannot share a session
  script <- tempfile(fileext = ".R")
  writeLines(c(
    sprintf(".libPaths(c(%s, .libPaths()))", deparse(lib)),
    "res <- testthat::test_dir('tests/testthat', package = 'somgpu',",
    "  load_package = 'installed', stop_on_failure = FALSE, stop_on_warning = FALSE,",
    "  reporter = testthat::ProgressReporter$new(show_praise = FALSE))",
    "df <- as.data.frame(res)",
    "passed <- sum(df$passed); failed <- sum(df$failed) + sum(df$error)",
    "# every help page with examples, then the vignette: one test each",
    "options(somgpu.threads = 2)",
    "for (rd in list.files('man', pattern = '[.]Rd$', full.names = TRUE)) {",
    "  if (!any(grepl('^\\\\\\\\examples', readLines(rd)))) next",
    "  topic <- sub('[.]Rd$', '', basename(rd))",
    "  ok <- tryCatch({ grDevices::pdf(NULL); on.exit(grDevices::dev.off());",
    "    utils::example(topic, package = 'somgpu', character.only = TRUE, ask = FALSE,",
    "      echo = FALSE); TRUE }, error = function(e) {",
    "      cat('example', topic, 'failed:', conditionMessage(e), '\\n'); FALSE })",
    "  if (ok) passed <- passed + 1 else failed <- failed + 1",
    "}",
    "cat('examples run\\n')",
    "ok <- tryCatch({ rmarkdown::render('vignettes/somgpu.Rmd', output_dir = tempdir(),",
    "  quiet = TRUE); TRUE }, error = function(e) {",
    "  cat('vignette failed:', conditionMessage(e), '\\n'); FALSE })",
    "cat('vignette', if (ok) 'built' else 'FAILED', '\\n')",
    "if (ok) passed <- passed + 1 else failed <- failed + 1",
    "cat(sprintf('\\nRESULT %d %d %d\\n', passed, failed, sum(df$skipped)))"
  ), script)
  out <- system2(file.path(R.home("bin"), "Rscript"), script, stdout = TRUE, stderr = TRUE)
  writeLines(out[!startsWith(out, "RESULT ")])
  line <- grep("^RESULT ", out, value = TRUE)
  if (!length(line)) return(c(passed = 0, failed = 1, skipped = 0))
  counts <- as.numeric(strsplit(line[length(line)], " ")[[1]][-1])
  cat(sprintf("%s build: %d passed, %d failed, %d skipped\n", build, counts[1], counts[2],
              counts[3]))
  c(passed = counts[1], failed = counts[2], skipped = counts[3])
}

total <- Reduce(`+`, lapply(builds, run_build))
cat(sprintf("%d passed, %d failed, %d skipped\n", total[["passed"]], total[["failed"]],
            total[["skipped"]]))
quit(status = if (total[["failed"]] > 0) 1 else 0)
