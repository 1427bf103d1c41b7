/* harness_cpu.c: the CPU backend against itself (threads, slices), the assessment against a
 * plain search and the kernels' own (see harness.c; refusals and interrupts are in
 * harness_refuse.c). */
#include "harness.h"

/* The data, row-major (malloc'ed): the plain winner search reads a row at a time. */
static double *rowmajor_data(const som_data *d)
{
    double *out = malloc((size_t)d->n * d->m * sizeof *out);
    int64_t i;
    int k;
    if (out)
        for (k = 0; k < d->m; k++)
            for (i = 0; i < d->n; i++) out[(size_t)i * d->m + k] = d->x[(size_t)k * d->n + i];
    return out;
}

/* The kernels' nearest-neuron searches (som_math.h), compiled as C. */
SOM_SQDIST(kernel_sqdist, double, , )
SOM_NEAREST(kernel_nearest, kernel_sqdist, double, , )
SOM_SQDIST_GENERAL(kernel_sqdist_general, double, , )
SOM_NEAREST_GENERAL(kernel_nearest_general, kernel_sqdist_general, double, , )

/* A plain winner search written here, apart from the package's: the nearest neuron of x
 * among the size neurons of w (row-major), the lowest index among equals, with the squared
 * distance and the runner-up (the lowest index among equals but the winner). cw: NULL, or
 * column weights; missing values (NaN) are left out. */
static int ref_winner(const double *x, const double *w, int size, int m, const double *cw,
                      double *best_d2, int *second)
{
    int j, k, best = 0, next = -1;
    double bd = HUGE_VAL, nd = HUGE_VAL, *d = malloc((size_t)size * sizeof *d);
    for (j = 0; j < size; j++) {
        d[j] = 0;
        for (k = 0; k < m; k++) {
            const double t = x[k] - w[(size_t)j * m + k];
            if (isnan(x[k])) continue;
            d[j] += cw ? cw[k] * (t * t) : t * t;
        }
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
                        NULL, &st);
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
    /* a plain winner search (the general path: column weights, missing values left out,
     * qe rescaled by m / the observed values) */
    xr = rowmajor_data(&p->data);
    {
        const int general = som_data_general(&p->data);
        double *ones = malloc((size_t)m * sizeof *ones);
        const double *cw = p->data.col_w;
        int k;
        for (k = 0; k < m; k++) ones[k] = 1;
        if (general && !cw) cw = ones;
    for (i = 0; i < nmaps; i++) {
        double *wr = malloc((size_t)p->size[i] * m * sizeof *wr), sq = 0, ss = 0;
        int64_t wrong = 0, kwrong = 0, topo = 0;
        som_rowmajor_weights(w[i], p->size[i], m, wr);
        for (j = 0; j < n; j++) {
            const double *x = xr + (size_t)j * m;
            double bd, kd, scale = 1;
            int second, c = ref_winner(x, wr, p->size[i], m, general ? cw : NULL, &bd, &second);
            int kc = general ? kernel_nearest_general(x, wr, cw, p->size[i], m, &kd)
                             : kernel_nearest(x, wr, p->size[i], m, &kd);
            if (general) {
                int seen = 0;
                for (k = 0; k < m; k++) seen += !isnan(x[k]);
                scale = seen ? (double)m / seen : 0;
            }
            wrong += cl[0][i][j] != c + 1;
            kwrong += kc != c || kd != bd;
            topo += som_ring_dist(c, second, p->size[i]) > 1;
            sq += general ? sqrt(scale * bd) : sqrt(bd);
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
        free(ones);
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
        } else { /* every neuron a row of the data (missing values: the fill values) */
            for (j = 0; j < N; j++) {
                int64_t row, found = 0;
                for (row = 0; row < p->data.n && !found; row++) {
                    for (k = 0; k < m; k++) {
                        double v = p->data.x[(size_t)k * p->data.n + row];
                        if (isnan(v) && p->fill) v = p->fill[k];
                        if (w[i][(size_t)k * N + j] != v) break;
                    }
                    found = k == m;
                }
                bad += !found;
            }
        }
        check(bad == 0, "map %d: no pass, but the weights are not the %s initial weights", i,
              init_name(p->init));
    }
}

/* The data through a source, as a file-backed matrix gives them: each window copied from
 * the matrix in memory, its bounds checked. */
typedef struct {
    som_source src; /* first */
    const som_data *d;
    int64_t reads;
} mem_source;

static int mem_read(som_source *src, int64_t first, int64_t rows, double *out, som_status *st)
{
    mem_source *ms = (mem_source *)src;
    int k;
    if (first < 0 || rows < 1 || first + rows > ms->d->n)
        return som_fail(st, SOM_ERR_INVALID, "a window beyond the data");
    for (k = 0; k < ms->d->m; k++)
        memcpy(out + (size_t)k * rows, ms->d->x + (size_t)k * ms->d->n + first,
               (size_t)rows * sizeof *out);
    ms->reads++;
    return SOM_OK;
}

/* Batch training and the assessment with the data read from a source, in small rounds:
 * the bits (weights, trace, qe) of the data in memory. */
static void source_checks(prob *pr, double *const *w0, const double *t0)
{
    som_problem p = pr->p;
    mem_source ms;
    som_maps maps;
    som_status st;
    double **w = alloc_weights(&p), *t = pr->want_trace ? alloc_trace(&p) : NULL;
    double *qa = malloc((size_t)p.nmaps * sizeof *qa), *qb = malloc((size_t)p.nmaps * sizeof *qb);
    int rc;
    ms.src.read = mem_read;
    ms.d = &pr->p.data;
    ms.reads = 0;
    p.data.x = NULL;
    p.data.src = &ms.src;
    p.trace = t;
    som_status_init(&st);
    rc = cpu_train(&p, w, 2, 20000, NULL, &st);
    if (check(rc == SOM_OK, "som_train from a source returned %d: %s", rc, st.message)) {
        check(same_weights(&p, w0, w), "weights differ: the data from a source vs in memory");
        if (t)
            check(memcmp(t0, t, trace_len(&p) * sizeof(double)) == 0,
                  "trace differs: the data from a source vs in memory");
        maps.nmaps = p.nmaps;
        maps.size = p.size;
        maps.weights = (const double *const *)w0;
        rc = som_assess(&pr->p.data, &maps, 2, 0, NULL, qa, NULL, NULL, NULL, NULL, &st) ||
             som_assess(&p.data, &maps, 2, 5000, NULL, qb, NULL, NULL, NULL, NULL, &st);
        check(rc == SOM_OK && memcmp(qa, qb, (size_t)p.nmaps * sizeof *qa) == 0,
              "qe differs: the data from a source vs in memory");
        check(ms.reads > 0, "the source was never read");
    }
    clear_status(&st);
    free_weights(w, p.nmaps);
    free(t);
    free(qa);
    free(qb);
}

/* 1 thread, 2 threads and 2 threads in small rounds: the same bits, finite weights, sane
 * progress, a trace whose last pass is som_assess's qe; batch, the same from a source.
 * Keeps the 1-thread result. */
void cpu_checks(prob *pr)
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
        if (p->algorithm == SOM_BATCH) source_checks(pr, w[0], t[0]);
    }
    pr->ref_ok = ok;
    pr->ref_w = w[0];
    pr->ref_trace = t[0];
    for (r = 1; r < 3; r++) {
        free_weights(w[r], p->nmaps);
        free(t[r]);
    }
}
