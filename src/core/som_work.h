/* som_work.h: how work on the host's threads is cut: its cost in units (neuron x dimension
 * steps), rounds of it between interrupt checks, and a family's maps split into spans of
 * about equal work when there are too few blocks of rows for the threads. The CPU backend
 * and the assessment cut their work so. */
#ifndef SOM_WORK_H
#define SOM_WORK_H

#include <stdint.h>

/* Cost units (neuron x dimension steps) per thread between two interrupt checks, about
 * 10-30 ms, and the fixed cost of one point in the same units. */
#define SOM_ROUND_UNITS ((double)(1 << 25))
#define SOM_POINT_UNITS 16.0

/* --- (som_work.c) --- */
/* Maps 0..nmaps-1 as nspans runs of about equal total size: span g is start[g] ..
 * start[g + 1] - 1 (start has nspans + 1 entries). */
void som_split_maps(const int *size, int nmaps, int nspans, int *start);
/* How many spans of maps to cut a round of blocks into, so that every thread has work. */
int som_map_spans(int64_t blocks_per_round, int nthreads, int nmaps);

#endif
