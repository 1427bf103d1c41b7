/* som_ocl_online.c: the online rule on an OpenCL device (the engine som_ocl_online). Every
 * map of the cohort moves through the same steps in each launch: small maps with a
 * work-item each (k_online_item), large ones with a work-group each (k_online_wg_*,
 * weights in local memory when they fit), the two kernels on separate queues so that a
 * mixed family's small and large maps train side by side. Work-items come in groups of the
 * size the device prefers (its warp or wavefront). Launches are sized to take about
 * launch_seconds, so that interrupts are seen between them; each pass's visiting order is
 * drawn on the device (som_rng.h), by the work-group kernel while the pass before trains.
 * In double precision the results are the CPU's bits. */
#ifdef SOMGPU_HAVE_OPENCL
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "som_ocl_internal.h"

typedef struct {
    som_ocl_run run;      /* first: the data (one resident chunk), maps, trace      */
    cl_mem item, wg;      /* the maps of each kernel (index lists)                  */
    cl_mem tab, orders;   /* factors of a launch's passes; each map's visiting order */
    cl_mem ahead, gstate; /* work-group maps: the other order, the drawing generator  */
    void *tabh;
    int nitem, nwg, use_local, tab_width, nsched; /* factors per row, rows per pass */
    size_t L;             /* work-items per work-group of the work-group kernel     */
    size_t item_global, item_local; /* the work-item kernel's launch shape          */
    double gmax_nm;       /* reals of the largest work-group map's weights          */
    double launch_target;
    cl_ulong count;       /* steps of the next launch                               */
} online_state;

/* The buffers online_prepare makes, for one cohort holding the whole family. The maps of
 * the work-group kernel (at most size_sum / wg_min of them: each holds wg_min
 * neurons or more) hold a second visiting order. */
static void online_plan(void *cfg_, const som_family *f, som_plan *plan)
{
    const som_ocl_cfg *cfg = cfg_;
    const double rs = (double)som_ocl_real(cfg->ctx), n = (double)f->n;
    const double rows = n * (f->views > 1 ? f->views : 1); /* every view's */
    const double nwg = !som_ocl_uses_wg(cfg, f->size_max)     ? 0
                          : cfg->opts.kernel == SOM_KERNEL_WG ? f->nmaps
                          : fmin(f->nmaps, floor(f->size_sum / som_ocl_wg_min(cfg)));
    const double block = (double)(f->size_max / 2 + 1) * (f->schedules > 1 ? f->schedules : 1);
    const double tab = (double)som_factor_rows(block, f->passes) * block * rs;
    som_plan_add(plan, "opencl: the data (host copy while uploading)", rows * f->m * rs, SOM_HOST);
    som_plan_add(plan, "opencl: weights (host copy)", f->size_sum * f->m * rs, SOM_HOST);
    som_plan_add(plan, "opencl: neighbourhood factors (host copy)", tab, SOM_HOST);
    som_plan_add(plan, "opencl: the data", rows * f->m * rs, SOM_DEVICE);
    som_plan_add(plan, "opencl: weights", f->size_sum * f->m * rs, SOM_DEVICE);
    som_plan_add(plan, "opencl: visiting orders", (f->nmaps + nwg) * n * sizeof(cl_uint),
                 SOM_DEVICE);
    som_plan_add(plan, "opencl: neighbourhood factors", tab, SOM_DEVICE);
    som_plan_add(plan, "opencl: per-map offsets, sizes, restarts, schedules, seeds, lists",
                 f->nmaps * (2.0 * sizeof(cl_ulong) + 6.0 * sizeof(cl_int)) +
                     nwg * 4 * sizeof(cl_uint),
                 SOM_DEVICE);
    som_ocl_trace_plan(cfg->ctx, f, plan);
}

static int online_prepare(void *cfg_, const som_problem *p, const som_factors *fac, void **state,
                          som_status *st)
{
    som_ocl_cfg *cfg = cfg_;
    som_ocl_ctx *ctx = cfg->ctx;
    const int m = p->data.m, nmaps = p->nmaps;
    const size_t rs = som_ocl_real(ctx);
    const cl_uint n = (cl_uint)p->data.n;
    const double limit = som_ocl_limit(cfg), rows = (double)som_view_rows(p);
    int *itemh = NULL, *wgh = NULL, i, rc, maxN = 0, maxN_wg = 0;
    double wtot = 0, norders;
    online_state *s;

    *state = NULL;
    if (som_ocl_refuse_forked(st)) return st->code; /* before any OpenCL call */
    *state = s = calloc(1, sizeof *s);
    if (!s) return som_fail(st, SOM_ERR_NOMEM, "out of host memory preparing the OpenCL run");
    s->run.cfg = cfg;
    s->run.ctx = ctx;
    s->run.p = p;
    s->launch_target = som_ocl_launch_seconds(cfg);
    itemh = malloc((size_t)nmaps * sizeof *itemh);
    wgh = malloc((size_t)nmaps * sizeof *wgh);
    if (!itemh || !wgh) {
        rc = som_fail(st, SOM_ERR_NOMEM, "out of host memory preparing the OpenCL run");
        goto done;
    }
    for (i = 0; i < nmaps; i++) {
        const int N = p->size[i];
        const int wg = som_ocl_uses_wg(cfg, N);
        wtot += (double)N * m;
        if (N > maxN) maxN = N;
        if (wg) {
            wgh[s->nwg++] = i;
            if (N > maxN_wg) maxN_wg = N;
            if ((double)N * m > s->gmax_nm) s->gmax_nm = (double)N * m;
        } else {
            itemh[s->nitem++] = i;
        }
    }
    s->tab_width = maxN / 2 + 1;
    s->nsched = fac->nsched;
    norders = ((double)nmaps + s->nwg) * n; /* the work-group maps' second orders too */

    /* what the device must hold */
    if ((rc = som_ocl_check_fits(ctx, limit, rows * m * rs, "the data", st)) ||
        (rc = som_ocl_check_fits(ctx, limit, wtot * rs, "the weights", st)) ||
        (rc = som_ocl_check_fits(ctx, limit, (double)nmaps * n * sizeof(cl_uint),
                                 "the visiting orders of the maps", st)))
        goto done;
    {
        double need = (rows * m + wtot) * rs + norders * sizeof(cl_uint) +
                      (double)s->nsched * s->tab_width * rs;
        if (need > ctx->info.global_mem) {
            char a[32], b[32];
            st->api_status = CL_MEM_OBJECT_ALLOCATION_FAILURE;
            rc = som_fail(st, SOM_ERR_BACKEND,
                          "the data and weights need %s but device '%s' has %s "
                          "(CL_MEM_OBJECT_ALLOCATION_FAILURE)",
                          som_ocl_bytes(need, a, sizeof a), ctx->info.name,
                          som_ocl_bytes(ctx->info.global_mem, b, sizeof b));
            goto done;
        }
    }
    if (s->nwg > 0 &&
        (rc = som_ocl_wg_shape(cfg, maxN_wg, s->gmax_nm, &s->L, &s->use_local, st)))
        goto done;
    if (s->nitem > 0 && (rc = som_ocl_item_shape(ctx, ctx->item, (size_t)s->nitem,
                                                 &s->item_global, &s->item_local, st)))
        goto done;

    s->tabh = malloc((size_t)fac->rows * s->nsched * s->tab_width * rs);
    if (!s->tabh) {
        rc = som_fail(st, SOM_ERR_NOMEM, "out of host memory preparing the OpenCL run");
        goto done;
    }
    if ((rc = som_ocl_data_open(ctx, p, som_view_rows(p), 0, &s->run.data, st)) ||
        (rc = som_ocl_maps_open(ctx, p, fac, &s->run.maps, st)) ||
        (s->nitem > 0 && (rc = som_ocl_buffer(ctx, &s->item, CL_MEM_READ_ONLY,
                                              s->nitem * sizeof(cl_int), itemh, st))) ||
        (s->nwg > 0 && (rc = som_ocl_buffer(ctx, &s->wg, CL_MEM_READ_ONLY,
                                               s->nwg * sizeof(cl_int), wgh, st))) ||
        (rc = som_ocl_buffer(ctx, &s->tab, CL_MEM_READ_ONLY,
                             (size_t)fac->rows * s->nsched * s->tab_width * rs, NULL, st)) ||
        (rc = som_ocl_buffer(ctx, &s->orders, CL_MEM_READ_WRITE,
                             (size_t)nmaps * n * sizeof(cl_uint), NULL, st)) ||
        (s->nwg > 0 && (rc = som_ocl_buffer(ctx, &s->ahead, CL_MEM_READ_WRITE,
                                               (size_t)s->nwg * n * sizeof(cl_uint), NULL,
                                               st))) ||
        (s->nwg > 0 && (rc = som_ocl_buffer(ctx, &s->gstate, CL_MEM_READ_WRITE,
                                               (size_t)s->nwg * 4 * sizeof(cl_uint), NULL,
                                               st))) ||
        (p->trace && (rc = som_ocl_trace_open(ctx, p, &s->run.trace, st))))
        goto done;
    /* the first launch is small; later ones are sized to take about launch_target */
    s->count = (cl_ulong)fmax(1.0, fmin(2e5 / ((double)maxN * m + 1), (double)n));
    rc = SOM_OK;
done:
    free(itemh);
    free(wgh);
    return rc;
}

/* Launch kernel k for the maps in `list` over steps [from, from + count): the work-item
 * kernel on the main queue, the work-group kernels on the side queue. */
static int launch(online_state *s, cl_kernel k, cl_mem list, size_t global, size_t local,
                  cl_uint t_first, cl_ulong from, cl_ulong count, int extra, som_status *st)
{
    const som_problem *p = s->run.p;
    const size_t rs = som_ocl_real(s->run.ctx);
    const cl_uint n = (cl_uint)p->data.n;
    const cl_int m = p->data.m, tw = s->tab_width, ns = s->nsched, tf = (cl_int)t_first,
                 ni = s->nitem;
    cl_mem y = s->run.data.xs[0];
    int rc;
    /* the arguments both kernels start with (SOM_STEP_ARGS in som_online.cl), then the
     * work-item kernel's count of maps, or the work-group kernels' second orders and their
     * generators, reduction buffers and local weights */
    if ((rc = SOM_OCL_ARGS(k, 0, st, SOM_ARG(y), SOM_ARG(n), SOM_ARG(m), SOM_ARG(list),
                           SOM_ARG(s->run.maps.size), SOM_ARG(s->run.maps.restart),
                           SOM_ARG(s->run.maps.woff), SOM_ARG(s->run.maps.w), SOM_ARG(s->orders),
                           SOM_ARG(s->tab), SOM_ARG(s->run.maps.sched), SOM_ARG(tw), SOM_ARG(ns),
                           SOM_ARG(tf), SOM_ARG(s->run.maps.seed), SOM_ARG(s->run.maps.row0),
                           SOM_ARG(from), SOM_ARG(count), SOM_ARG(s->run.data.general),
                           SOM_ARG(s->run.data.colw))))
        return rc;
    if (extra == SOM_RAN_ITEM)
        rc = SOM_OCL_ARGS(k, 20, st, SOM_ARG(ni));
    else if (extra == SOM_RAN_WG_LOCAL)
        rc = SOM_OCL_ARGS(k, 20, st, SOM_ARG(s->ahead), SOM_ARG(s->gstate),
                          SOM_LOCAL(s->L * rs), SOM_LOCAL(s->L * sizeof(cl_int)),
                          SOM_LOCAL((size_t)s->gmax_nm * rs));
    else
        rc = SOM_OCL_ARGS(k, 20, st, SOM_ARG(s->ahead), SOM_ARG(s->gstate),
                          SOM_LOCAL(s->L * rs), SOM_LOCAL(s->L * sizeof(cl_int)));
    if (rc) return rc;
    rc = extra == SOM_RAN_ITEM
             ? som_ocl_launch(s->run.ctx, k, 1, &global, &local,
                              "clEnqueueNDRangeKernel (work-item kernel)", st)
             : som_ocl_launch_side(s->run.ctx, k, 1, &global, &local,
                                   "clEnqueueNDRangeKernel (work-group kernel)", st);
    if (rc == SOM_OK) s->run.used |= extra;
    return rc;
}

static int online_advance(void *state, som_slice *slice, int64_t *reached, som_status *st)
{
    online_state *s = state;
    som_ocl_ctx *ctx = s->run.ctx;
    const int prec = ctx->precision;
    const int64_t n = s->run.p->data.n;
    const int64_t end = slice->limit - slice->from > (int64_t)s->count ? slice->from + (int64_t)s->count
                                                                 : slice->limit;
    const int t_first = (int)(slice->from / n) + 1, t_last = (int)((end - 1) / n) + 1;
    const double t0 = som_now_seconds();
    double scale, dt;
    int t, d, j, rc;
    /* the factors of the launch's passes, in the device's precision */
    for (t = t_first; t <= t_last; t++) { /* rows of the cohort's width (<= the table's) */
        const double *pass = som_factor_pass(slice->factors, t);
        for (j = 0; j < s->nsched; j++)
            for (d = 0; d < s->tab_width; d++)
                som_ocl_put(s->tabh, ((size_t)(t - t_first) * s->nsched + j) * s->tab_width + d,
                            pass[(size_t)j * slice->factors->width + d], prec);
    }
    if ((rc = som_ocl_write(ctx, s->tab, CL_FALSE,
                            (size_t)(t_last - t_first + 1) * s->nsched * s->tab_width *
                                som_ocl_real(ctx),
                            s->tabh, st)))
        return rc;
    /* the work-group kernel first: it waits for what the main queue holds so far (the
     * factors), not for the item kernel */
    if (s->nwg > 0 &&
        (rc = launch(s, s->use_local ? ctx->wg_local : ctx->wg_global, s->wg,
                     (size_t)s->nwg * s->L, s->L, (cl_uint)t_first, (cl_ulong)slice->from,
                     (cl_ulong)(end - slice->from),
                     s->use_local ? SOM_RAN_WG_LOCAL : SOM_RAN_WG_GLOBAL, st)))
        return rc;
    if (s->nitem > 0 &&
        (rc = launch(s, ctx->item, s->item, s->item_global, s->item_local, (cl_uint)t_first,
                     (cl_ulong)slice->from, (cl_ulong)(end - slice->from), SOM_RAN_ITEM, st)))
        return rc;
    if ((rc = som_ocl_finish(ctx, st))) return rc;
    /* the next launch: aim at launch_target from the steps this one did, growing at most
     * 8-fold at a time */
    dt = som_now_seconds() - t0;
    scale = dt > 0 ? s->launch_target / dt : 8;
    if (scale > 8) scale = 8;
    if (scale < 0.125) scale = 0.125;
    s->count = (cl_ulong)fmax(1.0, (double)(end - slice->from) * scale);
    *reached = end;
    return SOM_OK;
}

static void online_release(void *state)
{
    online_state *s = state;
    if (!s) return;
    som_ocl_run_close(&s->run);
    som_ocl_release(&s->item);
    som_ocl_release(&s->wg);
    som_ocl_release(&s->tab);
    som_ocl_release(&s->orders);
    som_ocl_release(&s->ahead);
    som_ocl_release(&s->gstate);
    free(s->tabh);
    free(s);
}

const som_engine som_ocl_online = {
    .name = "opencl online",
    .cohort = som_ocl_cohort,
    .prepare = online_prepare,
    .advance = online_advance,
    .trace = som_ocl_run_trace,
    .read = som_ocl_run_read,
    .release = online_release,
    .plan = online_plan,
    .views = 1,
};

#else
typedef int som_ocl_online_unused; /* without OpenCL: nothing here (ISO C wants a declaration) */
#endif /* SOMGPU_HAVE_OPENCL */
