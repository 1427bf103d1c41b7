/* som_assess.h: the quality of trained maps (qe, te, the sum of squared distances), the
 * winner of every row, per-row details, and the buffers an assessment allocates
 * (som_assess.c). Every backend's figures, the trace's included, are these. */
#ifndef SOM_ASSESS_H
#define SOM_ASSESS_H

#include <stdint.h>

#include "som_data.h"
#include "som_plan.h"
#include "som_status.h"

/* Maps to assess: per map its size and weights (size x m, column-major). */
typedef struct {
    int nmaps;
    const int *size;
    const double *const *weights;
} som_maps;

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
