# Benchmark: the rows in no group (select_size(noise = TRUE), issue 39) on the sets of the
# field's suite that label rows as noise (label 0: chameleon_*, hdbscan, graves' noisy and
# outlier sets, ...), in the framework's preprocessing (bench/clustering_suite.R). Per set,
# for the groups select_size() chooses and for those it is told (groups = the first
# labelling's k): the share of rows set aside, how many of the label-0 rows are among them
# (recall) and how many of them are label-0 rows (precision), and two scores of the
# partition with and without the option:
#   framework: the suite's score (rows labelled 0 left out, the best over the labellings),
#     the rows in no group counted as one more group: setting aside a row of a real group
#     costs, setting aside a noise row neither costs nor pays;
#   all rows: the ARI over every row, label 0 a class of its own and the rows in no group
#     a group of their own (the best over the labellings): finding the noise pays.
# The option changes no group, only which rows are in none: the partitions with it are
# those without it with the rows set aside made NA, as select_size(noise = TRUE) makes
# them (somgpu:::noise_grouping() on the selection's grouping, as select_size() calls it).
#
#   Rscript bench/bench_noise.R [--data=PATH] [--cache=DIR] [--lib=PATH] [--max-rows=N]
#                               [--all]
#     --cache=DIR   a cache of bench_clustering_suite.R (DIR/select_size/<battery>/<set>.rds):
#                   its selections, made the same way (preprocessing, sizes, seed), are
#                   used instead of running select_size() again
#     --all         every set, not only those with noise rows (what the option costs where
#                   the reference calls no row noise)
script <- sub("^--file=", "", grep("^--file=", commandArgs(), value = TRUE))
source(file.path(if (length(script)) dirname(script) else "bench", "args.R"))
source(file.path(here, "helpers.R"))
source(file.path(here, "clustering_suite.R"))
options(width = 200)
root <- normalizePath(opt("data", file.path(dirname(here), "..", "shared", "clustering-benchmarks-v1")),
                      mustWork = TRUE)
cache <- opt("cache")
sets <- suite_sets(root, max_rows = as.numeric(opt("max-rows", 10000)))

na_group <- function(p) { # the rows in no group as one more group
  p[is.na(p)] <- max(c(0L, p), na.rm = TRUE) + 1L
  p
}
all_rows <- function(p, labels) max(vapply(labels, function(l) ari_of(na_group(p), l), 0))

cat(machine_line(), "\n")
rows <- list()
for (i in seq_len(nrow(sets))) {
  d <- read_set(root, sets$battery[i], sets$set[i])
  zero <- Reduce(`|`, lapply(d$labels, function(l) l == 0))
  if (!any(zero) && !"--all" %in% args) next
  k_max <- suite_k_max(d$ks)
  t0 <- proc.time()[["elapsed"]]
  f <- if (!is.null(cache)) file.path(cache, "select_size", d$battery, paste0(d$set, ".rds"))
  kept <- if (!is.null(f) && file.exists(f)) readRDS(f)
  sel <- if (!is.null(kept) && identical(kept$k_max, k_max) && identical(kept$seed, 1L) &&
             identical(kept$preprocess, "framework")) {
    kept$object
  } else {
    select_size(d$x, sizes = 2:k_max, seed = 1, threads = 2, progress = FALSE)
  }
  fit <- sel$fit
  top <- fit$clusters[[paste0("N", k_max)]]
  chosen <- sel$grouping
  chosen$partition <- sel$partition
  told <- somgpu:::told_grouping(fit, d$x, top, d$ks[1], "auto")
  for (what in c("chosen", "told")) {
    g <- if (what == "chosen") chosen else told
    with <- somgpu:::noise_grouping(g, fit, d$x, threads = 2)$partition
    out <- is.na(with) & !is.na(g$partition)
    rows[[length(rows) + 1L]] <- data.frame(
      battery = d$battery, set = d$set, n = nrow(d$x), noise_rows = sum(zero), groups = what,
      k = g$groups, set_aside = round(mean(out), 3),
      recall = if (any(zero)) round(mean(out[zero]), 3) else NA,
      precision = if (any(out)) round(mean(zero[out]), 3) else NA,
      framework = round(framework_ari(na_group(g$partition), d$labels), 3),
      framework_noise = round(framework_ari(na_group(with), d$labels), 3),
      all_rows = round(all_rows(g$partition, d$labels), 3),
      all_rows_noise = round(all_rows(with, d$labels), 3),
      s = round(proc.time()[["elapsed"]] - t0, 1))
    print(rows[[length(rows)]], row.names = FALSE)
  }
}
tab <- do.call(rbind, rows)
cat("\nper set\n")
print(tab, row.names = FALSE)
cat("\nmeans (framework: label-0 rows left out, the rows in no group one more group; all rows: label 0 and the rows in no group each a class)\n")
tab$noisy <- tab$noise_rows > 0
agg <- aggregate(cbind(set_aside, framework, framework_noise, all_rows, all_rows_noise) ~ groups + noisy,
                 tab, function(v) round(mean(v), 3))
agg$sets <- aggregate(set ~ groups + noisy, tab, length)$set
print(agg, row.names = FALSE)
