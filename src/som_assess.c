/* som_assess.c: quality of trained maps (qe, te) and the winner of every point.
 *
 * The points are cut into fixed blocks; threads take (block, map) pairs, each pair keeps its
 * own partial sums, and each map's sums are added in block order, so the figures do not
 * depend on the number of threads or on how the work was cut into rounds. Each block is transposed into a small row-major buffer first, so the
 * data is never copied whole. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#ifdef _OPENMP
#include <omp.h>
#endif

#include "som_core.h"

#define SOM_BLOCK 1024

int som_assess(const som_data *d, const som_maps *maps, int nthreads, double round_units,
               const som_hooks *hooks, double *qe, double *te, int **clusters,
               som_status *st)
{
    const int64_t n = d->n;
    const int m = d->m, nmaps = maps->nmaps;
    const int64_t nblocks = (n + SOM_BLOCK - 1) / SOM_BLOCK;
    double *part = NULL, *wrow = NULL, *buf = NULL;
    double **w = NULL;
    const int64_t ntasks = nblocks * nmaps;
    size_t wtot = 0;
    int64_t q0, q1;
    double *map_cost = NULL;
    int i, rc = SOM_OK;

    if (n < 1 || m < 1 || nmaps < 1)
        return som_fail(st, SOM_ERR_INVALID, "nothing to assess");
    if (round_units <= 0) round_units = SOM_ROUND_UNITS;
    if (nthreads > som_max_threads()) nthreads = som_max_threads();
    if (nthreads < 1) nthreads = 1;
    if (nthreads > ntasks) nthreads = (int)ntasks;
    for (i = 0; i < nmaps; i++) wtot += (size_t)maps->size[i] * m;
    part = malloc((size_t)nblocks * nmaps * 2 * sizeof *part);
    wrow = malloc(wtot * sizeof *wrow);
    w = malloc((size_t)nmaps * sizeof *w);
    buf = malloc((size_t)nthreads * SOM_BLOCK * m * sizeof *buf);
    map_cost = malloc((size_t)nmaps * sizeof *map_cost);
    if (!part || !wrow || !w || !buf || !map_cost) {
        rc = som_fail(st, SOM_ERR_NOMEM, "could not allocate memory to assess the maps");
        goto done;
    }
    wtot = 0;
    for (i = 0; i < nmaps; i++) {
        map_cost[i] = ((double)maps->size[i] * (m + 1) + SOM_POINT_UNITS) * SOM_BLOCK;
        w[i] = wrow + wtot;
        som_rowmajor_weights(maps->weights[i], maps->size[i], m, w[i]);
        wtot += (size_t)maps->size[i] * m;
    }

    /* tasks are (block, map) pairs, block-major; a round takes consecutive tasks worth
     * about round_units per thread, and the interrupt hook runs between rounds */
    for (q0 = 0; q0 < ntasks; q0 = q1) {
        double cost = 0;
        int64_t q;
        for (q1 = q0; q1 < ntasks && cost < round_units * nthreads; q1++)
            cost += map_cost[q1 % nmaps];
#ifdef _OPENMP
#pragma omp parallel for schedule(dynamic, 1) num_threads(nthreads)
#endif
        for (q = q0; q < q1; q++) {
#ifdef _OPENMP
            double *x = buf + (size_t)omp_get_thread_num() * SOM_BLOCK * m;
#else
            double *x = buf;
#endif
            const int64_t b = q / nmaps, lo = b * SOM_BLOCK;
            const int64_t hi = lo + SOM_BLOCK < n ? lo + SOM_BLOCK : n;
            const int map = (int)(q % nmaps), size = maps->size[map];
            int *cl = clusters ? clusters[map] : NULL;
            double sq = 0, st_ = 0;
            int64_t r;
            int k;
            for (k = 0; k < m; k++)
                for (r = lo; r < hi; r++) x[(r - lo) * m + k] = d->x[(size_t)k * n + r];
            for (r = lo; r < hi; r++) {
                double d2;
                int second, c = som_winner(x + (r - lo) * m, w[map], size, m, &d2, &second);
                sq += sqrt(d2);
                st_ += som_ring_dist(c, second, size) > 1;
                if (cl) cl[r] = c + 1;
            }
            part[(size_t)q * 2] = sq;
            part[(size_t)q * 2 + 1] = st_;
        }
        if (q1 < ntasks && hooks && hooks->interrupted && hooks->interrupted(hooks->ud)) {
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
    free(map_cost);
    return rc;
}
