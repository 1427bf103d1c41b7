/* r_args.c: R values read into the core's structs, and the core's statuses made R values:
 * the named lists R passes (read by name), problems, backends, OpenCL contexts in external
 * pointers, weights lists, status objects. Every other r_*.c file reads through these; none
 * of these calls back into them. */
#include <stdlib.h>
#include <string.h>

#include <R.h>

#include "r_args.h"

/* --- named lists ------------------------------------------------------------------- */

/* The position of element `name` in list, or -1. */
static R_xlen_t position(SEXP list, const char *name)
{
    SEXP names = Rf_getAttrib(list, R_NamesSymbol);
    R_xlen_t i;
    if (TYPEOF(list) == VECSXP && TYPEOF(names) == STRSXP)
        for (i = 0; i < XLENGTH(list); i++)
            if (strcmp(CHAR(STRING_ELT(names, i)), name) == 0) return i;
    return -1;
}

SEXP r_opt(SEXP list, const char *name)
{
    const R_xlen_t i = position(list, name);
    return i < 0 ? R_NilValue : VECTOR_ELT(list, i);
}

SEXP r_elt(SEXP list, const char *name)
{
    const R_xlen_t i = position(list, name);
    if (i < 0) Rf_error("somgpu: internal error: no element '%s' in the list passed to C", name);
    return VECTOR_ELT(list, i);
}

int r_int(SEXP list, const char *name)
{
    return Rf_asInteger(r_elt(list, name));
}

double r_real(SEXP list, const char *name)
{
    return Rf_asReal(r_elt(list, name));
}

/* A double vector of length n (its values, R's own), or an internal error. */
const double *r_reals(SEXP list, const char *name, int n)
{
    SEXP v = r_elt(list, name);
    if (TYPEOF(v) != REALSXP || XLENGTH(v) != n)
        Rf_error("somgpu: internal error: `%s` must hold %d doubles", name, n);
    return REAL(v);
}

int r_flag(SEXP list, const char *name)
{
    return Rf_asLogical(r_elt(list, name)) == TRUE;
}

int r_choice(SEXP list, const char *name, const char *const *choices)
{
    SEXP v = r_elt(list, name);
    int i;
    if (Rf_isString(v) && XLENGTH(v) == 1)
        for (i = 0; choices[i]; i++)
            if (strcmp(CHAR(STRING_ELT(v, 0)), choices[i]) == 0) return i;
    Rf_error("somgpu: internal error: '%s' is not one of the choices C knows", name);
    return -1; /* not reached */
}

SEXP r_status(const som_status *st, SEXP condition)
{
    const char *names[] = {"code", "message", "api_status", "api_status_name", "log",
                           "condition", ""};
    SEXP out = PROTECT(Rf_mkNamed(VECSXP, names));
    SET_VECTOR_ELT(out, 5, condition);
    SET_VECTOR_ELT(out, 0, Rf_ScalarInteger(st->code));
    SET_VECTOR_ELT(out, 1, Rf_mkString(st->message));
    SET_VECTOR_ELT(out, 2, Rf_ScalarInteger(st->api_status));
    SET_VECTOR_ELT(out, 3, Rf_mkString(st->api_status ? som_ocl_status_name(st->api_status) : ""));
    SET_VECTOR_ELT(out, 4, st->log ? Rf_mkString(st->log) : Rf_allocVector(STRSXP, 0));
    Rf_setAttrib(out, R_ClassSymbol, Rf_mkString("somgpu_status"));
    UNPROTECT(1);
    return out;
}

/* The status as an R object (with the error that stopped the core, or NULL), and the
 * status cleared. */
SEXP status_out(som_status *st, SEXP condition)
{
    SEXP out = r_status(st, condition);
    som_status_clear(st);
    return out;
}

/* --- problems --------------------------------------------------------- */

static const char *const init_names[] = {"uniform", "sample", "given", NULL};
const char *const som_algorithm_names[] = {"online", "batch", NULL};

/* The problem of list(size, restart, iter_max, sigma0 (per map), eta0, init, init_w, fill,
 * seed, algorithm, batch_block, col_w, missing) on the data d (the trace is set by the
 * caller). */
void problem_of(const som_data *d, SEXP problem, som_problem *p)
{
    SEXP size = r_elt(problem, "size"), restart = r_elt(problem, "restart"), fill = r_elt(problem, "fill");
    memset(p, 0, sizeof *p);
    if (TYPEOF(size) != INTSXP || TYPEOF(restart) != INTSXP || XLENGTH(size) != XLENGTH(restart))
        Rf_error("somgpu: internal error: size and restart must be integer vectors alike");
    p->data = *d;
    p->nmaps = LENGTH(size);
    p->size = INTEGER(size);
    p->restart = INTEGER(restart);
    p->iter_max = r_int(problem, "iter_max");
    p->sigma0 = r_reals(problem, "sigma0", p->nmaps);
    p->eta0 = r_real(problem, "eta0");
    p->init = r_choice(problem, "init", init_names);
    p->seed = (uint32_t)(int64_t)r_real(problem, "seed");
    p->algorithm = r_choice(problem, "algorithm", som_algorithm_names);
    p->batch_block = r_int(problem, "batch_block");
    if (!Rf_isNull(fill)) {
        if (TYPEOF(fill) != REALSXP || XLENGTH(fill) != p->data.m)
            Rf_error("somgpu: internal error: fill must hold a double per column");
        p->fill = REAL(fill);
    }
    if (p->init == SOM_INIT_GIVEN) {
        SEXP iw = r_elt(problem, "init_w");
        const double **w = (const double **)R_alloc((size_t)p->nmaps, sizeof *w);
        int i;
        if (TYPEOF(iw) != VECSXP || LENGTH(iw) != p->nmaps)
            Rf_error("somgpu: internal error: init_w must hold a matrix per map");
        for (i = 0; i < p->nmaps; i++) { /* NULL: that map's uniform initial weights */
            SEXP wi = VECTOR_ELT(iw, i);
            if (!Rf_isNull(wi) && (TYPEOF(wi) != REALSXP ||
                                   XLENGTH(wi) != (R_xlen_t)p->size[i] * p->data.m))
                Rf_error("somgpu: internal error: init_w must hold a matrix per map");
            w[i] = Rf_isNull(wi) ? NULL : REAL(wi);
        }
        p->init_w = w;
    }
}

const char *const som_precision_names[] = {"double", "single", NULL};

SEXP r_weights_list(const som_problem *p, double ***w)
{
    SEXP weights = PROTECT(Rf_allocVector(VECSXP, p->nmaps));
    int i;
    *w = (double **)R_alloc((size_t)p->nmaps, sizeof **w);
    for (i = 0; i < p->nmaps; i++) {
        SEXP wi = Rf_allocMatrix(REALSXP, p->size[i], p->data.m);
        SET_VECTOR_ELT(weights, i, wi);
        (*w)[i] = REAL(wi);
    }
    UNPROTECT(1);
    return weights;
}

som_ocl_ctx *r_ocl_ctx(SEXP ptr)
{
    return TYPEOF(ptr) == EXTPTRSXP ? (som_ocl_ctx *)R_ExternalPtrAddr(ptr) : NULL;
}
