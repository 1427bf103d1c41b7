/* som_ocl.h: the OpenCL backend. Pure C; every function reports failures through a
 * som_status (OpenCL status in api_status, build log in log). In a build without OpenCL
 * every entry point returns SOM_ERR_UNAVAILABLE. */
#ifndef SOM_OCL_H
#define SOM_OCL_H

#include "som_core.h"

enum { SOM_DOUBLE = 0, SOM_SINGLE = 1 };
enum { SOM_KERNEL_AUTO = 0, SOM_KERNEL_ITEM = 1, SOM_KERNEL_GROUP = 2 };

typedef struct {
    char platform[128];
    char name[128];
    char type[16]; /* "GPU", "CPU", "ACCELERATOR" or "OTHER" */
    char version[96];
    int compute_units;
    double global_mem;   /* bytes */
    double max_alloc;    /* bytes, largest single buffer */
    double local_mem;    /* bytes */
    double max_group;    /* work-items per work-group */
    int fp64;
} som_ocl_device;

/* A device with its context, queue and built program, for one precision. */
typedef struct som_ocl_ctx som_ocl_ctx;

typedef struct {
    int kernel;          /* SOM_KERNEL_*                                               */
    int group_min_size;  /* with SOM_KERNEL_AUTO, maps of at least this size use the
                            work-group kernel                                          */
    double max_alloc;    /* > 0: cap on a single buffer, below the device's own         */
    double launch_seconds; /* target duration of one launch (interrupt latency)         */
    int group_local;     /* 0: the work-group kernel keeps weights in global memory     */
    int stream_data;     /* batch: upload the data chunk by chunk every pass            */
} som_ocl_opts;

int som_ocl_built(void);
/* Nonzero in a child forked after this process used OpenCL: OpenCL must not be touched. */
int som_ocl_forked(void);
/* All devices of all platforms, in a stable order (index i of the array is device i + 1).
 * *out is malloc'ed (free it); zero devices is not an error. */
int som_ocl_list(som_ocl_device **out, int *n, som_status *st);
/* Open device `index` (0-based in som_ocl_list's order) and build the kernels for the
 * precision; `source` replaces the embedded kernels when not NULL (tests). */
int som_ocl_open(int index, int precision, const char *source, som_ocl_ctx **out,
                 som_status *st);
void som_ocl_close(som_ocl_ctx *ctx);
const som_ocl_device *som_ocl_ctx_device(const som_ocl_ctx *ctx);
int som_ocl_ctx_precision(const som_ocl_ctx *ctx);
/* The name of an OpenCL status code, "CL_OUT_OF_RESOURCES" for -5 and so on. */
const char *som_ocl_status_name(int status);

/* Train every map of p on the device; weights[i] receives map i (size x m, column-major).
 * kernels_used (when not NULL) gets a bit mask: 1 = work-item kernel, 2 = work-group kernel
 * with local weights, 4 = work-group kernel with global weights, 8 = batch kernels. */
int som_ocl_train(som_ocl_ctx *ctx, const som_problem *p, double *const *weights,
                  const som_ocl_opts *opts, const som_hooks *hooks, int *kernels_used,
                  som_status *st);

#endif
