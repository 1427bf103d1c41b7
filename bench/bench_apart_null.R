# Benchmark: the gaps of data without groups, against which apart_rule[["alone"]] (the gap
# that suffices for groups apart where the Gaussian rule finds no group structure; see
# R/apart.R and ?select_size, "Groups apart") is set. Rows drawn without any group (uniform,
# Gaussian with unequal column sds, t with 5 degrees of freedom, exponential), 30 to 3,000
# rows in 1 to 10 columns, centred and divided by one pooled sd (as the field's suite
# preprocesses); per set, the widest narrowest gap over the partitions of Genie's linkage
# into 2..12 groups whose every group holds group_min_rows() (the only ones the rule can
# take), and what select_size(x, sizes = 2:12, bootstrap = 4, seed = 1) says of it (the
# number of groups and their kind: how often groups apart are found where there are none).
# Printed: every set, the largest gap by number of columns, the rule's constants beside them.
#
#   Rscript bench/bench_apart_null.R [sets]   (default 100; seed 1)
args <- commandArgs(trailingOnly = TRUE)
script <- sub("^--file=", "", grep("^--file=", commandArgs(), value = TRUE))
here <- if (length(script)) dirname(script) else "bench"
source(file.path(here, "helpers.R"))
ns <- asNamespace("somgpu")
sets <- if (length(args)) as.integer(args[1]) else 100L
cat(machine_line(), "\n")
set.seed(1)
rows <- list()
for (i in seq_len(sets)) {
  n <- sample(c(30, 100, 200, 500, 1000, 3000), 1)
  m <- sample(c(1, 2, 3, 5, 10), 1)
  kind <- sample(c("uniform", "gaussian", "t5", "exponential"), 1)
  x <- switch(kind,
              uniform = matrix(stats::runif(n * m), n),
              gaussian = matrix(stats::rnorm(n * m), n) %*% diag(seq(1, 2, length.out = m), m),
              t5 = matrix(stats::rt(n * m, 5), n),
              exponential = matrix(stats::rexp(n * m), n))
  x <- scale(x, scale = FALSE) / stats::sd(x)
  prof <- ns$apart_profile(x, 12L)
  least <- ns$group_min_rows(n)
  ok <- vapply(prof$cuts, function(l) !is.null(l) && min(tabulate(l)) >= least, TRUE)
  g <- ifelse(ok, prof$gaps, NA_real_)
  widest <- if (all(is.na(g))) NA_real_ else max(g, na.rm = TRUE)
  sel <- suppressMessages(somgpu::select_size(x, sizes = 2:12, bootstrap = 4, seed = 1,
                                               threads = 2, progress = FALSE))
  rows[[i]] <- data.frame(set = i, rows = n, columns = m, kind = kind,
                          widest_gap = round(widest, 3),
                          at_k = if (is.na(widest)) NA_integer_ else which.max(g),
                          groups = sel$groups,
                          found = if (is.null(sel$grouping$kind)) "gaussian" else sel$grouping$kind)
}
res <- do.call(rbind, rows)
print(res, row.names = FALSE)
cat("\nwidest gap by columns:\n")
print(stats::aggregate(widest_gap ~ columns, res, function(g) round(c(max = max(g), median = stats::median(g)), 3)))
cat(sprintf("\nselect_size(): more than one group on %d of the %d sets, groups apart on %d\n",
            sum(res$groups > 1L), nrow(res), sum(res$found == "rows")))
cat(sprintf("widest gap over the %d sets without groups: %.3f (median %.3f); apart_rule: alone = %.2f, times = %.2f\n",
            nrow(res), max(res$widest_gap, na.rm = TRUE), stats::median(res$widest_gap, na.rm = TRUE),
            ns$apart_rule[["alone"]], ns$apart_rule[["times"]]))
