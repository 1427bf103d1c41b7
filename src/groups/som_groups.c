/* som_groups.c: the greedy agglomeration of a map's cells into Gaussian groups (see
 * som_groups.h). The arithmetic follows R/rule_gaussian.R's rule term by term: a group's
 * log-likelihood from its scatter W about its mean over n rows, with the covariance
 * estimate S = (W + psi) / (n + nu) (diagonal: its diagonal; spherical: its mean
 * variance), is -(n d log(2 pi) + n log det S + tr(S^-1 W)) / 2; a full S through its
 * Cholesky factor (-Inf should it not be positive definite). Ties go to the first pair in
 * (i, j) order with i < j, the groups ordered by their lowest cell. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "som_groups.h"


/* The workspace of one agglomeration: the live groups' moments (position k: rows n[k],
 * sums s[k * d ..], cross-products q[k * d * d ..]), their own log-likelihoods (a
 * covariance per group), the shared scatter, the gains of every pair (K x K, upper
 * triangle, row stride N), each cell's group position (-1: none), and scratch. */
typedef struct {
    int N, d, K, L;
    double *n, *s, *q, *c, *own, *cat, *wall, *gain, *w, *chol, *inv, *cu;
    int *grp;
    /* a shared full covariance: A = wall + psi, its inverse, A^-1 psi A^-1, log det A and
     * tr(A^-1 psi), for each step's unions (lemma_ok: A's factor exists) */
    double *ainv, *apa, logdet_a, tr_a;
    int lemma_ok;
    /* the caller's interrupt hook (or NULL), asked at most every SOM_AGGLO_CHECK seconds
     * between two pairs: a pair in hundreds of columns costs a Cholesky of their scatter */
    const som_hooks *hooks;
    double checked;
} agglo;

#define SOM_AGGLO_CHECK 0.1

/* Whether the caller asked to stop (its hook, asked when SOM_AGGLO_CHECK seconds have
 * passed since the last time). */
static int agglo_stop(agglo *a)
{
    double now;
    if (!a->hooks || !a->hooks->interrupted) return 0;
    now = som_now_seconds();
    if (now - a->checked < SOM_AGGLO_CHECK) return 0;
    a->checked = now;
    return a->hooks->interrupted(a->hooks->ud);
}

/* Cholesky factor L (lower, column-major) of the d x d matrix S; 0 when S is not positive
 * definite. */
int som_cholesky(const double *S, int d, double *L)
{
    int i, j, k;
    memset(L, 0, (size_t)d * d * sizeof *L);
    for (j = 0; j < d; j++) {
        double s = S[j + j * d];
        for (k = 0; k < j; k++) s -= L[j + k * d] * L[j + k * d];
        if (!(s > 0)) return 0;
        L[j + j * d] = sqrt(s);
        for (i = j + 1; i < d; i++) {
            double t = S[i + j * d];
            for (k = 0; k < j; k++) t -= L[i + k * d] * L[j + k * d];
            L[i + j * d] = t / L[j + j * d];
        }
    }
    return 1;
}

/* The inverse Li of the lower factor L, by forward substitution. */
void som_factor_inverse(const double *L, int d, double *Li)
{
    int i, j, k;
    memset(Li, 0, (size_t)d * d * sizeof *Li);
    for (j = 0; j < d; j++) {
        Li[j + j * d] = 1 / L[j + j * d];
        for (i = j + 1; i < d; i++) {
            double t = 0;
            for (k = j; k < i; k++) t -= L[i + k * d] * Li[k + j * d];
            Li[i + j * d] = t / L[i + i * d];
        }
    }
}

/* (Li^T Li)[i, j], the inverse of L L^T: the sum over k >= max(i, j) of Li[k, i] Li[k, j]. */
static double inverse_at(const double *Li, int d, int i, int j)
{
    double v = 0;
    int k;
    for (k = i > j ? i : j; k < d; k++) v += Li[k + i * d] * Li[k + j * d];
    return v;
}

/* tr(S^-1 W) with S = L L^T (Li: scratch for the factor's inverse). */
static double trace_solve(const double *L, const double *W, int d, double *Li)
{
    double tr = 0;
    int i, j;
    som_factor_inverse(L, d, Li);
    for (i = 0; i < d; i++)
        for (j = 0; j < d; j++) tr += inverse_at(Li, d, i, j) * W[i + j * d];
    return tr;
}

/* The log-likelihood of n rows with scatter W under the model's covariance estimate. */
static double scatter_loglik(const som_cov_model *f, const double *W, double n, agglo *a)
{
    const int d = f->d;
    const double *psi = f->psi, m = n + f->nu;
    double logdet = 0, tr = 0;
    int k;
    if (f->form == SOM_COV_FULL) {
        double *S = a->inv; /* S first, then the inverse of its factor */
        for (k = 0; k < d * d; k++) S[k] = (W[k] + psi[k]) / m;
        if (!som_cholesky(S, d, a->chol)) return -HUGE_VAL;
        for (k = 0; k < d; k++) logdet += log(a->chol[k + k * d]);
        tr = trace_solve(a->chol, W, d, a->inv);
        return -0.5 * (n * d * SOM_LOG_2PI + n * 2 * logdet + tr);
    }
    if (f->form == SOM_COV_SPHERE) {
        double tw = 0, tp = 0, v;
        for (k = 0; k < d; k++) {
            tw += W[k + k * d];
            tp += psi[k + k * d];
        }
        v = (tw + tp) / (m * d);
        for (k = 0; k < d; k++) {
            logdet += log(v);
            tr += W[k + k * d] / v;
        }
    } else {
        for (k = 0; k < d; k++) {
            const double v = (W[k + k * d] + psi[k + k * d]) / m;
            logdet += log(v);
            tr += W[k + k * d] / v;
        }
    }
    return -0.5 * (n * d * SOM_LOG_2PI + n * logdet + tr);
}

/* The scatter of group k (cross-products about its mean) into W. */
static void group_scatter(const agglo *a, int k, double *W)
{
    const int d = a->d;
    const double *s = a->s + (size_t)k * d, *q = a->q + (size_t)k * d * d;
    int i, j;
    for (j = 0; j < d; j++)
        for (i = 0; i < d; i++) W[i + j * d] = q[i + j * d] - s[i] * s[j] / a->n[k];
}

/* The shared scatter: the sum of every group's. */
static void shared_scatter(agglo *a)
{
    const int dd = a->d * a->d;
    int k, i;
    memset(a->wall, 0, (size_t)dd * sizeof *a->wall);
    for (k = 0; k < a->K; k++) {
        group_scatter(a, k, a->w);
        for (i = 0; i < dd; i++) a->wall[i] += a->w[i];
    }
}

/* A shared full covariance gains a rank-one term h v v^T from each union: with A = wall +
 * psi factored once per step, each union's log det and trace follow from v^T A^-1 v and
 * v^T A^-1 psi A^-1 v (the matrix determinant lemma and Sherman-Morrison), O(d^2) a union
 * instead of a factorization. */
static void lemma_prepare(const som_cov_model *f, agglo *a)
{
    const int d = a->d;
    double *A = a->w;
    int i, j, k;
    for (k = 0; k < d * d; k++) A[k] = a->wall[k] + f->psi[k];
    a->lemma_ok = som_cholesky(A, d, a->chol);
    if (!a->lemma_ok) return;
    a->logdet_a = 0;
    for (k = 0; k < d; k++) a->logdet_a += 2 * log(a->chol[k + k * d]);
    som_factor_inverse(a->chol, d, a->inv);
    for (i = 0; i < d; i++)
        for (j = 0; j < d; j++) a->ainv[i + j * d] = inverse_at(a->inv, d, i, j);
    a->tr_a = 0;
    for (k = 0; k < d * d; k++) a->tr_a += a->ainv[k] * f->psi[k];
    for (i = 0; i < d; i++) /* A^-1 psi into w, then (A^-1 psi) A^-1 into apa */
        for (j = 0; j < d; j++) {
            double v = 0;
            for (k = 0; k < d; k++) v += a->ainv[i + k * d] * f->psi[k + j * d];
            A[i + j * d] = v;
        }
    for (i = 0; i < d; i++)
        for (j = 0; j < d; j++) {
            double v = 0;
            for (k = 0; k < d; k++) v += A[i + k * d] * a->ainv[k + j * d];
            a->apa[i + j * d] = v;
        }
}

/* The shared full covariance's log-likelihood with the union's term h v v^T (lemma_prepare()). */
static double lemma_loglik(const som_cov_model *f, const agglo *a, const double *v, double h)
{
    const int d = a->d;
    const double n = f->n, m = n + f->nu;
    double q = 0, r = 0, logdet, tr;
    int i, j;
    for (j = 0; j < d; j++)
        for (i = 0; i < d; i++) {
            q += v[i] * a->ainv[i + j * d] * v[j];
            r += v[i] * a->apa[i + j * d] * v[j];
        }
    logdet = a->logdet_a + log(1 + h * q) - d * log(m);
    tr = m * (d - (a->tr_a - h * r / (1 + h * q)));
    return -0.5 * (n * d * SOM_LOG_2PI + n * logdet + tr);
}

/* The latent-class term of rows n with level counts c (0 without categorical columns). */
static double categorical_loglik(const som_cov_model *f, const double *c, double n)
{
    double out = 0;
    int b, l, at = 0;
    for (b = 0; b < f->nblocks; at += f->levels[b], b++) {
        double total = 0;
        for (l = 0; l < f->levels[b]; l++) total += f->alpha[at + l];
        for (l = 0; l < f->levels[b]; l++) {
            const double cnt = c[at + l];
            out += cnt * log((cnt + f->alpha[at + l]) / (n + total));
        }
    }
    return out;
}

/* The log-likelihood's change when groups i and j join (-Inf when not finite); `rest`:
 * with a shared covariance, the scatter's part of the current log-likelihood. */
static double gain_of(const som_cov_model *f, agglo *a, int i, int j, double rest)
{
    const int d = a->d;
    const double ni = a->n[i], nj = a->n[j], nm = ni + nj;
    const double mix = nm * log(nm) - ni * log(ni) - nj * log(nj);
    double gain, *W = a->w;
    int r, c;
    if (f->shared && f->form == SOM_COV_FULL && a->lemma_ok) {
        const double *si = a->s + (size_t)i * d, *sj = a->s + (size_t)j * d;
        for (r = 0; r < d; r++) W[r] = si[r] / ni - sj[r] / nj; /* v, in w's first column */
        gain = mix + lemma_loglik(f, a, W, ni * nj / nm) - rest;
    } else if (f->shared) { /* the shared scatter gains the pair's between-groups term */
        const double *si = a->s + (size_t)i * d, *sj = a->s + (size_t)j * d, h = ni * nj / nm;
        for (c = 0; c < d; c++)
            for (r = 0; r < d; r++) {
                const double vr = si[r] / ni - sj[r] / nj, vc = si[c] / ni - sj[c] / nj;
                W[r + c * d] = a->wall[r + c * d] + h * (vr * vc);
            }
        gain = mix + scatter_loglik(f, W, f->n, a) - rest;
    } else {
        const double *si = a->s + (size_t)i * d, *sj = a->s + (size_t)j * d;
        const double *qi = a->q + (size_t)i * d * d, *qj = a->q + (size_t)j * d * d;
        for (c = 0; c < d; c++)
            for (r = 0; r < d; r++)
                W[r + c * d] = (qi[r + c * d] + qj[r + c * d]) - (si[r] + sj[r]) * (si[c] + sj[c]) / nm;
        gain = mix + scatter_loglik(f, W, nm, a) - a->own[i] - a->own[j];
    }
    if (a->L) { /* the union's latent-class term against the two groups' */
        for (r = 0; r < a->L; r++) a->cu[r] = a->c[(size_t)i * a->L + r] + a->c[(size_t)j * a->L + r];
        gain += categorical_loglik(f, a->cu, nm) - a->cat[i] - a->cat[j];
    }
    return isfinite(gain) ? gain : -HUGE_VAL;
}

/* Group j joins group i (i < j); the groups after j move down one place. */
static void join(agglo *a, int i, int j)
{
    const int d = a->d, dd = d * d, N = a->N;
    int k, c;
    a->n[i] += a->n[j];
    for (k = 0; k < a->L; k++) a->c[(size_t)i * a->L + k] += a->c[(size_t)j * a->L + k];
    for (k = 0; k < d; k++) a->s[(size_t)i * d + k] += a->s[(size_t)j * d + k];
    for (k = 0; k < dd; k++) a->q[(size_t)i * dd + k] += a->q[(size_t)j * dd + k];
    for (c = 0; c < N; c++) {
        if (a->grp[c] == j) a->grp[c] = i;
        else if (a->grp[c] > j) a->grp[c]--;
    }
    for (k = j; k + 1 < a->K; k++) {
        a->n[k] = a->n[k + 1];
        a->own[k] = a->own[k + 1];
        a->cat[k] = a->cat[k + 1];
        memcpy(a->c + (size_t)k * a->L, a->c + (size_t)(k + 1) * a->L, (size_t)a->L * sizeof *a->c);
        memcpy(a->s + (size_t)k * d, a->s + (size_t)(k + 1) * d, (size_t)d * sizeof *a->s);
        memcpy(a->q + (size_t)k * dd, a->q + (size_t)(k + 1) * dd, (size_t)dd * sizeof *a->q);
    }
    for (k = 0; k < a->K; k++) { /* the gains without row and column j */
        int from = 0, to = 0;
        if (k == j) continue;
        for (from = 0; from < a->K; from++)
            if (from != j) a->gain[(size_t)(k < j ? k : k - 1) * N + to++] = a->gain[(size_t)k * N + from];
    }
    a->K--;
}

static void record(const agglo *a, double loglik, som_group_path *path)
{
    const int N = a->N, t = path->steps;
    int c, k;
    for (c = 0; c < N; c++) path->labels[(size_t)t * N + c] = a->grp[c] + 1;
    for (k = 0; k < a->K; k++) path->rows[(size_t)t * N + k] = a->n[k];
    path->loglik[t] = loglik;
    path->steps++;
}

/* malloc of at least one element (a model without Gaussian columns has d = 0). */
static void *alloc(size_t count, size_t size)
{
    return malloc((count ? count : 1) * size);
}

int som_agglomerate(int N, const double *cn, const double *cs, const double *cq,
                    const double *cc, const som_cov_model *f, int down_to,
                    const som_hooks *hooks, som_group_path *path, som_status *st)
{
    const int d = f->d, dd = d * d, L = cc ? f->L : 0;
    agglo a;
    double loglik = 0, mix = 0;
    int c, k, made = -1, rc = SOM_OK;

    path->steps = 0;
    if (N < 1 || d < 0 || (d == 0 && L == 0))
        return som_fail(st, SOM_ERR_INVALID, "no cells to join");
    memset(&a, 0, sizeof a);
    a.N = N;
    a.d = d;
    a.L = L;
    a.hooks = hooks;
    a.checked = som_now_seconds();
    a.n = alloc((size_t)N, sizeof *a.n);
    a.s = alloc((size_t)N * d, sizeof *a.s);
    a.q = alloc((size_t)N * dd, sizeof *a.q);
    a.c = alloc((size_t)N * L, sizeof *a.c);
    a.own = alloc((size_t)N, sizeof *a.own);
    a.cat = alloc((size_t)N, sizeof *a.cat);
    a.cu = alloc((size_t)L, sizeof *a.cu);
    a.gain = calloc((size_t)N * N, sizeof *a.gain);
    a.wall = alloc((size_t)dd, sizeof *a.wall);
    a.w = alloc((size_t)dd, sizeof *a.w);
    a.chol = alloc((size_t)dd, sizeof *a.chol);
    a.inv = alloc((size_t)dd, sizeof *a.inv);
    a.ainv = alloc((size_t)dd, sizeof *a.ainv);
    a.apa = alloc((size_t)dd, sizeof *a.apa);
    a.grp = alloc((size_t)N, sizeof *a.grp);
    if (!a.n || !a.s || !a.q || !a.c || !a.own || !a.cat || !a.cu || !a.gain || !a.wall ||
        !a.w || !a.chol || !a.inv || !a.ainv || !a.apa || !a.grp) {
        rc = som_fail(st, SOM_ERR_NOMEM, "could not allocate memory to join the cells");
        goto done;
    }
    for (c = 0; c < N; c++) { /* a group per cell with rows, in cell order */
        a.grp[c] = -1;
        if (!(cn[c] > 0)) continue;
        a.grp[c] = a.K;
        a.n[a.K] = cn[c];
        memcpy(a.s + (size_t)a.K * d, cs + (size_t)c * d, (size_t)d * sizeof *a.s);
        memcpy(a.q + (size_t)a.K * dd, cq + (size_t)c * dd, (size_t)dd * sizeof *a.q);
        memcpy(a.c + (size_t)a.K * L, cc + (size_t)c * L, (size_t)L * sizeof *a.c);
        a.cat[a.K] = L ? categorical_loglik(f, a.c + (size_t)a.K * L, a.n[a.K]) : 0;
        a.K++;
    }
    if (a.K == 0) goto done;
    for (k = 0; k < a.K; k++) mix += a.n[k] * log(a.n[k] / f->n) + a.cat[k];
    if (f->shared) {
        shared_scatter(&a);
        loglik = mix + scatter_loglik(f, a.wall, f->n, &a);
    } else {
        double own = 0;
        for (k = 0; k < a.K; k++) {
            group_scatter(&a, k, a.w);
            a.own[k] = scatter_loglik(f, a.w, a.n[k], &a);
            own += a.own[k];
            if (agglo_stop(&a)) goto stopped;
        }
        loglik = mix + own;
    }
    for (;;) {
        int i, j, bi = -1, bj = -1;
        double best = -HUGE_VAL, rest = 0;
        record(&a, loglik, path);
        if (a.K < 2 || a.K <= down_to) break;
        if (f->shared) { /* every pair changes with the shared scatter */
            for (k = 0; k < a.K; k++) rest += a.n[k] * log(a.n[k] / f->n) + a.cat[k];
            rest = loglik - rest;
            if (f->form == SOM_COV_FULL) lemma_prepare(f, &a);
            if (agglo_stop(&a)) goto stopped;
            for (i = 0; i + 1 < a.K; i++)
                for (j = i + 1; j < a.K; j++) {
                    a.gain[(size_t)i * N + j] = gain_of(f, &a, i, j, rest);
                    if (agglo_stop(&a)) goto stopped;
                }
        } else if (made < 0) {
            for (i = 0; i + 1 < a.K; i++)
                for (j = i + 1; j < a.K; j++) {
                    a.gain[(size_t)i * N + j] = gain_of(f, &a, i, j, 0);
                    if (agglo_stop(&a)) goto stopped;
                }
        } else { /* only the pairs of the group made at the last step */
            for (k = 0; k < a.K; k++) {
                if (k == made) continue;
                i = k < made ? k : made;
                j = k < made ? made : k;
                a.gain[(size_t)i * N + j] = gain_of(f, &a, i, j, 0);
                if (agglo_stop(&a)) goto stopped;
            }
        }
        for (i = 0; i + 1 < a.K; i++)
            for (j = i + 1; j < a.K; j++)
                if (a.gain[(size_t)i * N + j] > best) {
                    best = a.gain[(size_t)i * N + j];
                    bi = i;
                    bj = j;
                }
        if (bi < 0) break; /* no union with a finite log-likelihood */
        if (f->shared) {
            const double ni = a.n[bi], nj = a.n[bj], h = ni * nj / (ni + nj);
            const double *si = a.s + (size_t)bi * d, *sj = a.s + (size_t)bj * d;
            int r, cc;
            for (cc = 0; cc < d; cc++)
                for (r = 0; r < d; r++)
                    a.wall[r + cc * d] += h * ((si[r] / ni - sj[r] / nj) * (si[cc] / ni - sj[cc] / nj));
        }
        join(&a, bi, bj);
        if (L) a.cat[bi] = categorical_loglik(f, a.c + (size_t)bi * L, a.n[bi]);
        if (!f->shared) {
            group_scatter(&a, bi, a.w);
            a.own[bi] = scatter_loglik(f, a.w, a.n[bi], &a);
            made = bi;
        }
        loglik += best;
    }
    goto done;
stopped:
    rc = som_fail(st, SOM_ERR_INTERRUPTED, "interrupted");
done:
    free(a.n);
    free(a.s);
    free(a.q);
    free(a.c);
    free(a.cat);
    free(a.cu);
    free(a.own);
    free(a.gain);
    free(a.wall);
    free(a.w);
    free(a.chol);
    free(a.inv);
    free(a.ainv);
    free(a.apa);
    free(a.grp);
    return rc;
}
