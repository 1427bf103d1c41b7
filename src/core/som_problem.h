/* som_problem.h: a family of ring SOMs to train (som_problem): its maps, schedule
 * parameters, initial weights, algorithm and views; its check; each map's initial weights
 * and the layouts weights travel in. Pure C: no R headers, so that a plain C program
 * (tests/c) can drive the core. */
#ifndef SOM_PROBLEM_H
#define SOM_PROBLEM_H

#include <stdint.h>

#include "som_data.h"
#include "som_host.h"
#include "som_status.h"

enum { SOM_INIT_UNIFORM = 0, SOM_INIT_SAMPLE = 1, SOM_INIT_GIVEN = 2 };
enum { SOM_ONLINE = 0, SOM_BATCH = 1 };

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

/* --- (som_problem.c) --- */
/* SOM_OK, or SOM_ERR_INVALID with what is wrong: what every entry point checks first. */
int som_check_problem(const som_problem *p, som_status *st);
/* Initial weights of map i, row-major (size x m), from the problem's init rule: the one
 * source of initial weights for every backend and algorithm. scratch holds n indices (init
 * "sample" draws its rows there; otherwise it may be NULL). SOM_OK, or a source's status
 * when reading the drawn rows fails. */
int som_init_map(const som_problem *p, int i, double *w, uint32_t *scratch, som_status *st);
/* Column-major size x m to row-major. */
void som_rowmajor_weights(const double *colmajor, int size, int m, double *rowmajor);
/* Column-major size x m into tiled weights (the padding untouched). */
void som_tile_colmajor(const double *colmajor, int size, int m, int ld, double *tiled);

/* Reals of a neuron's sums in the batch rule: S[c * m + k] and its count n[c], or on the
 * general path a count per column, n[c * m + k] (the rows where column k is observed). */
SOM_INLINE int som_slot_width(int m, int general)
{
    return general ? 2 * m : m + 1;
}

#endif
