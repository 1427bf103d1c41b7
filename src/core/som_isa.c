/* som_isa.c: which version of the SOM_VERSIONS kernels (som_host.h) runs: the widest
 * instruction set the processor has, capped by the environment variable SOMGPU_ISA
 * ("portable", "avx2" or "avx512"), read once when the library loads (som_isa_set from
 * R_init, or the first som_isa() where nothing set it: the C harness). Every version gives
 * the same bits; the cap is for tests and comparisons. */
#include <string.h>

#include "som_host.h"

static int som_isa_level = -1;

static int som_isa_detect(void)
{
#if SOM_CLONES
    __builtin_cpu_init();
    if (__builtin_cpu_supports("avx512f")) return SOM_ISA_AVX512;
    if (__builtin_cpu_supports("avx2")) return SOM_ISA_AVX2;
#endif
    return SOM_ISA_BASELINE;
}

/* The cap's level, -1 for a request this does not know (NULL or "": none). */
static int som_isa_parse(const char *request)
{
    if (!request || !*request) return SOM_ISA_AVX512;
    if (!strcmp(request, "portable") || !strcmp(request, "baseline")) return SOM_ISA_BASELINE;
    if (!strcmp(request, "avx2")) return SOM_ISA_AVX2;
    if (!strcmp(request, "avx512")) return SOM_ISA_AVX512;
    return -1;
}

/* Sets the level from the processor and the cap; 0, or -1 where the request is unknown
 * (then no cap). Called before any parallel region reads the level. */
int som_isa_set(const char *request)
{
    const int cap = som_isa_parse(request), have = som_isa_detect();
    som_isa_level = cap >= 0 && cap < have ? cap : have;
    return cap >= 0 ? 0 : -1;
}

int som_isa(void)
{
    if (som_isa_level < 0) som_isa_set(NULL);
    return som_isa_level;
}

const char *som_isa_name(void)
{
    static const char *names[] = {"baseline", "avx2", "avx512"};
    return names[som_isa()];
}
