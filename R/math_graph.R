# The rows' shared-neighbour graph and its communities, the field's way of grouping wide
# data (Seurat's FindNeighbors and FindClusters: each row's "graph_neighbours" nearest,
# itself among them; rows joined by the Jaccard overlap of their neighbour sets, pruned
# below "graph_prune"; Louvain's communities at "graph_resolution"). Compiled in
# src/groups/som_graph.c, which gives the same graph and modularity as igraph
# (tests/testthat/test-graph.R).

# The communities of the rows x (complete, a row per point, at least 2): list(membership
# (each row's community, numbered by first appearance), modularity (at the resolution),
# edges, between (the communities' weights, C x C: from one to another, within on the
# diagonal; NULL beyond 2,000 communities), knn (each row's k neighbours, n x k)). Louvain's first level visits the rows
# in `order` (a permutation of them: its answer depends on it a little).
graph_communities <- function(x, order, k = tuned("graph_neighbours")) {
  n <- nrow(x)
  knn <- nearest_rows(x, x, min(k, n), neighbours = TRUE)$knn
  got <- call_core("group the rows' graph", NULL, function() {
    .Call(C_graph_communities, t(knn), as.double(tuned("graph_prune")),
          as.double(tuned("graph_resolution")), as.integer(order))
  })
  c(got, list(knn = knn))
}

# The communities as groups: those of fewer than `least` rows (Louvain leaves a few rows
# alone or in pairs) join, row by row, the group of their nearest row in a larger one;
# numbered by first appearance. NULL where no community holds `least` rows.
graph_groups <- function(x, membership, least) {
  big <- which(tabulate(membership) >= least)
  if (!length(big)) return(NULL)
  ok <- membership %in% big
  if (!all(ok)) {
    ref <- which(ok)
    membership[!ok] <- membership[ref[nearest_rows(x[!ok, , drop = FALSE], x[ref, , drop = FALSE])$nearest]]
  }
  match(membership, unique(membership))
}

# The modularity at the resolution of the communities joined, the pair whose join loses
# least first (Newman's greedy step), down to one group: element k that of k groups, the
# last Louvain's own. between: graph_communities()'s (NULL: no path).
graph_join_path <- function(between) {
  if (is.null(between)) return(NULL)
  w <- between
  m2 <- sum(w)
  gamma <- tuned("graph_resolution")
  modularity <- function(w) if (m2 > 0) sum(diag(w)) / m2 - gamma * sum((rowSums(w) / m2)^2) else 0
  q <- numeric(nrow(w))
  q[nrow(w)] <- modularity(w)
  while (nrow(w) > 1L) {
    a <- rowSums(w) / m2
    gain <- w / m2 - gamma * outer(a, a)
    diag(gain) <- -Inf
    ij <- which(gain == max(gain), arr.ind = TRUE)[1L, ]
    keep <- -ij[2L]
    w[ij[1L], ] <- w[ij[1L], ] + w[ij[2L], ]
    w[, ij[1L]] <- w[, ij[1L]] + w[, ij[2L]]
    w <- w[keep, keep, drop = FALSE]
    q[nrow(w)] <- modularity(w)
  }
  q
}
