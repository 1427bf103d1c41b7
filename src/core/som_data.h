/* som_data.h: the data maps train on and are assessed with: in memory, or from a source
 * that reads them a window of rows at a time (a file-backed matrix: som_file.h). */
#ifndef SOM_DATA_H
#define SOM_DATA_H

#include <stddef.h>
#include <stdint.h>

#include "som_status.h"

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

/* The data need the general path: column weights or missing values. */
#define som_data_general(d) ((d)->col_w != NULL || (d)->missing)

/* Data held outside memory (a file-backed matrix: som_file.c), or only a range of their rows
 * in memory (som_held). Rows are read on the thread that drives the work (never from a
 * worker thread), a window of whole blocks at a time, as the data in memory would hold them
 * (centred and scaled where R would have). */
struct som_source {
    /* Rows first .. first + rows - 1 into out, column-major (rows apart). */
    int (*read)(som_source *src, int64_t first, int64_t rows, double *out, som_status *st);
};

/* Rows first .. first + rows - 1 of the data held in memory, column-major (x: rows apart),
 * the others not: a future worker's shard of a file, read from it once and kept for every
 * pass (R/train_shards.R). Its windows are copies, as a file's are: a window's columns then lie
 * close together, which the batch sums read faster than columns a shard apart. */
typedef struct {
    som_source src; /* first: the core reads through it */
    const double *x;
    int64_t first, rows;
    int m;
} som_held;
void som_held_init(som_held *h, const double *x, int64_t first, int64_t rows, int m);

/* Bytes of the data a window from a source holds at most (whole blocks: at least one). */
#define SOM_WINDOW_BYTES (16.0 * 1024 * 1024)

/* Rows first .. first + rows - 1 of the data, column-major: x[k * ld + (i - first)] is row
 * i, column k. In memory, a view of the data (ld = n, first = 0); from a source, read into
 * the caller's buffer (rows x m doubles). (som_data.c) */
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

#endif
