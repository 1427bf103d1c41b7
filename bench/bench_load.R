# Benchmark: the default thread count on a shared machine. Runs two jobs (the seed case with
# trace = TRUE: 2000 x 3, N = 2..10, 149 passes, a pass's end every pass; batch training on
# 1e5 x 8, N = 2..20, 10 passes) with threads = 1, threads = 2 and the default (threads =
# NULL), on a quiet machine and beside one and two busy processes (R loops started by this
# script), and prints the seconds and the default's ratio to the best fixed count (the goal:
# at most 1.10 under load, the quiet speed kept), next to the ratio of two runs of
# threads = 1 (the noise of that load). Medians of `reps` runs, the configurations
# interleaved in a random order with a pause before each, so that drifting load and the
# scheduler's memory of the run before hit them alike.
#
#   Rscript bench/bench_load.R [reps]
args <- commandArgs(trailingOnly = TRUE)
script <- sub("^--file=", "", grep("^--file=", commandArgs(), value = TRUE))
source(file.path(if (length(script)) dirname(script) else "bench", "helpers.R"))
options(width = 160)
reps <- if (length(args)) as.integer(args[1]) else 5L

set.seed(0)
seed_y <- matrix(runif(2000 * 3), ncol = 3)
big <- matrix(runif(1e5 * 8), ncol = 8)
jobs <- list(
  `seed case, trace = TRUE` = function(th) train(seed_y, nmax = 10, trace = TRUE, seed = 1,
                                                 threads = th, backend = "cpu", progress = FALSE),
  `batch 1e5 x 8, N = 2..20, 10 passes` = function(th) {
    train(big, nmax = 20, algorithm = "batch", iter_max = 11, seed = 1, threads = th,
          backend = "cpu", progress = FALSE)
  })
# threads = 1 twice: how far two runs of one configuration differ under that load (the
# noise the default's ratio is read against)
configs <- list(`threads = 1` = 1L, `threads = 2` = 2L, default = NULL, `threads = 1 again` = 1L)

busy <- function(k) {
  lapply(seq_len(k), function(i) {
    processx::process$new(file.path(R.home("bin"), "Rscript"), c("-e", "repeat {}"))
  })
}
rows <- list()
for (load in 0:2) {
  procs <- busy(load)
  Sys.sleep(1)
  for (job in names(jobs)) {
    times <- matrix(NA_real_, reps, length(configs), dimnames = list(NULL, names(configs)))
    used <- integer(0)
    set.seed(load)
    for (r in seq_len(reps)) {
      for (cfg in sample(names(configs))) {
        Sys.sleep(0.3) # no carry-over from the run before (the scheduler's share of it)
        t0 <- proc.time()[["elapsed"]]
        fit <- jobs[[job]](configs[[cfg]])
        times[r, cfg] <- proc.time()[["elapsed"]] - t0
        if (cfg == "default") used <- c(used, fit$backend$threads)
      }
    }
    med <- apply(times, 2, stats::median)
    rows[[length(rows) + 1L]] <- data.frame(
      busy_processes = load, job = job, `threads = 1` = med[[1]], `threads = 2` = med[[2]],
      default = med[[3]],
      default_threads = if (length(unique(used)) == 1L) as.character(used[1]) else
        paste(range(used), collapse = "-"),
      default_vs_best = med[[3]] / min(med[1:2]),
      `1 thread again vs 1 thread` = med[[4]] / med[[1]], check.names = FALSE)
  }
  for (p in procs) p$kill()
}
cat(machine_line(), "\n")
cat(sprintf("medians of %d runs; default: threads = NULL (somgpu_threads())\n", reps))
print(format(do.call(rbind, rows), digits = 3), row.names = FALSE)
