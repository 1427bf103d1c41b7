/* som_ocl_batch.c: the batch rule on an OpenCL device (the engine som_ocl_batch). Each pass,
 * chunk by chunk of the data (whole blocks each): k_batch_assign finds every row's winner in
 * each map, in launches of about launch_seconds (interrupts are seen between them); at the
 * chunk's end k_batch_sums adds each block's rows per winner, in row order, into the
 * block's slot (a work-item per block, map and column) and k_batch_reduce adds the slots pairwise in block order; at the
 * pass's end k_batch_smooth sets every neuron's every column from the totals. The blocks and orders are the
 * CPU engine's, so double precision gives its bits. */
#ifdef SOMGPU_HAVE_OPENCL
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "som_ocl_internal.h"

typedef struct {
    som_ocl_run run;     /* first: the data (chunks), maps, trace                      */
    cl_mem slot_off, partial, total, stack, h, win; /* stack: the pairwise partial sums */
    cl_ulong *sloth;
    void *hh;
    size_t slot_len;     /* reals of all maps' sums of one block                     */
    int tab_width, nsched, use_local; /* factors per row, rows per pass (som_factors) */
    int levels;          /* of the pairwise sums (som_pair_levels)                    */
    size_t assign_wg;    /* work-items per work-group of the winner search            */
    cl_uint step;        /* rows per winner launch, adapted to launch_target          */
    double launch_target;
    cl_mem x;            /* the current chunk                                         */
} batch_state;

/* The buffers batch_prepare makes, for one cohort holding the whole family. */
static void batch_plan(void *cfg_, const som_family *f, som_plan *plan)
{
    const som_ocl_cfg *cfg = cfg_;
    const double rs = (double)som_ocl_real(cfg->ctx), n = (double)f->n;
    const double slot = f->size_sum * som_slot_width(f->m, f->general);
    const double width = f->size_max / 2 + 1;
    som_family g = *f;
    double chunk_rows;
    if (g.batch_block > g.n) g.batch_block = (int)g.n;
    chunk_rows = fmin(n, (double)som_ocl_chunk_blocks(cfg, &g) * g.batch_block);
    som_plan_add(plan, "opencl: a chunk of the data (host copy)", chunk_rows * f->m * rs,
                 SOM_HOST);
    som_plan_add(plan, "opencl: weights (host copy)", f->size_sum * f->m * rs, SOM_HOST);
    som_plan_add(plan, "opencl: the data (or one chunk when streamed)", n * f->m * rs,
                 SOM_DEVICE);
    som_plan_add(plan, "opencl: weights", f->size_sum * f->m * rs, SOM_DEVICE);
    som_plan_add(plan, "opencl: a chunk's winners", chunk_rows * f->nmaps * sizeof(cl_int),
                 SOM_DEVICE);
    som_plan_add(plan, "opencl: a chunk's block sums, the pairwise sums and the totals",
                 (ceil(chunk_rows / g.batch_block) + 1 +
                  som_pair_levels((som_count)ceil(n / g.batch_block))) * slot * rs,
                 SOM_DEVICE);
    som_plan_add(plan, "opencl: factors, per-map offsets, sizes and schedules",
                 width * (f->schedules > 1 ? f->schedules : 1) * rs +
                     f->nmaps * (2 * sizeof(cl_ulong) + 4.0 * sizeof(cl_int)),
                 SOM_DEVICE);
    som_ocl_trace_plan(cfg->ctx, f, plan);
}

static int batch_prepare(void *cfg_, const som_problem *p, const som_factors *fac, void **state,
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

    *state = NULL;
    if (som_ocl_refuse_forked(st)) return st->code; /* before any OpenCL call */
    *state = s = calloc(1, sizeof *s);
    if (!s) return som_fail(st, SOM_ERR_NOMEM, "out of host memory preparing the OpenCL run");
    s->run.cfg = cfg;
    s->run.ctx = ctx;
    s->run.p = p;
    s->run.used = SOM_RAN_BATCH;
    s->step = 4096; /* the first launch; later ones take about launch_target */
    s->launch_target = som_ocl_launch_seconds(cfg);
    s->sloth = malloc((size_t)nmaps * sizeof *s->sloth);
    if (!s->sloth) return som_fail(st, SOM_ERR_NOMEM, "out of host memory preparing the OpenCL run");
    for (i = 0; i < nmaps; i++) {
        s->sloth[i] = s->slot_len;
        s->slot_len += (size_t)p->size[i] * som_slot_width(m, som_data_general(&p->data));
        wtot += (double)p->size[i] * m;
        if (p->size[i] > maxN) maxN = p->size[i];
    }
    s->tab_width = maxN / 2 + 1;

    /* chunks of whole blocks that fit one buffer, with their winners and partial sums */
    som_family_of(p, &f);
    chunk_blocks = som_ocl_chunk_blocks(cfg, &f);
    chunk_rows = chunk_blocks * B < n ? chunk_blocks * B : n;
    s->levels = som_pair_levels((som_count)((n + B - 1) / B));
    if ((rc = som_ocl_check_fits(ctx, limit, (double)chunk_rows * m * rs, "blocks of the data",
                                 st)) ||
        (rc = som_ocl_check_fits(ctx, limit, (double)chunk_rows * nmaps * sizeof(cl_int),
                                 "the winners of a block of the data", st)) ||
        (rc = som_ocl_check_fits(ctx, limit, (double)chunk_blocks * s->slot_len * rs,
                                 "the partial sums of the maps", st)) ||
        (rc = som_ocl_check_fits(ctx, limit, wtot * rs, "the weights", st)))
        return rc;
    /* the winner search: every map's weights in local memory when they fit */
    if ((rc = som_ocl_assign_shape(cfg, wtot, &s->assign_wg, &s->use_local, st))) return rc;
    /* the data stay on the device when they leave room for the rest; else each chunk is
     * uploaded when its turn comes */
    streamed = cfg->opts.stream_data || (double)n * m * rs > 0.5 * ctx->info.global_mem;
    s->nsched = fac->nsched;
    s->hh = malloc((size_t)s->nsched * s->tab_width * rs);
    if (!s->hh) return som_fail(st, SOM_ERR_NOMEM, "out of host memory preparing the OpenCL run");
    if ((rc = som_ocl_data_open(ctx, p, chunk_rows, streamed, &s->run.data, st)) ||
        (rc = som_ocl_maps_open(ctx, p, fac, &s->run.maps, st)) ||
        (rc = som_ocl_buffer(ctx, &s->slot_off, CL_MEM_READ_ONLY, nmaps * sizeof(cl_ulong),
                             s->sloth, st)) ||
        (rc = som_ocl_buffer(ctx, &s->partial, CL_MEM_READ_WRITE,
                             (size_t)chunk_blocks * s->slot_len * rs, NULL, st)) ||
        (rc = som_ocl_buffer(ctx, &s->total, CL_MEM_READ_WRITE, s->slot_len * rs, NULL, st)) ||
        (rc = som_ocl_buffer(ctx, &s->stack, CL_MEM_READ_WRITE,
                             (size_t)s->levels * s->slot_len * rs, NULL, st)) ||
        (rc = som_ocl_buffer(ctx, &s->h, CL_MEM_READ_ONLY,
                             (size_t)s->nsched * s->tab_width * rs, NULL, st)) ||
        (rc = som_ocl_buffer(ctx, &s->win, CL_MEM_READ_WRITE,
                             (size_t)chunk_rows * nmaps * sizeof(cl_int), NULL, st)) ||
        (p->trace && (rc = som_ocl_trace_open(ctx, p, &s->run.trace, st))))
        return rc;
    return SOM_OK;
}

/* One winner launch of the current chunk (fetched at its first row); the chunk's sums once
 * its last row has its winners. */
static int batch_advance(void *state, som_slice *slice, int64_t *reached, som_status *st)
{
    batch_state *s = state;
    som_ocl_ctx *ctx = s->run.ctx;
    const som_problem *p = s->run.p;
    const int64_t n = p->data.n, pass0 = slice->from / n * n, row = slice->from - pass0;
    const int64_t c = row / s->run.data.chunk_rows;
    const cl_int m = p->data.m, nmaps = p->nmaps;
    const cl_uint block = (cl_uint)p->batch_block, chunk_rows = (cl_uint)s->run.data.chunk_rows;
    const cl_ulong slot_len = s->slot_len;
    cl_kernel assign = s->use_local ? ctx->batch_assign_local : ctx->batch_assign;
    int64_t first, rows;
    cl_uint done, count, chunk_len;
    size_t global, local = s->assign_wg;
    double t0, dt;
    int rc;

    first = c * s->run.data.chunk_rows;
    rows = n - first < s->run.data.chunk_rows ? n - first : s->run.data.chunk_rows;
    done = (cl_uint)(row - first);
    if (done == 0 && (rc = som_ocl_data_chunk(ctx, &s->run.data, c, &s->x, &first, &rows, st)))
        return rc;
    chunk_len = (cl_uint)rows;
    /* the winners of the next rows (rows are independent: the cut does not matter) */
    count = (cl_uint)fmin((double)(chunk_len - done), (double)s->step);
    global = ((size_t)count + local - 1) / local * local;
    t0 = som_now_seconds();
    if (s->use_local) {
        const cl_ulong wtot = s->run.maps.wtot;
        rc = SOM_OCL_ARGS(assign, 0, st, SOM_ARG(s->x), SOM_ARG(done), SOM_ARG(count),
                          SOM_ARG(m), SOM_ARG(s->run.maps.index), SOM_ARG(nmaps),
                          SOM_ARG(s->run.maps.size), SOM_ARG(s->run.maps.woff),
                          SOM_ARG(s->run.maps.w), SOM_ARG(s->win), SOM_ARG(chunk_rows),
                          SOM_ARG(s->run.data.general), SOM_ARG(s->run.data.colw),
                          SOM_LOCAL(s->run.maps.wtot * som_ocl_real(ctx)), SOM_ARG(wtot));
    } else {
        rc = SOM_OCL_ARGS(assign, 0, st, SOM_ARG(s->x), SOM_ARG(done), SOM_ARG(count),
                          SOM_ARG(m), SOM_ARG(s->run.maps.index), SOM_ARG(nmaps),
                          SOM_ARG(s->run.maps.size), SOM_ARG(s->run.maps.woff),
                          SOM_ARG(s->run.maps.w), SOM_ARG(s->win), SOM_ARG(chunk_rows),
                          SOM_ARG(s->run.data.general), SOM_ARG(s->run.data.colw));
    }
    if (rc ||
        (rc = som_ocl_launch(ctx, assign, 1, &global, &local,
                             "clEnqueueNDRangeKernel (batch winners)", st)) ||
        (rc = som_ocl_finish(ctx, st)))
        return rc;
    done += count;
    dt = som_now_seconds() - t0;
    s->step = (cl_uint)fmax((double)local,
                            fmin(fmin(8.0 * count, (double)chunk_rows),
                                 count * (dt > 0 ? s->launch_target / dt : 8.0)));
    if (done == chunk_len) {
        /* the chunk's block sums, then pushed pairwise in block order (som_math.h), the
         * totals made after the pass's last block */
        const cl_uint nblocks = (cl_uint)((rows + p->batch_block - 1) / p->batch_block);
        const cl_uint b0 = (cl_uint)(first / p->batch_block);
        const cl_uint pass_blocks = (cl_uint)((n + p->batch_block - 1) / p->batch_block);
        const size_t blocks_maps_cols[3] = {(size_t)nblocks, (size_t)p->nmaps, (size_t)m};
        size_t slots_global, slots_local;
        if ((rc = SOM_OCL_ARGS(ctx->batch_sums, 0, st, SOM_ARG(s->x), SOM_ARG(chunk_len),
                               SOM_ARG(m), SOM_ARG(block), SOM_ARG(s->run.maps.index),
                               SOM_ARG(nmaps), SOM_ARG(s->run.maps.size), SOM_ARG(s->win),
                               SOM_ARG(chunk_rows), SOM_ARG(s->partial), SOM_ARG(slot_len),
                               SOM_ARG(s->slot_off), SOM_ARG(nblocks),
                               SOM_ARG(s->run.data.general))) ||
            (rc = som_ocl_launch(ctx, ctx->batch_sums, 3, blocks_maps_cols, NULL,
                                 "clEnqueueNDRangeKernel (batch sums)", st)) ||
            (rc = SOM_OCL_ARGS(ctx->batch_reduce, 0, st, SOM_ARG(s->partial), SOM_ARG(slot_len),
                               SOM_ARG(nblocks), SOM_ARG(s->total), SOM_ARG(s->stack),
                               SOM_ARG(b0), SOM_ARG(pass_blocks))) ||
            (rc = som_ocl_item_shape(ctx, ctx->batch_reduce, s->slot_len, &slots_global,
                                     &slots_local, st)) ||
            (rc = som_ocl_launch(ctx, ctx->batch_reduce, 1, &slots_global, &slots_local,
                                 "clEnqueueNDRangeKernel (batch reduction)", st)))
            return rc;
    }
    *reached = pass0 + first + done;
    return SOM_OK;
}

/* The pass's end: every neuron from the totals and the pass's factors. */
static int batch_end_pass(void *state, const som_factors *f, int t, som_status *st)
{
    batch_state *s = state;
    som_ocl_ctx *ctx = s->run.ctx;
    const cl_int m = s->run.p->data.m, nmaps = s->run.p->nmaps, tw = s->tab_width;
    const double *pass = som_factor_block(f, t);
    size_t maps_neurons_cols[3]; /* every (map, neuron, column) of the largest map */
    int rc, i, j, d, maxN = 0;
    for (i = 0; i < s->run.p->nmaps; i++)
        if (s->run.p->size[i] > maxN) maxN = s->run.p->size[i];
    maps_neurons_cols[0] = (size_t)s->run.p->nmaps;
    maps_neurons_cols[1] = (size_t)maxN;
    maps_neurons_cols[2] = (size_t)m;
    for (j = 0; j < s->nsched; j++) /* rows of the cohort's width (<= the table's) */
        for (d = 0; d < s->tab_width; d++)
            som_ocl_put(s->hh, (size_t)j * s->tab_width + d, pass[(size_t)j * f->width + d],
                        ctx->precision);
    if ((rc = som_ocl_write(ctx, s->h, CL_FALSE, (size_t)s->nsched * s->tab_width * som_ocl_real(ctx),
                            s->hh, st)) ||
        (rc = SOM_OCL_ARGS(ctx->batch_smooth, 0, st, SOM_ARG(s->run.maps.index), SOM_ARG(nmaps),
                           SOM_ARG(s->run.maps.size), SOM_ARG(s->run.maps.woff), SOM_ARG(s->run.maps.w),
                           SOM_ARG(m), SOM_ARG(s->total), SOM_ARG(s->slot_off), SOM_ARG(s->h),
                           SOM_ARG(s->run.maps.sched), SOM_ARG(tw),
                           SOM_ARG(s->run.data.general))) ||
        (rc = som_ocl_launch(ctx, ctx->batch_smooth, 3, maps_neurons_cols, NULL,
                             "clEnqueueNDRangeKernel (batch smoothing)", st)))
        return rc;
    return som_ocl_finish(ctx, st);
}

static void batch_release(void *state)
{
    batch_state *s = state;
    if (!s) return;
    som_ocl_run_close(&s->run);
    som_ocl_release(&s->slot_off);
    som_ocl_release(&s->partial);
    som_ocl_release(&s->total);
    som_ocl_release(&s->stack);
    som_ocl_release(&s->h);
    som_ocl_release(&s->win);
    free(s->sloth);
    free(s->hh);
    free(s);
}

const som_engine som_ocl_batch = {
    .name = "opencl batch",
    .cohort = som_ocl_cohort,
    .prepare = batch_prepare,
    .advance = batch_advance,
    .end_pass = batch_end_pass,
    .trace = som_ocl_run_trace,
    .read = som_ocl_run_read,
    .release = batch_release,
    .plan = batch_plan,
};

#else
typedef int som_ocl_batch_unused; /* without OpenCL: nothing here (ISO C wants a declaration) */
#endif /* SOMGPU_HAVE_OPENCL */
