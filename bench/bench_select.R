# Benchmark: the time of select_size() with its defaults (restarts = 4, bootstrap = 20,
# holdout = 0.2, sigma0 = "auto": 21 train() calls) on 6 Gaussian groups of unequal sizes in
# 10 dimensions (n = 5000), ring sizes 2..12 (44 maps a call), CPU backend: in this process
# (1 thread, every thread up to 2) and over future workers (multisession, 1 and 2 workers,
# one thread each; started before the timing); next to the gap statistic
# (cluster::clusGap, k-means with nstart = 10, B = 50), mclust's BIC (G = 1..12) and
# fpc::nselectboot (k-means, B = 50) on the same data, one thread each as they run. Checks
# that every select_size() run gives the same criteria, and prints the number of groups each
# method finds (6). Also the example of ?select_size. Medians of `reps` runs.
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
k <- 6
repeat {
  centres <- matrix(rnorm(k * 10, sd = 4), k)
  if (min(dist(centres)) > 6) break
}
ns <- c(400, 600, 700, 900, 1100, 1300)
y <- do.call(rbind, lapply(seq_len(k), function(i) {
  sweep(matrix(rnorm(ns[i] * 10, sd = runif(1, 0.5, 1)), ns[i]), 2, centres[i, ], "+")
}))
y <- y[sample.int(nrow(y)), ]
run <- function(...) select_size(y, sizes = 2:12, seed = 1, backend = "cpu", progress = FALSE, ...)

rows <- list()
reference <- NULL
add <- function(method, workers, threads, seconds, groups, same) {
  rows[[length(rows) + 1L]] <<- data.frame(
    method = method, workers = workers, threads_each = threads, seconds = seconds,
    groups = groups, same_criteria = same)
}
add_sel <- function(method, workers, threads, seconds, sel) {
  if (is.null(reference)) reference <<- sel
  add(method, workers, threads, seconds, sel$groups,
      identical(sel$criteria, reference$criteria))
}
for (t in unique(c(1L, min(2L, somgpu:::build_info()$max_threads)))) {
  sel <- NULL
  s <- time_median(function() sel <<- run(threads = t), reps)
  add_sel("select_size(), parallel = \"none\"", 0L, t, s, sel)
}
if (has_future) {
  for (w in c(1L, 2L)) {
    old <- future::plan(future::multisession, workers = w)
    invisible(future::value(future::future(NULL))) # workers up before the timing
    sel <- NULL
    s <- time_median(function() sel <<- run(parallel = "future", threads = 1), reps)
    add_sel("select_size(), parallel = \"future\", plan(multisession)", w, 1L, s, sel)
    future::plan(old)
  }
}
alternative <- function(label, f) {
  got <- NULL
  s <- time_median(function() got <<- f(), reps)
  add(label, 0L, 1L, s, got, NA)
}
if (requireNamespace("cluster", quietly = TRUE)) {
  alternative("gap statistic, clusGap(kmeans, nstart = 10, B = 50)", function() {
    set.seed(1)
    g <- cluster::clusGap(y, FUNcluster = function(x, k) kmeans(x, k, nstart = 10, iter.max = 50),
                          K.max = 12, B = 50, verbose = FALSE)
    cluster::maxSE(g$Tab[, "gap"], g$Tab[, "SE.sim"], method = "firstSEmax")
  })
}
if (requireNamespace("mclust", quietly = TRUE)) {
  suppressPackageStartupMessages(library(mclust))
  alternative("mclust BIC, Mclust(G = 1:12)", function() Mclust(y, G = 1:12, verbose = FALSE)$G)
}
if (requireNamespace("fpc", quietly = TRUE)) {
  alternative("fpc::nselectboot(kmeansCBI, B = 50)", function() {
    set.seed(1)
    fpc::nselectboot(y, B = 50, clustermethod = fpc::kmeansCBI, classification = "centroid",
                     krange = 2:12, runs = 10)$kopt
  })
}
tab <- do.call(rbind, rows)
tab$vs_select_size_1_thread <- tab$seconds / tab$seconds[1]

# the example of ?select_size
set.seed(1)
ex_centres <- matrix(c(0, 0, 0, 4, 0, 0, 0, 4, 0, 4, 4, 0), ncol = 3, byrow = TRUE)
ex_y <- ex_centres[rep(1:4, each = 50), ] + matrix(rnorm(600, sd = 0.5), ncol = 3)
ex <- NULL
ex_s <- time_median(function() {
  ex <<- select_size(ex_y, sizes = 2:7, restarts = 2, bootstrap = 6, iter_max = 30, seed = 1,
                     threads = 2)
}, max(reps, 3L))

cat(sprintf(paste("select_size(): n = 5000 (6 groups), m = 10, sizes 2..12, restarts = 4,",
                  "bootstrap = 20 (21 train() calls, 924 maps), 149 passes; median of %d\n"), reps))
cat(machine_line(), "\n")
print(format(tab, digits = 3), row.names = FALSE)
if (!has_future) cat("(future and future.apply not installed: no parallel = \"future\" rows)\n")
cat(sprintf("?select_size example (200 rows, sizes 2..7, 6 replicates): %.2f s, %d groups\n",
            ex_s, ex$groups))
