/* som_assess.c: quality of trained maps (qe, te) and the winner of every point.
 *
 * The points are cut into fixed blocks of SOM_ASSESS_BLOCK rows; threads take a block for a
 * span of maps, each (block, map) keeps its own partial sums, and each map's sums are added
 * in block order, so the figures do not depend on the number of threads or on how the work
 * was cut (the OpenCL trace adds the same blocks in the same order). Each block is
 * transposed into a small row-major buffer first, so the data are never copied whole. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "som_assess.h"
#include "som_host.h"
#include "som_math.h"
#include "som_omp.h"
#include "som_tile.h"
#include "som_work.h"

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
SOM_INLINE void assess_task_body(const int isa, const som_window *win, int m,
                                 const som_maps *maps, double *const *w, int **clusters,
                                 const som_detail *detail, const double *cw, int64_t lo,
                                 int64_t obase, int rows, int q0, int q1, double *x,
                                 double *dist, double *part)
{
    (void)isa; /* the same loops at every width */
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
SOM_VERSIONS(assess_task,
             (const som_window *win, int m, const som_maps *maps, double *const *w,
              int **clusters, const som_detail *detail, const double *cw, int64_t lo,
              int64_t obase, int rows, int q0, int q1, double *x, double *dist, double *part),
             (win, m, maps, w, clusters, detail, cw, lo, obase, rows, q0, q1, x, dist, part))


/* What an assessment gives (each NULL where not wanted): the figures of every map, its
 * clusters (to clusters, or to a sink a round at a time) and the per-row details. */
typedef struct {
    double *qe, *te, *sse;
    int **clusters;
    const som_detail *detail;
    som_sink *sink;
} assess_out;

/* An assessment under way: how its work is cut (assess_cut) and what it holds
 * (assess_open). Tasks are (block, span of maps), block-major: a round takes consecutive
 * blocks worth about round_units per thread, cut into spans of maps when there are too few
 * blocks for the threads; the interrupt hook runs between rounds. */
typedef struct {
    const som_data *d;
    const som_maps *maps;
    int nthreads, nspans;
    int64_t nblocks, per_round;
    size_t wtot;       /* reals of every map's tiled weights                               */
    size_t per_thread; /* reals of a thread's buffer: a block of rows, then SOM_PB rows of
                          distances to the largest map                                     */
    double *part;      /* per (block, map): the sums of distances, te and squared distances */
    double *wrow, **w; /* every map's tiled weights                                         */
    double *buf;       /* nthreads x per_thread                                              */
    double *cw;        /* the general path's column weights (1 where none), or NULL         */
    double *window;    /* a round's rows, read from the source                               */
    int *span_start;   /* nspans + 1: the spans of maps (som_split_maps)                     */
    int *sunk, **cl;   /* a round's clusters for the sink; where each map's clusters go      */
} assess_run;

/* 1. How the work is cut: blocks per round from the maps' cost, within a window for data
 * from a source, and the spans of maps. */
static void assess_cut(assess_run *a, double round_units)
{
    const int m = a->d->m;
    double block_cost = 0;
    int i, ldmax = 0;
    a->nblocks = (a->d->n + SOM_ASSESS_BLOCK - 1) / SOM_ASSESS_BLOCK;
    a->wtot = 0;
    for (i = 0; i < a->maps->nmaps; i++) {
        const int ld = som_ld(a->maps->size[i], SOM_TJB);
        a->wtot += (size_t)ld * m;
        block_cost += ((double)a->maps->size[i] * (m + 1) + SOM_POINT_UNITS) * SOM_ASSESS_BLOCK;
        if (ld > ldmax) ldmax = ld;
    }
    a->per_thread = (size_t)(SOM_ASSESS_BLOCK + SOM_PB) * m + (size_t)SOM_PB * ldmax;
    a->per_round = (int64_t)(round_units * a->nthreads / block_cost);
    if (a->per_round < 1) a->per_round = 1;
    if (a->per_round > a->nblocks) a->per_round = a->nblocks;
    a->per_round = som_window_blocks(a->d->src != NULL, m, a->per_round, SOM_ASSESS_BLOCK);
    a->nspans = som_map_spans(a->per_round, a->nthreads, a->maps->nmaps);
}

/* 2. Everything the assessment holds, then every map's weights tiled and the spans of
 * maps; clusters go to `clusters`, or with a sink to a round's buffer. */
static int assess_open(assess_run *a, int **clusters, som_sink *sink, som_status *st)
{
    const som_data *d = a->d;
    const int m = d->m, nmaps = a->maps->nmaps;
    const double round_rows = (double)a->per_round * SOM_ASSESS_BLOCK;
    size_t wtot = 0;
    int i;
    a->cl = clusters;
    a->part = malloc((size_t)a->nblocks * nmaps * 3 * sizeof *a->part);
    a->wrow = malloc(a->wtot * sizeof *a->wrow);
    a->w = malloc((size_t)nmaps * sizeof *a->w);
    a->buf = malloc((size_t)a->nthreads * a->per_thread * sizeof *a->buf);
    a->span_start = malloc(((size_t)a->nspans + 1) * sizeof *a->span_start);
    if (som_data_general(d) && (a->cw = malloc((size_t)m * sizeof *a->cw)) != NULL)
        for (i = 0; i < m; i++) a->cw[i] = d->col_w ? d->col_w[i] : 1;
    if (d->src) a->window = som_alloc(round_rows * m, sizeof *a->window);
    if (sink) { /* a round's clusters of every map, written out after the round */
        a->sunk = som_alloc(round_rows * nmaps, sizeof *a->sunk);
        a->cl = malloc((size_t)nmaps * sizeof *a->cl);
        if (a->sunk && a->cl)
            for (i = 0; i < nmaps; i++) a->cl[i] = a->sunk + (size_t)i * a->per_round * SOM_ASSESS_BLOCK;
    }
    if (!a->part || !a->wrow || !a->w || !a->buf || !a->span_start ||
        (som_data_general(d) && !a->cw) || (d->src && !a->window) ||
        (sink && (!a->sunk || !a->cl)))
        return som_fail(st, SOM_ERR_NOMEM, "could not allocate memory to assess the maps");
    for (i = 0; i < nmaps; i++) {
        const int size = a->maps->size[i], ld = som_ld(size, SOM_TJB);
        a->w[i] = a->wrow + wtot;
        memset(a->w[i], 0, (size_t)ld * m * sizeof(double));
        som_tile_colmajor(a->maps->weights[i], size, m, ld, a->w[i]);
        wtot += (size_t)ld * m;
    }
    som_split_maps(a->maps->size, nmaps, a->nspans, a->span_start);
    return SOM_OK;
}

/* 3. The round of blocks from b0: its rows (read from the source), every (block, span of
 * maps) task on the threads, the round's clusters to the sink. */
static int assess_round(assess_run *a, int64_t b0, const assess_out *out, som_status *st)
{
    const int64_t n = a->d->n, nblocks = a->nblocks;
    const int m = a->d->m, nmaps = a->maps->nmaps, nspans = a->nspans;
    const int64_t nb = b0 + a->per_round < nblocks ? a->per_round : nblocks - b0;
    const int64_t ntask = nb * nspans, first = b0 * SOM_ASSESS_BLOCK;
    const int64_t rows = (b0 + nb) * SOM_ASSESS_BLOCK < n ? nb * SOM_ASSESS_BLOCK : n - first;
    const int64_t obase = out->sink ? first : 0;
    som_window win;
    int64_t task;
    int i, rc;
    if ((rc = som_window_load(a->d, first, rows, a->window, &win, st))) return rc;
    SOM_PARALLEL_FOR(a->nthreads, dynamic, 1)
    for (task = 0; task < ntask; task++) {
        double *x = a->buf + (size_t)som_thread_num() * a->per_thread;
        const int64_t b = b0 + task / nspans, lo = b * SOM_ASSESS_BLOCK;
        const int g = (int)(task % nspans);
        const int brows = (int)(lo + SOM_ASSESS_BLOCK < n ? SOM_ASSESS_BLOCK : n - lo);
        assess_task(&win, m, a->maps, a->w, a->cl, out->detail, a->cw, lo, obase, brows,
                    a->span_start[g], a->span_start[g + 1], x,
                    x + (size_t)(SOM_ASSESS_BLOCK + SOM_PB) * m, a->part + (size_t)b * nmaps * 3);
    }
    for (i = 0; out->sink && i < nmaps; i++)
        if ((rc = out->sink->write(out->sink, i, first, rows, a->cl[i], st))) return rc;
    return SOM_OK;
}

/* 4. Every map's figures: its blocks' sums added in block order. */
static void assess_sums(const assess_run *a, const assess_out *out)
{
    const int nmaps = a->maps->nmaps;
    const double *part = a->part;
    int i;
    for (i = 0; i < nmaps; i++) {
        double sq = 0, stt = 0, ss = 0;
        int64_t b;
        for (b = 0; b < a->nblocks; b++) {
            sq += part[((size_t)b * nmaps + i) * 3];
            stt += part[((size_t)b * nmaps + i) * 3 + 1];
            ss += part[((size_t)b * nmaps + i) * 3 + 2];
        }
        if (out->qe) out->qe[i] = sq / (double)a->d->n;
        if (out->te) out->te[i] = stt / (double)a->d->n;
        if (out->sse) out->sse[i] = ss;
    }
}

static void assess_close(assess_run *a, const assess_out *out)
{
    free(a->window);
    free(a->sunk);
    if (a->cl != out->clusters) free(a->cl);
    free(a->cw);
    free(a->part);
    free(a->wrow);
    free(a->w);
    free(a->buf);
    free(a->span_start);
}

/* som_assess and som_assess_to: the steps above, the interrupt hook between rounds. */
static int assess(const som_data *d, const som_maps *maps, int nthreads, double round_units,
                  const som_hooks *hooks, const assess_out *out, som_status *st)
{
    assess_run a;
    int64_t b0;
    int rc;
    (void)som_isa(); /* the kernels' version, set before a thread reads it */
    if (d->n < 1 || d->m < 1 || maps->nmaps < 1)
        return som_fail(st, SOM_ERR_INVALID, "nothing to assess");
    memset(&a, 0, sizeof a);
    a.d = d;
    a.maps = maps;
    a.nthreads = som_threads(nthreads);
    assess_cut(&a, round_units > 0 ? round_units : SOM_ROUND_UNITS);
    rc = assess_open(&a, out->clusters, out->sink, st);
    for (b0 = 0; rc == SOM_OK && b0 < a.nblocks; b0 += a.per_round) {
        rc = assess_round(&a, b0, out, st);
        if (rc == SOM_OK && b0 + a.per_round < a.nblocks && hooks && hooks->interrupted &&
            hooks->interrupted(hooks->ud))
            rc = som_fail(st, SOM_ERR_INTERRUPTED, "interrupted");
    }
    if (rc == SOM_OK) assess_sums(&a, out);
    assess_close(&a, out);
    return rc;
}

int som_assess(const som_data *d, const som_maps *maps, int nthreads, double round_units,
               const som_hooks *hooks, double *qe, double *te, double *sse, int **clusters,
               const som_detail *detail, som_status *st)
{
    const assess_out out = {qe, te, sse, clusters, detail, NULL};
    return assess(d, maps, nthreads, round_units, hooks, &out, st);
}

int som_assess_to(const som_data *d, const som_maps *maps, int nthreads, double round_units,
                  const som_hooks *hooks, double *qe, double *te, double *sse, som_sink *sink,
                  som_status *st)
{
    const assess_out out = {qe, te, sse, NULL, NULL, sink};
    return assess(d, maps, nthreads, round_units, hooks, &out, st);
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
