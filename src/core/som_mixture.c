/* som_mixture.c: EM for the Gaussian groups of the grouping rule (see som_groups.h), as
 * R/mixture.R wrote it: the M step's proportions, means and covariances of the family
 * (the prior's scatter psi and pseudo-rows nu added), the E step's weights from each
 * row's log-density under each group, the log-likelihood's gain as the stopping rule. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "som_groups.h"

/* The workspace: weights z (n x G), scatters W (d x d x G), each covariance's factor and
 * its inverse (d x d x G), a row's centred values. */
typedef struct {
    double *z, *w, *chol, *inv, *v;
} em_work;

/* The M step from the weights z: proportions, means and the family's covariances. */
static void mstep(const double *x, int n, int d, int G, const double *z,
                  const som_cov_family *f, double *pro, double *mean, double *cov, double *w)
{
    const int dd = d * d;
    double *ng = pro; /* the groups' weights first, proportions at the end */
    int g, i, r, c;
    for (g = 0; g < G; g++) {
        const double *zg = z + (size_t)g * n;
        double t = 0;
        for (i = 0; i < n; i++) t += zg[i];
        ng[g] = t;
        for (c = 0; c < d; c++) {
            const double *xc = x + (size_t)c * n;
            double s = 0;
            for (i = 0; i < n; i++) s += zg[i] * xc[i];
            mean[g + c * G] = s / t;
        }
        for (c = 0; c < d; c++)
            for (r = 0; r <= c; r++) {
                const double *xr = x + (size_t)r * n, *xc = x + (size_t)c * n;
                const double mr = mean[g + r * G], mc = mean[g + c * G];
                double s = 0;
                for (i = 0; i < n; i++) s += zg[i] * (xr[i] - mr) * (xc[i] - mc);
                w[(size_t)g * dd + r + c * d] = w[(size_t)g * dd + c + r * d] = s;
            }
    }
    if (f->shared) { /* one covariance from the pooled scatter, copied to every group */
        double *pool = cov; /* group 0's slot holds the sum first */
        for (r = 0; r < dd; r++) {
            double s = 0;
            for (g = 0; g < G; g++) s += w[(size_t)g * dd + r];
            pool[r] = s;
        }
        memcpy(w, pool, (size_t)dd * sizeof *w);
    }
    for (g = 0; g < (f->shared ? 1 : G); g++) {
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
    for (g = 1; f->shared && g < G; g++) memcpy(cov + (size_t)g * dd, cov, (size_t)dd * sizeof *cov);
    for (g = 0; g < G; g++) pro[g] = ng[g] / n;
}

/* The E step: each row's weights from its log-densities; the log-likelihood, or -Inf when
 * a covariance is not positive definite. */
static double estep(const double *x, int n, int d, int G, const double *pro,
                    const double *mean, const double *cov, em_work *e)
{
    const int dd = d * d;
    double loglik = 0;
    int g, i, r, c;
    for (g = 0; g < G; g++) {
        double *L = e->chol + (size_t)g * dd;
        if (!som_cholesky(cov + (size_t)g * dd, d, L)) return -HUGE_VAL;
        som_factor_inverse(L, d, e->inv + (size_t)g * dd);
    }
    for (i = 0; i < n; i++) {
        double top = -HUGE_VAL, total = 0;
        for (g = 0; g < G; g++) {
            const double *Li = e->inv + (size_t)g * dd, *L = e->chol + (size_t)g * dd;
            double q = 0, logdet = 0;
            for (c = 0; c < d; c++) e->v[c] = x[i + (size_t)c * n] - mean[g + c * G];
            for (r = 0; r < d; r++) { /* (Li v)[r] = sum over c <= r of Li[r, c] v[c] */
                double y = 0;
                for (c = 0; c <= r; c++) y += Li[r + c * d] * e->v[c];
                q += y * y;
                logdet += log(L[r + r * d]);
            }
            e->z[i + (size_t)g * n] = log(pro[g]) - 0.5 * (d * SOM_LOG_2PI + 2 * logdet + q);
            if (e->z[i + (size_t)g * n] > top) top = e->z[i + (size_t)g * n];
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

int som_mixture_em(const double *x, int n, int d, int G, const int *labels,
                   const som_cov_family *f, int iter, double tol, double *pro, double *mean,
                   double *cov, int *fitted, som_status *st)
{
    const size_t dd = (size_t)d * d;
    em_work e;
    double old = -HUGE_VAL;
    int i, g, it, rc = SOM_OK;

    *fitted = 0;
    if (n < 1 || d < 1 || G < 1) return som_fail(st, SOM_ERR_INVALID, "no rows to fit");
    e.z = calloc((size_t)n * G, sizeof *e.z);
    e.w = malloc(dd * G * sizeof *e.w);
    e.chol = malloc(dd * G * sizeof *e.chol);
    e.inv = malloc(dd * G * sizeof *e.inv);
    e.v = malloc((size_t)d * sizeof *e.v);
    if (!e.z || !e.w || !e.chol || !e.inv || !e.v) {
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
        mstep(x, n, d, G, e.z, f, pro, mean, cov, e.w);
        loglik = estep(x, n, d, G, pro, mean, cov, &e);
        if (!(loglik > -HUGE_VAL)) goto done;
        if (loglik - old < tol * fabs(loglik)) break;
        old = loglik;
    }
    mstep(x, n, d, G, e.z, f, pro, mean, cov, e.w);
    for (g = 0; g < G; g++)
        if (pro[g] * n < 1) goto done;
    *fitted = 1;
done:
    free(e.z);
    free(e.w);
    free(e.chol);
    free(e.inv);
    free(e.v);
    return rc;
}
