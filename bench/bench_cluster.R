# Benchmark: what a scheduler costs, and what a lost worker costs. Runs somgpu's future
# paths under plan(multisession, workers = 2) and under a one-node Slurm through
# future.batchtools (batchtools_slurm, workers = 2; start it first with
# `eval $(sh tools/slurm.sh start)`, which exports SLURM_CONF; without it the Slurm rows are
# left out), every result checked against the run in this process:
#   1. per-job latency: an empty future, and train(iris, nmax = 6) over the workers;
#   2. data passed by value against by file path: batch training of 1e6 x 16 rows (N =
#      2..20, 20 passes): the maps over the workers with the rows in memory shipped to each
#      (by value), the rows over the workers from a file-backed matrix on a path every job
#      reads (by path: a pass sends the weights and returns the sums); select_size() (its
#      replicates over the workers, the rows by value: 1e5 x 16, sizes 2..12, bootstrap 8);
#   3. a worker lost mid-run (the second of two killed the first time it runs, through
#      the fault hook somgpu.future_fault): the same bits, the overhead.
# The bytes moved per pass of the data-parallel run: the sums each worker returns.
#
#   Rscript bench/bench_cluster.R [rows]   (rows: default 1e6)
args <- commandArgs(trailingOnly = TRUE)
script <- sub("^--file=", "", grep("^--file=", commandArgs(), value = TRUE))
source(file.path(if (length(script)) dirname(script) else "bench", "helpers.R"))
for (p in c("future", "future.apply", "bigmemory")) {
  if (!requireNamespace(p, quietly = TRUE)) stop("bench_cluster.R needs the ", p, " package")
}
options(width = 200, future.cache.path = file.path(tempdir(), "somgpu-bench-jobs"))
n <- if (length(args)) as.numeric(args[1]) else 1e6
slurm <- nzchar(Sys.getenv("SLURM_CONF")) && requireNamespace("future.batchtools", quietly = TRUE)
# batchtools lists the running jobs with squeue --user=$USER (unset in some containers)
if (!nzchar(Sys.getenv("USER"))) Sys.setenv(USER = Sys.info()[["user"]])
plans <- c(list(multisession = function() future::plan(future::multisession, workers = 2)),
           if (slurm) list(slurm = function() {
             future::plan(future.batchtools::batchtools_slurm, workers = 2)
           }))

# the data: 8 Gaussian groups in 16 columns; in memory and as a file-backed matrix
set.seed(1)
centres <- matrix(rnorm(8 * 16, sd = 3), 8)
big <- centres[sample.int(8, n, replace = TRUE), ] + matrix(rnorm(n * 16), n)
dir <- tempfile("somgpu-bench-")
dir.create(dir)
bm <- bigmemory::as.big.matrix(big, backingfile = "y.bin", backingpath = dir,
                               descriptorfile = "y.desc")
sel_y <- big[seq_len(min(n, 1e5)), ]
batch_args <- list(sizes = 2:20, algorithm = "batch", iter_max = 21, seed = 1, threads = 1,
                   progress = FALSE)
ref_mem <- timed(do.call(train, c(list(big), batch_args)))
ref_file <- timed(do.call(train, c(list(bm), batch_args)))
ref_iris <- train(iris[, 1:4], nmax = 6, restarts = 2, seed = 1, threads = 1)
ref_sel <- timed(select_size(sel_y, sizes = 2:12, restarts = 2, bootstrap = 8, iter_max = 30,
                             seed = 1, threads = 1, progress = FALSE))

cat(machine_line(), "\n")
cat(sprintf("rows: %.0f x 16 (%.0f MB in memory); in this process, 1 thread: batch %.1f s in memory, %.1f s from the file; select_size on %d rows %.1f s\n\n",
            n, 8 * n * 16 / 2^20, ref_mem$seconds, ref_file$seconds, nrow(sel_y),
            ref_sel$seconds))
rows <- list()
add <- function(plan, what, seconds, same, note = "") {
  rows[[length(rows) + 1L]] <<- data.frame(plan = plan, what = what, seconds = round(seconds, 2),
                                           same_bits = same, note = note)
}
for (p in names(plans)) {
  plans[[p]]()
  invisible(future::value(future::future(NULL))) # workers up (multisession) before timing
  lat <- vapply(1:3, function(i) timed(future::value(future::future(NULL)))$seconds, 0)
  add(p, "an empty future (median of 3)", stats::median(lat), NA)
  r <- timed(train(iris[, 1:4], nmax = 6, restarts = 2, seed = 1, threads = 1, parallel = "future"))
  add(p, "train(iris, nmax = 6), maps over 2 workers", r$seconds,
      identical(r$value$weights, ref_iris$weights))
  r <- timed(do.call(train, c(list(big), batch_args, parallel = "future")))
  add(p, sprintf("batch %.0e x 16, maps over 2 workers, rows by value", n), r$seconds,
      identical(r$value$weights, ref_mem$value$weights),
      sprintf("%.0f MB shipped to each worker", 8 * n * 16 / 2^20))
  r <- timed(do.call(train, c(list(bm), batch_args, parallel = "future")))
  add(p, sprintf("batch %.0e x 16, rows over 2 workers, by file path", n), r$seconds,
      identical(r$value$weights, ref_file$value$weights), "a pass: weights out, sums back")
  r <- timed(select_size(sel_y, sizes = 2:12, restarts = 2, bootstrap = 8, iter_max = 30,
                         seed = 1, threads = 1, progress = FALSE, parallel = "future"))
  add(p, sprintf("select_size, %d x 16, replicates over 2 workers, rows by value", nrow(sel_y)),
      r$seconds, identical(r$value$criteria, ref_sel$value$criteria),
      sprintf("%.1f MB shipped per replicate", 8 * length(sel_y) / 2^20))
  options(somgpu.future_fault = list(piece = 2, times = 1))
  r <- timed(train(iris[, 1:4], nmax = 6, restarts = 2, seed = 1, threads = 1, parallel = "future"))
  add(p, "train(iris, nmax = 6), worker 2 killed once", r$seconds,
      identical(r$value$weights, ref_iris$weights),
      sprintf("%d re-run", nrow(r$value$backend$reruns)))
  r <- timed(do.call(train, c(list(bm), batch_args, parallel = "future")))
  add(p, sprintf("batch %.0e x 16 by path, worker 2 killed once a pass", n), r$seconds,
      identical(r$value$weights, ref_file$value$weights),
      sprintf("%d re-runs (one a pass)", nrow(r$value$backend$reruns)))
  options(somgpu.future_fault = NULL)
  future::plan(future::sequential)
}
tab <- do.call(rbind, rows)
print(tab, row.names = FALSE)

# what a pass of the data-parallel run moves: the problem and weights to each worker, the
# sums back (fit$backend$bytes_per_pass)
plans[[1]]()
fit <- do.call(train, c(list(bm), batch_args, parallel = "future"))
future::plan(future::sequential)
b <- fit$backend$bytes_per_pass
cat(sprintf("\nper pass of the data-parallel run (2 workers, N = 2..20, 16 columns): %.0f kB out (the problem and weights, to every worker), %.0f kB back (every worker's sums), whatever the rows\n",
            b[["out"]] / 1024, b[["back"]] / 1024))

# A scale-out estimate from these figures: 1e9 x 16 rows over 16 nodes, the rows split as
# the data-parallel run splits them, a pass taking the slowest node's share at the rate one
# core reached here from the file, plus a round trip (a persistent worker: the multisession
# latency) or a job's start (a scheduler job per pass: the Slurm latency).
passes <- batch_args$iter_max - 1
rate <- n * passes / ref_file$seconds # row-passes per second, one core, the family N = 2..20
lat <- stats::setNames(tab$seconds[tab$what == "an empty future (median of 3)"],
                       tab$plan[tab$what == "an empty future (median of 3)"])
cat(sprintf("\nscale-out estimate, 1e9 x 16 rows over 16 nodes (one core here: %.2e row-passes/s for N = 2..20 from the file):\n",
            rate))
est <- expand.grid(cores_per_node = c(8, 32), start = names(lat), stringsAsFactors = FALSE)
est$compute_s <- 1e9 / (16 * est$cores_per_node * rate)
est$overhead_s <- lat[est$start]
est$s_per_pass <- est$compute_s + est$overhead_s
est$passes_per_min <- 60 / est$s_per_pass
est$start <- ifelse(est$start == "slurm", "a Slurm job per pass", "persistent workers")
est$read_per_node_GB <- 1e9 * 16 * 8 / 16 / 1e9
est$out_kB <- b[["out"]] / 2 * 16 / 1024  # the problem and weights to each of 16 workers
est$back_kB <- b[["back"]] / 2 * 16 / 1024 # each worker's sums (a few nodes per map)
print(format(est, digits = 3), row.names = FALSE)
cat("(assumes rates scale with cores within a node and each node's 8 GB share stays in its page cache; from shared storage a pass reads 128 GB in all)\n")
unlink(dir, recursive = TRUE)
