/* som_ocl_device.c: the devices of every platform (som_ocl_collect, som_ocl_list), and an
 * OpenCL call's failure as a status. */
#ifdef SOMGPU_HAVE_OPENCL
#include <stdlib.h>
#include <string.h>

#include "som_ocl_internal.h"

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
    d->max_wg = (double)wg;
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
    som_ocl_mark_used();
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

#else
typedef int som_ocl_device_unused; /* (ISO C: a translation unit is never empty) */
#endif
