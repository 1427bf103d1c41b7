/* som_ocl_device.c: OpenCL status names, the devices of every platform, fork safety, the
 * kind names of kernels, and the backend: in a build without OpenCL, stubs that say so. */
#include <stdlib.h>
#include <string.h>

#ifdef SOMGPU_HAVE_OPENCL
#include "som_ocl_internal.h"
#else
#include "som_ocl.h"
#endif
#include "som_omp.h"

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

const char *som_ocl_ran_name(int k)
{
    static const char *names[SOM_RAN_KINDS] = {"work-item", "work-group (local memory)",
                                               "work-group (global memory)", "batch"};
    return k >= 0 && k < SOM_RAN_KINDS ? names[k] : "";
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

static const som_engine stub = {"opencl (not built)", NULL, stub_prepare, NULL, NULL, NULL,
                                stub_read, NULL, NULL};

som_backend som_ocl_backend(som_ocl_cfg *cfg, int threads)
{
    som_backend be;
    be.engine[SOM_ONLINE] = be.engine[SOM_BATCH] = &stub;
    be.cfg = cfg;
    be.threads = som_threads(threads);
    return be;
}

#else /* SOMGPU_HAVE_OPENCL */

/* OpenCL runtimes are not fork-safe: a child forked (parallel::mclapply) after its parent
 * initialised one hangs in its first call. Such a child gets a clear error instead, and
 * leaves the parent's objects alone. */
static int som_ocl_initialised = 0;

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

int som_ocl_fail(som_status *st, cl_int rc, const char *what)
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

int som_ocl_collect(cl_platform_id **plat_out, cl_device_id **dev_out, som_ocl_device **info_out,
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
    if (som_ocl_refuse_forked(st)) return st->code;
    som_ocl_initialised = 1;
    err = clGetPlatformIDs(0, NULL, &np);
    if (err == -1001 /* CL_PLATFORM_NOT_FOUND_KHR: an ICD loader without platforms */ ||
        (err == CL_SUCCESS && np == 0))
        return SOM_OK;
    if (err != CL_SUCCESS) return som_ocl_fail(st, err, "clGetPlatformIDs");
    plats = malloc(np * sizeof *plats);
    if (!plats) return som_fail(st, SOM_ERR_NOMEM, "out of memory listing OpenCL platforms");
    if ((err = clGetPlatformIDs(np, plats, NULL)) != CL_SUCCESS) {
        rc = som_ocl_fail(st, err, "clGetPlatformIDs");
        goto done;
    }
    for (p = 0; p < np; p++) {
        cl_uint nd = 0, d;
        void *grow;
        err = clGetDeviceIDs(plats[p], CL_DEVICE_TYPE_ALL, 0, NULL, &nd);
        if (err == CL_DEVICE_NOT_FOUND || nd == 0) continue;
        if (err != CL_SUCCESS) {
            rc = som_ocl_fail(st, err, "clGetDeviceIDs");
            goto done;
        }
        free(pdevs);
        pdevs = malloc(nd * sizeof *pdevs);
        if (!pdevs) {
            rc = som_fail(st, SOM_ERR_NOMEM, "out of memory listing OpenCL devices");
            goto done;
        }
        if ((err = clGetDeviceIDs(plats[p], CL_DEVICE_TYPE_ALL, nd, pdevs, NULL)) != CL_SUCCESS) {
            rc = som_ocl_fail(st, err, "clGetDeviceIDs");
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
    int rc = som_ocl_collect(&plats, &devs, out, n, st);
    if (rc == SOM_OK) {
        free(plats);
        free(devs);
    }
    return rc;
}

som_backend som_ocl_backend(som_ocl_cfg *cfg, int threads)
{
    som_backend be;
    be.engine[SOM_ONLINE] = &som_ocl_online;
    be.engine[SOM_BATCH] = &som_ocl_batch;
    be.cfg = cfg;
    be.threads = som_threads(threads);
    return be;
}

#endif /* SOMGPU_HAVE_OPENCL */
