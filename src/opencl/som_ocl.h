/* som_ocl.h: the OpenCL backend. Pure C; every function reports failures through a
 * som_status (OpenCL status in api_status, build log in log). In a build without OpenCL
 * there are no devices, som_ocl_open says so, and the engines refuse to run
 * (SOM_ERR_UNAVAILABLE).
 *
 *   som_ocl_status.c   the names of status codes and kernel kinds (every build)
 *   som_ocl_stubs.c    the backend of a build without OpenCL: engines that refuse
 *   som_ocl_fork.c     fork safety
 *   som_ocl_device.c   the devices of every platform; a failed call as a status
 *   som_ocl_backend.c  the engines as a som_backend
 *   som_ocl_context.c  a device's context, queue and built program; buffers, kernel
 *                      arguments, launches, host copies in the device's precision
 *   som_ocl_maps.c     the maps on a device: offsets, initial and trained weights, trace
 *   som_ocl_data.c     the data on a device, resident or streamed, in chunks
 *   som_ocl_plan.c     what fits a device: cohorts of maps, chunks, memory plans, shapes
 *   som_ocl_profile.c  what ran: launches counted and timed (profiling events), the
 *                      program's binary (tools/device-check.sh)
 *   som_ocl_online.c   the online engine;  som_ocl_batch.c  the batch engine */
#ifndef SOM_OCL_H
#define SOM_OCL_H

#include "som_engine.h"

/* Seconds one kernel launch aims at, unless the options say otherwise: interrupts and
 * progress are seen between launches. */
#define SOM_LAUNCH_SECONDS 0.2
enum { SOM_KERNEL_AUTO = 0, SOM_KERNEL_ITEM = 1, SOM_KERNEL_WG = 2 };

/* The kernels a run used (som_ocl_cfg.kernels_used), bit by bit. */
enum {
    SOM_RAN_ITEM = 1,         /* online, a work-item per map                    */
    SOM_RAN_WG_LOCAL = 2,  /* online, a work-group per map, weights in local  */
    SOM_RAN_WG_GLOBAL = 4, /* online, a work-group per map, weights in global */
    SOM_RAN_BATCH = 8         /* the batch kernels                               */
};
#define SOM_RAN_KINDS 4
/* The name of kind k (0 .. SOM_RAN_KINDS - 1, bit 1 << k), e.g. "work-item". */
const char *som_ocl_ran_name(int k);

typedef struct {
    char platform[128];
    char name[128];
    char type[16]; /* "GPU", "CPU", "ACCELERATOR" or "OTHER" */
    char version[96];
    int compute_units;
    double global_mem;   /* bytes */
    double max_alloc;    /* bytes, largest single buffer */
    double local_mem;    /* bytes */
    double max_wg;    /* work-items per work-group */
    int fp64;
} som_ocl_device;

/* A device with its context, queue and built program, for one precision. */
typedef struct som_ocl_ctx som_ocl_ctx;

typedef struct {
    int kernel;          /* SOM_KERNEL_*                                               */
    int wg_min_size;  /* with SOM_KERNEL_AUTO, maps of at least this size use the
                            work-group kernel (0: 32 on GPUs, 512 on CPU devices)      */
    double max_alloc;    /* > 0: cap on a single buffer, below the device's own         */
    double launch_seconds; /* target duration of one launch (interrupt latency); <= 0:
                              SOM_LAUNCH_SECONDS                                      */
    int wg_local;     /* 0: the work-group kernel keeps weights in global memory     */
    int stream_data;     /* batch: upload the data chunk by chunk every pass            */
    double local_mem;    /* > 0: bytes of local memory the kernels may use, below the
                            device's own (the harness fakes a small device with it; the
                            device check times the paths without local memory)         */
} som_ocl_opts;

/* What an OpenCL backend runs with (ctx, opts) and reports (kernels_used: SOM_RAN_* bits,
 * set by runs that finished). */
typedef struct {
    som_ocl_ctx *ctx;
    som_ocl_opts opts;
    int kernels_used;
} som_ocl_cfg;

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
/* The name of an OpenCL status code, "CL_OUT_OF_RESOURCES" for -5 and so on. */
const char *som_ocl_status_name(int status);

/* What ran on a context while profiling: per kernel, the launches, their device time (from
 * the profiling events: start to end) and the sizes of the largest launch (local 0: the
 * runtime's choice). */
typedef struct {
    char kernel[40];
    long launches;
    double seconds;
    int dims;
    size_t global[3], local[3];
} som_ocl_launch_stat;
#define SOM_OCL_MAX_STATS 16
/* Profiling on (every launch then waits for its event: no overlap) or off; either way the
 * counts start again from zero. */
int som_ocl_profile(som_ocl_ctx *ctx, int on, som_status *st);
/* The counts so far: up to max of them into out; returns how many kernels launched. */
int som_ocl_launch_stats(const som_ocl_ctx *ctx, som_ocl_launch_stat *out, int max);
/* The program's binary for the context's device (PTX text on NVIDIA), malloc'ed. */
int som_ocl_program_binary(som_ocl_ctx *ctx, unsigned char **out, size_t *len,
                           som_status *st);

/* An OpenCL backend for cfg (which must outlive it); threads: host threads for the
 * driver's own work. */
som_backend som_ocl_backend(som_ocl_cfg *cfg, int threads);

#endif
