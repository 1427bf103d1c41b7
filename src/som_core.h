/* som_core.h: the problem, result and status of a ring-SOM family, shared by every backend.
 * Pure C: no R headers, so that a plain C program (tests/c) can drive the core. */
#ifndef SOM_CORE_H
#define SOM_CORE_H

#include <math.h>
#include <stddef.h>
#include <stdint.h>

/* Status codes returned by every core and backend entry point. */
enum {
    SOM_OK = 0,
    SOM_ERR_INVALID = 1,     /* a problem the caller should have validated        */
    SOM_ERR_NOMEM = 2,       /* an allocation failed                              */
    SOM_ERR_INTERRUPTED = 3, /* the interrupt hook asked to stop                  */
    SOM_ERR_UNAVAILABLE = 4, /* the backend was not built or has no device        */
    SOM_ERR_BACKEND = 5      /* the backend failed (details in the status)        */
};

enum { SOM_INIT_UNIFORM = 0, SOM_INIT_SAMPLE = 1, SOM_INIT_GIVEN = 2 };
enum { SOM_ONLINE = 0, SOM_BATCH = 1 };

/* Points per block of the batch algorithm's sums: each block's sums are taken in point
 * order, then added to the totals in block order, so the block size is part of what
 * defines the result (not the threads or the device). */
#define SOM_BATCH_BLOCK 4096

/* The status a backend fills when it fails: a code, a message, and for OpenCL the
 * API status and the build log (owned by the status; free with som_status_clear). */
typedef struct {
    int code;
    int api_status;
    char message[512];
    char *log;
} som_status;

/* Callbacks the caller supplies; both run on the calling thread only, between chunks. */
typedef struct {
    int (*interrupted)(void *ud);               /* nonzero: stop as soon as possible */
    void (*progress)(void *ud, double fraction); /* share of the work done, 0..1      */
    void *ud;
} som_hooks;

/* The data: n points of m dimensions, column-major as R stores a matrix. */
typedef struct {
    const double *x;
    int64_t n;
    int m;
} som_data;

/* A family of maps to train on one data set. Map i has size[i] neurons and restart index
 * restart[i] (0-based); its random streams are keyed by (seed, size[i], restart[i]). */
typedef struct {
    som_data data;
    int nmaps;
    const int *size;
    const int *restart;
    int iter_max;   /* passes are t = 1 .. iter_max - 1, as in the original script */
    double sigma0;
    double eta0;
    int init;                       /* SOM_INIT_*                                     */
    const double *const *init_w;    /* SOM_INIT_GIVEN: per map, size x m column-major  */
    uint32_t seed;
    int algorithm;                  /* SOM_ONLINE or SOM_BATCH                         */
    int batch_block;                /* points per block of the batch sums (> 0)        */
    double *trace;                  /* NULL, or (iter_max - 1) x nmaps: the qe of every
                                       map after every pass (som_assess's qe)          */
} som_problem;

/* Assessment of trained maps: per map qe and te, and optionally each point's winner. */
typedef struct {
    int nmaps;
    const int *size;
    const double *const *weights; /* per map, size x m column-major */
} som_maps;

/* --- schedules and helpers (som_core.c) --- */
double som_sigma(const som_problem *p, int t);
double som_eta(const som_problem *p, int t);
/* Factors of other neurons below this are 0: what single precision would flush, so that a
 * neuron's "no neighbourhood" is the same in both precisions. */
#define SOM_FACTOR_MIN 1e-30

/* The neighbourhood factors of pass t by ring distance: row[d] = eta_t * exp(-d^2 /
 * (2 sigma_t^2)) for d = 0 .. dmax (exactly eta_t at d = 0; 0 below SOM_FACTOR_MIN at
 * d > 0); the batch algorithm has no learning rate (eta_t = 1). Every backend takes its
 * factors from here, so that they agree to the bit. */
void som_neighbourhood_row(const som_problem *p, int t, int dmax, double *row);
/* The neighbourhood of pass t as a doubled circular table: circ[i] = circ[size + i] =
 * eta_t * exp(-d^2 / (2 sigma_t^2)) with d the ring distance of i from 0 (i < size). The
 * factor of neuron j when c wins is then circ[size - c + j]: no branches, one slice. */
void som_neighbourhood(const som_problem *p, int t, int size, double *circ);

void som_status_init(som_status *st);
void som_status_clear(som_status *st);

double som_now_seconds(void); /* monotonic clock, for time and rate limits */
int som_fail(som_status *st, int code, const char *fmt, ...);
int som_check_problem(const som_problem *p, som_status *st);

/* Row-major copy of the data (n x m, point after point), allocated with malloc. */
double *som_rowmajor(const som_data *d);
void som_rowmajor_weights(const double *colmajor, int size, int m, double *rowmajor);
/* Row-major size x m to column-major with leading dimension ld >= size. */
void som_colmajor_weights(const double *rowmajor, int size, int m, int ld, double *colmajor);

/* Initial weights of map i, row-major (size x m), from the problem's init rule; scratch
 * holds n indices (init "sample" draws its rows there; otherwise it may be NULL). */
void som_init_map(const som_problem *p, int i, double *w, uint32_t *scratch);

#if defined(__GNUC__)
#define SOM_INLINE static inline __attribute__((always_inline))
#else
#define SOM_INLINE static inline
#endif

/* A function compiled twice, for AVX2 and for the baseline, picked when the library loads
 * (GCC's function multi-versioning: x86-64 with glibc's ifunc). */
#if defined(__GNUC__) && !defined(__clang__) && __GNUC__ >= 6 && defined(__x86_64__) && \
    defined(__linux__)
#define SOM_TARGET_CLONES __attribute__((target_clones("avx2", "default")))
#else
#define SOM_TARGET_CLONES
#endif

/* Unroll the short loops over dimensions (-O2 does not; with a constant m they vanish). */
#if defined(__clang__)
#define SOM_UNROLL _Pragma("unroll 4")
#elif defined(__GNUC__) && __GNUC__ >= 8
#define SOM_UNROLL _Pragma("GCC unroll 4")
#else
#define SOM_UNROLL
#endif

/* Ring distance between neurons a and b of a ring of `size`. */
SOM_INLINE int som_ring_dist(int a, int b, int size)
{
    int d = a > b ? a - b : b - a;
    return d < size - d ? d : size - d;
}

/* Maps 0..nmaps-1 as ngroups runs of about equal total size: group g is start[g] ..
 * start[g + 1] - 1 (start has ngroups + 1 entries). */
void som_split_maps(const int *size, int nmaps, int ngroups, int *start);
/* How many groups of maps to cut a round of blocks into, so that every thread has work. */
int som_map_groups(int64_t blocks_per_round, int nthreads, int nmaps);

/* Winner of point x among the `size` neurons of w (row-major): the lowest index on ties.
 * With best_d2 / second non-NULL, also its squared distance and the runner-up (lowest index
 * on ties). Always inlined, so that a constant m unrolls and NULL outputs cost nothing. */
SOM_INLINE int som_winner(const double *x, const double *w, int size, const int m,
                          double *best_d2, int *second)
{
    int best = 0, next = 0, j, k;
    double bd = HUGE_VAL, nd = HUGE_VAL;
    for (j = 0; j < size; j++) {
        const double *wj = w + (size_t)j * m;
        double d2 = 0.0;
        SOM_UNROLL
        for (k = 0; k < m; k++) {
            double diff = x[k] - wj[k];
            d2 += diff * diff;
        }
        if (d2 < bd) {
            if (second) {
                next = best;
                nd = bd;
            }
            best = j;
            bd = d2;
        } else if (second && d2 < nd) {
            next = j;
            nd = d2;
        }
    }
    if (best_d2) *best_d2 = bd;
    if (second) *second = next;
    return best;
}

/* --- assessment (som_assess.c) --- */
/* qe, te and the sum of squared distances (sse) of every map (each output may be NULL), and,
 * where clusters[i] != NULL, the 1-based winner of every point. Deterministic whatever the
 * thread count: fixed blocks, summed in block order. round_units (<= 0: the default) sets
 * the work per thread between interrupt checks. */
int som_assess(const som_data *d, const som_maps *maps, int nthreads, double round_units,
               const som_hooks *hooks, double *qe, double *te, double *sse, int **clusters,
               som_status *st);

/* Cost units (neuron x dimension steps) per thread between two interrupt checks, about
 * 10-30 ms, and the fixed cost of one point in the same units. */
#define SOM_ROUND_UNITS ((double)(1 << 25))
#define SOM_POINT_UNITS 16.0

/* The qe of `size` neurons (tiled weights w[k * ld + j]) on the data, as som_assess computes
 * it, on the calling thread: for traces. NaN when memory runs out. */
double som_qe_tiled(const som_data *d, const double *w, int size, int ld);
/* The same for maps given column-major (size x m), several at once, into qe. */
int som_qe_maps(const som_data *d, const som_maps *maps, int nthreads, double *qe,
                som_status *st);

/* --- threads (som_threads.c) --- */
void som_threads_init(void); /* once, when the library is loaded */
int som_in_forked_child(void); /* a fork() happened since the library was loaded */
int som_max_threads(void);
int som_thread_num(void);     /* this thread's number in its parallel region, 0 outside */
int som_have_openmp(void);

/* --- backends --- */
/* The batch algorithm on the CPU (som_batch.c); som_cpu_train dispatches to it. */
int som_cpu_batch(const som_problem *p, double *const *weights, int nthreads,
                  double round_units, const som_hooks *hooks, som_status *st);
/* Train every map of the problem; weights[i] receives map i (size x m, column-major).
 * round_units (<= 0: the default) sets the work per thread between interrupt checks. */
int som_cpu_train(const som_problem *p, double *const *weights, int nthreads,
                  double round_units, const som_hooks *hooks, som_status *st);

#endif
