/* som_ocl_batch.c: the batch rule on an OpenCL device (the engine som_ocl_batch). Each pass,
 * chunk by chunk of the data (whole blocks each): k_batch_assign finds every row's winner in
 * each map, in launches of about launch_seconds (interrupts are seen between them); at the
 * chunk's end k_batch_sums adds each block's rows per winner, in row order, into the
 * block's slot and k_batch_reduce adds the slots to the totals in block order; at the
 * pass's end k_batch_smooth sets every neuron from the totals. The blocks and orders are the
 * CPU engine's, so double precision gives its bits. */
#ifdef SOMGPU_HAVE_OPENCL
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "som_ocl_internal.h"

typedef struct {
    som_ocl_cfg *cfg;
    som_ocl_ctx *ctx;
    const som_problem *p;
    som_ocl_data data;
    som_ocl_maps maps;
    som_ocl_trace trace;
    cl_mem slot_off, partial, total, h, win;
    cl_ulong *sloth;
    void *hh;
    size_t slot_len;     /* reals of all maps' sums of one block                     */
    int tab_width, use_local;
    size_t La;           /* work-items per group of the winner search                 */
    cl_uint step;        /* rows per winner launch, adapted to launch_target          */
    double launch_target;
    cl_mem x;            /* the current chunk                                         */
} batch_state;

static int batch_prepare(void *cfg_, const som_problem *p, int factor_rows, void **state,
                         som_status *st)
{
    som_ocl_cfg *cfg = cfg_;
    som_ocl_ctx *ctx = cfg->ctx;
    const int m = p->data.m, nmaps = p->nmaps;
    const size_t rs = som_ocl_real(ctx);
    const int64_t n = p->data.n, B = p->batch_block;
    const double limit = som_ocl_limit(cfg);
    som_family f;
    batch_state *s;
    int64_t chunk_blocks, chunk_rows;
    double wtot = 0;
    int i, rc, maxN = 0, streamed;
    (void)factor_rows;

    *state = s = calloc(1, sizeof *s);
    if (!s) return som_fail(st, SOM_ERR_NOMEM, "out of host memory preparing the OpenCL run");
    s->cfg = cfg;
    s->ctx = ctx;
    s->p = p;
    s->La = 64;
    s->step = 4096;
    s->launch_target = cfg->opts.launch_seconds > 0 ? cfg->opts.launch_seconds : 0.2;
    if (som_ocl_refuse_forked(st)) return st->code;
    s->sloth = malloc((size_t)nmaps * sizeof *s->sloth);
    if (!s->sloth) return som_fail(st, SOM_ERR_NOMEM, "out of host memory preparing the OpenCL run");
    for (i = 0; i < nmaps; i++) {
        s->sloth[i] = s->slot_len;
        s->slot_len += (size_t)p->size[i] * (m + 1);
        wtot += (double)p->size[i] * m;
        if (p->size[i] > maxN) maxN = p->size[i];
    }
    s->tab_width = maxN / 2 + 1;

    /* chunks of whole blocks that fit one buffer, with their winners and partial sums */
    som_family_of(p, &f);
    chunk_blocks = som_ocl_chunk_blocks(cfg, &f);
    chunk_rows = chunk_blocks * B < n ? chunk_blocks * B : n;
    if ((rc = som_ocl_check_fits(ctx, limit, (double)chunk_rows * m * rs, "blocks of the data",
                                 st)) ||
        (rc = som_ocl_check_fits(ctx, limit, (double)chunk_rows * nmaps * sizeof(cl_int),
                                 "the winners of a block of the data", st)) ||
        (rc = som_ocl_check_fits(ctx, limit, (double)chunk_blocks * s->slot_len * rs,
                                 "the partial sums of the maps", st)) ||
        (rc = som_ocl_check_fits(ctx, limit, wtot * rs, "the weights", st)))
        return rc;
    /* the winner search: every map's weights in local memory when they fit */
    s->use_local = wtot * rs <= ctx->info.local_mem - 1024;
    {
        size_t kmax = 0;
        if ((rc = som_ocl_group_limit(ctx, s->use_local ? ctx->batch_assign_local
                                                        : ctx->batch_assign, &kmax, st)))
            return rc;
        while (s->La > 1 && (s->La > kmax || s->La > ctx->info.max_group)) s->La >>= 1;
    }
    /* the data stay on the device when they leave room for the rest; else each chunk is
     * uploaded when its turn comes */
    streamed = cfg->opts.stream_data || (double)n * m * rs > 0.5 * ctx->info.global_mem;
    s->hh = malloc((size_t)s->tab_width * rs);
    if (!s->hh) return som_fail(st, SOM_ERR_NOMEM, "out of host memory preparing the OpenCL run");
    if ((rc = som_ocl_data_open(ctx, p, chunk_rows, streamed, &s->data, st)) ||
        (rc = som_ocl_maps_open(ctx, p, &s->maps, st)) ||
        (rc = som_ocl_buffer(ctx, &s->slot_off, CL_MEM_READ_ONLY, nmaps * sizeof(cl_ulong),
                             s->sloth, st)) ||
        (rc = som_ocl_buffer(ctx, &s->partial, CL_MEM_READ_WRITE,
                             (size_t)chunk_blocks * s->slot_len * rs, NULL, st)) ||
        (rc = som_ocl_buffer(ctx, &s->total, CL_MEM_READ_WRITE, s->slot_len * rs, NULL, st)) ||
        (rc = som_ocl_buffer(ctx, &s->h, CL_MEM_READ_ONLY, (size_t)s->tab_width * rs, NULL,
                             st)) ||
        (rc = som_ocl_buffer(ctx, &s->win, CL_MEM_READ_WRITE,
                             (size_t)chunk_rows * nmaps * sizeof(cl_int), NULL, st)) ||
        (p->trace && (rc = som_ocl_trace_open(ctx, p, &s->trace, st))))
        return rc;
    return SOM_OK;
}

/* One winner launch of the current chunk (fetched at its first row); the chunk's sums once
 * its last row has its winners. */
static int batch_advance(void *state, som_slice *sl, int64_t *reached, som_status *st)
{
    batch_state *s = state;
    som_ocl_ctx *ctx = s->ctx;
    const som_problem *p = s->p;
    const int64_t n = p->data.n, pass0 = sl->from / n * n, row = sl->from - pass0;
    const int64_t c = row / s->data.chunk_rows;
    const cl_int m = p->data.m, nm = p->nmaps;
    const cl_uint Bu = (cl_uint)p->batch_block, crows = (cl_uint)s->data.chunk_rows;
    const cl_ulong sl_len = s->slot_len;
    cl_kernel k = s->use_local ? ctx->batch_assign_local : ctx->batch_assign;
    int64_t first, rows;
    cl_uint done_rows, count, rows_u;
    size_t g1, l1 = s->La;
    double t0, dt;
    int rc;

    first = c * s->data.chunk_rows;
    rows = n - first < s->data.chunk_rows ? n - first : s->data.chunk_rows;
    done_rows = (cl_uint)(row - first);
    if (done_rows == 0 && (rc = som_ocl_data_chunk(ctx, &s->data, c, &s->x, &first, &rows, st)))
        return rc;
    rows_u = (cl_uint)rows;
    /* the winners of the next rows (rows are independent: the cut does not matter) */
    count = (cl_uint)fmin((double)(rows_u - done_rows), (double)s->step);
    g1 = ((size_t)count + s->La - 1) / s->La * s->La;
    t0 = som_now_seconds();
    if (s->use_local) {
        const cl_ulong wt = s->maps.wtot;
        rc = SOM_OCL_ARGS(k, 0, st, SOM_ARG(s->x), SOM_ARG(done_rows), SOM_ARG(count), SOM_ARG(m),
                          SOM_ARG(s->maps.index), SOM_ARG(nm), SOM_ARG(s->maps.size),
                          SOM_ARG(s->maps.woff), SOM_ARG(s->maps.w), SOM_ARG(s->win),
                          SOM_ARG(crows), SOM_LOCAL(s->maps.wtot * som_ocl_real(ctx)),
                          SOM_ARG(wt));
    } else {
        rc = SOM_OCL_ARGS(k, 0, st, SOM_ARG(s->x), SOM_ARG(done_rows), SOM_ARG(count), SOM_ARG(m),
                          SOM_ARG(s->maps.index), SOM_ARG(nm), SOM_ARG(s->maps.size),
                          SOM_ARG(s->maps.woff), SOM_ARG(s->maps.w), SOM_ARG(s->win),
                          SOM_ARG(crows));
    }
    if (rc || (rc = som_ocl_launch(ctx, k, 1, &g1, &l1, "clEnqueueNDRangeKernel (batch winners)",
                                   st)) ||
        (rc = som_ocl_finish(ctx, st)))
        return rc;
    done_rows += count;
    dt = som_now_seconds() - t0;
    s->step = (cl_uint)fmax((double)s->La,
                            fmin(8.0 * count, count * (dt > 0 ? s->launch_target / dt : 8.0)));
    if (done_rows == rows_u) {
        /* the chunk's block sums, then the totals: from 0 with the pass's first chunk, each
         * chunk adding its blocks' slots in block order */
        const cl_uint nb = (cl_uint)((rows + p->batch_block - 1) / p->batch_block);
        const cl_uint acc_first = c == 0;
        const size_t g2[2] = {(size_t)nb, (size_t)p->nmaps}, g3 = s->slot_len;
        if ((rc = SOM_OCL_ARGS(ctx->batch_sums, 0, st, SOM_ARG(s->x), SOM_ARG(rows_u), SOM_ARG(m),
                               SOM_ARG(Bu), SOM_ARG(s->maps.index), SOM_ARG(nm),
                               SOM_ARG(s->maps.size), SOM_ARG(s->win), SOM_ARG(crows),
                               SOM_ARG(s->partial), SOM_ARG(sl_len), SOM_ARG(s->slot_off),
                               SOM_ARG(nb))) ||
            (rc = som_ocl_launch(ctx, ctx->batch_sums, 2, g2, NULL,
                                 "clEnqueueNDRangeKernel (batch sums)", st)) ||
            (rc = SOM_OCL_ARGS(ctx->batch_reduce, 0, st, SOM_ARG(s->partial), SOM_ARG(sl_len),
                               SOM_ARG(nb), SOM_ARG(s->total), SOM_ARG(acc_first))) ||
            (rc = som_ocl_launch(ctx, ctx->batch_reduce, 1, &g3, NULL,
                                 "clEnqueueNDRangeKernel (batch reduction)", st)))
            return rc;
    }
    *reached = pass0 + first + done_rows;
    return SOM_OK;
}

/* The pass's end: every neuron from the totals and the pass's factors. */
static int batch_end_pass(void *state, int t, const double *row, som_status *st)
{
    batch_state *s = state;
    som_ocl_ctx *ctx = s->ctx;
    const cl_int m = s->p->data.m, nm = s->p->nmaps;
    size_t g4[2];
    int d, rc, i, maxN = 0;
    (void)t;
    for (i = 0; i < s->p->nmaps; i++)
        if (s->p->size[i] > maxN) maxN = s->p->size[i];
    g4[0] = (size_t)s->p->nmaps;
    g4[1] = (size_t)maxN;
    for (d = 0; d < s->tab_width; d++) som_ocl_put(s->hh, (size_t)d, row[d], ctx->precision);
    if ((rc = som_ocl_write(ctx, s->h, CL_FALSE, (size_t)s->tab_width * som_ocl_real(ctx), s->hh,
                            st)) ||
        (rc = SOM_OCL_ARGS(ctx->batch_smooth, 0, st, SOM_ARG(s->maps.index), SOM_ARG(nm),
                           SOM_ARG(s->maps.size), SOM_ARG(s->maps.woff), SOM_ARG(s->maps.w),
                           SOM_ARG(m), SOM_ARG(s->total), SOM_ARG(s->slot_off), SOM_ARG(s->h))) ||
        (rc = som_ocl_launch(ctx, ctx->batch_smooth, 2, g4, NULL,
                             "clEnqueueNDRangeKernel (batch smoothing)", st)))
        return rc;
    return som_ocl_finish(ctx, st);
}

static int batch_trace(void *state, double *qe, som_status *st)
{
    batch_state *s = state;
    return som_ocl_trace_qe(s->ctx, &s->trace, &s->data, &s->maps, s->p, qe, st);
}

static int batch_read(void *state, double *const *w, som_status *st)
{
    batch_state *s = state;
    int rc = som_ocl_maps_read(s->ctx, &s->maps, s->p, w, st);
    if (rc == SOM_OK) s->cfg->kernels_used |= SOM_RAN_BATCH;
    return rc;
}

static void batch_release(void *state)
{
    batch_state *s = state;
    if (!s) return;
    if (s->ctx->queue) clFinish(s->ctx->queue); /* nothing may still use the buffers */
    som_ocl_data_close(&s->data);
    som_ocl_maps_close(&s->maps);
    som_ocl_trace_close(&s->trace);
    som_ocl_release(&s->slot_off);
    som_ocl_release(&s->partial);
    som_ocl_release(&s->total);
    som_ocl_release(&s->h);
    som_ocl_release(&s->win);
    free(s->sloth);
    free(s->hh);
    free(s);
}

const som_engine som_ocl_batch = {"opencl batch", som_ocl_group, batch_prepare, batch_advance,
                                  batch_end_pass, batch_trace, batch_read, batch_release,
                                  som_ocl_batch_plan};

#endif /* SOMGPU_HAVE_OPENCL */
