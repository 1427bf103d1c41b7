/* som_ocl_stubs.c: the OpenCL backend of a build without OpenCL: no devices, and engines
 * that refuse to run with a status that says so. */
#ifndef SOMGPU_HAVE_OPENCL
#include "som_ocl.h"

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

/* Engines that refuse to run. */
static int stub_prepare(void *cfg, const som_problem *p, const som_factors *f, void **state,
                        som_status *st)
{
    (void)cfg; (void)p; (void)f;
    *state = NULL;
    return unavailable(st);
}

static int stub_read(void *state, double *const *w, som_status *st)
{
    (void)state; (void)w;
    return unavailable(st);
}

const som_engine som_ocl_refusing = {
    .name = "opencl (not built)",
    .prepare = stub_prepare,
    .read = stub_read,
};

#else
typedef int som_ocl_stubs_unused; /* (ISO C: a translation unit is never empty) */
#endif
