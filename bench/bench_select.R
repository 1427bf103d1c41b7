# Benchmark: select_size() with its defaults (restarts = 4, bootstrap = 20, holdout = 0.2:
# 21 train() calls) on 5 well-separated Gaussian groups in 5 dimensions, 400 rows per group
# (n = 2000), ring sizes 2..20 (76 maps a call, 1596 in all), CPU backend: in this process
# (1 thread, every thread up to 2) and over future workers (multisession, 1 and 2 workers,
# one thread each; started before the timing). Also the example of ?select_size. Checks
# that every run gives the same criteria and recommends 5. Medians of `reps` runs.
#
#   Rscript bench/bench_select.R [reps]
args <- commandArgs(trailingOnly = TRUE)
script <- sub("^--file=", "", grep("^--file=", commandArgs(), value = TRUE))
source(file.path(if (length(script)) dirname(script) else "bench", "helpers.R"))
has_future <- requireNamespace("future", quietly = TRUE) &&
  requireNamespace("future.apply", quietly = TRUE)
options(width = 160)
reps <- if (length(args)) as.integer(args[1]) else 1L

set.seed(1)
basis <- qr.Q(qr(cbind(1, diag(6)[, 1:5])))[, 2:6] # a regular simplex's vertices, 8 apart
centres <- (diag(6) %*% basis)[1:5, ] * 8 / sqrt(2)
y <- centres[rep(1:5, each = 400), ] + matrix(rnorm(2000 * 5), ncol = 5)
run <- function(...) select_size(y, sizes = 2:20, seed = 1, backend = "cpu", ...)

rows <- list()
reference <- NULL
add <- function(method, workers, threads, seconds, sel) {
  if (is.null(reference)) reference <<- sel
  rows[[length(rows) + 1L]] <<- data.frame(
    method = method, workers = workers, threads_each = threads, seconds = seconds,
    recommended = sel$recommended, same_criteria = identical(sel$criteria, reference$criteria))
}
for (t in unique(c(1L, min(2L, somgpu_threads())))) {
  sel <- NULL
  s <- time_median(function() sel <<- run(threads = t), reps)
  add("parallel = \"none\"", 0L, t, s, sel)
}
if (has_future) {
  for (w in c(1L, 2L)) {
    old <- future::plan(future::multisession, workers = w)
    invisible(future::value(future::future(NULL))) # workers up before the timing
    sel <- NULL
    s <- time_median(function() sel <<- run(parallel = "future", threads = 1), reps)
    add("parallel = \"future\", plan(multisession)", w, 1L, s, sel)
    future::plan(old)
  }
}
tab <- do.call(rbind, rows)
tab$speedup_vs_1_thread <- tab$seconds[1] / tab$seconds

# the example of ?select_size
set.seed(1)
ex_centres <- matrix(c(0, 0, 0, 4, 0, 0, 0, 4, 0, 4, 4, 0), ncol = 3, byrow = TRUE)
ex_y <- ex_centres[rep(1:4, each = 50), ] + matrix(rnorm(600, sd = 0.5), ncol = 3)
ex <- NULL
ex_s <- time_median(function() {
  ex <<- select_size(ex_y, sizes = 2:7, restarts = 2, bootstrap = 6, iter_max = 30, seed = 1,
                     threads = 2)
}, max(reps, 3L))

cat(sprintf(paste("select_size(): n = 2000 (5 groups), m = 5, sizes 2..20, restarts = 4,",
                  "bootstrap = 20 (21 train() calls, 1596 maps), 149 passes; median of %d\n"), reps))
cat(machine_line(), "\n")
print(format(tab, digits = 3), row.names = FALSE)
if (!has_future) cat("(future and future.apply not installed: no parallel = \"future\" rows)\n")
cat(sprintf("?select_size example (200 rows, sizes 2..7, 6 replicates): %.2f s, recommends %d\n",
            ex_s, ex$recommended))
