/* som_schedule.c: the schedule and the neighbourhood factors (som_schedule.h). */
#include <math.h>

#include "som_schedule.h"

/* The schedules of the original script, with its operation order:
 * sigma_t = sigma0 - sigma0 / (iter_max + 1) * t, likewise eta_t. */
double som_sigma(const som_problem *p, int map, int t)
{
    const double s0 = p->sigma0[map];
    return s0 - (s0 / (p->iter_max + 1.0)) * t;
}

double som_eta(const som_problem *p, int t)
{
    return p->eta0 - (p->eta0 / (p->iter_max + 1.0)) * t;
}

int som_schedules(const som_problem *p, int *sched)
{
    int i, j, n = 0;
    for (i = 0; i < p->nmaps; i++) {
        for (j = 0; j < i && p->sigma0[j] != p->sigma0[i]; j++) {}
        sched[i] = j < i ? sched[j] : n++;
    }
    return n;
}

void som_neighbourhood_row(const som_problem *p, int map, int t, int dmax, double *row)
{
    double sigma = som_sigma(p, map, t), eta = p->algorithm == SOM_BATCH ? 1.0 : som_eta(p, t);
    double s2 = 2.0 * (sigma * sigma);
    int d;
    row[0] = eta; /* exp(-0 / s2) = 1 exactly, also when s2 underflows to 0 */
    for (d = 1; d <= dmax; d++) {
        double h = eta * exp(-((double)d * d) / s2);
        row[d] = h < SOM_FACTOR_MIN ? 0 : h;
    }
}

#define SOM_CIRC(NAME, REAL)                                                               \
    void NAME(const double *row, int size, REAL *circ)                                     \
    {                                                                                      \
        int i;                                                                             \
        for (i = 0; i < size; i++)                                                         \
            circ[i] = circ[size + i] = (REAL)row[i < size - i ? i : size - i];             \
    }
SOM_CIRC(som_neighbourhood_circ, double)
SOM_CIRC(som_neighbourhood_circ_f, float)
