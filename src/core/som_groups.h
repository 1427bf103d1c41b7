/* som_groups.h: the greedy agglomeration of a map's cells into Gaussian groups (the
 * grouping rule of R/groups.R). Each cell comes as its moments (rows, column sums,
 * cross-products); at every step the two groups whose union keeps the classification
 * log-likelihood highest join, from a group per cell down to one group (or down_to). The
 * covariance of a group is its scatter plus a prior's, over its rows plus the prior's
 * pseudo-rows: full, diagonal or spherical, each group its own or one shared (mclust's
 * VVV, EEE, VVI, EEI, VII, EII). Pure C: the R reference is agglomerate_reference() in
 * tests/testthat/helper-groups.R. */
#ifndef SOM_GROUPS_H
#define SOM_GROUPS_H

#include "som_core.h"

typedef enum { SOM_COV_FULL = 0, SOM_COV_DIAG = 1, SOM_COV_SPHERE = 2 } som_cov_shape;

typedef struct {
    int d;               /* columns                                                 */
    som_cov_shape shape; /* full, diagonal or spherical covariances                 */
    int shared;          /* one covariance for every group                          */
    double n;            /* rows in all (of the cells taking part)                  */
    const double *psi;   /* the prior's scatter, d x d, column-major                */
    double nu;           /* the prior's pseudo-rows                                 */
} som_cov_family;

/* The path of partitions, one per number of groups from the cells with rows down: step t
 * holds labels[t * N .. t * N + N - 1] (each cell's group 1..K in the order of its
 * lowest cell, 0 for a cell without rows), rows[t * N .. t * N + K - 1] (each group's
 * rows) and loglik[t]; `steps` says how many were recorded. The caller allocates N * N
 * labels and rows and N logliks. */
typedef struct {
    int steps;
    int *labels;
    double *rows, *loglik;
} som_group_path;

/* Cells 0 .. N-1: rows cn[c] (0: the cell takes no part), sums cs[c * d .. c * d + d - 1],
 * cross-products cq[c * d * d ..] (column-major). Joins down to down_to groups (1: all the
 * way) and stops early when no union has a finite log-likelihood. */
int som_agglomerate(int N, const double *cn, const double *cs, const double *cq,
                    const som_cov_family *f, int down_to, som_group_path *path,
                    som_status *st);

#endif
