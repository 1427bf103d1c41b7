# Rows that belong to no group (issue 39, select_size(noise = TRUE)): a row far from its
# group's dense part. Each grouped row's core distance is its distance to its m-th nearest
# other grouped row (in the space the maps trained in: HDBSCAN's core distance, m its
# minimum number of neighbours, "noise_neighbours"); a row whose core distance exceeds
# "noise_times" times the median core distance of its group's rows is in no group (NA in the partition).
# A group's own spread sets its limit: a sparse group keeps its rows, an outlier or the
# thin background noise between dense groups is set aside. New rows (predict(), the rows
# beyond a sample) are measured against the grouped rows the same way.

# The grouping (of select_size(), on the rows x of the fit `fit`, data units) built again
# with its rows in no group set to NA in `partition`, and `noise`: list(ref: the grouped rows in the
# maps' space, or NULL when grouping$ref holds them; m; limit, per group; rows, how many
# rows were set aside; largest, the largest ratio of a grouped row's core distance to its
# group's median, the figure the rule compares with "noise_times").
noise_grouping <- function(grouping, fit, x, threads = NULL) {
  on <- grouping_fit(grouping, fit)
  cl <- stats::predict(on, x, sizes = grouping$size, threads = threads)[[1L]]
  rows <- grouping_rows(on, x, grouping$size, cl)
  g <- grouping$partition[rows$rows]
  m <- as.integer(tuned("noise_neighbours"))
  core <- nearest_rows(rows$x, rows$x, m + 1L)$mth
  median_core <- vapply(seq_len(grouping$groups), function(j) {
    if (any(g == j, na.rm = TRUE)) stats::median(core[which(g == j)]) else Inf
  }, 0)
  limit <- tuned("noise_times") * median_core
  out <- !is.na(g) & core > limit[g]
  grouped <- which(!is.na(g))
  partition <- grouping$partition
  partition[rows$rows[out]] <- NA_integer_
  update_grouping(grouping, partition = partition,
                  noise = list(ref = if (grouping$assign == "rows") NULL else rows$x,
                               m = m, limit = limit, rows = sum(out),
                               largest = max(0, core[grouped] / median_core[g[grouped]],
                                             na.rm = TRUE)))
}

# The step "noise" after the rules (select_size(noise = TRUE)): the grouping so far
# (`current`) with its rows in no group, and its decision. Its statistic is the figure the
# step compares with "noise_times": the largest ratio of a row's core distance to its
# group's median (rows above the threshold are in no group; the reason counts them).
rule_noise <- function(inputs, current) {
  if (!isTRUE(inputs$settings$noise)) return(not_tried("noise", "noise = FALSE: every row in a group"))
  if (is.null(current)) return(not_tried("noise", "no groups"))
  g <- noise_grouping(current, inputs$fit, inputs$x, inputs$settings$args$threads)
  their <- if (g$noise$rows == 1L) "its" else "their"
  applied("noise", g, sprintf("%s in no group: farther from %s %dth nearest grouped row than %s times %s group's median",
                               count_text(g$noise$rows, "row"), their, g$noise$m,
                               tuned("noise_times"), their),
           sprintf("largest %dth nearest distance / group median", g$noise$m),
           g$noise$largest, tuned("noise_times"), "noise_times")
}
