/* som_cpu_backend.c: the CPU backend for the driver (its engines in the precision asked
 * for) and what its vectors run with here. */
#include "som_cpu.h"
#include "som_lanes.h"
#include "som_omp.h"

som_backend som_cpu_backend(som_cpu_cfg *cfg)
{
    const int single = cfg->precision == SOM_SINGLE;
    som_backend be;
    be.engine[SOM_ONLINE] = single ? &som_cpu_online_f : &som_cpu_online;
    be.engine[SOM_BATCH] = single ? &som_cpu_batch_f : &som_cpu_batch;
    be.cfg = cfg;
    be.threads = som_threads(cfg->threads);
    (void)som_isa(); /* the kernels' version, set before a thread reads it */
    return be;
}

som_backend som_cpu_shards_backend(som_shards_cfg *cfg)
{
    som_backend be;
    be.engine[SOM_ONLINE] = NULL;
    be.engine[SOM_BATCH] = cfg->cpu.precision == SOM_SINGLE ? &som_cpu_shards_f : &som_cpu_shards;
    be.cfg = cfg;
    be.threads = som_threads(cfg->cpu.threads);
    (void)som_isa();
    return be;
}
