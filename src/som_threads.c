/* som_threads.c: what OpenMP offers here; everything else uses num_threads clauses. */
#ifdef _OPENMP
#include <omp.h>
#endif

#include "som_core.h"

int som_have_openmp(void)
{
#ifdef _OPENMP
    return 1;
#else
    return 0;
#endif
}

/* The most threads a parallel region may use: OMP_NUM_THREADS / OMP_THREAD_LIMIT aware. */
int som_max_threads(void)
{
#ifdef _OPENMP
    int n = omp_get_max_threads(), lim = omp_get_thread_limit(), procs = omp_get_num_procs();
    if (lim > 0 && lim < n) n = lim;
    if (procs > 0 && procs < n) n = procs;
    return n > 0 ? n : 1;
#else
    return 1;
#endif
}
