/* r_args.h: R values read into the core's structs (r_args.c): named lists, problems,
 * backends, OpenCL contexts held in external pointers, weights lists, status objects. */
#ifndef SOM_R_ARGS_H
#define SOM_R_ARGS_H

#define R_NO_REMAP
#include <Rinternals.h>

#include "som_cpu.h"
#include "som_ocl.h"

/* --- named lists: the element `name` of list, or an R error naming it --- */
SEXP r_elt(SEXP list, const char *name);
/* The element `name` of list, or R_NilValue when it has none. */
SEXP r_opt(SEXP list, const char *name);
int r_int(SEXP list, const char *name);
double r_real(SEXP list, const char *name);
const double *r_reals(SEXP list, const char *name, int n);
int r_flag(SEXP list, const char *name);
/* The position of the string element `name` among choices (NULL-terminated). */
int r_choice(SEXP list, const char *name, const char *const *choices);
/* "double", "single": SOM_DOUBLE, SOM_SINGLE as r_choice() indices. */
extern const char *const som_precision_names[];
/* "online", "batch": SOM_ONLINE, SOM_BATCH. */
extern const char *const som_algorithm_names[];

/* A failed status as an R object of class somgpu_status: list(code, message, api_status,
 * api_status_name, log, condition); condition: an R error to raise as it is, or NULL. */
SEXP r_status(const som_status *st, SEXP condition);

/* --- problems, backends, statuses --- */
/* The problem of list(size, restart, iter_max, ...) on the data d (see C_train). */
void problem_of(const som_data *d, SEXP problem, som_problem *p);
/* A list of every map's weights (size x m matrices), w[i] pointing into each. */
SEXP r_weights_list(const som_problem *p, double ***w);
/* r_status(st, condition), and st cleared. */
SEXP status_out(som_status *st, SEXP condition);

/* --- OpenCL --- */
/* The context of an external pointer from C_ocl_open, NULL when closed or not one. */
som_ocl_ctx *r_ocl_ctx(SEXP ptr);

#endif
