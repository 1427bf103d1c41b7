# Rows that belong to no group (issue 39, select_size(noise = TRUE)): a row far from its
# group's dense part. Each grouped row's core distance is its distance to its m-th nearest
# other grouped row (in the space the maps trained in: HDBSCAN's core distance, m its
# minimum number of neighbours); a row whose core distance exceeds noise_rule[["times"]]
# times the median core distance of its group's rows is in no group (NA in the partition).
# A group's own spread sets its limit: a sparse group keeps its rows, an outlier or the
# thin background noise between dense groups is set aside. New rows (predict(), the rows
# beyond a sample) are measured against the grouped rows the same way.

# m and the factor. Set on the field's benchmark suite's sets with noise rows (label 0;
# bench/bench_clustering_suite.R): see ?select_size, "Rows in no group".
noise_rule <- c(m = 5, times = 2.5)

# The grouping (of select_size(), on the rows x of the fit `fit`, data units) with its
# rows in no group set to NA in `partition`, and `noise`: list(ref: the grouped rows in the
# maps' space, or NULL when grouping$ref holds them; m; limit, per group; rows, how many
# rows were set aside).
noise_grouping <- function(grouping, fit, x, threads = NULL) {
  on <- grouping_fit(grouping, fit)
  cl <- stats::predict(on, x, sizes = grouping$size, threads = threads)[[1L]]
  rows <- grouping_rows(on, x, grouping$size, cl)
  g <- grouping$partition[rows$rows]
  m <- as.integer(noise_rule[["m"]])
  core <- nearest_rows(rows$x, rows$x, m + 1L)$mth
  limit <- noise_rule[["times"]] * vapply(seq_len(grouping$groups), function(j) {
    if (any(g == j, na.rm = TRUE)) stats::median(core[which(g == j)]) else Inf
  }, 0)
  out <- !is.na(g) & core > limit[g]
  grouping$partition[rows$rows[out]] <- NA_integer_
  grouping$noise <- list(ref = if (grouping_kind(grouping) == "rows") NULL else rows$x,
                         m = m, limit = limit, rows = sum(out))
  grouping
}
