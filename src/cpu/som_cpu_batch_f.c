/* som_cpu_batch_f.c: the batch engine in single precision (som_cpu_batch_t.h), and its data-parallel
 * entry points (som_cpu_shards_t.h). */
#define SOM_SINGLE_PRECISION
#include "som_cpu_batch_t.h"
#include "som_cpu_shards_t.h"
