/* som_file.h: a file-backed matrix (bigmemory's backing file) as the core's source of rows
 * and sink of clusters (som_file.c). */
#ifndef SOM_FILE_H
#define SOM_FILE_H

#include <stdio.h>

#include "som_assess.h"
#include "som_data.h"

enum { SOM_FILE_DOUBLE = 0, SOM_FILE_INT = 1 };

/* The matrix: n x m values of `type` from row row_off of a column-major file of total_rows
 * rows, its column k the file's column cols[k] (0-based); center and scale (NULL, or m
 * values each): the rows are read as (x - center) / scale. */
typedef struct {
    const char *path;
    int type;
    int64_t total_rows, row_off, n;
    const double *cols;
    int m;
    const double *center, *scale;
} som_file_spec;

typedef struct {
    som_source src; /* first: the core reads through it */
    som_sink sink;
    FILE *f;
    som_file_spec spec;
} som_file;

/* Open the file for reading (writable: for writing clusters, an integer matrix). On
 * failure, som_file_close still releases what was opened. */
int som_file_open(som_file *fl, const som_file_spec *spec, int writable, som_status *st);
/* After writing: everything written out and the file closed, or SOM_ERR_BACKEND (a full
 * disk shows here: writes are buffered). */
int som_file_finish(som_file *fl, som_status *st);
void som_file_close(som_file *fl);

#endif
