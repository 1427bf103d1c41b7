# Rule "sparse", groups parted by sparse rows (issue 39). Noisy shapes, as the field's
# chameleon sets (15% of the rows scattered among 6 to 9 curved groups), leave no gap for
# the groups apart, the fine ring's prototypes stray into the noise, and the Gaussian rule
# tiles each group with pieces (14 to 16 for 6 to 9), which the replicates do not find
# again. Genie's linkage on the rows' own tree traces such groups; what marks their number
# is that the dense rows of two groups are never neighbours: among the dense rows (those
# whose "sparse_neighbours"-th nearest row is nearer than for the "sparse_core" share of
# all rows), the share of neighbour pairs (each row and its nearest rows) that lie in
# different groups stays near 0 while the cuts run through sparse rows, and jumps once a
# cut runs through a dense group (share_breaks()).
#
# These groups replace Gaussian groups that are unsteady (their row-weighted bootstrap
# stability under "steady") when the Gaussian groups' share exceeds "sparse_gaussian" and
# theirs stays under "sparse_cross": the Gaussian cuts run through dense rows, these
# through sparse ones. Set on the field's benchmark suite (bench/README.md, "Groups parted
# by sparse rows").

# The share of neighbour pairs of the dense rows that lie in different groups: labels, each
# row's group; knn (n x m), each row's nearest rows; core, which rows are dense.
neighbour_crossing <- function(labels, knn, core) {
  crossing_share(labels, rep(which(core), ncol(knn)), knn[core, , drop = FALSE])
}

# Each row's m nearest other rows of xs (n x m; a row with more than m copies of itself
# has its copies) and whether it is dense ("sparse_core").
dense_neighbours <- function(xs, m) {
  n <- nrow(xs)
  nb <- nearest_rows(xs, xs, m + 1L, neighbours = TRUE)
  keep <- nb$knn != seq_len(n) # row i's own index, wherever equals put it
  none <- rowSums(!keep) == 0L # more than m copies of row i: its last neighbour goes
  keep[none, m + 1L] <- FALSE
  list(knn = matrix(t(nb$knn)[t(keep)], n, m, byrow = TRUE),
       core = nb$mth <= stats::quantile(nb$mth, tuned("sparse_core"), names = FALSE))
}

# Rule "sparse" on the rows of the fit's largest map (input_rows()), beside the grouping so
# far (`current`): with shape "auto", current Gaussian groups (2 or more) not steady over
# the replicates (gaussian_steadiness()), and at most "tree_rows" rows, Genie's linkage on
# the rows cut into 1..k_max + 1 groups, the number where the dense rows' neighbour
# crossing breaks, each group at least group_min_rows() (as for the groups apart: a cut
# through sparse rows costs no crossing, and may set a few rows apart). The grouping:
# assign "rows"; detail: list(crossing, per number of groups; gaussian_crossing,
# gaussian_steadiness, gaussian_groups).
rule_sparse <- function(inputs, current) {
  st <- inputs$settings
  if (is.null(current) || current$rule != "gaussian" || current$groups < 2L) {
    return(not_tried("sparse", "the groups so far are not 2 or more Gaussian groups"))
  }
  steadiness <- gaussian_steadiness(inputs)
  steady <- tuned("steady")
  if (is.na(steadiness) || steadiness >= steady) {
    return(declined("sparse", sprintf("the Gaussian groups are steady over the replicates (%s)", figure(steadiness)),
                    "Gaussian steadiness", steadiness, steady, "steady"))
  }
  rows <- input_rows(inputs)
  n <- length(rows$rows)
  m <- as.integer(tuned("sparse_neighbours"))
  if (n <= m + 1L) return(not_tried("sparse", sprintf("%d rows: too few for %d neighbours", n, m)))
  if (n > tuned("tree_rows")) {
    return(not_tried("sparse", sprintf("%s rows: the rows' tree is built up to %s", figure(n), figure(tuned("tree_rows")))))
  }
  nb <- dense_neighbours(rows$x, m)
  g_cross <- neighbour_crossing(current$partition[rows$rows], nb$knn, nb$core)
  if (g_cross <= tuned("sparse_gaussian")) { # the tree, asked only now
    return(declined("sparse", sprintf("the Gaussian groups' cuts leave the dense rows' neighbours together (%s%% across)",
                                      figure(100 * g_cross)),
                    "Gaussian dense neighbours across", g_cross, tuned("sparse_gaussian"), "sparse_gaussian"))
  }
  cuts <- genie_merge(input_tree(inputs), n, st$k_max + 1L)
  cuts <- cuts[!vapply(cuts, is.null, TRUE)] # (only the last: where the linkage stops)
  crossing <- vapply(cuts, neighbour_crossing, 0, nb$knn, nb$core)
  K <- share_breaks(crossing)
  if (K < 2L || crossing[K] >= tuned("sparse_cross")) {
    return(declined("sparse", sprintf("the rows' linkage cuts through dense rows too (%s%% of their neighbours across)",
                                      figure(100 * crossing[K])),
                    "dense neighbours across", crossing[K], tuned("sparse_cross"), "sparse_cross"))
  }
  least <- group_min_rows(n)
  if (min(tabulate(cuts[[K]])) < least) {
    return(declined("sparse", sprintf("a group of the %d has fewer than %s rows", K, figure(least)),
                    "rows of the smallest group", min(tabulate(cuts[[K]])), least, "group_min_share"))
  }
  g <- linkage_grouping("sparse", inputs$fit, inputs$x, rows, cuts[[K]], current$scores,
                        list(crossing = crossing, gaussian_crossing = g_cross,
                             gaussian_steadiness = steadiness, gaussian_groups = current$groups))
  accepted("sparse", g, sprintf("%d groups parted by sparse rows: the Gaussian groups' cuts run through dense rows (%s%% across) and are not steady (%s)",
                                K, figure(100 * g_cross), figure(steadiness)),
           "dense neighbours across", crossing[K], tuned("sparse_cross"), "sparse_cross")
}

# The reason's words for groups parted by sparse rows (rule_table()'s `found`): where the
# dense rows' crossing breaks, against the unsteady Gaussian groups'.
sparse_found <- function(grouping, on) {
  g <- grouping$groups
  dt <- grouping$detail
  sprintf("The data hold %s parted by sparse rows: the rows joined by Genie's linkage, where the share of the dense rows' neighbours in another group breaks (%s%%, against %.1f%% for the %d Gaussian groups, unsteady over the replicates: stability %.2f)",
          count_words(g, "group"), format(signif(100 * dt$crossing[g], 2)),
          100 * dt$gaussian_crossing, dt$gaussian_groups, dt$gaussian_steadiness)
}

sparse_kind <- function(gaussian) "parted by sparse rows, the rows' linkage"

# The figure's panel: the dense rows' neighbours across per number of groups (%).
sparse_panel <- function(g) {
  share_panel(g$detail$crossing, "dense neighbours across per number of groups",
              "dense neighbours across (%)", c("neighbours across", "across"),
              "mean over replicates (groups: dense neighbours across)")
}
