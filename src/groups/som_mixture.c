/* som_mixture.c: EM for the Gaussian groups of the grouping rule (see som_groups.h), as
 * R/math_mixture.R wrote it: the M step's proportions, means and covariances of the model
 * (the prior's scatter psi and pseudo-rows nu added), the E step's weights from each
 * row's log-density under each group, the log-likelihood's gain as the stopping rule. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "som_groups.h"
#include "som_host.h"

/* The workspace: weights z (n x G), scatters W (d x d x G), each covariance's factor and
 * its inverse (d x d x G), a row's centred values; per group, what every row's density
 * reads alike (taken once per E step, the same values): its log-proportion, the log of
 * its factor's determinant, each level's log-probability (L x G). */
typedef struct {
    double *z, *w, *chol, *inv, *v, *logpro, *logdet, *loglevel;
    double *ld;    /* a row's log-densities, G                                         */
    double *share; /* a row's share of each level, L                                   */
    double *sums;  /* the M step's sums of a group, max(d, L)                           */
} em_work;

/* Sums over the rows of sums[j] = sum of z[i] * x[cols[j] n + i] for j < nc, each in order of
 * i from 0: four columns' chains side by side (a sum alone waits on each of its n adds). */
static void z_sums(const double *x, int n, const double *z, const int *cols, int nc,
                   double *sums)
{
    int i, j = 0;
    for (; j + 4 <= nc; j += 4) {
        const double *a = x + (size_t)cols[j] * n, *b = x + (size_t)cols[j + 1] * n,
                     *c = x + (size_t)cols[j + 2] * n, *e = x + (size_t)cols[j + 3] * n;
        double s0 = 0, s1 = 0, s2 = 0, s3 = 0;
        for (i = 0; i < n; i++) {
            s0 += z[i] * a[i];
            s1 += z[i] * b[i];
            s2 += z[i] * c[i];
            s3 += z[i] * e[i];
        }
        sums[j] = s0, sums[j + 1] = s1, sums[j + 2] = s2, sums[j + 3] = s3;
    }
    for (; j < nc; j++) {
        const double *a = x + (size_t)cols[j] * n;
        double s0 = 0;
        for (i = 0; i < n; i++) s0 += z[i] * a[i];
        sums[j] = s0;
    }
}

/* Group g's scatter of the Gaussian columns about its means mg (d values) into w (d x d):
 * w[r, c] = w[c, r] = sum of z[i] (x_r[i] - mg[r]) (x_c[i] - mg[c]), in order of i, the
 * terms as written there; for each c, four r's chains side by side. */
static void z_scatter(const double *x, int n, const double *z, const int *gauss, int d,
                      const double *mg, double *w)
{
    int i, r, c;
    for (c = 0; c < d; c++) {
        const double *xc = x + (size_t)gauss[c] * n, mc = mg[c];
        for (r = 0; r + 4 <= c + 1; r += 4) {
            const double *a = x + (size_t)gauss[r] * n, *b = x + (size_t)gauss[r + 1] * n,
                         *e = x + (size_t)gauss[r + 2] * n, *f = x + (size_t)gauss[r + 3] * n;
            const double ma = mg[r], mb = mg[r + 1], me = mg[r + 2], mf = mg[r + 3];
            double s0 = 0, s1 = 0, s2 = 0, s3 = 0;
            for (i = 0; i < n; i++) {
                const double v = xc[i] - mc;
                s0 += z[i] * (a[i] - ma) * v;
                s1 += z[i] * (b[i] - mb) * v;
                s2 += z[i] * (e[i] - me) * v;
                s3 += z[i] * (f[i] - mf) * v;
            }
            w[r + c * d] = w[c + r * d] = s0;
            w[r + 1 + c * d] = w[c + (r + 1) * d] = s1;
            w[r + 2 + c * d] = w[c + (r + 2) * d] = s2;
            w[r + 3 + c * d] = w[c + (r + 3) * d] = s3;
        }
        for (; r <= c; r++) {
            const double *a = x + (size_t)gauss[r] * n, ma = mg[r];
            double s0 = 0;
            for (i = 0; i < n; i++) s0 += z[i] * (a[i] - ma) * (xc[i] - mc);
            w[r + c * d] = w[c + r * d] = s0;
        }
    }
}

/* The M step from the weights z: proportions, the Gaussian columns' means and the model's
 * covariances, and each categorical level's probability (with the prior's pseudo-row) times
 * its height, in mean's columns (G x m). */
static void mstep(const double *x, int n, const som_mixture_columns *mc, int G,
                  const double *z, const som_cov_model *f, double *pro, double *mean,
                  double *cov, double *w, double *sums)
{
    const int d = f->d, dd = d * d;
    double *ng = pro; /* the groups' weights first, proportions at the end */
    int g, i, r, c, b, l, at;
    for (g = 0; g < G; g++) {
        const double *zg = z + (size_t)g * n;
        double t = 0;
        for (i = 0; i < n; i++) t += zg[i];
        ng[g] = t;
        z_sums(x, n, zg, mc->gauss, d, sums);
        for (c = 0; c < d; c++) {
            sums[c] /= t; /* the mean, then read by the scatter */
            mean[g + (size_t)mc->gauss[c] * G] = sums[c];
        }
        z_scatter(x, n, zg, mc->gauss, d, sums, w + (size_t)g * dd);
        z_sums(x, n, zg, mc->cols, f->L, sums); /* every level's weighted count */
        for (b = 0, at = 0; b < f->nblocks; at += f->levels[b], b++) { /* levels' shares */
            double total = 0;
            for (l = 0; l < f->levels[b]; l++) total += f->alpha[at + l];
            for (l = 0; l < f->levels[b]; l++)
                mean[g + (size_t)mc->cols[at + l] * G] =
                    (sums[at + l] / mc->height[b] + f->alpha[at + l]) / (t + total) * mc->height[b];
        }
    }
    (void)r;
    if (f->shared && dd) { /* one covariance from the pooled scatter, copied to every group */
        double *pool = cov; /* group 0's slot holds the sum first */
        for (r = 0; r < dd; r++) {
            double s = 0;
            for (g = 0; g < G; g++) s += w[(size_t)g * dd + r];
            pool[r] = s;
        }
        memcpy(w, pool, (size_t)dd * sizeof *w);
    }
    for (g = 0; g < (f->shared ? 1 : G) && dd; g++) {
        const double m = (f->shared ? f->n : ng[g]) + f->nu, *wg = w + (size_t)g * dd;
        double *cg = cov + (size_t)g * dd;
        memset(cg, 0, (size_t)dd * sizeof *cg);
        if (f->form == SOM_COV_FULL) {
            for (r = 0; r < dd; r++) cg[r] = (wg[r] + f->psi[r]) / m;
        } else if (f->form == SOM_COV_DIAG) {
            for (r = 0; r < d; r++) cg[r + r * d] = (wg[r + r * d] + f->psi[r + r * d]) / m;
        } else {
            double tw = 0, tp = 0;
            for (r = 0; r < d; r++) {
                tw += wg[r + r * d];
                tp += f->psi[r + r * d];
            }
            for (r = 0; r < d; r++) cg[r + r * d] = (tw + tp) / (m * d);
        }
    }
    for (g = 1; f->shared && dd && g < G; g++) memcpy(cov + (size_t)g * dd, cov, (size_t)dd * sizeof *cov);
    for (g = 0; g < G; g++) pro[g] = ng[g] / n;
}

/* Rows of the E step's Gaussian part taken side by side (gauss_terms()). */
#define EM_ROWS 4

/* Rows i .. i + np - 1 (np <= EM_ROWS): log(pro) - (d log(2 pi) + 2 logdet + q) / 2 into
 * zg, with q the squared norm of Li (x - mg) over the Gaussian columns (Li, the inverse
 * of the covariance's factor, lower), each row's sums in the order of a row alone: np
 * rows' chains side by side (a constant np keeps them in registers). v holds EM_ROWS d
 * values. */
SOM_INLINE void gauss_terms(const double *x, int n, int i, const int np, const int *gauss,
                            int d, const double *mg, const double *Li, double logpro,
                            double logdet, double *zg, double *v)
{
    double q[EM_ROWS] = {0}, y[EM_ROWS];
    int p, r, c;
    for (c = 0; c < d; c++) {
        const double *xc = x + (size_t)gauss[c] * n + i;
        for (p = 0; p < np; p++) v[c * EM_ROWS + p] = xc[p] - mg[c];
    }
    for (r = 0; r < d; r++) { /* (Li v)[r] = sum over c <= r of Li[r, c] v[c] */
        for (p = 0; p < np; p++) y[p] = 0;
        for (c = 0; c <= r; c++) {
            const double lrc = Li[r + c * d];
            for (p = 0; p < np; p++) y[p] += lrc * v[c * EM_ROWS + p];
        }
        for (p = 0; p < np; p++) q[p] += y[p] * y[p];
    }
    for (p = 0; p < np; p++) zg[i + p] = logpro - 0.5 * (d * SOM_LOG_2PI + 2 * logdet + q[p]);
}

/* ld[g] += sum over the levels l of share[l] * lv[l + g L] for every group g, in order of
 * l: four groups' chains side by side. */
static void level_terms(const double *share, int L, const double *lv, int G, double *ld)
{
    int g = 0, l;
    for (; g + 4 <= G; g += 4) {
        const double *a = lv + (size_t)g * L, *b = a + L, *c = b + L, *e = c + L;
        double s0 = ld[g], s1 = ld[g + 1], s2 = ld[g + 2], s3 = ld[g + 3];
        for (l = 0; l < L; l++) {
            s0 += share[l] * a[l];
            s1 += share[l] * b[l];
            s2 += share[l] * c[l];
            s3 += share[l] * e[l];
        }
        ld[g] = s0, ld[g + 1] = s1, ld[g + 2] = s2, ld[g + 3] = s3;
    }
    for (; g < G; g++) {
        const double *a = lv + (size_t)g * L;
        double s0 = ld[g];
        for (l = 0; l < L; l++) s0 += share[l] * a[l];
        ld[g] = s0;
    }
}

/* The E step: each row's weights from its log-densities (the Gaussian columns', and each
 * categorical column's levels: a row's share of a level times its log-probability); the
 * log-likelihood, or -Inf when a covariance is not positive definite. */
static double estep(const double *x, int n, const som_mixture_columns *mc, int G,
                    const som_cov_model *f, const double *pro, const double *mean,
                    const double *cov, em_work *e)
{
    const int d = f->d, dd = d * d;
    double loglik = 0;
    int g, i, r, c, b, l, at;
    for (g = 0; g < G && dd; g++) {
        double *L = e->chol + (size_t)g * dd;
        if (!som_cholesky(cov + (size_t)g * dd, d, L)) return -HUGE_VAL;
        som_factor_inverse(L, d, e->inv + (size_t)g * dd);
    }
    for (g = 0; g < G; g++) {
        const double *L = e->chol + (size_t)g * dd;
        double logdet = 0;
        for (r = 0; r < d; r++) logdet += log(L[r + r * d]);
        e->logpro[g] = log(pro[g]);
        e->logdet[g] = logdet;
        for (b = 0, at = 0; b < f->nblocks; at += f->levels[b], b++)
            for (l = 0; l < f->levels[b]; l++)
                e->loglevel[at + l + (size_t)g * f->L] =
                    log(mean[g + (size_t)mc->cols[at + l] * G] / mc->height[b]);
    }
    for (g = 0; g < G; g++) { /* the log-proportion and the Gaussian columns' density */
        double *zg = e->z + (size_t)g * n;
        if (!d) {
            for (i = 0; i < n; i++) zg[i] = e->logpro[g];
            continue;
        }
        for (c = 0; c < d; c++) e->sums[c] = mean[g + (size_t)mc->gauss[c] * G];
        for (i = 0; i + EM_ROWS <= n; i += EM_ROWS)
            gauss_terms(x, n, i, EM_ROWS, mc->gauss, d, e->sums, e->inv + (size_t)g * dd,
                        e->logpro[g], e->logdet[g], zg, e->v);
        for (; i < n; i++)
            gauss_terms(x, n, i, 1, mc->gauss, d, e->sums, e->inv + (size_t)g * dd,
                        e->logpro[g], e->logdet[g], zg, e->v);
    }
    for (i = 0; i < n; i++) {
        double top = -HUGE_VAL, total = 0, *ld = e->ld;
        for (g = 0; g < G; g++) ld[g] = e->z[i + (size_t)g * n];
        if (f->L) { /* each level's term, the groups' sums side by side (each in order) */
            for (b = 0, at = 0; b < f->nblocks; at += f->levels[b], b++)
                for (l = 0; l < f->levels[b]; l++)
                    e->share[at + l] = x[i + (size_t)mc->cols[at + l] * n] / mc->height[b];
            level_terms(e->share, f->L, e->loglevel, G, ld);
        }
        for (g = 0; g < G; g++) {
            e->z[i + (size_t)g * n] = ld[g];
            if (ld[g] > top) top = ld[g];
        }
        for (g = 0; g < G; g++) {
            double *zi = e->z + i + (size_t)g * n;
            *zi = exp(*zi - top);
            total += *zi;
        }
        for (g = 0; g < G; g++) e->z[i + (size_t)g * n] /= total;
        loglik += top + log(total);
    }
    return loglik;
}

int som_mixture_em(const double *x, int n, const som_mixture_columns *mc, int G,
                   const int *labels, const som_cov_model *f, int iter, double tol,
                   double *pro, double *mean, double *cov, int *fitted, som_status *st)
{
    const int d = f->d;
    const size_t dd = (size_t)d * d;
    em_work e;
    double old = -HUGE_VAL;
    int i, g, it, rc = SOM_OK;

    *fitted = 0;
    if (n < 1 || d < 0 || G < 1) return som_fail(st, SOM_ERR_INVALID, "no rows to fit");
    e.z = calloc((size_t)n * G, sizeof *e.z);
    e.w = malloc((dd * G + 1) * sizeof *e.w); /* (+ 1: d may be 0) */
    e.chol = malloc((dd * G + 1) * sizeof *e.chol);
    e.inv = malloc((dd * G + 1) * sizeof *e.inv);
    e.v = malloc(((size_t)d * EM_ROWS + 1) * sizeof *e.v);
    e.logpro = malloc((size_t)G * sizeof *e.logpro);
    e.logdet = malloc((size_t)G * sizeof *e.logdet);
    e.loglevel = malloc(((size_t)f->L * G + 1) * sizeof *e.loglevel);
    e.ld = malloc((size_t)G * sizeof *e.ld);
    e.share = malloc(((size_t)f->L + 1) * sizeof *e.share);
    e.sums = malloc(((size_t)(d > f->L ? d : f->L) + 1) * sizeof *e.sums);
    if (!e.z || !e.w || !e.chol || !e.inv || !e.v || !e.logpro || !e.logdet || !e.loglevel ||
        !e.ld || !e.share || !e.sums) {
        rc = som_fail(st, SOM_ERR_NOMEM, "could not allocate memory to fit the groups");
        goto done;
    }
    for (i = 0; i < n; i++) {
        if (labels[i] < 1 || labels[i] > G) {
            rc = som_fail(st, SOM_ERR_INVALID, "a row's group is out of range");
            goto done;
        }
        e.z[i + (size_t)(labels[i] - 1) * n] = 1;
    }
    for (it = 0; it < iter; it++) {
        double loglik;
        for (g = 0; g < G; g++) { /* a group of less than one row's weight: lost */
            double t = 0;
            for (i = 0; i < n; i++) t += e.z[i + (size_t)g * n];
            if (t < 1) goto done;
        }
        mstep(x, n, mc, G, e.z, f, pro, mean, cov, e.w, e.sums);
        loglik = estep(x, n, mc, G, f, pro, mean, cov, &e);
        if (!(loglik > -HUGE_VAL)) goto done;
        if (loglik - old < tol * fabs(loglik)) break;
        old = loglik;
    }
    mstep(x, n, mc, G, e.z, f, pro, mean, cov, e.w, e.sums);
    for (g = 0; g < G; g++)
        if (pro[g] * n < 1) goto done;
    *fitted = 1;
done:
    free(e.z);
    free(e.w);
    free(e.chol);
    free(e.inv);
    free(e.v);
    free(e.logpro);
    free(e.logdet);
    free(e.loglevel);
    free(e.ld);
    free(e.share);
    free(e.sums);
    return rc;
}
