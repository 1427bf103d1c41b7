/* harness.h: what the parts of the C harness share (see harness.c). */
#ifndef HARNESS_H
#define HARNESS_H

#define _POSIX_C_SOURCE 200809L
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "som_assess.h"
#include "som_cpu.h"
#include "som_math.h"
#include "som_ocl.h"
#include "som_omp.h"

#ifdef SOMGPU_HAVE_OPENCL
#include "som_ocl_internal.h" /* white box: the context's own OpenCL objects */
#endif

#ifndef HARNESS_VARIANT
#define HARNESS_VARIANT "plain"
#endif

/* --- checks (harness.c): every assertion is one check --- */
extern long n_pass, n_fail;
extern int verbose;
extern char where[256];
int check(int ok, const char *fmt, ...);
void set_where(const char *fmt, ...);
/* A failed call: the expected code, in the status too, with a message. */
void check_fail(int rc, const som_status *st, int want, const char *what);
void clear_status(som_status *st);

/* --- random numbers: splitmix64, our own so that problems are the same everywhere --- */
typedef struct {
    uint64_t s;
} rng;
uint64_t rnext(rng *r);
double runif(rng *r);
int rint_in(rng *r, int lo, int hi); /* lo .. hi inclusive */
double rnorm(rng *r);

/* --- problems (harness.c) --- */
typedef struct {
    som_problem p;     /* trace is set per call (each run writes its own) */
    double *x;         /* n x m, column-major */
    int *size, *restart;
    double *sigma0;    /* per map */
    double **iw;       /* SOM_INIT_GIVEN: per map, size x m column-major */
    double *col_w, *fill; /* the general path: column weights; init "sample"'s fill values */
    int want_trace;
    int big;           /* rings over 256 neurons, weights over 48 KiB (an NVIDIA SM's local
                          memory): every 16th problem */
    double **ref_w;    /* the CPU result (1 thread), for the other runs to match */
    double *ref_trace;
    int ref_ok;
    char desc[200];
} prob;
const char *init_name(int init);
size_t trace_len(const som_problem *p);
void gen_problem(rng *r, int idx, prob *pr);
void free_problem(prob *pr);
double **alloc_weights(const som_problem *p);
void free_weights(double **w, int nmaps);
double *alloc_trace(const som_problem *p);
int same_weights(const som_problem *p, double *const *a, double *const *b);
int all_finite(const som_problem *p, double *const *w);
int trace_finite(const som_problem *p, const double *t);

/* --- hooks (harness.c) --- */
/* An interrupt hook that says "stop" at its call stop_after + 1 (never when negative), and
 * a progress hook that checks its fractions stay in [0, 1] and never go down. */
typedef struct {
    int calls, stop_after, pcalls, pbad;
    double last;
} hookstate;
som_hooks make_hooks(hookstate *h, int stop_after);
/* After a complete run: progress was sane and ended at 1 (when there was any work). */
void check_progress(const som_problem *p, const hookstate *h, const char *what);

/* --- the entry points (harness.c): som_train on a CPU or an OpenCL backend --- */
int cpu_train_in(const som_problem *p, double *const *w, int nthreads, double units,
                 int prec, const som_hooks *hooks, som_status *st);
int cpu_train(const som_problem *p, double *const *w, int nthreads, double units,
              const som_hooks *hooks, som_status *st);
int ocl_train(som_ocl_ctx *ctx, const som_problem *p, double *const *w,
              const som_ocl_opts *o, const som_hooks *hooks, int *used, som_status *st);

/* --- the CPU part (harness_cpu.c, harness_refuse.c), and what the OpenCL part takes
 * from it --- */
typedef struct {
    const char *what;
    som_problem p;
} bad_case;
#define MAX_BAD 40
/* Invalid variants of a small valid problem, into c; returns how many. */
int bad_cases(bad_case *c);
extern double *const bad_out[2]; /* room for any bad case's weights */
/* A problem long enough for many interrupt checks (n x 3 uniform, sizes 5, 12, 30). */
som_problem intr_problem(int algorithm, int64_t n);
void intr_free(void);
/* An interrupted run: the interrupt code and message, the hook asked exactly k + 1 times. */
void check_interrupted(int rc, som_status *st, const hookstate *hs, int k, const char *what);
void cpu_checks(prob *pr);
void invalid_problem_checks(void);
void status_name_checks(void);
void cpu_interrupt_checks(void);

/* --- views (harness_views.c): the problem on three views at once, each view's maps
 * against a problem of their own; on the CPU (ctx NULL) or an OpenCL context --- */
void views_checks(prob *pr, som_ocl_ctx *ctx, const som_ocl_opts *o);

/* --- the OpenCL part (harness_ocl.c) --- */
void ocl_part(prob *probs, int np);
#ifdef SOMGPU_HAVE_OPENCL
void close_checked(som_ocl_ctx *ctx);
const char *kernel_name(int k);
/* One OpenCL run of a problem, checked against the CPU. */
void ocl_train_checks(som_ocl_ctx *ctx, prob *pr, const som_ocl_opts *o, long base_refs);

/* --- what PoCL never runs by itself (harness_gpu.c) --- */
/* Launches per kernel of a device's profiled runs: cleared, added from a context, and
 * checked (every kernel of the program ran). */
void launches_reset(void);
void launches_add(const som_ocl_ctx *ctx);
void launches_check(const char *dev);
void coverage_runs(som_ocl_ctx *ctx, prob *probs, int np, long refs, const char *dev);
void big_ring_checks(som_ocl_ctx *ctx, prob *pr, long refs, const char *dev);
void single_batch_check(int d, const char *dev);
#endif

#endif
