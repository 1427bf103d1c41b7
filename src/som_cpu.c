/* som_cpu.c: the CPU backend. Maps are trained in parallel (OpenMP over maps, largest
 * first); each map runs the online rule of the original script point after point.
 *
 * A map's weights are kept dimension after dimension (w[k * ld + j], ld = the size rounded
 * up to whole blocks of SOM_JB neurons), so that distances and updates run as vector loops
 * over neurons. Each neuron's squared distance is still summed over the dimensions in order
 * and each update is the same expression, so the bits are those of the plain rule (and of
 * the OpenCL backend, and of the R reference in the tests).
 *
 * Work is done in rounds: in each round every unfinished map advances by a slice of
 * points of about equal cost, then the calling thread checks for an interrupt and reports
 * progress. A map's result depends only on its own streams, never on the slicing or the
 * thread that ran it, so any thread count gives the same bits. */
#include <stdlib.h>
#include <string.h>

#include "som_core.h"
#include "som_rng.h"


/* Doubles rounded up to whole 64-byte cache lines, so that maps trained by different
 * threads never share a line. */
static size_t pad_line(size_t ndoubles)
{
    return (ndoubles + 7) & ~(size_t)7;
}

/* The first cache-line boundary in a block allocated with 8 spare doubles. */
static double *align_line(double *raw)
{
    return raw ? (double *)(((uintptr_t)raw + 63) & ~(uintptr_t)63) : NULL;
}

/* Neurons per register block; a map's weights are padded to whole blocks. */
#define SOM_JB 4

static int padded(int size)
{
    return (size + SOM_JB - 1) / SOM_JB * SOM_JB;
}

typedef struct {
    int map;         /* index in the problem                                        */
    int size;
    int t;           /* current pass, 1 .. iter_max - 1; iter_max = done            */
    uint32_t i;      /* next position in the pass's visiting order                  */
    uint32_t *order; /* the pass's visiting order, n indices                        */
    double *w;       /* working weights, w[k * padded(size) + j]; padding stays 0   */
    double *circ;    /* the pass's neighbourhood, 2 x size (som_neighbourhood), then
                        SOM_JB zeros: the factor of every padding neuron            */
    double cost;     /* units per point                                             */
} map_state;

#ifdef _OPENMP
#define SOM_SIMD _Pragma("omp simd")
#else
#define SOM_SIMD
#endif

/* Points i .. end-1 of the pass: the online rule of the original script. Inlined with a
 * constant m for small dimensions so that the loops over dimensions disappear. */
SOM_INLINE void train_points(const double *yrow, const uint32_t *order, uint32_t i,
                             uint32_t end, double *w, const double *circ, int size,
                             const int m)
{
    const int ld = padded(size);
    for (; i < end; i++) {
        const double *x = yrow + (size_t)order[i] * m, *h;
        double bd = HUGE_VAL;
        int c = 0, j, jj, k;
        /* winner: squared distances a block of neurons at a time, ties to the lowest */
        for (j = 0; j < size; j += SOM_JB) {
            double acc[SOM_JB];
            const int nb = size - j < SOM_JB ? size - j : SOM_JB;
            SOM_SIMD
            for (jj = 0; jj < SOM_JB; jj++) {
                double t = x[0] - w[j + jj];
                acc[jj] = t * t;
            }
            for (k = 1; k < m; k++) {
                const double xk = x[k], *wk = w + (size_t)k * ld + j;
                SOM_SIMD
                for (jj = 0; jj < SOM_JB; jj++) {
                    double t = xk - wk[jj];
                    acc[jj] += t * t;
                }
            }
            for (jj = 0; jj < nb; jj++) {
                int lt = acc[jj] < bd; /* branch-free: the comparison is unpredictable */
                c = lt ? j + jj : c;
                bd = lt ? acc[jj] : bd;
            }
        }
        /* update every neuron; the padding ones have factor 0 and stay 0 */
        h = circ + (size - c);
        for (k = 0; k < m; k++) {
            const double xk = x[k];
            double *wk = w + (size_t)k * ld;
            for (j = 0; j < ld; j += SOM_JB) {
                SOM_SIMD
                for (jj = 0; jj < SOM_JB; jj++) wk[j + jj] += h[j + jj] * (xk - wk[j + jj]);
            }
        }
    }
}

/* Move one map on by up to `budget` points of the continuing point sequence. The loop works
 * on locals: the states of different maps share cache lines. */
static void advance_map(const som_problem *p, const double *yrow, map_state *s, int64_t budget)
{
    const int m = p->data.m, size = s->size;
    const uint32_t n = (uint32_t)p->data.n;
    while (budget > 0 && s->t < p->iter_max) {
        uint32_t i = s->i, end;
        if (i == 0) {
            som_neighbourhood(p, s->t, size, s->circ);
            som_order(s->order, n, p->seed, SOM_STREAM_ORDER, (som_u32)size,
                      (som_u32)p->restart[s->map], (som_u32)s->t);
        }
        end = (int64_t)(n - i) > budget ? i + (uint32_t)budget : n;
        budget -= end - i;
        switch (m) {
        case 1: train_points(yrow, s->order, i, end, s->w, s->circ, size, 1); break;
        case 2: train_points(yrow, s->order, i, end, s->w, s->circ, size, 2); break;
        case 3: train_points(yrow, s->order, i, end, s->w, s->circ, size, 3); break;
        case 4: train_points(yrow, s->order, i, end, s->w, s->circ, size, 4); break;
        case 5: train_points(yrow, s->order, i, end, s->w, s->circ, size, 5); break;
        case 6: train_points(yrow, s->order, i, end, s->w, s->circ, size, 6); break;
        case 7: train_points(yrow, s->order, i, end, s->w, s->circ, size, 7); break;
        case 8: train_points(yrow, s->order, i, end, s->w, s->circ, size, 8); break;
        default: train_points(yrow, s->order, i, end, s->w, s->circ, size, m);
        }
        if (end == n) {
            if (p->trace) /* the map's qe after this pass, on this thread */
                p->trace[(size_t)s->map * (p->iter_max - 1) + (s->t - 1)] =
                    som_qe_tiled(&p->data, s->w, size, padded(size));
            s->i = 0;
            s->t++;
        } else {
            s->i = end;
        }
    }
}

static int by_cost_desc(const void *a, const void *b)
{
    const map_state *x = a, *y = b;
    if (x->size != y->size) return x->size < y->size ? 1 : -1;
    return x->map - y->map;
}

int som_cpu_train(const som_problem *p, double *const *weights, int nthreads,
                  double round_units, const som_hooks *hooks, som_status *st)
{
    const int m = p->data.m, nmaps = p->nmaps;
    const int64_t n = p->data.n;
    const size_t norder = ((size_t)n + 15) & ~(size_t)15; /* whole cache lines */
    double *yrow = NULL, *wraw = NULL, *traw = NULL, *init = NULL, *wbuf, *tbuf;
    size_t init_max = 0;
    uint32_t *orders = NULL;
    map_state *ms = NULL, **active = NULL;
    size_t wtot = 0, ttot = 0;
    double total = 0;
    int i, rc = SOM_OK, nactive;

    if ((rc = som_check_problem(p, st)) != SOM_OK) return rc;
    if (p->algorithm == SOM_BATCH)
        return som_cpu_batch(p, weights, nthreads, round_units, hooks, st);
    if (round_units <= 0) round_units = SOM_ROUND_UNITS;
    if (nthreads > som_max_threads()) nthreads = som_max_threads();
    if (nthreads < 1) nthreads = 1;
    for (i = 0; i < nmaps; i++) {
        wtot += pad_line((size_t)padded(p->size[i]) * m);
        ttot += pad_line((size_t)p->size[i] * 2 + SOM_JB);
        if ((size_t)p->size[i] * m > init_max) init_max = (size_t)p->size[i] * m;
    }
    yrow = som_rowmajor(&p->data);
    ms = calloc((size_t)nmaps, sizeof *ms);
    active = malloc((size_t)nmaps * sizeof *active);
    wraw = malloc((wtot + 8) * sizeof *wbuf);
    traw = malloc((ttot + 8) * sizeof *tbuf);
    if ((size_t)nmaps <= SIZE_MAX / sizeof *orders / norder)
        orders = malloc((size_t)nmaps * norder * sizeof *orders);
    init = malloc(init_max * sizeof *init);
    wbuf = align_line(wraw);
    tbuf = align_line(traw);
    if (!yrow || !ms || !active || !wraw || !traw || !orders || !init) {
        rc = som_fail(st, SOM_ERR_NOMEM, "could not allocate %.0f MB for training",
                      (((double)n * m + wtot + ttot) * 8 + (double)nmaps * norder * 4) / 1e6);
        goto done;
    }
    wtot = ttot = 0;
    for (i = 0; i < nmaps; i++) {
        map_state *s = ms + i;
        s->map = i;
        s->size = p->size[i];
        s->t = 1;
        s->i = 0;
        s->w = wbuf + wtot;
        s->circ = tbuf + ttot;
        s->order = orders + (size_t)i * norder;
        s->cost = (double)s->size * (m + 1) + SOM_POINT_UNITS;
        wtot += pad_line((size_t)padded(s->size) * m);
        ttot += pad_line((size_t)s->size * 2 + SOM_JB);
        memset(s->circ, 0, ((size_t)s->size * 2 + SOM_JB) * sizeof *s->circ);
        /* initial weights, row-major, into the padded layout */
        som_init_map(p, i, init, s->order);
        memset(s->w, 0, (size_t)padded(s->size) * m * sizeof *s->w);
        som_colmajor_weights(init, s->size, m, padded(s->size), s->w);
        total += s->cost * (double)n * (p->iter_max - 1);
    }
    qsort(ms, (size_t)nmaps, sizeof *ms, by_cost_desc);
    for (i = 0; i < nmaps; i++) active[i] = ms + i;

    nactive = p->iter_max > 1 ? nmaps : 0;
    while (nactive > 0) {
        int nth = nthreads < nactive ? nthreads : nactive, a = 0;
        double share = round_units * nth / nactive;
        (void)nth; /* unused without OpenMP */
#ifdef _OPENMP
#pragma omp parallel for schedule(dynamic, 1) num_threads(nth)
#endif
        for (i = 0; i < nactive; i++) {
            int64_t pts = (int64_t)(share / active[i]->cost);
            advance_map(p, yrow, active[i], pts > 0 ? pts : 1);
        }
        /* drop finished maps, keeping the largest-first order */
        for (i = 0; i < nactive; i++)
            if (active[i]->t < p->iter_max) active[a++] = active[i];
        nactive = a;
        if (nactive > 0 && hooks && hooks->interrupted && hooks->interrupted(hooks->ud)) {
            rc = som_fail(st, SOM_ERR_INTERRUPTED, "training interrupted");
            goto done;
        }
        if (hooks && hooks->progress) {
            double done = 0;
            for (i = 0; i < nmaps; i++)
                done += ms[i].cost * ((double)n * (ms[i].t - 1) + ms[i].i);
            hooks->progress(hooks->ud, total > 0 ? done / total : 1);
        }
    }
    for (i = 0; i < nmaps; i++) {
        int k;
        for (k = 0; k < m; k++)
            memcpy(weights[ms[i].map] + (size_t)k * ms[i].size,
                   ms[i].w + (size_t)k * padded(ms[i].size), (size_t)ms[i].size * sizeof(double));
    }

done:
    free(yrow);
    free(ms);
    free(active);
    free(wraw);
    free(traw);
    free(orders);
    free(init);
    return rc;
}
