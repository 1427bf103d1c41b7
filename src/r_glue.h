/* r_glue.h: the R side of somgpu's C code. The r_*.c files are the only ones that include
 * R's headers: r_glue.c (training, assessment, memory plans, constants, data scans),
 * r_hooks.c (interrupts and progress), r_opencl.c (devices and contexts), r_rng.c (the
 * random streams, for the known-answer tests). Every entry point takes R values (a named
 * list where there are options, read by name) and returns R values, or a status object
 * (class somgpu_status) that R turns into a classed condition. */
#ifndef SOM_R_GLUE_H
#define SOM_R_GLUE_H

#define R_NO_REMAP
#include <Rinternals.h>

#include "som_engine.h"
#include "som_file.h"
#include "som_ocl.h"

/* --- entry points (registered in init.c) --- */
SEXP C_train(SEXP data, SEXP problem, SEXP backend, SEXP progress);
SEXP C_assess(SEXP data, SEXP weights, SEXP options);
SEXP C_memory_plan(SEXP family, SEXP backend);
SEXP C_constants(void);
SEXP C_build_info(void);
SEXP C_data_scan(SEXP x, SEXP counted);
SEXP C_column_stats(SEXP x, SEXP center);
SEXP C_batch_shards(SEXP data, SEXP problem, SEXP backend, SEXP shards);
SEXP C_batch_apply(SEXP data, SEXP problem, SEXP backend, SEXP nodes, SEXP ranges, SEXP pass);
SEXP C_ocl_devices(void);
SEXP C_ocl_open(SEXP spec);
SEXP C_ocl_close(SEXP ptr);
SEXP C_ocl_valid(SEXP ptr);
SEXP C_philox(SEXP ctr, SEXP key);
SEXP C_xoshiro_draws(SEXP spec);
SEXP C_visit_order(SEXP spec);

/* --- named lists (r_glue.c): the element `name` of list, or an R error naming it --- */
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

/* A failed status as an R object of class somgpu_status: list(code, message, api_status,
 * api_status_name, log, condition); condition: an R error to raise as it is, or NULL. */
SEXP r_status(const som_status *st, SEXP condition);

/* --- problems, backends, statuses (r_glue.c) --- */
/* The problem of list(size, restart, iter_max, ...) on the data d (see C_train). */
void problem_of(const som_data *d, SEXP spec, som_problem *p);
/* The backend of list(name, threads, ...); SOM_ERR_INVALID when an OpenCL context is gone. */
int backend_of(SEXP spec, som_backend *be, som_cpu_cfg *cpu, som_ocl_cfg *ocl,
               som_status *st);
/* A list of every map's weights (size x m matrices), w[i] pointing into each. */
SEXP r_weights_list(const som_problem *p, double ***w);
/* r_status(st, condition), and st cleared. */
SEXP status_out(som_status *st, SEXP condition);

/* --- the data (r_data.c) --- */
/* The data the core reads: a double matrix (in memory), or a file-backed matrix (R's
 * somgpu_file list: the file is opened by r_data_open, read a window at a time). */
typedef struct {
    som_data d;
    int is_file;
    som_file_spec spec;
    som_file file;
} r_data;
/* The data y with the distance of spec (NULL, or a list with col_w and missing); R errors
 * only here, before anything is opened. */
void r_data_of(SEXP y, SEXP spec, r_data *rd);
/* Open a file's data (nothing for a matrix); r_data_close releases it on every path. */
int r_data_open(r_data *rd, som_status *st);
void r_data_close(r_data *rd);

/* --- hooks (r_hooks.c) --- */
typedef struct {
    SEXP keep;       /* the caller's protected list of R_HOOKS_KEEP: holds what follows */
    SEXP bar;        /* cli progress bar, or R_NilValue */
    SEXP fn;         /* R function(fraction), or R_NilValue */
    SEXP conds;      /* c("error", "interrupt"): what may not jump over the core */
    SEXP cont;       /* R_UnwindProtect's continuation token when fn is set */
    SEXP error;      /* an error signalled while checking for interrupts (a time limit) */
    double fraction;
    double fn_called; /* som_now_seconds() at the last call of fn */
    int interrupted;  /* an interrupt arrived while fn ran */
    int unwinding;    /* fn jumped out: continue that jump after the core's cleanup */
} glue_ud;

/* Hooks with progress: `progress` is TRUE (a cli bar named `name`), FALSE, or an R
 * function of the share done. `keep` is a protected list of R_HOOKS_KEEP that holds what
 * they make. An interrupt stops the core; so does an error R signals while checking for
 * one (a time limit): r_hooks_end then hands it back. */
#define R_HOOKS_KEEP 4
som_hooks r_hooks_start(glue_ud *ud, SEXP keep, SEXP progress, const char *name);
/* Hooks that only check for interrupts. */
som_hooks r_hooks_interrupt_only(glue_ud *ud, SEXP keep);
/* After the core returned: close the bar; if the progress function jumped out, clear st
 * and continue that jump (this does not return then). Returns the error signalled while
 * checking for interrupts, or R_NilValue. */
SEXP r_hooks_end(glue_ud *ud, som_status *st);

/* --- OpenCL (r_opencl.c) --- */
/* The context of an external pointer from C_ocl_open, NULL when closed or not one. */
som_ocl_ctx *r_ocl_ctx(SEXP ptr);

#endif
