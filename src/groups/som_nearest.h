/* som_nearest.h: each point's nearest reference point and its distance to its m-th nearest
 * (R/math_genie.R's nearest_rows(): a new row joins the connected group of its nearest grouped
 * row; a row's core distance decides whether it belongs to no group), and where asked the
 * m nearest themselves (the rows' neighbours whose groups the rows' connectivity counts).
 * Pure C. */
#ifndef SOM_NEAREST_H
#define SOM_NEAREST_H

/* Points x (d x n, a point per column) against ref (d x r): nearest[i], the 1-based index
 * of the reference point closest to point i (the first of equals), and mth[i], the m-th
 * smallest squared distance from point i to the reference points (1 <= m <= r; equal
 * distances counted as often as they occur). buf: m doubles of scratch. With knn (m x n,
 * a column per point; NULL for none), knn[, i] the 1-based indices of the m nearest in
 * order of distance (among equals, the first in ref first); ibuf: m ints of scratch (NULL
 * with knn NULL). */
void som_nearest(const double *x, int n, const double *ref, int r, int d, int m,
                 int *nearest, double *mth, double *buf, int *knn, int *ibuf);

#endif
