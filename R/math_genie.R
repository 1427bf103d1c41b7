# Genie's linkage and the rows' neighbours, for the groups of any shape (rule_connected.R), the
# groups told their number (rule_told.R) and the rows that belong to no group (rule_noise.R): the
# Euclidean minimum spanning tree of a set of points, Genie's Gini-capped single linkage on
# it (Gagolewski, Bartoszuk and Cena 2016), and each point's distances to its nearest
# points of another set, a block at a time.

# The Euclidean minimum spanning tree of the rows of X (complete), by Prim's algorithm
# without a distance matrix (each step the distances from the point just joined to those
# still out: n^2 d / 2 operations, memory of order n): list(from, to, weight), the n - 1
# edges lightest first (ties in the order Prim's algorithm took them). In C
# (src/groups/som_genie.c); the R it replaced is mst_reference() in
# tests/testthat/helper-genie.R.
mst_rows <- function(X) {
  n <- nrow(X)
  if (n < 2L) return(list(from = integer(0), to = integer(0), weight = numeric(0)))
  xt <- t(X)
  storage.mode(xt) <- "double"
  call_core("join the rows' spanning tree", NULL, function() .Call(C_mst_rows, xt))
}

# Genie's linkage on a minimum spanning tree (mst_rows()) of p points: its edges joined
# lightest first, except that while the Gini index of the group sizes exceeds `gini` (the
# constant "genie_gini": Gagolewski, Bartoszuk and Cena 2016, genieclust's default), the
# lightest edge that touches a smallest group is joined instead. A list, element k
# (1..k_max) the labels (1..k, numbered by first appearance) of the partition into k
# groups. The Gini index, sum_{i<j} |s_i - s_j| / ((K - 1) p) over the K groups' sizes s,
# is kept up to date at each join (O(K)), so the whole linkage costs O(p^2). In C
# (src/groups/som_genie.c); the R it replaced is genie_reference() in helper-genie.R.
genie_merge <- function(mst, p, k_max, gini = tuned("genie_gini")) {
  k_max <- min(k_max, p)
  labels <- call_core("join the groups by Genie's linkage", NULL, function() {
    .Call(C_genie, as.integer(mst$from), as.integer(mst$to), as.integer(p),
          as.integer(k_max), as.double(gini))
  })
  lapply(seq_len(k_max), function(k) if (labels[1L, k] > 0L) labels[, k])
}

# Which edges of a spanning tree (mst_rows()) a partition `labels` of its points cuts.
tree_cut <- function(mst, labels) labels[mst$from] != labels[mst$to]

# The narrowest gap of a partition of a spanning tree's points, given the edges it cuts
# (tree_cut()): its lightest cut edge over q (a quantile of the tree's edge lengths); Inf
# when q is 0 and the edge is not.
narrowest_gap <- function(mst, cut, q) {
  lightest <- min(mst$weight[cut])
  if (q > 0) lightest / q else if (lightest > 0) Inf else 0
}

# The partitions of the rows of P into 1..k_max groups by Genie's linkage (genie_merge() on
# their minimum spanning tree).
genie_partitions <- function(P, k_max, gini = tuned("genie_gini")) {
  if (nrow(P) == 1L) return(list(1L))
  genie_merge(mst_rows(P), nrow(P), k_max, gini)
}

# For each row of x, its nearest row of `ref` (index; the first of equals) and its distance
# to the m-th nearest row of ref (a row of x that is a row of ref counts itself, at
# distance 0), both complete and in the same space; with `neighbours`, also `knn` (n x m),
# each row's m nearest rows of ref in order of distance (among equals, the first in ref
# first). A scan in C (src/groups/som_nearest.c) over blocks of rows of x of about 2e7
# distances each, so that an interrupt is seen between blocks.
nearest_rows <- function(x, ref, m = 1L, neighbours = FALSE) {
  m <- as.integer(min(m, nrow(ref)))
  n <- nrow(x)
  nearest <- integer(n)
  mth <- numeric(n)
  knn <- if (neighbours) matrix(0L, n, m)
  tref <- t(ref)
  storage.mode(tref) <- "double"
  block <- max(1L, floor(2e7 / nrow(ref)))
  for (lo in seq(1L, n, by = block)) {
    idx <- seq.int(lo, min(n, lo + block - 1L))
    xb <- t(x[idx, , drop = FALSE])
    storage.mode(xb) <- "double"
    got <- call_core("find the nearest rows", NULL, function() {
      .Call(C_nearest_rows, xb, tref, m, neighbours)
    })
    nearest[idx] <- got$nearest
    mth[idx] <- got$mth
    if (neighbours) knn[idx, ] <- t(got$knn)
  }
  list(nearest = nearest, mth = sqrt(mth), knn = knn)
}

# The rows of xs (complete, the maps' space; `groups`, each one's group) that belong to no
# group under `noise` (noise_grouping()'s: ref, the grouped rows; m; limit, per group):
# those whose distance to their (m + 1)-th nearest row of ref (a row of ref its own first)
# exceeds their group's limit. A logical vector.
noise_rows <- function(xs, groups, noise) {
  core <- nearest_rows(xs, noise$ref, noise$m + 1L)$mth
  !is.na(groups) & core > noise$limit[groups]
}
