# Runs part of the testthat suite under valgrind's memcheck, on an installed build of
# somgpu in library `lib`, and reports what valgrind attributes to the package: invalid
# reads and writes, uses of uninitialised values, bad frees, and definitely lost blocks
# whose allocation stack passes through somgpu.so. R's own reports (and OpenCL runtimes')
# are not ours to fix and are only counted. Sourced by tools/run-tests.R.

# Every file valgrind has run (the target valgrind-all, about 11 minutes on 2 cores), and
# the representative part the default test command runs: the online rule against its
# reference, batch, the general path (missing values, weights), packs of small maps, the
# schedules per ring and file-backed data, so that every engine and data source is under
# memcheck, and the Gaussian groups' compiled agglomeration and EM against their references
# (about 5 minutes). The spanning tree, Genie's merges and nearest rows (test-genie.R) run
# in valgrind-all: their R references are slow under valgrind.
valgrind_all_files <- c("test-input.R", "test-result.R", "test-reproducibility.R",
                        "test-reference.R", "test-batch.R", "test-analysis.R", "test-rng.R",
                        "test-missing.R", "test-scale.R", "test-lanes.R", "test-single.R",
                        "test-filedata.R", "test-schedule.R", "test-groups.R", "test-genie.R")
valgrind_files <- c("test-reference.R", "test-batch.R", "test-missing.R", "test-lanes.R",
                    "test-schedule.R", "test-filedata.R", "test-groups.R")

# One valgrind report block is ours when a frame of its stack is in somgpu.so: named by
# the library (no debug information) or by one of its source files.
valgrind_ours <- function(block) {
  any(grepl("somgpu\\.so|\\((som_[a-z_]+|r_[a-z]+|init)\\.[ch]:[0-9]+\\)", block))
}

# Split valgrind's log into its report blocks (the lines between blank ones).
valgrind_blocks <- function(log) {
  body <- sub("^==[0-9]+== ?", "", log)
  id <- cumsum(!nzchar(trimws(body)))
  blocks <- split(body, id)
  blocks <- lapply(blocks, function(b) b[nzchar(trimws(b))])
  blocks[lengths(blocks) > 0L]
}

run_valgrind <- function(lib, files = valgrind_files) {
  if (!nzchar(Sys.which("valgrind"))) {
    cat("valgrind is not installed (Debian: valgrind): skipped\n")
    return(c(passed = 0, failed = 0, skipped = 1))
  }
  dir <- tempfile("valgrind-")
  dir.create(dir)
  log_file <- file.path(dir, "valgrind.log")
  script <- file.path(dir, "tests.R")
  writeLines(c(
    sprintf(".libPaths(c(%s, .libPaths()))", deparse(lib)),
    "options(somgpu.threads = 2L)",
    sprintf("files <- %s", paste(deparse(file.path("tests/testthat", files)), collapse = "")),
    "res <- lapply(files, function(f) {",
    "  as.data.frame(testthat::test_file(f, package = 'somgpu', load_package = 'installed',",
    "    reporter = 'silent', stop_on_failure = FALSE))",
    "})",
    "df <- do.call(rbind, res)",
    "cat(sprintf('\\nVALGRIND-TESTS %d %d\\n', sum(df$passed), sum(df$failed) + sum(df$error)))"
  ), script)
  tool <- paste("valgrind --tool=memcheck --leak-check=full --show-leak-kinds=definite",
                "--num-callers=40 --error-limit=no", paste0("--log-file=", log_file))
  started <- proc.time()[["elapsed"]]
  out <- system2(file.path(R.home("bin"), "R"),
                 c("-d", shQuote(tool), "--vanilla", "--no-echo", "-f", shQuote(script)),
                 stdout = TRUE, stderr = TRUE)
  seconds <- proc.time()[["elapsed"]] - started
  line <- grep("^VALGRIND-TESTS ", out, value = TRUE)
  tests <- if (length(line)) as.integer(strsplit(line, " ")[[1]][-1]) else c(0L, 1L)
  blocks <- valgrind_blocks(readLines(log_file, warn = FALSE))
  kind <- vapply(blocks, function(b) b[1], "")
  error <- grepl("^(Invalid (read|write|free)|Conditional jump|Use of uninitialised|Syscall param|Mismatched free|Source and destination overlap)", kind)
  leak <- grepl("definitely lost in loss record", kind)
  ours <- vapply(blocks, valgrind_ours, logical(1))
  cat(sprintf("%s: %d tests passed, %d failed under valgrind (%.0f s)\n",
              paste(files, collapse = ", "), tests[1], tests[2], seconds))
  cat(sprintf("memcheck: %d error reports and %d definitely lost records in somgpu; %d and %d elsewhere (R, system libraries)\n",
              sum(error & ours), sum(leak & ours), sum(error & !ours), sum(leak & !ours)))
  for (b in blocks[(error | leak) & ours]) cat(b, sep = "\n", "\n")
  failed <- sum(error & ours) + sum(leak & ours) > 0 || tests[2] > 0 || !length(line)
  if (!length(line)) cat(utils::tail(out, 20), sep = "\n")
  c(passed = as.numeric(!failed), failed = as.numeric(failed), skipped = 0)
}
