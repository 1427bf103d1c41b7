/* som_graph.h: the rows' shared-neighbour graph and its communities, for R/rule_graph.R
 * (rule "graph": wide data whose components show no noise floor, where the field groups
 * the rows as Seurat does: a graph of shared nearest neighbours weighted by the Jaccard
 * overlap of the neighbour sets, then Louvain's modularity optimization; Blondel,
 * Guillaume, Lambiotte and Lefebvre 2008). Pure C, no allocation: the R glue gives the
 * scratch. tests/testthat/test-graph.R checks both against a pure-R graph and igraph. */
#ifndef SOM_GRAPH_H
#define SOM_GRAPH_H

/* The shared-neighbour graph of n points whose k nearest (knn: k x n, a column per point,
 * 1-based, the point itself among them as Seurat counts it) are given: points i and j
 * (i != j) are joined with weight s / (2 k - s), s the number of neighbours they share,
 * where that is at least prune. With start NULL, only counts: returns the number of
 * adjacency entries (each edge twice, once from each end). Else fills the graph in
 * compressed rows: start (n + 1), adj and w (start[n] entries; j's neighbours adj[start[j]
 * .. start[j + 1] - 1], 0-based) and returns the same count. iwork: 3 n + n k + 1 ints. */
long som_snn_graph(const int *knn, int n, int k, double prune, int *start, int *adj,
                   double *w, int *iwork);

/* Louvain's communities of the graph (start, adj, w as som_snn_graph() gives it: symmetric,
 * no self loops) at `resolution` (gamma in Q = sum over communities of in_c / 2m - gamma
 * (tot_c / 2m)^2, igraph's and Seurat's), visiting the points of the first level in
 * `order` (a permutation of 0..n-1; the levels after it in their order). membership (n):
 * each point's community, numbered 1.. by first appearance. Returns the modularity of the
 * communities at `resolution` (0 for a graph without edges: every point its own). work:
 * 4 n + 2 e doubles; iwork: 6 n + 2 e + 2 ints, e = start[n]. */
double som_louvain(const int *start, const int *adj, const double *w, int n,
                   double resolution, const int *order, int *membership, double *work,
                   int *iwork);

#endif
