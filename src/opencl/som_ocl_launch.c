/* som_ocl_launch.c: kernel launches on a context's queues (som_ocl_context.c), counted in
 * its profile when profiling is on (som_ocl_profile.c). */
#ifdef SOMGPU_HAVE_OPENCL
#include "som_ocl_internal.h"

/* On the side queue a launch waits for a marker of the main queue. Profiling waits for
 * every launch to end and counts it. */
static int launch_on(som_ocl_ctx *ctx, int side, cl_kernel k, cl_uint dims,
                     const size_t *global, const size_t *local, const char *what,
                     som_status *st)
{
    cl_event after = NULL, ev = NULL;
    cl_int err = CL_SUCCESS;
    if (side) err = clEnqueueMarkerWithWaitList(ctx->queue, 0, NULL, &after);
    if (err != CL_SUCCESS) return som_ocl_fail(st, err, "clEnqueueMarkerWithWaitList");
    err = clEnqueueNDRangeKernel(side ? ctx->side : ctx->queue, k, dims, NULL, global, local,
                                 side ? 1 : 0, side ? &after : NULL,
                                 ctx->profiling ? &ev : NULL);
    if (after) clReleaseEvent(after);
    if (err != CL_SUCCESS) return som_ocl_fail(st, err, what);
    if (ev) {
        err = clWaitForEvents(1, &ev);
        if (err == CL_SUCCESS) som_ocl_profile_record(ctx, k, ev, dims, global, local);
        clReleaseEvent(ev);
        if (err != CL_SUCCESS) return som_ocl_fail(st, err, "clWaitForEvents");
    }
    return SOM_OK;
}

int som_ocl_launch(som_ocl_ctx *ctx, cl_kernel k, cl_uint dims, const size_t *global,
                   const size_t *local, const char *what, som_status *st)
{
    return launch_on(ctx, 0, k, dims, global, local, what, st);
}

int som_ocl_launch_side(som_ocl_ctx *ctx, cl_kernel k, cl_uint dims, const size_t *global,
                        const size_t *local, const char *what, som_status *st)
{
    return launch_on(ctx, 1, k, dims, global, local, what, st);
}

#else
typedef int som_ocl_launch_unused; /* without OpenCL: nothing here (ISO C wants a declaration) */
#endif
