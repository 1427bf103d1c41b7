/* som_omp.h: the one place that knows whether OpenMP is there (as data.table's myomp.h).
 * Call sites write SOM_PARALLEL_FOR(nthreads, schedule) before a loop and SOM_SIMD before
 * an inner loop; without OpenMP both are empty and the loops run on the calling thread.
 * Thread counts come from som_threads() (som_threads.c), never from omp_set_num_threads. */
#ifndef SOM_OMP_H
#define SOM_OMP_H

#ifdef _OPENMP
#define SOM_PRAGMA(...) _Pragma(#__VA_ARGS__)
/* e.g. SOM_PARALLEL_FOR(nthreads, dynamic, 1) */
#define SOM_PARALLEL_FOR(nthreads, ...) \
    SOM_PRAGMA(omp parallel for num_threads(nthreads) schedule(__VA_ARGS__))
#define SOM_SIMD SOM_PRAGMA(omp simd)
#else
#define SOM_PARALLEL_FOR(nthreads, ...)
#define SOM_SIMD
#endif

void som_threads_init(void);   /* once, when the library is loaded                         */
int som_in_forked_child(void); /* a fork() happened since the library was loaded           */
int som_have_openmp(void);
int som_processors(void);
int som_max_threads(void);     /* the most a parallel region may use (1 in a forked child) */
/* The thread count every entry point uses: `requested` clamped to 1 .. som_max_threads(). */
int som_threads(int requested);
int som_thread_num(void);      /* this thread's number in its parallel region, 0 outside   */

#endif
