/* som_ocl.c: the OpenCL backend (see som_ocl.h). Compiled to stubs without
 * SOMGPU_HAVE_OPENCL. Every OpenCL object a function creates is released before it
 * returns, on success, on error and on interrupt; only som_ocl_ctx outlives a call, and
 * som_ocl_close releases it. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "som_ocl.h"

const char *som_ocl_status_name(int status)
{
    switch (status) {
    case 0: return "CL_SUCCESS";
    case -1: return "CL_DEVICE_NOT_FOUND";
    case -2: return "CL_DEVICE_NOT_AVAILABLE";
    case -3: return "CL_COMPILER_NOT_AVAILABLE";
    case -4: return "CL_MEM_OBJECT_ALLOCATION_FAILURE";
    case -5: return "CL_OUT_OF_RESOURCES";
    case -6: return "CL_OUT_OF_HOST_MEMORY";
    case -7: return "CL_PROFILING_INFO_NOT_AVAILABLE";
    case -8: return "CL_MEM_COPY_OVERLAP";
    case -9: return "CL_IMAGE_FORMAT_MISMATCH";
    case -10: return "CL_IMAGE_FORMAT_NOT_SUPPORTED";
    case -11: return "CL_BUILD_PROGRAM_FAILURE";
    case -12: return "CL_MAP_FAILURE";
    case -13: return "CL_MISALIGNED_SUB_BUFFER_OFFSET";
    case -14: return "CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST";
    case -15: return "CL_COMPILE_PROGRAM_FAILURE";
    case -16: return "CL_LINKER_NOT_AVAILABLE";
    case -17: return "CL_LINK_PROGRAM_FAILURE";
    case -18: return "CL_DEVICE_PARTITION_FAILED";
    case -19: return "CL_KERNEL_ARG_INFO_NOT_AVAILABLE";
    case -30: return "CL_INVALID_VALUE";
    case -31: return "CL_INVALID_DEVICE_TYPE";
    case -32: return "CL_INVALID_PLATFORM";
    case -33: return "CL_INVALID_DEVICE";
    case -34: return "CL_INVALID_CONTEXT";
    case -35: return "CL_INVALID_QUEUE_PROPERTIES";
    case -36: return "CL_INVALID_COMMAND_QUEUE";
    case -37: return "CL_INVALID_HOST_PTR";
    case -38: return "CL_INVALID_MEM_OBJECT";
    case -39: return "CL_INVALID_IMAGE_FORMAT_DESCRIPTOR";
    case -40: return "CL_INVALID_IMAGE_SIZE";
    case -41: return "CL_INVALID_SAMPLER";
    case -42: return "CL_INVALID_BINARY";
    case -43: return "CL_INVALID_BUILD_OPTIONS";
    case -44: return "CL_INVALID_PROGRAM";
    case -45: return "CL_INVALID_PROGRAM_EXECUTABLE";
    case -46: return "CL_INVALID_KERNEL_NAME";
    case -47: return "CL_INVALID_KERNEL_DEFINITION";
    case -48: return "CL_INVALID_KERNEL";
    case -49: return "CL_INVALID_ARG_INDEX";
    case -50: return "CL_INVALID_ARG_VALUE";
    case -51: return "CL_INVALID_ARG_SIZE";
    case -52: return "CL_INVALID_KERNEL_ARGS";
    case -53: return "CL_INVALID_WORK_DIMENSION";
    case -54: return "CL_INVALID_WORK_GROUP_SIZE";
    case -55: return "CL_INVALID_WORK_ITEM_SIZE";
    case -56: return "CL_INVALID_GLOBAL_OFFSET";
    case -57: return "CL_INVALID_EVENT_WAIT_LIST";
    case -58: return "CL_INVALID_EVENT";
    case -59: return "CL_INVALID_OPERATION";
    case -60: return "CL_INVALID_GL_OBJECT";
    case -61: return "CL_INVALID_BUFFER_SIZE";
    case -62: return "CL_INVALID_MIP_LEVEL";
    case -63: return "CL_INVALID_GLOBAL_WORK_SIZE";
    case -64: return "CL_INVALID_PROPERTY";
    case -65: return "CL_INVALID_IMAGE_DESCRIPTOR";
    case -66: return "CL_INVALID_COMPILER_OPTIONS";
    case -67: return "CL_INVALID_LINKER_OPTIONS";
    case -68: return "CL_INVALID_DEVICE_PARTITION_COUNT";
    case -1001: return "CL_PLATFORM_NOT_FOUND_KHR";
    default: return "CL_UNKNOWN_ERROR";
    }
}

#ifndef SOMGPU_HAVE_OPENCL

int som_ocl_built(void) { return 0; }
int som_ocl_forked(void) { return 0; }

static int unavailable(som_status *st)
{
    return som_fail(st, SOM_ERR_UNAVAILABLE, "this build of somgpu has no OpenCL support");
}

int som_ocl_list(som_ocl_device **out, int *n, som_status *st)
{
    (void)st;
    *out = NULL;
    *n = 0;
    return SOM_OK;
}

int som_ocl_open(int index, int precision, const char *source, som_ocl_ctx **out,
                 som_status *st)
{
    (void)index; (void)precision; (void)source;
    *out = NULL;
    return unavailable(st);
}

void som_ocl_close(som_ocl_ctx *ctx) { (void)ctx; }
const som_ocl_device *som_ocl_ctx_device(const som_ocl_ctx *ctx) { (void)ctx; return NULL; }
int som_ocl_ctx_precision(const som_ocl_ctx *ctx) { (void)ctx; return SOM_DOUBLE; }

int som_ocl_train(som_ocl_ctx *ctx, const som_problem *p, double *const *weights,
                  const som_ocl_opts *opts, const som_hooks *hooks, int *kernels_used,
                  som_status *st)
{
    (void)ctx; (void)p; (void)weights; (void)opts; (void)hooks; (void)kernels_used;
    return unavailable(st);
}

#else /* SOMGPU_HAVE_OPENCL */

#ifdef __APPLE__
#include <OpenCL/opencl.h>
#else
#include <CL/cl.h>
#endif

#include "som_kernels.h"

/* OpenCL runtimes are not fork-safe: a child forked (parallel::mclapply) after its parent
 * initialised one hangs in its first call. Such a child gets a clear error instead, and
 * leaves the parent's objects alone. */
static int som_ocl_initialised = 0;

static int forked_after_init(som_status *st)
{
    if (!(som_ocl_initialised && som_in_forked_child())) return 0;
    som_fail(st, SOM_ERR_UNAVAILABLE,
             "OpenCL cannot be used in a process forked after its parent used OpenCL "
             "(parallel::mclapply); use a socket cluster (parallel::makeCluster) or "
             "backend = \"cpu\" in forked children");
    return 1;
}

int som_ocl_forked(void)
{
    return som_ocl_initialised && som_in_forked_child();
}

struct som_ocl_ctx {
    som_ocl_device info;
    int precision;
    cl_device_id device;
    cl_context context;
    cl_command_queue queue;
    cl_program program;
    cl_kernel init_uniform, init_sample, item, group_local, group_global;
    cl_kernel batch_assign, batch_assign_local, batch_sums, batch_reduce, batch_smooth;
    cl_kernel trace_qe;
};

int som_ocl_built(void) { return 1; }

static int fail_cl(som_status *st, cl_int rc, const char *what)
{
    st->api_status = rc;
    return som_fail(st, SOM_ERR_BACKEND, "%s failed with %s (%d)", what,
                    som_ocl_status_name(rc), (int)rc);
}

/* An info string into buf (truncated to fit), "" when the query fails. */
static void info_string(cl_int (*get)(void *, cl_uint, size_t, void *, size_t *), void *obj,
                        cl_uint what, char *buf, size_t len)
{
    size_t need = 0;
    char *tmp;
    buf[0] = '\0';
    if (get(obj, what, 0, NULL, &need) != CL_SUCCESS || need == 0) return;
    if ((tmp = malloc(need + 1)) == NULL) return;
    if (get(obj, what, need, tmp, NULL) == CL_SUCCESS) {
        tmp[need] = '\0';
        strncpy(buf, tmp, len - 1);
        buf[len - 1] = '\0';
    }
    free(tmp);
}

static cl_int get_platform(void *o, cl_uint w, size_t n, void *v, size_t *r)
{
    return clGetPlatformInfo((cl_platform_id)o, w, n, v, r);
}

static cl_int get_device(void *o, cl_uint w, size_t n, void *v, size_t *r)
{
    return clGetDeviceInfo((cl_device_id)o, w, n, v, r);
}

static void device_info(cl_platform_id platform, cl_device_id dev, som_ocl_device *d)
{
    cl_device_type type = 0;
    cl_uint cu = 0;
    cl_ulong gmem = 0, amem = 0, lmem = 0;
    size_t wg = 0;
    cl_device_fp_config fp64 = 0;
    memset(d, 0, sizeof *d);
    info_string(get_platform, platform, CL_PLATFORM_NAME, d->platform, sizeof d->platform);
    info_string(get_device, dev, CL_DEVICE_NAME, d->name, sizeof d->name);
    info_string(get_device, dev, CL_DEVICE_VERSION, d->version, sizeof d->version);
    clGetDeviceInfo(dev, CL_DEVICE_TYPE, sizeof type, &type, NULL);
    clGetDeviceInfo(dev, CL_DEVICE_MAX_COMPUTE_UNITS, sizeof cu, &cu, NULL);
    clGetDeviceInfo(dev, CL_DEVICE_GLOBAL_MEM_SIZE, sizeof gmem, &gmem, NULL);
    clGetDeviceInfo(dev, CL_DEVICE_MAX_MEM_ALLOC_SIZE, sizeof amem, &amem, NULL);
    clGetDeviceInfo(dev, CL_DEVICE_LOCAL_MEM_SIZE, sizeof lmem, &lmem, NULL);
    clGetDeviceInfo(dev, CL_DEVICE_MAX_WORK_GROUP_SIZE, sizeof wg, &wg, NULL);
    if (clGetDeviceInfo(dev, CL_DEVICE_DOUBLE_FP_CONFIG, sizeof fp64, &fp64, NULL) != CL_SUCCESS)
        fp64 = 0;
    strcpy(d->type, (type & CL_DEVICE_TYPE_GPU) ? "GPU"
                    : (type & CL_DEVICE_TYPE_ACCELERATOR) ? "ACCELERATOR"
                    : (type & CL_DEVICE_TYPE_CPU) ? "CPU" : "OTHER");
    d->compute_units = (int)cu;
    d->global_mem = (double)gmem;
    d->max_alloc = (double)amem;
    d->local_mem = (double)lmem;
    d->max_group = (double)wg;
    d->fp64 = fp64 != 0;
}

/* Every device of every platform, with its platform; both arrays malloc'ed. */
static int collect(cl_platform_id **plat_out, cl_device_id **dev_out, som_ocl_device **info_out,
                   int *n_out, som_status *st)
{
    cl_uint np = 0, p;
    cl_platform_id *plats = NULL;
    cl_device_id *devs = NULL, *pdevs = NULL;
    cl_platform_id *dplat = NULL;
    som_ocl_device *info = NULL;
    int n = 0, rc = SOM_OK;
    cl_int err;

    *plat_out = NULL;
    *dev_out = NULL;
    *info_out = NULL;
    *n_out = 0;
    if (forked_after_init(st)) return st->code;
    som_ocl_initialised = 1;
    err = clGetPlatformIDs(0, NULL, &np);
    if (err == -1001 /* CL_PLATFORM_NOT_FOUND_KHR: an ICD loader without platforms */ ||
        (err == CL_SUCCESS && np == 0))
        return SOM_OK;
    if (err != CL_SUCCESS) return fail_cl(st, err, "clGetPlatformIDs");
    plats = malloc(np * sizeof *plats);
    if (!plats) return som_fail(st, SOM_ERR_NOMEM, "out of memory listing OpenCL platforms");
    if ((err = clGetPlatformIDs(np, plats, NULL)) != CL_SUCCESS) {
        rc = fail_cl(st, err, "clGetPlatformIDs");
        goto done;
    }
    for (p = 0; p < np; p++) {
        cl_uint nd = 0, d;
        void *grow;
        err = clGetDeviceIDs(plats[p], CL_DEVICE_TYPE_ALL, 0, NULL, &nd);
        if (err == CL_DEVICE_NOT_FOUND || nd == 0) continue;
        if (err != CL_SUCCESS) {
            rc = fail_cl(st, err, "clGetDeviceIDs");
            goto done;
        }
        free(pdevs);
        pdevs = malloc(nd * sizeof *pdevs);
        if (!pdevs) {
            rc = som_fail(st, SOM_ERR_NOMEM, "out of memory listing OpenCL devices");
            goto done;
        }
        if ((err = clGetDeviceIDs(plats[p], CL_DEVICE_TYPE_ALL, nd, pdevs, NULL)) != CL_SUCCESS) {
            rc = fail_cl(st, err, "clGetDeviceIDs");
            goto done;
        }
        if (!(grow = realloc(devs, (n + nd) * sizeof *devs))) goto nomem;
        devs = grow;
        if (!(grow = realloc(dplat, (n + nd) * sizeof *dplat))) goto nomem;
        dplat = grow;
        if (!(grow = realloc(info, (n + nd) * sizeof *info))) goto nomem;
        info = grow;
        for (d = 0; d < nd; d++) {
            devs[n] = pdevs[d];
            dplat[n] = plats[p];
            device_info(plats[p], pdevs[d], info + n);
            n++;
        }
    }
    goto done;
nomem:
    rc = som_fail(st, SOM_ERR_NOMEM, "out of memory listing OpenCL devices");
done:
    free(plats);
    free(pdevs);
    if (rc != SOM_OK) {
        free(devs);
        free(dplat);
        free(info);
        return rc;
    }
    *plat_out = dplat;
    *dev_out = devs;
    *info_out = info;
    *n_out = n;
    return SOM_OK;
}

int som_ocl_list(som_ocl_device **out, int *n, som_status *st)
{
    cl_platform_id *plats;
    cl_device_id *devs;
    int rc = collect(&plats, &devs, out, n, st);
    if (rc == SOM_OK) {
        free(plats);
        free(devs);
    }
    return rc;
}

void som_ocl_close(som_ocl_ctx *ctx)
{
    if (!ctx) return;
    if (som_in_forked_child()) { /* the parent's objects: not ours to release */
        free(ctx);
        return;
    }
    if (ctx->init_uniform) clReleaseKernel(ctx->init_uniform);
    if (ctx->init_sample) clReleaseKernel(ctx->init_sample);
    if (ctx->item) clReleaseKernel(ctx->item);
    if (ctx->group_local) clReleaseKernel(ctx->group_local);
    if (ctx->group_global) clReleaseKernel(ctx->group_global);
    if (ctx->batch_assign) clReleaseKernel(ctx->batch_assign);
    if (ctx->batch_assign_local) clReleaseKernel(ctx->batch_assign_local);
    if (ctx->batch_sums) clReleaseKernel(ctx->batch_sums);
    if (ctx->batch_reduce) clReleaseKernel(ctx->batch_reduce);
    if (ctx->batch_smooth) clReleaseKernel(ctx->batch_smooth);
    if (ctx->trace_qe) clReleaseKernel(ctx->trace_qe);
    if (ctx->program) clReleaseProgram(ctx->program);
    if (ctx->queue) clReleaseCommandQueue(ctx->queue);
    if (ctx->context) clReleaseContext(ctx->context);
    free(ctx);
}

const som_ocl_device *som_ocl_ctx_device(const som_ocl_ctx *ctx) { return &ctx->info; }
int som_ocl_ctx_precision(const som_ocl_ctx *ctx) { return ctx->precision; }

/* Keep the build log in the status (the caller frees it with som_status_clear). */
static void keep_build_log(som_ocl_ctx *ctx, som_status *st)
{
    size_t len = 0;
    if (clGetProgramBuildInfo(ctx->program, ctx->device, CL_PROGRAM_BUILD_LOG, 0, NULL, &len) !=
            CL_SUCCESS || len == 0)
        return;
    st->log = malloc(len + 1);
    if (!st->log) return;
    if (clGetProgramBuildInfo(ctx->program, ctx->device, CL_PROGRAM_BUILD_LOG, len, st->log,
                              NULL) != CL_SUCCESS)
        len = 0;
    st->log[len] = '\0';
}

int som_ocl_open(int index, int precision, const char *source, som_ocl_ctx **out,
                 som_status *st)
{
    cl_platform_id *plats = NULL;
    cl_device_id *devs = NULL;
    som_ocl_device *info = NULL;
    som_ocl_ctx *ctx = NULL;
    const char **lines = source ? &source : som_kernel_lines;
    cl_uint nlines = source ? 1 : (cl_uint)(sizeof som_kernel_lines / sizeof *som_kernel_lines);
    const char *options = precision == SOM_DOUBLE ? "-DSOM_REAL=double -DSOM_DOUBLE=1"
                                                  : "-DSOM_REAL=float -DSOM_NO_DOUBLE=1";
    int n = 0, rc;
    cl_int err;

    *out = NULL;
    if ((rc = collect(&plats, &devs, &info, &n, st)) != SOM_OK) return rc;
    if (index < 0 || index >= n) {
        rc = som_fail(st, SOM_ERR_INVALID, "there is no OpenCL device %d (%d found)", index + 1, n);
        goto done;
    }
    if (precision == SOM_DOUBLE && !info[index].fp64) {
        rc = som_fail(st, SOM_ERR_UNAVAILABLE, "device '%s' has no double precision",
                      info[index].name);
        goto done;
    }
    ctx = calloc(1, sizeof *ctx);
    if (!ctx) {
        rc = som_fail(st, SOM_ERR_NOMEM, "out of memory");
        goto done;
    }
    ctx->info = info[index];
    ctx->precision = precision;
    ctx->device = devs[index];
    {
        cl_context_properties props[3] = {CL_CONTEXT_PLATFORM,
                                          (cl_context_properties)plats[index], 0};
        ctx->context = clCreateContext(props, 1, &ctx->device, NULL, NULL, &err);
        if (err != CL_SUCCESS) {
            ctx->context = NULL;
            rc = fail_cl(st, err, "clCreateContext");
            goto done;
        }
    }
    ctx->queue = clCreateCommandQueue(ctx->context, ctx->device, 0, &err);
    if (err != CL_SUCCESS) {
        ctx->queue = NULL;
        rc = fail_cl(st, err, "clCreateCommandQueue");
        goto done;
    }
    ctx->program = clCreateProgramWithSource(ctx->context, nlines, lines, NULL, &err);
    if (err != CL_SUCCESS) {
        ctx->program = NULL;
        rc = fail_cl(st, err, "clCreateProgramWithSource");
        goto done;
    }
    err = clBuildProgram(ctx->program, 1, &ctx->device, options, NULL, NULL);
    if (err != CL_SUCCESS) {
        rc = fail_cl(st, err, "building the OpenCL kernels (clBuildProgram)");
        keep_build_log(ctx, st);
        goto done;
    }
    {
        struct { cl_kernel *k; const char *name; } ks[] = {
            {&ctx->init_uniform, "k_init_uniform"}, {&ctx->init_sample, "k_init_sample"},
            {&ctx->item, "k_online_item"}, {&ctx->group_local, "k_online_group_local"},
            {&ctx->group_global, "k_online_group_global"},
            {&ctx->batch_assign, "k_batch_assign"},
            {&ctx->batch_assign_local, "k_batch_assign_local"}, {&ctx->batch_sums, "k_batch_sums"},
            {&ctx->batch_reduce, "k_batch_reduce"}, {&ctx->batch_smooth, "k_batch_smooth"},
            {&ctx->trace_qe, "k_trace_qe"}};
        size_t i;
        for (i = 0; i < sizeof ks / sizeof ks[0]; i++) {
            *ks[i].k = clCreateKernel(ctx->program, ks[i].name, &err);
            if (err != CL_SUCCESS) {
                *ks[i].k = NULL;
                rc = fail_cl(st, err, "clCreateKernel");
                goto done;
            }
        }
    }
    *out = ctx;
    ctx = NULL;
done:
    som_ocl_close(ctx);
    free(plats);
    free(devs);
    free(info);
    return rc;
}

/* --- training ------------------------------------------------------------------------ */

/* Host arrays in the device's precision. */
static void put_real(void *dst, size_t i, double v, int precision)
{
    if (precision == SOM_DOUBLE) ((double *)dst)[i] = v;
    else ((float *)dst)[i] = (float)v;
}

static double get_real(const void *src, size_t i, int precision)
{
    return precision == SOM_DOUBLE ? ((const double *)src)[i] : (double)((const float *)src)[i];
}

/* Everything one training run holds, released by release_run() on every path. */
typedef struct {
    cl_mem y, w, woff, size, restart, item, group, tab, orders, all, tq;
    void *yh, *wh, *tabh;
    cl_ulong *woffh;
    int *itemh, *grouph;
    double *row;
} run_res;

static void release_run(run_res *r)
{
    cl_mem *mems[] = {&r->y,    &r->w,     &r->woff,   &r->size, &r->restart, &r->item,
                      &r->group, &r->tab, &r->orders, &r->all,  &r->tq};
    size_t i;
    for (i = 0; i < sizeof mems / sizeof mems[0]; i++)
        if (*mems[i]) clReleaseMemObject(*mems[i]);
    free(r->yh);
    free(r->wh);
    free(r->tabh);
    free(r->woffh);
    free(r->itemh);
    free(r->grouph);
    free(r->row);
}

static int make_buffer(som_ocl_ctx *ctx, cl_mem *out, cl_mem_flags flags, size_t bytes,
                       void *host, som_status *st)
{
    cl_int err;
    *out = clCreateBuffer(ctx->context, flags | (host ? CL_MEM_COPY_HOST_PTR : 0), bytes, host,
                          &err);
    if (err != CL_SUCCESS) {
        *out = NULL;
        return fail_cl(st, err, "clCreateBuffer");
    }
    return SOM_OK;
}

#define SET_ARG(k, i, v)                                                                  \
    do {                                                                                  \
        cl_int e_ = clSetKernelArg(k, i, sizeof(v), &(v));                                \
        if (e_ != CL_SUCCESS) {                                                           \
            rc = fail_cl(st, e_, "clSetKernelArg");                                       \
            goto done;                                                                    \
        }                                                                                 \
    } while (0)

#define SET_LOCAL(k, i, bytes)                                                            \
    do {                                                                                  \
        cl_int e_ = clSetKernelArg(k, i, bytes, NULL);                                    \
        if (e_ != CL_SUCCESS) {                                                           \
            rc = fail_cl(st, e_, "clSetKernelArg");                                       \
            goto done;                                                                    \
        }                                                                                 \
    } while (0)

#define CHECK_CL(call, what)                                                              \
    do {                                                                                  \
        cl_int e_ = (call);                                                               \
        if (e_ != CL_SUCCESS) {                                                           \
            rc = fail_cl(st, e_, what);                                                   \
            goto done;                                                                    \
        }                                                                                 \
    } while (0)

/* The trained weights (row-major per map at woff, in the device's precision) back into the
 * result: column-major doubles per map. */
static int read_weights(som_ocl_ctx *ctx, cl_mem w, size_t wtot, void *wh, const cl_ulong *woff,
                        const som_problem *p, double *const *weights, som_status *st)
{
    const int prec = ctx->precision, m = p->data.m;
    const size_t rs = prec == SOM_DOUBLE ? sizeof(double) : sizeof(float);
    int i, j, k;
    cl_int err = clEnqueueReadBuffer(ctx->queue, w, CL_TRUE, 0, wtot * rs, wh, 0, NULL, NULL);
    if (err != CL_SUCCESS) return fail_cl(st, err, "clEnqueueReadBuffer");
    for (i = 0; i < p->nmaps; i++)
        for (j = 0; j < p->size[i]; j++)
            for (k = 0; k < m; k++)
                weights[i][(size_t)k * p->size[i] + j] =
                    get_real(wh, woff[i] + (size_t)j * m + k, prec);
    return SOM_OK;
}

/* The arguments the training kernels share (0-14, see SOM_STEP_ARGS in som_online.cl). */
static int set_step_args(cl_kernel k, const run_res *r, cl_mem maps, cl_uint n, cl_int m,
                         cl_int tab_width, cl_int t_first, cl_uint seed, cl_ulong start,
                         cl_ulong count, som_status *st)
{
    struct { size_t size; const void *value; } a[] = {
        {sizeof(cl_mem), &r->y},    {sizeof n, &n},         {sizeof m, &m},
        {sizeof(cl_mem), &maps},    {sizeof(cl_mem), &r->size}, {sizeof(cl_mem), &r->restart},
        {sizeof(cl_mem), &r->woff}, {sizeof(cl_mem), &r->w},    {sizeof(cl_mem), &r->orders},
        {sizeof(cl_mem), &r->tab},  {sizeof tab_width, &tab_width}, {sizeof t_first, &t_first},
        {sizeof seed, &seed},       {sizeof start, &start},     {sizeof count, &count}};
    cl_uint i;
    for (i = 0; i < sizeof a / sizeof a[0]; i++) {
        cl_int err = clSetKernelArg(k, i, a[i].size, a[i].value);
        if (err != CL_SUCCESS) return fail_cl(st, err, "clSetKernelArg");
    }
    return SOM_OK;
}

/* "12.3 MB" and so on, into buf. */
static const char *human_bytes(double b, char *buf, size_t len)
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

static int check_fits(const som_ocl_ctx *ctx, double limit, double bytes, const char *what,
                      som_status *st)
{
    char need[32], most[32];
    if (bytes <= limit) return SOM_OK;
    st->api_status = CL_INVALID_BUFFER_SIZE;
    return som_fail(st, SOM_ERR_BACKEND,
                    "%s need a buffer of %s but device '%s' allows at most %s per buffer "
                    "(CL_INVALID_BUFFER_SIZE)",
                    what, human_bytes(bytes, need, sizeof need), ctx->info.name,
                    human_bytes(limit, most, sizeof most));
}

/* --- traces: the qe of every map after a pass, on the device ---------------------------- */

#define SOM_TRACE_BLOCK 1024 /* som_assess's blocks */

/* Rows 0 .. rows-1 of buffer x, rows first_row .. of the data, against the maps (the list
 * `maps` of nmaps indices): the sums of distances to the nearest neuron by 1024-row block
 * of the whole data, into partial; a block begun in the chunk before goes on from its sum
 * there, so that the chunks do not change the sums. */
static int trace_launch(som_ocl_ctx *ctx, cl_mem x, cl_uint rows, cl_int m, cl_mem maps,
                        cl_int nmaps, cl_mem size, cl_mem woff, cl_mem W, cl_mem partial,
                        cl_uint first_row, som_status *st)
{
    cl_kernel k = ctx->trace_qe;
    cl_uint nb = (first_row + rows - 1) / SOM_TRACE_BLOCK - first_row / SOM_TRACE_BLOCK + 1;
    size_t g[2] = {(size_t)nb, (size_t)nmaps};
    struct { size_t size; const void *value; } a[] = {
        {sizeof(cl_mem), &x},    {sizeof rows, &rows},   {sizeof m, &m},
        {sizeof(cl_mem), &maps}, {sizeof nmaps, &nmaps}, {sizeof(cl_mem), &size},
        {sizeof(cl_mem), &woff}, {sizeof(cl_mem), &W},   {sizeof(cl_mem), &partial},
        {sizeof first_row, &first_row}, {sizeof nb, &nb}};
    cl_uint i;
    cl_int err;
    for (i = 0; i < sizeof a / sizeof a[0]; i++)
        if ((err = clSetKernelArg(k, i, a[i].size, a[i].value)) != CL_SUCCESS)
            return fail_cl(st, err, "clSetKernelArg");
    err = clEnqueueNDRangeKernel(ctx->queue, k, 2, NULL, g, NULL, 0, NULL, NULL);
    return err == CL_SUCCESS ? SOM_OK : fail_cl(st, err, "clEnqueueNDRangeKernel (trace)");
}

/* The partial sums of nblocks blocks back, added in block order and divided by n: the qe of
 * each map after pass t, into the trace. */
static int trace_collect(som_ocl_ctx *ctx, cl_mem partial, int nblocks, const som_problem *p,
                         int t, som_status *st)
{
    const int prec = ctx->precision, nmaps = p->nmaps;
    const size_t rs = prec == SOM_DOUBLE ? sizeof(double) : sizeof(float);
    void *h = malloc((size_t)nblocks * nmaps * rs);
    cl_int err;
    int b, q;
    if (!h) return som_fail(st, SOM_ERR_NOMEM, "out of host memory for the trace");
    err = clEnqueueReadBuffer(ctx->queue, partial, CL_TRUE, 0, (size_t)nblocks * nmaps * rs, h,
                              0, NULL, NULL);
    if (err != CL_SUCCESS) {
        free(h);
        return fail_cl(st, err, "clEnqueueReadBuffer");
    }
    for (q = 0; q < nmaps; q++) {
        double sum = 0;
        for (b = 0; b < nblocks; b++) sum += get_real(h, (size_t)b * nmaps + q, prec);
        p->trace[(size_t)q * (p->iter_max - 1) + (t - 1)] = sum / (double)p->data.n;
    }
    free(h);
    return SOM_OK;
}

/* One training run of maps that fit the device together. */
static int train_maps(som_ocl_ctx *ctx, const som_problem *p, double *const *weights,
                      const som_ocl_opts *opts, const som_hooks *hooks, int *kernels_used,
                      som_status *st)
{
    const int prec = ctx->precision, m = p->data.m, nmaps = p->nmaps;
    const size_t rs = prec == SOM_DOUBLE ? sizeof(double) : sizeof(float);
    const cl_uint n = (cl_uint)p->data.n;
    const cl_ulong total_steps = (cl_ulong)(p->iter_max - 1) * n;
    const double limit = opts->max_alloc > 0 && opts->max_alloc < ctx->info.max_alloc
                             ? opts->max_alloc : ctx->info.max_alloc;
    run_res r;
    size_t wtot = 0, e, L = 1;
    int i, rc, maxN = 0, maxN_group = 0, nitem = 0, ngroup = 0, tab_width, rows_cap;
    int group_min = opts->group_min_size, use_local = 0, used = 0;
    double gmax_nm = 0, launch_target = opts->launch_seconds > 0 ? opts->launch_seconds : 0.2;
    cl_ulong s = 0, count;
    cl_uint seed = p->seed;

    memset(&r, 0, sizeof r);
    if ((rc = som_check_problem(p, st)) != SOM_OK) return rc;
    if (forked_after_init(st)) return st->code;
    if (group_min <= 0) group_min = strcmp(ctx->info.type, "CPU") == 0 ? 512 : 32;

    r.woffh = malloc(nmaps * sizeof *r.woffh);
    r.itemh = malloc(nmaps * sizeof *r.itemh);
    r.grouph = malloc(nmaps * sizeof *r.grouph);
    if (!r.woffh || !r.itemh || !r.grouph) goto nomem;
    for (i = 0; i < nmaps; i++) {
        int N = p->size[i];
        int group = opts->kernel == SOM_KERNEL_GROUP ||
                    (opts->kernel == SOM_KERNEL_AUTO && N >= group_min);
        r.woffh[i] = wtot;
        wtot += (size_t)N * m;
        if (N > maxN) maxN = N;
        if (group) {
            r.grouph[ngroup++] = i;
            if (N > maxN_group) maxN_group = N;
            if ((double)N * m > gmax_nm) gmax_nm = (double)N * m;
        } else {
            r.itemh[nitem++] = i;
        }
    }
    tab_width = maxN / 2 + 1;

    /* what the device must hold */
    if ((rc = check_fits(ctx, limit, (double)n * m * rs, "the data", st)) != SOM_OK) goto done;
    if ((rc = check_fits(ctx, limit, (double)wtot * rs, "the weights", st)) != SOM_OK) goto done;
    if ((rc = check_fits(ctx, limit, (double)nmaps * n * sizeof(cl_uint),
                         "the visiting orders of the maps", st)) != SOM_OK)
        goto done;
    {
        double need = ((double)n * m + wtot) * rs + (double)nmaps * n * sizeof(cl_uint) +
                      (double)tab_width * rs;
        if (need > ctx->info.global_mem) {
            char a[32], b[32];
            st->api_status = CL_MEM_OBJECT_ALLOCATION_FAILURE;
            rc = som_fail(st, SOM_ERR_BACKEND,
                          "the data and weights need %s but device '%s' has %s "
                          "(CL_MEM_OBJECT_ALLOCATION_FAILURE)",
                          human_bytes(need, a, sizeof a), ctx->info.name,
                          human_bytes(ctx->info.global_mem, b, sizeof b));
            goto done;
        }
    }
    /* neighbourhood rows: as many passes per launch as 8 MB allow */
    rows_cap = (int)fmin(fmax(8e6 / ((double)tab_width * rs), 1.0), (double)(p->iter_max - 1));
    if (rows_cap < 1) rows_cap = 1;

    /* the work-group kernel: size and where the weights live */
    if (ngroup > 0) {
        size_t kmax = 0, dims[3] = {0, 0, 0};
        double lmem = ctx->info.local_mem - 1024;
        while (L < (size_t)maxN_group && L < 256) L <<= 1;
        use_local = opts->group_local != 0 &&
                    (double)L * (rs + sizeof(cl_int)) + gmax_nm * rs <= lmem;
        /* the kernel that will run, and the device's first work-item dimension */
        CHECK_CL(clGetKernelWorkGroupInfo(use_local ? ctx->group_local : ctx->group_global,
                                          ctx->device, CL_KERNEL_WORK_GROUP_SIZE, sizeof kmax,
                                          &kmax, NULL),
                 "clGetKernelWorkGroupInfo");
        CHECK_CL(clGetDeviceInfo(ctx->device, CL_DEVICE_MAX_WORK_ITEM_SIZES, sizeof dims, dims,
                                 NULL),
                 "clGetDeviceInfo");
        while (L > 1 && (L > kmax || L > dims[0] || L > ctx->info.max_group)) L >>= 1;
    }

    /* host copies in the device's precision */
    r.yh = malloc((size_t)n * m * rs);
    r.wh = malloc(wtot * rs);
    r.tabh = malloc((size_t)rows_cap * tab_width * rs);
    r.row = malloc((size_t)tab_width * sizeof *r.row);
    if (!r.yh || !r.wh || !r.tabh || !r.row) goto nomem;
    for (e = 0; e < (size_t)m; e++) {
        size_t row;
        for (row = 0; row < n; row++)
            put_real(r.yh, row * m + e, p->data.x[e * (size_t)n + row], prec);
    }

    if ((rc = make_buffer(ctx, &r.y, CL_MEM_READ_ONLY, (size_t)n * m * rs, r.yh, st))) goto done;
    if ((rc = make_buffer(ctx, &r.w, CL_MEM_READ_WRITE, wtot * rs, NULL, st))) goto done;
    if ((rc = make_buffer(ctx, &r.woff, CL_MEM_READ_ONLY, nmaps * sizeof(cl_ulong), r.woffh, st)))
        goto done;
    if ((rc = make_buffer(ctx, &r.size, CL_MEM_READ_ONLY, nmaps * sizeof(cl_int),
                          (void *)p->size, st)))
        goto done;
    if ((rc = make_buffer(ctx, &r.restart, CL_MEM_READ_ONLY, nmaps * sizeof(cl_int),
                          (void *)p->restart, st)))
        goto done;
    if (nitem > 0 &&
        (rc = make_buffer(ctx, &r.item, CL_MEM_READ_ONLY, nitem * sizeof(cl_int), r.itemh, st)))
        goto done;
    if (ngroup > 0 && (rc = make_buffer(ctx, &r.group, CL_MEM_READ_ONLY, ngroup * sizeof(cl_int),
                                        r.grouph, st)))
        goto done;
    if ((rc = make_buffer(ctx, &r.tab, CL_MEM_READ_ONLY, (size_t)rows_cap * tab_width * rs, NULL,
                          st)))
        goto done;
    if ((rc = make_buffer(ctx, &r.orders, CL_MEM_READ_WRITE, (size_t)nmaps * n * sizeof(cl_uint),
                          NULL, st)))
        goto done;
    if (p->trace) { /* every map's index, and the block sums of a trace */
        int *all = malloc(nmaps * sizeof *all);
        if (!all) goto nomem;
        for (i = 0; i < nmaps; i++) all[i] = i;
        rc = make_buffer(ctx, &r.all, CL_MEM_READ_ONLY, nmaps * sizeof(cl_int), all, st);
        free(all);
        if (rc ||
            (rc = make_buffer(ctx, &r.tq, CL_MEM_READ_WRITE,
                              (size_t)((n + SOM_TRACE_BLOCK - 1) / SOM_TRACE_BLOCK) * nmaps * rs,
                              NULL, st)))
            goto done;
    }

    /* initial weights */
    if (p->init == SOM_INIT_GIVEN) {
        for (i = 0; i < nmaps; i++) {
            int N = p->size[i], j, k;
            for (j = 0; j < N; j++)
                for (k = 0; k < m; k++)
                    put_real(r.wh, r.woffh[i] + (size_t)j * m + k,
                             p->init_w[i][(size_t)k * N + j], prec);
        }
        CHECK_CL(clEnqueueWriteBuffer(ctx->queue, r.w, CL_TRUE, 0, wtot * rs, r.wh, 0, NULL,
                                      NULL),
                 "clEnqueueWriteBuffer");
    } else {
        cl_kernel k = p->init == SOM_INIT_SAMPLE ? ctx->init_sample : ctx->init_uniform;
        size_t global[2] = {(size_t)nmaps, (size_t)maxN};
        cl_int mm = m;
        SET_ARG(k, 0, r.w);
        SET_ARG(k, 1, r.woff);
        SET_ARG(k, 2, r.size);
        SET_ARG(k, 3, r.restart);
        if (p->init == SOM_INIT_SAMPLE) {
            SET_ARG(k, 4, r.y);
            SET_ARG(k, 5, n);
            SET_ARG(k, 6, mm);
            SET_ARG(k, 7, seed);
            SET_ARG(k, 8, r.orders);
        } else {
            SET_ARG(k, 4, mm);
            SET_ARG(k, 5, seed);
        }
        /* uniform: a work-item per (map, neuron); sample: one per map (its shuffle) */
        CHECK_CL(clEnqueueNDRangeKernel(ctx->queue, k, p->init == SOM_INIT_SAMPLE ? 1 : 2, NULL,
                                        global, NULL, 0, NULL, NULL),
                 "clEnqueueNDRangeKernel (initial weights)");
        CHECK_CL(clFinish(ctx->queue), "clFinish");
    }

    /* training, one launch at a time; the first launch is small, later ones are sized to
     * take about launch_target seconds */
    count = (cl_ulong)fmax(1.0, fmin(2e5 / ((double)maxN * m + 1), (double)n));
    while (s < total_steps) {
        cl_ulong end, t_first = 1 + s / n, t_last, t;
        cl_int tf, tw = tab_width, mm = m;
        double t0 = som_now_seconds(), dt;
        end = s + count;
        if (end > total_steps) end = total_steps;
        if (end > (t_first - 1 + rows_cap) * n) end = (t_first - 1 + rows_cap) * n;
        if (p->trace && end > t_first * n) end = t_first * n; /* stop at the pass's end */
        t_last = 1 + (end - 1) / n;
        for (t = t_first; t <= t_last; t++) {
            int d;
            som_neighbourhood_row(p, (int)t, tab_width - 1, r.row);
            for (d = 0; d < tab_width; d++)
                put_real(r.tabh, (size_t)(t - t_first) * tab_width + d, r.row[d], prec);
        }
        CHECK_CL(clEnqueueWriteBuffer(ctx->queue, r.tab, CL_FALSE, 0,
                                      (size_t)(t_last - t_first + 1) * tab_width * rs, r.tabh, 0,
                                      NULL, NULL),
                 "clEnqueueWriteBuffer");
        tf = (cl_int)t_first;
        {
            cl_ulong start = s, cnt = end - s;
            if (nitem > 0) {
                cl_kernel k = ctx->item;
                cl_int ni = nitem;
                size_t global = (size_t)nitem;
                if ((rc = set_step_args(k, &r, r.item, n, mm, tw, tf, seed, start, cnt, st)))
                    goto done;
                SET_ARG(k, 15, ni);
                CHECK_CL(clEnqueueNDRangeKernel(ctx->queue, k, 1, NULL, &global, NULL, 0, NULL,
                                                NULL),
                         "clEnqueueNDRangeKernel (work-item kernel)");
                used |= 1;
            }
            if (ngroup > 0) {
                cl_kernel k = use_local ? ctx->group_local : ctx->group_global;
                size_t global = (size_t)ngroup * L, local = L;
                if ((rc = set_step_args(k, &r, r.group, n, mm, tw, tf, seed, start, cnt, st)))
                    goto done;
                SET_LOCAL(k, 15, L * rs);
                SET_LOCAL(k, 16, L * sizeof(cl_int));
                if (use_local) SET_LOCAL(k, 17, (size_t)gmax_nm * rs);
                CHECK_CL(clEnqueueNDRangeKernel(ctx->queue, k, 1, NULL, &global, &local, 0,
                                                NULL, NULL),
                         "clEnqueueNDRangeKernel (work-group kernel)");
                used |= use_local ? 2 : 4;
            }
        }
        if (p->trace && end % n == 0) { /* a pass ended: every map's qe */
            cl_int nmi = nmaps;
            if ((rc = trace_launch(ctx, r.y, n, mm, r.all, nmi, r.size, r.woff, r.w, r.tq, 0,
                                   st)) ||
                (rc = trace_collect(ctx, r.tq, (int)((n + SOM_TRACE_BLOCK - 1) / SOM_TRACE_BLOCK),
                                    p, (int)(end / n), st)))
                goto done;
        }
        CHECK_CL(clFinish(ctx->queue), "clFinish");
        dt = som_now_seconds() - t0;
        /* next launch: aim at launch_target from the steps this one did, growing at most
         * 8-fold at a time */
        {
            double scale = dt > 0 ? launch_target / dt : 8;
            if (scale > 8) scale = 8;
            if (scale < 0.125) scale = 0.125;
            count = (cl_ulong)fmax(1.0, (double)(end - s) * scale);
        }
        s = end;
        if (s < total_steps && hooks && hooks->interrupted && hooks->interrupted(hooks->ud)) {
            rc = som_fail(st, SOM_ERR_INTERRUPTED, "training interrupted");
            goto done;
        }
        if (hooks && hooks->progress) hooks->progress(hooks->ud, (double)s / (double)total_steps);
    }

    if ((rc = read_weights(ctx, r.w, wtot, r.wh, r.woffh, p, weights, st))) goto done;
    if (kernels_used) *kernels_used |= used;
    rc = SOM_OK;
    goto done;
nomem:
    rc = som_fail(st, SOM_ERR_NOMEM, "out of host memory preparing the OpenCL run");
done:
    if (rc != SOM_OK && ctx->queue) clFinish(ctx->queue); /* nothing may still use the buffers */
    release_run(&r);
    return rc;
}


/* --- the batch algorithm -------------------------------------------------------------- */

/* Blocks per chunk at most: bounds the partial sums to that many blocks' slots. */
#define SOM_BATCH_CHUNK_BLOCKS 64

typedef struct {
    cl_mem *xs; /* chunk buffers (one, reused, when the data are streamed) */
    int nxs;
    cl_mem w, woff, size, maps, slot_off, partial, total, h, win, tq;
    void *stage, *wh, *hh;
    cl_ulong *woffh, *sloth;
    int *mapsh;
    double *init, *row;
} batch_res;

static void release_batch(batch_res *r)
{
    cl_mem *mems[] = {&r->w, &r->woff, &r->size, &r->maps, &r->slot_off, &r->partial,
                      &r->total, &r->h, &r->win, &r->tq};
    size_t i;
    int c;
    for (c = 0; c < r->nxs; c++)
        if (r->xs[c]) clReleaseMemObject(r->xs[c]);
    free(r->xs);
    for (i = 0; i < sizeof mems / sizeof mems[0]; i++)
        if (*mems[i]) clReleaseMemObject(*mems[i]);
    free(r->stage);
    free(r->wh);
    free(r->hh);
    free(r->woffh);
    free(r->sloth);
    free(r->mapsh);
    free(r->init);
    free(r->row);
}

/* Rows first .. first + rows - 1 of the data, row-major, in the device's precision. */
static void stage_rows(const som_problem *p, int prec, int64_t first, int64_t rows, void *out)
{
    const int m = p->data.m;
    const int64_t n = p->data.n;
    int k;
    int64_t i;
    for (k = 0; k < m; k++) {
        const double *col = p->data.x + (size_t)k * n + first;
        for (i = 0; i < rows; i++) put_real(out, (size_t)i * m + k, col[i], prec);
    }
}

static int train_batch(som_ocl_ctx *ctx, const som_problem *p, double *const *weights,
                       const som_ocl_opts *opts, const som_hooks *hooks, int *kernels_used,
                       som_status *st)
{
    const int prec = ctx->precision, m = p->data.m, nmaps = p->nmaps, passes = p->iter_max - 1;
    const size_t rs = prec == SOM_DOUBLE ? sizeof(double) : sizeof(float);
    const int64_t n = p->data.n, B = p->batch_block, nblocks = (n + B - 1) / B;
    const double limit = opts->max_alloc > 0 && opts->max_alloc < ctx->info.max_alloc
                             ? opts->max_alloc : ctx->info.max_alloc;
    batch_res r;
    size_t wtot = 0, slot_len = 0;
    int64_t chunk_blocks, chunk_rows, nchunks;
    int i, t, rc = SOM_OK, maxN = 0, tab_width, streamed, use_local, trace_blocks;
    cl_int mm = m, nm = nmaps;
    size_t La = 64; /* work-items per group of the winner search */
    cl_uint step = 4096; /* rows per winner launch, adapted to launch_target */
    double launch_target = opts->launch_seconds > 0 ? opts->launch_seconds : 0.2;
    cl_uint Bu = (cl_uint)B;
    double data_bytes = (double)n * m * rs;

    memset(&r, 0, sizeof r);
    r.woffh = malloc(nmaps * sizeof *r.woffh);
    r.sloth = malloc(nmaps * sizeof *r.sloth);
    r.mapsh = malloc(nmaps * sizeof *r.mapsh);
    if (!r.woffh || !r.sloth || !r.mapsh) goto nomem;
    for (i = 0; i < nmaps; i++) {
        r.woffh[i] = wtot;
        r.sloth[i] = slot_len;
        r.mapsh[i] = i;
        wtot += (size_t)p->size[i] * m;
        slot_len += (size_t)p->size[i] * (m + 1);
        if (p->size[i] > maxN) maxN = p->size[i];
    }
    tab_width = maxN / 2 + 1;

    /* chunks of whole blocks that fit one buffer, with their winners and partial sums */
    chunk_blocks = (int64_t)fmin((double)SOM_BATCH_CHUNK_BLOCKS, (double)nblocks);
    while (chunk_blocks > 1 &&
           ((double)chunk_blocks * B * m * rs > limit ||
            (double)chunk_blocks * B * nmaps * sizeof(cl_int) > limit ||
            (double)chunk_blocks * slot_len * rs > limit))
        chunk_blocks /= 2;
    chunk_rows = chunk_blocks * B < n ? chunk_blocks * B : n;
    if ((rc = check_fits(ctx, limit, (double)chunk_rows * m * rs, "blocks of the data", st)) ||
        (rc = check_fits(ctx, limit, (double)chunk_rows * nmaps * sizeof(cl_int),
                         "the winners of a block of the data", st)) ||
        (rc = check_fits(ctx, limit, (double)chunk_blocks * slot_len * rs,
                         "the partial sums of the maps", st)) ||
        (rc = check_fits(ctx, limit, (double)wtot * rs, "the weights", st)))
        goto done;
    nchunks = (n + chunk_rows - 1) / chunk_rows;
    /* the winner search: every map's weights in local memory when they fit */
    use_local = (double)wtot * rs <= ctx->info.local_mem - 1024;
    {
        size_t kmax = 0;
        CHECK_CL(clGetKernelWorkGroupInfo(use_local ? ctx->batch_assign_local : ctx->batch_assign,
                                          ctx->device, CL_KERNEL_WORK_GROUP_SIZE, sizeof kmax,
                                          &kmax, NULL),
                 "clGetKernelWorkGroupInfo");
        while (La > 1 && (La > kmax || La > ctx->info.max_group)) La >>= 1;
    }
    /* the data stay on the device when they leave room for the rest; else each chunk is
     * uploaded when its turn comes */
    streamed = opts->stream_data || data_bytes > 0.5 * ctx->info.global_mem;

    r.xs = calloc(streamed ? 1 : (size_t)nchunks, sizeof *r.xs);
    if (r.xs) r.nxs = streamed ? 1 : (int)nchunks; /* release_batch walks what exists */
    r.stage = malloc((size_t)chunk_rows * m * rs);
    r.wh = malloc(wtot * rs);
    r.hh = malloc((size_t)tab_width * rs);
    r.init = malloc((size_t)maxN * m * sizeof *r.init);
    r.row = malloc((size_t)tab_width * sizeof *r.row);
    if (!r.xs || !r.stage || !r.wh || !r.hh || !r.init || !r.row) goto nomem;
    for (i = 0; i < r.nxs; i++) {
        int64_t first = (int64_t)i * chunk_rows, rows = n - first < chunk_rows ? n - first
                                                                               : chunk_rows;
        if (!streamed) stage_rows(p, prec, first, rows, r.stage);
        if ((rc = make_buffer(ctx, &r.xs[i], CL_MEM_READ_ONLY, (size_t)chunk_rows * m * rs,
                              streamed ? NULL : r.stage, st)))
            goto done;
    }
    /* initial weights on the host, from the same streams (som_init_map) */
    {
        uint32_t *scratch = NULL;
        if (p->init == SOM_INIT_SAMPLE && !(scratch = malloc((size_t)n * sizeof *scratch)))
            goto nomem;
        for (i = 0; i < nmaps; i++) {
            size_t e;
            som_init_map(p, i, r.init, scratch);
            for (e = 0; e < (size_t)p->size[i] * m; e++)
                put_real(r.wh, r.woffh[i] + e, r.init[e], prec);
        }
        free(scratch);
    }
    if ((rc = make_buffer(ctx, &r.w, CL_MEM_READ_WRITE, wtot * rs, r.wh, st)) ||
        (rc = make_buffer(ctx, &r.woff, CL_MEM_READ_ONLY, nmaps * sizeof(cl_ulong), r.woffh,
                          st)) ||
        (rc = make_buffer(ctx, &r.size, CL_MEM_READ_ONLY, nmaps * sizeof(cl_int),
                          (void *)p->size, st)) ||
        (rc = make_buffer(ctx, &r.maps, CL_MEM_READ_ONLY, nmaps * sizeof(cl_int), r.mapsh, st)) ||
        (rc = make_buffer(ctx, &r.slot_off, CL_MEM_READ_ONLY, nmaps * sizeof(cl_ulong), r.sloth,
                          st)) ||
        (rc = make_buffer(ctx, &r.partial, CL_MEM_READ_WRITE,
                          (size_t)chunk_blocks * slot_len * rs, NULL, st)) ||
        (rc = make_buffer(ctx, &r.total, CL_MEM_READ_WRITE, slot_len * rs, NULL, st)) ||
        (rc = make_buffer(ctx, &r.h, CL_MEM_READ_ONLY, (size_t)tab_width * rs, NULL, st)) ||
        (rc = make_buffer(ctx, &r.win, CL_MEM_READ_WRITE,
                          (size_t)chunk_rows * nmaps * sizeof(cl_int), NULL, st)))
        goto done;
    /* a trace's block sums: som_assess's blocks of the whole data */
    trace_blocks = (int)((n + SOM_TRACE_BLOCK - 1) / SOM_TRACE_BLOCK);
    if (p->trace && (rc = make_buffer(ctx, &r.tq, CL_MEM_READ_WRITE,
                                      (size_t)trace_blocks * nmaps * rs, NULL, st)))
        goto done;

    for (t = 1; t <= passes; t++) {
        int64_t c;
        cl_ulong sl = slot_len;
        cl_uint crows = (cl_uint)chunk_rows;
        /* the totals start at zero with the first chunk; each chunk adds its blocks' slots
         * in block order */
        for (c = 0; c < nchunks; c++) {
            int64_t first = c * chunk_rows, rows = n - first < chunk_rows ? n - first
                                                                          : chunk_rows;
            cl_uint rows_u = (cl_uint)rows, nb = (cl_uint)((rows + B - 1) / B);
            cl_mem x = r.xs[streamed ? 0 : c];
            size_t g2[2] = {(size_t)nb, (size_t)nmaps}, g3 = slot_len;
            cl_uint acc_first = c == 0;
            if (streamed) {
                stage_rows(p, prec, first, rows, r.stage);
                CHECK_CL(clEnqueueWriteBuffer(ctx->queue, x, CL_TRUE, 0, (size_t)rows * m * rs,
                                              r.stage, 0, NULL, NULL),
                         "clEnqueueWriteBuffer");
            }
            /* the winners, in launches of about launch_target seconds (rows are
             * independent: the cut does not matter), interruptible between them */
            {
                cl_kernel k = use_local ? ctx->batch_assign_local : ctx->batch_assign;
                cl_uint done_rows = 0;
                while (done_rows < rows_u) {
                    cl_uint count = (cl_uint)fmin((double)(rows_u - done_rows), (double)step);
                    size_t g1 = ((size_t)count + La - 1) / La * La, l1 = La;
                    double t0 = som_now_seconds(), dt;
                    SET_ARG(k, 0, x);
                    SET_ARG(k, 1, done_rows);
                    SET_ARG(k, 2, count);
                    SET_ARG(k, 3, mm);
                    SET_ARG(k, 4, r.maps);
                    SET_ARG(k, 5, nm);
                    SET_ARG(k, 6, r.size);
                    SET_ARG(k, 7, r.woff);
                    SET_ARG(k, 8, r.w);
                    SET_ARG(k, 9, r.win);
                    SET_ARG(k, 10, crows);
                    if (use_local) {
                        cl_ulong wt = wtot;
                        SET_LOCAL(k, 11, wtot * rs);
                        SET_ARG(k, 12, wt);
                    }
                    CHECK_CL(clEnqueueNDRangeKernel(ctx->queue, k, 1, NULL, &g1, &l1, 0, NULL,
                                                    NULL),
                             "clEnqueueNDRangeKernel (batch winners)");
                    CHECK_CL(clFinish(ctx->queue), "clFinish");
                    done_rows += count;
                    dt = som_now_seconds() - t0;
                    step = (cl_uint)fmax(La, fmin(8.0 * count, count * (dt > 0 ? launch_target / dt
                                                                                 : 8.0)));
                    if (hooks && hooks->interrupted && hooks->interrupted(hooks->ud)) {
                        rc = som_fail(st, SOM_ERR_INTERRUPTED, "training interrupted");
                        goto done;
                    }
                }
            }
            SET_ARG(ctx->batch_sums, 0, x);
            SET_ARG(ctx->batch_sums, 1, rows_u);
            SET_ARG(ctx->batch_sums, 2, mm);
            SET_ARG(ctx->batch_sums, 3, Bu);
            SET_ARG(ctx->batch_sums, 4, r.maps);
            SET_ARG(ctx->batch_sums, 5, nm);
            SET_ARG(ctx->batch_sums, 6, r.size);
            SET_ARG(ctx->batch_sums, 7, r.win);
            SET_ARG(ctx->batch_sums, 8, crows);
            SET_ARG(ctx->batch_sums, 9, r.partial);
            SET_ARG(ctx->batch_sums, 10, sl);
            SET_ARG(ctx->batch_sums, 11, r.slot_off);
            SET_ARG(ctx->batch_sums, 12, nb);
            CHECK_CL(clEnqueueNDRangeKernel(ctx->queue, ctx->batch_sums, 2, NULL, g2, NULL, 0,
                                            NULL, NULL),
                     "clEnqueueNDRangeKernel (batch sums)");
            SET_ARG(ctx->batch_reduce, 0, r.partial);
            SET_ARG(ctx->batch_reduce, 1, sl);
            SET_ARG(ctx->batch_reduce, 2, nb);
            SET_ARG(ctx->batch_reduce, 3, r.total);
            SET_ARG(ctx->batch_reduce, 4, acc_first);
            CHECK_CL(clEnqueueNDRangeKernel(ctx->queue, ctx->batch_reduce, 1, NULL, &g3, NULL, 0,
                                            NULL, NULL),
                     "clEnqueueNDRangeKernel (batch reduction)");
        }
        /* the pass's factors, then every neuron from the totals */
        {
            int d;
            size_t g4[2] = {(size_t)nmaps, (size_t)maxN};
            som_neighbourhood_row(p, t, tab_width - 1, r.row);
            for (d = 0; d < tab_width; d++) put_real(r.hh, (size_t)d, r.row[d], prec);
            CHECK_CL(clEnqueueWriteBuffer(ctx->queue, r.h, CL_FALSE, 0, (size_t)tab_width * rs,
                                          r.hh, 0, NULL, NULL),
                     "clEnqueueWriteBuffer");
            SET_ARG(ctx->batch_smooth, 0, r.maps);
            SET_ARG(ctx->batch_smooth, 1, nm);
            SET_ARG(ctx->batch_smooth, 2, r.size);
            SET_ARG(ctx->batch_smooth, 3, r.woff);
            SET_ARG(ctx->batch_smooth, 4, r.w);
            SET_ARG(ctx->batch_smooth, 5, mm);
            SET_ARG(ctx->batch_smooth, 6, r.total);
            SET_ARG(ctx->batch_smooth, 7, r.slot_off);
            SET_ARG(ctx->batch_smooth, 8, r.h);
            CHECK_CL(clEnqueueNDRangeKernel(ctx->queue, ctx->batch_smooth, 2, NULL, g4, NULL, 0,
                                            NULL, NULL),
                     "clEnqueueNDRangeKernel (batch smoothing)");
            CHECK_CL(clFinish(ctx->queue), "clFinish");
        }
        if (p->trace) { /* every map's qe after the pass, chunk by chunk */
            int64_t c2;
            for (c2 = 0; c2 < nchunks; c2++) {
                int64_t first = c2 * chunk_rows, rows = n - first < chunk_rows ? n - first
                                                                               : chunk_rows;
                cl_mem x = r.xs[streamed ? 0 : c2];
                if (streamed) {
                    stage_rows(p, prec, first, rows, r.stage);
                    CHECK_CL(clEnqueueWriteBuffer(ctx->queue, x, CL_TRUE, 0,
                                                  (size_t)rows * m * rs, r.stage, 0, NULL, NULL),
                             "clEnqueueWriteBuffer");
                }
                if ((rc = trace_launch(ctx, x, (cl_uint)rows, mm, r.maps, nm, r.size, r.woff, r.w,
                                       r.tq, (cl_uint)first, st)))
                    goto done;
                if (streamed) CHECK_CL(clFinish(ctx->queue), "clFinish");
            }
            if ((rc = trace_collect(ctx, r.tq, trace_blocks, p, t, st))) goto done;
        }
        if (t < passes && hooks && hooks->interrupted && hooks->interrupted(hooks->ud)) {
            rc = som_fail(st, SOM_ERR_INTERRUPTED, "training interrupted");
            goto done;
        }
        if (hooks && hooks->progress) hooks->progress(hooks->ud, (double)t / passes);
    }
    if ((rc = read_weights(ctx, r.w, wtot, r.wh, r.woffh, p, weights, st))) goto done;
    if (kernels_used) *kernels_used |= 8;
    rc = SOM_OK;
    goto done;
nomem:
    rc = som_fail(st, SOM_ERR_NOMEM, "out of host memory preparing the OpenCL run");
done:
    if (rc != SOM_OK && ctx->queue) clFinish(ctx->queue);
    release_batch(&r);
    return rc;
}

/* Progress of one group of maps as a share of the whole run. */
typedef struct {
    const som_hooks *outer;
    double offset, scale;
} group_progress;

static void group_progress_fn(void *ud, double fraction)
{
    group_progress *g = ud;
    g->outer->progress(g->outer->ud, g->offset + g->scale * fraction);
}

static int group_interrupted(void *ud)
{
    group_progress *g = ud;
    return g->outer->interrupted(g->outer->ud);
}

int som_ocl_train(som_ocl_ctx *ctx, const som_problem *p, double *const *weights,
                  const som_ocl_opts *opts, const som_hooks *hooks, int *kernels_used,
                  som_status *st)
{
    const size_t rs = ctx->precision == SOM_DOUBLE ? sizeof(double) : sizeof(float);
    const double limit = opts->max_alloc > 0 && opts->max_alloc < ctx->info.max_alloc
                             ? opts->max_alloc : ctx->info.max_alloc;
    const int batch = p->algorithm == SOM_BATCH, m = p->data.m;
    const double block = (double)(p->batch_block < p->data.n ? p->batch_block : p->data.n);
    double total = 0, done = 0;
    int first = 0, rc, i;
    if (kernels_used) *kernels_used = 0;
    if ((rc = som_check_problem(p, st)) != SOM_OK) return rc;
    if (forked_after_init(st)) return st->code;
    /* maps are independent: train them in groups whose buffers each fit the device (a map
     * too large on its own is refused with the sizes): online, the visiting orders and
     * weights; batch, the weights and one block's sums and winners */
    for (i = 0; i < p->nmaps; i++) total += (double)p->size[i];
    while (first < p->nmaps && rc == SOM_OK) {
        double a = 0, b = 0, part = 0;
        int last = first;
        som_problem sub = *p;
        group_progress gp;
        som_hooks gh;
        while (last < p->nmaps) {
            const double N = (double)p->size[last];
            double na = a + (batch ? N * (m + 1) * rs : (double)p->data.n * sizeof(cl_uint));
            double nb = b + (batch ? block * sizeof(cl_int) : 0);
            double nw = part * m * rs + N * m * rs;
            if (last > first && (na > limit || nb > limit || nw > limit)) break;
            a = na;
            b = nb;
            part += N;
            last++;
        }
        sub.nmaps = last - first;
        sub.size = p->size + first;
        sub.restart = p->restart + first;
        sub.init_w = p->init_w ? p->init_w + first : NULL;
        sub.trace = p->trace ? p->trace + (size_t)first * (p->iter_max - 1) : NULL;
        gp.outer = hooks;
        gp.offset = done / total;
        gp.scale = part / total;
        gh.interrupted = hooks && hooks->interrupted ? group_interrupted : NULL;
        gh.progress = hooks && hooks->progress ? group_progress_fn : NULL;
        gh.ud = &gp;
        rc = batch ? train_batch(ctx, &sub, weights + first, opts, &gh, kernels_used, st)
                   : train_maps(ctx, &sub, weights + first, opts, &gh, kernels_used, st);
        done += part;
        first = last;
    }
    return rc;
}

#endif /* SOMGPU_HAVE_OPENCL */
