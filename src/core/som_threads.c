/* som_threads.c: what OpenMP offers here, and the one thread count every entry point uses
 * (som_threads); parallel regions take it through num_threads clauses (som_omp.h).
 *
 * GNU OpenMP is not fork-safe: a child forked (parallel::mclapply) after the parent ran a
 * parallel region hangs in its first one. As data.table does, a child of a fork is
 * limited to one thread. */
#ifdef _OPENMP
#include <omp.h>
#ifndef _WIN32
#include <pthread.h>
#define SOM_ATFORK 1
#endif
#endif

#include "som_omp.h"

static volatile int som_forked = 0;

int som_in_forked_child(void)
{
    return som_forked;
}

#ifdef SOM_ATFORK
static void som_after_fork_child(void)
{
    som_forked = 1;
}
#endif

void som_threads_init(void)
{
#ifdef SOM_ATFORK
    pthread_atfork(NULL, NULL, som_after_fork_child);
#endif
}

int som_have_openmp(void)
{
#ifdef _OPENMP
    return 1;
#else
    return 0;
#endif
}

/* This thread's number in the enclosing parallel region (0 outside one): the index of its
 * scratch buffer. */
int som_thread_num(void)
{
#ifdef _OPENMP
    return omp_get_thread_num();
#else
    return 0;
#endif
}

/* The most threads a parallel region may use: OMP_NUM_THREADS / OMP_THREAD_LIMIT aware,
 * and 1 in a forked child. */
int som_max_threads(void)
{
#ifdef _OPENMP
    int n = omp_get_max_threads(), lim = omp_get_thread_limit(), procs = omp_get_num_procs();
    if (som_forked) return 1;
    if (lim > 0 && lim < n) n = lim;
    if (procs > 0 && procs < n) n = procs;
    return n > 0 ? n : 1;
#else
    return 1;
#endif
}

/* The processors the system has (what OpenMP counts; 1 without OpenMP). */
int som_processors(void)
{
#ifdef _OPENMP
    int procs = omp_get_num_procs();
    return procs > 0 ? procs : 1;
#else
    return 1;
#endif
}

int som_threads(int requested)
{
    int max = som_max_threads();
    return requested < 1 ? 1 : requested > max ? max : requested;
}
