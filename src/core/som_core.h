/* som_core.h: the problem, result and status of a ring-SOM family, and what every backend
 * shares: schedules, initial weights, layouts, memory plans, assessment. Pure C: no R
 * headers, so that a plain C program (tests/c) can drive the core. */
#ifndef SOM_CORE_H
#define SOM_CORE_H

#include <math.h>
#include <stddef.h>
#include <stdint.h>

#include "som_math.h"

/* Status codes returned by every core and backend entry point (R asks for them: somgpu's
 * constants()). */
enum {
    SOM_OK = 0,
    SOM_ERR_INVALID = 1,     /* a problem the caller should have validated        */
    SOM_ERR_NOMEM = 2,       /* an allocation failed                              */
    SOM_ERR_INTERRUPTED = 3, /* the interrupt hook asked to stop                  */
    SOM_ERR_UNAVAILABLE = 4, /* the backend was not built or has no device        */
    SOM_ERR_BACKEND = 5,     /* the backend failed (details in the status)        */
    SOM_ERR_FILE = 6         /* a data or clusters file could not be read/written */
};

enum { SOM_INIT_UNIFORM = 0, SOM_INIT_SAMPLE = 1, SOM_INIT_GIVEN = 2 };
enum { SOM_ONLINE = 0, SOM_BATCH = 1 };

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

/* The data: n points of m dimensions, column-major as R stores a matrix. Distances are
 * sums over the dimensions of squared differences; with col_w, each column's term is
 * multiplied by its weight; with missing values (NaN in x), a row's distance is taken over
 * its observed columns (and rescaled by m / observed for its quantization error) and the
 * online rule moves only its observed columns. Data without either take the plain rule's
 * code path; with either, the general path (som_data_general). */
typedef struct som_source som_source;
typedef struct {
    const double *x;     /* in memory; NULL when the rows come from src                 */
    int64_t n;
    int m;
    const double *col_w; /* NULL, or m non-negative column weights                      */
    int missing;         /* nonzero: x holds NaN (missing values)                       */
    som_source *src;     /* data held outside memory (x NULL): read a window at a time   */
} som_data;

/* Data held outside memory (a file-backed matrix: som_file.c). Rows are read on the thread
 * that drives the work (never from a worker thread), a window of whole blocks at a time, as
 * the data in memory would hold them (centred and scaled where R would have). */
struct som_source {
    /* Rows first .. first + rows - 1 into out, column-major (rows apart). */
    int (*read)(som_source *src, int64_t first, int64_t rows, double *out, som_status *st);
};

/* Bytes of the data a window from a source holds at most (whole blocks: at least one). */
#define SOM_WINDOW_BYTES (16.0 * 1024 * 1024)

/* Rows first .. first + rows - 1 of the data, column-major: x[k * ld + (i - first)] is row
 * i, column k. In memory, a view of the data (ld = n, first = 0); from a source, read into
 * the caller's buffer (rows x m doubles). */
typedef struct {
    const double *x;
    int64_t ld, first;
} som_window;
int som_window_load(const som_data *d, int64_t first, int64_t rows, double *buf,
                    som_window *w, som_status *st);
/* Column k of a window from row `row` on. */
#define som_window_col(w, k, row) ((w)->x + (size_t)(k) * (w)->ld + ((row) - (w)->first))
/* Blocks of `block` rows a window may hold for data of m columns: per_round, or for data
 * from a source (sourced) fewer, so that a window stays within SOM_WINDOW_BYTES (>= 1). */
int64_t som_window_blocks(int sourced, int m, int64_t per_round, int64_t block);

/* The data need the general path: column weights or missing values. */
#define som_data_general(d) ((d)->col_w != NULL || (d)->missing)

/* A family of maps to train on one data set. Map i has size[i] neurons and restart index
 * restart[i] (0-based); its random streams are keyed by (seed, size[i], restart[i]). */
typedef struct {
    som_data data;
    int nmaps;
    const int *size;
    const int *restart;
    int iter_max;   /* passes are t = 1 .. iter_max - 1, as in the original script */
    const double *sigma0; /* per map: the neighbourhood's starting width (maps of equal
                             width share their factors: som_schedules)                */
    double eta0;
    int init;                       /* SOM_INIT_*                                     */
    const double *const *init_w;    /* SOM_INIT_GIVEN: per map, size x m column-major;
                                       a NULL entry: that map's uniform initial weights */
    const double *fill;             /* SOM_INIT_SAMPLE with missing values: m values for
                                       the missing entries of a drawn row (NULL: none)  */
    uint32_t seed;
    int algorithm;                  /* SOM_ONLINE or SOM_BATCH                         */
    int batch_block;                /* points per block of the batch sums (> 0)        */
    double *trace;                  /* NULL, or (iter_max - 1) x nmaps: the qe of every
                                       map after every pass (som_assess's qe)          */
    /* Views (view NULL: none): maps that train on different data of one shape, each with
     * its own seed, in one family, e.g. the replicates of a bootstrap (a replicate's maps
     * are then those of a call on its rows with its seed, bit for bit). Map i trains on
     * views[view[i]] with seeds[view[i]]; a view's maps are consecutive; the views share n,
     * m, col_w and missing, are in memory, and data is views[0] (the shape). An engine
     * without views (som_engine.views 0) is given one view at a time by the driver. */
    int nviews;
    const som_data *views;
    const uint32_t *seeds;
    const int *view;
} som_problem;

/* The data and seed of map i. */
#define som_map_data(p, i) ((p)->view ? &(p)->views[(p)->view[i]] : &(p)->data)
#define som_map_seed(p, i) ((p)->view ? (p)->seeds[(p)->view[i]] : (p)->seed)
/* Rows the data of every view hold together, the views one after the other. */
#define som_view_rows(p) ((p)->data.n * ((p)->view ? (p)->nviews : 1))

/* Maps to assess: per map its size and weights (size x m, column-major). */
typedef struct {
    int nmaps;
    const int *size;
    const double *const *weights;
} som_maps;

#if defined(__GNUC__)
#define SOM_INLINE static inline __attribute__((always_inline))
#else
#define SOM_INLINE static inline
#endif

/* A function compiled twice, for AVX2 and for the baseline, picked when the library loads
 * (GCC's function multi-versioning: x86-64 with glibc's ifunc). */
#if defined(__GNUC__) && !defined(__clang__) && __GNUC__ >= 6 && defined(__x86_64__) && \
    defined(__linux__)
#define SOM_CLONES 1
#define SOM_TARGET_CLONES __attribute__((target_clones("avx2", "default")))
#else
#define SOM_CLONES 0
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

/* --- status (som_core.c) --- */
void som_status_init(som_status *st);
void som_status_clear(som_status *st);
int som_fail(som_status *st, int code, const char *fmt, ...);
int som_check_problem(const som_problem *p, som_status *st);
double som_now_seconds(void); /* monotonic clock, for time and rate limits */

/* --- the schedule (som_core.c) --- */
double som_sigma(const som_problem *p, int map, int t);
double som_eta(const som_problem *p, int t);
/* The ring-scaled schedule (R's sigma0 = "auto"): a ring of N neurons starts with sigma0 =
 * N * SOM_SIGMA0_RING_SHARE, so its neighbourhood falls to exp(-2) a quarter of the ring
 * away from the winner (2 sigma0 = N / 4) whatever N (see ?train: chosen by
 * bench/bench_select_accuracy.R). */
#define SOM_SIGMA0_RING_SHARE 0.125
/* The maps' schedules: maps of equal sigma0 share one. sched[i] (0-based, in order of first
 * appearance) for every map of p; returns how many there are. */
int som_schedules(const som_problem *p, int *sched);
/* Factors of other neurons below this are 0: what single precision would flush, so that a
 * neuron's "no neighbourhood" is the same in both precisions. */
#define SOM_FACTOR_MIN 1e-30
/* The neighbourhood factors of map `map` at pass t by ring distance: row[d] = eta_t *
 * exp(-d^2 / (2 sigma_t^2)) for d = 0 .. dmax (exactly eta_t at d = 0; 0 below SOM_FACTOR_MIN at
 * d > 0); the batch algorithm has no learning rate (eta_t = 1). Every backend takes its
 * factors from here (through the driver), so that they agree to the bit. */
void som_neighbourhood_row(const som_problem *p, int map, int t, int dmax, double *row);
/* The factors of a ring of `size` as a doubled circle: circ[i] = circ[size + i] = row[d]
 * with d the ring distance of i from 0 (i < size). The factor of neuron j when c wins is
 * then circ[size - c + j]: no branches, one slice. */
void som_neighbourhood_circ(const double *row, int size, double *circ);
void som_neighbourhood_circ_f(const double *row, int size, float *circ); /* rounded */

/* --- initial weights and layouts (som_core.c) --- */
/* Initial weights of map i, row-major (size x m), from the problem's init rule: the one
 * source of initial weights for every backend and algorithm. scratch holds n indices (init
 * "sample" draws its rows there; otherwise it may be NULL). SOM_OK, or a source's status
 * when reading the drawn rows fails. */
int som_init_map(const som_problem *p, int i, double *w, uint32_t *scratch, som_status *st);
/* Column-major size x m to row-major. */
void som_rowmajor_weights(const double *colmajor, int size, int m, double *rowmajor);
/* Column-major size x m into tiled weights (the padding untouched). */
void som_tile_colmajor(const double *colmajor, int size, int m, int ld, double *tiled);

/* Maps 0..nmaps-1 as ngroups runs of about equal total size: group g is start[g] ..
 * start[g + 1] - 1 (start has ngroups + 1 entries). */
void som_split_maps(const int *size, int nmaps, int ngroups, int *start);
/* How many groups of maps to cut a round of blocks into, so that every thread has work. */
int som_map_groups(int64_t blocks_per_round, int nthreads, int nmaps);

/* Reals of a neuron's sums in the batch rule: S[c * m + k] and its count n[c], or on the
 * general path a count per column, n[c * m + k] (the rows where column k is observed). */
SOM_INLINE int som_slot_width(int m, int general)
{
    return general ? 2 * m : m + 1;
}

/* Cost units (neuron x dimension steps) per thread between two interrupt checks, about
 * 10-30 ms, and the fixed cost of one point in the same units. */
#define SOM_ROUND_UNITS ((double)(1 << 25))
#define SOM_POINT_UNITS 16.0
/* Work units the CPU backend gets through per second per thread, about (measured on a 2-core
 * AMD EPYC, Zen 4, with AVX2: 3e9 to 6e9 across the online and batch benchmarks; the lower
 * end). backend = "auto" estimates a call's CPU time from it (R asks: constants()). */
#define SOM_CPU_UNITS_PER_SECOND 3e9

/* --- memory plans (som_core.c) ---
 * What a call will allocate, buffer by buffer, from the family's shape alone (so that R can
 * refuse a call before anything is built): each allocating module plans its own buffers
 * next to the code that allocates them, with the same sizes. Bounds where per-map padding
 * would need every size. */
typedef struct {
    int64_t n;       /* rows                      */
    int m;           /* columns                   */
    int nmaps;       /* maps (sizes x restarts)   */
    int restarts;    /* maps per size (>= 1)      */
    double size_sum; /* neurons over all maps     */
    int size_max;    /* the largest map           */
    int passes;      /* iter_max - 1              */
    int trace;       /* a trace is recorded       */
    int batch_block; /* batch: rows per block     */
    int general;     /* the general path: column weights or missing values */
    int sourced;     /* the rows come from a source (windows of them are held) */
    int schedules;   /* distinct neighbourhood schedules (som_schedules; 0 counts as 1) */
    int views;       /* data sets the maps train on (som_problem's views; 0 counts as 1) */
} som_family;

enum { SOM_HOST = 0, SOM_DEVICE = 1 };
#define SOM_PLAN_MAX 40

typedef struct {
    int count;
    struct {
        const char *what;
        double bytes;
        int where; /* SOM_HOST or SOM_DEVICE */
    } buf[SOM_PLAN_MAX];
} som_plan;

/* The family of a problem. */
void som_family_of(const som_problem *p, som_family *f);
/* malloc of count elements of `size` bytes (a count from a plan, in double); NULL when
 * that many bytes cannot be addressed. */
void *som_alloc(double count, size_t size);
void som_plan_add(som_plan *plan, const char *what, double bytes, int where);

/* --- assessment (som_assess.c) --- */
/* Per-row details of an assessment, per map (arrays of n, or NULL where not wanted): the
 * runner-up neuron (1-based), and the distance to the winner and to the runner-up
 * (Euclidean, in the data's distance: column weights, rescaled for missing values as qe). */
typedef struct {
    int **second;
    double **best, **next;
} som_detail;

/* qe, te and the sum of squared distances (sse) of every map (each output may be NULL), and,
 * where clusters[i] != NULL, the 1-based winner of every point; detail (NULL: none) the
 * per-row details. Deterministic whatever the thread count: fixed blocks, summed in block
 * order. On the general path (som_data_general) distances are weighted and over observed
 * values; a row's qe is rescaled by m / its observed values, its sse term is not (sse is
 * over the observed cells). round_units (<= 0: the default) sets the work per thread
 * between interrupt checks. */
int som_assess(const som_data *d, const som_maps *maps, int nthreads, double round_units,
               const som_hooks *hooks, double *qe, double *te, double *sse, int **clusters,
               const som_detail *detail, som_status *st);
/* Where som_assess_to sends the clusters, a round of rows at a time (a file-backed matrix:
 * som_file.c). write: rows first .. first + rows - 1 of map q's 1-based winners. */
typedef struct som_sink som_sink;
struct som_sink {
    int (*write)(som_sink *sink, int q, int64_t first, int64_t rows, const int *cl,
                 som_status *st);
};
/* som_assess with the clusters of every map to a sink (no details). */
int som_assess_to(const som_data *d, const som_maps *maps, int nthreads, double round_units,
                  const som_hooks *hooks, double *qe, double *te, double *sse, som_sink *sink,
                  som_status *st);
/* The qe alone (the trace's figure), for several maps at once. */
int som_qe_maps(const som_data *d, const som_maps *maps, int nthreads, double *qe,
                som_status *st);
/* The buffers som_assess allocates for maps of the family's shape. */
void som_assess_plan(const som_family *f, int nthreads, som_plan *plan);
#endif
