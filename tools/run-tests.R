# The test command. Installs somgpu from this checkout into a temporary library and runs
# its testthat suite, every help page's examples and the vignettes, twice: as configure
# builds it here (with OpenCL where the headers and ICD loader exist) and CPU-only
# (SOMGPU_NO_OPENCL=1). Then the hardening checks: R CMD build and R CMD check --as-cran of
# both builds (tools/check-package.R; the tests themselves ran just before, so the check
# leaves them out), the C harness under AddressSanitizer and UndefinedBehaviorSanitizer
# (tests/c), the kernels compiled for NVIDIA and AMD GPU targets with clang
# (tools/gpu-compile.sh: no fused multiply-add in double, no double in single), and a
# representative part of the suite under valgrind (tools/valgrind.R).
#
# Output streams as each step runs: one line per test file (its expectations, skips and
# seconds; a failure in full), one line per step, and at the end a table of the steps and
# the line "N passed, N failed, N skipped" over everything (expectations passed, each
# help page's examples, each vignette, each check, harness variant and valgrind run counting
# as one; expectations failed plus tests that errored, and whatever else failed; tests
# skipped). Exit status 1 when anything failed.
#
#   Rscript tools/run-tests.R                  everything (what CI runs; about 25 minutes)
#   Rscript tools/run-tests.R default cpu-only the two builds' tests only (about 4 minutes)
#   Rscript tools/run-tests.R quick            the fast loop: the rule against its reference,
#                                              inputs, messages, results, layers, and
#                                              select_size()'s rules (about 2 min)
#   targets: setup (the README's two commands on a simulated fresh machine, then the first
#   for real into a temporary library: tools/check-setup.R), default, cpu-only, readme
#   (every R code block of the README runs as written),
#   check, harness, gpu-compile, slurm (test-slurm.R under a one-node Slurm started and
#   stopped by tools/slurm.sh), site (tools/site.R's pkgdown site, three of its pages loaded
#   in headless Chromium: tools/check-site.R), valgrind (a representative part of the
#   suite), valgrind-all (every file that valgrind ever ran: about 11 minutes more)
args <- commandArgs(trailingOnly = TRUE)
targets <- if (length(args)) args else c("setup", "default", "cpu-only", "readme", "check",
                                         "harness", "gpu-compile", "slurm", "site",
                                         "valgrind")
# A step made of checks (tools/check-setup.R, tools/check-site.R): check() prints "ok" or
# "FAIL" and the tail of `out` on failure, skip() a skip; counts() is the step's tally.
new_checks <- function() {
  tally <- c(passed = 0, failed = 0, skipped = 0)
  list(check = function(what, ok, out = character(0)) {
         cat(sprintf("%-4s %s\n", if (ok) "ok" else "FAIL", what))
         if (!ok && length(out)) cat(utils::tail(out, 20), sep = "\n")
         tally <<- tally + c(ok, !ok, 0)
       },
       skip = function(what) {
         cat("skip", what, "\n")
         tally <<- tally + c(0, 0, 1)
       },
       counts = function() tally)
}
source("tools/check-setup.R")
source("tools/check-package.R")
source("tools/check-site.R")
source("tools/valgrind.R")

build_lib <- function(build) file.path(tempdir(), paste0("somgpu-lib-", build))

# Install build ("default" or "cpu-only") into its temporary library; TRUE on success. The
# compiler's output is shown only when the install fails.
install_build <- function(build) {
  lib <- build_lib(build)
  if (dir.exists(file.path(lib, "somgpu"))) return(TRUE)
  dir.create(lib, showWarnings = FALSE)
  Sys.setenv(SOMGPU_NO_OPENCL = if (build == "cpu-only") "1" else "")
  r <- file.path(R.home("bin"), "R")
  log <- tempfile(fileext = ".log")
  status <- system2(r, c("CMD", "INSTALL", "--preclean", "--no-multiarch",
                         paste0("--library=", shQuote(lib)), "."), stdout = log, stderr = log)
  out <- readLines(log, warn = FALSE)
  cat(grep("^somgpu: building", out, value = TRUE), sep = "\n") # what configure built
  if (status != 0) cat(utils::tail(out, 40), sep = "\n")
  status == 0
}

# Every ```r block of the README, each in a fresh R session with the default build (a
# block whose first line is "# continuing" runs after the one before it): one test each.
run_readme <- function() {
  if (!install_build("default")) return(c(passed = 0, failed = 1, skipped = 0))
  lines <- readLines("README.md", warn = FALSE)
  starts <- grep("^```r$", lines)
  ends <- grep("^```$", lines)
  counts <- c(passed = 0, failed = 0, skipped = 0)
  prev <- character(0)
  for (i in seq_along(starts)) {
    code <- lines[(starts[i] + 1L):(min(ends[ends > starts[i]]) - 1L)]
    if (grepl("^# continuing", code[1L])) code <- c(prev, code)
    prev <- code
    script <- tempfile(fileext = ".R")
    writeLines(c(sprintf(".libPaths(c(%s, .libPaths()))", deparse(build_lib("default"))),
                 "options(somgpu.threads = 2)", "suppressMessages(library(somgpu))", code),
               script)
    started <- proc.time()[["elapsed"]]
    out <- suppressWarnings(system2(file.path(R.home("bin"), "Rscript"), script,
                                    stdout = TRUE, stderr = TRUE))
    ok <- is.null(attr(out, "status"))
    cat(sprintf("%-4s README block at line %d  %5.1f s\n", if (ok) "ok" else "FAIL", starts[i],
                proc.time()[["elapsed"]] - started))
    if (!ok) cat(utils::tail(out, 15), sep = "\n")
    counts <- counts + c(ok, !ok, 0)
  }
  counts
}

# make -C tests/c check: each variant's summary line counts as one test.
run_harness <- function() {
  cat("C harness (tests/c): plain, ASan + UBSan, OpenCL and CPU-only builds (about 3 minutes)\n")
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

# tools/gpu-compile.sh: each of its check lines counts as one test.
run_gpu_compile <- function() {
  out <- suppressWarnings(system2("sh", "tools/gpu-compile.sh", stdout = TRUE, stderr = TRUE))
  cat(out, sep = "\n")
  lines <- grepl("^(ok|FAIL|skip) ", out)
  failed <- sum(startsWith(out[lines], "FAIL"))
  if (!is.null(attr(out, "status")) && failed == 0) failed <- 1
  c(passed = sum(startsWith(out[lines], "ok")), failed = failed,
    skipped = sum(startsWith(out[lines], "skip")))
}

# The script a build's tests run in (a fresh R process per build: the two builds cannot
# share a session): the testthat suite with one line per file, the examples and the
# vignette, the counts written to `result`.
build_script <- function(lib, result, filter = NULL) {
  c(sprintf(".libPaths(c(%s, .libPaths()))", deparse(lib)),
    "Lines <- R6::R6Class('Lines', inherit = testthat::Reporter, public = list(",
    "  file = '', ok = 0, skip = 0, bad = list(), started = 0,",
    "  start_file = function(filename) {",
    "    self$file <- sub('^test-', '', sub('[.]R$', '', basename(filename)))",
    "    self$ok <- 0; self$skip <- 0; self$bad <- list(); self$started <- proc.time()[[3]]",
    "  },",
    "  add_result = function(context, test, result) {",
    "    if (inherits(result, 'expectation_success')) self$ok <- self$ok + 1",
    "    else if (inherits(result, 'expectation_skip')) self$skip <- self$skip + 1",
    "    else if (inherits(result, c('expectation_failure', 'expectation_error')))",
    "      self$bad[[length(self$bad) + 1L]] <- list(test = test, result = result)",
    "  },",
    "  end_file = function() {",
    "    cat(sprintf('%-4s %-18s %5d passed%s%s  %5.1f s\\n',",
    "                if (length(self$bad)) 'FAIL' else 'ok', self$file, self$ok,",
    "                if (self$skip) sprintf(', %d skipped', self$skip) else '',",
    "                if (length(self$bad)) sprintf(', %d FAILED', length(self$bad)) else '',",
    "                proc.time()[[3]] - self$started))",
    "    for (b in self$bad) {",
    "      cat('---- ', b$test, '\\n', sep = '')",
    "      cat(conditionMessage(b$result), '\\n')",
    "    }",
    "    utils::flush.console()",
    "  }))",
    "res <- testthat::test_dir('tests/testthat', package = 'somgpu',",
    sprintf("  load_package = 'installed', stop_on_failure = FALSE, stop_on_warning = FALSE, filter = %s,",
            deparse(filter)),
    "  reporter = Lines$new())",
    "df <- as.data.frame(res)",
    "passed <- sum(df$passed); failed <- sum(df$failed) + sum(df$error)",
    if (!is.null(filter)) sprintf(
      "writeLines(sprintf('%%d %%d %%d', passed, failed, sum(df$skipped)), %s); quit(save = 'no')",
      deparse(result)),
    "# every help page with examples, then each vignette: one test each, quiet unless they fail",
    "options(somgpu.threads = 2)",
    "pages <- 0",
    "for (rd in list.files('man', pattern = '[.]Rd$', full.names = TRUE)) {",
    "  if (!any(grepl('^\\\\\\\\examples', readLines(rd)))) next",
    "  topic <- sub('[.]Rd$', '', basename(rd))",
    "  ok <- tryCatch({ grDevices::pdf(NULL); on.exit(grDevices::dev.off());",
    "    utils::capture.output(suppressMessages(utils::example(topic, package = 'somgpu',",
    "      character.only = TRUE, ask = FALSE, echo = FALSE))); TRUE }, error = function(e) {",
    "      cat('FAIL example', topic, ':', conditionMessage(e), '\\n'); FALSE })",
    "  pages <- pages + 1",
    "  if (ok) passed <- passed + 1 else failed <- failed + 1",
    "}",
    "cat(sprintf('ok   examples of %d help pages\\n', pages))",
    "for (rmd in list.files('vignettes', pattern = '[.]Rmd$', full.names = TRUE)) {",
    "  t0 <- proc.time()[[3]]",
    "  ok <- tryCatch({ rmarkdown::render(rmd, output_dir = tempdir(),",
    "    intermediates_dir = tempdir(), quiet = TRUE); TRUE }, error = function(e) {",
    "    cat('vignette failed:', conditionMessage(e), '\\n'); FALSE })",
    "  cat(sprintf('%-4s vignette %s built  %5.1f s\\n', if (ok) 'ok' else 'FAIL',",
    "              basename(rmd), proc.time()[[3]] - t0))",
    "  if (ok) passed <- passed + 1 else failed <- failed + 1",
    "}",
    sprintf("writeLines(sprintf('%%d %%d %%d', passed, failed, sum(df$skipped)), %s)",
            deparse(result)))
}

run_build <- function(build, filter = NULL) {
  lib <- build_lib(build)
  if (!install_build(build)) return(c(passed = 0, failed = 1, skipped = 0))
  # R_LIBS: so that future workers started by the tests and the vignette find this build
  Sys.setenv(R_LIBS = paste(c(lib, .libPaths()), collapse = .Platform$path.sep))
  script <- tempfile(fileext = ".R")
  result <- tempfile(fileext = ".txt")
  stderr_log <- tempfile(fileext = ".log")
  writeLines(build_script(lib, result, filter), script)
  # stdout streams here as it comes; stderr (compilers of OpenCL kernels that a test
  # breaks on purpose, progress bars) is shown only when something failed
  system2(file.path(R.home("bin"), "Rscript"), script, stdout = "", stderr = stderr_log)
  counts <- if (file.exists(result)) {
    as.numeric(strsplit(readLines(result)[1], " ")[[1]])
  } else {
    c(0, 1, 0)
  }
  if (counts[2] > 0 || !file.exists(result)) {
    cat("---- the tests' error output (last 40 lines)\n")
    cat(utils::tail(readLines(stderr_log, warn = FALSE), 40), sep = "\n")
  }
  c(passed = counts[1], failed = counts[2], skipped = counts[3])
}

# A one-node Slurm on this machine (tools/slurm.sh) and the tests that run somgpu's future
# paths under it (test-slurm.R, default build); then, one test each, nothing left in the
# queue and the daemons stopped. Skipped, with the reason, where Slurm cannot start.
run_slurm <- function() {
  start <- suppressWarnings(system2("sh", c("tools/slurm.sh", "start"), stdout = TRUE,
                                    stderr = TRUE))
  if (!is.null(attr(start, "status"))) {
    cat("skip Slurm could not start here:", utils::tail(start, 3), sep = "\n")
    return(c(passed = 0, failed = 0, skipped = 1))
  }
  Sys.setenv(SLURM_CONF = sub("^export SLURM_CONF=", "",
                              grep("^export SLURM_CONF=", start, value = TRUE)))
  # batchtools lists the running jobs with squeue --user=$USER (unset in some containers)
  if (!nzchar(Sys.getenv("USER"))) Sys.setenv(USER = Sys.info()[["user"]])
  counts <- run_build("default", filter = "slurm")
  queue <- suppressWarnings(system2("squeue", c("-h", "-o", "%i"), stdout = TRUE, stderr = TRUE))
  system2("sh", c("tools/slurm.sh", "stop"))
  Sys.unsetenv("SLURM_CONF")
  # (a name at a time: one pattern "a|b|c" unquoted is a shell pipeline that starts the
  # daemons, and quoted, longer than 15 characters, draws a warning from pgrep)
  alive <- unlist(lapply(c("slurmd", "slurmctld", "slurmstepd"), function(name) {
    suppressWarnings(system2("pgrep", c("-x", name), stdout = TRUE))
  }))
  checks <- c("no job left in the queue" = length(queue) == 0L,
              "the Slurm daemons stopped" = length(alive) == 0L)
  for (k in names(checks)) cat(sprintf("%-4s %s\n", if (checks[[k]]) "ok" else "FAIL", k))
  counts + c(sum(checks), sum(!checks), 0)
}

Sys.setenv(POCL_CACHE_DIR = file.path(tempdir(), "pocl-cache"))
# The fast loop's test files (testthat's filter on their names): the rule bit for bit
# against its pure-R reference, the random streams, inputs and messages, the result's
# shape, clusters in a file, the layers; and select_size()'s rules: the Gaussian groups
# against their reference, each rule, the pipeline and its constants.
quick_files <- paste0("^(rng|reference|batch|input|messages|result|fileclusters|layers|",
                      "groups|genie|connected|apart|sparse|bimodal|rules|tuning)$")
step_names <- c(setup = "the README's two commands on a fresh machine (tools/setup.R)",
                quick = "the fast loop: a part of the default build's tests",
                default = "default build (OpenCL where found): tests, examples, vignettes",
                "cpu-only" = "CPU-only build: tests, examples, vignettes",
                readme = "the README's code blocks, as a reader pastes them",
                check = "R CMD build, R CMD check --as-cran of both builds",
                harness = "C harness under sanitizers",
                "gpu-compile" = "the kernels compiled for NVIDIA and AMD GPUs (clang)",
                slurm = "a one-node Slurm: the future paths under a real scheduler",
                site = "the documentation site, built and loaded in Chromium",
                valgrind = "valgrind on a representative part of the suite",
                "valgrind-all" = "valgrind on every file it has run")
run_target <- function(target) {
  if (!target %in% names(step_names)) stop("unknown target ", target, call. = FALSE)
  cat(sprintf("\n==== %s ====\n", step_names[[target]]))
  utils::flush.console()
  started <- proc.time()[["elapsed"]]
  counts <- switch(target,
    setup = run_setup(),
    default = , "cpu-only" = run_build(target),
    quick = run_build("default", quick_files),
    readme = run_readme(),
    check = run_check(),
    harness = run_harness(),
    "gpu-compile" = run_gpu_compile(),
    slurm = run_slurm(),
    site = run_site(),
    valgrind = , "valgrind-all" = if (install_build("cpu-only")) {
      run_valgrind(build_lib("cpu-only"),
                   if (target == "valgrind") valgrind_files else valgrind_all_files)
    } else {
      c(passed = 0, failed = 1, skipped = 0)
    })
  c(counts, seconds = proc.time()[["elapsed"]] - started)
}
steps <- lapply(targets, run_target)
names(steps) <- targets
cat("\n==== summary ====\n")
for (t in targets) {
  s <- steps[[t]]
  cat(sprintf("%-4s %-13s %6d passed, %d failed, %d skipped  %6.0f s\n",
              if (s[["failed"]] > 0) "FAIL" else "ok", t, as.integer(s[["passed"]]),
              as.integer(s[["failed"]]), as.integer(s[["skipped"]]), s[["seconds"]]))
}
total <- Reduce(`+`, lapply(steps, function(s) s[c("passed", "failed", "skipped")]))
cat(sprintf("%d passed, %d failed, %d skipped\n", total[["passed"]], total[["failed"]],
            total[["skipped"]]))
quit(status = if (total[["failed"]] > 0) 1 else 0)
