/* r_data.h: the data as the core reads them, from R (r_data.c): a double matrix in memory,
 * or a file-backed matrix read a window at a time; and the passes over the data R asks
 * for (the scan of the values, column statistics). */
#ifndef SOM_R_DATA_H
#define SOM_R_DATA_H

#include "r_args.h"
#include "som_file.h"

/* The data the core reads: a double matrix (in memory), or a file-backed matrix (R's
 * somgpu_file list: the file is opened by r_data_open, read a window at a time). */
typedef struct {
    som_data d;
    int is_file;
    som_file_spec desc; /* the file: where its values lie */
    som_file file;
} r_data;
/* The data y with the distance dist (NULL, or a list with col_w and missing); R errors
 * only here, before anything is opened. */
void r_data_of(SEXP y, SEXP dist, r_data *rd);
/* The views of a problem (som_problem's views) whose list has view (per map, 0-based) and
 * seeds (per view): data is a list of double matrices of one shape, each read with the
 * problem's distance; p->data becomes the first (R_alloc'ed; R errors only). */
void r_views_of(SEXP data, SEXP problem, som_problem *p);
/* Open a file's data (nothing for a matrix); r_data_close releases it on every path. */
int r_data_open(r_data *rd, som_status *st);
void r_data_close(r_data *rd);

#endif
