/* som_cpu_online.c: the online engine in double precision (som_cpu_online_t.h). */
#include "som_cpu_online_t.h"
