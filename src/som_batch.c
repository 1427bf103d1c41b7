/* som_batch.c: the batch SOM on the CPU. Each pass t finds every point's winner with the
 * current weights, sums the points won by each neuron (S_c, n_c), then sets
 * W_j = sum_c h_t(d(c, j)) S_c / sum_c h_t(d(c, j)) n_c (a neuron whose denominator is zero
 * keeps its weights).
 *
 * Parallel over points: the points are cut into blocks of p->batch_block; a block is
 * transposed once and serves every map, so each point is read once per pass. Each block's
 * sums are taken in point order into a slot of its own, and the slots are added to the
 * totals in block order, so the result is the same whatever the threads and rounds. Winners
 * use the same squared distance as everywhere else (summed over the dimensions in order),
 * which stays exact however far the data sit from the origin. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#ifdef _OPENMP
#include <omp.h>
#endif

#include "som_core.h"
#include "som_tile.h"

typedef struct {
    int size, ld;      /* neurons, and neurons rounded up to whole tiles (som_tile_ld)  */
    double *w;         /* weights, w[k * ld + j]; the padding stays 0                    */
    double *total;     /* the pass's sums: S[c * m + k], then the counts n[c]            */
    double *row;       /* the pass's factors by ring distance, size / 2 + 1              */
    double *num;       /* m doubles of scratch for the smoothing                         */
    size_t slot_off;   /* where this map's sums start in a block's slot                  */
    size_t slot_len;   /* size * (m + 1)                                                 */
} bmap;

/* The winners of SOM_PB points (rows of x, m apart) among the neurons of w (tiled, leading
 * dimension ld): the lowest index on ties, as som_winner. */
SOM_INLINE void winners(const double *x, const double *w, int size, int ld, const int m,
                        int *c)
{
    double bd[SOM_PB];
    int p, j, jj;
    for (p = 0; p < SOM_PB; p++) {
        bd[p] = HUGE_VAL;
        c[p] = 0;
    }
    for (j = 0; j < size; j += SOM_TJB) {
        double acc[SOM_PB][SOM_TJB];
        const int nb = size - j < SOM_TJB ? size - j : SOM_TJB;
        som_tile_d2(x, w, ld, j, m, acc);
        SOM_UNROLL
        for (p = 0; p < SOM_PB; p++)
            for (jj = 0; jj < nb; jj++) {
                int lt = acc[p][jj] < bd[p];
                c[p] = lt ? j + jj : c[p];
                bd[p] = lt ? acc[p][jj] : bd[p];
            }
    }
}

/* Block b against maps q0 .. q1-1: winners, and each map's sums in point order into slot.
 * Also compiled for AVX2 where the compiler can pick the version at load time (the same
 * operations, 4 doubles at a time: -ffp-contract=off keeps them unfused). */
SOM_TARGET_CLONES static void block_sums(const som_problem *p, const bmap *maps, int q0, int q1,
                                         int64_t b, double *x, double *slot)
{
    const int m = p->data.m;
    const int64_t n = p->data.n, lo = b * p->batch_block;
    const int nb = (int)((lo + p->batch_block < n ? lo + p->batch_block : n) - lo);
    const int padded = (nb + SOM_PB - 1) / SOM_PB * SOM_PB;
    int k, i, q;
    som_tile_rows(p->data.x, n, m, lo, nb, x);
    for (q = q0; q < q1; q++) {
        const bmap *mp = maps + q;
        double *S = slot + mp->slot_off, *cnt = S + (size_t)mp->size * m;
        memset(S, 0, mp->slot_len * sizeof *S);
        for (i = 0; i < padded; i += SOM_PB) {
            int c[SOM_PB], r;
            const double *xi = x + (size_t)i * m;
            switch (m) {
            case 1: winners(xi, mp->w, mp->size, mp->ld, 1, c); break;
            case 2: winners(xi, mp->w, mp->size, mp->ld, 2, c); break;
            case 3: winners(xi, mp->w, mp->size, mp->ld, 3, c); break;
            case 4: winners(xi, mp->w, mp->size, mp->ld, 4, c); break;
            case 8: winners(xi, mp->w, mp->size, mp->ld, 8, c); break;
            case 16: winners(xi, mp->w, mp->size, mp->ld, 16, c); break;
            default: winners(xi, mp->w, mp->size, mp->ld, m, c);
            }
            for (r = 0; r < SOM_PB && i + r < nb; r++) {
                double *Sc = S + (size_t)c[r] * m;
                const double *xr = xi + (size_t)r * m;
                SOM_SIMD /* dimensions side by side; each still in point order */
                for (k = 0; k < m; k++) Sc[k] += xr[k];
                cnt[c[r]] += 1;
            }
        }
    }
}

/* W_j = sum_c h(d(c, j)) S_c / sum_c h(d(c, j)) n_c, summed over c in order. */
static void smooth(const som_problem *p, bmap *mp, int t)
{
    const int m = p->data.m, size = mp->size;
    const double *S = mp->total, *cnt = S + (size_t)size * m;
    int j, c, k;
    som_neighbourhood_row(p, t, size / 2, mp->row);
    for (j = 0; j < size; j++) {
        double den = 0;
        for (k = 0; k < m; k++) mp->num[k] = 0;
        for (c = 0; c < size; c++) {
            const double h = mp->row[som_ring_dist(c, j, size)];
            const double *Sc = S + (size_t)c * m;
            den += h * cnt[c];
            for (k = 0; k < m; k++) mp->num[k] += h * Sc[k];
        }
        if (den > 0)
            for (k = 0; k < m; k++) mp->w[(size_t)k * mp->ld + j] = mp->num[k] / den;
    }
}

int som_cpu_batch(const som_problem *p, double *const *weights, int nthreads,
                  double round_units, const som_hooks *hooks, som_status *st)
{
    const int m = p->data.m, nmaps = p->nmaps, passes = p->iter_max - 1;
    const int64_t n = p->data.n, B = p->batch_block;
    const int64_t nblocks = (n + B - 1) / B;
    const size_t xrows = (size_t)((B + SOM_PB - 1) / SOM_PB * SOM_PB);
    bmap *maps = NULL;
    double *store = NULL, *slots = NULL, *xbuf = NULL, *init = NULL, block_cost = 0;
    size_t need = 0, slot_len = 0, init_max = 0;
    int64_t per_round, t_done = 0, b0;
    int i, t, rc = SOM_OK, ngroups;
    int *group_start = NULL;
    uint32_t *scratch = NULL;

    if ((rc = som_check_problem(p, st)) != SOM_OK) return rc;
    if (round_units <= 0) round_units = SOM_ROUND_UNITS;
    if (nthreads > som_max_threads()) nthreads = som_max_threads();
    if (nthreads < 1) nthreads = 1;

    /* one block per slot in a round; enough blocks for the round's work, and when there are
     * fewer blocks than threads, maps split into groups so every thread has work */
    maps = calloc((size_t)nmaps, sizeof *maps);
    if (!maps) goto nomem;
    for (i = 0; i < nmaps; i++) {
        bmap *mp = maps + i;
        mp->size = p->size[i];
        mp->ld = som_tile_ld(p->size[i]);
        mp->slot_len = (size_t)mp->size * (m + 1);
        mp->slot_off = slot_len;
        slot_len += mp->slot_len;
        need += (size_t)mp->ld * m + mp->slot_len + (size_t)(mp->size / 2 + 1) + (size_t)m;
        if ((size_t)mp->size * m > init_max) init_max = (size_t)mp->size * m;
        block_cost += ((double)mp->size * (m + 1) + SOM_POINT_UNITS) * (double)B;
    }
    per_round = (int64_t)(round_units * nthreads / block_cost);
    if (per_round < 1) per_round = 1;
    if (per_round > nblocks) per_round = nblocks;
    ngroups = som_map_groups(per_round, nthreads, nmaps);

    store = malloc(need * sizeof *store);
    slots = malloc((size_t)per_round * slot_len * sizeof *slots);
    xbuf = malloc((size_t)nthreads * xrows * m * sizeof *xbuf);
    init = malloc(init_max * sizeof *init);
    group_start = malloc(((size_t)ngroups + 1) * sizeof *group_start);
    if (p->init == SOM_INIT_SAMPLE) scratch = malloc((size_t)n * sizeof *scratch);
    if (!store || !slots || !xbuf || !init || !group_start ||
        (p->init == SOM_INIT_SAMPLE && !scratch))
        goto nomem;
    need = 0;
    for (i = 0; i < nmaps; i++) {
        bmap *mp = maps + i;
        mp->w = store + need;
        need += (size_t)mp->ld * m;
        mp->total = store + need;
        need += mp->slot_len;
        mp->row = store + need;
        need += (size_t)(mp->size / 2 + 1);
        mp->num = store + need;
        need += (size_t)m;
        memset(mp->w, 0, (size_t)mp->ld * m * sizeof *mp->w);
        som_init_map(p, i, init, scratch);
        som_colmajor_weights(init, mp->size, m, mp->ld, mp->w);
    }
    som_split_maps(p->size, nmaps, ngroups, group_start);

    for (t = 1; t <= passes; t++) {
        for (i = 0; i < nmaps; i++) memset(maps[i].total, 0, maps[i].slot_len * sizeof(double));
        for (b0 = 0; b0 < nblocks; b0 += per_round) {
            const int64_t nb = b0 + per_round < nblocks ? per_round : nblocks - b0;
            const int64_t ntask = nb * ngroups;
            int64_t task;
            int q;
            (void)task;
#ifdef _OPENMP
#pragma omp parallel for schedule(dynamic, 1) num_threads(nthreads)
#endif
            for (task = 0; task < ntask; task++) {
#ifdef _OPENMP
                double *x = xbuf + (size_t)omp_get_thread_num() * xrows * m;
#else
                double *x = xbuf;
#endif
                const int64_t bi = task / ngroups;
                const int g = (int)(task % ngroups);
                block_sums(p, maps, group_start[g], group_start[g + 1], b0 + bi, x,
                           slots + (size_t)bi * slot_len);
            }
            /* add the slots to the totals in block order, the maps side by side */
#ifdef _OPENMP
#pragma omp parallel for schedule(dynamic, 1) num_threads(nthreads)
#endif
            for (q = 0; q < nmaps; q++) {
                bmap *mp = maps + q;
                int64_t bi;
                size_t e;
                for (bi = 0; bi < nb; bi++) {
                    const double *s = slots + (size_t)bi * slot_len + mp->slot_off;
                    for (e = 0; e < mp->slot_len; e++) mp->total[e] += s[e];
                }
            }
            t_done += nb;
            if (hooks && hooks->progress)
                hooks->progress(hooks->ud, (double)t_done / ((double)nblocks * passes));
            if (hooks && hooks->interrupted && hooks->interrupted(hooks->ud)) {
                rc = som_fail(st, SOM_ERR_INTERRUPTED, "training interrupted");
                goto done;
            }
        }
#ifdef _OPENMP
#pragma omp parallel for schedule(dynamic, 1) num_threads(nthreads)
#endif
        for (i = 0; i < nmaps; i++) smooth(p, maps + i, t);
    }
    for (i = 0; i < nmaps; i++) {
        int k;
        for (k = 0; k < m; k++)
            memcpy(weights[i] + (size_t)k * maps[i].size, maps[i].w + (size_t)k * maps[i].ld,
                   (size_t)maps[i].size * sizeof(double));
    }
    goto done;
nomem:
    rc = som_fail(st, SOM_ERR_NOMEM, "could not allocate memory for batch training");
done:
    free(maps);
    free(store);
    free(slots);
    free(xbuf);
    free(init);
    free(group_start);
    free(scratch);
    return rc;
}
