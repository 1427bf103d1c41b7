/* harness_views.c: a problem's maps on three views at once (som_problem's views: the data,
 * its rows reversed, the data shifted; a seed each) give each view's maps the bits of a
 * problem of their own on that view's data and seed: on the CPU (the driver gives its
 * engines one view at a time) and on OpenCL (whose online engine trains the views side by
 * side), traces included. */
#include "harness.h"

#define NV 3

typedef struct {
    som_problem p;     /* the views problem */
    som_data views[NV];
    uint32_t seeds[NV];
    double *x[NV];     /* views 1 and 2's data (view 0 is the problem's) */
    int *size, *restart, *view;
    double *sigma0;
    const double **iw;
} views_prob;

static void views_make(const prob *pr, views_prob *v)
{
    const som_problem *p = &pr->p;
    const int64_t n = p->data.n;
    const int m = p->data.m, k = p->nmaps, nm = NV * k;
    int64_t i;
    int c, j, b;
    memset(v, 0, sizeof *v);
    v->x[0] = (double *)p->data.x;
    for (b = 1; b < NV; b++) v->x[b] = malloc((size_t)n * m * sizeof(double));
    for (c = 0; c < m; c++)
        for (i = 0; i < n; i++) {
            const double a = p->data.x[(size_t)c * n + i];
            v->x[1][(size_t)c * n + (n - 1 - i)] = a;
            v->x[2][(size_t)c * n + i] = a + 0.25;
        }
    v->p = *p;
    v->size = malloc((size_t)nm * sizeof *v->size);
    v->restart = malloc((size_t)nm * sizeof *v->restart);
    v->view = malloc((size_t)nm * sizeof *v->view);
    v->sigma0 = malloc((size_t)nm * sizeof *v->sigma0);
    if (p->init_w) v->iw = malloc((size_t)nm * sizeof *v->iw);
    for (b = 0; b < NV; b++) {
        v->views[b] = p->data;
        v->views[b].x = v->x[b];
        v->seeds[b] = p->seed + (uint32_t)(b * 7919);
        for (j = 0; j < k; j++) {
            v->size[b * k + j] = p->size[j];
            v->restart[b * k + j] = p->restart[j];
            v->view[b * k + j] = b;
            v->sigma0[b * k + j] = p->sigma0[j];
            if (v->iw) v->iw[b * k + j] = p->init_w[j];
        }
    }
    v->p.nmaps = nm;
    v->p.size = v->size;
    v->p.restart = v->restart;
    v->p.sigma0 = v->sigma0;
    v->p.init_w = v->iw ? (const double *const *)v->iw : NULL;
    v->p.nviews = NV;
    v->p.views = v->views;
    v->p.seeds = v->seeds;
    v->p.view = v->view;
    v->p.data = v->views[0];
    v->p.trace = NULL;
}

static void views_free(views_prob *v)
{
    int b;
    for (b = 1; b < NV; b++) free(v->x[b]);
    free(v->size);
    free(v->restart);
    free(v->view);
    free(v->sigma0);
    free(v->iw);
}

/* Each view's maps and trace against a problem of their own (the CPU, 1 thread). */
static void views_compare(const prob *pr, const views_prob *v, double *const *w,
                          const double *tr, const char *what)
{
    const int k = pr->p.nmaps;
    int b;
    for (b = 0; b < NV; b++) {
        som_problem q = pr->p;
        double **ref = alloc_weights(&q), *rt = tr ? alloc_trace(&q) : NULL;
        som_status st;
        q.data = v->views[b];
        q.seed = v->seeds[b];
        q.trace = rt;
        som_status_init(&st);
        if (check(cpu_train(&q, ref, 1, 0, NULL, &st) == SOM_OK, "%s: view %d alone: %s", what,
                  b + 1, st.message)) {
            check(same_weights(&q, w + (size_t)b * k, ref), "%s: view %d differs from its own "
                  "problem", what, b + 1);
            if (tr)
                check(memcmp(tr + (size_t)b * trace_len(&q), rt,
                             trace_len(&q) * sizeof(double)) == 0,
                      "%s: view %d's trace differs from its own problem's", what, b + 1);
        }
        clear_status(&st);
        free_weights(ref, q.nmaps);
        free(rt);
    }
}

void views_checks(prob *pr, som_ocl_ctx *ctx, const som_ocl_opts *o)
{
    views_prob v;
    double **w, *tr;
    som_status st;
    int rc, used;
    if (pr->p.data.n * NV > 4000) return; /* small problems suffice */
    views_make(pr, &v);
    w = alloc_weights(&v.p);
    tr = pr->want_trace ? alloc_trace(&v.p) : NULL;
    v.p.trace = tr;
    som_status_init(&st);
    rc = ctx ? ocl_train(ctx, &v.p, w, o, NULL, &used, &st)
             : cpu_train(&v.p, w, 2, 0, NULL, &st);
    if (check(rc == SOM_OK, "views (%s): som_train returned %d: %s", ctx ? "opencl" : "cpu",
              rc, st.message))
        views_compare(pr, &v, w, tr, ctx ? "views (opencl)" : "views (cpu)");
    clear_status(&st);
    /* a view out of order is refused */
    {
        v.view[0] = 2;
        rc = ctx ? ocl_train(ctx, &v.p, w, o, NULL, &used, &st)
                 : cpu_train(&v.p, w, 1, 0, NULL, &st);
        check_fail(rc, &st, SOM_ERR_INVALID, "views out of order");
        clear_status(&st);
    }
    free_weights(w, v.p.nmaps);
    free(tr);
    views_free(&v);
}
