/* som_cpu_batch_t.h: the batch rule on the CPU (the engines som_cpu_batch and, in single
 * precision, som_cpu_batch_f: som_real.h), written once and included by som_cpu_batch.c
 * and som_cpu_batch_f.c. Each pass t finds
 * every point's winner with the current weights, sums the points won by each neuron (S_c,
 * n_c), then sets W_j = sum_c h_t(d(c, j)) S_c / sum_c h_t(d(c, j)) n_c (a neuron whose
 * denominator is zero keeps its weights).
 *
 * Parallel over points: the points are cut into blocks of p->batch_block; a block is
 * transposed once and serves every map, so each point is read once per pass. Each block's
 * sums are taken in point order into a slot of its own, and the slots are added pairwise in
 * block order (som_math.h: SOM_PAIR_PUSH), so the result is the same whatever the threads,
 * slices and future workers. A slice is a round of blocks worth about round_units of work
 * per thread. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "som_cpu.h"
#include "som_real.h"

/* Neurons per smoothing task: maps are cut into runs of this many neurons. */
#define SOM_SMOOTH_RUN 32

#if PREC_BT % PREC_PB != 0
#error "a batch tile (PREC_BT points) holds whole tiles of the scalar search (PREC_PB)"
#endif

typedef struct {
    int size, ld;      /* neurons, and neurons rounded up to whole tiles (SOM_TJB)      */
    som_real *w;       /* weights, w[k * ld + j]; the padding stays 0                    */
    som_real *total;   /* the pass's sums: S[c * m + k], then the counts n[c]            */
    som_real *stack;   /* the pairwise partial sums, alike, one per level (cut.levels)    */
    size_t slot_off;   /* where this map's sums start in a block's slot                  */
    size_t slot_len;   /* size * som_slot_width(m, general)                              */
} batch_map;

/* How a pass is cut: blocks of B rows, per_round blocks per slice; when a round has fewer
 * blocks than threads, the maps are cut into spans and the blocks' rows into segments. */
typedef struct {
    int64_t B, nblocks, per_round;
    int nspans, nseg, whole, levels; /* levels: of the pairwise sums (som_pair_levels) */
    size_t seg_rows, bpad;
} batch_cut;

typedef struct {
    const som_problem *p;
    int threads;
    som_real *cw;                    /* the general path: m column weights; else NULL */
    batch_cut cut;
    batch_map *maps;
    size_t slot_len;                 /* all maps' sums, one block                   */
    som_real *store, *slots, *xr, *num;
    double *window;                  /* data from a source: a round's rows          */
    /* the blocks whose sums are added up as one: the pass's [0, nblocks), or for a future
     * worker (som_cpu_batch_shards) each aligned node of its range [., range_end) in turn,
     * each node's sums out to node_out (node_i of them so far) */
    int64_t node0, node1, range_end, node_i;
    double *node_out;
    int64_t *push_k;                 /* a round's blocks: each one's index in its node  */
    int *node_end;                   /* ... and whether it ends its node              */
    int *wins, **win, *span_start, *runs, nruns;
} batch_state;

#include "som_cpu_batch_cut_t.h"    /* how a pass is cut; the memory plan          */
#include "som_cpu_batch_search_t.h" /* winners of a tile; a block's sums           */

SOM_PAIR_PUSH(pair_push, som_real, )
SOM_PAIR_TOTAL(pair_total, som_real, )

/* Where the round's blocks b0 .. b0 + nb - 1 go in the pairwise sums: each one's index in
 * the node it belongs to, and whether it ends it (the next node then starts after it). */
static void plan_pushes(batch_state *s, int64_t b0, int64_t nb)
{
    int64_t bi;
    for (bi = 0; bi < nb; bi++) {
        const int64_t b = b0 + bi;
        s->push_k[bi] = b - s->node0;
        s->node_end[bi] = b + 1 == s->node1;
        if (s->node_end[bi] && s->node_out && s->node1 < s->range_end) {
            s->node0 = s->node1;
            s->node1 = s->node0 + ((int64_t)1 << som_pair_node((som_count)s->node0,
                                                             (som_count)s->range_end));
        }
    }
}

/* The four steps of a round of blocks b0 .. b0 + nb - 1 (each one parallel region). */

/* 1. When tasks share blocks: the round's rows, row-major into xr, a segment of rows at a
 * time (static schedules keep a block with one thread, and in its cache, through the
 * steps). */
static void round_rows(batch_state *s, const som_window *win, int64_t b0, int64_t nb)
{
    const batch_cut *c = &s->cut;
    const int64_t n = s->p->data.n, B = c->B;
    const int m = s->p->data.m, nth = s->threads, nseg = c->nseg;
    const size_t seg_rows = c->seg_rows, bpad = c->bpad;
    int64_t task;
    (void)nth; /* unused without OpenMP */
    SOM_PARALLEL_FOR(nth, static, 1)
    for (task = 0; task < (c->whole ? 0 : nb * nseg); task++) {
        const int64_t bi = task / nseg, lo = (b0 + bi) * B, sg = task % nseg;
        const int64_t rows = (lo + B < n ? B : n - lo) - sg * (int64_t)seg_rows;
        if (rows > 0)
            PREC_TILE_ROWS(win->x, win->ld, m, lo - win->first + sg * (int64_t)seg_rows,
                           (int)(rows < (int64_t)seg_rows ? rows : (int64_t)seg_rows),
                           s->xr + ((size_t)bi * bpad + (size_t)sg * seg_rows) * m);
    }
}

/* 2. The winners: a task per (block, span of maps, segment of rows); a task that holds
 * the whole block transposes it first and takes its sums after, its rows in cache. */
static void round_winners(batch_state *s, const som_window *win, int64_t b0, int64_t nb)
{
    const batch_cut *c = &s->cut;
    const int64_t n = s->p->data.n, B = c->B, ntask = nb * c->nspans * c->nseg;
    const int m = s->p->data.m, nmaps = s->p->nmaps, nth = s->threads, ng = c->nspans;
    const int nseg = c->nseg, whole = c->whole;
    const size_t seg_rows = c->seg_rows, bpad = c->bpad, slot_len = s->slot_len;
    int64_t task;
    (void)nth;
    SOM_PARALLEL_FOR(nth, static, 1)
    for (task = 0; task < ntask; task++) {
        const int64_t bi = task / (ng * nseg), lo = (b0 + bi) * B;
        const int g = (int)(task / nseg % ng), sg = (int)(task % nseg);
        const int64_t rows = (lo + B < n ? B : n - lo) - (int64_t)sg * seg_rows;
        if (whole)
            PREC_TILE_ROWS(win->x, win->ld, m, lo - win->first, (int)rows,
                           s->xr + (size_t)bi * bpad * m);
        if (rows > 0)
            segment_winners(s->maps, s->span_start[g], s->span_start[g + 1], m, s->cw,
                            s->xr + ((size_t)bi * bpad + (size_t)sg * seg_rows) * m,
                            (int)(rows < (int64_t)seg_rows ? rows : (int64_t)seg_rows),
                            (int)(sg * seg_rows), s->win + bi * nmaps);
        if (whole)
            block_sums(s->maps, nmaps, m, s->cw != NULL, s->xr + (size_t)bi * bpad * m,
                       (int)rows, s->win + bi * nmaps, s->slots + (size_t)bi * slot_len);
    }
}

/* 3. When tasks share blocks: each block's sums, all maps at once, in row order into its
 * slot. */
static void round_sums(batch_state *s, int64_t b0, int64_t nb)
{
    const batch_cut *c = &s->cut;
    const int64_t n = s->p->data.n, B = c->B;
    const int m = s->p->data.m, nmaps = s->p->nmaps, nth = s->threads;
    int64_t task;
    (void)nth;
    if (c->whole) return;
    SOM_PARALLEL_FOR(nth, static, 1)
    for (task = 0; task < nb; task++) {
        const int64_t lo = (b0 + task) * B;
        block_sums(s->maps, nmaps, m, s->cw != NULL, s->xr + (size_t)task * c->bpad * m,
                   (int)(lo + B < n ? B : n - lo), s->win + task * nmaps,
                   s->slots + (size_t)task * s->slot_len);
    }
}

/* 4. The slots added pairwise in block order (plan_pushes), each node's total at its end
 * into the pass's totals or a future worker's node_out, the maps side by side. */
static void round_push(batch_state *s, int64_t nb)
{
    const int nmaps = s->p->nmaps, nth = s->threads;
    const size_t slot_len = s->slot_len;
    const int64_t node_i0 = s->node_i;
    int64_t bi;
    int q;
    (void)nth;
    SOM_PARALLEL_FOR(nth, dynamic, 1)
    for (q = 0; q < nmaps; q++) {
        batch_map *mp = s->maps + q;
        int64_t b, node = node_i0;
        size_t e;
        for (b = 0; b < nb; b++) {
            const som_real *sum = s->slots + (size_t)b * slot_len + mp->slot_off;
            const som_count k = (som_count)s->push_k[b];
            for (e = 0; e < mp->slot_len; e++) pair_push(mp->stack, mp->slot_len, e, k, 0, sum[e]);
            if (!s->node_end[b]) continue;
            if (s->node_out) { /* a worker's node: k + 1 blocks, a power of two */
                double *out = s->node_out + (size_t)node++ * slot_len + mp->slot_off;
                for (e = 0; e < mp->slot_len; e++)
                    out[e] = pair_total(mp->stack, mp->slot_len, e, k + 1);
            } else {
                for (e = 0; e < mp->slot_len; e++)
                    mp->total[e] = pair_total(mp->stack, mp->slot_len, e, k + 1);
            }
        }
    }
    if (s->node_out)
        for (bi = 0; bi < nb; bi++) s->node_i += s->node_end[bi];
}

/* A round of blocks from block b0 of the pass (not past the slice's limit): winners and
 * block sums of every map, added pairwise, a node's total at its end into the pass's totals
 * (or a future worker's node_out). */
static int batch_advance(void *state, som_slice *slice, int64_t *reached, som_status *st)
{
    batch_state *s = state;
    const som_problem *p = s->p;
    const batch_cut *c = &s->cut;
    const int64_t n = p->data.n, pass0 = slice->from / n * n, B = c->B;
    const int64_t b0 = (slice->from - pass0) / B;
    const int64_t b_end = ((slice->limit - pass0 < n ? slice->limit - pass0 : n) + B - 1) / B;
    const int64_t nb = b0 + c->per_round < b_end ? c->per_round : b_end - b0;
    som_window win;
    int rc;
    if (b0 == 0 && !s->node_out) { /* a new pass: one node, the whole pass */
        s->node0 = 0;
        s->node1 = s->range_end = c->nblocks;
    }
    /* the round's rows: in memory, a view; from a source, read here (this thread) */
    if ((rc = som_window_load(&p->data, b0 * B, ((b0 + nb) * B < n ? (b0 + nb) * B : n) - b0 * B,
                              s->window, &win, st)))
        return rc;
    round_rows(s, &win, b0, nb);
    round_winners(s, &win, b0, nb);
    round_sums(s, b0, nb);
    plan_pushes(s, b0, nb);
    round_push(s, nb);
    *reached = pass0 + ((b0 + nb) * B < n ? (b0 + nb) * B : n);
    return SOM_OK;
}

/* The same on the general path, column by column: W_jk = sum_c h S_ck / sum_c h n_ck (a
 * column whose denominator is zero keeps its value); num holds 2 m values of scratch. */
static void smooth_general(batch_map *mp, int m, const double *row, int j0, int j1,
                           som_real *num)
{
    const int size = mp->size;
    const som_real *S = mp->total, *N = S + (size_t)size * m;
    som_real *den = num + m;
    int j, c, k;
    for (j = j0; j < j1; j++) {
        for (k = 0; k < m; k++) num[k] = den[k] = 0;
        for (c = 0; c < size; c++) {
            const som_real h = (som_real)row[som_ring_dist(c, j, size)];
            const som_real *Sc = S + (size_t)c * m, *Nc = N + (size_t)c * m;
            for (k = 0; k < m; k++) {
                num[k] += h * Sc[k];
                den[k] += h * Nc[k];
            }
        }
        for (k = 0; k < m; k++)
            if (den[k] > 0) mp->w[(size_t)k * mp->ld + j] = num[k] / den[k];
    }
}

/* Neurons j0 .. j1-1 of a map from the pass's totals and factors by ring distance (row):
 * W_j = sum_c h(d(c, j)) S_c / sum_c h(d(c, j)) n_c, summed over c in order; num holds m
 * values of scratch. */
static void smooth(batch_map *mp, int m, const double *row, int j0, int j1, som_real *num)
{
    const int size = mp->size;
    const som_real *S = mp->total, *cnt = S + (size_t)size * m;
    int j, c, k;
    for (j = j0; j < j1; j++) {
        som_real den = 0;
        for (k = 0; k < m; k++) num[k] = 0;
        for (c = 0; c < size; c++) {
            const som_real h = (som_real)row[som_ring_dist(c, j, size)];
            const som_real *Sc = S + (size_t)c * m;
            den += h * cnt[c];
            for (k = 0; k < m; k++) num[k] += h * Sc[k];
        }
        if (den > 0)
            for (k = 0; k < m; k++) mp->w[(size_t)k * mp->ld + j] = num[k] / den;
    }
}

/* The pass's end: every neuron from the totals, in runs of neurons side by side. */
static int batch_end_pass(void *state, const som_factors *f, int t, som_status *st)
{
    batch_state *s = state;
    const int m = s->p->data.m;
    int i;
    (void)st;
    SOM_PARALLEL_FOR(s->threads, dynamic, 1)
    for (i = 0; i < s->nruns; i++) {
        const int q = s->runs[2 * i];
        const double *row = som_factor_at(f, t, q);
        batch_map *mp = s->maps + q;
        const int j0 = s->runs[2 * i + 1];
        const int j1 = j0 + SOM_SMOOTH_RUN < mp->size ? j0 + SOM_SMOOTH_RUN : mp->size;
        som_real *num = s->num + (size_t)som_thread_num() * 2 * m;
        if (s->cw) smooth_general(mp, m, row, j0, j1, num);
        else smooth(mp, m, row, j0, j1, num);
    }
    return SOM_OK;
}

static int batch_prepare(void *cfg_, const som_problem *p, const som_factors *fac, void **state,
                         som_status *st)
{
    const som_cpu_cfg *cfg = cfg_;
    const int m = p->data.m, nmaps = p->nmaps;
    som_family f;
    batch_sizes z;
    batch_state *s;
    double *init = NULL;
    uint32_t *scratch = NULL;
    size_t used = 0;
    int i, rc;
    (void)fac;

    som_family_of(p, &f);
    *state = s = calloc(1, sizeof *s);
    if (!s) goto nomem;
    s->p = p;
    s->threads = som_threads(cfg->threads);
    batch_cut_of(&f, s->threads, cpu_round(cfg), &s->cut);
    batch_size(&f, &s->cut, s->threads, &z);
    s->maps = calloc((size_t)nmaps, sizeof *s->maps);
    s->store = som_alloc(z.store, sizeof *s->store);
    s->slots = som_alloc(z.slots, sizeof *s->slots);
    s->xr = som_alloc(z.xr, sizeof *s->xr); /* the round's blocks, row-major */
    s->num = som_alloc(z.num, sizeof *s->num);
    s->wins = som_alloc(z.wins, sizeof *s->wins);
    s->win = som_alloc(z.win, sizeof *s->win);
    s->runs = som_alloc(z.runs, sizeof *s->runs);
    s->span_start = malloc(((size_t)s->cut.nspans + 1) * sizeof *s->span_start);
    init = som_alloc(z.init, sizeof *init);
    if (z.window > 0) s->window = som_alloc(z.window, sizeof *s->window);
    if (f.general && (s->cw = malloc((size_t)m * sizeof *s->cw)) != NULL)
        for (i = 0; i < m; i++) s->cw[i] = p->data.col_w ? p->data.col_w[i] : 1;
    if (p->init == SOM_INIT_SAMPLE) scratch = malloc((size_t)p->data.n * sizeof *scratch);
    if (!s->maps || !s->store || !s->slots || !s->xr || !s->num || !s->wins || !s->win ||
        !s->runs || !s->span_start || !init || (p->init == SOM_INIT_SAMPLE && !scratch) ||
        (f.general && !s->cw) || (z.window > 0 && !s->window))
        goto nomem;
    for (i = 0; i < nmaps; i++) {
        batch_map *mp = s->maps + i;
        int j;
        mp->size = p->size[i];
        mp->ld = som_ld(mp->size, SOM_TJB);
        mp->slot_len = (size_t)mp->size * som_slot_width(m, f.general);
        mp->slot_off = s->slot_len;
        s->slot_len += mp->slot_len;
        mp->w = s->store + used;
        used += (size_t)mp->ld * m;
        mp->total = s->store + used;
        used += mp->slot_len;
        mp->stack = s->store + used;
        used += (size_t)s->cut.levels * mp->slot_len;
        memset(mp->total, 0, (1 + (size_t)s->cut.levels) * mp->slot_len * sizeof *mp->total);
        memset(mp->w, 0, (size_t)mp->ld * m * sizeof *mp->w);
        if ((rc = som_init_map(p, i, init, scratch, st))) goto fail;
        som_tile_real(init, mp->size, m, mp->ld, mp->w);
        for (j = 0; j < mp->size; j += SOM_SMOOTH_RUN) { /* smoothing tasks: (map, first j) */
            s->runs[2 * s->nruns] = i;
            s->runs[2 * s->nruns++ + 1] = j;
        }
    }
    for (i = 0; i < s->cut.per_round * nmaps; i++) s->win[i] = s->wins + (size_t)i * s->cut.B;
    /* where the round's blocks go in the pairwise sums */
    s->push_k = malloc((size_t)s->cut.per_round * sizeof *s->push_k);
    s->node_end = malloc((size_t)s->cut.per_round * sizeof *s->node_end);
    if (!s->push_k || !s->node_end) goto nomem;
    som_split_maps(p->size, nmaps, s->cut.nspans, s->span_start);
    free(init);
    free(scratch);
    return SOM_OK;
nomem:
    rc = som_fail(st, SOM_ERR_NOMEM, "could not allocate memory for batch training");
fail:
    free(init);
    free(scratch);
    return rc;
}

static int batch_read(void *state, double *const *w, som_status *st)
{
    const batch_state *s = state;
    int i;
    (void)st;
    for (i = 0; i < s->p->nmaps; i++)
        som_untile_real(s->maps[i].w, s->maps[i].size, s->p->data.m, s->maps[i].ld, w[i]);
    return SOM_OK;
}

static void batch_release(void *state)
{
    batch_state *s = state;
    if (!s) return;
    free(s->maps);
    free(s->cw);
    free(s->store);
    free(s->slots);
    free(s->xr);
    free(s->window);
    free(s->num);
    free(s->wins);
    free(s->win);
    free(s->runs);
    free(s->span_start);
    free(s->push_k);
    free(s->node_end);
    free(s);
}

const som_engine PREC_SYMBOL(som_cpu_batch) = {
    .name = PREC_NAME("cpu batch"),
    .prepare = batch_prepare,
    .advance = batch_advance,
    .end_pass = batch_end_pass,
    .read = batch_read,
    .release = batch_release,
    .plan = batch_plan,
};
