/* som_groups.h: Gaussian groups for the grouping rule of R/rule_gaussian.R: the greedy
 * agglomeration of a map's cells (som_groups.c) and EM over the rows (som_mixture.c). Each cell comes as its moments (rows, column sums,
 * cross-products); at every step the two groups whose union keeps the classification
 * log-likelihood highest join, from a group per cell down to one group (or down_to). The
 * covariance of a group is its scatter plus a prior's, over its rows plus the prior's
 * pseudo-rows: full, diagonal or spherical, each group its own or one shared (mclust's
 * VVV, EEE, VVI, EEI, VII, EII). Pure C: the R reference is agglomerate_reference() in
 * tests/testthat/helper-groups.R. */
#ifndef SOM_GROUPS_H
#define SOM_GROUPS_H

#include "som_status.h"

typedef enum { SOM_COV_FULL = 0, SOM_COV_DIAG = 1, SOM_COV_SPHERE = 2 } som_cov_form;

typedef struct {
    int d;               /* Gaussian columns (0: every column categorical)          */
    som_cov_form form;   /* full, diagonal or spherical covariances                 */
    int shared;          /* one covariance for every group                          */
    double n;            /* rows in all (of the cells taking part)                  */
    const double *psi;   /* the prior's scatter, d x d, column-major                */
    double nu;           /* the prior's pseudo-rows                                 */
    /* categorical columns (a data frame's, as indicator columns): each group adds a
     * latent-class term, sum over its levels of count log((count + alpha) / (rows +
     * sum of the block's alpha)); levels[b] per block, alpha concatenated (L in all) */
    int nblocks, L;
    const int *levels;
    const double *alpha;
} som_cov_model;

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
 * cross-products cq[c * d * d ..] (column-major) of the Gaussian columns, and with
 * categorical columns each level's count cc[c * L .. c * L + L - 1] (else NULL). Joins
 * down to down_to groups (1: all the way) and stops early when no union has a finite
 * log-likelihood. hooks (or NULL): asked between pairs whether to stop (SOM_ERR_INTERRUPTED,
 * every allocation released). */
int som_agglomerate(int N, const double *cn, const double *cs, const double *cq,
                    const double *cc, const som_cov_model *f, int down_to,
                    const som_hooks *hooks, som_group_path *path, som_status *st);

/* Where a mixture's columns are among the rows' m columns: the Gaussian ones gauss[0 ..
 * f->d - 1], and the L indicator columns of the categorical blocks (block by block, as
 * f->levels) cols[0 .. L - 1], each block's indicators of height[b] (a level's 1 after the
 * fit's scaling and weights). */
typedef struct {
    int m;
    const int *gauss, *cols;
    const double *height;
} som_mixture_columns;

/* EM for a mixture of G groups of the covariance model f on the rows x (n x m, column-major; the
 * columns as mc says), started from labels (1..G): at most iter steps, until the
 * log-likelihood gains less than tol of itself, then the parameters once more from the
 * last weights (R/math_mixture.R's mixture_em()). pro (G), mean (G x m: the Gaussian columns'
 * means, and each level's probability times its height), cov (d x d x G). *fitted is 0
 * when a group empties (fewer than 1 row of weight) or a covariance is not positive
 * definite. */
int som_mixture_em(const double *x, int n, const som_mixture_columns *mc, int G,
                   const int *labels, const som_cov_model *f, int iter, double tol,
                   double *pro, double *mean, double *cov, int *fitted, som_status *st);

/* Shared by both: the Cholesky factor L (lower, column-major) of the d x d matrix S (0 when
 * S is not positive definite), and the inverse of such a factor. */
#define SOM_LOG_2PI 1.8378770664093454836
int som_cholesky(const double *S, int d, double *L);
void som_factor_inverse(const double *L, int d, double *Li);

#endif
