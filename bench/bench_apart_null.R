# Benchmark: the gaps of data without groups, against which apart_rule[["alone"]] (the gap
# that suffices for groups apart where the Gaussian rule finds no group structure; see
# R/apart.R and ?select_size, "Groups apart") is set. Rows drawn without any group (uniform,
# Gaussian with unequal column sds, t with 5 degrees of freedom, exponential), 30 to 3,000
# rows in 1 to 10 columns, centred and divided by one pooled sd (as the field's suite
# preprocesses); per set, the widest narrowest gap over the partitions of Genie's linkage
# into 2..12 groups whose every group holds group_min_rows() (the only ones the rule can
# take), and what select_size(x, sizes = 2:12, bootstrap = 4, seed = 1) says of it (the
# number of groups and their kind: how often groups apart are found where there are none);
# with --mclust, beside it the number of groups mclust::Mclust(x, G = 1:12) chooses (every
# covariance model, BIC), in the same process. Printed: every set, the largest gap by number
# of columns, the rule's constants beside them, how often each method names more than one
# group.
#
#   Rscript bench/bench_apart_null.R [sets] [--mclust]   (default 100 sets; seed 1)
args <- commandArgs(trailingOnly = TRUE)
script <- sub("^--file=", "", grep("^--file=", commandArgs(), value = TRUE))
here <- if (length(script)) dirname(script) else "bench"
source(file.path(here, "helpers.R"))
ns <- asNamespace("somgpu")
with_mclust <- "--mclust" %in% args
args <- setdiff(args, "--mclust")
sets <- if (length(args)) as.integer(args[1]) else 100L
if (with_mclust) { # attached: Mclust() evaluates mclustBIC() in the caller's frame
  if (!requireNamespace("mclust", quietly = TRUE)) stop("--mclust needs the package mclust")
  suppressPackageStartupMessages(library(mclust))
}
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
  t0 <- proc.time()[["elapsed"]]
  sel <- suppressMessages(somgpu::select_size(x, sizes = 2:12, bootstrap = 4, seed = 1,
                                               threads = 2, progress = FALSE))
  t_sel <- proc.time()[["elapsed"]] - t0
  mc <- if (with_mclust) {
    t0 <- proc.time()[["elapsed"]]
    # the session's generator kept as it was: the sets drawn are those of a run without
    # --mclust
    state <- .Random.seed
    mfit <- mclust::Mclust(x, G = 1:12, verbose = FALSE)
    assign(".Random.seed", state, envir = globalenv())
    c(G = if (is.null(mfit)) NA_integer_ else mfit$G, s = proc.time()[["elapsed"]] - t0)
  }
  rows[[i]] <- data.frame(set = i, rows = n, columns = m, kind = kind,
                          widest_gap = round(widest, 3),
                          at_k = if (is.na(widest)) NA_integer_ else which.max(g),
                          groups = sel$groups,
                          found = if (is.null(sel$grouping$kind)) "gaussian" else sel$grouping$kind,
                          seconds = round(t_sel, 2),
                          mclust = if (with_mclust) as.integer(mc[["G"]]) else NA_integer_,
                          mclust_s = if (with_mclust) round(mc[["s"]], 2) else NA_real_)
}
res <- do.call(rbind, rows)
print(res, row.names = FALSE)
cat("\nwidest gap by columns:\n")
print(stats::aggregate(widest_gap ~ columns, res, function(g) round(c(max = max(g), median = stats::median(g)), 3)))
cat(sprintf("\nselect_size(): more than one group on %d of the %d sets, groups apart on %d\n",
            sum(res$groups > 1L), nrow(res), sum(res$found == "rows")))
if (with_mclust) {
  cat(sprintf("mclust: more than one group on %d of the %d sets (both: %d); seconds in all: select_size %.1f, mclust %.1f\n",
              sum(res$mclust > 1L, na.rm = TRUE), nrow(res), sum(res$mclust > 1L & res$groups > 1L, na.rm = TRUE),
              sum(res$seconds), sum(res$mclust_s)))
  cat("more than one group, by kind of rows and by columns (select_size / mclust):\n")
  by <- function(f) stats::aggregate(cbind(select_size = groups > 1L, mclust = mclust > 1L) ~ f, res, sum)
  print(by(res$kind)); print(by(res$columns))
}
cat(sprintf("widest gap over the %d sets without groups: %.3f (median %.3f); apart_rule: alone = %.2f, times = %.2f\n",
            nrow(res), max(res$widest_gap, na.rm = TRUE), stats::median(res$widest_gap, na.rm = TRUE),
            ns$apart_rule[["alone"]], ns$apart_rule[["times"]]))
