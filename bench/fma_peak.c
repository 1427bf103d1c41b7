/* The machine's double-precision peak, for a ceiling on the ring training's rate
   (bench_mixed.R --floor compiles and runs it): 16 independent chains of 4-wide fused
   multiply-adds per thread, in registers, no memory traffic. Prints GFlop/s (2 flops per
   lane and multiply-add) and the threads. The ring SOM's step needs per neuron and column
   a difference and a square-add (the winner search) and a difference and a multiply-add
   (the update): two multiply-adds, the differences on the adders beside them, so this
   rate in flops is also the most neuron, column and row steps it could do per second,
   times 4 (the count bench_mixed.R gives the package's training), loads and stores
   ignored: a generous ceiling.

     cc -O3 -march=native -fopenmp fma_peak.c -o fma_peak
     OMP_NUM_THREADS=2 ./fma_peak rounds */
#include <stdio.h>
#include <stdlib.h>
#include <omp.h>

typedef double v4 __attribute__((vector_size(32)));

int main(int argc, char **argv) {
  if (argc != 2) return 2;
  long rounds = atol(argv[1]);
  if (rounds < 1) return 2;
  double keep = 0, t0 = omp_get_wtime();
  int threads = 1;
#pragma omp parallel reduction(+ : keep)
  {
#pragma omp single
    threads = omp_get_num_threads();
    v4 acc[16], a = {0.999999, 0.999998, 0.999997, 0.999996}, b = {1e-7, 2e-7, 3e-7, 4e-7};
    for (int i = 0; i < 16; i++) acc[i] = (v4){i, i + 0.5, i + 0.25, i + 0.75};
    for (long r = 0; r < rounds; r++) {
#pragma GCC unroll 16
      for (int i = 0; i < 16; i++) acc[i] = acc[i] * a + b;
    }
    for (int i = 0; i < 16; i++) keep += acc[i][0] + acc[i][3]; /* used: not optimized away */
  }
  double t = omp_get_wtime() - t0;
  printf("%.3f %d %g\n", 2.0 * 4 * 16 * (double)rounds * threads / t / 1e9, threads, keep);
  return 0;
}
