/* harness.c: drives somgpu's pure-C core (src/, without R: the harness takes the R glue's
 * place) and both backends on deterministic random problems, and checks what the package
 * promises: the same bits whatever the thread count or slicing of the work, OpenCL double
 * precision equal to the CPU bit for bit, refusals of invalid problems, clean stops on
 * interrupts and nothing left behind (the Makefile builds it with ASan, LSan and UBSan).
 *
 * Every assertion is one check; the last line reads
 *   harness [VARIANT]: N checks passed, M failed
 * and the exit status is nonzero when any check failed.
 *
 * This file: the checks' bookkeeping, random problems, hooks, the entry points and main;
 * harness_cpu.c the CPU backend and the assessment;
 * harness_refuse.c invalid problems, status names and interrupts;
 * harness_ocl.c the OpenCL backend; harness_gpu.c what PoCL never runs by itself.
 *
 * Usage: harness [-n COUNT] [-s SEED] [-v]   (COUNT random problems, default 64) */
#include "harness.h"

/* --- checks ------------------------------------------------------------------------ */

long n_pass, n_fail;
int verbose;
char where[256]; /* the case under test, for failure messages */

int check(int ok, const char *fmt, ...)
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

void set_where(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(where, sizeof where, fmt, ap);
    va_end(ap);
}

/* A failed call: the expected code, in the status too, with a message. */
void check_fail(int rc, const som_status *st, int want, const char *what)
{
    check(rc == want, "%s: returned %d, expected %d (%s)", what, rc, want, st->message);
    check(st->code == want, "%s: status code %d, expected %d", what, st->code, want);
    check(st->message[0] != '\0', "%s: no message in the status", what);
}

/* som_status_clear leaves a fresh status (and frees the log). */
void clear_status(som_status *st)
{
    som_status_clear(st);
    check(st->code == SOM_OK && st->api_status == 0 && st->message[0] == '\0' && st->log == NULL,
          "som_status_clear did not reset the status");
}

/* --- random numbers: splitmix64, our own so that problems are the same everywhere --- */


uint64_t rnext(rng *r)
{
    uint64_t z = (r->s += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

double runif(rng *r)
{
    return (double)(rnext(r) >> 11) * (1.0 / 9007199254740992.0);
}

int rint_in(rng *r, int lo, int hi) /* lo .. hi inclusive */
{
    return lo + (int)(rnext(r) % (uint64_t)(hi - lo + 1));
}

double rnorm(rng *r)
{
    double u = runif(r), v = runif(r);
    return sqrt(-2.0 * log(1.0 - u)) * cos(6.283185307179586 * v);
}

/* --- problems ---------------------------------------------------------------------- */


const char *init_name(int init)
{
    return init == SOM_INIT_UNIFORM ? "uniform" : init == SOM_INIT_SAMPLE ? "sample" : "given";
}

size_t trace_len(const som_problem *p)
{
    return (size_t)(p->iter_max - 1) * (size_t)p->nmaps;
}

/* A random valid problem. The data come in several kinds: ties between neurons (integer
 * data and weights, duplicate rows) test the lowest-index rule on every backend, large
 * offsets the distance arithmetic far from the origin. */
void gen_problem(rng *r, int idx, prob *pr)
{
    static const char *kinds[] = {"uniform", "clusters", "integers", "offset", "scales"};
    som_problem *p = &pr->p;
    int n, m, nmaps, i, kind, bb;
    size_t e;
    double u = runif(r);

    memset(pr, 0, sizeof *pr);
    pr->big = idx % 16 == 7;
    n = u < 0.25 ? rint_in(r, 2, 20) : u < 0.7 ? rint_in(r, 21, 400) : rint_in(r, 401, 1500);
    m = rint_in(r, 1, 12);
    nmaps = rint_in(r, 1, 6);
    if (pr->big) { /* 257 .. 300 neurons x 24 columns: 49 to 58 KB of doubles per map */
        n = rint_in(r, 300, 400);
        m = 24;
        nmaps = 2;
    }
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
        if (pr->big) pr->size[i] = rint_in(r, 257, 300);
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
    p->iter_max = u < 0.08 && !pr->big ? 1 : rint_in(r, 2, 6);
    /* sigma0: one for every map, one per size (as sigma0 = "auto"), or one per map */
    pr->sigma0 = malloc((size_t)nmaps * sizeof *pr->sigma0);
    u = runif(r);
    for (i = 0; i < nmaps; i++) {
        if (i > 0 && (u < 0.5 || (u < 0.8 && pr->size[i] == pr->size[i - 1])))
            pr->sigma0[i] = pr->sigma0[i - 1];
        else /* 0.05: factors below 1e-30 */
            pr->sigma0[i] = runif(r) < 0.1 ? 0.05 : 0.3 + 5.7 * runif(r);
    }
    p->sigma0 = pr->sigma0;
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
    /* the general path: missing values (every row keeps an observed one), column weights
     * (some 0) */
    if (runif(r) < 0.3 && m > 1) {
        int k;
        for (i = 0; i < n; i++)
            for (k = 1; k < m; k++) /* column 0 stays observed */
                if (runif(r) < 0.2) pr->x[(size_t)k * n + i] = NAN;
        for (i = 0; i < n; i++) /* and, in some rows, column 0 is the missing one */
            if (runif(r) < 0.1 && !isnan(pr->x[(size_t)(m - 1) * n + i])) pr->x[i] = NAN;
        p->data.missing = 1;
        pr->fill = malloc((size_t)m * sizeof *pr->fill);
        for (k = 0; k < m; k++) { /* the observed values' mean */
            double sum = 0;
            int seen = 0;
            for (i = 0; i < n; i++)
                if (!isnan(pr->x[(size_t)k * n + i])) {
                    sum += pr->x[(size_t)k * n + i];
                    seen++;
                }
            pr->fill[k] = seen ? sum / seen : 0;
        }
        if (p->init == SOM_INIT_SAMPLE) p->fill = pr->fill;
    }
    if (runif(r) < 0.3) {
        int k;
        pr->col_w = malloc((size_t)m * sizeof *pr->col_w);
        for (k = 0; k < m; k++) pr->col_w[k] = runif(r) < 0.2 ? 0 : 3 * runif(r);
        p->data.col_w = pr->col_w;
    }
    snprintf(pr->desc, sizeof pr->desc,
             "problem %d: n=%d m=%d maps=%d (sizes %d..) iter_max=%d %s init=%s block=%d "
             "trace=%d data=%s%s%s%s",
             idx, n, m, nmaps, pr->size[0], p->iter_max,
             p->algorithm == SOM_BATCH ? "batch" : "online", init_name(p->init),
             p->batch_block, pr->want_trace, kinds[kind], p->data.missing ? " missing" : "",
             p->data.col_w ? " weighted" : "", pr->big ? " big rings" : "");
}

double **alloc_weights(const som_problem *p)
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

void free_weights(double **w, int nmaps)
{
    int i;
    if (!w) return;
    for (i = 0; i < nmaps; i++) free(w[i]);
    free(w);
}

double *alloc_trace(const som_problem *p)
{
    size_t e, ne = trace_len(p);
    double *t = malloc((ne ? ne : 1) * sizeof *t);
    for (e = 0; e < ne; e++) t[e] = NAN;
    return t;
}

void free_problem(prob *pr)
{
    int i;
    if (pr->iw)
        for (i = 0; i < pr->p.nmaps; i++) free(pr->iw[i]);
    free(pr->iw);
    free_weights(pr->ref_w, pr->p.nmaps);
    free(pr->ref_trace);
    free(pr->x);
    free(pr->col_w);
    free(pr->fill);
    free(pr->size);
    free(pr->restart);
    free(pr->sigma0);
}

int same_weights(const som_problem *p, double *const *a, double *const *b)
{
    int i;
    for (i = 0; i < p->nmaps; i++)
        if (memcmp(a[i], b[i], (size_t)p->size[i] * p->data.m * sizeof(double)) != 0) return 0;
    return 1;
}

int all_finite(const som_problem *p, double *const *w)
{
    int i;
    size_t e;
    for (i = 0; i < p->nmaps; i++)
        for (e = 0; e < (size_t)p->size[i] * p->data.m; e++)
            if (!isfinite(w[i][e])) return 0;
    return 1;
}

int trace_finite(const som_problem *p, const double *t)
{
    size_t e;
    for (e = 0; e < trace_len(p); e++)
        if (!isfinite(t[e]) || t[e] < 0) return 0;
    return 1;
}

/* --- hooks ------------------------------------------------------------------------- */


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

som_hooks make_hooks(hookstate *h, int stop_after)
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
void check_progress(const som_problem *p, const hookstate *h, const char *what)
{
    check(h->pbad == 0, "%s: progress fractions out of order or out of [0, 1]", what);
    if (p->iter_max > 1)
        check(h->pcalls > 0 && fabs(h->last - 1) < 1e-9, "%s: progress ended at %g (%d calls)",
              what, h->last, h->pcalls);
}

/* --- the entry points: som_train on a CPU or an OpenCL backend ---------------------- */

/* som_train on the CPU backend with nthreads threads and round_units of work per round,
 * in precision prec (cpu_train: double). */
int cpu_train_in(const som_problem *p, double *const *w, int nthreads, double units,
                 int prec, const som_hooks *hooks, som_status *st)
{
    som_cpu_cfg cfg;
    som_backend be;
    cfg.threads = nthreads;
    cfg.round_units = units;
    cfg.precision = prec;
    be = som_cpu_backend(&cfg);
    return som_train(p, &be, w, hooks, st);
}

int cpu_train(const som_problem *p, double *const *w, int nthreads, double units,
              const som_hooks *hooks, som_status *st)
{
    return cpu_train_in(p, w, nthreads, units, SOM_DOUBLE, hooks, st);
}

/* som_train on an OpenCL context with options o; *used gets the kernels that ran. */
int ocl_train(som_ocl_ctx *ctx, const som_problem *p, double *const *w,
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
        if (i % 4 == 1) views_checks(&probs[i], NULL, NULL);
    }
    printf("  CPU: %d problems trained with 1 and 2 threads and assessed, %.1f s\n", count,
           som_now_seconds() - t0);
    fflush(stdout);
    cpu_interrupt_checks();
    ocl_part(probs, count);

    for (i = 0; i < count; i++) free_problem(&probs[i]);
    free(probs);
    intr_free();
    printf("  total %.1f s\n", som_now_seconds() - t0);
    printf("harness [%s]: %ld checks passed, %ld failed\n", HARNESS_VARIANT, n_pass, n_fail);
    return n_fail ? 1 : 0;
}
