/* som_ocl_context.c: a device's context, queue and program built for one precision (the
 * embedded kernels of src/opencl/som_kernels.h), and the few ways the other files use them:
 * buffers, kernel arguments from a list, reads and writes, host values in the device's
 * precision. Launches are som_ocl_launch.c's (they count into som_ocl_profile.c's
 * profile, which reopens this file's queues: launches apart, no circle of files). */
#ifdef SOMGPU_HAVE_OPENCL
#include <stdlib.h>
#include <string.h>

#include "som_ocl_internal.h"
#include "som_kernels.h"
#include "som_omp.h"

void som_ocl_close(som_ocl_ctx *ctx)
{
    if (!ctx) return;
    if (som_in_forked_child()) { /* the parent's objects: not ours to release */
        free(ctx);
        return;
    }
    if (ctx->item) clReleaseKernel(ctx->item);
    if (ctx->wg_local) clReleaseKernel(ctx->wg_local);
    if (ctx->wg_global) clReleaseKernel(ctx->wg_global);
    if (ctx->batch_assign) clReleaseKernel(ctx->batch_assign);
    if (ctx->batch_assign_local) clReleaseKernel(ctx->batch_assign_local);
    if (ctx->batch_sums) clReleaseKernel(ctx->batch_sums);
    if (ctx->batch_reduce) clReleaseKernel(ctx->batch_reduce);
    if (ctx->batch_smooth) clReleaseKernel(ctx->batch_smooth);
    if (ctx->trace_qe) clReleaseKernel(ctx->trace_qe);
    if (ctx->program) clReleaseProgram(ctx->program);
    if (ctx->queue) clReleaseCommandQueue(ctx->queue);
    if (ctx->side) clReleaseCommandQueue(ctx->side);
    if (ctx->context) clReleaseContext(ctx->context);
    free(ctx);
}

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
    if ((rc = som_ocl_collect(&plats, &devs, &info, &n, st)) != SOM_OK) return rc;
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
            rc = som_ocl_fail(st, err, "clCreateContext");
            goto done;
        }
    }
    if ((rc = som_ocl_queues(ctx, 0, st))) goto done;
    ctx->program = clCreateProgramWithSource(ctx->context, nlines, lines, NULL, &err);
    if (err != CL_SUCCESS) {
        ctx->program = NULL;
        rc = som_ocl_fail(st, err, "clCreateProgramWithSource");
        goto done;
    }
    err = clBuildProgram(ctx->program, 1, &ctx->device, options, NULL, NULL);
    if (err != CL_SUCCESS) {
        rc = som_ocl_fail(st, err, "building the OpenCL kernels (clBuildProgram)");
        keep_build_log(ctx, st);
        goto done;
    }
    {
        struct { cl_kernel *k; const char *name; } ks[] = {
            {&ctx->item, "k_online_item"}, {&ctx->wg_local, "k_online_wg_local"},
            {&ctx->wg_global, "k_online_wg_global"},
            {&ctx->batch_assign, "k_batch_assign"},
            {&ctx->batch_assign_local, "k_batch_assign_local"}, {&ctx->batch_sums, "k_batch_sums"},
            {&ctx->batch_reduce, "k_batch_reduce"}, {&ctx->batch_smooth, "k_batch_smooth"},
            {&ctx->trace_qe, "k_trace_qe"}};
        size_t i;
        for (i = 0; i < sizeof ks / sizeof ks[0]; i++) {
            *ks[i].k = clCreateKernel(ctx->program, ks[i].name, &err);
            if (err != CL_SUCCESS) {
                *ks[i].k = NULL;
                rc = som_ocl_fail(st, err, "clCreateKernel");
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

size_t som_ocl_real(const som_ocl_ctx *ctx)
{
    return ctx->precision == SOM_DOUBLE ? sizeof(double) : sizeof(float);
}

int som_ocl_buffer(som_ocl_ctx *ctx, cl_mem *out, cl_mem_flags flags, size_t bytes,
                   const void *host, som_status *st)
{
    cl_int err;
    *out = clCreateBuffer(ctx->context, flags | (host ? CL_MEM_COPY_HOST_PTR : 0), bytes,
                          (void *)host, &err);
    if (err != CL_SUCCESS) {
        *out = NULL;
        return som_ocl_fail(st, err, "clCreateBuffer");
    }
    return SOM_OK;
}

void som_ocl_release(cl_mem *mem)
{
    if (*mem) clReleaseMemObject(*mem);
    *mem = NULL;
}

int som_ocl_write(som_ocl_ctx *ctx, cl_mem buf, cl_bool blocking, size_t bytes,
                  const void *host, som_status *st)
{
    cl_int err = clEnqueueWriteBuffer(ctx->queue, buf, blocking, 0, bytes, host, 0, NULL, NULL);
    return err == CL_SUCCESS ? SOM_OK : som_ocl_fail(st, err, "clEnqueueWriteBuffer");
}

int som_ocl_read(som_ocl_ctx *ctx, cl_mem buf, size_t bytes, void *host, som_status *st)
{
    cl_int err = clEnqueueReadBuffer(ctx->queue, buf, CL_TRUE, 0, bytes, host, 0, NULL, NULL);
    return err == CL_SUCCESS ? SOM_OK : som_ocl_fail(st, err, "clEnqueueReadBuffer");
}

int som_ocl_finish(som_ocl_ctx *ctx, som_status *st)
{
    cl_int err = clFinish(ctx->queue);
    if (err == CL_SUCCESS) err = clFinish(ctx->side);
    return err == CL_SUCCESS ? SOM_OK : som_ocl_fail(st, err, "clFinish");
}

int som_ocl_queues(som_ocl_ctx *ctx, cl_command_queue_properties props, som_status *st)
{
    cl_command_queue *qs[2];
    cl_int err;
    int i;
    qs[0] = &ctx->queue;
    qs[1] = &ctx->side;
    for (i = 0; i < 2; i++) {
        if (*qs[i]) clReleaseCommandQueue(*qs[i]);
        *qs[i] = clCreateCommandQueue(ctx->context, ctx->device, props, &err);
        if (err != CL_SUCCESS) {
            *qs[i] = NULL;
            return som_ocl_fail(st, err, "clCreateCommandQueue");
        }
    }
    return SOM_OK;
}

int som_ocl_args(cl_kernel k, int first, const som_ocl_arg *args, int n, som_status *st)
{
    int i;
    for (i = 0; i < n; i++) {
        cl_int err = clSetKernelArg(k, (cl_uint)(first + i), args[i].size, args[i].value);
        if (err != CL_SUCCESS) return som_ocl_fail(st, err, "clSetKernelArg");
    }
    return SOM_OK;
}

int som_ocl_wg_limit(som_ocl_ctx *ctx, cl_kernel k, size_t *out, som_status *st)
{
    cl_int err = clGetKernelWorkGroupInfo(k, ctx->device, CL_KERNEL_WORK_GROUP_SIZE,
                                          sizeof *out, out, NULL);
    return err == CL_SUCCESS ? SOM_OK : som_ocl_fail(st, err, "clGetKernelWorkGroupInfo");
}

void som_ocl_put(void *dst, size_t i, double v, int precision)
{
    if (precision == SOM_DOUBLE) ((double *)dst)[i] = v;
    else ((float *)dst)[i] = (float)v;
}

double som_ocl_get(const void *src, size_t i, int precision)
{
    return precision == SOM_DOUBLE ? ((const double *)src)[i] : (double)((const float *)src)[i];
}

#else
typedef int som_ocl_context_unused; /* without OpenCL: nothing here (ISO C wants a declaration) */
#endif /* SOMGPU_HAVE_OPENCL */
