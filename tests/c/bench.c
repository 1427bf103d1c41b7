/* bench.c: the benchmark cases of bench/ without R, for a machine with an OpenCL device and
 * no R (tools/device-check.sh). Each case trains on the CPU backend (every thread) and on
 * each OpenCL device: online cases with the kernel chosen as train() does ("auto"), with a
 * work-item per map and with a work-group per map; batch with the winner search's weights
 * in local memory where they fit and without local memory; in double (every variant,
 * compared with the CPU bit for bit) and in single ("auto", its largest difference from
 * the CPU's double). One table of seconds and ratios to the CPU, each run followed by the
 * kernels that ran (launches, the largest launch's global and local sizes, device seconds
 * from profiling events, in a separate run). Then the work-item against the work-group
 * kernel by ring size (where the work-group kernel starts to win: the option
 * somgpu.opencl_group_min_size), and each program's binary: written to build/, and on
 * NVIDIA (PTX text) searched for fused multiply-adds in double and for double
 * instructions in single. Exit status 1 when a double-precision run disagrees or fails.
 *
 *   bench [--quick]      (--quick: smaller cases, for PoCL on a small machine) */
#define _POSIX_C_SOURCE 200809L
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "som_cpu.h"
#include "som_lanes.h"
#include "som_math.h"
#include "som_ocl.h"
#include "som_omp.h"

typedef struct {
    const char *name;
    int64_t n;
    int m, smin, smax, restarts, iter_max, algorithm;
} bench_case;

/* The variants of an OpenCL run. */
typedef struct {
    const char *name;
    int algorithm, kernel;
    double local_mem;
} variant;
static const variant variants[] = {{"auto", SOM_ONLINE, SOM_KERNEL_AUTO, 0},
                                   {"item", SOM_ONLINE, SOM_KERNEL_ITEM, 0},
                                   {"group", SOM_ONLINE, SOM_KERNEL_WG, 0},
                                   {"auto", SOM_BATCH, SOM_KERNEL_AUTO, 0},
                                   {"no local", SOM_BATCH, SOM_KERNEL_AUTO, 1}};
#define NVARIANTS ((int)(sizeof variants / sizeof *variants))

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

static void free_copy(double **c, int nmaps)
{
    int q;
    for (q = 0; c && q < nmaps; q++) free(c[q]);
    free(c);
}

static int same(const job *j, double *const *ref)
{
    int q;
    for (q = 0; q < j->p.nmaps; q++)
        if (memcmp(ref[q], j->w[q], (size_t)j->size[q] * j->p.data.m * sizeof(double)))
            return 0;
    return 1;
}

static double largest_difference(const job *j, double *const *ref)
{
    double worst = 0;
    int q;
    size_t e;
    for (q = 0; q < j->p.nmaps; q++)
        for (e = 0; e < (size_t)j->size[q] * j->p.data.m; e++) {
            double d = fabs(ref[q][e] - j->w[q][e]);
            if (!(d <= worst)) worst = d; /* NaN counts */
        }
    return worst;
}

/* Open device d in a precision, the build log whole on failure. */
static som_ocl_ctx *open_device(int d, int prec)
{
    som_ocl_ctx *ctx = NULL;
    som_status st;
    som_status_init(&st);
    if (som_ocl_open(d, prec, NULL, &ctx, &st) != SOM_OK) {
        fprintf(stderr, "  device %d (%s): %s\n", d + 1, prec == SOM_DOUBLE ? "double" : "single",
                st.message);
        if (st.log) fprintf(stderr, "  build log:\n%s\n", st.log);
        ctx = NULL;
    }
    som_status_clear(&st);
    return ctx;
}

/* One variant on an open context: a profiled run (what ran), then a timed one. */
static double run_variant(job *j, som_ocl_ctx *ctx, const variant *v, int *used,
                          som_ocl_launch_stat *stats, int *nstats)
{
    som_ocl_cfg cfg;
    som_backend be;
    som_status st;
    double t;
    memset(&cfg, 0, sizeof cfg);
    cfg.ctx = ctx;
    cfg.opts.wg_local = 1; /* train()'s defaults */
    cfg.opts.kernel = v->kernel;
    cfg.opts.local_mem = v->local_mem;
    be = som_ocl_backend(&cfg, som_max_threads());
    som_status_init(&st);
    *nstats = 0;
    if (som_ocl_profile(ctx, 1, &st) == SOM_OK && run(j, &be) >= 0)
        *nstats = som_ocl_launch_stats(ctx, stats, SOM_OCL_MAX_STATS);
    som_status_clear(&st);
    som_ocl_profile(ctx, 0, &st);
    som_status_clear(&st);
    cfg.kernels_used = 0;
    t = run(j, &be);
    *used = cfg.kernels_used;
    return t;
}

static void print_stats(const som_ocl_launch_stat *s, int n)
{
    int i, d;
    for (i = 0; i < n && i < SOM_OCL_MAX_STATS; i++) {
        char g[64] = "", l[64] = "";
        for (d = 0; d < s[i].dims; d++) {
            char a[24];
            snprintf(a, sizeof a, "%s%zu", d ? "x" : "", s[i].global[d]);
            strcat(g, a);
            snprintf(a, sizeof a, "%s%zu", d ? "x" : "", s[i].local[d]);
            strcat(l, s[i].local[d] ? a : d ? "" : "runtime's");
        }
        printf("      %-22s %6ld launches  global %-16s local %-10s %9.3f s on the device\n",
               s[i].kernel, s[i].launches, g, l, s[i].seconds);
    }
}

/* Occurrences of a string in a binary. */
static long count_in(const unsigned char *b, size_t len, const char *what)
{
    const size_t k = strlen(what);
    size_t i;
    long n = 0;
    for (i = 0; i + k <= len; i++)
        if (!memcmp(b + i, what, k)) n++;
    return n;
}

/* The program's binary to build/program-<device>-<precision>.bin; on PTX, the fused
 * multiply-adds in double and the double instructions in single. */
static void report_binary(som_ocl_ctx *ctx, int d, int prec)
{
    unsigned char *bin = NULL;
    size_t len = 0;
    som_status st;
    char path[64];
    FILE *f;
    som_status_init(&st);
    if (som_ocl_program_binary(ctx, &bin, &len, &st) != SOM_OK) {
        printf("  device %d %s: no program binary (%s)\n", d + 1,
               prec == SOM_DOUBLE ? "double" : "single", st.message);
        som_status_clear(&st);
        return;
    }
    som_status_clear(&st);
    snprintf(path, sizeof path, "build/program-%d-%s.bin", d + 1,
             prec == SOM_DOUBLE ? "double" : "single");
    if ((f = fopen(path, "wb")) != NULL) {
        fwrite(bin, 1, len, f);
        fclose(f);
    }
    if (count_in(bin, len, ".target") && count_in(bin, len, ".entry")) {
        if (prec == SOM_DOUBLE)
            printf("  device %d double: PTX, %zu bytes (%s): %ld fma.rn.f64 (0: no multiply-add "
                   "fused), %ld .entry\n", d + 1, len, path, count_in(bin, len, "fma.rn.f64"),
                   count_in(bin, len, ".entry"));
        else
            printf("  device %d single: PTX, %zu bytes (%s): %ld .f64 (0: no double)\n", d + 1,
                   len, path, count_in(bin, len, ".f64"));
    } else {
        printf("  device %d %s: binary of %zu bytes (%s), not PTX text: fused multiply-adds "
               "not checked here (tools/gpu-compile.sh checks the IR)\n", d + 1,
               prec == SOM_DOUBLE ? "double" : "single", len, path);
    }
    free(bin);
}

/* The item against the group kernel by ring size, double precision, bits compared. */
static int size_sweep(int d, int quick)
{
    const int sizes[] = {4, 8, 16, 32, 64, 128};
    som_ocl_ctx *ctx = open_device(d, SOM_DOUBLE);
    som_ocl_launch_stat stats[SOM_OCL_MAX_STATS];
    int i, bad = 0, from = 0, used, ns;
    if (!ctx) return 1;
    printf("\nwork-item against work-group kernel, device %d, double: %s maps of one size, "
           "2000 x 3, %d passes\n", d + 1, quick ? "64" : "1024", quick ? 3 : 20);
    printf("%6s %10s %10s %8s %s\n", "size", "item s", "group s", "item/grp", "bits");
    for (i = 0; i < (int)(sizeof sizes / sizeof *sizes); i++) {
        const bench_case c = {"sweep", 2000, 3, sizes[i], sizes[i], quick ? 64 : 1024,
                              quick ? 4 : 21, SOM_ONLINE};
        job j;
        double ti, tg, **ref;
        int ok;
        if (!make_job(&c, &j)) return 1;
        ti = run_variant(&j, ctx, &variants[1], &used, stats, &ns);
        ref = copy_weights(&j);
        tg = run_variant(&j, ctx, &variants[2], &used, stats, &ns);
        ok = ti > 0 && tg > 0 && ref && same(&j, ref);
        bad |= !ok;
        if (ok && tg < ti && !from) from = sizes[i];
        if (ok && tg >= ti) from = 0;
        printf("%6d %10.3f %10.3f %8.2f %s\n", sizes[i], ti, tg, tg > 0 ? ti / tg : 0,
               ok ? "identical" : "DIFFERENT or FAILED");
        fflush(stdout);
        free_copy(ref, j.p.nmaps);
        free_job(&j);
    }
    if (from)
        printf("the work-group kernel wins from size %d on: options(somgpu.opencl_group_min_size "
               "= %d) (default on GPUs: 32)\n", from, from);
    else
        printf("the work-item kernel wins at every size measured\n");
    som_ocl_close(ctx);
    return bad;
}

int main(int argc, char **argv)
{
    const int quick = argc > 1 && !strcmp(argv[1], "--quick");
    /* the cases of bench/bench_seed.R, bench_many_maps.R and bench_batch.R, and the seed
     * case's sizes with 112 and 1112 restarts (1008 and 10 008 maps) */
    const bench_case full[] = {
        {"seed case (2000 x 3, N = 2..10, 149 passes)", 2000, 3, 2, 10, 1, 150, SOM_ONLINE},
        {"many maps (5000 x 8, N = 2..30 x 4, 50 passes)", 5000, 8, 2, 30, 4, 51, SOM_ONLINE},
        {"1008 maps of the seed case (N = 2..10 x 112)", 2000, 3, 2, 10, 112, 150, SOM_ONLINE},
        {"10008 maps of the seed case (x 1112)", 2000, 3, 2, 10, 1112, 150, SOM_ONLINE},
        {"batch (200000 x 16, N = 2..20, 20 passes)", 200000, 16, 2, 20, 1, 21, SOM_BATCH}};
    const bench_case small[] = {
        {"seed case (2000 x 3, N = 2..10, 149 passes)", 2000, 3, 2, 10, 1, 150, SOM_ONLINE},
        {"many maps, 5 passes (5000 x 8, N = 2..30 x 4)", 5000, 8, 2, 30, 4, 6, SOM_ONLINE},
        {"112 maps of the seed case, 20 passes", 2000, 3, 2, 10, 14, 21, SOM_ONLINE},
        {"1008 maps of the seed case, 3 passes", 2000, 3, 2, 10, 112, 4, SOM_ONLINE},
        {"batch, 5 passes (20000 x 16, N = 2..20)", 20000, 16, 2, 20, 1, 6, SOM_BATCH}};
    const int ncases = (int)(sizeof full / sizeof *full);
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
           quick ? " (--quick)" : "", som_max_threads(), som_isa_name(), ndev,
           ndev == 1 ? "" : "s");
    for (d = 0; d < ndev; d++)
        printf("  device %d: %s (%s, %s, %d compute units, %.0f KiB local memory, fp64 %s)\n",
               d + 1, dev[d].name, dev[d].type, dev[d].version, dev[d].compute_units,
               dev[d].local_mem / 1024, dev[d].fp64 ? "yes" : "no");
    printf("\n%-46s %-40s %9s %8s %s\n", "case", "backend", "seconds", "vs cpu", "bits");
    for (c = 0; c < ncases; c++) {
        job j;
        som_cpu_cfg cpu = {0, 0};
        som_backend be;
        double t_cpu, **ref;
        if (!make_job(&cases[c], &j)) {
            fprintf(stderr, "out of memory\n");
            return 2;
        }
        cpu.threads = som_max_threads();
        be = som_cpu_backend(&cpu);
        t_cpu = run(&j, &be);
        bad |= t_cpu < 0;
        printf("%-46s %-40s %9.3f %8s %s\n", cases[c].name, "cpu", t_cpu, "1.00", "reference");
        fflush(stdout);
        ref = copy_weights(&j);
        for (d = 0; d < ndev && ref; d++) {
            int prec;
            for (prec = SOM_DOUBLE; prec <= SOM_SINGLE; prec++) {
                som_ocl_ctx *ctx;
                int v;
                if (prec == SOM_DOUBLE && !dev[d].fp64) continue;
                if (!(ctx = open_device(d, prec))) {
                    bad |= prec == SOM_DOUBLE;
                    continue;
                }
                if (c == 0) report_binary(ctx, d, prec);
                for (v = 0; v < NVARIANTS; v++) {
                    som_ocl_launch_stat stats[SOM_OCL_MAX_STATS];
                    char label[80], bits[64];
                    double t;
                    int used = 0, ns = 0;
                    if (variants[v].algorithm != cases[c].algorithm) continue;
                    if (prec == SOM_SINGLE && variants[v].kernel != SOM_KERNEL_AUTO) continue;
                    if (prec == SOM_SINGLE && variants[v].local_mem > 0) continue;
                    t = run_variant(&j, ctx, &variants[v], &used, stats, &ns);
                    snprintf(label, sizeof label, "opencl %d %s %s (%.14s)", d + 1,
                             prec == SOM_DOUBLE ? "double" : "single", variants[v].name,
                             dev[d].name);
                    if (t < 0) snprintf(bits, sizeof bits, "FAILED");
                    else if (prec == SOM_SINGLE)
                        snprintf(bits, sizeof bits, "single: within %.1g of double",
                                 largest_difference(&j, ref));
                    else snprintf(bits, sizeof bits, "%s", same(&j, ref) ? "identical" : "DIFFERENT");
                    printf("%-46s %-40s %9.3f %8.2f %s\n", "", label, t, t > 0 ? t_cpu / t : 0,
                           bits);
                    print_stats(stats, ns);
                    fflush(stdout);
                    bad |= prec == SOM_DOUBLE && (t < 0 || !same(&j, ref));
                }
                som_ocl_close(ctx);
            }
        }
        free_copy(ref, j.p.nmaps);
        free_job(&j);
    }
    for (d = 0; d < ndev; d++)
        if (dev[d].fp64) bad |= size_sweep(d, quick);
    free(dev);
    printf("\n%s\n", bad ? "some OpenCL double-precision runs FAILED or DIFFERED from the CPU"
                         : "every double-precision OpenCL run gave the CPU backend's bits");
    return bad;
}
