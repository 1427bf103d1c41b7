/* som_engine.h: one driver for every backend and algorithm (som_driver.c), and the small
 * interface a backend implements for each algorithm (som_engine).
 *
 * The driver owns what every run shares: it checks the problem, cuts the maps into cohorts
 * (the maps the backend can hold at once), runs the schedule (the neighbourhood factors of every
 * pass), moves the work on slice by slice, records the trace after each pass, reports
 * progress, stops on an interrupt, copies the weights out, and releases the backend's
 * resources on every path. A backend only moves its maps on.
 *
 * One driver runs every pass: of every backend and algorithm, and of data-parallel batch over
 * future workers, where the engine of this process (som_cpu_shards in som_cpu_shards_t.h)
 * gathers each pass's sums from the workers (R/train_shards.R) and ends the pass; the schedule,
 * trace, progress and interrupts are the driver's alone.
 *
 * Work is counted in steps: pass t (1 .. iter_max - 1) is steps (t - 1) * n .. t * n - 1,
 * a step being one row's visit (online: the rule applied to the row; batch: the row's
 * winner and its share of the sums). Every map of a cohort is at the same step. */
#ifndef SOM_ENGINE_H
#define SOM_ENGINE_H

#include "som_plan.h"
#include "som_status.h"

/* A backend's arithmetic. */
enum { SOM_DOUBLE = 0, SOM_SINGLE = 1 };

/* The neighbourhood factors of the passes a slice may reach, for the maps of one cohort,
 * made by the driver from the schedule (som_neighbourhood_row) when first asked for: per
 * pass a block of one row per schedule (maps of equal sigma0 share one: som_schedules). */
typedef struct {
    const som_problem *p; /* the cohort's maps                                       */
    int width;   /* factors per row, by ring distance: the largest size / 2 + 1       */
    int nsched;  /* rows per pass: the cohort's schedules                             */
    int *sched;  /* per map of the cohort, its row in a pass's block                  */
    int *first;  /* per schedule, the first map of the cohort that has it              */
    int t_first; /* the pass of the slice's first step                               */
    int rows;    /* passes the table can hold                                         */
    int made;    /* passes made so far                                                */
    double *tab; /* rows x nsched x width                                             */
} som_factors;

/* The factors of pass t (t_first <= t < t_first + rows), nsched rows of width: that pass
 * and any before it are made on the first request. Call from the driver's thread; passes
 * already made may then be read from any thread (som_factor_block, som_factor_at). */
const double *som_factor_pass(som_factors *f, int t);
#define som_factor_block(f, t) \
    ((f)->tab + (size_t)((t) - (f)->t_first) * (f)->nsched * (f)->width)
/* Map `map`'s factors at pass t (made). */
#define som_factor_at(f, t, map) (som_factor_block(f, t) + (size_t)(f)->sched[map] * (f)->width)

/* Passes of factors (`block` each) a slice may span: what about 8 MB hold, 1 .. passes. */
int som_factor_rows(double block, int passes);
/* A table for the cohorts of p (its largest map and its schedules: a cohort's are at most
 * p's); som_factors_cohort points it at a cohort (a sub-problem of p, or p) before use;
 * som_factors_close frees it. */
int som_factors_open(som_factors *f, const som_problem *p, som_status *st);
void som_factors_cohort(som_factors *f, const som_problem *cohort);
void som_factors_close(som_factors *f);

/* One slice of work: from step `from` to at most `limit` (the pass's end for the batch
 * algorithm and for traces; never past the passes whose factors fit the table). */
typedef struct {
    int64_t from, limit;
    som_factors *factors;
} som_slice;

/* What a backend implements for one algorithm. `cfg` is the backend's settings (from
 * som_backend), `state` what prepare made for one cohort of maps. Every function returns
 * SOM_OK or a status code with st filled. */
typedef struct som_engine_s {
    const char *name;
    /* The cohort from map `first`: maps first .. *last - 1 of p can be trained together
     * (NULL: all maps at once). */
    int (*cohort)(void *cfg, const som_problem *p, int first, int *last, som_status *st);
    /* Everything to train the maps of p (a cohort): buffers, the data, the initial
     * weights (som_init_map). f: the cohort's factor table (its shape; no pass made yet). On
     * failure *state may hold what was made: release frees it. */
    int (*prepare)(void *cfg, const som_problem *p, const som_factors *f, void **state,
                   som_status *st);
    /* Move every map on from s->from to a step of the backend's choosing, > from and
     * <= s->limit, into *reached (a slice of about the backend's round of work). */
    int (*advance)(void *state, som_slice *s, int64_t *reached, som_status *st);
    /* The batch rule at the end of pass t, with its factors (made: som_factor_at; NULL for
     * online). */
    int (*end_pass)(void *state, const som_factors *f, int t, som_status *st);
    /* The qe of every map of the cohort now, as som_assess computes it (NULL: the driver
     * reads the weights and assesses them). */
    int (*trace)(void *state, double *qe, som_status *st);
    /* The weights of every map, column-major size x m, into w[i]. */
    int (*read)(void *state, double *const *w, som_status *st);
    void (*release)(void *state);
    /* The buffers prepare allocates (host and device) for a family of this shape. */
    void (*plan)(void *cfg, const som_family *f, som_plan *plan);
    /* Nonzero: trains the maps of several views together (som_problem's views: each map
     * with its view's data and seed): OpenCL's online engine, for which more maps at once
     * fill more of a device. 0: the driver gives it one view at a time; the CPU's engines,
     * where every slice visiting every view's data would cost cache (10-15% measured by
     * bench/bench_replicates.R), and the batch engines. */
    int views;
    /* Another engine of the same backend for a family of this shape on this processor, or
     * NULL: this one (NULL here: always this one). The CPU's online rule in double
     * precision hands families to its wide packs where AVX-512 and the shape make them pay. */
    const struct som_engine_s *(*pick)(void *cfg, const som_family *f);
} som_engine;

/* A backend: an engine per algorithm (NULL where it has none), its settings, and the host
 * threads for the driver's own work (assessing maps for a trace). */
typedef struct {
    const som_engine *engine[2]; /* [SOM_ONLINE], [SOM_BATCH] */
    void *cfg;
    int threads;
} som_backend;

/* The end of pass t (the batch rule) on engine e's state, with the factors of pass t from
 * f (made here): what both drivers do at a pass's end. SOM_OK when e has no end_pass. */
int som_pass_end(const som_engine *e, void *state, som_factors *f, int t, som_status *st);

/* Train every map of p on the backend; weights[i] receives map i (size x m, column-major). */
int som_train(const som_problem *p, const som_backend *be, double *const *weights,
              const som_hooks *hooks, som_status *st);

/* What training and assessing a family of this shape allocates, buffer by buffer: the
 * driver's and the backend's (engine of the algorithm; none when be is NULL: the maps train
 * elsewhere), and som_assess's with `threads` threads. */
void som_train_plan(const som_family *f, int algorithm, const som_backend *be, int threads,
                    som_plan *plan);

#endif
