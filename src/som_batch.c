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


#include "som_core.h"
#include "som_tile.h"

typedef struct {
    int size, ld;      /* neurons, and neurons rounded up to whole tiles (som_tile_ld)  */
    double *w;         /* weights, w[k * ld + j]; the padding stays 0                    */
    double *total;     /* the pass's sums: S[c * m + k], then the counts n[c]            */
    double *row;       /* the pass's factors by ring distance, size / 2 + 1              */
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

/* Rows of a block (row-major in x, padded to whole tiles) against maps q0 .. q1-1: each
 * row's winner into win[q] (indexed from the block's first row, offset). Also compiled for
 * AVX2 where the compiler can pick the version at load time (the same operations, 4 doubles
 * at a time: -ffp-contract=off keeps them unfused). */
SOM_TARGET_CLONES static void segment_winners(const bmap *maps, int q0, int q1, int m,
                                              const double *x, int rows, int offset,
                                              int *const *win)
{
    const int padded = (rows + SOM_PB - 1) / SOM_PB * SOM_PB;
    int i, q, r;
    for (q = q0; q < q1; q++) {
        const bmap *mp = maps + q;
        int *wq = win[q] + offset;
        for (i = 0; i < padded; i += SOM_PB) {
            int c[SOM_PB];
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
            for (r = 0; r < SOM_PB && i + r < rows; r++) wq[i + r] = c[r];
        }
    }
}

/* A block's sums (rows row-major in x), every map at once, each element in row order: into
 * the block's slot, S[c * m + k] then the counts n[c] per map. Each row is read once. */
static void block_sums(const bmap *maps, int nmaps, int m, const double *x, int rows,
                       int *const *win, double *slot)
{
    int i, q, k;
    for (q = 0; q < nmaps; q++) memset(slot + maps[q].slot_off, 0, maps[q].slot_len * sizeof *slot);
    for (i = 0; i < rows; i++) {
        const double *xi = x + (size_t)i * m;
        for (q = 0; q < nmaps; q++) {
            const int c = win[q][i];
            double *S = slot + maps[q].slot_off, *Sc = S + (size_t)c * m;
            SOM_SIMD /* dimensions side by side; each still in row order */
            for (k = 0; k < m; k++) Sc[k] += xi[k];
            S[(size_t)maps[q].size * m + c] += 1;
        }
    }
}

/* Neurons j0 .. j1-1 of a map from the pass's totals and factors (mp->row):
 * W_j = sum_c h(d(c, j)) S_c / sum_c h(d(c, j)) n_c, summed over c in order; num holds m
 * doubles of scratch. */
static void smooth(const som_problem *p, bmap *mp, int j0, int j1, double *num)
{
    const int m = p->data.m, size = mp->size;
    const double *S = mp->total, *cnt = S + (size_t)size * m;
    int j, c, k;
    for (j = j0; j < j1; j++) {
        double den = 0;
        for (k = 0; k < m; k++) num[k] = 0;
        for (c = 0; c < size; c++) {
            const double h = mp->row[som_ring_dist(c, j, size)];
            const double *Sc = S + (size_t)c * m;
            den += h * cnt[c];
            for (k = 0; k < m; k++) num[k] += h * Sc[k];
        }
        if (den > 0)
            for (k = 0; k < m; k++) mp->w[(size_t)k * mp->ld + j] = num[k] / den;
    }
}

/* The qe of every map after pass t into the trace, as som_assess computes it. */
static int trace_pass(const som_problem *p, const bmap *maps, int t, int nthreads,
                      som_status *st)
{
    const int m = p->data.m, nmaps = p->nmaps;
    size_t tot = 0;
    double *col, *qe;
    const double **w;
    som_maps all;
    int i, k, rc;
    for (i = 0; i < nmaps; i++) tot += (size_t)maps[i].size * m;
    col = malloc(tot * sizeof *col);
    qe = malloc((size_t)nmaps * sizeof *qe);
    w = malloc((size_t)nmaps * sizeof *w);
    if (!col || !qe || !w) {
        free(col);
        free(qe);
        free(w);
        return som_fail(st, SOM_ERR_NOMEM, "could not allocate memory for the trace");
    }
    tot = 0;
    for (i = 0; i < nmaps; i++) {
        for (k = 0; k < m; k++)
            memcpy(col + tot + (size_t)k * maps[i].size, maps[i].w + (size_t)k * maps[i].ld,
                   (size_t)maps[i].size * sizeof *col);
        w[i] = col + tot;
        tot += (size_t)maps[i].size * m;
    }
    all.nmaps = nmaps;
    all.size = p->size;
    all.weights = w;
    rc = som_qe_maps(&p->data, &all, nthreads, qe, st);
    if (rc == SOM_OK)
        for (i = 0; i < nmaps; i++) p->trace[(size_t)i * (p->iter_max - 1) + (t - 1)] = qe[i];
    free(col);
    free(qe);
    free(w);
    return rc;
}

/* Neurons per smoothing task: maps are cut into runs of this many neurons. */
#define SOM_SMOOTH_RUN 32

int som_cpu_batch(const som_problem *p, double *const *weights, int nthreads,
                  double round_units, const som_hooks *hooks, som_status *st)
{
    const int m = p->data.m, nmaps = p->nmaps, passes = p->iter_max - 1;
    const int64_t n = p->data.n;
    int64_t B, nblocks; /* set once the problem is checked: B may be 0 before */
    bmap *maps = NULL;
    double *store = NULL, *slots = NULL, *xr = NULL, *init = NULL, *num = NULL;
    double block_cost = 0;
    int *wins = NULL, **win = NULL, *group_start = NULL, *runs = NULL;
    uint32_t *scratch = NULL;
    size_t need = 0, slot_len = 0, init_max = 0, seg_rows, bpad;
    int64_t per_round, b0, t_done = 0;
    int i, t, rc = SOM_OK, ngroups, nseg, nruns = 0, whole;

    if ((rc = som_check_problem(p, st)) != SOM_OK) return rc;
    /* som_check_problem checks the block size of batch problems only */
    if (p->batch_block < 1) return som_fail(st, SOM_ERR_INVALID, "invalid batch block size");
    B = p->batch_block < n ? p->batch_block : n;
    nblocks = (n + B - 1) / B;
    if (round_units <= 0) round_units = SOM_ROUND_UNITS;
    if (nthreads > som_max_threads()) nthreads = som_max_threads();
    if (nthreads < 1) nthreads = 1;

    maps = calloc((size_t)nmaps, sizeof *maps);
    if (!maps) goto nomem;
    for (i = 0; i < nmaps; i++) {
        bmap *mp = maps + i;
        mp->size = p->size[i];
        mp->ld = som_tile_ld(p->size[i]);
        mp->slot_len = (size_t)mp->size * (m + 1);
        mp->slot_off = slot_len;
        slot_len += mp->slot_len;
        need += (size_t)mp->ld * m + mp->slot_len + (size_t)(mp->size / 2 + 1);
        if ((size_t)mp->size * m > init_max) init_max = (size_t)mp->size * m;
        block_cost += ((double)mp->size * (m + 1) + SOM_POINT_UNITS) * (double)B;
        nruns += (mp->size + SOM_SMOOTH_RUN - 1) / SOM_SMOOTH_RUN;
    }
    /* a round: enough blocks for its work; when there are fewer blocks than threads, the
     * maps are cut into groups and the blocks' rows into segments, so all threads work */
    per_round = (int64_t)(round_units * nthreads / block_cost);
    if (per_round < 1) per_round = 1;
    if (per_round > nblocks) per_round = nblocks;
    ngroups = som_map_groups(per_round, nthreads, nmaps);
    nseg = (int)((2 * (int64_t)nthreads + per_round * ngroups - 1) / (per_round * ngroups));
    seg_rows = (size_t)((B + nseg - 1) / nseg + SOM_PB - 1) / SOM_PB * SOM_PB;
    if (seg_rows < 64) seg_rows = 64;
    nseg = (int)((B + (int64_t)seg_rows - 1) / (int64_t)seg_rows);
    whole = ngroups == 1 && nseg == 1;

    store = malloc(need * sizeof *store);
    slots = malloc((size_t)per_round * slot_len * sizeof *slots);
    bpad = (size_t)((B + SOM_PB - 1) / SOM_PB * SOM_PB);
    xr = malloc((size_t)per_round * bpad * m * sizeof *xr); /* the round's blocks, row-major */
    num = malloc((size_t)nthreads * m * sizeof *num);
    init = malloc(init_max * sizeof *init);
    group_start = malloc(((size_t)ngroups + 1) * sizeof *group_start);
    wins = malloc((size_t)per_round * nmaps * B * sizeof *wins);
    win = malloc((size_t)per_round * nmaps * sizeof *win);
    runs = malloc((size_t)nruns * 2 * sizeof *runs);
    if (p->init == SOM_INIT_SAMPLE) scratch = malloc((size_t)n * sizeof *scratch);
    if (!store || !slots || !xr || !num || !init || !group_start || !wins || !win || !runs ||
        (p->init == SOM_INIT_SAMPLE && !scratch))
        goto nomem;
    need = 0;
    nruns = 0;
    for (i = 0; i < nmaps; i++) {
        bmap *mp = maps + i;
        int j;
        mp->w = store + need;
        need += (size_t)mp->ld * m;
        mp->total = store + need;
        need += mp->slot_len;
        mp->row = store + need;
        need += (size_t)(mp->size / 2 + 1);
        memset(mp->w, 0, (size_t)mp->ld * m * sizeof *mp->w);
        som_init_map(p, i, init, scratch);
        som_colmajor_weights(init, mp->size, m, mp->ld, mp->w);
        for (j = 0; j < mp->size; j += SOM_SMOOTH_RUN) { /* smoothing tasks: (map, first j) */
            runs[2 * nruns] = i;
            runs[2 * nruns++ + 1] = j;
        }
    }
    for (i = 0; i < per_round * nmaps; i++) win[i] = wins + (size_t)i * B;
    som_split_maps(p->size, nmaps, ngroups, group_start);

    for (t = 1; t <= passes; t++) {
        for (i = 0; i < nmaps; i++) memset(maps[i].total, 0, maps[i].slot_len * sizeof(double));
        for (b0 = 0; b0 < nblocks; b0 += per_round) {
            const int64_t nb = b0 + per_round < nblocks ? per_round : nblocks - b0;
            const int64_t ntask = nb * ngroups * nseg;
            int64_t task;
            int q;
            /* when blocks are shared between tasks: the round's blocks, row-major, a segment
             * of rows at a time (static schedules keep a block with one thread, and in its
             * cache, through the steps) */
#ifdef _OPENMP
#pragma omp parallel for schedule(static, 1) num_threads(nthreads)
#endif
            for (task = 0; task < (whole ? 0 : nb * nseg); task++) {
                const int64_t bi = task / nseg, lo = (b0 + bi) * B, s = task % nseg;
                const int64_t rows = (lo + B < n ? B : n - lo) - s * (int64_t)seg_rows;
                if (rows > 0)
                    som_tile_rows(p->data.x, n, m, lo + s * (int64_t)seg_rows,
                                  (int)(rows < (int64_t)seg_rows ? rows : (int64_t)seg_rows),
                                  xr + ((size_t)bi * bpad + (size_t)s * seg_rows) * m);
            }
            /* the winners: (block, group of maps, segment of rows) */
#ifdef _OPENMP
#pragma omp parallel for schedule(static, 1) num_threads(nthreads)
#endif
            for (task = 0; task < ntask; task++) {
                const int64_t bi = task / (ngroups * nseg), lo = (b0 + bi) * B;
                const int g = (int)(task / nseg % ngroups), s = (int)(task % nseg);
                const int64_t rows = (lo + B < n ? B : n - lo) - (int64_t)s * seg_rows;
                if (whole) /* the task holds the whole block: transpose it here */
                    som_tile_rows(p->data.x, n, m, lo, (int)rows, xr + (size_t)bi * bpad * m);
                if (rows > 0)
                    segment_winners(maps, group_start[g], group_start[g + 1], m,
                                    xr + ((size_t)bi * bpad + (size_t)s * seg_rows) * m,
                                    (int)(rows < (int64_t)seg_rows ? rows : (int64_t)seg_rows),
                                    (int)(s * seg_rows), win + bi * nmaps);
                if (whole) /* the task holds the whole block: its sums now, rows in cache */
                    block_sums(maps, nmaps, m, xr + (size_t)bi * bpad * m, (int)rows,
                               win + bi * nmaps, slots + (size_t)bi * slot_len);
            }
            /* otherwise each block's sums, all maps at once, in row order into its slot */
            if (!whole) {
#ifdef _OPENMP
#pragma omp parallel for schedule(static, 1) num_threads(nthreads)
#endif
                for (task = 0; task < nb; task++) {
                    const int64_t lo = (b0 + task) * B;
                    block_sums(maps, nmaps, m, xr + (size_t)task * bpad * m,
                               (int)(lo + B < n ? B : n - lo), win + task * nmaps,
                               slots + (size_t)task * slot_len);
                }
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
            if (hooks && hooks->interrupted && hooks->interrupted(hooks->ud)) {
                rc = som_fail(st, SOM_ERR_INTERRUPTED, "training interrupted");
                goto done;
            }
            if (hooks && hooks->progress)
                hooks->progress(hooks->ud, (double)t_done / ((double)nblocks * passes));
        }
        /* the pass's factors, then every neuron, in runs of neurons side by side */
        for (i = 0; i < nmaps; i++) som_neighbourhood_row(p, t, maps[i].size / 2, maps[i].row);
#ifdef _OPENMP
#pragma omp parallel for schedule(dynamic, 1) num_threads(nthreads)
#endif
        for (i = 0; i < nruns; i++) {
            double *nb = num + (size_t)som_thread_num() * m;
            bmap *mp = maps + runs[2 * i];
            const int j0 = runs[2 * i + 1];
            smooth(p, mp, j0, j0 + SOM_SMOOTH_RUN < mp->size ? j0 + SOM_SMOOTH_RUN : mp->size,
                   nb);
        }
        if (p->trace && (rc = trace_pass(p, maps, t, nthreads, st)) != SOM_OK) goto done;
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
    free(xr);
    free(num);
    free(init);
    free(group_start);
    free(wins);
    free(win);
    free(runs);
    free(scratch);
    return rc;
}
