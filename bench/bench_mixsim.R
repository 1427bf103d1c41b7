# Benchmark: overlapping Gaussian mixtures (issue 67). The MixSim battery
# (bench/mixsim_suite.R: average overlap 0.001 to 0.1, K 2 to 10, 2 to 20 columns,
# unequal proportions, spherical and general covariances; 32 sets of 200 rows a group on
# average), each method on the same raw data in the same run:
#   select_size() choosing k (defaults: sizes 2:20, seed 1, 2 threads)
#   mclust's BIC choosing k: Mclust(x, G = 1:15), every covariance model
#   told the true k: mclust's Gaussian mixture (Mclust(x, G = k)), k-means (10 starts),
#   Genie (genieclust, its default Gini threshold 0.3)
# Per set: k (ARI) seconds; per overlap level: mean ARI, k exact, seconds in all.
#
#   Rscript bench/bench_mixsim.R [--save=FILE]   (FILE: the per-set table as RDS)
args <- commandArgs(trailingOnly = TRUE)
script <- sub("^--file=", "", grep("^--file=", commandArgs(), value = TRUE))
here <- normalizePath(if (length(script)) dirname(script) else "bench")
source(file.path(here, "helpers.R"))
source(file.path(here, "mixsim_suite.R"))
for (p in c("mclust", "MixSim", "genieclust")) {
  if (!requireNamespace(p, quietly = TRUE)) stop("this benchmark needs the package ", p)
}
suppressPackageStartupMessages(library(mclust)) # Mclust() looks up mclustBIC() there
options(width = 220)
save_to <- sub("^--save=", "", grep("^--save=", args, value = TRUE))
cat(machine_line(), "\n\n")

methods <- list(
  select_size = function(x, k) {
    s <- select_size(x, seed = 1, threads = 2, progress = FALSE)
    list(k = s$groups, groups = s$partition)
  },
  `mclust BIC` = function(x, k) {
    m <- suppressMessages(Mclust(x, G = 1:15, verbose = FALSE))
    list(k = m$G, groups = as.integer(m$classification))
  },
  `mclust told k` = function(x, k) {
    m <- suppressMessages(Mclust(x, G = k, verbose = FALSE))
    list(k = k, groups = as.integer(m$classification))
  },
  `k-means told k` = function(x, k) {
    set.seed(1)
    list(k = k, groups = stats::kmeans(x, k, nstart = 10, iter.max = 50)$cluster)
  },
  `Genie told k` = function(x, k) list(k = k, groups = as.integer(genieclust::genie(x, k))))
choosing <- c("select_size", "mclust BIC")

rows <- list()
for (s in mixsim_battery()) {
  row <- data.frame(data = s$name, overlap = s$overlap, n = nrow(s$x), K = s$k, check.names = FALSE)
  for (nm in names(methods)) {
    r <- timed(methods[[nm]](s$x, s$k))
    row[[paste("k", nm)]] <- r$value$k
    row[[paste("ARI", nm)]] <- ari_of(r$value$groups, s$groups)
    row[[paste("s", nm)]] <- r$seconds
  }
  cells <- vapply(names(methods), function(nm) {
    sprintf("%s (%.2f) %.1fs", row[[paste("k", nm)]], row[[paste("ARI", nm)]], row[[paste("s", nm)]])
  }, "")
  cat(sprintf("%-36s %s\n", s$name, paste(sprintf("%s: %s", names(methods), cells), collapse = " | ")))
  rows[[length(rows) + 1L]] <- row
}
res <- do.call(rbind, rows)
if (length(save_to)) saveRDS(res, save_to)

cat("\nPer average overlap: mean ARI, k exact (of the sets), seconds in all\n\n")
levels <- c(sort(unique(res$overlap)), NA)
summary_row <- function(d, label) {
  out <- data.frame(overlap = label, sets = nrow(d))
  for (nm in names(methods)) {
    out[[paste(nm, "ARI")]] <- round(mean(d[[paste("ARI", nm)]]), 3)
    if (nm %in% choosing) out[[paste(nm, "k exact")]] <- sum(d[[paste("k", nm)]] == d$K)
    if (nm %in% choosing) out[[paste(nm, "s")]] <- round(sum(d[[paste("s", nm)]]), 1)
  }
  out
}
tab <- do.call(rbind, lapply(levels, function(o) {
  if (is.na(o)) summary_row(res, "all") else summary_row(res[res$overlap == o, ], format(o))
}))
print(tab, row.names = FALSE)
cat(sprintf("\nmclust BIC / select_size time: %.1fx in all; slowest set ratio %.2f\n",
            sum(res[["s mclust BIC"]]) / sum(res[["s select_size"]]),
            min(res[["s mclust BIC"]] / res[["s select_size"]])))
