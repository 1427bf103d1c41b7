/* som_genie.h: Genie's linkage for R/math_genie.R (groups of any shape, groups told their
 * number): the Euclidean minimum spanning tree of a set of points by Prim's algorithm, and
 * Genie's Gini-capped single linkage on it (Gagolewski, Bartoszuk and Cena 2016). Pure C,
 * written to give exactly what the R it replaced gave (the same ties, the same order):
 * tests/testthat/test-connected.R checks both against genieclust. */
#ifndef SOM_GENIE_H
#define SOM_GENIE_H

/* The minimum spanning tree of the points x (d x n, a point per column; n >= 2): its n - 1
 * edges, lightest first (ties in the order Prim's algorithm took them), as 1-based
 * endpoints from, to and the edges' lengths (not squared). work: 2 n doubles and 6 n ints
 * of scratch. */
void som_mst(const double *x, int n, int d, int *from, int *to, double *weight,
             double *work, int *iwork);

/* Genie's linkage on a spanning tree of p points (from, to: its p - 1 edges, 1-based,
 * lightest first): the edges joined lightest first, except that while the Gini index of
 * the group sizes exceeds gini the lightest edge touching a smallest group is joined
 * instead. labels (p x k_max, column k - 1 the partition into k groups, each point's group
 * numbered by first appearance from 1; columns of k > p left as they were). iwork: 4 p
 * ints; size: p doubles of scratch. */
void som_genie(const int *from, const int *to, int p, int k_max, double gini, int *labels,
               int *iwork, double *size);

#endif
