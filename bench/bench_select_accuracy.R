# Benchmark: how often select_size() finds the number of groups, next to the established
# tools run on the same data in the same run: the gap statistic (cluster::clusGap with
# k-means, nstart = 10, B = 50 reference sets, firstSEmax), mclust's BIC (Mclust, G = 1..12,
# every model) and fpc::nselectboot (k-means, B = 50; it cannot answer 1). Every method
# chooses among 1..12 groups (select_size: sizes = 2:12, answering 1 for no group
# structure; its other arguments at their defaults: sigma0 = "auto", restarts = 4,
# bootstrap = 20, 2 threads); select_size() with the original script's schedule
# (sigma0 = 5) is shown beside it. The data sets are bench/select_suite.R's (43: Gaussian
# groups k = 2..8 in 2..20 columns at three separations, elongated groups, pure-noise
# columns, uniform balls and t(5) groups, data without groups, real labelled data). Prints
# a row per data set (the answer, and the seconds each method took) and the totals.
# `--heldout` runs select_suite_heldout()'s 25 sets instead: designs that select_size()'s
# constants were not tuned on (9 or 10 groups, uneven sizes and widths, other elongations,
# touching t(5) groups and balls in more columns, cluster::xclara).
#
# `--methods=select_size,mclust` runs only those (the others' figures do not change when
# only select_size() does).
#
#   Rscript bench/bench_select_accuracy.R [shift] [--heldout] [--methods=a,b]
args <- commandArgs(trailingOnly = TRUE)
script <- sub("^--file=", "", grep("^--file=", commandArgs(), value = TRUE))
here <- if (length(script)) dirname(script) else "bench"
source(file.path(here, "helpers.R"))
source(file.path(here, "select_suite.R"))
source(file.path(here, "select_methods.R"))
select_bench_setup()
heldout <- "--heldout" %in% args
only <- sub("^--methods=", "", grep("^--methods=", args, value = TRUE))
args <- setdiff(args, c("--heldout", grep("^--methods=", args, value = TRUE)))
shift <- if (length(args)) as.integer(args[1]) else 0L
suite <- if (heldout) select_suite_heldout(shift) else select_suite(shift)

methods <- list(
  select_size = function(x) {
    select_size(x, sizes = 2:12, seed = 1, threads = 2, progress = FALSE)$groups
  },
  `select_size sigma0=5` = function(x) {
    select_size(x, sizes = 2:12, seed = 1, threads = 2, sigma0 = 5, progress = FALSE)$groups
  },
  gap = function(x) alt_methods$gap(x, 12L)$k,
  mclust = function(x) alt_methods$mclust(x, 12L)$k,
  nselectboot = function(x) {
    set.seed(1)
    fpc::nselectboot(x, B = 50, clustermethod = fpc::kmeansCBI, classification = "centroid",
                     krange = 2:12, runs = 10)$kopt
  })

if (length(only)) methods <- methods[intersect(names(methods), strsplit(only, ",")[[1]])]

cat(machine_line(), "\n\n")
rows <- list()
for (d in suite) {
  got <- lapply(methods, function(f) timed(f(d$x)))
  row <- data.frame(data = d$name, kind = d$kind, n = nrow(d$x), m = ncol(d$x), k = d$k,
                    check.names = FALSE)
  for (nm in names(got)) {
    row[[nm]] <- got[[nm]]$value
    row[[paste0("s ", nm)]] <- round(got[[nm]]$seconds, 1)
  }
  rows[[length(rows) + 1L]] <- row
  print(row, row.names = FALSE)
}
tab <- do.call(rbind, rows)
cat("\nper data set: the number of groups each method finds (k: the truth) and its seconds\n")
print(tab, row.names = FALSE)

answers <- names(methods)
exact <- vapply(answers, function(m) sum(tab[[m]] == tab$k, na.rm = TRUE), numeric(1))
by_kind <- do.call(rbind, lapply(split(tab, factor(tab$kind, unique(tab$kind))), function(t) {
  data.frame(kind = t$kind[1], sets = nrow(t),
             t(vapply(answers, function(m) sum(t[[m]] == t$k, na.rm = TRUE), numeric(1))),
             check.names = FALSE)
}))
cat("\nexact answers by kind of data\n")
print(by_kind, row.names = FALSE)
total <- data.frame(method = answers, exact = exact, of = nrow(tab),
                    share = sprintf("%.0f%%", 100 * exact / nrow(tab)),
                    median_seconds = vapply(answers, function(m) median(tab[[paste0("s ", m)]]), 0),
                    total_seconds = vapply(answers, function(m) sum(tab[[paste0("s ", m)]]), 0))
cat("\ntotal\n")
print(total, row.names = FALSE)
