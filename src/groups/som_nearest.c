/* som_nearest.c: nearest reference points by a scan (som_nearest.h). The m smallest
 * squared distances of a point (and their indices, when asked) are kept sorted in a
 * buffer of m as the scan goes, so a point costs r d operations and no r-long array (m is
 * small: a core distance's 5 + 1, a row's 10 neighbours and itself). */
#include "som_nearest.h"

void som_nearest(const double *x, int n, const double *ref, int r, int d, int m,
                 int *nearest, double *mth, double *buf, int *knn, int *ibuf)
{
    int i, j, k, kept;
    for (i = 0; i < n; i++) {
        const double *p = x + (long)i * d;
        double best = 0;
        int at = 0;
        kept = 0;
        for (j = 0; j < r; j++) {
            const double *q = ref + (long)j * d;
            double s = 0;
            for (k = 0; k < d; k++) {
                double t = p[k] - q[k];
                s += t * t;
            }
            if (j == 0 || s < best) {
                best = s;
                at = j;
            }
            /* s among the m smallest so far: insert it in order (after its equals, so
             * that the first of equals stays first) */
            if (kept < m || s < buf[kept - 1]) {
                k = kept < m ? kept++ : m - 1;
                while (k > 0 && buf[k - 1] > s) {
                    buf[k] = buf[k - 1];
                    if (ibuf) ibuf[k] = ibuf[k - 1];
                    k--;
                }
                buf[k] = s;
                if (ibuf) ibuf[k] = j + 1;
            }
        }
        nearest[i] = at + 1;
        mth[i] = buf[m - 1];
        if (knn)
            for (k = 0; k < m; k++) knn[(long)i * m + k] = ibuf[k];
    }
}
