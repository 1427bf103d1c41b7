/* som_assess.c: quality of trained maps (qe, te) and the winner of every point.
 *
 * The points are cut into fixed blocks of SOM_ASSESS_BLOCK rows; threads take a block for a
 * group of maps, each (block, map) keeps its own partial sums, and each map's sums are added
 * in block order, so the figures do not depend on the number of threads or on how the work
 * was cut (the OpenCL trace adds the same blocks in the same order). Each block is
 * transposed into a small row-major buffer first, so the data are never copied whole. */
#include <math.h>
#include <stdlib.h>
#include <string.h>


#include "som_core.h"
#include "som_tile.h"

/* The runner-up: the winner rule over d[0 .. size-1] without neuron c. */
SOM_INLINE int runner_up(const double *d, int size, int c)
{
    double bd = HUGE_VAL;
    int s = c == 0 && size > 1 ? 1 : 0, j;
    for (j = 0; j < size; j++) {
        const int lt = SOM_CLOSER(d[j], bd) && j != c;
        s = lt ? j : s;
        bd = lt ? d[j] : bd;
    }
    return s;
}

/* Where a map's per-row results go (each may be NULL): the winner (1-based), and the
 * details of som_assess. */
typedef struct {
    int *cluster, *second;
    double *best, *next;
} row_out;

/* Rows lo .. lo + rows - 1 (in x, tiled: som_tile_rows) against one map's tiled weights:
 * the winner, its squared distance and the runner-up of each row (the winner rule),
 * summed into qe and te in row order, per-row results into out. cw: the general path's
 * column weights (a row's qe is then rescaled by m / its observed values), or NULL. dist
 * holds SOM_PB rows of ld distances. */
SOM_INLINE void assess_rows(const double *x, int rows, const double *w, int size, int ld,
                            const int m, const double *cw, int64_t lo, const row_out *out,
                            double *sq, double *st, double *ss, double *dist)
{
    int i, p, j, jj;
    for (i = 0; i < rows; i += SOM_PB) {
        for (j = 0; j < size; j += SOM_TJB) {
            double acc[SOM_PB][SOM_TJB];
            if (cw) som_tile_d2_general(x + (size_t)i * m, w, ld, j, m, cw, acc);
            else som_tile_d2(x + (size_t)i * m, w, ld, j, m, acc);
            for (p = 0; p < SOM_PB; p++)
                for (jj = 0; jj < SOM_TJB; jj++) dist[(size_t)p * ld + j + jj] = acc[p][jj];
        }
        for (p = 0; p < SOM_PB && i + p < rows; p++) {
            const double *dp = dist + (size_t)p * ld;
            const int64_t row = lo + i + p;
            double bd = HUGE_VAL, scale = 1;
            int c = 0, s;
            SOM_PICK(dp, size, 0, c, bd);
            s = runner_up(dp, size, c);
            if (cw) { /* rescaled to all m columns */
                const int seen = som_observed(x + (size_t)(i + p) * m, m);
                scale = seen ? (double)m / seen : 0;
            }
            *sq += cw ? sqrt(scale * bd) : sqrt(bd);
            *ss += bd;
            *st += som_ring_dist(c, s, size) > 1;
            if (out->cluster) out->cluster[row] = c + 1;
            if (out->second) out->second[row] = s + 1;
            if (out->best) out->best[row] = sqrt(scale * bd);
            if (out->next) out->next[row] = size > 1 ? sqrt(scale * dp[s]) : NAN;
        }
    }
}

/* One task: a block of rows (transposed once) against maps q0 .. q1-1, each map's sums into
 * part[3 * map .. 3 * map + 2]: distances, topographic errors, squared distances. A constant m for the common small dimensions; also
 * compiled for AVX2 where the compiler can pick it at load time. */
SOM_TARGET_CLONES static void assess_task(const som_window *win, int m, const som_maps *maps,
                                          double *const *w, int **clusters,
                                          const som_detail *detail, const double *cw,
                                          int64_t lo, int64_t obase, int rows, int q0,
                                          int q1, double *x, double *dist, double *part)
{
    int q;
    som_tile_rows(win->x, win->ld, m, lo - win->first, rows, x);
    for (q = q0; q < q1; q++) {
        const int size = maps->size[q], ld = som_ld(size, SOM_TJB);
        double *sq = part + 3 * (size_t)q, *st = sq + 1, *ss = sq + 2;
        row_out out;
        out.cluster = clusters ? clusters[q] : NULL;
        out.second = detail && detail->second ? detail->second[q] : NULL;
        out.best = detail && detail->best ? detail->best[q] : NULL;
        out.next = detail && detail->next ? detail->next[q] : NULL;
        *sq = *st = *ss = 0;
        if (cw) { /* the general path: not unrolled by m */
            assess_rows(x, rows, w[q], size, ld, m, cw, lo - obase, &out, sq, st, ss, dist);
            continue;
        }
        switch (m) {
        case 1: assess_rows(x, rows, w[q], size, ld, 1, NULL, lo - obase, &out, sq, st, ss, dist); break;
        case 2: assess_rows(x, rows, w[q], size, ld, 2, NULL, lo - obase, &out, sq, st, ss, dist); break;
        case 3: assess_rows(x, rows, w[q], size, ld, 3, NULL, lo - obase, &out, sq, st, ss, dist); break;
        case 4: assess_rows(x, rows, w[q], size, ld, 4, NULL, lo - obase, &out, sq, st, ss, dist); break;
        case 8: assess_rows(x, rows, w[q], size, ld, 8, NULL, lo - obase, &out, sq, st, ss, dist); break;
        case 16: assess_rows(x, rows, w[q], size, ld, 16, NULL, lo - obase, &out, sq, st, ss, dist); break;
        default: assess_rows(x, rows, w[q], size, ld, m, NULL, lo - obase, &out, sq, st, ss, dist);
        }
    }
}

/* som_assess, with the clusters of every map to a sink instead (NULL: to clusters). */
static int assess(const som_data *d, const som_maps *maps, int nthreads, double round_units,
                  const som_hooks *hooks, double *qe, double *te, double *sse, int **clusters,
                  const som_detail *detail, som_sink *sink, som_status *st)
{
    const int64_t n = d->n;
    const int m = d->m, nmaps = maps->nmaps;
    const int64_t nblocks = (n + SOM_ASSESS_BLOCK - 1) / SOM_ASSESS_BLOCK;
    double *part = NULL, *wrow = NULL, *buf = NULL, *cw = NULL;
    double **w = NULL;
    size_t wtot = 0, per_thread;
    int64_t b0, per_round;
    int ldmax = 0;
    double block_cost = 0;
    int i, rc = SOM_OK, ngroups;
    int *group_start = NULL, *sunk = NULL, **cl = clusters;
    double *window = NULL;

    if (n < 1 || m < 1 || nmaps < 1)
        return som_fail(st, SOM_ERR_INVALID, "nothing to assess");
    if (round_units <= 0) round_units = SOM_ROUND_UNITS;
    nthreads = som_threads(nthreads);
    for (i = 0; i < nmaps; i++) {
        const int ld = som_ld(maps->size[i], SOM_TJB);
        wtot += (size_t)ld * m;
        block_cost += ((double)maps->size[i] * (m + 1) + SOM_POINT_UNITS) * SOM_ASSESS_BLOCK;
        if (ld > ldmax) ldmax = ld;
    }
    per_thread = (size_t)(SOM_ASSESS_BLOCK + SOM_PB) * m + (size_t)SOM_PB * ldmax;
    per_round = (int64_t)(round_units * nthreads / block_cost);
    if (per_round < 1) per_round = 1;
    if (per_round > nblocks) per_round = nblocks;
    per_round = som_window_blocks(d->src != NULL, m, per_round, SOM_ASSESS_BLOCK);
    ngroups = som_map_groups(per_round, nthreads, nmaps);
    part = malloc((size_t)nblocks * nmaps * 3 * sizeof *part);
    wrow = malloc(wtot * sizeof *wrow);
    w = malloc((size_t)nmaps * sizeof *w);
    /* per thread: a block of rows, then SOM_PB rows of distances to the largest map */
    buf = malloc((size_t)nthreads * per_thread * sizeof *buf);
    group_start = malloc(((size_t)ngroups + 1) * sizeof *group_start);
    if (som_data_general(d) && (cw = malloc((size_t)m * sizeof *cw)) != NULL)
        for (i = 0; i < m; i++) cw[i] = d->col_w ? d->col_w[i] : 1;
    if (d->src) window = som_alloc((double)per_round * SOM_ASSESS_BLOCK * m, sizeof *window);
    if (sink) { /* a round's clusters of every map, written out after the round */
        sunk = som_alloc((double)per_round * SOM_ASSESS_BLOCK * nmaps, sizeof *sunk);
        cl = malloc((size_t)nmaps * sizeof *cl);
        if (sunk && cl)
            for (i = 0; i < nmaps; i++) cl[i] = sunk + (size_t)i * per_round * SOM_ASSESS_BLOCK;
    }
    if (!part || !wrow || !w || !buf || !group_start || (som_data_general(d) && !cw) ||
        (d->src && !window) || (sink && (!sunk || !cl))) {
        rc = som_fail(st, SOM_ERR_NOMEM, "could not allocate memory to assess the maps");
        goto done;
    }
    wtot = 0;
    for (i = 0; i < nmaps; i++) {
        const int size = maps->size[i], ld = som_ld(size, SOM_TJB);
        w[i] = wrow + wtot;
        memset(w[i], 0, (size_t)ld * m * sizeof(double));
        som_tile_colmajor(maps->weights[i], size, m, ld, w[i]);
        wtot += (size_t)ld * m;
    }
    som_split_maps(maps->size, nmaps, ngroups, group_start);

    /* tasks are (block, group of maps), block-major: a round takes consecutive blocks worth
     * about round_units per thread, cut into groups of maps when there are too few blocks
     * for the threads; the interrupt hook runs between rounds */
    for (b0 = 0; b0 < nblocks; b0 += per_round) {
        const int64_t nb = b0 + per_round < nblocks ? per_round : nblocks - b0;
        const int64_t ntask = nb * ngroups, first = b0 * SOM_ASSESS_BLOCK;
        const int64_t rows = (b0 + nb) * SOM_ASSESS_BLOCK < n ? nb * SOM_ASSESS_BLOCK : n - first;
        const int64_t obase = sink ? first : 0;
        som_window win;
        int64_t task;
        if ((rc = som_window_load(d, first, rows, window, &win, st))) goto done;
        SOM_PARALLEL_FOR(nthreads, dynamic, 1)
        for (task = 0; task < ntask; task++) {
            double *x = buf + (size_t)som_thread_num() * per_thread;
            const int64_t b = b0 + task / ngroups, lo = b * SOM_ASSESS_BLOCK;
            const int g = (int)(task % ngroups);
            const int brows = (int)(lo + SOM_ASSESS_BLOCK < n ? SOM_ASSESS_BLOCK : n - lo);
            assess_task(&win, m, maps, w, cl, detail, cw, lo, obase, brows, group_start[g],
                        group_start[g + 1], x, x + (size_t)(SOM_ASSESS_BLOCK + SOM_PB) * m,
                        part + (size_t)b * nmaps * 3);
        }
        for (i = 0; sink && i < nmaps; i++)
            if ((rc = sink->write(sink, i, first, rows, cl[i], st))) goto done;
        if (b0 + nb < nblocks && hooks && hooks->interrupted && hooks->interrupted(hooks->ud)) {
            rc = som_fail(st, SOM_ERR_INTERRUPTED, "interrupted");
            goto done;
        }
    }
    for (i = 0; i < nmaps; i++) {
        double sq = 0, stt = 0, ss = 0;
        int64_t b;
        for (b = 0; b < nblocks; b++) {
            sq += part[((size_t)b * nmaps + i) * 3];
            stt += part[((size_t)b * nmaps + i) * 3 + 1];
            ss += part[((size_t)b * nmaps + i) * 3 + 2];
        }
        if (qe) qe[i] = sq / (double)n;
        if (te) te[i] = stt / (double)n;
        if (sse) sse[i] = ss;
    }

done:
    free(window);
    free(sunk);
    if (cl != clusters) free(cl);
    free(cw);
    free(part);
    free(wrow);
    free(w);
    free(buf);
    free(group_start);
    return rc;
}

int som_assess(const som_data *d, const som_maps *maps, int nthreads, double round_units,
               const som_hooks *hooks, double *qe, double *te, double *sse, int **clusters,
               const som_detail *detail, som_status *st)
{
    return assess(d, maps, nthreads, round_units, hooks, qe, te, sse, clusters, detail, NULL,
                  st);
}

int som_assess_to(const som_data *d, const som_maps *maps, int nthreads, double round_units,
                  const som_hooks *hooks, double *qe, double *te, double *sse, som_sink *sink,
                  som_status *st)
{
    return assess(d, maps, nthreads, round_units, hooks, qe, te, sse, NULL, NULL, sink, st);
}

int som_qe_maps(const som_data *d, const som_maps *maps, int nthreads, double *qe,
                som_status *st)
{
    return som_assess(d, maps, nthreads, 0, NULL, qe, NULL, NULL, NULL, NULL, st);
}

void som_assess_plan(const som_family *f, int nthreads, som_plan *plan)
{
    const double nblocks = (double)((f->n + SOM_ASSESS_BLOCK - 1) / SOM_ASSESS_BLOCK);
    const double ldmax = som_ld(f->size_max, SOM_TJB);
    nthreads = som_threads(nthreads);
    som_plan_add(plan, "assessment: block sums", nblocks * f->nmaps * 3 * sizeof(double),
                 SOM_HOST);
    som_plan_add(plan, "assessment: tiled weights",
                 ((f->size_sum + (SOM_TJB - 1) * (double)f->nmaps) * f->m) * sizeof(double) +
                     f->nmaps * sizeof(double *),
                 SOM_HOST);
    if (f->general) som_plan_add(plan, "assessment: column weights", f->m * sizeof(double), SOM_HOST);
    som_plan_add(plan, "assessment: rows and distances per thread",
                 nthreads * ((double)(SOM_ASSESS_BLOCK + SOM_PB) * f->m + SOM_PB * ldmax) *
                     sizeof(double),
                 SOM_HOST);
    if (f->sourced)
        som_plan_add(plan, "assessment: a round's rows, read from the source",
                     SOM_WINDOW_BYTES, SOM_HOST);
}
