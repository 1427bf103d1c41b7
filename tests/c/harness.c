/* harness.c: drives somgpu's pure-C core (src/, without R: this file takes r_glue.c's
 * place) and both backends on deterministic random problems, and checks what the package
 * promises: the same bits whatever the thread count or slicing of the work, OpenCL double
 * precision equal to the CPU bit for bit, refusals of invalid problems, clean stops on
 * interrupts and nothing left behind (the Makefile builds it with ASan, LSan and UBSan).
 *
 * Every assertion is one check; the last line reads
 *   harness [VARIANT]: N checks passed, M failed
 * and the exit status is nonzero when any check failed.
 *
 * Usage: harness [-n COUNT] [-s SEED] [-v]   (COUNT random problems, default 64) */
#define _POSIX_C_SOURCE 200809L
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "som_core.h"
#include "som_engine.h"
#include "som_ocl.h"

#ifdef SOMGPU_HAVE_OPENCL
#include "som_ocl_internal.h" /* white box: the context's own OpenCL objects */
#endif

/* The kernels' nearest-neuron search (som_math.h), compiled as C. */
SOM_SQDIST(kernel_sqdist, double, , )
SOM_NEAREST(kernel_nearest, kernel_sqdist, double, , )

#ifndef HARNESS_VARIANT
#define HARNESS_VARIANT "plain"
#endif

/* --- checks ------------------------------------------------------------------------ */

static long n_pass, n_fail;
static int verbose;
static char where[256]; /* the case under test, for failure messages */

static int check(int ok, const char *fmt, ...)
{
    va_list ap;
    if (ok) {
        n_pass++;
        return 1;
    }
    n_fail++;
    if (n_fail <= 60) {
        printf("FAIL [%s] ", where);
        va_start(ap, fmt);
        vprintf(fmt, ap);
        va_end(ap);
        printf("\n");
        fflush(stdout);
    }
    return 0;
}

static void set_where(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(where, sizeof where, fmt, ap);
    va_end(ap);
}

/* A failed call: the expected code, in the status too, with a message. */
static void check_fail(int rc, const som_status *st, int want, const char *what)
{
    check(rc == want, "%s: returned %d, expected %d (%s)", what, rc, want, st->message);
    check(st->code == want, "%s: status code %d, expected %d", what, st->code, want);
    check(st->message[0] != '\0', "%s: no message in the status", what);
}

/* som_status_clear leaves a fresh status (and frees the log). */
static void clear_status(som_status *st)
{
    som_status_clear(st);
    check(st->code == SOM_OK && st->api_status == 0 && st->message[0] == '\0' && st->log == NULL,
          "som_status_clear did not reset the status");
}

/* --- random numbers: splitmix64, our own so that problems are the same everywhere --- */

typedef struct {
    uint64_t s;
} rng;

static uint64_t rnext(rng *r)
{
    uint64_t z = (r->s += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

static double runif(rng *r)
{
    return (double)(rnext(r) >> 11) * (1.0 / 9007199254740992.0);
}

static int rint_in(rng *r, int lo, int hi) /* lo .. hi inclusive */
{
    return lo + (int)(rnext(r) % (uint64_t)(hi - lo + 1));
}

static double rnorm(rng *r)
{
    double u = runif(r), v = runif(r);
    return sqrt(-2.0 * log(1.0 - u)) * cos(6.283185307179586 * v);
}

/* --- problems ---------------------------------------------------------------------- */

typedef struct {
    som_problem p;     /* trace is set per call (each run writes its own) */
    double *x;         /* n x m, column-major */
    int *size, *restart;
    double **iw;       /* SOM_INIT_GIVEN: per map, size x m column-major */
    int want_trace;
    double **ref_w;    /* the CPU result (1 thread), for the other runs to match */
    double *ref_trace;
    int ref_ok;
    char desc[200];
} prob;

static const char *init_name(int init)
{
    return init == SOM_INIT_UNIFORM ? "uniform" : init == SOM_INIT_SAMPLE ? "sample" : "given";
}

static size_t trace_len(const som_problem *p)
{
    return (size_t)(p->iter_max - 1) * (size_t)p->nmaps;
}

/* A random valid problem. The data come in several kinds: ties between neurons (integer
 * data and weights, duplicate rows) test the lowest-index rule on every backend, large
 * offsets the distance arithmetic far from the origin. */
static void gen_problem(rng *r, int idx, prob *pr)
{
    static const char *kinds[] = {"uniform", "clusters", "integers", "offset", "scales"};
    som_problem *p = &pr->p;
    int n, m, nmaps, i, kind, bb;
    size_t e;
    double u = runif(r);

    memset(pr, 0, sizeof *pr);
    n = u < 0.25 ? rint_in(r, 2, 20) : u < 0.7 ? rint_in(r, 21, 400) : rint_in(r, 401, 1500);
    m = rint_in(r, 1, 12);
    nmaps = rint_in(r, 1, 6);
    pr->size = malloc((size_t)nmaps * sizeof *pr->size);
    pr->restart = malloc((size_t)nmaps * sizeof *pr->restart);
    for (i = 0; i < nmaps; i++) {
        if (i > 0 && runif(r) < 0.35) { /* the same size again, another restart */
            pr->size[i] = pr->size[i - 1];
            pr->restart[i] = pr->restart[i - 1] + rint_in(r, 1, 3);
        } else {
            double v = runif(r);
            pr->size[i] = v < 0.2 ? 2 : v < 0.3 ? 3 : rint_in(r, 2, 40);
            pr->restart[i] = rint_in(r, 0, 3);
        }
    }
    pr->x = malloc((size_t)n * m * sizeof *pr->x);
    kind = rint_in(r, 0, 4);
    {
        int ncent = rint_in(r, 1, 5);
        for (i = 0; i < n; i++) {
            int c = rint_in(r, 0, ncent - 1), k;
            for (k = 0; k < m; k++) {
                double v;
                switch (kind) {
                case 0: v = runif(r); break;
                case 1: v = (double)((c * 7 + k * 3) % 5) + 0.1 * rnorm(r); break;
                case 2: v = (double)rint_in(r, 0, 3); break;
                case 3: v = 1e6 + runif(r); break;
                default: v = runif(r) * pow(10.0, (double)(k % 5) - 2.0);
                }
                pr->x[(size_t)k * n + i] = v;
            }
        }
        if (kind != 2 && n > 4) /* a few duplicate rows */
            for (i = 0; i < n / 10; i++) {
                int a = rint_in(r, 0, n - 1), b = rint_in(r, 0, n - 1), k;
                for (k = 0; k < m; k++) pr->x[(size_t)k * n + a] = pr->x[(size_t)k * n + b];
            }
    }
    p->data.x = pr->x;
    p->data.n = n;
    p->data.m = m;
    p->nmaps = nmaps;
    p->size = pr->size;
    p->restart = pr->restart;
    u = runif(r);
    p->iter_max = u < 0.08 ? 1 : rint_in(r, 2, 6);
    p->sigma0 = runif(r) < 0.1 ? 0.05 : 0.3 + 5.7 * runif(r); /* 0.05: factors below 1e-30 */
    p->eta0 = 0.05 + 0.95 * runif(r);
    p->init = rint_in(r, 0, 2);
    if (p->init == SOM_INIT_SAMPLE)
        for (i = 0; i < nmaps; i++)
            if (pr->size[i] > n) p->init = SOM_INIT_UNIFORM;
    if (p->init == SOM_INIT_GIVEN) {
        int ints = runif(r) < 0.25; /* integer weights: duplicate neurons, tied winners */
        pr->iw = malloc((size_t)nmaps * sizeof *pr->iw);
        for (i = 0; i < nmaps; i++) {
            size_t ne = (size_t)pr->size[i] * m;
            pr->iw[i] = malloc(ne * sizeof **pr->iw);
            for (e = 0; e < ne; e++)
                pr->iw[i][e] = ints ? (double)rint_in(r, 0, 2)
                                    : (kind == 3 ? 1e6 : 0) + 0.5 * rnorm(r);
        }
        p->init_w = (const double *const *)pr->iw;
    }
    p->seed = (uint32_t)rnext(r);
    p->algorithm = rint_in(r, 0, 1);
    {
        const int blocks[] = {1, 2, 7, 64, 100, 1024, 4096, 0, -1};
        bb = blocks[rint_in(r, 0, 8)];
        p->batch_block = bb == 0 ? n : bb < 0 ? n + 3 : bb;
    }
    p->trace = NULL;
    pr->want_trace = runif(r) < 0.5;
    snprintf(pr->desc, sizeof pr->desc,
             "problem %d: n=%d m=%d maps=%d (sizes %d..) iter_max=%d %s init=%s block=%d "
             "trace=%d data=%s",
             idx, n, m, nmaps, pr->size[0], p->iter_max,
             p->algorithm == SOM_BATCH ? "batch" : "online", init_name(p->init),
             p->batch_block, pr->want_trace, kinds[kind]);
}

static double **alloc_weights(const som_problem *p)
{
    double **w = malloc((size_t)p->nmaps * sizeof *w);
    int i;
    for (i = 0; i < p->nmaps; i++) {
        size_t e, ne = (size_t)p->size[i] * p->data.m;
        w[i] = malloc(ne * sizeof **w);
        for (e = 0; e < ne; e++) w[i][e] = NAN; /* what a backend does not write shows */
    }
    return w;
}

static void free_weights(double **w, int nmaps)
{
    int i;
    if (!w) return;
    for (i = 0; i < nmaps; i++) free(w[i]);
    free(w);
}

static double *alloc_trace(const som_problem *p)
{
    size_t e, ne = trace_len(p);
    double *t = malloc((ne ? ne : 1) * sizeof *t);
    for (e = 0; e < ne; e++) t[e] = NAN;
    return t;
}

static void free_problem(prob *pr)
{
    int i;
    if (pr->iw)
        for (i = 0; i < pr->p.nmaps; i++) free(pr->iw[i]);
    free(pr->iw);
    free_weights(pr->ref_w, pr->p.nmaps);
    free(pr->ref_trace);
    free(pr->x);
    free(pr->size);
    free(pr->restart);
}

static int same_weights(const som_problem *p, double *const *a, double *const *b)
{
    int i;
    for (i = 0; i < p->nmaps; i++)
        if (memcmp(a[i], b[i], (size_t)p->size[i] * p->data.m * sizeof(double)) != 0) return 0;
    return 1;
}

static int all_finite(const som_problem *p, double *const *w)
{
    int i;
    size_t e;
    for (i = 0; i < p->nmaps; i++)
        for (e = 0; e < (size_t)p->size[i] * p->data.m; e++)
            if (!isfinite(w[i][e])) return 0;
    return 1;
}

static int trace_finite(const som_problem *p, const double *t)
{
    size_t e;
    for (e = 0; e < trace_len(p); e++)
        if (!isfinite(t[e]) || t[e] < 0) return 0;
    return 1;
}

/* --- hooks ------------------------------------------------------------------------- */

/* An interrupt hook that says "stop" at its call stop_after + 1 (never when negative), and
 * a progress hook that checks its fractions stay in [0, 1] and never go down. */
typedef struct {
    int calls, stop_after, pcalls, pbad;
    double last;
} hookstate;

static int hk_interrupted(void *ud)
{
    hookstate *h = ud;
    h->calls++;
    return h->stop_after >= 0 && h->calls > h->stop_after;
}

static void hk_progress(void *ud, double f)
{
    hookstate *h = ud;
    if (!(f >= 0 && f <= 1 + 1e-9 && f >= h->last - 1e-12)) h->pbad++;
    h->pcalls++;
    h->last = f;
}

static som_hooks make_hooks(hookstate *h, int stop_after)
{
    som_hooks k;
    memset(h, 0, sizeof *h);
    h->stop_after = stop_after;
    k.interrupted = hk_interrupted;
    k.progress = hk_progress;
    k.ud = h;
    return k;
}

/* After a complete run: progress was sane and ended at 1 (when there was any work). */
static void check_progress(const som_problem *p, const hookstate *h, const char *what)
{
    check(h->pbad == 0, "%s: progress fractions out of order or out of [0, 1]", what);
    if (p->iter_max > 1)
        check(h->pcalls > 0 && fabs(h->last - 1) < 1e-9, "%s: progress ended at %g (%d calls)",
              what, h->last, h->pcalls);
}

/* --- the entry points: som_train on a CPU or an OpenCL backend ---------------------- */

/* som_train on the CPU backend with nthreads threads and round_units of work per round. */
static int cpu_train(const som_problem *p, double *const *w, int nthreads, double units,
                     const som_hooks *hooks, som_status *st)
{
    som_cpu_cfg cfg;
    som_backend be;
    cfg.threads = nthreads;
    cfg.round_units = units;
    be = som_cpu_backend(&cfg);
    return som_train(p, &be, w, hooks, st);
}

/* som_train on an OpenCL context with options o; *used gets the kernels that ran. */
static int ocl_train(som_ocl_ctx *ctx, const som_problem *p, double *const *w,
                     const som_ocl_opts *o, const som_hooks *hooks, int *used, som_status *st)
{
    som_ocl_cfg cfg;
    som_backend be;
    int rc;
    cfg.ctx = ctx;
    cfg.opts = *o;
    cfg.kernels_used = 0;
    be = som_ocl_backend(&cfg, 2);
    rc = som_train(p, &be, w, hooks, st);
    *used = cfg.kernels_used;
    return rc;
}

/* A plain winner search written here, apart from the package's: the nearest neuron of x
 * among the size neurons of w (row-major), the lowest index among equals, with the squared
 * distance and the runner-up (the lowest index among equals but the winner). */
static int ref_winner(const double *x, const double *w, int size, int m, double *best_d2,
                      int *second)
{
    int j, k, best = 0, next = -1;
    double bd = HUGE_VAL, nd = HUGE_VAL, *d = malloc((size_t)size * sizeof *d);
    for (j = 0; j < size; j++) {
        d[j] = 0;
        for (k = 0; k < m; k++) d[j] += (x[k] - w[(size_t)j * m + k]) * (x[k] - w[(size_t)j * m + k]);
        if (d[j] < bd) {
            bd = d[j];
            best = j;
        }
    }
    for (j = 0; j < size; j++)
        if (j != best && (next < 0 || d[j] < nd)) {
            nd = d[j];
            next = j;
        }
    free(d);
    *best_d2 = bd;
    *second = next < 0 ? 0 : next;
    return best;
}

/* --- assessment -------------------------------------------------------------------- */

static int close_rel(double a, double b, double tol)
{
    return fabs(a - b) <= tol * fabs(b) || a == b;
}

/* som_assess on trained maps: valid figures, the same bits with 1 and 2 threads and any
 * round size, som_qe_maps alike, and the same winners and te as a plain search with
 * a plain search (ref_winner) and as the kernels' search (SOM_NEAREST, compiled as C), qe and
 * sse to 1e-12 (summed in another order). Returns the qe (malloc'ed). */
static double *assess_checks(const som_problem *p, double *const *w)
{
    const int nmaps = p->nmaps, m = p->data.m;
    const int64_t n = p->data.n;
    som_maps maps;
    som_status st;
    double *qe[3], *te[3], *sse[3], *qm, *xr;
    int **cl[3], i, r, rc;
    int64_t j;
    const int threads[3] = {1, 2, 2};
    const double units[3] = {0, 0, 3000};

    maps.nmaps = nmaps;
    maps.size = p->size;
    maps.weights = (const double *const *)w;
    for (r = 0; r < 3; r++) {
        qe[r] = malloc((size_t)nmaps * sizeof(double));
        te[r] = malloc((size_t)nmaps * sizeof(double));
        sse[r] = malloc((size_t)nmaps * sizeof(double));
        cl[r] = malloc((size_t)nmaps * sizeof(int *));
        for (i = 0; i < nmaps; i++) /* run 2 leaves every other map without clusters */
            cl[r][i] = r == 2 && i % 2 ? NULL : malloc((size_t)n * sizeof(int));
        som_status_init(&st);
        rc = som_assess(&p->data, &maps, threads[r], units[r], NULL, qe[r], te[r], sse[r], cl[r],
                        &st);
        check(rc == SOM_OK, "som_assess (%d threads) returned %d: %s", threads[r], rc,
              st.message);
        clear_status(&st);
    }
    for (i = 0; i < nmaps; i++) {
        int bad = 0;
        check(isfinite(qe[0][i]) && qe[0][i] >= 0, "map %d: qe %g", i, qe[0][i]);
        check(isfinite(te[0][i]) && te[0][i] >= 0 && te[0][i] <= 1, "map %d: te %g", i,
              te[0][i]);
        check(isfinite(sse[0][i]) && sse[0][i] >= 0, "map %d: sse %g", i, sse[0][i]);
        for (j = 0; j < n; j++) bad += cl[0][i][j] < 1 || cl[0][i][j] > p->size[i];
        check(bad == 0, "map %d: %d clusters outside 1..%d", i, bad, p->size[i]);
        for (r = 1; r < 3; r++) {
            check(qe[r][i] == qe[0][i] && te[r][i] == te[0][i] && sse[r][i] == sse[0][i],
                  "map %d: assessment differs with %d threads / round %g", i, threads[r],
                  units[r]);
            if (cl[r][i])
                check(memcmp(cl[r][i], cl[0][i], (size_t)n * sizeof(int)) == 0,
                      "map %d: clusters differ with %d threads", i, threads[r]);
        }
    }
    /* som_qe_maps: the same qe */
    qm = malloc((size_t)nmaps * sizeof *qm);
    som_status_init(&st);
    rc = som_qe_maps(&p->data, &maps, 2, qm, &st);
    check(rc == SOM_OK && memcmp(qm, qe[0], (size_t)nmaps * sizeof *qm) == 0,
          "som_qe_maps differs from som_assess");
    clear_status(&st);
    free(qm);
    /* a plain winner search */
    xr = som_rowmajor(&p->data);
    for (i = 0; i < nmaps; i++) {
        double *wr = malloc((size_t)p->size[i] * m * sizeof *wr), sq = 0, ss = 0;
        int64_t wrong = 0, kwrong = 0, topo = 0;
        som_rowmajor_weights(w[i], p->size[i], m, wr);
        for (j = 0; j < n; j++) {
            double bd, kd;
            int second, c = ref_winner(xr + (size_t)j * m, wr, p->size[i], m, &bd, &second);
            int kc = kernel_nearest(xr + (size_t)j * m, wr, p->size[i], m, &kd);
            wrong += cl[0][i][j] != c + 1;
            kwrong += kc != c || kd != bd;
            topo += som_ring_dist(c, second, p->size[i]) > 1;
            sq += sqrt(bd);
            ss += bd;
        }
        check(wrong == 0, "map %d: %ld winners differ from a plain search", i, (long)wrong);
        check(kwrong == 0, "map %d: the kernels' search differs from a plain one in %ld rows", i,
              (long)kwrong);
        check(te[0][i] == (double)topo / (double)n, "map %d: te %.17g, plain search %.17g", i,
              te[0][i], (double)topo / (double)n);
        check(close_rel(qe[0][i], sq / (double)n, 1e-12), "map %d: qe %.17g, plain %.17g", i,
              qe[0][i], sq / (double)n);
        check(close_rel(sse[0][i], ss, 1e-12), "map %d: sse %.17g, plain %.17g", i, sse[0][i],
              ss);
        free(wr);
    }
    free(xr);
    for (r = 0; r < 3; r++) {
        if (r > 0) free(qe[r]);
        free(te[r]);
        free(sse[r]);
        for (i = 0; i < nmaps; i++) free(cl[r][i]);
        free(cl[r]);
    }
    return qe[0];
}

/* --- CPU --------------------------------------------------------------------------- */

/* Train on the CPU into fresh weights (and a fresh trace when the problem wants one). */
static int cpu_run(prob *pr, int nthreads, double units, double ***w_out, double **t_out,
                   hookstate *hs, int stop_after, som_status *st)
{
    som_problem p = pr->p;
    som_hooks hooks = make_hooks(hs, stop_after);
    *w_out = alloc_weights(&p);
    *t_out = pr->want_trace ? alloc_trace(&p) : NULL;
    p.trace = *t_out;
    return cpu_train(&p, *w_out, nthreads, units, &hooks, st);
}

/* The weights of iter_max = 1 (no pass): the initial weights themselves. */
static void check_initial(const prob *pr, double *const *w)
{
    const som_problem *p = &pr->p;
    const int m = p->data.m;
    int i, j, k;
    for (i = 0; i < p->nmaps; i++) {
        const int N = p->size[i];
        int bad = 0;
        if (p->init == SOM_INIT_GIVEN) {
            bad = memcmp(w[i], pr->iw[i], (size_t)N * m * sizeof(double)) != 0;
        } else if (p->init == SOM_INIT_UNIFORM) {
            for (j = 0; j < N * m; j++) bad += !(w[i][j] >= -0.5 && w[i][j] < 0.5);
        } else { /* every neuron a row of the data */
            for (j = 0; j < N; j++) {
                int64_t row, found = 0;
                for (row = 0; row < p->data.n && !found; row++) {
                    for (k = 0; k < m; k++)
                        if (w[i][(size_t)k * N + j] != p->data.x[(size_t)k * p->data.n + row])
                            break;
                    found = k == m;
                }
                bad += !found;
            }
        }
        check(bad == 0, "map %d: no pass, but the weights are not the %s initial weights", i,
              init_name(p->init));
    }
}

/* 1 thread, 2 threads and 2 threads in small rounds: the same bits, finite weights, sane
 * progress, a trace whose last pass is som_assess's qe. Keeps the 1-thread result. */
static void cpu_checks(prob *pr)
{
    const som_problem *p = &pr->p;
    const int threads[3] = {1, 2, 2};
    const double units[3] = {0, 0, 20000};
    double **w[3], *t[3], *qe;
    hookstate hs;
    som_status st;
    int r, rc, ok = 1;

    for (r = 0; r < 3; r++) {
        som_status_init(&st);
        rc = cpu_run(pr, threads[r], units[r], &w[r], &t[r], &hs, -1, &st);
        ok &= check(rc == SOM_OK, "som_train (cpu, %d threads) returned %d: %s", threads[r], rc,
                    st.message);
        clear_status(&st);
        check_progress(p, &hs, "CPU training");
    }
    if (ok) {
        check(all_finite(p, w[0]), "non-finite weights");
        for (r = 1; r < 3; r++) {
            check(same_weights(p, w[0], w[r]), "weights differ: 1 thread vs %d threads (round %g)",
                  threads[r], units[r]);
            if (pr->want_trace)
                check(memcmp(t[0], t[r], trace_len(p) * sizeof(double)) == 0,
                      "trace differs: 1 thread vs %d threads (round %g)", threads[r], units[r]);
        }
        if (p->iter_max == 1) check_initial(pr, w[0]);
        qe = assess_checks(p, w[0]);
        if (pr->want_trace) {
            int i;
            check(trace_finite(p, t[0]), "non-finite or negative trace");
            if (p->iter_max > 1)
                for (i = 0; i < p->nmaps; i++)
                    check(t[0][(size_t)i * (p->iter_max - 1) + p->iter_max - 2] == qe[i],
                          "map %d: the trace's last pass %.17g is not som_assess's qe %.17g", i,
                          t[0][(size_t)i * (p->iter_max - 1) + p->iter_max - 2], qe[i]);
        }
        free(qe);
    }
    pr->ref_ok = ok;
    pr->ref_w = w[0];
    pr->ref_trace = t[0];
    for (r = 1; r < 3; r++) {
        free_weights(w[r], p->nmaps);
        free(t[r]);
    }
}

/* --- invalid problems -------------------------------------------------------------- */

typedef struct {
    const char *what;
    som_problem p;
} bad_case;

/* Invalid variants of a small valid problem, for every entry point that takes one. The
 * buffers live in statics: the cases point into them. */
static double bad_x[3 * 4], bad_w0[2 * 3], bad_w1[5 * 3];
static int bad_size[2] = {2, 5}, bad_restart[2] = {0, 1}, bad_size0[2] = {2, 0},
           bad_size1[2] = {2, 1}, bad_sizeneg[2] = {-3, 2}, bad_restartneg[2] = {0, -1},
           bad_sizebig[2] = {2, 5};
static const double *bad_iw[2] = {bad_w0, bad_w1}, *bad_iw_hole[2] = {bad_w0, NULL};

static som_problem valid_small(void)
{
    som_problem p;
    int i;
    for (i = 0; i < 12; i++) bad_x[i] = (double)((i * 7) % 5) / 4.0;
    for (i = 0; i < 6; i++) bad_w0[i] = 0.1 * i;
    for (i = 0; i < 15; i++) bad_w1[i] = 0.05 * i;
    memset(&p, 0, sizeof p);
    p.data.x = bad_x;
    p.data.n = 4;
    p.data.m = 3;
    p.nmaps = 2;
    p.size = bad_size;
    p.restart = bad_restart;
    p.iter_max = 3;
    p.sigma0 = 1;
    p.eta0 = 0.5;
    p.init = SOM_INIT_UNIFORM;
    p.seed = 7;
    p.algorithm = SOM_ONLINE;
    p.batch_block = 2;
    return p;
}

static int bad_cases(bad_case *c)
{
    int k = 0;
    som_problem v = valid_small();
#define BAD(name, stmt)            \
    do {                           \
        c[k].what = name;          \
        c[k].p = v;                \
        {                          \
            som_problem *p = &c[k].p; \
            stmt;                  \
        }                          \
        k++;                       \
    } while (0)
    BAD("data NULL", p->data.x = NULL);
    BAD("n = 0", p->data.n = 0);
    BAD("n = 1", p->data.n = 1);
    BAD("n = -5", p->data.n = -5);
    BAD("n = 2^31", p->data.n = (int64_t)1 << 31);
    BAD("m = 0", p->data.m = 0);
    BAD("m = -1", p->data.m = -1);
    BAD("nmaps = 0", p->nmaps = 0);
    BAD("nmaps = -2", p->nmaps = -2);
    BAD("size NULL", p->size = NULL);
    BAD("restart NULL", p->restart = NULL);
    BAD("a size 0", p->size = bad_size0);
    BAD("a size 1", p->size = bad_size1);
    BAD("a size -3", p->size = bad_sizeneg);
    BAD("a restart -1", p->restart = bad_restartneg);
    BAD("iter_max = 0", p->iter_max = 0);
    BAD("iter_max = -4", p->iter_max = -4);
    BAD("sigma0 = 0", p->sigma0 = 0);
    BAD("sigma0 = -1", p->sigma0 = -1);
    BAD("sigma0 = NaN", p->sigma0 = NAN);
    BAD("sigma0 = Inf", p->sigma0 = INFINITY);
    BAD("eta0 = 0", p->eta0 = 0);
    BAD("eta0 = NaN", p->eta0 = NAN);
    BAD("eta0 = -Inf", p->eta0 = -INFINITY);
    BAD("init sample, size > n", (p->init = SOM_INIT_SAMPLE, p->size = bad_sizebig));
    BAD("init given, init_w NULL", p->init = SOM_INIT_GIVEN);
    BAD("init given, a map's init_w NULL", (p->init = SOM_INIT_GIVEN, p->init_w = bad_iw_hole));
    BAD("algorithm 2", p->algorithm = 2);
    BAD("algorithm -1", p->algorithm = -1);
    BAD("batch, batch_block 0", (p->algorithm = SOM_BATCH, p->batch_block = 0));
    BAD("batch, batch_block -7", (p->algorithm = SOM_BATCH, p->batch_block = -7));
#undef BAD
    return k;
}

#define MAX_BAD 40

/* Sizes up to 5, 3 columns: room for any case's weights. */
static double bad_out0[5 * 3], bad_out1[5 * 3];
static double *const bad_out[2] = {bad_out0, bad_out1};

static void invalid_problem_checks(void)
{
    bad_case c[MAX_BAD];
    int k, nc = bad_cases(c), rc;
    som_status st;
    som_problem v = valid_small();
    hookstate hs;
    som_hooks hooks;

    /* the valid base: accepted, in every form the cases vary */
    set_where("valid small problem");
    {
        som_problem g = v, b = v;
        g.init = SOM_INIT_GIVEN;
        g.init_w = bad_iw;
        b.algorithm = SOM_BATCH;
        som_status_init(&st);
        check(som_check_problem(&v, &st) == SOM_OK && st.code == SOM_OK && !st.message[0],
              "the valid problem is refused: %s", st.message);
        check(som_check_problem(&g, &st) == SOM_OK, "init given refused: %s", st.message);
        check(som_check_problem(&b, &st) == SOM_OK, "batch refused: %s", st.message);
        rc = cpu_train(&g, bad_out, 1, 0, NULL, &st);
        check(rc == SOM_OK && all_finite(&g, bad_out), "training the valid problem: %d", rc);
        clear_status(&st);
        /* an online problem need not have a batch block */
        set_where("online problem with batch_block 0");
        g = v;
        g.batch_block = 0;
        check(som_check_problem(&g, &st) == SOM_OK, "refused: %s", st.message);
        rc = cpu_train(&g, bad_out, 2, 0, NULL, &st);
        check(rc == SOM_OK, "som_train: %d (%s)", rc, st.message);
        clear_status(&st);
    }
    for (k = 0; k < nc; k++) {
        set_where("invalid problem: %s", c[k].what);
        som_status_init(&st);
        rc = som_check_problem(&c[k].p, &st);
        check_fail(rc, &st, SOM_ERR_INVALID, "som_check_problem");
        clear_status(&st);
        hooks = make_hooks(&hs, -1);
        rc = cpu_train(&c[k].p, bad_out, 2, 0, &hooks, &st);
        check_fail(rc, &st, SOM_ERR_INVALID, "som_train (cpu)");
        check(hs.calls == 0 && hs.pcalls == 0, "hooks called on an invalid problem");
        clear_status(&st);
    }
    /* som_assess refuses nothing to assess */
    {
        const double *w[2] = {bad_w0, bad_w1};
        som_maps maps = {2, bad_size, w};
        som_data d = v.data;
        double qe[2];
        set_where("som_assess, invalid input");
        d.n = 0;
        som_status_init(&st);
        check_fail(som_assess(&d, &maps, 1, 0, NULL, qe, NULL, NULL, NULL, &st), &st,
                   SOM_ERR_INVALID, "som_assess n = 0");
        clear_status(&st);
        d = v.data;
        d.m = 0;
        check_fail(som_assess(&d, &maps, 1, 0, NULL, qe, NULL, NULL, NULL, &st), &st,
                   SOM_ERR_INVALID, "som_assess m = 0");
        clear_status(&st);
        maps.nmaps = 0;
        check_fail(som_qe_maps(&v.data, &maps, 1, qe, &st), &st, SOM_ERR_INVALID,
                   "som_qe_maps nmaps = 0");
        clear_status(&st);
    }
}

/* --- OpenCL status names (both builds) --------------------------------------------- */

static void status_name_checks(void)
{
    const struct { int code; const char *name; } known[] = {
        {0, "CL_SUCCESS"},           {-1, "CL_DEVICE_NOT_FOUND"},
        {-5, "CL_OUT_OF_RESOURCES"}, {-11, "CL_BUILD_PROGRAM_FAILURE"},
        {-46, "CL_INVALID_KERNEL_NAME"}, {-61, "CL_INVALID_BUFFER_SIZE"},
        {-68, "CL_INVALID_DEVICE_PARTITION_COUNT"}, {-1001, "CL_PLATFORM_NOT_FOUND_KHR"}};
    const int unknown[] = {1, 5, -20, -29, -69, -1000, -1002, INT_MIN, INT_MAX};
    size_t i;
    int code;
    set_where("som_ocl_status_name");
    for (i = 0; i < sizeof known / sizeof known[0]; i++)
        check(strcmp(som_ocl_status_name(known[i].code), known[i].name) == 0, "%d gives %s",
              known[i].code, som_ocl_status_name(known[i].code));
    for (i = 0; i < sizeof unknown / sizeof unknown[0]; i++)
        check(strcmp(som_ocl_status_name(unknown[i]), "CL_UNKNOWN_ERROR") == 0, "%d gives %s",
              unknown[i], som_ocl_status_name(unknown[i]));
    for (code = -68; code <= 0; code++) { /* every name a name */
        const char *s = som_ocl_status_name(code);
        check(s != NULL && strncmp(s, "CL_", 3) == 0, "%d gives no name", code);
    }
}

/* --- interrupts -------------------------------------------------------------------- */

/* A problem long enough for many interrupt checks: n x 3 uniform, sizes 5, 12, 30. */
static double *intr_x;
static int intr_size[3] = {5, 12, 30}, intr_restart[3] = {0, 1, 0};

static som_problem intr_problem(int algorithm, int64_t n)
{
    som_problem p;
    rng r = {12345};
    int64_t e;
    free(intr_x);
    intr_x = malloc((size_t)n * 3 * sizeof *intr_x);
    for (e = 0; e < n * 3; e++) intr_x[e] = runif(&r);
    memset(&p, 0, sizeof p);
    p.data.x = intr_x;
    p.data.n = n;
    p.data.m = 3;
    p.nmaps = 3;
    p.size = intr_size;
    p.restart = intr_restart;
    p.iter_max = 12; /* 11 passes: at least 10 interrupt checks, one slice a pass or more */
    p.sigma0 = 3;
    p.eta0 = 0.7;
    p.init = SOM_INIT_UNIFORM;
    p.seed = 99;
    p.algorithm = algorithm;
    p.batch_block = 64;
    return p;
}

/* An interrupted run: the interrupt code and message, the hook asked exactly k + 1 times. */
static void check_interrupted(int rc, som_status *st, const hookstate *hs, int k,
                              const char *what)
{
    check_fail(rc, st, SOM_ERR_INTERRUPTED, what);
    check(hs->calls == k + 1, "%s: the interrupt hook was called %d times, expected %d", what,
          hs->calls, k + 1);
    clear_status(st);
}

static void cpu_interrupt_checks(void)
{
    const int ks[3] = {0, 1, 5};
    int a, i, rc;
    for (a = 0; a < 2; a++) {
        som_problem p = intr_problem(a, 1200);
        double **w = alloc_weights(&p), *tr = alloc_trace(&p);
        p.trace = tr;
        for (i = 0; i < 3; i++) {
            hookstate hs;
            som_hooks hooks = make_hooks(&hs, ks[i]);
            som_status st;
            set_where("CPU %s interrupted after %d checks", a ? "batch" : "online", ks[i]);
            som_status_init(&st);
            rc = cpu_train(&p, w, 2, 2000, &hooks, &st);
            check_interrupted(rc, &st, &hs, ks[i], "som_train (cpu, 2 threads)");
            hooks = make_hooks(&hs, ks[i]);
            rc = cpu_train(&p, w, 1, 2000, &hooks, &st);
            check_interrupted(rc, &st, &hs, ks[i], "som_train (cpu, 1 thread)");
        }
        free_weights(w, p.nmaps);
        free(tr);
    }
    /* som_assess: 6 blocks, a round each: 5 checks */
    {
        som_problem p = intr_problem(SOM_ONLINE, 6000);
        double **w = alloc_weights(&p), qe[3];
        int *cl[3];
        som_maps maps;
        som_status st;
        const int ka[3] = {0, 1, 3};
        size_t e;
        for (i = 0; i < 3; i++) {
            for (e = 0; e < (size_t)p.size[i] * 3; e++) w[i][e] = (double)e / 90.0;
            cl[i] = malloc((size_t)p.data.n * sizeof **cl);
        }
        maps.nmaps = 3;
        maps.size = p.size;
        maps.weights = (const double *const *)w;
        for (i = 0; i < 3; i++) {
            hookstate hs;
            som_hooks hooks = make_hooks(&hs, ka[i]);
            set_where("som_assess interrupted after %d checks", ka[i]);
            som_status_init(&st);
            rc = som_assess(&p.data, &maps, 2, 1, &hooks, qe, NULL, NULL, cl, &st);
            check_interrupted(rc, &st, &hs, ka[i], "som_assess");
        }
        for (i = 0; i < 3; i++) free(cl[i]);
        free_weights(w, 3);
    }
}

/* --- OpenCL ------------------------------------------------------------------------ */

#ifdef SOMGPU_HAVE_OPENCL

/* The OpenCL reference count of a som_ocl_ctx's context. Every buffer, queue, program and
 * kernel holds a reference on its context, so the count back at its value after
 * som_ocl_open means a run released every OpenCL object it made, which LeakSanitizer
 * cannot see (the runtime keeps them reachable). -1 when it cannot be read. */
static long ctx_refcount(const som_ocl_ctx *ctx)
{
    cl_device_id dev = NULL;
    cl_uint count = 0;
    if (ctx->context == NULL ||
        clGetContextInfo(ctx->context, CL_CONTEXT_DEVICES, sizeof dev, &dev, NULL) != CL_SUCCESS ||
        dev != ctx->device)
        return -1;
    if (clGetContextInfo(ctx->context, CL_CONTEXT_REFERENCE_COUNT, sizeof count, &count, NULL) !=
        CL_SUCCESS)
        return -1;
    return (long)count;
}

/* The count once the runtime has caught up: PoCL drops the references of a finished
 * command's objects from a thread of its own, a little after clFinish. Up to 2 s. */
static long settled_refcount(const som_ocl_ctx *ctx, long want)
{
    long c = ctx_refcount(ctx);
    int i;
    for (i = 0; i < 200 && c != want; i++) {
        struct timespec ts = {0, 10000000};
        nanosleep(&ts, NULL);
        c = ctx_refcount(ctx);
    }
    return c;
}

/* som_ocl_close, checked: with a reference of our own on the context, after the close it
 * must be the only one left (every kernel, the program and the queue were released). */
static void close_checked(som_ocl_ctx *ctx)
{
    cl_context context;
    cl_uint count = 0;
    if (ctx_refcount(ctx) <= 0) {
        som_ocl_close(ctx);
        return;
    }
    context = ctx->context;
    clRetainContext(context);
    som_ocl_close(ctx);
    {
        int i;
        for (i = 0; i < 200; i++) {
            struct timespec ts = {0, 10000000};
            if (clGetContextInfo(context, CL_CONTEXT_REFERENCE_COUNT, sizeof count, &count,
                                 NULL) != CL_SUCCESS || count == 1)
                break;
            nanosleep(&ts, NULL);
        }
    }
    check(count == 1, "som_ocl_close left %u references on the context", count - 1);
    clReleaseContext(context);
}

static const char *kernel_name(int k)
{
    return k == SOM_KERNEL_ITEM ? "item" : k == SOM_KERNEL_GROUP ? "group" : "auto";
}

/* A max_alloc cap just above what the problem needs in one buffer, so that maps are
 * trained in groups and the batch data in chunks of a few blocks. */
static double small_alloc(const som_problem *p, size_t rs, int factor)
{
    const int m = p->data.m;
    const double n = (double)p->data.n;
    double need = 0, bc = p->batch_block < p->data.n ? p->batch_block : n;
    int i, maxN = 0;
    for (i = 0; i < p->nmaps; i++)
        if (p->size[i] > maxN) maxN = p->size[i];
    if (p->algorithm == SOM_ONLINE) {
        need = fmax(n * m * rs, n * 4.0);
    } else {
        need = fmax(bc * m * rs, bc * 4.0);
        need = fmax(need, (double)maxN * (m + 1) * rs);
    }
    need = fmax(need, (double)maxN * m * rs);
    return need * factor;
}

/* The options of run j: cycles of coprime lengths, so that the problems meet them all. */
static som_ocl_opts pick_opts(const som_problem *p, int j, size_t rs)
{
    som_ocl_opts o;
    memset(&o, 0, sizeof o);
    o.kernel = j % 3;
    o.group_local = j / 3 % 2;
    o.stream_data = j / 2 % 2;
    o.group_min_size = j % 5 < 2 ? 8 : 0;
    o.max_alloc = j % 4 == 1 ? small_alloc(p, rs, 1 + j / 4 % 3) : 0;
    o.launch_seconds = j % 7 == 3 ? 0.002 : 0;
    return o;
}

/* One OpenCL run of a problem: double must give the CPU's bits, single finite weights. */
static void ocl_train_checks(som_ocl_ctx *ctx, prob *pr, const som_ocl_opts *o, long base_refs)
{
    som_problem p = pr->p;
    const int prec = ctx->precision;
    double **w = alloc_weights(&p), *tr = pr->want_trace ? alloc_trace(&p) : NULL;
    hookstate hs;
    som_hooks hooks = make_hooks(&hs, -1);
    som_status st;
    int rc, used = -1;

    p.trace = tr;
    som_status_init(&st);
    rc = ocl_train(ctx, &p, w, o, &hooks, &used, &st);
    if (check(rc == SOM_OK, "som_train (opencl) returned %d: %s", rc, st.message)) {
        check_progress(&p, &hs, "OpenCL training");
        if (prec == SOM_DOUBLE) {
            if (pr->ref_ok)
                check(same_weights(&p, w, pr->ref_w), "double precision differs from the CPU");
            if (tr && pr->ref_ok)
                check(memcmp(tr, pr->ref_trace, trace_len(&p) * sizeof(double)) == 0,
                      "double precision trace differs from the CPU");
        } else {
            check(all_finite(&p, w), "single precision: non-finite weights");
            if (tr) check(trace_finite(&p, tr), "single precision: non-finite trace");
        }
        /* the kernels that ran */
        if (p.algorithm == SOM_BATCH) {
            check(used == 8, "batch: kernels_used %d", used);
        } else if (p.iter_max == 1) {
            check(used == 0, "no pass: kernels_used %d", used);
        } else if (o->kernel == SOM_KERNEL_ITEM) {
            check(used == 1, "item kernel: kernels_used %d", used);
        } else if (o->kernel == SOM_KERNEL_GROUP) {
            check(o->group_local ? used == 2 || used == 4 : used == 4,
                  "group kernel (local %d): kernels_used %d", o->group_local, used);
        } else {
            check(used >= 1 && used <= 7, "auto kernel: kernels_used %d", used);
        }
    }
    clear_status(&st);
    if (base_refs > 0) {
        long now = settled_refcount(ctx, base_refs);
        check(now == base_refs, "OpenCL objects left behind: context refcount %ld, %ld after "
              "som_ocl_open", now, base_refs);
    }
    free_weights(w, p.nmaps);
    free(tr);
}

/* Failing runs on an open context: invalid problems, a buffer cap below the data, and
 * interrupts; none may leave an OpenCL object behind. */
static void ocl_error_checks(som_ocl_ctx *ctx, long base_refs, const char *dev)
{
    bad_case c[MAX_BAD];
    int nc = bad_cases(c), k, rc, a, i, used;
    som_status st;
    som_ocl_opts o;
    const int ks[3] = {0, 1, 5};

    memset(&o, 0, sizeof o);
    for (k = 0; k < nc; k++) {
        set_where("%s: invalid problem: %s", dev, c[k].what);
        som_status_init(&st);
        rc = ocl_train(ctx, &c[k].p, bad_out, &o, NULL, &used, &st);
        check_fail(rc, &st, SOM_ERR_INVALID, "som_train (opencl)");
        clear_status(&st);
    }
    for (a = 0; a < 2; a++) {
        som_problem p = intr_problem(a, 1200);
        double **w = alloc_weights(&p), *tr = alloc_trace(&p);
        /* a buffer cap below one block of the data: refused with the sizes */
        set_where("%s: %s, max_alloc 16 bytes", dev, a ? "batch" : "online");
        o.max_alloc = 16;
        som_status_init(&st);
        rc = ocl_train(ctx, &p, w, &o, NULL, &used, &st);
        check_fail(rc, &st, SOM_ERR_BACKEND, "som_train (opencl)");
        check(st.api_status == -61, "api_status %d, expected CL_INVALID_BUFFER_SIZE",
              st.api_status);
        clear_status(&st);
        if (base_refs > 0)
            check(settled_refcount(ctx, base_refs) == base_refs, "objects left behind");
        /* interrupts, with the trace on and the work in short launches */
        o.max_alloc = 0;
        o.launch_seconds = 1e-4;
        p.trace = tr;
        for (i = 0; i < 3; i++) {
            hookstate hs;
            som_hooks hooks = make_hooks(&hs, ks[i]);
            set_where("%s: OpenCL %s interrupted after %d checks", dev, a ? "batch" : "online",
                      ks[i]);
            som_status_init(&st);
            rc = ocl_train(ctx, &p, w, &o, &hooks, &used, &st);
            check_interrupted(rc, &st, &hs, ks[i], "som_train (opencl)");
            if (base_refs > 0) {
                long now = settled_refcount(ctx, base_refs);
                check(now == base_refs, "OpenCL objects left behind: context refcount %ld, %ld "
                      "after som_ocl_open", now, base_refs);
            }
        }
        /* the context still works after an interrupt */
        {
            hookstate hs;
            som_hooks hooks = make_hooks(&hs, -1);
            set_where("%s: OpenCL %s after interrupts", dev, a ? "batch" : "online");
            som_status_init(&st);
            rc = ocl_train(ctx, &p, w, &o, &hooks, &used, &st);
            check(rc == SOM_OK, "som_train (opencl) after interrupts: %d (%s)", rc, st.message);
            clear_status(&st);
            check(all_finite(&p, w), "non-finite weights after interrupts");
            if (ctx->precision == SOM_DOUBLE) {
                double **wc = alloc_weights(&p), *tc = alloc_trace(&p);
                p.trace = tc;
                rc = cpu_train(&p, wc, 2, 0, NULL, &st);
                check(rc == SOM_OK && same_weights(&p, w, wc), "differs from the CPU");
                check(memcmp(tr, tc, trace_len(&p) * sizeof(double)) == 0,
                      "trace differs from the CPU");
                clear_status(&st);
                free_weights(wc, p.nmaps);
                free(tc);
            }
        }
        o.launch_seconds = 0;
        free_weights(w, p.nmaps);
        free(tr);
    }
}

/* Batch training with the data in chunks of 100 rows, not whole 1024-row blocks (those of
 * som_assess): the trace must still be the CPU's, bit for bit, resident or streamed. */
static void ocl_trace_chunks_check(som_ocl_ctx *ctx, long base_refs, const char *dev)
{
    som_problem p = intr_problem(SOM_BATCH, 1500);
    double **w = alloc_weights(&p), **wc = alloc_weights(&p);
    double *tr = alloc_trace(&p), *tc = alloc_trace(&p);
    som_ocl_opts o;
    som_status st;
    int rc, used, stream;
    p.batch_block = 100;
    p.iter_max = 4;
    p.trace = tc;
    som_status_init(&st);
    rc = cpu_train(&p, wc, 2, 0, NULL, &st);
    check(rc == SOM_OK, "CPU: %d", rc);
    clear_status(&st);
    for (stream = 0; stream < 2; stream++) {
        set_where("%s: batch trace, data in chunks of 100 rows, streamed %d", dev, stream);
        memset(&o, 0, sizeof o);
        o.max_alloc = 100 * 3 * 8 * 2 - 1; /* under two blocks of 100 rows x 3 doubles */
        o.stream_data = stream;
        p.trace = tr;
        rc = ocl_train(ctx, &p, w, &o, NULL, &used, &st);
        check(rc == SOM_OK, "som_train (opencl): %d (%s)", rc, st.message);
        clear_status(&st);
        check(same_weights(&p, w, wc), "weights differ from the CPU");
        check(memcmp(tr, tc, trace_len(&p) * sizeof(double)) == 0, "trace differs from the CPU");
        if (base_refs > 0)
            check(settled_refcount(ctx, base_refs) == base_refs, "objects left behind");
    }
    free_weights(w, p.nmaps);
    free_weights(wc, p.nmaps);
    free(tr);
    free(tc);
}

/* som_ocl_open's failures: no such device, no double precision, a kernel source that
 * does not build (with its log), one without the kernels. */
static void ocl_open_checks(int ndev, const som_ocl_device *devs)
{
    som_ocl_ctx *ctx;
    som_status st;
    int rc, d;
    set_where("som_ocl_open, no such device");
    som_status_init(&st);
    ctx = (som_ocl_ctx *)&st; /* must be reset to NULL */
    rc = som_ocl_open(-1, SOM_SINGLE, NULL, &ctx, &st);
    check_fail(rc, &st, SOM_ERR_INVALID, "device 0");
    check(ctx == NULL, "no context, yet *out is set");
    clear_status(&st);
    rc = som_ocl_open(ndev, SOM_SINGLE, NULL, &ctx, &st);
    check_fail(rc, &st, SOM_ERR_INVALID, "device n + 1");
    check(ctx == NULL, "no context, yet *out is set");
    clear_status(&st);
    for (d = 0; d < ndev; d++) {
        const int prec = devs[d].fp64 ? SOM_DOUBLE : SOM_SINGLE;
        if (!devs[d].fp64) {
            set_where("device %d: double precision without fp64", d + 1);
            rc = som_ocl_open(d, SOM_DOUBLE, NULL, &ctx, &st);
            check_fail(rc, &st, SOM_ERR_UNAVAILABLE, "som_ocl_open");
            clear_status(&st);
        }
        set_where("device %d: a kernel source that does not build", d + 1);
        printf("  (the OpenCL compiler may now complain about a deliberately broken kernel "
               "source)\n");
        fflush(stdout);
        rc = som_ocl_open(d, prec, "this is not OpenCL C { (", &ctx, &st);
        check_fail(rc, &st, SOM_ERR_BACKEND, "som_ocl_open");
        check(st.api_status == -11, "api_status %d, expected CL_BUILD_PROGRAM_FAILURE",
              st.api_status);
        check(st.log != NULL && st.log[0] != '\0', "no build log");
        check(ctx == NULL, "no context, yet *out is set");
        if (verbose && st.log) printf("  build log: %.200s\n", st.log);
        clear_status(&st);
        set_where("device %d: a kernel source without the kernels", d + 1);
        rc = som_ocl_open(d, prec, "__kernel void k_other(__global int *a) { a[0] = 1; }\n",
                          &ctx, &st);
        check_fail(rc, &st, SOM_ERR_BACKEND, "som_ocl_open");
        check(st.api_status == -46, "api_status %d, expected CL_INVALID_KERNEL_NAME",
              st.api_status);
        check(ctx == NULL, "no context, yet *out is set");
        clear_status(&st);
    }
}

static void ocl_part(prob *probs, int np)
{
    som_ocl_device *devs = NULL;
    som_status st;
    int ndev = 0, rc, d, i;

    set_where("som_ocl_list");
    check(som_ocl_built() == 1, "som_ocl_built() is 0 in an OpenCL build");
    som_status_init(&st);
    rc = som_ocl_list(&devs, &ndev, &st);
    check(rc == SOM_OK, "som_ocl_list returned %d: %s", rc, st.message);
    clear_status(&st);
    check(!som_ocl_forked(), "som_ocl_forked() in the parent");
    if (rc != SOM_OK || ndev == 0) {
        printf("  OpenCL part skipped: no OpenCL device\n");
        free(devs);
        return;
    }
    for (d = 0; d < ndev; d++) {
        const som_ocl_device *v = devs + d;
        set_where("device %d", d + 1);
        check(v->name[0] && v->platform[0] && v->version[0], "empty device strings");
        check(!strcmp(v->type, "GPU") || !strcmp(v->type, "CPU") ||
                  !strcmp(v->type, "ACCELERATOR") || !strcmp(v->type, "OTHER"),
              "device type '%s'", v->type);
        check(v->compute_units > 0 && v->global_mem > 0 && v->max_alloc > 0 &&
                  v->max_alloc <= v->global_mem && v->max_group >= 1,
              "device figures");
    }
    ocl_open_checks(ndev, devs);

    for (d = 0; d < ndev; d++) {
        int pi;
        for (pi = 0; pi < 2; pi++) {
            const int prec = pi == 0 ? SOM_DOUBLE : SOM_SINGLE;
            const size_t rs = prec == SOM_DOUBLE ? sizeof(double) : sizeof(float);
            char dev[200];
            som_ocl_ctx *ctx = NULL;
            long refs;
            int runs = 0;
            double t0 = som_now_seconds();
            if (prec == SOM_DOUBLE && !devs[d].fp64) continue;
            snprintf(dev, sizeof dev, "device %d %s", d + 1, prec == SOM_DOUBLE ? "double"
                                                                                : "single");
            set_where("%s: som_ocl_open", dev);
            som_status_init(&st);
            rc = som_ocl_open(d, prec, NULL, &ctx, &st);
            if (!check(rc == SOM_OK && ctx != NULL, "som_ocl_open returned %d: %s%s%.500s", rc,
                       st.message, st.log ? "\n" : "", st.log ? st.log : "")) {
                clear_status(&st);
                continue;
            }
            clear_status(&st);
            check(strcmp(ctx->info.name, devs[d].name) == 0 && ctx->precision == prec,
                  "the context's device or precision");
            refs = ctx_refcount(ctx);
            if (refs <= 0)
                printf("  note: context reference count not readable: OpenCL object leak "
                       "checks skipped\n");
            /* one context for many problems: every problem in double, every third in
             * single */
            for (i = 0; i < np; i++) {
                som_ocl_opts o;
                if (prec == SOM_SINGLE && i % 3) continue;
                o = pick_opts(&probs[i].p, i + d, rs);
                set_where("%s, %s, kernel %s local %d stream %d max_alloc %.0f launch %g", dev,
                          probs[i].desc, kernel_name(o.kernel), o.group_local, o.stream_data,
                          o.max_alloc, o.launch_seconds);
                if (verbose) printf("  %s\n", where);
                ocl_train_checks(ctx, &probs[i], &o, refs);
                runs++;
            }
            ocl_error_checks(ctx, refs, dev);
            if (prec == SOM_DOUBLE) ocl_trace_chunks_check(ctx, refs, dev);
            set_where("%s: som_ocl_close", dev);
            close_checked(ctx);
            printf("  OpenCL %s (%s): %d problems and the failure cases on one context, "
                   "%.1f s\n", dev, devs[d].name, runs, som_now_seconds() - t0);
            /* a context per problem, opened and closed around it */
            for (i = 0; i < np && i < 2; i++) {
                som_ocl_opts o = pick_opts(&probs[i].p, i + 1, rs);
                set_where("%s, fresh context, %s", dev, probs[i].desc);
                som_status_init(&st);
                rc = som_ocl_open(d, prec, NULL, &ctx, &st);
                if (check(rc == SOM_OK, "som_ocl_open returned %d: %s", rc, st.message)) {
                    ocl_train_checks(ctx, &probs[i], &o, ctx_refcount(ctx));
                    close_checked(ctx);
                }
                clear_status(&st);
            }
        }
    }
    free(devs);
}

#else /* no OpenCL: the stubs say so */

static void ocl_part(prob *probs, int np)
{
    som_ocl_device *devs = (som_ocl_device *)&np;
    som_ocl_ctx *ctx = (som_ocl_ctx *)&np;
    som_status st;
    som_ocl_opts o;
    int ndev = -1, rc, used = -1;
    (void)probs;
    memset(&o, 0, sizeof o);
    set_where("CPU-only build: OpenCL stubs");
    check(som_ocl_built() == 0 && som_ocl_forked() == 0, "som_ocl_built() in a CPU-only build");
    som_status_init(&st);
    rc = som_ocl_list(&devs, &ndev, &st);
    check(rc == SOM_OK && ndev == 0 && devs == NULL, "som_ocl_list: %d, %d devices", rc, ndev);
    rc = som_ocl_open(0, SOM_DOUBLE, NULL, &ctx, &st);
    check_fail(rc, &st, SOM_ERR_UNAVAILABLE, "som_ocl_open");
    check(ctx == NULL, "som_ocl_open set a context");
    clear_status(&st);
    rc = ocl_train(NULL, &probs[0].p, NULL, &o, NULL, &used, &st);
    check_fail(rc, &st, SOM_ERR_UNAVAILABLE, "som_train (opencl)");
    clear_status(&st);
    som_ocl_close(NULL);
    printf("  OpenCL part skipped: built without OpenCL (CPU-only variant)\n");
}

#endif

/* --- main -------------------------------------------------------------------------- */

int main(int argc, char **argv)
{
    int count = 64, i;
    unsigned long seed = 20240611;
    prob *probs;
    rng r;
    double t0 = som_now_seconds();

    for (i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "-n") && i + 1 < argc) count = atoi(argv[++i]);
        else if (!strcmp(argv[i], "-s") && i + 1 < argc) seed = strtoul(argv[++i], NULL, 10);
        else if (!strcmp(argv[i], "-v")) verbose = 1;
        else {
            fprintf(stderr, "usage: %s [-n COUNT] [-s SEED] [-v]\n", argv[0]);
            return 2;
        }
    }
    if (count < 1) count = 1;
    som_threads_init();
    printf("harness [%s]: seed %lu, %d problems, OpenMP %s (up to %d threads), OpenCL %s\n",
           HARNESS_VARIANT, seed, count, som_have_openmp() ? "yes" : "no", som_max_threads(),
           som_ocl_built() ? "built" : "not built");
    fflush(stdout);

    invalid_problem_checks();
    status_name_checks();

    r.s = seed;
    probs = calloc((size_t)count, sizeof *probs);
    for (i = 0; i < count; i++) {
        gen_problem(&r, i, &probs[i]);
        set_where("%s", probs[i].desc);
        if (verbose) printf("  %s\n", probs[i].desc);
        cpu_checks(&probs[i]);
    }
    printf("  CPU: %d problems trained with 1 and 2 threads and assessed, %.1f s\n", count,
           som_now_seconds() - t0);
    fflush(stdout);
    cpu_interrupt_checks();
    ocl_part(probs, count);

    for (i = 0; i < count; i++) free_problem(&probs[i]);
    free(probs);
    free(intr_x);
    printf("  total %.1f s\n", som_now_seconds() - t0);
    printf("harness [%s]: %ld checks passed, %ld failed\n", HARNESS_VARIANT, n_pass, n_fail);
    return n_fail ? 1 : 0;
}
