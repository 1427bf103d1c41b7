/* som_mixture.c: EM for the Gaussian groups of the grouping rule (see som_groups.h), as
 * R/mixture.R wrote it: the M step's proportions, means and covariances of the family
 * (the prior's scatter psi and pseudo-rows nu added), the E step's weights from each
 * row's log-density under each group, the log-likelihood's gain as the stopping rule. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "som_groups.h"

/* The workspace: weights z (n x G), scatters W (d x d x G), each covariance's factor and
 * its inverse (d x d x G), a row's centred values; per group, what every row's density
 * reads alike (taken once per E step, the same values): its log-proportion, the log of
 * its factor's determinant, each level's log-probability (L x G). */
typedef struct {
    double *z, *w, *chol, *inv, *v, *logpro, *logdet, *loglevel;
} em_work;

/* The M step from the weights z: proportions, the Gaussian columns' means and the family's
 * covariances, and each categorical level's probability (with the prior's pseudo-row) times
 * its height, in mean's columns (G x m). */
static void mstep(const double *x, int n, const som_mixture_columns *mc, int G,
                  const double *z, const som_cov_family *f, double *pro, double *mean,
                  double *cov, double *w)
{
    const int d = f->d, dd = d * d;
    double *ng = pro; /* the groups' weights first, proportions at the end */
    int g, i, r, c, b, l, at;
    for (g = 0; g < G; g++) {
        const double *zg = z + (size_t)g * n;
        double t = 0;
        for (i = 0; i < n; i++) t += zg[i];
        ng[g] = t;
        for (c = 0; c < d; c++) {
            const double *xc = x + (size_t)mc->gauss[c] * n;
            double s = 0;
            for (i = 0; i < n; i++) s += zg[i] * xc[i];
            mean[g + (size_t)mc->gauss[c] * G] = s / t;
        }
        for (c = 0; c < d; c++)
            for (r = 0; r <= c; r++) {
                const double *xr = x + (size_t)mc->gauss[r] * n, *xc = x + (size_t)mc->gauss[c] * n;
                const double mr = mean[g + (size_t)mc->gauss[r] * G];
                const double mcc = mean[g + (size_t)mc->gauss[c] * G];
                double s = 0;
                for (i = 0; i < n; i++) s += zg[i] * (xr[i] - mr) * (xc[i] - mcc);
                w[(size_t)g * dd + r + c * d] = w[(size_t)g * dd + c + r * d] = s;
            }
        for (b = 0, at = 0; b < f->nblocks; at += f->levels[b], b++) { /* levels' shares */
            double total = 0;
            for (l = 0; l < f->levels[b]; l++) total += f->alpha[at + l];
            for (l = 0; l < f->levels[b]; l++) {
                const double *xc = x + (size_t)mc->cols[at + l] * n;
                double s = 0;
                for (i = 0; i < n; i++) s += zg[i] * xc[i];
                mean[g + (size_t)mc->cols[at + l] * G] =
                    (s / mc->height[b] + f->alpha[at + l]) / (t + total) * mc->height[b];
            }
        }
    }
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
        if (f->shape == SOM_COV_FULL) {
            for (r = 0; r < dd; r++) cg[r] = (wg[r] + f->psi[r]) / m;
        } else if (f->shape == SOM_COV_DIAG) {
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

/* The E step: each row's weights from its log-densities (the Gaussian columns', and each
 * categorical column's levels: a row's share of a level times its log-probability); the
 * log-likelihood, or -Inf when a covariance is not positive definite. */
static double estep(const double *x, int n, const som_mixture_columns *mc, int G,
                    const som_cov_family *f, const double *pro, const double *mean,
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
    for (i = 0; i < n; i++) {
        double top = -HUGE_VAL, total = 0;
        for (g = 0; g < G; g++) {
            const double *Li = e->inv + (size_t)g * dd, *lv = e->loglevel + (size_t)g * f->L;
            double q = 0, ld = e->logpro[g];
            for (c = 0; c < d; c++)
                e->v[c] = x[i + (size_t)mc->gauss[c] * n] - mean[g + (size_t)mc->gauss[c] * G];
            for (r = 0; r < d; r++) { /* (Li v)[r] = sum over c <= r of Li[r, c] v[c] */
                double y = 0;
                for (c = 0; c <= r; c++) y += Li[r + c * d] * e->v[c];
                q += y * y;
            }
            if (d) ld -= 0.5 * (d * SOM_LOG_2PI + 2 * e->logdet[g] + q);
            for (b = 0, at = 0; b < f->nblocks; at += f->levels[b], b++)
                for (l = 0; l < f->levels[b]; l++)
                    ld += x[i + (size_t)mc->cols[at + l] * n] / mc->height[b] * lv[at + l];
            e->z[i + (size_t)g * n] = ld;
            if (ld > top) top = ld;
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
                   const int *labels, const som_cov_family *f, int iter, double tol,
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
    e.v = malloc(((size_t)d + 1) * sizeof *e.v);
    e.logpro = malloc((size_t)G * sizeof *e.logpro);
    e.logdet = malloc((size_t)G * sizeof *e.logdet);
    e.loglevel = malloc(((size_t)f->L * G + 1) * sizeof *e.loglevel);
    if (!e.z || !e.w || !e.chol || !e.inv || !e.v || !e.logpro || !e.logdet || !e.loglevel) {
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
        mstep(x, n, mc, G, e.z, f, pro, mean, cov, e.w);
        loglik = estep(x, n, mc, G, f, pro, mean, cov, &e);
        if (!(loglik > -HUGE_VAL)) goto done;
        if (loglik - old < tol * fabs(loglik)) break;
        old = loglik;
    }
    mstep(x, n, mc, G, e.z, f, pro, mean, cov, e.w);
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
    return rc;
}
