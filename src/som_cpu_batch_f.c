/* som_cpu_batch_f.c: the batch engine in single precision (som_cpu_batch_t.h). */
#define SOM_SINGLE_PRECISION
#include "som_cpu_batch_t.h"
