# Benchmark: the gaps of data without groups, against which "apart_alone" (the gap
# that suffices for groups apart where the Gaussian rule finds no group structure; see
# R/rule_apart.R and ?select_size, "Groups apart") is set. Rows drawn without any group (uniform,
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
# With --one-column: uniform rows in one column (the worst case for the gap: spacings of
# equal mean), `sets` draws (default 40) at each of 100, 300, 1,000, 3,000 and 10,000 rows;
# per number of rows how often the widest gap passes 2 and the rule's one-column threshold
# (apart_times(): 1 + log(n) / log(100)), and how often select_size() takes groups apart.
#
#   Rscript bench/bench_apart_null.R [sets] [--mclust] [--one-column]
#     (default 100 sets, or 40 per number of rows with --one-column; seed 1)
args <- commandArgs(trailingOnly = TRUE)
script <- sub("^--file=", "", grep("^--file=", commandArgs(), value = TRUE))
here <- if (length(script)) dirname(script) else "bench"
source(file.path(here, "helpers.R"))
ns <- asNamespace("somgpu")
with_mclust <- "--mclust" %in% args
one_column <- "--one-column" %in% args
args <- setdiff(args, c("--mclust", "--one-column"))
sets <- if (length(args)) as.integer(args[1]) else if (one_column) 40L else 100L
# the widest narrowest gap over the cuts of Genie's linkage into 2..12 groups whose every
# group holds group_min_rows() (the only ones the rule can take), and its number of groups;
# NA where none
widest_gap <- function(x) {
  prof <- ns$apart_profile(x, 12L)
  least <- ns$group_min_rows(nrow(x))
  ok <- vapply(prof$cuts, function(l) !is.null(l) && min(tabulate(l)) >= least, TRUE)
  g <- ifelse(ok, prof$gaps, NA_real_)
  if (all(is.na(g))) c(gap = NA_real_, k = NA_real_) else c(gap = max(g, na.rm = TRUE), k = which.max(g))
}
if (one_column) {
  cat(machine_line(), "\n")
  set.seed(1)
  out <- do.call(rbind, lapply(c(100L, 300L, 1000L, 3000L, 10000L), function(n) {
    one <- do.call(rbind, lapply(seq_len(sets), function(i) {
      x <- stats::runif(n)
      x <- matrix((x - mean(x)) / stats::sd(x), n)
      sel <- suppressMessages(somgpu::select_size(x, sizes = 2:12, bootstrap = 4, seed = 1,
                                                   threads = 2, progress = FALSE))
      data.frame(gap = widest_gap(x)[["gap"]], groups = sel$groups,
                 apart = identical(sel$grouping$rule, "apart"))
    }))
    threshold <- ns$apart_threshold(1L, 1L, n)
    data.frame(rows = n, sets = sets, median_gap = round(stats::median(one$gap), 2),
               widest_gap = round(max(one$gap), 2), over_2 = mean(one$gap > 2),
               threshold = round(threshold, 2), over_threshold = mean(one$gap > threshold),
               select_size_apart = sum(one$apart), select_size_groups = sum(one$groups > 1L))
  }))
  cat("\nuniform rows in one column: the widest gap a cut could take, against 2 and the rule's",
      "threshold; select_size()'s groups apart and answers with more than one group (of any kind)\n")
  print(out, row.names = FALSE)
  quit(save = "no")
}
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
  wg <- widest_gap(x)
  widest <- wg[["gap"]]
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
                          at_k = as.integer(wg[["k"]]),
                          groups = sel$groups,
                          found = sel$grouping$rule,
                          seconds = round(t_sel, 2),
                          mclust = if (with_mclust) as.integer(mc[["G"]]) else NA_integer_,
                          mclust_s = if (with_mclust) round(mc[["s"]], 2) else NA_real_)
}
res <- do.call(rbind, rows)
print(res, row.names = FALSE)
cat("\nwidest gap by columns:\n")
print(stats::aggregate(widest_gap ~ columns, res, function(g) round(c(max = max(g), median = stats::median(g)), 3)))
cat(sprintf("\nselect_size(): more than one group on %d of the %d sets, groups apart on %d\n",
            sum(res$groups > 1L), nrow(res), sum(res$found == "apart")))
if (with_mclust) {
  cat(sprintf("mclust: more than one group on %d of the %d sets (both: %d); seconds in all: select_size %.1f, mclust %.1f\n",
              sum(res$mclust > 1L, na.rm = TRUE), nrow(res), sum(res$mclust > 1L & res$groups > 1L, na.rm = TRUE),
              sum(res$seconds), sum(res$mclust_s)))
  cat("more than one group, by kind of rows and by columns (select_size / mclust):\n")
  by <- function(f) stats::aggregate(cbind(select_size = groups > 1L, mclust = mclust > 1L) ~ f, res, sum)
  print(by(res$kind)); print(by(res$columns))
}
cat(sprintf("widest gap over the %d sets without groups: %.3f (median %.3f); apart_alone = %.2f, apart_times = %.2f\n",
            nrow(res), max(res$widest_gap, na.rm = TRUE), stats::median(res$widest_gap, na.rm = TRUE),
            ns$tuned("apart_alone"), ns$tuned("apart_times")))
