# Ctrl-C during a long run: the run stops soon, signals a somgpu_interrupt condition, and the
# session stays usable. Run in a child R process so that the signal reaches only it.

test_that("an interrupt stops a long training run and the session goes on", {
  skip_on_os("windows") # SIGINT delivery to a child process
  skip_if_not_installed("processx")
  lib <- dirname(find.package("somgpu"))
  code <- sprintf('
    .libPaths(c(%s, .libPaths()))
    library(somgpu)
    y <- matrix(runif(30000), 10000, 3)
    cat("START\\n")
    r <- tryCatch(train(y, nmax = 60, iter_max = 5000, threads = 2, progress = FALSE),
                  interrupt = function(e) e)
    cat("CLASS", class(r), "\\n")
    f <- train(y[1:100, ], nmax = 3, iter_max = 5, threads = 2)
    cat("AFTER", nrow(f$clusters), "\\n")
  ', deparse(lib))
  p <- processx::process$new(file.path(R.home("bin"), "Rscript"), c("-e", code),
                             stdout = "|", stderr = "|")
  on.exit(p$kill(), add = TRUE)
  out <- ""
  deadline <- Sys.time() + 60
  while (!grepl("START", out) && p$is_alive() && Sys.time() < deadline) {
    p$poll_io(1000)
    out <- paste0(out, p$read_output())
  }
  expect_match(out, "START")
  Sys.sleep(1)
  expect_true(p$is_alive()) # the full run takes minutes
  p$interrupt()
  # the whole run would take minutes; the interrupted one ends at once
  p$wait(20000)
  expect_false(p$is_alive())
  out <- paste0(out, p$read_all_output())
  expect_match(out, "CLASS somgpu_interrupt interrupt condition")
  expect_match(out, "AFTER 100")
  expect_identical(p$get_exit_status(), 0L)
})
