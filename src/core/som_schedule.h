/* som_schedule.h: the schedule of a family's passes: the neighbourhood's width and the
 * learning rate at pass t, the maps that share a schedule, and the neighbourhood factors
 * every backend takes (through the driver), so that they agree to the bit. */
#ifndef SOM_SCHEDULE_H
#define SOM_SCHEDULE_H

#include "som_problem.h"

/* --- (som_schedule.c) --- */
double som_sigma(const som_problem *p, int map, int t);
double som_eta(const som_problem *p, int t);
/* The ring-scaled schedule (R's sigma0 = "auto"): a ring of N neurons starts with sigma0 =
 * N * SOM_SIGMA0_RING_SHARE, so its neighbourhood falls to exp(-2) a quarter of the ring
 * away from the winner (2 sigma0 = N / 4) whatever N (see ?train: chosen by
 * bench/bench_select_accuracy.R). */
#define SOM_SIGMA0_RING_SHARE 0.125
/* The maps' schedules: maps of equal sigma0 share one. sched[i] (0-based, in order of first
 * appearance) for every map of p; returns how many there are. */
int som_schedules(const som_problem *p, int *sched);
/* Factors of other neurons below this are 0: what single precision would flush, so that a
 * neuron's "no neighbourhood" is the same in both precisions. */
#define SOM_FACTOR_MIN 1e-30
/* The neighbourhood factors of map `map` at pass t by ring distance: row[d] = eta_t *
 * exp(-d^2 / (2 sigma_t^2)) for d = 0 .. dmax (exactly eta_t at d = 0; 0 below SOM_FACTOR_MIN at
 * d > 0); the batch algorithm has no learning rate (eta_t = 1). Every backend takes its
 * factors from here (through the driver), so that they agree to the bit. */
void som_neighbourhood_row(const som_problem *p, int map, int t, int dmax, double *row);
/* The factors of a ring of `size` as a doubled circle: circ[i] = circ[size + i] = row[d]
 * with d the ring distance of i from 0 (i < size). The factor of neuron j when c wins is
 * then circ[size - c + j]: no branches, one slice. */
void som_neighbourhood_circ(const double *row, int size, double *circ);
void som_neighbourhood_circ_f(const double *row, int size, float *circ); /* rounded */

#endif
