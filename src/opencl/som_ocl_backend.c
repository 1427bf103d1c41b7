/* som_ocl_backend.c: the OpenCL backend's engines (online, batch) as a som_backend; in a
 * build without OpenCL, engines that refuse to run (som_ocl_stubs.c). */
#ifdef SOMGPU_HAVE_OPENCL
#include "som_ocl_internal.h"
#else
#include "som_ocl.h"
extern const som_engine som_ocl_refusing;
#endif
#include "som_omp.h"

som_backend som_ocl_backend(som_ocl_cfg *cfg, int threads)
{
    som_backend be;
#ifdef SOMGPU_HAVE_OPENCL
    be.engine[SOM_ONLINE] = &som_ocl_online;
    be.engine[SOM_BATCH] = &som_ocl_batch;
#else
    be.engine[SOM_ONLINE] = be.engine[SOM_BATCH] = &som_ocl_refusing;
#endif
    be.cfg = cfg;
    be.threads = som_threads(threads);
    return be;
}
