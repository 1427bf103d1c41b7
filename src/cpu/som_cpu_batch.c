/* som_cpu_batch.c: the batch engine in double precision (som_cpu_batch_t.h), and its data-parallel
 * entry points (som_cpu_shards_t.h). */
#include "som_cpu_batch_t.h"
#include "som_cpu_shards_t.h"
