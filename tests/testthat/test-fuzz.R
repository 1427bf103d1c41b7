# Fuzzed input (cases in fuzz-cases.R): train() and predict() on malformed data, arguments
# and options end in a somgpu_error or a valid result. The cases run in a child R process,
# so that a crash fails this test (naming the case) instead of ending the test run.

test_that("malformed input ends in a somgpu_error or a valid result, never a crash", {
  source(test_path("fuzz-cases.R"), local = TRUE)
  cases <- fuzz_cases(n_random = 300)
  dir <- withr::local_tempdir()
  cases_file <- file.path(dir, "cases.rds")
  out <- file.path(dir, "out.tsv")
  saveRDS(cases, cases_file)
  script <- file.path(dir, "child.R")
  writeLines(c(
    sprintf(".libPaths(%s)", paste(deparse(.libPaths()), collapse = "")),
    sprintf("Sys.setenv(POCL_CACHE_DIR = %s)", deparse(file.path(dir, "pocl"))),
    "options(somgpu.threads = 2L)",
    sprintf("source(%s)", deparse(test_path("helper-valid.R"))),
    sprintf("source(%s)", deparse(test_path("fuzz-cases.R"))),
    sprintf("run_fuzz(readRDS(%s), %s)", deparse(cases_file), deparse(out))
  ), script)
  status <- system2(file.path(R.home("bin"), "Rscript"), c("--vanilla", shQuote(script)),
                    stdout = file.path(dir, "stdout"), stderr = file.path(dir, "stderr"))
  lines <- if (file.exists(out)) readLines(out) else character(0)
  done <- length(lines)
  crashed <- if (done < length(cases)) cases[[done + 1L]]$label else "none"
  expect_identical(status, 0L, label = sprintf(
    "child exit status (stopped in case %d, %s; stderr: %s)", done + 1L, crashed,
    paste(utils::tail(readLines(file.path(dir, "stderr")), 5), collapse = " | ")))
  expect_identical(done, length(cases), label = "cases finished")
  res <- utils::read.delim(text = lines, header = FALSE, quote = "",
                           col.names = c("case", "outcome", "detail", "seconds"),
                           colClasses = "character")
  bad <- res$outcome == "bad"
  expect_identical(
    sprintf("%s: %s", vapply(cases[as.integer(res$case[bad])], `[[`, "", "label"),
            res$detail[bad]),
    character(0))
  # the fuzzing reaches both ends: many errors and a fair share of valid fits
  expect_gt(sum(res$outcome == "error"), length(cases) / 3)
  expect_gt(sum(res$outcome == "ok"), 20)
})
