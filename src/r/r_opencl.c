/* r_opencl.c: OpenCL devices and contexts from R. A context lives in an external pointer
 * whose finalizer releases it; R keeps one per device and precision for the session. */
#include <stdlib.h>

#include "r_args.h"

/* The OpenCL devices as a list of columns (R makes the data frame). */
SEXP C_ocl_devices(void)
{
    const char *names[] = {"platform", "name", "type", "version", "compute_units",
                           "global_mem", "max_alloc", "local_mem", "max_wg", "fp64", ""};
    som_ocl_device *d = NULL;
    som_status st;
    int n = 0, i, rc;
    SEXP out;
    som_status_init(&st);
    rc = som_ocl_list(&d, &n, &st);
    if (rc != SOM_OK) {
        out = r_status(&st, R_NilValue);
        som_status_clear(&st);
        return out;
    }
    out = PROTECT(Rf_mkNamed(VECSXP, names));
    for (i = 0; i < 4; i++) SET_VECTOR_ELT(out, i, Rf_allocVector(STRSXP, n));
    SET_VECTOR_ELT(out, 4, Rf_allocVector(INTSXP, n));
    for (i = 5; i < 9; i++) SET_VECTOR_ELT(out, i, Rf_allocVector(REALSXP, n));
    SET_VECTOR_ELT(out, 9, Rf_allocVector(LGLSXP, n));
    for (i = 0; i < n; i++) {
        SET_STRING_ELT(VECTOR_ELT(out, 0), i, Rf_mkChar(d[i].platform));
        SET_STRING_ELT(VECTOR_ELT(out, 1), i, Rf_mkChar(d[i].name));
        SET_STRING_ELT(VECTOR_ELT(out, 2), i, Rf_mkChar(d[i].type));
        SET_STRING_ELT(VECTOR_ELT(out, 3), i, Rf_mkChar(d[i].version));
        INTEGER(VECTOR_ELT(out, 4))[i] = d[i].compute_units;
        REAL(VECTOR_ELT(out, 5))[i] = d[i].global_mem;
        REAL(VECTOR_ELT(out, 6))[i] = d[i].max_alloc;
        REAL(VECTOR_ELT(out, 7))[i] = d[i].local_mem;
        REAL(VECTOR_ELT(out, 8))[i] = d[i].max_wg;
        LOGICAL(VECTOR_ELT(out, 9))[i] = d[i].fp64;
    }
    free(d);
    UNPROTECT(1);
    return out;
}

static void ctx_finalizer(SEXP ptr)
{
    som_ocl_close(r_ocl_ctx(ptr));
    R_ClearExternalPtr(ptr);
}

/* Open a device and build its kernels: device = list(index, 1-based; precision, "double"
 * or "single"; source, NULL or a string that replaces the embedded kernels, for tests).
 * Returns an external pointer whose finalizer releases the context, or a somgpu_status. */
SEXP C_ocl_open(SEXP device)
{
    som_ocl_ctx *ctx = NULL;
    som_status st;
    SEXP source = r_elt(device, "source"), out;
    int rc;
    const char *src = Rf_isString(source) ? CHAR(STRING_ELT(source, 0)) : NULL;
    const int precision = r_choice(device, "precision", som_precision_names) == 1 ? SOM_SINGLE : SOM_DOUBLE;
    som_status_init(&st);
    rc = som_ocl_open(r_int(device, "index") - 1, precision, src, &ctx, &st);
    if (rc != SOM_OK) {
        out = r_status(&st, R_NilValue);
        som_status_clear(&st);
        return out;
    }
    out = PROTECT(R_MakeExternalPtr(ctx, R_NilValue, R_NilValue));
    R_RegisterCFinalizerEx(out, ctx_finalizer, TRUE);
    UNPROTECT(1);
    return out;
}

/* Release a context now (the finalizer then has nothing left to do). */
SEXP C_ocl_close(SEXP ptr)
{
    if (TYPEOF(ptr) == EXTPTRSXP) ctx_finalizer(ptr);
    return R_NilValue;
}

SEXP C_ocl_valid(SEXP ptr)
{
    return Rf_ScalarLogical(r_ocl_ctx(ptr) != NULL);
}

