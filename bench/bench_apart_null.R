# Benchmark: the gaps of data without groups, against which apart_rule[["alone"]] (the gap
# that suffices for groups apart where the Gaussian rule finds no group structure; see
# R/apart.R and ?select_size, "Groups apart") is set. Rows drawn without any group (uniform,
# Gaussian with unequal column sds, t with 5 degrees of freedom, exponential), 200 to 3,000
# rows in 2 to 10 columns, centred and divided by one pooled sd (as the field's suite
# preprocesses); per set, the widest narrowest gap over the partitions of Genie's linkage
# into 2..12 groups whose every group holds group_min_rows() (the only ones the rule can
# take). Printed: every set, the largest, and the rule's constants beside them.
#
#   Rscript bench/bench_apart_null.R [sets]   (default 40; seed 1)
args <- commandArgs(trailingOnly = TRUE)
script <- sub("^--file=", "", grep("^--file=", commandArgs(), value = TRUE))
here <- if (length(script)) dirname(script) else "bench"
source(file.path(here, "helpers.R"))
ns <- asNamespace("somgpu")
sets <- if (length(args)) as.integer(args[1]) else 40L
cat(machine_line(), "\n")
set.seed(1)
rows <- list()
for (i in seq_len(sets)) {
  n <- sample(c(200, 500, 1000, 3000), 1)
  m <- sample(c(2, 3, 5, 10), 1)
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
  rows[[i]] <- data.frame(set = i, rows = n, columns = m, kind = kind,
                          widest_gap = round(widest, 3),
                          at_k = if (is.na(widest)) NA_integer_ else which.max(g))
}
res <- do.call(rbind, rows)
print(res, row.names = FALSE)
cat(sprintf("\nwidest gap over the %d sets without groups: %.3f (median %.3f); apart_rule: alone = %.2f, times = %.2f\n",
            nrow(res), max(res$widest_gap, na.rm = TRUE), stats::median(res$widest_gap, na.rm = TRUE),
            ns$apart_rule[["alone"]], ns$apart_rule[["times"]]))
