# Groups parted by sparse rows (issue 39). Noisy shapes, as the field's chameleon sets
# (15% of the rows scattered among 6 to 9 curved groups), leave no gap for the groups apart
# (apart.R), the fine ring's prototypes stray into the noise (connected.R), and the Gaussian
# rule tiles each group with pieces (14 to 16 for 6 to 9), which the replicates do not find
# again. Genie's linkage on the rows' own tree traces such groups; what marks their number
# is that the dense rows of two groups are never neighbours: among the dense rows (those
# whose dense_rule[["neighbours"]]-th nearest row is nearer than for the
# dense_rule[["core"]] share of all rows), the share of neighbour pairs (each row and its
# nearest rows) that lie in different groups stays near 0 while the cuts run through
# sparse rows, and jumps once a cut runs through a dense group (connected_breaks()).
#
# These groups replace Gaussian groups that are unsteady (their row-weighted bootstrap
# stability under connected_switch[["steady"]]) when the Gaussian groups' share exceeds
# dense_rule[["gaussian"]] and theirs stays under dense_rule[["cross"]]: the Gaussian cuts
# run through dense rows, these through sparse ones. Set on the field's benchmark suite
# (bench/bench_clustering_suite.R; bench/README.md, "Groups parted by sparse rows"), where
# any ratio of the two shares from 5 to 20, a floor from 0.0005 to 0.002 and a steadiness
# from 0.9 to 0.95 took the same sets with seed 1 (chameleon_t4, t5, t7 and wingnut, each
# ARI 0.37 to 0.63 -> 0.74 to 1), and checked on two more seeds and the real and synthetic
# suites, where no set was taken. 10 neighbours and the densest nine in ten rows (the noise
# kept out of the count) are values of the usual kind for a density (HDBSCAN's minimum
# points); 5 neighbours and the densest 85% took sets that lost.
dense_rule <- c(neighbours = 10, core = 0.9, cross = 0.001, gaussian = 0.01)

# The share of neighbour pairs of the dense rows that lie in different groups: labels, each
# row's group; knn (n x m), each row's nearest rows; core, which rows are dense.
neighbour_crossing <- function(labels, knn, core) {
  crossing_share(labels, rep(which(core), ncol(knn)), knn[core, , drop = FALSE])
}

# Each row's m nearest other rows of xs (n x m; a row with more than m copies of itself
# has its copies) and whether it is dense (dense_rule[["core"]]).
dense_neighbours <- function(xs, m) {
  n <- nrow(xs)
  nb <- nearest_rows(xs, xs, m + 1L, neighbours = TRUE)
  keep <- nb$knn != seq_len(n) # row i's own index, wherever equals put it
  none <- rowSums(!keep) == 0L # more than m copies of row i: its last neighbour goes
  keep[none, m + 1L] <- FALSE
  list(knn = matrix(t(nb$knn)[t(keep)], n, m, byrow = TRUE),
       core = nb$mth <= stats::quantile(nb$mth, dense_rule[["core"]], names = FALSE))
}

# The groups parted by sparse rows on the rows x of the fit (data units; its largest map's
# winners `cluster`), beside the grouping found so far (`current`): with shape "auto",
# current Gaussian groups (2 or more) whose steadiness over the replicates reps (their rows
# work) is under connected_switch[["steady"]], and at most select_rows_auto rows, Genie's
# linkage on the rows cut into 1..k_max + 1 groups, the number where the dense rows'
# neighbour crossing breaks, each group at least group_min_rows() (as for the groups
# apart: a cut through sparse rows costs no crossing, and may set a few rows apart);
# taken by dense_rule (rows_grouping(), kind "rows", with
# `dense`: list(crossing, per number of groups; gaussian_crossing, gaussian_steadiness,
# gaussian_groups)); else `current`.
dense_grouping <- function(fit, x, cluster, current, reps, work, k_max, shape) {
  if (shape != "auto" || is.null(current) || grouping_kind(current) != "gaussian" ||
      current$groups < 2L) {
    return(current)
  }
  steadiness <- current$gaussian_steadiness
  if (is.null(steadiness) || is.na(steadiness)) {
    steadiness <- gaussian_steadiness(current, reps, work)
  }
  if (is.na(steadiness) || steadiness >= connected_switch[["steady"]]) return(current)
  rows <- grouping_rows(fit, x, max(fit$params$sizes), cluster)
  n <- length(rows$rows)
  m <- as.integer(dense_rule[["neighbours"]])
  if (n <= m + 1L || n > select_rows_auto) return(current)
  nb <- dense_neighbours(rows$x, m)
  g_cross <- neighbour_crossing(current$partition[rows$rows], nb$knn, nb$core)
  if (g_cross <= dense_rule[["gaussian"]]) return(current) # the tree, asked only now
  cuts <- genie_partitions(rows$x, k_max + 1L)
  cuts <- cuts[!vapply(cuts, is.null, TRUE)] # (only the last: where the linkage stops)
  crossing <- vapply(cuts, neighbour_crossing, 0, nb$knn, nb$core)
  K <- connected_breaks(crossing)
  if (K < 2L || crossing[K] >= dense_rule[["cross"]]) return(current)
  if (min(tabulate(cuts[[K]])) < group_min_rows(n)) return(current)
  rows_grouping(fit, x, rows, cuts[[K]], current$scores,
                dense = list(crossing = crossing, gaussian_crossing = g_cross,
                             gaussian_steadiness = steadiness, gaussian_groups = current$groups))
}
