/* som_agreement.h: how far clusterings of the same rows agree, for R/math_agreement.R: the
 * adjusted Rand index (Hubert and Arabie 1985) of many pairs of clusterings at once. */
#ifndef SOM_AGREEMENT_H
#define SOM_AGREEMENT_H

#include <stdint.h>

/* The columns of C (n >= 2 rows x ncol, column-major, clusters 1..k) paired as the columns
 * of pairs (2 x npairs, 0-based column indices; a missing cluster, R's NA, counts in no
 * cell but among the n rows, as in R's tabulate() form): each pair's index into out. Work: cells,
 * k * k ints; per, ncol doubles. The counts of pairs of rows are summed in long double, as
 * R's colSums() sums them: whole numbers, so the order of the sums changes no bit. */
void som_ari_pairs(const int *C, int64_t n, int ncol, const int *pairs, int npairs, int k,
                   int *cells, double *per, double *out);

#endif
