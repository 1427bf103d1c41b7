# Ctrl-C during a long run: the run stops soon, signals a somgpu_interrupt condition, and the
# session stays usable. Each case runs in a child R process, so that the signal reaches only
# it and a hang or crash fails the test instead of stopping the suite.

child_script <- function(body) {
  sprintf('
    .libPaths(c(%s, .libPaths()))
    Sys.setenv(POCL_CACHE_DIR = %s)
    library(somgpu)
    y <- matrix(runif(60000), 20000, 3)
    %s
  ', deparse(dirname(find.package("somgpu"))), deparse(file.path(tempdir(), "pocl-cache")),
  body)
}

# Start a child, wait for it to print START, interrupt it two seconds later (time for R's
# setup of the call to reach the compiled code on a loaded machine) and collect its output. The jobs take minutes; `stopped` says whether the child ended within 30 s.
interrupt_child <- function(body) {
  p <- processx::process$new(file.path(R.home("bin"), "Rscript"), c("-e", child_script(body)),
                             stdout = "|", stderr = "|")
  on.exit(p$kill(), add = TRUE)
  out <- ""
  deadline <- Sys.time() + 120
  while (!grepl("START", out) && p$is_alive() && Sys.time() < deadline) {
    p$poll_io(1000)
    out <- paste0(out, p$read_output())
  }
  Sys.sleep(2)
  alive <- p$is_alive()
  p$interrupt()
  p$wait(30000)
  stopped <- !p$is_alive()
  list(alive_before = alive, stopped = stopped,
       out = paste0(out, if (stopped) p$read_all_output() else ""),
       err = if (stopped) p$read_all_error() else "",
       status = if (stopped) p$get_exit_status() else NA)
}

handled <- function(call, setup = "") sprintf('
  %s
  cat("START\\n")
  r <- tryCatch(%s, interrupt = function(e) e)
  cat("CLASS", class(r), "\\n")
  f <- train(y[1:100, ], nmax = 3, iter_max = 5, threads = 2)
  cat("AFTER", nrow(f$clusters), "\\n")
', setup, call)

expect_interrupted <- function(res) {
  expect_true(res$alive_before)
  expect_true(res$stopped)
  expect_match(res$out, "CLASS somgpu_interrupt interrupt condition")
  expect_match(res$out, "AFTER 100")
  expect_identical(res$status, 0L)
}

test_that("an interrupt stops a long CPU training run and the session goes on", {
  skip_on_os("windows")
  skip_if_not_installed("processx")
  expect_interrupted(interrupt_child(handled(
    "train(y, nmax = 60, iter_max = 5000, threads = 2, progress = FALSE)")))
})

test_that("an interrupt stops the assessment of many large maps", {
  skip_on_os("windows")
  skip_if_not_installed("processx")
  # iter_max = 1: no training, all the time goes to qe, te and clusters
  expect_interrupted(interrupt_child(handled(
    "suppressMessages(train(yy, nmax = 700, iter_max = 1, threads = 2))",
    setup = "yy <- y[rep(1:20000, 10), ]")))
})

test_that("an interrupt stops a long OpenCL run and releases it", {
  skip_on_os("windows")
  skip_if_not_installed("processx")
  skip_if_no_opencl()
  # the kernels are built first: an interrupt during the build is an ordinary R interrupt
  expect_interrupted(interrupt_child(paste(
    "invisible(train(y[1:50, ], nmax = 3, iter_max = 2, backend = \"opencl\"))",
    handled("train(y, nmax = 60, iter_max = 5000, backend = \"opencl\", progress = FALSE)"))))
})

test_that("an unhandled interrupt ends the call as Ctrl-C does, without an error", {
  skip_on_os("windows")
  skip_if_not_installed("processx")
  res <- interrupt_child('
    cat("START\\n")
    fit <- train(y, nmax = 60, iter_max = 5000, threads = 2)
    cat("NOT REACHED\\n")
  ')
  expect_true(res$stopped)
  expect_false(grepl("NOT REACHED", res$out))
  expect_false(grepl("Error", res$err))
})

test_that("a forked child (mclapply) trains after its parent used threads", {
  skip_on_os("windows")
  skip_if_not_installed("processx")
  code <- child_script('
    a <- train(y[1:2000, ], nmax = 6, iter_max = 10, threads = 2, seed = 1)
    r <- parallel::mclapply(1:2, function(i) {
      f <- train(y[1:2000, ], nmax = 6, iter_max = 10, threads = 2, seed = 1)
      c(f$backend$threads, identical(f$weights, a$weights))
    }, mc.cores = 2)
    cat("CHILD", unlist(r), "\\n")
  ')
  p <- processx::process$new(file.path(R.home("bin"), "Rscript"), c("-e", code),
                             stdout = "|", stderr = "|")
  on.exit(p$kill(), add = TRUE)
  p$wait(60000)
  expect_false(p$is_alive())
  # each child ran with one thread and got the parent's result
  expect_match(p$read_all_output(), "CHILD 1 1 1 1")
})
