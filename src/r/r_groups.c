/* r_groups.c: Gaussian groups (som_groups.h) for R/groups.R and R/mixture.R: the
 * agglomeration of a map's cells (agglomerate_cells()) and EM over the rows
 * (mixture_em()). */
#include <string.h>

#include "r_glue.h"
#include "som_groups.h"

static const char *const shape_names[] = {"full", "diag", "sphere", NULL};

/* Cells' rows n (N), sums s (d x N: a column per cell) and cross-products q (d x d x N);
 * family = list(shape ("full", "diag", "sphere"), shared, n, psi (d x d), nu, down_to).
 * The path from a group per cell with rows down: a list, each partition as list(labels
 * (each cell's group, 0 without rows), rows (each group's), loglik). */
SEXP C_agglomerate(SEXP n, SEXP s, SEXP q, SEXP family)
{
    const char *names[] = {"labels", "rows", "loglik", ""};
    const int N = LENGTH(n);
    som_cov_family f;
    som_group_path path;
    som_status st;
    SEXP out;
    int rc, t, k;

    f.d = Rf_nrows(s);
    if (TYPEOF(n) != REALSXP || TYPEOF(s) != REALSXP || TYPEOF(q) != REALSXP ||
        Rf_ncols(s) != N || XLENGTH(q) != (R_xlen_t)f.d * f.d * N)
        Rf_error("somgpu: internal error: the cells' moments must be doubles of one shape");
    f.shape = (som_cov_shape)r_choice(family, "shape", shape_names);
    f.shared = r_flag(family, "shared");
    f.n = r_real(family, "n");
    f.psi = r_reals(family, "psi", f.d * f.d);
    f.nu = r_real(family, "nu");
    path.labels = (int *)R_alloc((size_t)N * N, sizeof(int));
    path.rows = (double *)R_alloc((size_t)N * N, sizeof(double));
    path.loglik = (double *)R_alloc((size_t)N, sizeof(double));
    som_status_init(&st);
    rc = som_agglomerate(N, REAL(n), REAL(s), REAL(q), &f, r_int(family, "down_to"), &path, &st);
    if (rc != SOM_OK) return status_out(&st, R_NilValue);
    out = PROTECT(Rf_allocVector(VECSXP, path.steps));
    for (t = 0; t < path.steps; t++) {
        SEXP step = PROTECT(Rf_mkNamed(VECSXP, names));
        int groups = 0; /* the highest label: the groups of step t */
        SEXP labels = Rf_allocVector(INTSXP, N), rows;
        SET_VECTOR_ELT(step, 0, labels);
        memcpy(INTEGER(labels), path.labels + (size_t)t * N, (size_t)N * sizeof(int));
        for (k = 0; k < N; k++)
            if (INTEGER(labels)[k] > groups) groups = INTEGER(labels)[k];
        rows = Rf_allocVector(REALSXP, groups);
        SET_VECTOR_ELT(step, 1, rows);
        memcpy(REAL(rows), path.rows + (size_t)t * N, (size_t)groups * sizeof(double));
        SET_VECTOR_ELT(step, 2, Rf_ScalarReal(path.loglik[t]));
        SET_VECTOR_ELT(out, t, step);
        UNPROTECT(1);
    }
    UNPROTECT(1);
    return out;
}

/* EM from the rows x (n x d) and their groups labels (1..G): family = list(shape, shared,
 * psi, nu, iter, tol). list(pro, mean (G x d), cov (d x d x G)), or NULL when a group
 * emptied or a covariance degenerated. */
SEXP C_mixture_em(SEXP x, SEXP labels, SEXP family)
{
    const char *names[] = {"pro", "mean", "cov", ""};
    const int n = Rf_nrows(x), d = Rf_ncols(x);
    som_cov_family f;
    som_status st;
    SEXP out, dim;
    int G = 0, i, rc, fitted;

    if (TYPEOF(x) != REALSXP || TYPEOF(labels) != INTSXP || LENGTH(labels) != n)
        Rf_error("somgpu: internal error: EM needs double rows and a group for each");
    for (i = 0; i < n; i++)
        if (INTEGER(labels)[i] > G) G = INTEGER(labels)[i];
    f.d = d;
    f.shape = (som_cov_shape)r_choice(family, "shape", shape_names);
    f.shared = r_flag(family, "shared");
    f.n = n;
    f.psi = r_reals(family, "psi", d * d);
    f.nu = r_real(family, "nu");
    out = PROTECT(Rf_mkNamed(VECSXP, names));
    SET_VECTOR_ELT(out, 0, Rf_allocVector(REALSXP, G));
    SET_VECTOR_ELT(out, 1, Rf_allocMatrix(REALSXP, G, d));
    dim = PROTECT(Rf_allocVector(INTSXP, 3));
    INTEGER(dim)[0] = d;
    INTEGER(dim)[1] = d;
    INTEGER(dim)[2] = G;
    SET_VECTOR_ELT(out, 2, Rf_allocArray(REALSXP, dim));
    som_status_init(&st);
    rc = som_mixture_em(REAL(x), n, d, G, INTEGER(labels), &f, r_int(family, "iter"),
                        r_real(family, "tol"), REAL(VECTOR_ELT(out, 0)),
                        REAL(VECTOR_ELT(out, 1)), REAL(VECTOR_ELT(out, 2)), &fitted, &st);
    UNPROTECT(2);
    if (rc != SOM_OK) return status_out(&st, R_NilValue);
    return fitted ? out : R_NilValue;
}
