/* som_driver.c: the one training loop (see som_engine.h). For each cohort of maps the
 * backend can hold: prepare; slice after slice, move the maps on, end the pass (batch),
 * record the trace, report progress, check for an interrupt; read the weights; release.
 * Whatever happens, what a backend prepared is released before som_train returns. */
#include <stdlib.h>
#include <string.h>

#include "som_assess.h"
#include "som_engine.h"
#include "som_omp.h"
#include "som_schedule.h"

/* The factor table holds about this many bytes: passes per slice at most. */
#define SOM_FACTOR_BYTES 8e6

const double *som_factor_pass(som_factors *f, int t)
{
    const size_t block = (size_t)f->nsched * f->width;
    int j;
    for (; f->made <= t - f->t_first; f->made++)
        for (j = 0; j < f->nsched; j++) /* schedule j from the first map that has it */
            som_neighbourhood_row(f->p, f->first[j], f->t_first + f->made, f->width - 1,
                                  f->tab + f->made * block + (size_t)j * f->width);
    return som_factor_block(f, t);
}

static int largest(const som_problem *p)
{
    int i, N = 0;
    for (i = 0; i < p->nmaps; i++)
        if (p->size[i] > N) N = p->size[i];
    return N;
}

int som_factor_rows(double block, int passes)
{
    double rows = SOM_FACTOR_BYTES / (block * sizeof(double));
    if (rows > passes) rows = passes;
    return rows < 1 ? 1 : (int)rows;
}

int som_factors_open(som_factors *f, const som_problem *p, som_status *st)
{
    memset(f, 0, sizeof *f);
    f->p = p;
    f->width = largest(p) / 2 + 1;
    f->sched = malloc((size_t)p->nmaps * sizeof *f->sched);
    f->first = malloc((size_t)p->nmaps * sizeof *f->first);
    if (f->sched && f->first) {
        f->nsched = som_schedules(p, f->sched);
        f->rows = som_factor_rows((double)f->nsched * f->width, p->iter_max - 1);
        f->tab = som_alloc((double)f->rows * f->nsched * f->width, sizeof *f->tab);
    }
    if (!f->sched || !f->first || !f->tab) {
        som_factors_close(f);
        return som_fail(st, SOM_ERR_NOMEM, "could not allocate the schedule");
    }
    return SOM_OK;
}

void som_factors_cohort(som_factors *f, const som_problem *cohort)
{
    int i;
    f->p = cohort;
    f->nsched = som_schedules(cohort, f->sched);
    for (i = cohort->nmaps - 1; i >= 0; i--) f->first[f->sched[i]] = i;
    f->t_first = 0; /* no pass made */
    f->made = 0;
}

void som_factors_close(som_factors *f)
{
    free(f->sched);
    free(f->first);
    free(f->tab);
    f->sched = f->first = NULL;
    f->tab = NULL;
}

int som_pass_end(const som_engine *e, void *state, som_factors *f, int t, som_status *st)
{
    if (!e->end_pass) return SOM_OK;
    if (f->made == 0 || t < f->t_first || t >= f->t_first + f->rows) { /* not this table's */
        f->t_first = t;
        f->made = 0;
    }
    som_factor_pass(f, t);
    return e->end_pass(state, f, t, st);
}

/* Maps first .. last - 1 of p as a problem of their own; for an engine without views (one
 * view: see cohort_end), a problem on that view's data and seed; for one with views, a
 * problem with the views its maps use (their indices from 0 again, in vbuf: nmaps ints). */
static som_problem sub_problem(const som_problem *p, const som_engine *e, int first, int last,
                               int *vbuf)
{
    som_problem q = *p;
    q.nmaps = last - first;
    q.size = p->size + first;
    q.restart = p->restart + first;
    q.sigma0 = p->sigma0 + first;
    q.init_w = p->init_w ? p->init_w + first : NULL;
    q.trace = p->trace ? p->trace + (size_t)first * (p->iter_max - 1) : NULL;
    if (p->view && e->views) {
        const int v0 = p->view[first];
        int i;
        for (i = first; i < last; i++) vbuf[i] = p->view[i] - v0;
        q.view = vbuf + first;
        q.views = p->views + v0;
        q.seeds = p->seeds + v0;
        q.nviews = p->view[last - 1] - v0 + 1;
        q.data = q.views[0];
    } else if (p->view) {
        q.data = p->views[p->view[first]];
        q.seed = p->seeds[p->view[first]];
        q.nviews = 0;
        q.views = NULL;
        q.seeds = NULL;
        q.view = NULL;
    }
    return q;
}

/* Where the cohort of maps from `first` ends: at the end of first's view for an engine
 * without views, then where the engine's cohort callback says. */
static int cohort_end(const som_engine *e, const som_backend *be, const som_problem *p,
                     int first, int *last, som_status *st)
{
    som_problem part = *p; /* the maps up to the view's end (the views share a shape) */
    *last = p->nmaps;
    if (p->view && !e->views)
        for (*last = first + 1; *last < p->nmaps && p->view[*last] == p->view[first]; (*last)++) {}
    part.nmaps = *last;
    return e->cohort ? e->cohort(be->cfg, &part, first, last, st) : SOM_OK;
}

/* What the driver holds for a trace that it computes itself: the cohort's weights,
 * column-major, and their qe. */
typedef struct {
    double *w, **wp, *qe;
} trace_buf;

static int trace_alloc(const som_problem *p, trace_buf *tb, int own)
{
    size_t tot = 0;
    int i;
    memset(tb, 0, sizeof *tb);
    tb->qe = malloc((size_t)p->nmaps * sizeof *tb->qe);
    if (!tb->qe) return SOM_ERR_NOMEM;
    if (!own) return SOM_OK;
    for (i = 0; i < p->nmaps; i++) tot += (size_t)p->size[i] * p->data.m;
    tb->w = malloc(tot * sizeof *tb->w);
    tb->wp = malloc((size_t)p->nmaps * sizeof *tb->wp);
    if (!tb->w || !tb->wp) return SOM_ERR_NOMEM;
    for (tot = 0, i = 0; i < p->nmaps; i++) {
        tb->wp[i] = tb->w + tot;
        tot += (size_t)p->size[i] * p->data.m;
    }
    return SOM_OK;
}

static void trace_free(trace_buf *tb)
{
    free(tb->w);
    free(tb->wp);
    free(tb->qe);
}

/* The qe of every map of the cohort after pass t, into the trace. */
static int trace_pass(const som_engine *e, void *state, const som_problem *p, int t,
                      int threads, trace_buf *tb, som_status *st)
{
    int i, rc;
    if (e->trace && !p->view) {
        rc = e->trace(state, tb->qe, st);
    } else { /* the weights read, and each view's maps assessed on its data */
        int first, last;
        rc = e->read(state, tb->wp, st);
        for (first = 0; rc == SOM_OK && first < p->nmaps; first = last) {
            som_maps maps;
            for (last = first + 1; p->view && last < p->nmaps && p->view[last] == p->view[first];
                 last++) {}
            if (!p->view) last = p->nmaps;
            maps.nmaps = last - first;
            maps.size = p->size + first;
            maps.weights = (const double *const *)tb->wp + first;
            rc = som_qe_maps(som_map_data(p, first), &maps, threads, tb->qe + first, st);
        }
    }
    if (rc == SOM_OK)
        for (i = 0; i < p->nmaps; i++) p->trace[(size_t)i * (p->iter_max - 1) + (t - 1)] = tb->qe[i];
    return rc;
}

/* Train the maps of one cohort (a sub-problem) on engine e: progress from `offset` to
 * `offset + share`. */
static int train_cohort(const som_engine *e, const som_backend *be, const som_problem *p,
                       som_factors *fac, double *const *weights, const som_hooks *hooks,
                       double offset, double share, som_status *st)
{
    const int64_t n = p->data.n, total = (int64_t)(p->iter_max - 1) * n;
    const int pass_ends = p->algorithm == SOM_BATCH || p->trace != NULL;
    void *state = NULL;
    trace_buf tb;
    int64_t pos = 0;
    int rc;

    memset(&tb, 0, sizeof tb);
    som_factors_cohort(fac, p);
    rc = e->prepare(be->cfg, p, fac, &state, st);
    if (rc == SOM_OK && p->trace && trace_alloc(p, &tb, e->trace == NULL || p->view) != SOM_OK)
        rc = som_fail(st, SOM_ERR_NOMEM, "could not allocate memory for the trace");
    while (rc == SOM_OK && pos < total) {
        const int t = (int)(pos / n) + 1;
        som_slice s;
        int64_t reached = pos;
        s.from = pos;
        s.limit = (int64_t)(t - 1 + fac->rows) * n;
        if (pass_ends) s.limit = (int64_t)t * n;
        if (s.limit > total) s.limit = total;
        s.factors = fac;
        if (fac->t_first != t) { /* rows made for slices from the same pass stay valid */
            fac->t_first = t;
            fac->made = 0;
        }
        rc = e->advance(state, &s, &reached, st);
        if (rc != SOM_OK) break;
        if (reached <= pos || reached > s.limit) {
            rc = som_fail(st, SOM_ERR_BACKEND, "%s: a slice did not move on", e->name);
            break;
        }
        pos = reached;
        if (pass_ends && pos == (int64_t)t * n) { /* pass t is over */
            if ((rc = som_pass_end(e, state, fac, t, st))) break;
            if (p->trace && (rc = trace_pass(e, state, p, t, be->threads, &tb, st))) break;
        }
        if (pos < total && hooks && hooks->interrupted && hooks->interrupted(hooks->ud)) {
            rc = som_fail(st, SOM_ERR_INTERRUPTED, "training interrupted");
            break;
        }
        if (hooks && hooks->progress)
            hooks->progress(hooks->ud, offset + share * ((double)pos / (double)total));
    }
    if (rc == SOM_OK) rc = e->read(state, weights, st);
    if (e->release) e->release(state);
    trace_free(&tb);
    return rc;
}

/* The backend's engine for the algorithm and a family of this shape (som_engine.pick). */
static const som_engine *engine_for(const som_backend *be, int algorithm, const som_family *f)
{
    const som_engine *e = be->engine[algorithm], *other;
    if (e && e->pick && (other = e->pick(be->cfg, f)) != NULL) e = other;
    return e;
}

int som_train(const som_problem *p, const som_backend *be, double *const *weights,
              const som_hooks *hooks, som_status *st)
{
    const som_engine *e;
    som_factors fac;
    som_family f;
    double total = 0, done = 0;
    int rc, first, last, i, *vbuf = NULL;

    if ((rc = som_check_problem(p, st)) != SOM_OK) return rc;
    som_family_of(p, &f);
    e = engine_for(be, p->algorithm, &f);
    if (e == NULL)
        return som_fail(st, SOM_ERR_UNAVAILABLE, "this backend has no %s algorithm",
                        p->algorithm == SOM_BATCH ? "batch" : "online");
    if (p->view && (vbuf = malloc((size_t)p->nmaps * sizeof *vbuf)) == NULL)
        return som_fail(st, SOM_ERR_NOMEM, "could not allocate the maps' views");
    if ((rc = som_factors_open(&fac, p, st)) != SOM_OK) {
        free(vbuf);
        return rc;
    }
    /* cohorts of maps the backend holds at once; progress in proportion to their neurons */
    for (i = 0; i < p->nmaps; i++) total += p->size[i];
    for (first = 0; first < p->nmaps && rc == SOM_OK; first = last) {
        som_problem q;
        double part = 0;
        if ((rc = cohort_end(e, be, p, first, &last, st)) != SOM_OK) break;
        q = sub_problem(p, e, first, last, vbuf);
        for (i = first; i < last; i++) part += p->size[i];
        rc = train_cohort(e, be, &q, &fac, weights + first, hooks, done / total, part / total,
                         st);
        done += part;
    }
    som_factors_close(&fac);
    free(vbuf);
    return rc;
}

void som_train_plan(const som_family *f, int algorithm, const som_backend *be, int threads,
                    som_plan *plan)
{
    const som_engine *e = be ? engine_for(be, algorithm == SOM_BATCH, f) : NULL;
    const double block = (double)(f->size_max / 2 + 1) * (f->schedules > 1 ? f->schedules : 1);
    if (e) { /* training here: the driver's buffers and the engine's */
        som_plan_add(plan, "neighbourhood factors",
                     ((double)som_factor_rows(block, f->passes) * block + f->nmaps) *
                         sizeof(double),
                     SOM_HOST);
        if (f->trace)
            som_plan_add(plan, "trace: qe of the maps",
                         (e->trace ? 0 : f->size_sum * f->m + f->nmaps) * sizeof(double) +
                             f->nmaps * sizeof(double),
                         SOM_HOST);
        if (e->plan) e->plan(be->cfg, f, plan);
    }
    som_assess_plan(f, threads, plan);
}
