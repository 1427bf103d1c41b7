/* bench.c: the benchmark cases of bench/ without R, for a machine with an OpenCL device and
 * no R (tools/device-check.sh). Each case trains on the CPU backend (every thread) and on
 * each OpenCL device in double and, where it helps, single precision; prints one table of
 * seconds, the ratio to the CPU backend, and whether double precision gave the CPU
 * backend's weights bit for bit. Exit status 1 when a double-precision run disagrees or
 * fails.
 *
 *   bench [--quick]      (--quick: smaller cases, for PoCL on a small machine) */
#define _POSIX_C_SOURCE 200809L
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "som_core.h"
#include "som_cpu.h"
#include "som_lanes.h"
#include "som_ocl.h"
#include "som_omp.h"

typedef struct {
    const char *name;
    int64_t n;
    int m, smin, smax, restarts, iter_max, algorithm;
} bench_case;

/* splitmix64: the same data on every machine */
static double unif(uint64_t *s)
{
    uint64_t z = (*s += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return (double)((z ^ (z >> 31)) >> 11) / 9007199254740992.0;
}

typedef struct {
    som_problem p;
    double *x, **w, *sigma0;
    int *size, *restart;
} job;

static int make_job(const bench_case *c, job *j)
{
    const int nsizes = c->smax - c->smin + 1, nmaps = nsizes * c->restarts;
    uint64_t s = 20261130;
    int64_t i;
    int q;
    memset(j, 0, sizeof *j);
    j->x = malloc((size_t)c->n * c->m * sizeof *j->x);
    j->size = malloc((size_t)nmaps * sizeof *j->size);
    j->restart = malloc((size_t)nmaps * sizeof *j->restart);
    j->sigma0 = malloc((size_t)nmaps * sizeof *j->sigma0);
    j->w = calloc((size_t)nmaps, sizeof *j->w);
    if (!j->x || !j->size || !j->restart || !j->sigma0 || !j->w) return 0;
    for (i = 0; i < c->n * c->m; i++) j->x[i] = unif(&s);
    for (q = 0; q < nmaps; q++) {
        j->size[q] = c->smin + q / c->restarts;
        j->restart[q] = q % c->restarts;
        j->sigma0[q] = 5;
        if (!(j->w[q] = malloc((size_t)j->size[q] * c->m * sizeof(double)))) return 0;
    }
    j->p.data.x = j->x;
    j->p.data.n = c->n;
    j->p.data.m = c->m;
    j->p.nmaps = nmaps;
    j->p.size = j->size;
    j->p.restart = j->restart;
    j->p.iter_max = c->iter_max;
    j->p.sigma0 = j->sigma0;
    j->p.eta0 = 1;
    j->p.init = SOM_INIT_UNIFORM;
    j->p.seed = 1;
    j->p.algorithm = c->algorithm;
    j->p.batch_block = SOM_BATCH_BLOCK;
    return 1;
}

static void free_job(job *j)
{
    int q;
    for (q = 0; j->w && q < j->p.nmaps; q++) free(j->w[q]);
    free(j->w);
    free(j->x);
    free(j->size);
    free(j->restart);
    free(j->sigma0);
}

/* Seconds of one training run (-1 on failure, the message printed). */
static double run(job *j, som_backend *be)
{
    som_status st;
    double t0 = som_now_seconds();
    int rc;
    som_status_init(&st);
    rc = som_train(&j->p, be, j->w, NULL, &st);
    if (rc != SOM_OK) {
        fprintf(stderr, "  training failed: %s\n", st.message);
        som_status_clear(&st);
        return -1;
    }
    som_status_clear(&st);
    return som_now_seconds() - t0;
}

static double **copy_weights(const job *j)
{
    double **c = calloc((size_t)j->p.nmaps, sizeof *c);
    int q;
    for (q = 0; c && q < j->p.nmaps; q++) {
        size_t len = (size_t)j->size[q] * j->p.data.m * sizeof(double);
        if ((c[q] = malloc(len)) != NULL) memcpy(c[q], j->w[q], len);
    }
    return c;
}

static int same(const job *j, double *const *ref)
{
    int q;
    for (q = 0; q < j->p.nmaps; q++)
        if (memcmp(ref[q], j->w[q], (size_t)j->size[q] * j->p.data.m * sizeof(double)))
            return 0;
    return 1;
}

int main(int argc, char **argv)
{
    const int quick = argc > 1 && !strcmp(argv[1], "--quick");
    /* the cases of bench/bench_seed.R, bench_many_maps.R and bench_batch.R, and the seed
     * case's sizes with 112 restarts (1008 maps) */
    const bench_case full[] = {
        {"seed case (2000 x 3, N = 2..10, 149 passes)", 2000, 3, 2, 10, 1, 150, SOM_ONLINE},
        {"many maps (5000 x 8, N = 2..30 x 4, 50 passes)", 5000, 8, 2, 30, 4, 51, SOM_ONLINE},
        {"1008 maps of the seed case (N = 2..10 x 112)", 2000, 3, 2, 10, 112, 150, SOM_ONLINE},
        {"batch (200000 x 16, N = 2..20, 20 passes)", 200000, 16, 2, 20, 1, 21, SOM_BATCH}};
    const bench_case small[] = {
        {"seed case (2000 x 3, N = 2..10, 149 passes)", 2000, 3, 2, 10, 1, 150, SOM_ONLINE},
        {"many maps, 5 passes (5000 x 8, N = 2..30 x 4)", 5000, 8, 2, 30, 4, 6, SOM_ONLINE},
        {"112 maps of the seed case, 20 passes", 2000, 3, 2, 10, 14, 21, SOM_ONLINE},
        {"batch, 5 passes (20000 x 16, N = 2..20)", 20000, 16, 2, 20, 1, 6, SOM_BATCH}};
    const bench_case *cases = quick ? small : full;
    som_ocl_device *dev = NULL;
    som_status st;
    int ndev = 0, c, d, bad = 0;

    som_threads_init();
    som_status_init(&st);
    if (som_ocl_built() && som_ocl_list(&dev, &ndev, &st) != SOM_OK) {
        fprintf(stderr, "listing OpenCL devices failed: %s\n", st.message);
        ndev = 0;
    }
    som_status_clear(&st);
    printf("somgpu C benchmark%s: CPU backend with %d threads (%s vectors), %d OpenCL device%s\n",
           quick ? " (--quick)" : "", som_max_threads(), som_lanes_isa(), ndev,
           ndev == 1 ? "" : "s");
    for (d = 0; d < ndev; d++)
        printf("  device %d: %s (%s, %s, %d compute units, fp64 %s)\n", d + 1, dev[d].name,
               dev[d].type, dev[d].version, dev[d].compute_units, dev[d].fp64 ? "yes" : "no");
    printf("\n%-50s %-34s %9s %8s %s\n", "case", "backend", "seconds", "vs cpu", "bits");
    for (c = 0; c < 4; c++) {
        job j;
        som_cpu_cfg cpu = {0, 0};
        som_backend be;
        double t_cpu, **ref;
        int q;
        if (!make_job(&cases[c], &j)) {
            fprintf(stderr, "out of memory\n");
            return 2;
        }
        cpu.threads = som_max_threads();
        be = som_cpu_backend(&cpu);
        t_cpu = run(&j, &be);
        bad |= t_cpu < 0;
        printf("%-50s %-34s %9.3f %8s %s\n", cases[c].name, "cpu", t_cpu, "1.00", "reference");
        fflush(stdout);
        ref = copy_weights(&j);
        for (d = 0; d < ndev && ref; d++) {
            int prec;
            for (prec = SOM_DOUBLE; prec <= SOM_SINGLE; prec++) {
                som_ocl_ctx *ctx = NULL;
                som_ocl_cfg cfg;
                char label[64];
                double t;
                if (prec == SOM_DOUBLE && !dev[d].fp64) continue;
                som_status_init(&st);
                if (som_ocl_open(d, prec, NULL, &ctx, &st) != SOM_OK) {
                    fprintf(stderr, "  device %d: %s\n", d + 1, st.message);
                    som_status_clear(&st);
                    bad |= prec == SOM_DOUBLE;
                    continue;
                }
                som_status_clear(&st);
                memset(&cfg, 0, sizeof cfg);
                cfg.ctx = ctx;
                cfg.opts.group_local = 1; /* train()'s defaults */
                be = som_ocl_backend(&cfg, som_max_threads());
                run(&j, &be); /* warm-up: first launches, buffers */
                t = run(&j, &be);
                snprintf(label, sizeof label, "opencl %d %s (%.18s)", d + 1,
                         prec == SOM_DOUBLE ? "double" : "single", dev[d].name);
                printf("%-50s %-34s %9.3f %8.2f %s\n", "", label, t, t > 0 ? t_cpu / t : 0,
                       t < 0 ? "FAILED"
                       : prec == SOM_SINGLE ? "(single: not compared)"
                       : same(&j, ref) ? "identical" : "DIFFERENT");
                fflush(stdout);
                bad |= prec == SOM_DOUBLE && (t < 0 || !same(&j, ref));
                som_ocl_close(ctx);
            }
        }
        for (q = 0; ref && q < j.p.nmaps; q++) free(ref[q]);
        free(ref);
        free_job(&j);
    }
    free(dev);
    printf("\n%s\n", bad ? "some OpenCL double-precision runs FAILED or DIFFERED from the CPU"
                         : "every double-precision OpenCL run gave the CPU backend's bits");
    return bad;
}
