/* r_groups.c: Gaussian groups (som_groups.h) for R/rule_gaussian.R and R/math_mixture.R: the
 * agglomeration of a map's cells (agglomerate_cells()) and EM over the rows
 * (mixture_em()); for R/math_genie.R the rows' nearest rows (som_nearest.h), their
 * minimum spanning tree and Genie's linkage on it (som_genie.h); for R/rule_graph.R their
 * shared-neighbour graph and its communities (som_graph.h). */
#include <limits.h>
#include <string.h>

#include "r_glue.h"
#include "som_groups.h"
#include "som_genie.h"
#include "som_graph.h"
#include "som_nearest.h"

static const char *const form_names[] = {"full", "diag", "sphere", NULL};

/* The covariance model of list(form ("full", "diag", "sphere"), shared, psi (d x d), nu, and with
 * categorical columns levels (per block) and alpha (concatenated)) for d Gaussian
 * columns. */
static void model_of(SEXP model, int d, som_cov_model *f)
{
    SEXP levels = r_opt(model, "levels");
    int b;
    f->d = d;
    f->form = (som_cov_form)r_choice(model, "form", form_names);
    f->shared = r_flag(model, "shared");
    f->psi = r_reals(model, "psi", d * d);
    f->nu = r_real(model, "nu");
    f->nblocks = Rf_isNull(levels) ? 0 : LENGTH(levels);
    f->levels = f->nblocks ? INTEGER(levels) : NULL;
    f->L = 0;
    for (b = 0; b < f->nblocks; b++) f->L += f->levels[b];
    f->alpha = f->nblocks ? r_reals(model, "alpha", f->L) : NULL;
    if (f->nblocks && TYPEOF(levels) != INTSXP)
        Rf_error("somgpu: internal error: the categorical blocks' levels must be integers");
}

/* Cells' rows n (N), sums s (d x N: a column per cell), cross-products q (d x d x N) and
 * levels' counts c (L x N, or NULL); model = model_of()'s list with n and down_to. The
 * path from a group per cell with rows down: a list, each partition as list(labels (each
 * cell's group, 0 without rows), rows (each group's), loglik). */
SEXP C_agglomerate(SEXP n, SEXP s, SEXP q, SEXP c, SEXP model)
{
    const char *names[] = {"labels", "rows", "loglik", ""};
    const int N = LENGTH(n);
    som_cov_model f;
    som_group_path path;
    som_status st;
    glue_ud ud;
    som_hooks hooks;
    SEXP out, keep;
    int rc, t, k;

    model_of(model, Rf_nrows(s), &f);
    if (TYPEOF(n) != REALSXP || TYPEOF(s) != REALSXP || TYPEOF(q) != REALSXP ||
        Rf_ncols(s) != N || XLENGTH(q) != (R_xlen_t)f.d * f.d * N ||
        (!Rf_isNull(c) && (TYPEOF(c) != REALSXP || XLENGTH(c) != (R_xlen_t)f.L * N)) ||
        (Rf_isNull(c) && f.L))
        Rf_error("somgpu: internal error: the cells' moments must be doubles of matching dimensions");
    f.n = r_real(model, "n");
    path.labels = (int *)R_alloc((size_t)N * N, sizeof(int));
    path.rows = (double *)R_alloc((size_t)N * N, sizeof(double));
    path.loglik = (double *)R_alloc((size_t)N, sizeof(double));
    som_status_init(&st);
    /* an interrupt or a time limit (setTimeLimit()) stops it between two pairs */
    keep = PROTECT(Rf_allocVector(VECSXP, R_HOOKS_KEEP));
    hooks = r_hooks_interrupt_only(&ud, keep);
    rc = som_agglomerate(N, REAL(n), REAL(s), REAL(q), Rf_isNull(c) ? NULL : REAL(c), &f,
                         r_int(model, "down_to"), &hooks, &path, &st);
    if (rc != SOM_OK) {
        out = status_out(&st, r_hooks_end(&ud, &st));
        UNPROTECT(1);
        return out;
    }
    r_hooks_end(&ud, &st);
    UNPROTECT(1);
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

/* EM from the rows x (n x m) and their groups labels (1..G): columns = list(gauss, cols,
 * height), 1-based columns of x (Gaussian; the categorical blocks' indicators, and each
 * block's height); model = model_of()'s list with iter and tol. list(pro, mean (G x m),
 * cov (d x d x G)), or NULL when a group emptied or a covariance degenerated. */
SEXP C_mixture_em(SEXP x, SEXP labels, SEXP columns, SEXP model)
{
    const char *names[] = {"pro", "mean", "cov", ""};
    const int n = Rf_nrows(x), m = Rf_ncols(x);
    SEXP gauss = r_elt(columns, "gauss"), cols = r_elt(columns, "cols");
    const int d = LENGTH(gauss);
    som_cov_model f;
    som_mixture_columns mc;
    som_status st;
    SEXP out, dim;
    int G = 0, i, rc, fitted, *g0, *c0;

    if (TYPEOF(x) != REALSXP || TYPEOF(labels) != INTSXP || LENGTH(labels) != n ||
        TYPEOF(gauss) != INTSXP || TYPEOF(cols) != INTSXP)
        Rf_error("somgpu: internal error: EM needs double rows, a group for each, and their columns");
    model_of(model, d, &f);
    if (LENGTH(cols) != f.L)
        Rf_error("somgpu: internal error: EM's categorical columns and levels disagree");
    g0 = (int *)R_alloc((size_t)d + 1, sizeof *g0); /* 0-based columns */
    c0 = (int *)R_alloc((size_t)f.L + 1, sizeof *c0);
    for (i = 0; i < d; i++) g0[i] = INTEGER(gauss)[i] - 1;
    for (i = 0; i < f.L; i++) c0[i] = INTEGER(cols)[i] - 1;
    for (i = 0; i < d; i++)
        if (g0[i] < 0 || g0[i] >= m) Rf_error("somgpu: internal error: a Gaussian column out of range");
    for (i = 0; i < f.L; i++)
        if (c0[i] < 0 || c0[i] >= m) Rf_error("somgpu: internal error: a categorical column out of range");
    mc.m = m;
    mc.gauss = g0;
    mc.cols = c0;
    mc.height = f.nblocks ? r_reals(columns, "height", f.nblocks) : NULL;
    for (i = 0; i < n; i++)
        if (INTEGER(labels)[i] > G) G = INTEGER(labels)[i];
    f.n = n;
    out = PROTECT(Rf_mkNamed(VECSXP, names));
    SET_VECTOR_ELT(out, 0, Rf_allocVector(REALSXP, G));
    SET_VECTOR_ELT(out, 1, Rf_allocMatrix(REALSXP, G, m));
    dim = PROTECT(Rf_allocVector(INTSXP, 3));
    INTEGER(dim)[0] = d;
    INTEGER(dim)[1] = d;
    INTEGER(dim)[2] = G;
    SET_VECTOR_ELT(out, 2, Rf_allocArray(REALSXP, dim));
    som_status_init(&st);
    rc = som_mixture_em(REAL(x), n, &mc, G, INTEGER(labels), &f, r_int(model, "iter"),
                        r_real(model, "tol"), REAL(VECTOR_ELT(out, 0)),
                        REAL(VECTOR_ELT(out, 1)), REAL(VECTOR_ELT(out, 2)), &fitted, &st);
    UNPROTECT(2);
    if (rc != SOM_OK) return status_out(&st, R_NilValue);
    return fitted ? out : R_NilValue;
}

/* Points x (d x n, a point per column) against ref (d x r), m, neighbours (TRUE: the m
 * nearest too): list(nearest (1-based), mth (the m-th smallest squared distance), knn (an
 * m x n integer matrix of the m nearest, 1-based, or NULL)) per point (som_nearest()). */
SEXP C_nearest_rows(SEXP x, SEXP ref, SEXP m, SEXP neighbours)
{
    const char *names[] = {"nearest", "mth", "knn", ""};
    int n, r, d, mm, want;
    SEXP out;
    if (TYPEOF(x) != REALSXP || TYPEOF(ref) != REALSXP || !Rf_isMatrix(x) || !Rf_isMatrix(ref) ||
        Rf_nrows(x) != Rf_nrows(ref) || TYPEOF(m) != INTSXP || LENGTH(m) != 1 ||
        TYPEOF(neighbours) != LGLSXP || LENGTH(neighbours) != 1)
        Rf_error("somgpu: internal error: nearest rows need double points of one dimension and m");
    d = Rf_nrows(x);
    n = Rf_ncols(x);
    r = Rf_ncols(ref);
    mm = INTEGER(m)[0];
    want = LOGICAL(neighbours)[0] == TRUE;
    if (r < 1 || mm < 1 || mm > r)
        Rf_error("somgpu: internal error: m must be between 1 and the reference points");
    out = PROTECT(Rf_mkNamed(VECSXP, names));
    SET_VECTOR_ELT(out, 0, Rf_allocVector(INTSXP, n));
    SET_VECTOR_ELT(out, 1, Rf_allocVector(REALSXP, n));
    if (want) SET_VECTOR_ELT(out, 2, Rf_allocMatrix(INTSXP, mm, n));
    som_nearest(REAL(x), n, REAL(ref), r, d, mm, INTEGER(VECTOR_ELT(out, 0)),
                REAL(VECTOR_ELT(out, 1)), (double *)R_alloc((size_t)mm, sizeof(double)),
                want ? INTEGER(VECTOR_ELT(out, 2)) : NULL,
                want ? (int *)R_alloc((size_t)mm, sizeof(int)) : NULL);
    UNPROTECT(1);
    return out;
}

/* Points x (d x n, a point per column, n >= 2): list(from, to (1-based), weight) of their
 * minimum spanning tree, lightest edge first (som_mst()). */
SEXP C_mst_rows(SEXP x)
{
    const char *names[] = {"from", "to", "weight", ""};
    int n, d;
    SEXP out;
    if (TYPEOF(x) != REALSXP || !Rf_isMatrix(x) || Rf_ncols(x) < 2)
        Rf_error("somgpu: internal error: a spanning tree needs at least 2 double points");
    d = Rf_nrows(x);
    n = Rf_ncols(x);
    out = PROTECT(Rf_mkNamed(VECSXP, names));
    SET_VECTOR_ELT(out, 0, Rf_allocVector(INTSXP, n - 1));
    SET_VECTOR_ELT(out, 1, Rf_allocVector(INTSXP, n - 1));
    SET_VECTOR_ELT(out, 2, Rf_allocVector(REALSXP, n - 1));
    som_mst(REAL(x), n, d, INTEGER(VECTOR_ELT(out, 0)), INTEGER(VECTOR_ELT(out, 1)),
            REAL(VECTOR_ELT(out, 2)), (double *)R_alloc(2 * (size_t)n, sizeof(double)),
            (int *)R_alloc(6 * (size_t)n, sizeof(int)));
    UNPROTECT(1);
    return out;
}

/* Genie's linkage on the spanning tree (from, to: 1-based, lightest first) of p points:
 * a p x k_max integer matrix, column k the partition into k groups (0 where k > p). */
SEXP C_genie(SEXP from, SEXP to, SEXP p, SEXP k_max, SEXP gini)
{
    int np, k, e;
    SEXP out;
    if (TYPEOF(from) != INTSXP || TYPEOF(to) != INTSXP || TYPEOF(p) != INTSXP ||
        TYPEOF(k_max) != INTSXP || TYPEOF(gini) != REALSXP)
        Rf_error("somgpu: internal error: Genie's linkage needs integer edges and counts");
    np = INTEGER(p)[0];
    k = INTEGER(k_max)[0];
    if (np < 1 || k < 1 || LENGTH(from) != np - 1 || LENGTH(to) != np - 1)
        Rf_error("somgpu: internal error: a spanning tree of p points has p - 1 edges");
    for (e = 0; e < np - 1; e++)
        if (INTEGER(from)[e] < 1 || INTEGER(from)[e] > np || INTEGER(to)[e] < 1 ||
            INTEGER(to)[e] > np)
            Rf_error("somgpu: internal error: an edge's end out of range");
    out = PROTECT(Rf_allocMatrix(INTSXP, np, k));
    memset(INTEGER(out), 0, sizeof(int) * (size_t)np * (size_t)k);
    som_genie(INTEGER(from), INTEGER(to), np, k, REAL(gini)[0], INTEGER(out),
              (int *)R_alloc(4 * (size_t)np, sizeof(int)),
              (double *)R_alloc((size_t)np, sizeof(double)));
    UNPROTECT(1);
    return out;
}

/* The shared-neighbour graph of n points from their k nearest (knn: a k x n integer
 * matrix, 1-based, each point among its own), pruned below `prune`, and its Louvain
 * communities at `resolution`, the first level visited in `order` (a permutation of 1..n):
 * list(membership (1-based), modularity, edges (the graph's, each counted once), between (C
 * x C, C communities: the weight of the graph's entries from one to another, each edge
 * counted from both ends; the diagonal within; NULL beyond 2,000 communities, a graph of
 * scattered rows whose matrix would be large)). */
SEXP C_graph_communities(SEXP knn, SEXP prune, SEXP resolution, SEXP order)
{
    const char *names[] = {"membership", "modularity", "edges", "between", ""};
    int n, k, i, C, *start, *adj, *ord, *iwork, *memb;
    long e;
    double *w, *between;
    SEXP out;
    if (TYPEOF(knn) != INTSXP || !Rf_isMatrix(knn) || TYPEOF(prune) != REALSXP ||
        LENGTH(prune) != 1 || TYPEOF(resolution) != REALSXP || LENGTH(resolution) != 1 ||
        TYPEOF(order) != INTSXP)
        Rf_error("somgpu: internal error: a graph needs integer neighbours, a prune and a resolution");
    k = Rf_nrows(knn);
    n = Rf_ncols(knn);
    if (n < 1 || k < 1 || LENGTH(order) != n)
        Rf_error("somgpu: internal error: a graph needs points, neighbours and an order of them");
    for (R_xlen_t t = 0; t < XLENGTH(knn); t++)
        if (INTEGER(knn)[t] < 1 || INTEGER(knn)[t] > n)
            Rf_error("somgpu: internal error: a neighbour out of range");
    ord = (int *)R_alloc((size_t)n, sizeof(int));
    memset(ord, 0, sizeof(int) * (size_t)n);
    for (i = 0; i < n; i++) {
        int o = INTEGER(order)[i];
        if (o < 1 || o > n || ord[o - 1])
            Rf_error("somgpu: internal error: the order is no permutation of the points");
        ord[o - 1] = 1;
    }
    for (i = 0; i < n; i++) ord[i] = INTEGER(order)[i] - 1;
    iwork = (int *)R_alloc(3 * (size_t)n + (size_t)n * k + 1, sizeof(int));
    e = som_snn_graph(INTEGER(knn), n, k, REAL(prune)[0], NULL, NULL, NULL, iwork);
    if (e > INT_MAX / 4)
        Rf_error("somgpu: internal error: a shared-neighbour graph of over %d entries", INT_MAX / 4);
    start = (int *)R_alloc((size_t)n + 1, sizeof(int));
    adj = (int *)R_alloc((size_t)e + 1, sizeof(int));
    w = (double *)R_alloc((size_t)e + 1, sizeof(double));
    som_snn_graph(INTEGER(knn), n, k, REAL(prune)[0], start, adj, w, iwork);
    out = PROTECT(Rf_mkNamed(VECSXP, names));
    SET_VECTOR_ELT(out, 0, Rf_allocVector(INTSXP, n));
    SET_VECTOR_ELT(out, 2, Rf_ScalarReal((double)e / 2));
    SET_VECTOR_ELT(out, 1, Rf_ScalarReal(som_louvain(
        start, adj, w, n, REAL(resolution)[0], ord, INTEGER(VECTOR_ELT(out, 0)),
        (double *)R_alloc(4 * (size_t)n + 2 * (size_t)e + 1, sizeof(double)),
        (int *)R_alloc(6 * (size_t)n + 2 * (size_t)e + 2, sizeof(int)))));
    memb = INTEGER(VECTOR_ELT(out, 0));
    for (C = 0, i = 0; i < n; i++)
        if (memb[i] > C) C = memb[i];
    if (C > 2000) {
        UNPROTECT(1);
        return out;
    }
    SET_VECTOR_ELT(out, 3, Rf_allocMatrix(REALSXP, C, C));
    between = REAL(VECTOR_ELT(out, 3));
    memset(between, 0, sizeof(double) * (size_t)C * (size_t)C);
    for (i = 0; i < n; i++)
        for (long p = start[i]; p < start[i + 1]; p++)
            between[(memb[i] - 1) + (size_t)C * (memb[adj[p]] - 1)] += w[p];
    UNPROTECT(1);
    return out;
}
