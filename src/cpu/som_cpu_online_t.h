/* som_cpu_online_t.h: the online rule on the CPU (the engines som_cpu_online and, in
 * single precision, som_cpu_online_f: som_real.h; som_cpu_online_w, double precision in
 * wide packs), written once and included by som_cpu_online.c, som_cpu_online_f.c and
 * som_cpu_online_w.c. Each slice, the work units (a map alone, or a
 * pack of small maps side by side: som_cpu_lanes_t.h) move on in parallel (OpenMP over
 * units, largest first), each map point after point through the rule of the original
 * script.
 *
 * A map's weights are tiled (w[k * ld + j], ld = the size rounded up to whole blocks of
 * PREC_JB neurons), so that distances and updates run as vector loops over neurons. Each
 * neuron's squared distance is still summed over the dimensions in order and each update is
 * the same expression, so the bits are those of the plain rule (and of the OpenCL backend,
 * and of the R reference in the tests). A map's result depends only on its own streams,
 * never on the slicing or the thread that ran it, so any thread count gives the same bits. */
#include <stdlib.h>
#include <string.h>

#include "som_cpu.h"
#include "som_lanes.h"
#include "som_real.h"
#include "som_rng.h"

#include "som_cpu_lanes_t.h"

/* The general path's rows as lists of their observed dimensions, made once: a row's list
 * is obs + at[i], count[i] long; complete rows share the list 0 .. m-1 at the start. */
typedef struct {
    int *obs;
    int64_t *at;
    int *count;
} row_obs;

/* Fills ro from the data (column-major, NaN missing), within `bound` ints (an array left
 * NULL: out of memory). */
static void row_obs_make(row_obs *ro, const som_data *d, double bound)
{
    const int m = d->m;
    int64_t i, used = m;
    int k;
    ro->obs = som_alloc(bound, sizeof *ro->obs);
    ro->at = som_alloc((double)d->n, sizeof *ro->at);
    ro->count = som_alloc((double)d->n, sizeof *ro->count);
    if (!ro->obs || !ro->at || !ro->count) return;
    for (k = 0; k < m; k++) ro->obs[k] = k;
    for (i = 0; i < d->n; i++) {
        int seen = 0;
        for (k = 0; k < m; k++) {
            if (isnan(d->x[(size_t)k * d->n + i])) continue;
            ro->obs[used + seen++] = k;
        }
        ro->count[i] = seen;
        ro->at[i] = seen == m ? 0 : used;
        if (seen < m) used += seen;
    }
}

typedef struct {
    int map;         /* index in the problem                                        */
    int size, ld;    /* neurons, and neurons rounded up to whole blocks (PREC_JB)     */
    int pack, lane;  /* its pack and lane (som_lanes.h), or pack -1: trained alone  */
    uint32_t *order; /* the current pass's visiting order, n indices                */
    som_real *w;     /* working weights, w[k * ld + j] (padding neurons never win)  */
    som_real *circ;  /* the pass's factors, 2 x size (som_neighbourhood_circ), then
                        PREC_JB zeros, so that the update may run over ld neurons      */
} online_map;

typedef struct {
    const som_problem *p;
    int threads;
    double round_units;
    double cost;       /* work units of one step of every map                        */
    som_real *rows;    /* the data, row-major                                        */
    int general;       /* the general path (som_data_general)                         */
    som_real *cw;      /* its m column weights; NULL without (all 1)                  */
    row_obs ro;        /* its rows' observed dimensions                               */
    online_map *maps;  /* largest first                                              */
    lane_pack *packs;
    int npacks, nunits;
    int *units;        /* what a thread takes: a map alone (i >= 0) or pack -i-1        */
    som_real *wraw, *craw, *lraw;
    uint32_t *orders;
} online_state;

/* Element counts of the buffers, from the family's shape: bounds for the per-map padding
 * (whole blocks of neurons, whole cache lines per map, a line to spare for alignment). */
typedef struct {
    double weights, circ, lanes, order_stride, orders, rows, init, obs;
} online_sizes;

static void online_size(const som_family *f, online_sizes *z)
{
    const double maps = f->nmaps;
    const double line = 64 / sizeof(som_real);
    z->weights = (f->size_sum + (PREC_JB - 1) * maps) * f->m + (line - 1) * maps + line;
    z->circ = 2 * f->size_sum + (PREC_JB + line - 1) * maps + line;
    /* packs of consecutive maps, largest first: each pack's S is at most the smallest ring
     * of the full pack before it, so the packs' weights and factors (S m and 2 S per lane)
     * take at most SOM_LANES times the first pack's S plus the sum of the sizes. */
    z->lanes = (SOM_LANES * (double)SOM_LANE_MAX_SIZE + f->size_sum) * (f->m + 2) + line;
    z->order_stride = (double)(((size_t)f->n + 15) & ~(size_t)15); /* whole cache lines */
    z->orders = maps * z->order_stride;
    z->rows = (double)f->n * f->m;
    z->init = (double)f->size_max * f->m;
    z->obs = f->general ? ((double)f->n + 1) * f->m : 0; /* bound: every row incomplete */
}

static void online_plan(void *cfg, const som_family *f, som_plan *plan)
{
    online_sizes z;
    (void)cfg;
    online_size(f, &z);
    som_plan_add(plan, "cpu online: the data, row-major", z.rows * sizeof(som_real), SOM_HOST);
    som_plan_add(plan, "cpu online: tiled weights", z.weights * sizeof(som_real), SOM_HOST);
    som_plan_add(plan, "cpu online: factors", z.circ * sizeof(som_real), SOM_HOST);
#ifdef SOM_WIDE_LANES
    som_plan_add(plan, "cpu online: wide packs of small maps", z.lanes * sizeof(som_real),
                 SOM_HOST);
#else
    som_plan_add(plan, "cpu online: packs of small maps", z.lanes * sizeof(som_real), SOM_HOST);
#endif
    som_plan_add(plan, "cpu online: visiting orders", z.orders * sizeof(uint32_t), SOM_HOST);
    som_plan_add(plan, "cpu online: initial weights", z.init * sizeof(double), SOM_HOST);
    if (f->general)
        som_plan_add(plan, "cpu online: the rows' observed dimensions",
                     z.obs * sizeof(int) + (double)f->n * (sizeof(int64_t) + sizeof(int)),
                     SOM_HOST);
}

/* The winner search of one point runs over ONLINE_NB blocks of PREC_JB neurons side by
 * side: a neuron's distance is a chain of dependent adds over the dimensions, so a block
 * searched alone waits on every add; eight blocks' chains keep the adders busy. Each
 * neuron's sum is still its terms in order of k, and the blocks are picked in ascending
 * order: the bits and the winner of one block at a time. */
#define ONLINE_NB 8

/* The squared distances of point x to the NB blocks of neurons from j: over every dimension
 * (obs NULL: the plain path, the first term as it is), or over the observed ones obs[0 ..
 * nobs-1] (the general path: a missing value's term is 0 * (0 - w)^2 = 0, and adding 0
 * changes no sum), each term times cw[k] where cw is given (1 * t = t). Always inlined, so
 * that a constant NB (and m) unrolls and the sums stay in registers. */
SOM_INLINE void chunk_d2(const som_real *x, const som_real *w, int ld, int j, const int m,
                         const int *obs, int nobs, const som_real *cw, const int NB,
                         som_real acc[ONLINE_NB][PREC_JB])
{
    int b, jj, k, o;
    const som_real *wj = w + j;
    if (!obs) {
        SOM_UNROLL_ALL
        for (b = 0; b < NB; b++) {
            SOM_SIMD
            for (jj = 0; jj < PREC_JB; jj++) acc[b][jj] = SOM_D2_TERM(x[0], wj[b * PREC_JB + jj]);
        }
        for (k = 1; k < m; k++) {
            const som_real xk = x[k], *wk = wj + (size_t)k * ld;
            SOM_UNROLL_ALL
            for (b = 0; b < NB; b++) {
                SOM_SIMD
                for (jj = 0; jj < PREC_JB; jj++) acc[b][jj] += SOM_D2_TERM(xk, wk[b * PREC_JB + jj]);
            }
        }
        return;
    }
    SOM_UNROLL_ALL
    for (b = 0; b < NB; b++)
        for (jj = 0; jj < PREC_JB; jj++) acc[b][jj] = 0;
    for (o = 0; o < nobs; o++) {
        const som_real xk = x[obs[o]], *wk = wj + (size_t)obs[o] * ld;
        if (cw) {
            const som_real ck = cw[obs[o]];
            SOM_UNROLL_ALL
            for (b = 0; b < NB; b++) {
                SOM_SIMD
                for (jj = 0; jj < PREC_JB; jj++)
                    acc[b][jj] += SOM_D2_TERM_GENERAL(ck, xk, wk[b * PREC_JB + jj]);
            }
        } else {
            SOM_UNROLL_ALL
            for (b = 0; b < NB; b++) {
                SOM_SIMD
                for (jj = 0; jj < PREC_JB; jj++) acc[b][jj] += SOM_D2_TERM(xk, wk[b * PREC_JB + jj]);
            }
        }
    }
}

/* The winner of point x on a map of `size` neurons (chunk_d2()'s arguments): the first
 * strictly closest, ONLINE_NB blocks at a time. */
SOM_INLINE int point_winner(const som_real *x, const som_real *w, int ld, int size, const int m,
                            const int *obs, int nobs, const som_real *cw)
{
    som_real bd = (som_real)HUGE_VAL;
    int c = 0, j, b;
    for (j = 0; j < size; j += ONLINE_NB * PREC_JB) {
        som_real acc[ONLINE_NB][PREC_JB];
        const int left = (size - j + PREC_JB - 1) / PREC_JB;
        const int nb = left < ONLINE_NB ? left : ONLINE_NB;
        switch (nb) {
        case 1: chunk_d2(x, w, ld, j, m, obs, nobs, cw, 1, acc); break;
        case 2: chunk_d2(x, w, ld, j, m, obs, nobs, cw, 2, acc); break;
        case 3: chunk_d2(x, w, ld, j, m, obs, nobs, cw, 3, acc); break;
        case 4: chunk_d2(x, w, ld, j, m, obs, nobs, cw, 4, acc); break;
        case 5: chunk_d2(x, w, ld, j, m, obs, nobs, cw, 5, acc); break;
        case 6: chunk_d2(x, w, ld, j, m, obs, nobs, cw, 6, acc); break;
        case 7: chunk_d2(x, w, ld, j, m, obs, nobs, cw, 7, acc); break;
        default: chunk_d2(x, w, ld, j, m, obs, nobs, cw, ONLINE_NB, acc);
        }
        for (b = 0; b < nb; b++) {
            const int jb = j + b * PREC_JB;
            SOM_PICK(acc[b], size - jb < PREC_JB ? size - jb : PREC_JB, jb, c, bd);
        }
    }
    return c;
}

/* The update w += h (x - w) of the NB blocks of neurons from j, over every dimension (obs
 * NULL) or the observed ones (a missing value moves nothing): the blocks' factors held in
 * registers across the dimensions. */
SOM_INLINE void chunk_update(const som_real *x, som_real *w, int ld, int j, const int m,
                             const int *obs, int nobs, const som_real *h, const int NB)
{
    som_real hb[ONLINE_NB][PREC_JB];
    som_real *wj = w + j;
    int b, jj, o;
    const int count = obs ? nobs : m;
    SOM_UNROLL_ALL
    for (b = 0; b < NB; b++)
        for (jj = 0; jj < PREC_JB; jj++) hb[b][jj] = h[j + b * PREC_JB + jj];
    for (o = 0; o < count; o++) {
        const int k = obs ? obs[o] : o;
        const som_real xk = x[k];
        som_real *wk = wj + (size_t)k * ld;
        SOM_UNROLL_ALL
        for (b = 0; b < NB; b++) {
            SOM_SIMD
            for (jj = 0; jj < PREC_JB; jj++)
                wk[b * PREC_JB + jj] += hb[b][jj] * (xk - wk[b * PREC_JB + jj]);
        }
    }
}

/* One step of the online rule for point x: its winner, then every neuron moved towards it
 * (the padding ones too, with whatever factor: they never win), ONLINE_NB blocks at a
 * time. circ: the pass's factors (som_neighbourhood_circ); obs, nobs, cw as chunk_d2(). */
SOM_INLINE void train_point(const som_real *x, som_real *w, const som_real *circ, int size,
                            int ld, const int m, const int *obs, int nobs, const som_real *cw)
{
    const int c = point_winner(x, w, ld, size, m, obs, nobs, cw);
    const som_real *h = circ + (size - c);
    int j;
    for (j = 0; j < ld; j += ONLINE_NB * PREC_JB) {
        const int left = (ld - j) / PREC_JB;
        switch (left < ONLINE_NB ? left : ONLINE_NB) {
        case 1: chunk_update(x, w, ld, j, m, obs, nobs, h, 1); break;
        case 2: chunk_update(x, w, ld, j, m, obs, nobs, h, 2); break;
        case 3: chunk_update(x, w, ld, j, m, obs, nobs, h, 3); break;
        case 4: chunk_update(x, w, ld, j, m, obs, nobs, h, 4); break;
        case 5: chunk_update(x, w, ld, j, m, obs, nobs, h, 5); break;
        case 6: chunk_update(x, w, ld, j, m, obs, nobs, h, 6); break;
        case 7: chunk_update(x, w, ld, j, m, obs, nobs, h, 7); break;
        default: chunk_update(x, w, ld, j, m, obs, nobs, h, ONLINE_NB);
        }
    }
}

/* Points i .. end-1 of the pass: the online rule of the original script. Inlined with a
 * constant m for small dimensions so that the loops over dimensions disappear. */
SOM_INLINE void train_points(const som_real *rows, const uint32_t *order, uint32_t i,
                             uint32_t end, som_real *w, const som_real *circ, int size, int ld,
                             const int m)
{
    for (; i < end; i++)
        train_point(rows + (size_t)order[i] * m, w, circ, size, ld, m, NULL, 0, NULL);
}

/* The same for rows of few dimensions (m <= 8, train_map()), as the rule ran before the
 * chunks: a block of neurons at a time, picked as it is summed, and the update a dimension
 * at a time. With so few terms per sum the chunks' switches cost more than the chains they
 * overlap (measured alone, 1 thread: 3 columns and 10 to 40 neurons 1.6x the time, 8
 * columns 1.1x to 1.6x, single precision alike; from 16 columns on the chunks win). The
 * same operations in the same order: the same bits. */
SOM_INLINE void train_points_narrow(const som_real *rows, const uint32_t *order, uint32_t i,
                                    uint32_t end, som_real *w, const som_real *circ, int size,
                                    int ld, const int m)
{
    for (; i < end; i++) {
        const som_real *x = rows + (size_t)order[i] * m, *h;
        som_real bd = (som_real)HUGE_VAL;
        int c = 0, j, jj, k;
        for (j = 0; j < size; j += PREC_JB) {
            som_real acc[ONLINE_NB][PREC_JB];
            chunk_d2(x, w, ld, j, m, NULL, 0, NULL, 1, acc);
            SOM_PICK(acc[0], size - j < PREC_JB ? size - j : PREC_JB, j, c, bd);
        }
        h = circ + (size - c);
        for (k = 0; k < m; k++) {
            const som_real xk = x[k];
            som_real *wk = w + (size_t)k * ld;
            for (j = 0; j < ld; j += PREC_JB) {
                SOM_SIMD
                for (jj = 0; jj < PREC_JB; jj++) wk[j + jj] += h[j + jj] * (xk - wk[j + jj]);
            }
        }
    }
}

/* The same for the general path (som_data_general): column weights cw (NULL: all 1), and
 * missing values left out of the distance and the update, each row over its observed
 * dimensions (row_obs()). Without weights a complete row takes the plain path's loops, a
 * quarter faster than walking its list: its sums start at the first term instead of at
 * 0 + that term, the same value. */
SOM_INLINE void train_points_general(const som_real *rows, const uint32_t *order, uint32_t i,
                                     uint32_t end, som_real *w, const som_real *circ, int size,
                                     int ld, const int m, const som_real *cw, const row_obs *ro)
{
    for (; i < end; i++) {
        const uint32_t r = order[i];
        if (!cw && ro->count[r] == m)
            train_point(rows + (size_t)r * m, w, circ, size, ld, m, NULL, 0, NULL);
        else
            train_point(rows + (size_t)r * m, w, circ, size, ld, m, ro->obs + ro->at[r],
                        ro->count[r], cw);
    }
}

/* A new pass t of one map: its factors and visiting order. */
static void start_pass(const som_problem *p, som_factors *fac, int t, int map, int size,
                       som_real *circ, uint32_t *order)
{
    PREC_CIRC(som_factor_at(fac, t, map), size, circ);
    som_order(order, (som_u32)p->data.n, p->seed, SOM_STREAM_ORDER, (som_u32)size,
              (som_u32)p->restart[map], (som_u32)t);
}

/* Points i .. stop-1 of pass t of one map alone. */
SOM_INLINE void train_map_body(const int isa, const online_state *s, online_map *mp,
                               som_factors *fac, int t, uint32_t i, uint32_t stop)
{
    (void)isa; /* the same loops at every width */
    const int m = s->p->data.m;
    if (i == 0) start_pass(s->p, fac, t, mp->map, mp->size, mp->circ, mp->order);
    if (s->general) /* not unrolled by m */
        train_points_general(s->rows, mp->order, i, stop, mp->w, mp->circ, mp->size, mp->ld, m,
                             s->cw, &s->ro);
    else switch (m) { /* up to 8 columns the narrow loops, from 9 the chunks */
    case 1: train_points_narrow(s->rows, mp->order, i, stop, mp->w, mp->circ, mp->size, mp->ld, 1); break;
    case 2: train_points_narrow(s->rows, mp->order, i, stop, mp->w, mp->circ, mp->size, mp->ld, 2); break;
    case 3: train_points_narrow(s->rows, mp->order, i, stop, mp->w, mp->circ, mp->size, mp->ld, 3); break;
    case 4: train_points_narrow(s->rows, mp->order, i, stop, mp->w, mp->circ, mp->size, mp->ld, 4); break;
    case 5: train_points_narrow(s->rows, mp->order, i, stop, mp->w, mp->circ, mp->size, mp->ld, 5); break;
    case 6: train_points_narrow(s->rows, mp->order, i, stop, mp->w, mp->circ, mp->size, mp->ld, 6); break;
    case 7: train_points_narrow(s->rows, mp->order, i, stop, mp->w, mp->circ, mp->size, mp->ld, 7); break;
    case 8: train_points_narrow(s->rows, mp->order, i, stop, mp->w, mp->circ, mp->size, mp->ld, 8); break;
    default: train_points(s->rows, mp->order, i, stop, mp->w, mp->circ, mp->size, mp->ld, m);
    }
}
SOM_VERSIONS_AVX2(train_map,
             (const online_state *s, online_map *mp, som_factors *fac, int t, uint32_t i,
              uint32_t stop),
             (s, mp, fac, t, i, stop))


/* Points i .. stop-1 of pass t of a pack's maps, side by side. */
static void train_pack(const online_state *s, lane_pack *pk, som_factors *fac, int t,
                       uint32_t i, uint32_t stop)
{
    int l;
    if (i == 0)
        for (l = 0; l < pk->nl; l++)
            start_pass(s->p, fac, t, pk->map[l], pk->size[l], pk->circ[l], pk->order[l]);
    if (s->general || s->p->data.m > SOM_VEC_MAX_DIM)
        lanes_train_general(pk, s->rows, s->p->data.m, s->cw, i, stop);
    else lanes_train(pk, s->rows, s->p->data.m, i, stop);
}

/* Steps from .. end-1 of a unit: a map alone (u >= 0) or pack -u-1. */
static void advance_unit(const online_state *s, int u, som_factors *fac, int64_t from,
                         int64_t end)
{
    const int64_t n = s->p->data.n;
    while (from < end) {
        const int t = (int)(from / n) + 1;
        const uint32_t i = (uint32_t)(from % n);
        const uint32_t stop = end - (int64_t)(t - 1) * n < n ? (uint32_t)(end - (t - 1) * n)
                                                              : (uint32_t)n;
        if (u >= 0) train_map(s, s->maps + u, fac, t, i, stop);
        else train_pack(s, s->packs + (-u - 1), fac, t, i, stop);
        from += stop - i;
    }
}

static int online_advance(void *state, som_slice *slice, int64_t *reached, som_status *st)
{
    online_state *s = state;
    const int64_t n = s->p->data.n;
    const int nunits = s->nunits, nth = s->threads < nunits ? s->threads : nunits;
    int64_t steps = (int64_t)(s->round_units * s->threads / s->cost), end;
    int i;
    (void)st;
    if (steps < 1) steps = 1;
    end = slice->limit - slice->from > steps ? slice->from + steps : slice->limit;
    som_factor_pass(slice->factors, (int)((end - 1) / n) + 1); /* made here, read by the threads */
    (void)nth; /* unused without OpenMP */
    SOM_PARALLEL_FOR(nth, dynamic, 1)
    for (i = 0; i < nunits; i++) advance_unit(s, s->units[i], slice->factors, slice->from, end);
    *reached = end;
    return SOM_OK;
}

#include "som_cpu_packs_t.h"

static int online_prepare(void *cfg_, const som_problem *p, const som_factors *fac, void **state,
                          som_status *st)
{
    const som_cpu_cfg *cfg = cfg_;
    const int m = p->data.m, nmaps = p->nmaps, general = som_data_general(&p->data);
    som_family f;
    online_sizes z;
    online_state *s;
    double *init = NULL;
    som_real *wbuf, *cbuf;
    size_t wtot = 0, ctot = 0;
    int i;
    (void)fac;

    som_family_of(p, &f);
    online_size(&f, &z);
    *state = s = calloc(1, sizeof *s);
    if (!s) return som_fail(st, SOM_ERR_NOMEM, "could not allocate memory for training");
    s->p = p;
    s->threads = som_threads(cfg->threads);
    s->round_units = cfg->round_units > 0 ? cfg->round_units : SOM_ROUND_UNITS;
    s->rows = rows_of(&p->data);
    s->general = general;
    if (p->data.col_w && (s->cw = malloc((size_t)m * sizeof *s->cw)) != NULL)
        for (i = 0; i < m; i++) s->cw[i] = (som_real)p->data.col_w[i];
    if (general) row_obs_make(&s->ro, &p->data, z.obs);
    s->maps = calloc((size_t)nmaps, sizeof *s->maps);
    s->packs = calloc((size_t)nmaps, sizeof *s->packs);
    s->units = calloc((size_t)nmaps, sizeof *s->units);
    s->wraw = som_alloc(z.weights, sizeof *s->wraw);
    s->craw = som_alloc(z.circ, sizeof *s->craw);
    s->lraw = som_alloc(z.lanes, sizeof *s->lraw);
    s->orders = som_alloc(z.orders, sizeof *s->orders);
    init = som_alloc(z.init, sizeof *init);
    if (!s->rows || !s->maps || !s->packs || !s->units || !s->wraw || !s->craw || !s->lraw ||
        !s->orders || !init || (p->data.col_w && !s->cw) || (general && (!s->ro.obs || !s->ro.at || !s->ro.count))) {
        free(init);
        return som_fail(st, SOM_ERR_NOMEM, "could not allocate %.0f MB for training",
                        ((z.rows + z.weights + z.circ + z.lanes) * sizeof(som_real) +
                         z.init * 8 + z.orders * 4) / 1e6);
    }
    for (i = 0; i < nmaps; i++) {
        online_map *mp = s->maps + i;
        mp->map = i;
        mp->size = p->size[i];
        mp->ld = som_ld(mp->size, PREC_JB);
        mp->order = s->orders + (size_t)i * (size_t)z.order_stride;
        s->cost += (double)mp->size * (m + 1) + SOM_POINT_UNITS;
    }
    qsort(s->maps, (size_t)nmaps, sizeof *s->maps, by_size_desc);
    s->npacks = make_packs(s);
    place_packs(s, som_align_line(s->lraw));
    wbuf = som_align_line(s->wraw);
    cbuf = som_align_line(s->craw);
    for (i = 0; i < nmaps; i++) {
        online_map *mp = s->maps + i;
        int rc = som_init_map(p, mp->map, init, mp->order, st);
        if (rc) {
            free(init);
            return rc;
        }
        if (mp->pack >= 0) {
            lanes_put(s->packs + mp->pack, mp->lane, init, m);
            continue;
        }
        s->nunits++;
        mp->w = wbuf + wtot;
        mp->circ = cbuf + ctot;
        wtot += som_pad_line((size_t)mp->ld * m);
        ctot += som_pad_line((size_t)mp->size * 2 + PREC_JB);
        memset(mp->circ, 0, ((size_t)mp->size * 2 + PREC_JB) * sizeof *mp->circ);
        memset(mp->w, 0, (size_t)mp->ld * m * sizeof *mp->w);
        som_tile_real(init, mp->size, m, mp->ld, mp->w);
    }
    free(init);
    s->nunits += s->npacks;
    order_units(s);
    return SOM_OK;
}

static int online_read(void *state, double *const *w, som_status *st)
{
    const online_state *s = state;
    int i;
    (void)st;
    for (i = 0; i < s->p->nmaps; i++) {
        const online_map *mp = s->maps + i;
        if (mp->pack >= 0) lanes_get(s->packs + mp->pack, mp->lane, s->p->data.m, w[mp->map]);
        else som_untile_real(mp->w, mp->size, s->p->data.m, mp->ld, w[mp->map]);
    }
    return SOM_OK;
}

static void online_release(void *state)
{
    online_state *s = state;
    if (!s) return;
    free(s->rows);
    free(s->cw);
    free(s->ro.obs);
    free(s->ro.at);
    free(s->ro.count);
    free(s->maps);
    free(s->packs);
    free(s->units);
    free(s->lraw);
    free(s->wraw);
    free(s->craw);
    free(s->orders);
    free(s);
}

#if defined(SOM_SINGLE_PRECISION) || defined(SOM_WIDE_LANES)
#define ONLINE_PICK NULL
#else
/* The wide packs (som_cpu_online_w.c) where they pay, as measured on an AMD EPYC (Zen 5)
 * with AVX-512 (bench/README.md, issue 54, part 2): 6 columns or more (the fit's time 0.90 of
 * the narrow packs' at 6, 0.87 at 8, 0.79 at 16; no faster on 3 to 5), and a view's maps at
 * least 32 per thread, or one thread: half as many packs must still keep every thread busy
 * (the seed case's 9 maps on 2 threads took 1.8 times as long in wide packs). */
static const som_engine *online_pick(void *cfg_, const som_family *f)
{
    const som_cpu_cfg *cfg = cfg_;
    const int threads = som_threads(cfg->threads);
    const double per_view = (double)f->nmaps / (f->views > 1 ? f->views : 1);
    if (!SOM_CLONES || som_isa() < SOM_ISA_AVX512 || f->m < 6 || f->m > SOM_LANE_MAX_DIM)
        return NULL;
    return threads == 1 || per_view >= 32.0 * threads ? &som_cpu_online_w : NULL;
}
#define ONLINE_PICK online_pick
#endif

const som_engine PREC_SYMBOL(som_cpu_online) = {
    .name = PREC_NAME("cpu online"),
    .prepare = online_prepare,
    .advance = online_advance,
    .read = online_read,
    .release = online_release,
    .plan = online_plan,
    .pick = ONLINE_PICK,
};
