# Rule "graph" (issue 66): wide data whose leading components show no noise floor. Where
# select_size() ran on the components above the noise (R/select_reduce.R) and every one
# of the "components_kept" it computed stands above it, the spectrum decays without an
# edge, as in real expression tables, pixels and spectra: there the Gaussian groups of
# the components split the classes into their refinements or find none (dslabs' tissue
# expression: 17 groups for 7 tissues; Bioconductor's ALL, B and T cells: one group),
# where the field's graph clustering (R/math_graph.R) finds the classes. The rows'
# communities replace the groups found when the graph's modularity exceeds
# "graph_null_ratio" times that of Gaussian rows of the components' spreads: on rows
# without groups (uniform, skewed, heavy-tailed clouds, a line, structured noise) the
# ratio stays under 1.13, where the classes of the real sets give 1.5 to 2
# (bench/README.md, "Wide data"). Where the spectrum has a floor (groups in a few
# directions above white noise), the Gaussian rule reads them better than the graph and
# this rule does not run.

# Rule "graph" beside the grouping so far (`current`): with shape "auto", on components
# chosen as above ("auto") that all stand above the noise, and more than twice
# "graph_neighbours" rows, up to "tree_rows". The grouping: assign "rows" (a new row joins
# its nearest grouped row's group); detail: list(modularity, null (the null's mean
# modularity), path (graph_join_path(): the modularity per number of groups), found and
# replaced (the rule and number of the groups replaced)).
rule_graph <- function(inputs, current) {
  red <- inputs$settings$reduction
  if (is.null(red) || !red$auto) {
    return(not_tried("graph", "the rules ran on the columns or on the components asked for"))
  }
  kept <- length(red$sdev)
  if (kept < red$computed) {
    return(not_tried("graph", sprintf("%d of the %d leading components stand above the noise: groups in a few directions, read by the Gaussian groups",
                                      kept, red$computed)))
  }
  rows <- input_rows(inputs)
  n <- length(rows$rows)
  k <- tuned("graph_neighbours")
  if (n <= 2L * k) {
    return(not_tried("graph", sprintf("%d rows: the graph needs more than twice its %d neighbours", n, k)))
  }
  if (n > tuned("tree_rows")) {
    return(not_tried("graph", sprintf("%s rows: the rows' graph is built up to %s", figure(n), figure(tuned("tree_rows")))))
  }
  seed <- inputs$settings$seed
  g <- graph_seeded(rows$x, seed)
  null <- graph_null(rows$x, seed)
  ratio <- if (null > 0) g$modularity / null else NA_real_
  threshold <- tuned("graph_null_ratio")
  test <- list(statistic = "modularity / Gaussian rows'", value = ratio, threshold = threshold,
               constant = "graph_null_ratio")
  if (!is.finite(ratio) || ratio <= threshold) {
    return(do.call(declined, c(list("graph", sprintf(
      "the rows' graph is %s times as modular as Gaussian rows of the components' spreads make it, not over %s",
      figure(ratio), format(threshold))), test)))
  }
  labels <- graph_groups(rows$x, g$membership, group_min_rows(n))
  K <- if (is.null(labels)) 0L else max(labels)
  if (K < 2L) {
    return(do.call(declined, c(list("graph", "the rows' graph holds one community of enough rows"), test)))
  }
  detail <- list(modularity = g$modularity, null = null, path = graph_join_path(g$between),
                 found = if (is.null(current)) NA_character_ else current$rule,
                 replaced = if (is.null(current)) NA_integer_ else current$groups)
  grouping <- linkage_grouping("graph", inputs$fit, inputs$x, rows, labels, current$scores, detail)
  do.call(accepted, c(list("graph", grouping, sprintf(
    "%d communities of the rows' shared-neighbour graph: modularity %s, %s times that of Gaussian rows",
    K, figure(g$modularity), figure(ratio))), test))
}

# graph_communities() of the rows x, Louvain visiting them in an order drawn from `seed`
# (the session's generator left alone), k neighbours per row.
graph_seeded <- function(x, seed, k = tuned("graph_neighbours")) {
  graph_communities(x, with_private_seed(seed, sample.int(nrow(x))), k)
}

# The modularity the communities reach on rows without groups: Gaussian rows of the
# columns' spreads of x (its components: uncorrelated), as many, the mean over
# "graph_null_draws" draws from `seed`.
graph_null <- function(x, seed) {
  sds <- apply(x, 2, stats::sd)
  mean(vapply(seq_len(tuned("graph_null_draws")), function(i) {
    s <- derived_seed(seed, 104729 * i)
    z <- with_private_seed(s, matrix(stats::rnorm(length(x)), nrow(x)))
    graph_seeded(sweep(z, 2, sds, "*"), s)$modularity
  }, 0))
}

# The reason's words for the graph's groups (rule_table()'s `found`).
graph_found <- function(grouping, on) {
  dt <- grouping$detail
  sprintf("The data hold %s: the communities of the rows' shared-neighbour graph (%d nearest rows on the components, Louvain), modularity %.2f, %.1f times that of Gaussian rows of the same spreads; every leading component stands above the noise, where Gaussian groups split such data's classes",
          count_words(grouping$groups, "group"), tuned("graph_neighbours"), dt$modularity,
          dt$modularity / dt$null)
}

graph_kind <- function(gaussian) "communities of the rows' graph"

# The figure's panel: the modularity per number of groups, Louvain's communities joined
# (graph_join_path()); the mark's note, the null's modularity.
graph_panel <- function(g) {
  path <- g$detail$path
  list(values = if (is.null(path)) c(`1` = NA_real_) else stats::setNames(path, seq_along(path)), title = "modularity per number of groups",
       ylab = "modularity (communities joined)", shorter = c("modularity per groups", "modularity"),
       key = "mean over replicates (modularity: communities joined)")
}
graph_note <- function(g) sprintf(" (Gaussian rows: %.2f)", g$detail$null)

# Each group's bootstrap stability: per replicate (work, its rows), the communities of the
# graph of the replicate's distinct grouped rows, the group's best Jaccard similarity with
# them over those rows; the mean over the replicates. (reps: not used.) The replicate's
# graph takes as many neighbours per row as its share of the rows (at least 5): a
# neighbourhood of the same share of the data; with 20 of a resample's 60% the graph is
# coarser, and tissue expression's five groups read "doubtful" (0.56 to 0.72) where they
# are steady (0.76 to 1.00).
graph_stability <- function(grouping, reps, work) {
  regrouped_stability(grouping, work, function(x, w) {
    n <- nrow(x)
    if (n <= 2L * tuned("graph_neighbours")) return(NULL)
    k <- max(5L, round(tuned("graph_neighbours") * n / nrow(grouping$ref)))
    mine <- graph_groups(x, graph_seeded(x, w$seed, k)$membership, group_min_rows(n))
    if (is.null(mine)) rep(1L, n) else mine
  })
}
