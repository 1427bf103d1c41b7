/* som_ocl_profile.c: what ran on a device, for tools/device-check.sh and the C harness:
 * launches counted per kernel with their device time (OpenCL profiling events) and the
 * sizes of their largest launch, and the program's binary (PTX on NVIDIA), in which the
 * device check looks for fused multiply-adds. Training never profiles unless asked. */
#ifdef SOMGPU_HAVE_OPENCL
#include <stdlib.h>
#include <string.h>

#include "som_ocl_internal.h"

int som_ocl_profile(som_ocl_ctx *ctx, int on, som_status *st)
{
    int rc;
    if ((rc = som_ocl_finish(ctx, st))) return rc;
    ctx->nstats = 0;
    if ((on != 0) == (ctx->profiling != 0)) return SOM_OK;
    ctx->profiling = 0;
    if ((rc = som_ocl_queues(ctx, on ? CL_QUEUE_PROFILING_ENABLE : 0, st))) return rc;
    ctx->profiling = on != 0;
    return SOM_OK;
}

void som_ocl_profile_record(som_ocl_ctx *ctx, cl_kernel k, cl_event ev, cl_uint dims,
                            const size_t *global, const size_t *local)
{
    char name[sizeof ctx->stats[0].kernel] = "?";
    cl_ulong t0 = 0, t1 = 0;
    som_ocl_launch_stat *s = NULL;
    double items = 1, largest = 1;
    cl_uint d;
    int i;
    if (clGetKernelInfo(k, CL_KERNEL_FUNCTION_NAME, sizeof name, name, NULL) != CL_SUCCESS)
        strcpy(name, "?");
    name[sizeof name - 1] = '\0';
    for (i = 0; i < ctx->nstats && !s; i++)
        if (!strcmp(ctx->stats[i].kernel, name)) s = &ctx->stats[i];
    if (!s) {
        if (ctx->nstats == SOM_OCL_MAX_STATS) return;
        s = &ctx->stats[ctx->nstats++];
        memset(s, 0, sizeof *s);
        strcpy(s->kernel, name);
    }
    s->launches++;
    if (clGetEventProfilingInfo(ev, CL_PROFILING_COMMAND_START, sizeof t0, &t0, NULL) ==
            CL_SUCCESS &&
        clGetEventProfilingInfo(ev, CL_PROFILING_COMMAND_END, sizeof t1, &t1, NULL) ==
            CL_SUCCESS &&
        t1 > t0)
        s->seconds += (double)(t1 - t0) * 1e-9;
    for (d = 0; d < dims; d++) items *= (double)global[d];
    for (d = 0; d < (cl_uint)s->dims; d++) largest *= (double)s->global[d];
    if (s->launches == 1 || items > largest) {
        s->dims = (int)dims;
        for (d = 0; d < 3; d++) {
            s->global[d] = d < dims ? global[d] : 0;
            s->local[d] = d < dims && local ? local[d] : 0;
        }
    }
}

int som_ocl_launch_stats(const som_ocl_ctx *ctx, som_ocl_launch_stat *out, int max)
{
    int i;
    for (i = 0; i < ctx->nstats && i < max; i++) out[i] = ctx->stats[i];
    return ctx->nstats;
}

int som_ocl_program_binary(som_ocl_ctx *ctx, unsigned char **out, size_t *len,
                           som_status *st)
{
    size_t size = 0;
    unsigned char *bin;
    cl_int err;
    *out = NULL;
    *len = 0;
    err = clGetProgramInfo(ctx->program, CL_PROGRAM_BINARY_SIZES, sizeof size, &size, NULL);
    if (err != CL_SUCCESS) return som_ocl_fail(st, err, "clGetProgramInfo");
    if (!(bin = malloc(size + 1))) return som_fail(st, SOM_ERR_NOMEM, "out of memory");
    err = clGetProgramInfo(ctx->program, CL_PROGRAM_BINARIES, sizeof bin, &bin, NULL);
    if (err != CL_SUCCESS) {
        free(bin);
        return som_ocl_fail(st, err, "clGetProgramInfo");
    }
    bin[size] = '\0';
    *out = bin;
    *len = size;
    return SOM_OK;
}

#else
typedef int som_ocl_profile_unused; /* without OpenCL: nothing here (ISO C wants a declaration) */
#endif /* SOMGPU_HAVE_OPENCL */
