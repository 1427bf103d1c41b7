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

# A job scheduler of this machine's processes, for batchtools: each job an Rscript started in
# the background, its process id the job's id (written to `jobs`), killed by killJob; like
# Slurm, it waits out a second of latency after submitting (Sys.sleep(), which lets an
# interrupt through even while interrupts are suspended). Code for a child session.
process_scheduler <- function(jobs, lib) sprintf('
  Sys.setenv(R_LIBS = %s)
  alive <- function(pid) {
    stat <- file.path("/proc", pid, "stat")
    vapply(stat, function(f) file.exists(f) &&
             !grepl("^[0-9]+ \\\\(.*\\\\) Z", readLines(f, warn = FALSE)[1]), TRUE)
  }
  ids <- function() if (file.exists(%2$s)) trimws(readLines(%2$s)) else character(0)
  cf <- batchtools::makeClusterFunctions(
    name = "processes", scheduler.latency = 1, store.job.collection = TRUE,
    submitJob = function(reg, jc) {
      pid <- system(sprintf("%%s -e %%s > %%s 2>&1 & echo $!", file.path(R.home("bin"), "Rscript"),
                            shQuote(sprintf("batchtools::doJobCollection(\\"%%s\\")", jc$uri)),
                            shQuote(paste0(jc$uri, ".log"))), intern = TRUE)
      cat(pid, "\\n", file = %2$s, append = TRUE)
      batchtools::makeSubmitJobResult(status = 0L, batch.id = pid)
    },
    killJob = function(reg, batch.id) tools::pskill(as.integer(batch.id), tools::SIGKILL),
    listJobsRunning = function(reg) { i <- ids(); i[alive(i)] })
', deparse(lib), deparse(jobs))

test_that("an interrupt while a scheduler's job is being submitted cancels that job too", {
  skip_on_os(c("windows", "mac", "solaris"))
  skip_if_not(dir.exists("/proc/self"), "no /proc to tell a running process")
  skip_if_not_installed("processx")
  skip_if_no_future()
  skip_if_not_installed("future.batchtools")
  # The session interrupts itself the moment batchtools has recorded its second job (its
  # hook right after the submission): the interrupt lands in the scheduler's latency, before
  # future() returns. Both jobs train for minutes unless they are cancelled.
  jobs <- tempfile("jobs-")
  code <- paste(c(
    process_scheduler(jobs, dirname(find.package("somgpu"))),
    "submitted <- 0L",
    "cf$hooks$post.submit.job <- function(reg, ...) {",
    "  submitted <<- submitted + 1L",
    "  if (submitted == 2L) {",
    "    cat('interrupted after submission 2, jobs running:', sum(alive(ids())), '\\n')",
    "    tools::pskill(Sys.getpid(), tools::SIGINT)",
    "  }",
    "}",
    sprintf("options(future.cache.path = %s)", deparse(tempfile("somgpu-jobs-"))),
    "future::plan(future.batchtools::batchtools_custom, cluster.functions = cf, workers = 2)",
    "y <- matrix(stats::rnorm(2e5 * 8), ncol = 8)",
    "train(y, sizes = 2:9, iter_max = 5000, seed = 1, threads = 1, parallel = 'future')"),
    collapse = "\n")
  p <- processx::process$new(file.path(R.home("bin"), "Rscript"),
                             c("-e", paste0(child_script(""), code)), stdout = "|",
                             stderr = "2>&1")
  on.exit({ # whatever happens, no job left behind
    p$kill()
    for (pid in if (file.exists(jobs)) trimws(readLines(jobs))) {
      tools::pskill(as.integer(pid), tools::SIGKILL)
    }
  }, add = TRUE)
  p$wait(120 * 1000)
  expect_false(p$is_alive())
  expect_match(p$read_all_output(), "interrupted after submission 2, jobs running: 2",
               fixed = TRUE)
  pids <- trimws(readLines(jobs))
  expect_length(pids, 2L)
  running <- function() {
    vapply(pids, function(pid) {
      f <- file.path("/proc", pid, "stat")
      file.exists(f) && !grepl("^[0-9]+ \\(.*\\) Z", readLines(f, warn = FALSE)[1])
    }, TRUE)
  }
  waited <- 0
  while (any(running()) && waited < 10) {
    Sys.sleep(0.5)
    waited <- waited + 0.5
  }
  expect_false(any(running()), label = "a job still running after the interrupt")
})
