# The test command. Installs somgpu from this checkout into a temporary library and runs
# its testthat suite, every help page's examples and the vignette, twice: as configure
# builds it here (with OpenCL where the headers and ICD loader exist) and CPU-only
# (SOMGPU_NO_OPENCL=1). Then the hardening checks: R CMD build and R CMD check --as-cran of
# both builds (tools/check-package.R), the C harness under AddressSanitizer and
# UndefinedBehaviorSanitizer (tests/c), and part of the suite under valgrind
# (tools/valgrind.R). Prints each report, then one last line: "N passed, N failed, N
# skipped" over everything (expectations passed, each example, the vignette, each check,
# harness variant and valgrind run counting as one; expectations failed plus tests that
# errored, and whatever else failed; tests skipped). Exit status 1 when anything failed.
#
#   Rscript tools/run-tests.R                  everything (what CI runs)
#   Rscript tools/run-tests.R default cpu-only the two builds' tests only (a few minutes less)
#   targets: default, cpu-only, check, harness, valgrind
args <- commandArgs(trailingOnly = TRUE)
targets <- if (length(args)) args else c("default", "cpu-only", "check", "harness", "valgrind")
source("tools/check-package.R")
source("tools/valgrind.R")

build_lib <- function(build) file.path(tempdir(), paste0("somgpu-lib-", build))

# Install build ("default" or "cpu-only") into its temporary library; TRUE on success.
install_build <- function(build) {
  lib <- build_lib(build)
  if (dir.exists(file.path(lib, "somgpu"))) return(TRUE)
  dir.create(lib, showWarnings = FALSE)
  Sys.setenv(SOMGPU_NO_OPENCL = if (build == "cpu-only") "1" else "")
  r <- file.path(R.home("bin"), "R")
  status <- system2(r, c("CMD", "INSTALL", "--preclean", "--no-multiarch",
                         paste0("--library=", shQuote(lib)), "."))
  status == 0
}

# make -C tests/c check: each variant's summary line counts as one test.
run_harness <- function() {
  cat("\n==== C harness (tests/c): plain, ASan + UBSan ====\n")
  out <- suppressWarnings(system2("make", c("-s", "-C", "tests/c", "clean", "check"),
                                  stdout = TRUE, stderr = TRUE))
  status <- attr(out, "status")
  summary <- out[seq_along(out) > match("--- summary", out, nomatch = length(out))]
  lines <- grep("^harness", summary, value = TRUE)
  bad <- !grepl(" 0 failed$", lines)
  if ((!is.null(status) && status != 0) || !length(lines)) {
    cat(utils::tail(out, 40), sep = "\n")
  } else {
    cat(lines, sep = "\n")
  }
  failed <- sum(bad) + as.numeric((!is.null(status) && status != 0 && !any(bad)) || !length(lines))
  c(passed = sum(!bad), failed = failed, skipped = 0)
}

run_build <- function(build) {
  lib <- build_lib(build)
  cat(sprintf("\n==== %s build ====\n", build))
  if (!install_build(build)) return(c(passed = 0, failed = 1, skipped = 0))
  # R_LIBS: so that future workers started by the tests and the vignette find this build
  Sys.setenv(R_LIBS = paste(c(lib, .libPaths()), collapse = .Platform$path.sep))
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

Sys.setenv(POCL_CACHE_DIR = file.path(tempdir(), "pocl-cache"))
run_target <- function(target) {
  switch(target,
    default = , "cpu-only" = run_build(target),
    check = run_check(),
    harness = run_harness(),
    valgrind = if (install_build("cpu-only")) run_valgrind(build_lib("cpu-only")) else
      c(passed = 0, failed = 1, skipped = 0),
    stop("unknown target ", target, call. = FALSE))
}
total <- Reduce(`+`, lapply(targets, run_target))
cat(sprintf("%d passed, %d failed, %d skipped\n", total[["passed"]], total[["failed"]],
            total[["skipped"]]))
quit(status = if (total[["failed"]] > 0) 1 else 0)
