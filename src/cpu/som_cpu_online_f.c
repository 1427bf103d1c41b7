/* som_cpu_online_f.c: the online engine in single precision (som_cpu_online_t.h). */
#define SOM_SINGLE_PRECISION
#include "som_cpu_online_t.h"
