/* som_ocl_internal.h: what the files of the OpenCL backend share (see som_ocl.h); only
 * compiled with SOMGPU_HAVE_OPENCL. Every OpenCL object a function makes is released on
 * every path; only som_ocl_ctx outlives a call, and som_ocl_close releases it. */
#ifndef SOM_OCL_INTERNAL_H
#define SOM_OCL_INTERNAL_H

#ifdef __APPLE__
#include <OpenCL/opencl.h>
#else
#include <CL/cl.h>
#endif

#include "som_math.h"
#include "som_ocl.h"

struct som_ocl_ctx {
    som_ocl_device info;
    int precision;
    cl_device_id device;
    cl_context context;
    cl_command_queue queue;
    cl_command_queue side; /* a second in-order queue: the online work-group kernel runs on
                              it beside the work-item kernel (som_ocl_finish waits for both) */
    cl_program program;
    cl_kernel item, wg_local, wg_global;
    cl_kernel batch_assign, batch_assign_local, batch_sums, batch_reduce, batch_smooth;
    cl_kernel trace_qe;
    int profiling;                 /* som_ocl_profile */
    int nstats;
    som_ocl_launch_stat stats[SOM_OCL_MAX_STATS];
};

/* --- status, fork safety, devices (som_ocl_device.c, som_ocl_fork.c) --- */
/* A failed OpenCL call: SOM_ERR_BACKEND with the status named. */
int som_ocl_fail(som_status *st, cl_int rc, const char *what);
/* Nonzero (and st filled) in a child forked after this process used OpenCL. */
int som_ocl_refuse_forked(som_status *st);
/* After the first OpenCL call: a child forked from here on must not touch OpenCL. */
void som_ocl_mark_used(void);
/* Every device of every platform, with its platform (arrays malloc'ed). */
int som_ocl_collect(cl_platform_id **plat_out, cl_device_id **dev_out,
                    som_ocl_device **info_out, int *n_out, som_status *st);

/* --- buffers, arguments, launches (som_ocl_context.c) --- */
/* Bytes of one real in the context's precision. */
size_t som_ocl_real(const som_ocl_ctx *ctx);
/* A buffer of `bytes`, filled from `host` when not NULL; *out is NULL on failure. */
int som_ocl_buffer(som_ocl_ctx *ctx, cl_mem *out, cl_mem_flags flags, size_t bytes,
                   const void *host, som_status *st);
void som_ocl_release(cl_mem *mem); /* releases *mem if set, and clears it */
int som_ocl_write(som_ocl_ctx *ctx, cl_mem buf, cl_bool blocking, size_t bytes,
                  const void *host, som_status *st);
int som_ocl_read(som_ocl_ctx *ctx, cl_mem buf, size_t bytes, void *host, som_status *st);
/* Wait for both queues. */
int som_ocl_finish(som_ocl_ctx *ctx, som_status *st);
/* (Re)make both queues with these properties (nothing may be queued). */
int som_ocl_queues(som_ocl_ctx *ctx, cl_command_queue_properties props, som_status *st);

/* Kernel arguments, set from a list in one call, from argument `first` on:
 *   SOM_OCL_ARGS(kernel, 0, st, SOM_ARG(buffer), SOM_ARG(count), SOM_LOCAL(bytes), ...) */
typedef struct {
    size_t size;
    const void *value;
} som_ocl_arg;
#define SOM_ARG(v) {sizeof(v), &(v)}
#define SOM_LOCAL(bytes) {(bytes), NULL}
#define SOM_OCL_ARGS(k, first, st, ...)                                                    \
    som_ocl_args((k), (first), (const som_ocl_arg[]){__VA_ARGS__},                         \
                 (int)(sizeof((som_ocl_arg[]){__VA_ARGS__}) / sizeof(som_ocl_arg)), (st))
int som_ocl_args(cl_kernel k, int first, const som_ocl_arg *args, int n, som_status *st);
/* Launch a kernel over dims dimensions (local may be NULL) on the main queue, or with
 * som_ocl_launch_side on the side queue, whose commands start only after everything queued
 * on the main queue so far; `what` names it in errors. */
int som_ocl_launch(som_ocl_ctx *ctx, cl_kernel k, cl_uint dims, const size_t *global,
                   const size_t *local, const char *what, som_status *st);
int som_ocl_launch_side(som_ocl_ctx *ctx, cl_kernel k, cl_uint dims, const size_t *global,
                        const size_t *local, const char *what, som_status *st);
/* Profiling: a finished launch's event counted and timed (som_ocl_profile.c). */
void som_ocl_profile_record(som_ocl_ctx *ctx, cl_kernel k, cl_event ev, cl_uint dims,
                            const size_t *global, const size_t *local);
/* The most work-items per work-group kernel k takes on the context's device. */
int som_ocl_wg_limit(som_ocl_ctx *ctx, cl_kernel k, size_t *out, som_status *st);

/* Host arrays in the device's precision. */
void som_ocl_put(void *dst, size_t i, double v, int precision);
double som_ocl_get(const void *src, size_t i, int precision);

/* --- the maps on the device (som_ocl_maps.c) --- */
typedef struct {
    int nmaps;
    size_t wtot;       /* reals of all maps' weights                                      */
    cl_ulong *woffh;   /* where each map's weights (row-major size x m) start             */
    void *wh;          /* host copy of the weights, in the device's precision             */
    cl_mem w, woff, size, restart, index, sched; /* weights; per map: offset, size,
                                             restart, row of the factor table (the
                                             driver's: som_factors); index: 0 .. nmaps-1
                                             (kernels take a list)                      */
    cl_mem seed, row0; /* per map: its seed and its view's first row (som_problem's
                          views; without: the problem's seed and 0)                    */
} som_ocl_maps;

/* The maps of p on the device, starting from their initial weights (som_init_map), with
 * their schedules in the factor table f. */
int som_ocl_maps_open(som_ocl_ctx *ctx, const som_problem *p, const som_factors *f,
                      som_ocl_maps *maps, som_status *st);
/* The weights back, column-major size x m doubles per map. */
int som_ocl_maps_read(som_ocl_ctx *ctx, const som_ocl_maps *maps, const som_problem *p,
                      double *const *weights, som_status *st);
void som_ocl_maps_close(som_ocl_maps *maps);

/* --- the data on the device (som_ocl_data.c) --- */
typedef struct {
    const som_problem *p;
    int64_t chunk_rows, nchunks; /* chunks of whole blocks; the last may be shorter     */
    int streamed;                /* one buffer, filled with each chunk in turn           */
    cl_mem *xs;                  /* chunk buffers (one when streamed)                    */
    int nxs;
    void *stage;                 /* rows row-major in the device's precision             */
    double *window;              /* data from a source: rows read a window at a time     */
    int64_t window_rows;
    cl_int general;              /* the general path (som_data_general): the kernels'
                                    `general` argument                                   */
    cl_mem colw;                 /* then the m column weights (1 without); else NULL     */
} som_ocl_data;

int som_ocl_data_open(som_ocl_ctx *ctx, const som_problem *p, int64_t chunk_rows,
                      int streamed, som_ocl_data *d, som_status *st);
/* Chunk c's buffer (uploaded first when streamed), first row and rows. */
int som_ocl_data_chunk(som_ocl_ctx *ctx, som_ocl_data *d, int64_t c, cl_mem *x,
                       int64_t *first, int64_t *rows, som_status *st);
void som_ocl_data_close(som_ocl_data *d);

/* --- the trace: every map's qe over the data, as som_assess sums it (som_ocl_maps.c) --- */
typedef struct {
    int nblocks;   /* som_assess's blocks of the whole data */
    size_t L;      /* work-items per (block, map): rows searched side by side */
    cl_mem partial;
    void *host;
} som_ocl_trace;

/* What som_ocl_trace_open puts on the device for a family of this shape (none without a
 * trace). */
void som_ocl_trace_plan(const som_ocl_ctx *ctx, const som_family *f, som_plan *plan);
int som_ocl_trace_open(som_ocl_ctx *ctx, const som_problem *p, som_ocl_trace *tr,
                       som_status *st);
int som_ocl_trace_qe(som_ocl_ctx *ctx, som_ocl_trace *tr, som_ocl_data *d,
                     const som_ocl_maps *maps, const som_problem *p, double *qe,
                     som_status *st);
void som_ocl_trace_close(som_ocl_trace *tr);

/* --- what both engines hold for a cohort of maps (som_ocl_maps.c) --- */
typedef struct {
    som_ocl_cfg *cfg;
    som_ocl_ctx *ctx;
    const som_problem *p;
    som_ocl_data data;
    som_ocl_maps maps;
    som_ocl_trace trace;
    int used; /* SOM_RAN_* bits of the kernels launched */
} som_ocl_run;

/* An engine's state starts with a som_ocl_run: these serve as its trace and read. */
int som_ocl_run_trace(void *state, double *qe, som_status *st);
int som_ocl_run_read(void *state, double *const *w, som_status *st);
/* Nothing may still use the buffers: finish the queue, release the data, maps and trace. */
void som_ocl_run_close(som_ocl_run *run);

/* --- what fits (som_ocl_plan.c) --- */
/* The largest buffer a run may make: the device's, or the option's cap below it. */
double som_ocl_limit(const som_ocl_cfg *cfg);
/* SOM_ERR_BACKEND (CL_INVALID_BUFFER_SIZE) naming `what` and the sizes when bytes > limit. */
int som_ocl_check_fits(const som_ocl_ctx *ctx, double limit, double bytes, const char *what,
                       som_status *st);
/* "12.3 MB" and so on, into buf. */
const char *som_ocl_bytes(double b, char *buf, size_t len);
/* The engines' `cohort`: maps first .. *last - 1 fit the device together. */
int som_ocl_cohort(void *cfg, const som_problem *p, int first, int *last, som_status *st);
/* Online: the smallest ring the work-group kernel trains under kernel "auto" (the option,
 * or a default by device type), and whether a ring of N neurons trains with it. */
int som_ocl_wg_min(const som_ocl_cfg *cfg);
int som_ocl_uses_wg(const som_ocl_cfg *cfg, int N);
/* Batch: blocks of rows per chunk of the data, so that a chunk's rows, winners and block
 * sums each fit one buffer. */
int64_t som_ocl_chunk_blocks(const som_ocl_cfg *cfg, const som_family *f);
/* Seconds a launch aims at (the option, or SOM_LAUNCH_SECONDS). */
double som_ocl_launch_seconds(const som_ocl_cfg *cfg);
/* Online: the work-group kernel's size and whether it keeps weights in local memory. */
int som_ocl_wg_shape(som_ocl_cfg *cfg, int maxN_wg, double gmax_nm, size_t *L,
                        int *use_local, som_status *st);
/* A one-dimensional launch of n work-items of kernel k: the local size the device prefers
 * (CL_KERNEL_PREFERRED_WORK_GROUP_SIZE_MULTIPLE, within the kernel's limit) and the global
 * size rounded up to it (the kernels return for items past n). */
int som_ocl_item_shape(som_ocl_ctx *ctx, cl_kernel k, size_t n, size_t *global, size_t *local,
                       som_status *st);
/* Batch: the winner search's work-group size, and whether all maps' weights (wtot reals)
 * go to local memory. */
int som_ocl_assign_shape(som_ocl_cfg *cfg, double wtot, size_t *wg, int *use_local,
                         som_status *st);

extern const som_engine som_ocl_online, som_ocl_batch;

#endif
