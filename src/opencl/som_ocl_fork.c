/* som_ocl_fork.c: fork safety, and what was built. */
#ifdef SOMGPU_HAVE_OPENCL
#include "som_ocl_internal.h"
#include "som_omp.h"

/* OpenCL runtimes are not fork-safe: a child forked (parallel::mclapply) after its parent
 * initialised one hangs in its first call. Such a child gets a clear error instead, and
 * leaves the parent's objects alone. */
static int som_ocl_initialised = 0;

void som_ocl_mark_used(void)
{
    som_ocl_initialised = 1;
}

int som_ocl_refuse_forked(som_status *st)
{
    if (!som_ocl_forked()) return 0;
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

int som_ocl_built(void) { return 1; }

#else
typedef int som_ocl_fork_unused; /* (ISO C: a translation unit is never empty) */
#endif
