/* som_cpu_online_w.c: the online engine in double precision with packs of 8 maps, one
 * AVX-512 register (som_cpu_online_t.h with SOM_WIDE_LANES); the double engine hands a
 * family to it on processors with AVX-512 where its shape makes it pay (online_pick). */
#define SOM_WIDE_LANES
#include "som_cpu_online_t.h"
