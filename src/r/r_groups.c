/* r_groups.c: the agglomeration of a map's cells into Gaussian groups (som_groups.h) for
 * R/groups.R's agglomerate_cells(). */
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
