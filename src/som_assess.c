/* som_assess.c: quality of trained maps (qe, te) and the winner of every point.
 *
 * The points are cut into fixed blocks; threads take whole blocks, each block keeps its own
 * partial sums, and the sums are added in block order, so the figures do not depend on the
 * number of threads. Each block is transposed into a small row-major buffer first, so the
 * data is never copied whole. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#ifdef _OPENMP
#include <omp.h>
#endif

#include "som_core.h"

#define SOM_BLOCK 1024
/* Blocks per round between interrupt checks, per thread. */
#define SOM_BLOCKS_PER_ROUND 64

int som_assess(const som_data *d, const som_maps *maps, int nthreads, const som_hooks *hooks,
               double *qe, double *te, int **clusters, som_status *st)
{
    const int64_t n = d->n;
    const int m = d->m, nmaps = maps->nmaps;
    const int64_t nblocks = (n + SOM_BLOCK - 1) / SOM_BLOCK;
    double *part = NULL, *wrow = NULL, *buf = NULL;
    double **w = NULL;
    size_t wtot = 0;
    int64_t b0;
    int i, rc = SOM_OK;

    if (n < 1 || m < 1 || nmaps < 1)
        return som_fail(st, SOM_ERR_INVALID, "nothing to assess");
    if (nthreads < 1) nthreads = 1;
    if (nthreads > nblocks) nthreads = (int)nblocks;
    for (i = 0; i < nmaps; i++) wtot += (size_t)maps->size[i] * m;
    part = malloc((size_t)nblocks * nmaps * 2 * sizeof *part);
    wrow = malloc(wtot * sizeof *wrow);
    w = malloc((size_t)nmaps * sizeof *w);
    buf = malloc((size_t)nthreads * SOM_BLOCK * m * sizeof *buf);
    if (!part || !wrow || !w || !buf) {
        rc = som_fail(st, SOM_ERR_NOMEM, "could not allocate memory to assess the maps");
        goto done;
    }
    wtot = 0;
    for (i = 0; i < nmaps; i++) {
        w[i] = wrow + wtot;
        som_rowmajor_weights(maps->weights[i], maps->size[i], m, w[i]);
        wtot += (size_t)maps->size[i] * m;
    }

    for (b0 = 0; b0 < nblocks; b0 += (int64_t)SOM_BLOCKS_PER_ROUND * nthreads) {
        int64_t b1 = b0 + (int64_t)SOM_BLOCKS_PER_ROUND * nthreads, b;
        if (b1 > nblocks) b1 = nblocks;
#pragma omp parallel for schedule(dynamic, 1) num_threads(nthreads)
        for (b = b0; b < b1; b++) {
#ifdef _OPENMP
            double *x = buf + (size_t)omp_get_thread_num() * SOM_BLOCK * m;
#else
            double *x = buf;
#endif
            int64_t lo = b * SOM_BLOCK, hi = lo + SOM_BLOCK < n ? lo + SOM_BLOCK : n, r;
            int k, q;
            for (k = 0; k < m; k++)
                for (r = lo; r < hi; r++) x[(r - lo) * m + k] = d->x[(size_t)k * n + r];
            for (q = 0; q < nmaps; q++) {
                const int size = maps->size[q];
                double sq = 0, st_ = 0;
                for (r = lo; r < hi; r++) {
                    double d2;
                    int second, c = som_winner(x + (r - lo) * m, w[q], size, m, &d2, &second);
                    sq += sqrt(d2);
                    st_ += som_ring_dist(c, second, size) > 1;
                    if (clusters && clusters[q]) clusters[q][r] = c + 1;
                }
                part[((size_t)b * nmaps + q) * 2] = sq;
                part[((size_t)b * nmaps + q) * 2 + 1] = st_;
            }
        }
        if (hooks && hooks->interrupted && b1 < nblocks && hooks->interrupted(hooks->ud)) {
            rc = som_fail(st, SOM_ERR_INTERRUPTED, "interrupted");
            goto done;
        }
    }
    for (i = 0; i < nmaps; i++) {
        double sq = 0, stt = 0;
        int64_t b;
        for (b = 0; b < nblocks; b++) {
            sq += part[((size_t)b * nmaps + i) * 2];
            stt += part[((size_t)b * nmaps + i) * 2 + 1];
        }
        if (qe) qe[i] = sq / (double)n;
        if (te) te[i] = stt / (double)n;
    }

done:
    free(part);
    free(wrow);
    free(w);
    free(buf);
    return rc;
}
