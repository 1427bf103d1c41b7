# Groups told their number (issue 39): select_size(groups = k) partitions the rows into
# exactly k groups from the same maps. Two candidates: the Gaussian groups of the largest
# map's cells (groups.R: the best covariance shape's partition into k groups on the way of
# its agglomeration, refined by EM), and the connected groups of the rows (Genie's linkage
# on the rows' minimum spanning tree, genie.R, cut into k groups). The connected groups are
# taken when every cut they make is a gap: each edge of the tree between two of their
# groups longer than nine in ten of the tree's edges (told_gap). Otherwise the Gaussian
# groups: their cuts run through data where no gap separates the groups, as between
# overlapping Gaussian groups, where a linkage splits off outliers instead.

# The connected groups are taken when their lightest cut edge is longer than told_gap[["times"]]
# times the told_gap[["quantile"]] quantile of the tree's edge lengths. Set on the field's
# benchmark suite (bench/bench_clustering_suite.R, the 47 sets up to 1,500 rows; any
# quantile from 0.75 to 0.95 and factor from 0.9 to 1.5 did as well within 0.03 of mean ARI)
# and checked on its larger sets and the real labelled ones (bench/bench_select_real.R).
told_gap <- c(quantile = 0.9, times = 1)

# The told_gap quantile of a minimum spanning tree's edge lengths (genie.R's mst).
told_quantile <- function(mst) stats::quantile(mst$weight, told_gap[["quantile"]], names = FALSE)

# The groups of the rows x (data units; the fit's training rows) told their number k, on
# the fit's largest map (its winners `cluster`): the Gaussian candidate (fit_grouping()
# with G = k, the covariance shape of highest criterion) and the connected one
# (told_rows()), chosen by told_gap under shape "auto". Returns a grouping as
# fit_grouping() does (the Gaussian one, with `told`), or one of kind "rows": the
# connected groups, each new row in the group of its nearest grouped row (`ref`, the
# grouped rows in the space the maps trained in, and `ref_group`). `told`: list(k, gap:
# the connected groups' lightest cut over the quantile, NA when not computed; gaps, that of
# every cut into 1..k + 1 groups (NULL when not computed); chosen).
told_grouping <- function(fit, x, cluster, k, shape) {
  gauss <- if (shape != "connected") fit_grouping(fit, x, cluster, G = k)
  if (!is.null(gauss) && gauss$groups != k) gauss <- NULL # EM lost a group
  rows <- grouping_rows(fit, x, max(fit$params$sizes), cluster)
  if (!length(rows$rows)) return(NULL)
  conn <- if (shape != "gaussian" || is.null(gauss)) told_rows(rows$x, k, every = TRUE)
  take <- !is.null(conn) && (is.null(gauss) || shape == "connected" ||
                               (is.finite(conn$gap) && conn$gap > told_gap[["times"]]))
  if (!take) {
    gauss$told <- list(k = k, gap = if (is.null(conn)) NA_real_ else conn$gap,
                       gaps = conn$gaps, chosen = "gaussian")
    return(gauss)
  }
  rows_grouping(fit, x, rows, conn$labels, if (!is.null(gauss)) gauss$scores,
                told = list(k = k, gap = conn$gap, gaps = conn$gaps, chosen = "connected"))
}

# A grouping of kind "rows" (told_grouping()'s connected groups, apart_grouping()'s groups
# apart): the rows of the fit's largest map `rows` (grouping_rows()) in the groups `labels`,
# the rows of x out of them (rows left out) NA; `scores`, the Gaussian candidates' criteria
# when computed; `...`, what says how they were found (told, apart). Each new row goes to
# the group of its nearest grouped row (`ref`, the grouped rows in the maps' space, and
# `ref_group`); each neuron is the group of most of its rows.
rows_grouping <- function(fit, x, rows, labels, scores, ...) {
  size <- max(fit$params$sizes)
  partition <- rep(NA_integer_, nrow(x))
  partition[rows$rows] <- labels
  G <- max(labels)
  means <- rowsum(rows$x, labels, reorder = TRUE) / tabulate(labels, G)
  c(list(kind = "rows", family = "connected", groups = G, criterion = NA_real_,
         scores = scores,
         par = list(pro = tabulate(labels, G) / length(labels), mean = unname(means)),
         size = size, partition = partition,
         neurons = vapply(seq_len(size), function(j) {
           g <- labels[rows$cluster == j]
           if (length(g)) which.max(tabulate(g, G)) else NA_integer_
         }, 1L),
         rows = length(rows$rows),
         occupied = sum(tabulate(rows$cluster, size) >= group_min_rows(length(rows$rows))),
         cells = length(unique(rows$cluster)), ref = rows$x, ref_group = labels),
    list(...))
}

# Genie's linkage on the rows xs (complete, the maps' space) cut into k groups: list(labels,
# gap: the lightest edge of the minimum spanning tree between two groups over the tree's
# told_gap quantile of edge lengths; with `every`, gaps: that of each cut into 1..k + 1
# groups, NA for one: the figure shows the gap that the next cut would leave too).
told_rows <- function(xs, k, every = FALSE) {
  n <- nrow(xs)
  if (n < k) return(NULL)
  if (k == 1L) return(list(labels = rep(1L, n), gap = NA_real_, gaps = if (every) NA_real_))
  mst <- mst_rows(xs)
  cuts <- genie_merge(mst, n, if (every) min(k + 1L, n) else k)
  q <- told_quantile(mst)
  gap_of <- function(l) if (is.null(l) || max(l) < 2L) NA_real_ else narrowest_gap(mst, tree_cut(mst, l), q)
  gaps <- if (every) vapply(cuts, gap_of, 0)
  list(labels = cuts[[k]], gap = if (every) gaps[k] else gap_of(cuts[[k]]), gaps = gaps)
}

# Each group's bootstrap stability for connected groups told their number (kind "rows"):
# per replicate (work, its rows of x), Genie's linkage on the replicate's distinct rows cut
# into as many groups, the group's best Jaccard similarity with the replicate's groups over
# those rows; the mean over the replicates.
told_stability <- function(grouping, work) {
  G <- grouping$groups
  full <- grouping$partition
  at <- which(!is.na(full)) # the grouped rows, in the order of grouping$ref
  jac <- vapply(work, function(w) {
    rows <- intersect(sort(unique(w$train)), at)
    if (length(rows) < G) return(rep(NA_real_, G))
    mine <- told_rows(grouping$ref[match(rows, at), , drop = FALSE], G)$labels
    jaccard_best(full[rows], mine, G)
  }, numeric(G))
  stability_table(G, full, matrix(jac, nrow = G))
}
