/* som_ocl_maps.c: the maps of a cohort on the device, for both engines: every map's weights
 * (row-major size x m at its offset, in the device's precision) starting from the initial
 * weights som_init_map makes for every backend, read back as column-major doubles; the
 * trace, every map's qe over the data after a pass, summed in som_assess's blocks and
 * order so that double precision gives its bits; and what both engines hold (som_ocl_run). */
#ifdef SOMGPU_HAVE_OPENCL
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "som_ocl_internal.h"

int som_ocl_maps_open(som_ocl_ctx *ctx, const som_problem *p, const som_factors *f,
                      som_ocl_maps *maps, som_status *st)
{
    const int prec = ctx->precision, m = p->data.m, nmaps = p->nmaps;
    const size_t rs = som_ocl_real(ctx);
    double *init = NULL;
    uint32_t *scratch = NULL;
    cl_uint *seedh = NULL;
    cl_ulong *row0h = NULL;
    int *index = NULL, i, maxN = 0, rc;

    memset(maps, 0, sizeof *maps);
    maps->nmaps = nmaps;
    maps->woffh = malloc((size_t)nmaps * sizeof *maps->woffh);
    index = malloc((size_t)nmaps * sizeof *index);
    seedh = malloc((size_t)nmaps * sizeof *seedh);
    row0h = malloc((size_t)nmaps * sizeof *row0h);
    if (!maps->woffh || !index || !seedh || !row0h) goto nomem;
    for (i = 0; i < nmaps; i++) {
        maps->woffh[i] = maps->wtot;
        maps->wtot += (size_t)p->size[i] * m;
        index[i] = i;
        seedh[i] = som_map_seed(p, i);
        row0h[i] = p->view ? (cl_ulong)p->view[i] * (cl_ulong)p->data.n : 0;
        if (p->size[i] > maxN) maxN = p->size[i];
    }
    maps->wh = malloc(maps->wtot * rs);
    init = malloc((size_t)maxN * m * sizeof *init);
    if (p->init == SOM_INIT_SAMPLE) scratch = malloc((size_t)p->data.n * sizeof *scratch);
    if (!maps->wh || !init || (p->init == SOM_INIT_SAMPLE && !scratch)) goto nomem;
    for (i = 0; i < nmaps; i++) {
        size_t e;
        if ((rc = som_init_map(p, i, init, scratch, st))) goto done;
        for (e = 0; e < (size_t)p->size[i] * m; e++)
            som_ocl_put(maps->wh, maps->woffh[i] + e, init[e], prec);
    }
    if ((rc = som_ocl_buffer(ctx, &maps->w, CL_MEM_READ_WRITE, maps->wtot * rs, maps->wh, st)) ||
        (rc = som_ocl_buffer(ctx, &maps->woff, CL_MEM_READ_ONLY, nmaps * sizeof(cl_ulong),
                             maps->woffh, st)) ||
        (rc = som_ocl_buffer(ctx, &maps->size, CL_MEM_READ_ONLY, nmaps * sizeof(cl_int), p->size,
                             st)) ||
        (rc = som_ocl_buffer(ctx, &maps->restart, CL_MEM_READ_ONLY, nmaps * sizeof(cl_int),
                             p->restart, st)) ||
        (rc = som_ocl_buffer(ctx, &maps->index, CL_MEM_READ_ONLY, nmaps * sizeof(cl_int), index,
                             st)) ||
        (rc = som_ocl_buffer(ctx, &maps->sched, CL_MEM_READ_ONLY, nmaps * sizeof(cl_int),
                             f->sched, st)) ||
        (rc = som_ocl_buffer(ctx, &maps->seed, CL_MEM_READ_ONLY, nmaps * sizeof(cl_uint), seedh,
                             st)) ||
        (rc = som_ocl_buffer(ctx, &maps->row0, CL_MEM_READ_ONLY, nmaps * sizeof(cl_ulong), row0h,
                             st)))
        goto done;
    rc = SOM_OK;
    goto done;
nomem:
    rc = som_fail(st, SOM_ERR_NOMEM, "out of host memory preparing the OpenCL run");
done:
    free(init);
    free(scratch);
    free(index);
    free(seedh);
    free(row0h);
    return rc;
}

int som_ocl_maps_read(som_ocl_ctx *ctx, const som_ocl_maps *maps, const som_problem *p,
                      double *const *weights, som_status *st)
{
    const int prec = ctx->precision, m = p->data.m;
    int i, j, k, rc;
    if ((rc = som_ocl_read(ctx, maps->w, maps->wtot * som_ocl_real(ctx), maps->wh, st)))
        return rc;
    for (i = 0; i < p->nmaps; i++)
        for (j = 0; j < p->size[i]; j++)
            for (k = 0; k < m; k++)
                weights[i][(size_t)k * p->size[i] + j] =
                    som_ocl_get(maps->wh, maps->woffh[i] + (size_t)j * m + k, prec);
    return SOM_OK;
}

void som_ocl_maps_close(som_ocl_maps *maps)
{
    som_ocl_release(&maps->w);
    som_ocl_release(&maps->woff);
    som_ocl_release(&maps->size);
    som_ocl_release(&maps->restart);
    som_ocl_release(&maps->index);
    som_ocl_release(&maps->sched);
    som_ocl_release(&maps->seed);
    som_ocl_release(&maps->row0);
    free(maps->woffh);
    free(maps->wh);
    memset(maps, 0, sizeof *maps);
}

/* --- the trace ------------------------------------------------------------------------ */

void som_ocl_trace_plan(const som_ocl_ctx *ctx, const som_family *f, som_plan *plan)
{
    if (f->trace)
        som_plan_add(plan, "opencl: trace block sums",
                     ceil((double)f->n / SOM_ASSESS_BLOCK) * f->nmaps * som_ocl_real(ctx),
                     SOM_DEVICE);
}

int som_ocl_trace_open(som_ocl_ctx *ctx, const som_problem *p, som_ocl_trace *tr,
                       som_status *st)
{
    const size_t bytes =
        (size_t)((p->data.n + SOM_ASSESS_BLOCK - 1) / SOM_ASSESS_BLOCK) * p->nmaps *
        som_ocl_real(ctx);
    size_t global;
    int rc;
    memset(tr, 0, sizeof *tr);
    tr->nblocks = (int)((p->data.n + SOM_ASSESS_BLOCK - 1) / SOM_ASSESS_BLOCK);
    /* a work-group per (block, map) of the size the device prefers (a warp, a wavefront) */
    if ((rc = som_ocl_item_shape(ctx, ctx->trace_qe, 1, &global, &tr->L, st))) return rc;
    tr->host = malloc(bytes);
    if (!tr->host) return som_fail(st, SOM_ERR_NOMEM, "out of host memory for the trace");
    return som_ocl_buffer(ctx, &tr->partial, CL_MEM_READ_WRITE, bytes, NULL, st);
}

void som_ocl_trace_close(som_ocl_trace *tr)
{
    som_ocl_release(&tr->partial);
    free(tr->host);
    tr->host = NULL;
}

/* k_trace_qe over each chunk of the data, a work-group per (block, map): the sums of
 * distances to the nearest neuron by block of the whole data (a block begun in the chunk
 * before goes on from its sum there, so that chunks do not change the sums); then the
 * block sums in block order, / n. */
int som_ocl_trace_qe(som_ocl_ctx *ctx, som_ocl_trace *tr, som_ocl_data *d,
                     const som_ocl_maps *maps, const som_problem *p, double *qe,
                     som_status *st)
{
    const int prec = ctx->precision, nmaps = p->nmaps;
    const cl_int m = p->data.m, count = nmaps;
    int64_t c;
    int b, q, rc;
    for (c = 0; c < d->nchunks; c++) {
        int64_t first, rows;
        cl_mem x;
        cl_uint rows_u, first_u, nb;
        size_t g[2], l[2];
        if ((rc = som_ocl_data_chunk(ctx, d, c, &x, &first, &rows, st))) return rc;
        rows_u = (cl_uint)rows;
        first_u = (cl_uint)first;
        nb = (first_u + rows_u - 1) / SOM_ASSESS_BLOCK - first_u / SOM_ASSESS_BLOCK + 1;
        g[0] = nb * tr->L;
        g[1] = (size_t)nmaps;
        l[0] = tr->L;
        l[1] = 1;
        if ((rc = SOM_OCL_ARGS(ctx->trace_qe, 0, st, SOM_ARG(x), SOM_ARG(rows_u), SOM_ARG(m),
                               SOM_ARG(maps->index), SOM_ARG(count), SOM_ARG(maps->size),
                               SOM_ARG(maps->woff), SOM_ARG(maps->w), SOM_ARG(tr->partial),
                               SOM_ARG(first_u), SOM_ARG(nb), SOM_ARG(d->general),
                               SOM_ARG(d->colw), SOM_LOCAL(tr->L * som_ocl_real(ctx)))) ||
            (rc = som_ocl_launch(ctx, ctx->trace_qe, 2, g, l,
                                 "clEnqueueNDRangeKernel (trace)", st)))
            return rc;
        /* a streamed chunk's buffer is refilled next: let the kernel finish first */
        if (d->streamed && (rc = som_ocl_finish(ctx, st))) return rc;
    }
    if ((rc = som_ocl_read(ctx, tr->partial, (size_t)tr->nblocks * nmaps * som_ocl_real(ctx),
                           tr->host, st)))
        return rc;
    for (q = 0; q < nmaps; q++) {
        double sum = 0;
        for (b = 0; b < tr->nblocks; b++) sum += som_ocl_get(tr->host, (size_t)b * nmaps + q, prec);
        qe[q] = sum / (double)p->data.n;
    }
    return SOM_OK;
}

/* --- what both engines hold ----------------------------------------------------------- */

int som_ocl_run_trace(void *state, double *qe, som_status *st)
{
    som_ocl_run *run = state;
    return som_ocl_trace_qe(run->ctx, &run->trace, &run->data, &run->maps, run->p, qe, st);
}

int som_ocl_run_read(void *state, double *const *w, som_status *st)
{
    som_ocl_run *run = state;
    int rc = som_ocl_maps_read(run->ctx, &run->maps, run->p, w, st);
    if (rc == SOM_OK) run->cfg->kernels_used |= run->used;
    return rc;
}

void som_ocl_run_close(som_ocl_run *run)
{
    if (run->ctx->queue) clFinish(run->ctx->queue);
    if (run->ctx->side) clFinish(run->ctx->side);
    som_ocl_data_close(&run->data);
    som_ocl_maps_close(&run->maps);
    som_ocl_trace_close(&run->trace);
}

#else
typedef int som_ocl_maps_unused; /* without OpenCL: nothing here (ISO C wants a declaration) */
#endif /* SOMGPU_HAVE_OPENCL */
