/* som_ocl_plan.c: what fits a device. Maps are independent, so they train in cohorts whose
 * buffers each fit one allocation (a map too large on its own is refused with the sizes);
 * batch data come in chunks of whole blocks that fit; work-group sizes follow the device's
 * limits. (Each engine plans its memory next to its allocations.) */
#ifdef SOMGPU_HAVE_OPENCL
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "som_ocl_internal.h"

/* Blocks per chunk at most: bounds the partial sums to that many blocks' slots. */
#define SOM_BATCH_CHUNK_BLOCKS 64
/* Bytes of local memory left to the runtime and the kernels' own variables. */
#define SOM_LOCAL_RESERVE 1024

double som_ocl_limit(const som_ocl_cfg *cfg)
{
    const double dev = cfg->ctx->info.max_alloc;
    return cfg->opts.max_alloc > 0 && cfg->opts.max_alloc < dev ? cfg->opts.max_alloc : dev;
}

const char *som_ocl_bytes(double b, char *buf, size_t len)
{
    const char *unit[] = {"bytes", "kB", "MB", "GB", "TB"};
    int u = 0;
    while (b >= 1000 && u < 4) {
        b /= 1000;
        u++;
    }
    snprintf(buf, len, u ? "%.1f %s" : "%.0f %s", b, unit[u]);
    return buf;
}

int som_ocl_check_fits(const som_ocl_ctx *ctx, double limit, double bytes, const char *what,
                       som_status *st)
{
    char need[32], most[32];
    if (bytes <= limit) return SOM_OK;
    st->api_status = CL_INVALID_BUFFER_SIZE;
    return som_fail(st, SOM_ERR_BACKEND,
                    "%s need a buffer of %s but device '%s' allows at most %s per buffer "
                    "(CL_INVALID_BUFFER_SIZE)",
                    what, som_ocl_bytes(bytes, need, sizeof need), ctx->info.name,
                    som_ocl_bytes(limit, most, sizeof most));
}

int som_ocl_wg_min(const som_ocl_cfg *cfg)
{
    if (cfg->opts.wg_min_size > 0) return cfg->opts.wg_min_size;
    /* on a CPU device a work-item per map wins at every size measured */
    return strcmp(cfg->ctx->info.type, "CPU") == 0 ? 512 : 32;
}

int som_ocl_uses_wg(const som_ocl_cfg *cfg, int N)
{
    return cfg->opts.kernel == SOM_KERNEL_WG ||
           (cfg->opts.kernel == SOM_KERNEL_AUTO && N >= som_ocl_wg_min(cfg));
}

/* Online, each map holds a visiting order of n indices (two for the work-group kernel's
 * maps), and with views the cohort holds the data of the views its maps use; batch, its
 * block sums (size x som_slot_width) and a block's winners; both, their weights. */
int som_ocl_cohort(void *cfg_, const som_problem *p, int first, int *last, som_status *st)
{
    const som_ocl_cfg *cfg = cfg_;
    const size_t rs = som_ocl_real(cfg->ctx);
    const double limit = som_ocl_limit(cfg);
    const int batch = p->algorithm == SOM_BATCH, m = p->data.m;
    const double block = (double)(p->batch_block < p->data.n ? p->batch_block : p->data.n);
    double a = 0, b = 0, part = 0;
    int i = first;
    if (som_ocl_refuse_forked(st)) return st->code;
    while (i < p->nmaps) {
        const double N = (double)p->size[i];
        double na = a + (batch ? N * som_slot_width(m, som_data_general(&p->data)) * rs
                               : (double)p->data.n * sizeof(cl_uint) *
                                     (1 + som_ocl_uses_wg(cfg, p->size[i])));
        double nb = b + (batch ? block * sizeof(cl_int) : 0);
        double nw = part * m * rs + N * m * rs;
        /* with views, the data of every view the cohort's maps use */
        double nx = p->view ? (double)(p->view[i] - p->view[first] + 1) * p->data.n * m * rs
                            : 0;
        if (i > first && (na > limit || nb > limit || nw > limit || nx > limit)) break;
        a = na;
        b = nb;
        part += N;
        i++;
    }
    *last = i;
    return SOM_OK;
}

int64_t som_ocl_chunk_blocks(const som_ocl_cfg *cfg, const som_family *f)
{
    const size_t rs = som_ocl_real(cfg->ctx);
    const double limit = som_ocl_limit(cfg);
    const double slot_len = f->size_sum * som_slot_width(f->m, f->general);
    const int64_t B = f->batch_block, nblocks = (f->n + B - 1) / B;
    int64_t chunk_blocks = (int64_t)fmin((double)SOM_BATCH_CHUNK_BLOCKS, (double)nblocks);
    while (chunk_blocks > 1 &&
           ((double)chunk_blocks * B * f->m * rs > limit ||
            (double)chunk_blocks * B * f->nmaps * sizeof(cl_int) > limit ||
            (double)chunk_blocks * slot_len * rs > limit))
        chunk_blocks /= 2;
    return chunk_blocks;
}

/* Bytes of local memory the kernels' own arrays may take: the device's (or the option's
 * cap below it), less what the runtime may keep. */
static double local_budget(const som_ocl_cfg *cfg)
{
    const double dev = cfg->ctx->info.local_mem;
    const double cap = cfg->opts.local_mem > 0 && cfg->opts.local_mem < dev ? cfg->opts.local_mem
                                                                           : dev;
    return cap - SOM_LOCAL_RESERVE;
}

int som_ocl_wg_shape(som_ocl_cfg *cfg, int maxN_wg, double gmax_nm, size_t *L,
                        int *use_local, som_status *st)
{
    som_ocl_ctx *ctx = cfg->ctx;
    const size_t rs = som_ocl_real(ctx);
    const double lmem = local_budget(cfg);
    size_t kmax = 0, dims[3] = {0, 0, 0};
    cl_int err;
    int rc;
    *L = 1;
    while (*L < (size_t)maxN_wg && *L < 256) *L <<= 1;
    *use_local = cfg->opts.wg_local != 0 &&
                 (double)*L * (rs + sizeof(cl_int)) + gmax_nm * rs <= lmem;
    /* the kernel that will run, and the device's first work-item dimension */
    if ((rc = som_ocl_wg_limit(ctx, *use_local ? ctx->wg_local : ctx->wg_global, &kmax,
                                  st)))
        return rc;
    err = clGetDeviceInfo(ctx->device, CL_DEVICE_MAX_WORK_ITEM_SIZES, sizeof dims, dims, NULL);
    if (err != CL_SUCCESS) return som_ocl_fail(st, err, "clGetDeviceInfo");
    while (*L > 1 && (*L > kmax || *L > dims[0] || *L > ctx->info.max_wg)) *L >>= 1;
    return SOM_OK;
}

int som_ocl_assign_shape(som_ocl_cfg *cfg, double wtot, size_t *wg, int *use_local,
                         som_status *st)
{
    som_ocl_ctx *ctx = cfg->ctx;
    size_t kmax = 0;
    int rc;
    *wg = 64;
    *use_local = wtot * som_ocl_real(ctx) <= local_budget(cfg);
    if ((rc = som_ocl_wg_limit(ctx, *use_local ? ctx->batch_assign_local : ctx->batch_assign,
                                  &kmax, st)))
        return rc;
    while (*wg > 1 && (*wg > kmax || *wg > ctx->info.max_wg)) *wg >>= 1;
    return SOM_OK;
}

int som_ocl_item_shape(som_ocl_ctx *ctx, cl_kernel k, size_t n, size_t *global, size_t *local,
                       som_status *st)
{
    size_t multiple = 1, kmax = 1;
    cl_int err = clGetKernelWorkGroupInfo(k, ctx->device,
                                          CL_KERNEL_PREFERRED_WORK_GROUP_SIZE_MULTIPLE,
                                          sizeof multiple, &multiple, NULL);
    int rc;
    if (err != CL_SUCCESS) return som_ocl_fail(st, err, "clGetKernelWorkGroupInfo");
    if ((rc = som_ocl_wg_limit(ctx, k, &kmax, st))) return rc;
    if (multiple > kmax) multiple = kmax;
    if (multiple > (size_t)ctx->info.max_wg) multiple = (size_t)ctx->info.max_wg;
    if (multiple < 1) multiple = 1;
    *local = multiple;
    *global = (n + multiple - 1) / multiple * multiple;
    return SOM_OK;
}

double som_ocl_launch_seconds(const som_ocl_cfg *cfg)
{
    return cfg->opts.launch_seconds > 0 ? cfg->opts.launch_seconds : SOM_LAUNCH_SECONDS;
}

#else
typedef int som_ocl_plan_unused; /* without OpenCL: nothing here (ISO C wants a declaration) */
#endif /* SOMGPU_HAVE_OPENCL */
