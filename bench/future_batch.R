# bench_future.R --batch (issue 56): the data-parallel batch on a file-backed matrix in this
# process, over plan(multisession) and over persistent workers started by Slurm (srun).

# 2 R workers, each started by srun as a job of its own (one task, one CPU) that connects
# back to this process; kept until stopCluster(). parallelly starts them and future uses
# them (plan(cluster, workers = cl)); somgpu needs nothing of its own for it.
slurm_workers <- function(n = 2L) {
  parallelly::makeClusterPSOCK(n, rscript = I(c(
    "srun", "--ntasks=1", "--cpus-per-task=1", "--job-name=somgpu-worker", "--quiet",
    file.path(R.home("bin"), "Rscript"))), rscript_libs = .libPaths())
}

# Every worker of the plan started, with somgpu loaded, before the clock (a future per
# worker, none collected before all are sent: each goes to a worker of its own).
warm_workers <- function() {
  fs <- lapply(seq_len(future::nbrOfWorkers()), function(i) {
    future::future({
      loadNamespace("somgpu")
      NULL
    }, seed = NULL)
  })
  invisible(lapply(fs, future::value))
}

bench_future_batch <- function(rows_list, passes = 20L) {
  for (p in c("future", "parallelly", "bigmemory")) {
    if (!requireNamespace(p, quietly = TRUE)) stop("bench_future.R --batch needs ", p)
  }
  slurm <- nzchar(Sys.getenv("SLURM_CONF")) && nzchar(Sys.which("srun"))
  if (!nzchar(Sys.getenv("USER"))) Sys.setenv(USER = Sys.info()[["user"]])
  cat(machine_line(), "\n")
  out <- list()
  for (n in rows_list) {
    dir <- tempfile("somgpu-future-batch-")
    dir.create(dir)
    set.seed(1)
    bm <- bigmemory::filebacked.big.matrix(n, 16, type = "double", backingfile = "y.bin",
                                           backingpath = dir, descriptorfile = "y.desc")
    for (s in seq(1, n, by = 1e6)) {
      e <- min(n, s + 1e6 - 1)
      bm[s:e, ] <- matrix(rnorm((e - s + 1) * 16), ncol = 16)
    }
    bigmemory::flush(bm)
    fit_args <- list(sizes = 2:20, algorithm = "batch", iter_max = passes + 1L, seed = 1,
                     threads = 1, progress = FALSE)
    run <- function(...) timed(do.call(train, c(list(bm), fit_args, list(...))))
    ref <- run()
    add <- function(how, r, start = NA_real_) {
      w <- r$value$backend$workers
      out[[length(out) + 1L]] <<- data.frame(
        rows = n, how = how, start_s = start, seconds = round(r$seconds, 2),
        file_reads = if (is.null(w$reads)) NA else sum(w$reads),
        same_bits = identical(r$value$weights, ref$value$weights) &&
          identical(r$value$quality, ref$value$quality))
    }
    # the rows held by each persistent worker (read once), or read from the file every pass
    both <- function(how, start = NA_real_) {
      add(paste0(how, ", rows held"), run(parallel = "future"), start)
      options(somgpu.hold_shards = FALSE)
      add(paste0(how, ", rows read every pass"), run(parallel = "future"))
      options(somgpu.hold_shards = NULL)
    }
    add("this process, 1 thread", ref)
    future::plan(future::multisession, workers = 2)
    warm_workers()
    both("multisession, 2 workers")
    future::plan(future::sequential)
    if (slurm) {
      started <- timed(slurm_workers(2L))
      cl <- started$value
      future::plan(future::cluster, workers = cl)
      warm_workers()
      both("Slurm, 2 persistent workers (srun)", started$seconds)
      future::plan(future::sequential)
      parallel::stopCluster(cl)
    }
    unlink(dir, recursive = TRUE)
  }
  tab <- do.call(rbind, out)
  ms <- tab$seconds[match(paste(tab$rows, "multisession, 2 workers, rows held"),
                          paste(tab$rows, tab$how))]
  tab$vs_multisession <- round(tab$seconds / ms, 2)
  cat(sprintf("data-parallel batch, file-backed rows x 16, N = 2..20, %d passes, 1 thread a worker\n",
              passes))
  print(tab, row.names = FALSE)
  if (!slurm) cat("(no Slurm here: SLURM_CONF unset or no srun; `eval $(sh tools/slurm.sh start)`)\n")
  # on paper: a pass of 1e9 x 16 over 16 nodes, from the largest run: this process's rate
  # (row-passes per second on one core) and the pass overhead of persistent workers (their
  # time beyond half this process's, per pass)
  big <- tab[tab$rows == max(tab$rows), ]
  rate <- big$rows[1] * passes / big$seconds[big$how == "this process, 1 thread"]
  slurm_s <- big$seconds[grepl("^Slurm.*held", big$how)]
  overhead <- if (length(slurm_s)) max(0, (slurm_s - big$seconds[1] / 2) / passes) else NA
  per_node <- 1e9 / 16
  est <- data.frame(cores_per_node = c(8, 32), compute_s = per_node / (rate * c(8, 32)),
                    overhead_s = overhead)
  est$s_per_pass <- est$compute_s + est$overhead_s
  cat(sprintf(paste("\non paper, 1e9 x 16 rows over 16 nodes (%.3g row-passes/s a core here;",
                    "overhead a pass measured on %.0f rows):\n"), rate, max(tab$rows)))
  print(format(est, digits = 3), row.names = FALSE)
  invisible(tab)
}
