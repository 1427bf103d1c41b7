/* som_cpu.h: the CPU backend: its settings, its engines (written once for either
 * precision: som_cpu_online_t.h, som_cpu_batch_t.h over som_real.h), the data-parallel
 * batch of future workers, and the backend for the driver (som_engine.h). */
#ifndef SOM_CPU_H
#define SOM_CPU_H

#include "som_engine.h"
#include "som_work.h"

/* Work units the CPU backend gets through per second per thread, about (measured on a 2-core
 * AMD EPYC, Zen 4, with AVX2: 3e9 to 6e9 across the online and batch benchmarks; the lower
 * end). backend = "auto" estimates a call's CPU time from it (R asks: constants()). */
#define SOM_CPU_UNITS_PER_SECOND 3e9

/* The CPU backend (som_cpu_backend.c): nthreads threads, round_units (<= 0:
 * SOM_ROUND_UNITS) of work per thread between interrupt checks. */
typedef struct {
    int threads;
    double round_units;
    int precision; /* SOM_DOUBLE, or SOM_SINGLE: the engines of som_real.h in float      */
} som_cpu_cfg;

extern const som_engine som_cpu_online, som_cpu_batch;     /* double precision */
extern const som_engine som_cpu_online_f, som_cpu_batch_f; /* single precision */
extern const som_engine som_cpu_online_w; /* double, packs of 8 maps (som_cpu_online_w.c) */
/* Data-parallel batch (future workers, som_cpu_shards_t.h). On a worker: the sums of
 * blocks b0 .. b1 - 1 of the data for the maps of p at their initial weights (init
 * "given": the pass's weights), as the aligned nodes of the pairwise sums the range holds
 * (som_pair_nodes columns, each every map's sums in order, som_slot_width per neuron). */
int som_cpu_batch_shards(som_cpu_cfg *cfg, const som_problem *p, int64_t b0, int64_t b1,
                         double *out, som_status *st);
int som_cpu_batch_shards_f(som_cpu_cfg *cfg, const som_problem *p, int64_t b0, int64_t b1,
                           double *out, som_status *st);
/* In this process, an engine of the driver (batch only): each pass, gather(ud, p, w, t,
 * nodes, count, st) fills nodes (count values) with the workers' nodes of pass t for the
 * maps at weights w (column-major), the ranges ranges[2 i] .. ranges[2 i + 1] - 1 in
 * order, from block 0 to the pass's last; the engine pushes them in block order and ends
 * the pass. gather runs on the driver's thread. */
typedef int (*som_gather_fn)(void *ud, const som_problem *p, double *const *w, int t,
                             double *nodes, size_t count, som_status *st);
typedef struct {
    som_cpu_cfg cpu;       /* this process's CPU backend: the precision, the pass's end  */
    const int64_t *ranges; /* the workers' ranges of blocks, nranges pairs               */
    int nranges;
    som_gather_fn gather;
    void *ud;
} som_shards_cfg;
extern const som_engine som_cpu_shards, som_cpu_shards_f;
som_backend som_cpu_shards_backend(som_shards_cfg *cfg);
/* A CPU backend for cfg (which must outlive it). */
som_backend som_cpu_backend(som_cpu_cfg *cfg);

#endif
