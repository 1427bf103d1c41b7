# Benchmark: the groups select_size() finds on real labelled data and on shaped groups, next
# to the established choosers run on the same data in the same run: mclust's BIC (Mclust,
# every covariance model), the gap statistic on k-means (clusGap, B = 50, firstSEmax) and
# prediction strength (fpc, k-means, cutoff 0.8). Every method sees the same standardized
# data (bench/real_suite.R: 24 real data sets from R packages, 12 shaped sets of our own
# design) and chooses among 1..20 groups (select_size() with its defaults: sizes 2:20,
# bootstrap 20, restarts 4, sigma0 "auto"; seed 1, 2 threads). Per set: the number of
# groups each names, and the adjusted Rand index (ARI) of the partition each gives (for
# select_size(), `$partition`; for the gap statistic and prediction strength, k-means with
# their k) against the classes; the seconds. Then the totals per kind of data: exact
# counts, mean ARI, seconds; the sets where select_size() says "no group structure" while
# another method's partition reaches ARI 0.5; and select_size()'s misses.
#
#   Rscript bench/bench_select_real.R [real|shaped]   (default: both)
args <- commandArgs(trailingOnly = TRUE)
script <- sub("^--file=", "", grep("^--file=", commandArgs(), value = TRUE))
here <- if (length(script)) dirname(script) else "bench"
source(file.path(here, "helpers.R"))
source(file.path(here, "select_suite.R"))
source(file.path(here, "real_suite.R"))
source(file.path(here, "select_methods.R"))
select_bench_setup()
kmax <- 20L
suite <- c(if (!"shaped" %in% args) real_suite(), if (!"real" %in% args) shaped_suite())

methods <- c(list(select_size = function(x, kmax) {
  sel <- select_size(x, sizes = 2:kmax, seed = 1, threads = 2, progress = FALSE)
  list(k = sel$groups, groups = sel$partition)
}), alt_methods)

cat(machine_line(), "\n\n")
rows <- list()
for (d in suite) {
  row <- data.frame(data = d$name, kind = d$kind, n = nrow(d$x), m = ncol(d$x), k = d$k,
                    check.names = FALSE)
  for (nm in names(methods)) {
    t0 <- proc.time()[["elapsed"]]
    got <- methods[[nm]](d$x, kmax)
    row[[nm]] <- got$k
    row[[paste("ARI", nm)]] <- round(mclust::adjustedRandIndex(got$groups, d$groups), 3)
    row[[paste("s", nm)]] <- round(proc.time()[["elapsed"]] - t0, 1)
  }
  rows[[length(rows) + 1L]] <- row
  print(row, row.names = FALSE)
}
tab <- do.call(rbind, rows)
answers <- names(methods)
cat("\nper data set: the number of groups each method names (k: the classes), the ARI of its partition with the classes\n")
print(tab[, c("data", "n", "m", "k", answers, paste("ARI", answers))], row.names = FALSE)

totals <- function(t, label) {
  data.frame(data = label, sets = nrow(t), method = answers,
             exact = vapply(answers, function(m) sum(t[[m]] == t$k), 0),
             mean_ARI = round(vapply(answers, function(m) mean(t[[paste("ARI", m)]]), 0), 3),
             seconds = vapply(answers, function(m) sum(t[[paste("s", m)]]), 0),
             row.names = NULL)
}
kinds <- split(tab, factor(tab$kind, unique(tab$kind)))
cat("\ntotals: exact counts, mean ARI with the classes, total seconds\n")
print(do.call(rbind, c(lapply(names(kinds), function(k) totals(kinds[[k]], k)),
                       list(totals(tab, "all")))), row.names = FALSE)

others <- setdiff(answers, "select_size")
best_other <- apply(tab[paste("ARI", others)], 1, max)
none <- tab$select_size == 1 & best_other >= 0.5
cat(sprintf("\n\"no group structure\" where another method's partition reaches ARI >= 0.5: %d set%s%s\n",
            sum(none), if (sum(none) == 1) "" else "s",
            if (any(none)) paste0(": ", paste(tab$data[none], collapse = ", ")) else ""))
miss <- tab$select_size != tab$k
cat("\nselect_size's misses (count named, ARI; the best other method's ARI):\n")
print(data.frame(data = tab$data[miss], k = tab$k[miss], named = tab$select_size[miss],
                 ARI = tab[["ARI select_size"]][miss], best_other = best_other[miss]),
      row.names = FALSE)
