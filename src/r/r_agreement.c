/* r_agreement.c: the adjusted Rand index of many pairs of clusterings (som_agreement.h) for
 * R/math_agreement.R's ari_pairs(). */
#include "r_glue.h"
#include "som_agreement.h"

/* C: an n x B integer matrix (n >= 2, clusters 1..k or NA); pairs: a 2 x P integer matrix
 * of 1-based columns of C; k: the most clusters. The P indices. */
SEXP C_ari_pairs(SEXP C, SEXP pairs, SEXP k)
{
    int64_t n, i;
    int B, P, K, p;
    int *pr;
    const int *c;
    SEXP out;
    if (TYPEOF(C) != INTSXP || !Rf_isMatrix(C) || TYPEOF(pairs) != INTSXP ||
        !Rf_isMatrix(pairs) || Rf_nrows(pairs) != 2 || TYPEOF(k) != INTSXP || LENGTH(k) != 1)
        Rf_error("somgpu: internal error: ari_pairs() needs integer matrices and k");
    n = Rf_nrows(C);
    B = Rf_ncols(C);
    P = Rf_ncols(pairs);
    K = INTEGER(k)[0];
    if (n < 2 || K < 1 || K > 46340) /* k * k cells within an int */
        Rf_error("somgpu: internal error: ari_pairs() needs 2 rows and 1 to 46340 clusters");
    c = INTEGER(C);
    for (i = 0; i < n * B; i++)
        if (c[i] != NA_INTEGER && (c[i] < 1 || c[i] > K)) Rf_error("somgpu: internal error: a cluster outside 1..k");
    pr = (int *)R_alloc(2 * (size_t)P, sizeof *pr);
    for (p = 0; p < 2 * P; p++) {
        pr[p] = INTEGER(pairs)[p] - 1;
        if (pr[p] < 0 || pr[p] >= B) Rf_error("somgpu: internal error: a pair outside the columns");
    }
    out = PROTECT(Rf_allocVector(REALSXP, P));
    som_ari_pairs(c, n, B, pr, P, K, (int *)R_alloc((size_t)K * K, sizeof(int)),
                  (double *)R_alloc(B > 0 ? (size_t)B : 1, sizeof(double)), REAL(out));
    UNPROTECT(1);
    return out;
}
