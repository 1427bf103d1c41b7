# Benchmark: parallel = "future" on the many-maps case (5000 x 8 uniform points, ring sizes
# 2..30, restarts = 4: 116 maps, iter_max = 51, 50 passes), CPU backend. Times train() in
# this process (1 thread, every thread up to 2) and spread over future workers on this
# machine (multisession, 1 and 2 workers, one thread each: what 2 workers give over 1), and checks that every run gives
# the maps of the sequential run. Workers are started before the timing (a plan's workers
# persist across calls); the times include shipping the data and the results.
# Medians of `reps` runs, all measured in this one run.
#
# With --batch=ROWS[,ROWS...] instead: the data-parallel batch (issue 56) on a file-backed
# ROWS x 16 matrix (N = 2..20, 20 passes, one thread per worker): in this process, over
# plan(multisession, workers = 2), and, where a Slurm runs (SLURM_CONF set: `eval $(sh
# tools/slurm.sh start)`), over 2 persistent workers that Slurm starts, each an R worker
# launched by srun that connects back (parallelly::makeClusterPSOCK(rscript = srun ...
# Rscript), plan(cluster)): started once, kept for the whole fit, a pass a round trip.
# Printed: seconds, the same bits as in this process, Slurm over multisession; then, on
# paper, a pass of 1e9 x 16 rows over 16 nodes from the measured rates.
#
#   Rscript bench/bench_future.R [reps]
#   Rscript bench/bench_future.R --batch=2e5,1e7
args <- commandArgs(trailingOnly = TRUE)
batch <- sub("^--batch=", "", grep("^--batch=", args, value = TRUE))
args <- grep("^--", args, value = TRUE, invert = TRUE)
script <- sub("^--file=", "", grep("^--file=", commandArgs(), value = TRUE))
source(file.path(if (length(script)) dirname(script) else "bench", "helpers.R"))
for (p in c("future", "future.apply")) {
  if (!requireNamespace(p, quietly = TRUE)) stop("bench_future.R needs the ", p, " package")
}
options(width = 160)
reps <- if (length(args)) as.integer(args[1]) else 3L

if (length(batch)) {
  source(file.path(if (length(script)) dirname(script) else "bench", "future_batch.R"))
  bench_future_batch(as.numeric(strsplit(batch, ",")[[1]]))
  quit(save = "no")
}

set.seed(1)
y <- matrix(runif(5000 * 8), 5000, 8)
sizes <- 2:30
restarts <- 4L
run <- function(...) {
  train(y, sizes = sizes, restarts = restarts, iter_max = 51, seed = 1, backend = "cpu",
        progress = FALSE, ...)
}
reference <- run(threads = 1)

rows <- list()
add <- function(method, workers, threads, seconds, fit) {
  rows[[length(rows) + 1L]] <<- data.frame(
    method = method, workers = workers, threads_each = threads, seconds = seconds,
    same_maps = identical(fit$weights, reference$weights) &&
      identical(fit$clusters, reference$clusters))
}

th <- unique(c(1L, min(2L, somgpu:::build_info()$max_threads)))
for (t in th) {
  fit <- NULL
  s <- time_median(function() fit <<- run(threads = t), reps)
  add("parallel = \"none\"", 0L, t, s, fit)
}
for (w in c(1L, 2L)) {
  old <- future::plan(future::multisession, workers = w)
  fit <- NULL
  s <- time_median(function() fit <<- run(parallel = "future", threads = 1), reps)
  add("parallel = \"future\", plan(multisession)", w, 1L, s, fit)
  future::plan(old)
}

tab <- do.call(rbind, rows)
one <- which(tab$workers == 1L)
tab$speedup_vs_1_worker <- tab$seconds[one] / tab$seconds
cat(sprintf(paste("parallel = \"future\": n = 5000, m = 8, sizes 2..30 x %d restarts (116 maps),",
                  "50 passes, backend cpu; median of %d runs\n"), restarts, reps))
cat(machine_line(), "\n")
print(format(tab, digits = 3), row.names = FALSE)
two <- which(tab$workers == 2L)
cat(sprintf("2 workers over 1 worker: %.2fx; 2 workers over %d thread%s in one process: %.2fx\n",
            tab$seconds[one] / tab$seconds[two], max(th), if (max(th) == 1L) "" else "s",
            tab$seconds[tab$workers == 0L & tab$threads_each == max(th)] / tab$seconds[two]))
