# somgpu's future paths under a real scheduler: a one-node Slurm on this machine
# (tools/slurm.sh, started by the test command's "slurm" step, which exports SLURM_CONF),
# through future.batchtools with 2 workers: every result identical bit for bit to the one
# run in this process; a job lost mid-run runs again; an error on one worker stops the jobs
# still to come; an interrupt cancels the jobs, also one landing while a job is being
# submitted. Skipped, with the reason, where no Slurm runs.

skip_if_no_slurm <- function() {
  conf <- Sys.getenv("SLURM_CONF")
  skip_if(!nzchar(conf) || !file.exists(conf),
          "no Slurm runs here (the test command's slurm step starts one: tools/slurm.sh)")
  skip_if_no_future()
  skip_if_not_installed("future.batchtools")
  state <- suppressWarnings(system2("sinfo", c("-h", "-o", "%t"), stdout = TRUE, stderr = TRUE))
  skip_if(!any(state %in% c("idle", "mix", "alloc")), "the Slurm node is not up")
}

# The plan for the rest of the calling test: 2 Slurm jobs at a time, batchtools' files in
# this session's temporary folder.
local_slurm <- function(env = parent.frame()) {
  withr::local_options(future.cache.path = file.path(tempdir(), "somgpu-slurm-jobs"),
                       .local_envir = env)
  # batchtools lists a user's running jobs with squeue --user=$USER: a container's shell may
  # not set USER, and then every job running when it looks counts as lost
  if (!nzchar(Sys.getenv("USER"))) {
    withr::local_envvar(USER = Sys.info()[["user"]], .local_envir = env)
  }
  local_plan(future.batchtools::batchtools_slurm, workers = 2, .env = env)
}

# What the tests of srun-started workers need: Slurm, srun, parallelly and bigmemory.
skip_if_no_srun <- function() {
  skip_if_no_slurm()
  skip_if_not_installed("parallelly")
  skip_if_not_installed("bigmemory")
  skip_if(!nzchar(Sys.which("srun")), "no srun")
}

# n R workers, each a Slurm job started by srun that connects back (parallelly), stopped
# when the calling test ends.
srun_cluster <- function(n, env = parent.frame()) {
  if (!nzchar(Sys.getenv("USER"))) withr::local_envvar(USER = Sys.info()[["user"]], .local_envir = env)
  local_cluster(n, rscript = I(c(
    "srun", "--ntasks=1", "--cpus-per-task=1", "--job-name=somgpu-worker", "--quiet",
    file.path(R.home("bin"), "Rscript"))), .env = env)
}

# No job queued, running or completing, within `wait` seconds (a job that has just ended
# stays in the queue while Slurm completes it).
queue_empty <- function(wait = 30) {
  waited <- 0
  repeat {
    jobs <- system2("squeue", c("-h", "-o", "%i"), stdout = TRUE, stderr = TRUE)
    if (length(jobs) == 0L) return(TRUE)
    if (waited >= wait) return(FALSE)
    Sys.sleep(0.5)
    waited <- waited + 0.5
  }
}

test_that("under Slurm: maps, replicates and file-backed rows give the in-process bits", {
  skip_if_no_slurm()
  y <- iris[, 1:4]
  here <- train(y, nmax = 6, restarts = 2, seed = 1, threads = 1)
  sel_here <- select_size(y, sizes = 2:5, restarts = 2, bootstrap = 4, iter_max = 30,
                          scale = TRUE, seed = 2, threads = 1, progress = FALSE)
  bm <- file_rows(3, 4000, 3) # in a folder every job reads: the same machine here
  batch_here <- train(bm, nmax = 5, algorithm = "batch", iter_max = 6, seed = 4, threads = 1)
  withr::local_options(somgpu.batch_block = 256L) # 16 blocks: a range of them per job
  batch_blocks <- train(bm, nmax = 5, algorithm = "batch", iter_max = 6, seed = 4, threads = 1)
  local_slurm()
  fit <- train(y, nmax = 6, restarts = 2, seed = 1, parallel = "future", threads = 1)
  expect_identical(fit$weights, here$weights)
  expect_identical(fit$clusters, here$clusters)
  expect_identical(nrow(fit$backend$workers), 2L)
  expect_match(fit$backend$device, "BatchtoolsSlurm|batchtools_slurm")
  sel <- select_size(y, sizes = 2:5, restarts = 2, bootstrap = 4, iter_max = 30, scale = TRUE,
                     seed = 2, threads = 1, progress = FALSE, parallel = "future")
  expect_identical(sel$criteria, sel_here$criteria)
  expect_identical(sel$partition, sel_here$partition)
  expect_identical(sel$group_table, sel_here$group_table)
  shards <- train(bm, nmax = 5, algorithm = "batch", iter_max = 6, seed = 4, threads = 1,
                  parallel = "future")
  expect_identical(shards$weights, batch_blocks$weights)
  expect_equal(shards$weights, batch_here$weights, tolerance = 1e-12)
  expect_identical(nrow(shards$backend$workers), 2L)
  expect_true(queue_empty())
})

# Persistent workers that Slurm starts (issue 56): 2 R workers, each launched by srun as a
# job of its own that connects back (parallelly), used through plan(cluster): started once,
# kept for every fit, stopped by stopCluster(). somgpu needs nothing of its own for them.
test_that("under Slurm: persistent workers started by srun give the in-process bits", {
  skip_if_no_srun()
  bm <- file_rows(3, 4000, 3)
  withr::local_options(somgpu.batch_block = 256L) # 16 blocks: a range of them per worker
  batch_here <- train(bm, nmax = 5, algorithm = "batch", iter_max = 6, seed = 4, threads = 1)
  maps_here <- train(iris[, 1:4], nmax = 6, restarts = 2, seed = 1, threads = 1)
  cl <- srun_cluster(2)
  names <- system2("squeue", c("-h", "-o", "%j"), stdout = TRUE, stderr = TRUE)
  expect_identical(sum(names == "somgpu-worker"), 2L) # one Slurm job per worker
  local({
    local_plan(future::cluster, workers = cl)
    shards <- train(bm, nmax = 5, algorithm = "batch", iter_max = 6, seed = 4, threads = 1,
                    parallel = "future")
    expect_identical(shards$weights, batch_here$weights)
    expect_identical(shards$quality, batch_here$quality)
    expect_identical(nrow(shards$backend$workers), 2L)
    # each worker read its rows once and held them for every pass; let go at the end
    expect_identical(shards$backend$workers$held, c(TRUE, TRUE))
    expect_identical(shards$backend$workers$reads, c(1L, 1L))
    expect_identical(rows_held(cl), c(0L, 0L))
    fit <- train(iris[, 1:4], nmax = 6, restarts = 2, seed = 1, parallel = "future",
                 threads = 1)
    expect_identical(fit$weights, maps_here$weights)
    # the same two processes served every pass and both fits: started once, kept
    pids <- parallel::clusterEvalQ(cl, Sys.getpid())
    expect_setequal(shards$backend$workers$pid, unlist(pids))
  })
  stop_nodes(cl)
  expect_true(queue_empty()) # every worker's job ends with the cluster
})

test_that("under Slurm: a persistent worker killed mid-fit, its rows summed elsewhere", {
  skip_if_no_srun()
  bm <- file_rows(4, 4000, 3)
  withr::local_options(somgpu.batch_block = 256L)
  here <- train(bm, nmax = 5, algorithm = "batch", iter_max = 6, seed = 4, threads = 1)
  cl <- srun_cluster(2)
  local_plan(future::cluster, workers = cl)
  # the worker summing the second range is killed at pass 3 (its process: its job ends)
  withr::local_options(somgpu.future_fault = list(piece = 2, times = 1, call = 3))
  got <- lost_said(train(bm, nmax = 5, algorithm = "batch", iter_max = 6, seed = 4,
                         threads = 1, parallel = "future"))
  expect_identical(got$value$weights, here$weights)
  expect_identical(got$value$backend$reruns$pass, 3L)
  expect_match(got$said[1], "summing blocks 9 to 16 at pass 3 was lost")
  expect_match(got$said[2], "worker 2 of the plan's cluster of 2 is lost: this fit goes on with the other 1")
  names <- system2("squeue", c("-h", "-o", "%j"), stdout = TRUE, stderr = TRUE)
  expect_identical(sum(names == "somgpu-worker"), 1L) # the live one's job only
  expect_identical(rows_held(cl[1]), 0L)
  stop_nodes(cl)
  expect_true(queue_empty())
})

test_that("under Slurm: a job lost mid-run runs again, same bits, recorded", {
  skip_if_no_slurm()
  y <- iris[, 1:4]
  here <- train(y, nmax = 6, restarts = 2, seed = 1, threads = 1)
  local_slurm()
  withr::local_options(somgpu.future_fault = list(piece = 2, times = 1))
  got <- lost_said(train(y, nmax = 6, restarts = 2, seed = 1, parallel = "future",
                         threads = 1))
  fit <- got$value
  expect_match(got$said, "the future worker training sizes [0-9, ]+ was lost .*attempt 2 of 3")
  expect_identical(fit$weights, here$weights)
  expect_identical(fit$backend$reruns$piece, 2L)
  expect_identical(fit$backend$reruns$attempt, 2L)
  # its retries spent: a classed error naming what was lost, nothing left in the queue
  withr::local_options(somgpu.future_fault = list(piece = 1, times = 3),
                       somgpu.future_retries = 1L)
  err <- expect_error(lost_said(train(y, nmax = 6, restarts = 2, seed = 1,
                                      parallel = "future", threads = 1)),
                      "future worker 1 of 2 .*training sizes .* failed every time it ran \\(2 times",
                      class = "somgpu_worker_error")
  expect_true(length(err$sizes) > 0)
  expect_true(queue_empty())
})

test_that("under Slurm: an error on one worker stops the jobs still to come", {
  skip_if_no_slurm()
  local_slurm()
  withr::local_options(somgpu.future_fault = list(piece = 1, times = 1, kind = "error"))
  t0 <- proc.time()[["elapsed"]]
  expect_error(select_size(iris[, 1:4], sizes = 2:4, restarts = 1, bootstrap = 8,
                           iter_max = 20, seed = 1, threads = 1, progress = FALSE,
                           parallel = "future"),
               "could not train replicate 1: a fault on purpose", class = "somgpu_worker_error")
  expect_true(queue_empty())
})

# A session of its own (the interrupt must not reach this one) that trains maps for minutes
# over 2 Slurm jobs, its plan set by `plan` (code, after `hook` of its own): a processx
# process, killed and its jobs cancelled when the calling test ends.
slurm_session <- function(plan, hook = character(0), env = parent.frame()) {
  jobs <- file.path(tempdir(), "somgpu-slurm-interrupt")
  code <- paste(c(
    sprintf("library(somgpu, lib.loc = %s)", deparse(dirname(find.package("somgpu")))),
    sprintf("options(future.cache.path = %s)", deparse(jobs)),
    hook, plan,
    "y <- matrix(stats::rnorm(2e5 * 8), ncol = 8)",
    "train(y, sizes = 2:9, iter_max = 5000, seed = 1, threads = 1, parallel = 'future')"),
    collapse = "\n")
  user <- if (nzchar(Sys.getenv("USER"))) Sys.getenv("USER") else Sys.info()[["user"]]
  p <- processx::process$new(file.path(R.home("bin"), "Rscript"), c("-e", code),
                             env = c("current", USER = user), stdout = "|", stderr = "2>&1")
  withr::defer({
    p$kill()
    system2("scancel", c("--user", user), stdout = FALSE, stderr = FALSE)
  }, envir = env)
  p
}

test_that("under Slurm: interrupting the session cancels the jobs queued and running", {
  skip_if_no_slurm()
  skip_if_not_installed("processx")
  # interrupted once both jobs run and the session waits on them
  p <- slurm_session("future::plan(future.batchtools::batchtools_slurm, workers = 2)")
  running <- function() {
    state <- system2("squeue", c("-h", "-o", "%t"), stdout = TRUE, stderr = TRUE)
    sum(state == "R")
  }
  waited <- 0
  while (running() < 2L && p$is_alive() && waited < 120) {
    Sys.sleep(0.5)
    waited <- waited + 0.5
  }
  Sys.sleep(3) # settled: the session waits on its jobs (the next test interrupts sooner)
  expect_true(p$is_alive())
  expect_identical(running(), 2L)
  p$interrupt()
  p$wait(60 * 1000)
  expect_false(p$is_alive())
  expect_true(queue_empty()) # the jobs ran for minutes more, had they not been cancelled
})

test_that("under Slurm: persistent workers, an interrupt right after submission", {
  skip_if_no_srun()
  skip_if_not_installed("processx")
  # A session of its own: 2 srun workers, a data-parallel fit interrupted by the session
  # itself the moment its second future of a pass is sent (a trace on future's run()); the
  # same cluster then gives the fit's bits, and the session ends without stopCluster():
  # its workers' jobs end with it.
  dir <- withr::local_tempdir()
  code <- c(
    sprintf(".libPaths(c(%s, .libPaths())) # for the workers too",
            deparse(dirname(find.package("somgpu")))),
    "library(somgpu)",
    sprintf("setwd(%s)", deparse(dir)),
    "big <- matrix(stats::rnorm(2e5 * 4), ncol = 4)",
    "bm <- bigmemory::as.big.matrix(big, backingfile = 'y.bin', backingpath = '.', descriptorfile = 'y.desc')",
    "options(somgpu.batch_block = 1024L)",
    "here <- train(bm, nmax = 5, algorithm = 'batch', iter_max = 20, seed = 1, threads = 1)",
    "cl <- parallelly::makeClusterPSOCK(2, rscript = I(c('srun', '--ntasks=1', '--job-name=somgpu-worker', '--quiet', file.path(R.home('bin'), 'Rscript'))), rscript_libs = .libPaths())",
    "future::plan(future::cluster, workers = cl)",
    "sent <- 0L",
    "trace('run.ClusterFuture', where = asNamespace('future'), print = FALSE, exit = quote({",
    "  sent <<- sent + 1L",
    "  if (sent == 4L) tools::pskill(Sys.getpid(), tools::SIGINT) # pass 2, its second",
    "}))",
    "r <- tryCatch(train(bm, nmax = 5, algorithm = 'batch', iter_max = 20, seed = 1, threads = 1, parallel = 'future'), interrupt = function(e) 'interrupted')",
    "cat('first fit:', if (identical(r, 'interrupted')) 'interrupted' else 'ran', '\\n')",
    "untrace('run.ClusterFuture', where = asNamespace('future'))",
    "again <- train(bm, nmax = 5, algorithm = 'batch', iter_max = 20, seed = 1, threads = 1, parallel = 'future')",
    "cat('then the same bits:', identical(again$weights, here$weights), '\\n')",
    "cat('rows held:', unlist(parallel::clusterEvalQ(cl, length(ls(somgpu:::the_shards, pattern = ':')))), '\\n')")
  user <- if (nzchar(Sys.getenv("USER"))) Sys.getenv("USER") else Sys.info()[["user"]]
  p <- processx::process$new(file.path(R.home("bin"), "Rscript"),
                             c("-e", paste(code, collapse = "\n")),
                             env = c("current", USER = user), stdout = "|", stderr = "2>&1")
  withr::defer({
    p$kill()
    system2("scancel", c("--user", user), stdout = FALSE, stderr = FALSE)
  })
  p$wait(180 * 1000)
  out <- p$read_all_output()
  expect_false(p$is_alive())
  expect_match(out, "first fit: interrupted", fixed = TRUE)
  expect_match(out, "then the same bits: TRUE", fixed = TRUE)
  expect_match(out, "rows held: 0 0", fixed = TRUE)
  expect_true(queue_empty())
})

test_that("under Slurm: an interrupt while a job is being submitted cancels that job too", {
  skip_if_no_slurm()
  skip_if_not_installed("processx")
  # The session interrupts itself the moment batchtools has recorded its second job (a hook
  # of batchtools' own, run right after sbatch): the interrupt is then pending while
  # batchtools waits out the scheduler's latency (Sys.sleep(), which lets an interrupt
  # through even while interrupts are suspended), before future() returns.
  hook <- c(
    "cf <- batchtools::makeClusterFunctionsSlurm(system.file('templates', 'slurm.tmpl',",
    "  package = 'future.batchtools'))",
    "submitted <- 0L",
    "cf$hooks$post.submit.job <- function(reg, ...) {",
    "  submitted <<- submitted + 1L",
    "  if (submitted == 2L) {",
    "    queue <- system2('squeue', c('-h', '-o', '%i'), stdout = TRUE)",
    "    cat('interrupted after submission 2, jobs in the queue:', length(queue), '\\n')",
    "    tools::pskill(Sys.getpid(), tools::SIGINT)",
    "  }",
    "}")
  p <- slurm_session(paste("future::plan(future.batchtools::batchtools_custom,",
                           "cluster.functions = cf, workers = 2)"), hook)
  p$wait(120 * 1000)
  expect_false(p$is_alive())
  expect_match(p$read_all_output(), "interrupted after submission 2, jobs in the queue: 2",
               fixed = TRUE)
  expect_true(queue_empty()) # the second job runs for minutes, had it not been cancelled
})
