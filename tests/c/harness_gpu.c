/* harness_gpu.c: what PoCL, OpenCL on a CPU with 2 MiB of local memory, never runs by itself
 * (see harness.c): the paths of a device with little or no local memory (faked with the
 * option local_mem), rings over 256 neurons with weights over an NVIDIA SM's 48 KiB, every
 * kernel of the program launched at least once (counted by profiling), and single
 * precision batch against double. */
#include "harness.h"

#ifdef SOMGPU_HAVE_OPENCL

/* Launches per kernel over the profiled runs of a device (som_ocl_launch_stats). */
typedef struct {
    char kernel[40];
    long launches;
} launch_count;

static launch_count counts[SOM_OCL_MAX_STATS];
static int ncounts;

void launches_add(const som_ocl_ctx *ctx)
{
    som_ocl_launch_stat s[SOM_OCL_MAX_STATS];
    int n = som_ocl_launch_stats(ctx, s, SOM_OCL_MAX_STATS), i, j;
    for (i = 0; i < n && i < SOM_OCL_MAX_STATS; i++) {
        for (j = 0; j < ncounts && strcmp(counts[j].kernel, s[i].kernel); j++) {}
        if (j == ncounts) {
            if (ncounts == SOM_OCL_MAX_STATS) continue;
            strcpy(counts[ncounts++].kernel, s[i].kernel);
        }
        counts[j].launches += s[i].launches;
    }
}

/* Every kernel of the program ran in the device's profiled runs. */
void launches_check(const char *dev)
{
    static const char *kernels[] = {"k_online_item", "k_online_wg_local",
                                    "k_online_wg_global", "k_batch_assign",
                                    "k_batch_assign_local", "k_batch_sums", "k_batch_reduce",
                                    "k_batch_smooth", "k_trace_qe"};
    enum { nk = sizeof kernels / sizeof *kernels };
    long n[nk];
    size_t i;
    int j;
    set_where("%s: launches per kernel", dev);
    printf("  launches (profiled runs):");
    for (i = 0; i < nk; i++) {
        n[i] = 0;
        for (j = 0; j < ncounts; j++)
            if (!strcmp(counts[j].kernel, kernels[i])) n[i] = counts[j].launches;
        printf(" %s %ld%s", kernels[i] + 2, n[i], i + 1 < nk ? "," : "\n");
    }
    for (i = 0; i < nk; i++) check(n[i] > 0, "kernel %s never ran", kernels[i]);
}

void launches_reset(void) { ncounts = 0; }

/* Each path once, profiled, on the first online and the first batch problem (with at least
 * one pass): the work-item kernel; the work-group kernel with weights in local memory, in
 * global memory by choice, and in global memory for want of local memory; the winner search
 * with and without local memory. Results checked as every run's. */
void coverage_runs(som_ocl_ctx *ctx, prob *probs, int np, long refs, const char *dev)
{
    static const struct { int algorithm, kernel, local; double local_mem; } v[] = {
        {SOM_ONLINE, SOM_KERNEL_ITEM, 0, 0},  {SOM_ONLINE, SOM_KERNEL_WG, 1, 0},
        {SOM_ONLINE, SOM_KERNEL_WG, 0, 0}, {SOM_ONLINE, SOM_KERNEL_WG, 1, 1},
        {SOM_BATCH, SOM_KERNEL_AUTO, 0, 0},   {SOM_BATCH, SOM_KERNEL_AUTO, 0, 1}};
    size_t j;
    int i;
    for (j = 0; j < sizeof v / sizeof *v; j++) {
        for (i = 0; i < np; i++)
            if (probs[i].p.algorithm == v[j].algorithm && probs[i].p.iter_max > 1) break;
        if (i == np) continue;
        {
            som_ocl_opts o;
            memset(&o, 0, sizeof o);
            o.kernel = v[j].kernel;
            o.wg_local = v[j].local;
            o.local_mem = v[j].local_mem;
            set_where("%s, %s, coverage: kernel %s local %d local_mem %.0f", dev, probs[i].desc,
                      kernel_name(o.kernel), o.wg_local, o.local_mem);
            ocl_train_checks(ctx, &probs[i], &o, refs);
            launches_add(ctx);
        }
    }
}

/* Rings over 256 neurons (work-groups of 256 items, several neurons each) with weights
 * over 48 KiB, under each kernel: the work-item kernel, the work-group kernel with weights
 * in local memory and, as on an NVIDIA SM, in global memory because they do not fit. */
void big_ring_checks(som_ocl_ctx *ctx, prob *pr, long refs, const char *dev)
{
    som_ocl_opts o;
    int v;
    for (v = 0; v < 3; v++) {
        memset(&o, 0, sizeof o);
        o.kernel = v == 0 ? SOM_KERNEL_ITEM : SOM_KERNEL_WG;
        o.wg_local = v == 1;
        o.local_mem = v == 2 ? 49152 : 0;
        set_where("%s, %s, big rings: kernel %s local %d local_mem %.0f", dev, pr->desc,
                  kernel_name(o.kernel), o.wg_local, o.local_mem);
        ocl_train_checks(ctx, pr, &o, refs);
    }
}

/* Single precision batch against double: 20 000 rows of 6 well separated clusters in 4
 * columns, rings of 2 to 12, 12 passes. The weights of every map within 1e-4 of the CPU's
 * double (the data span about 10); the largest difference printed. */
void single_batch_check(int d, const char *dev)
{
    enum { n = 20000, m = 4, nmaps = 11 };
    static double x[n * m];
    static int size[nmaps], restart[nmaps];
    static double sigma0[nmaps];
    som_problem p;
    som_ocl_ctx *ctx = NULL;
    som_ocl_opts o;
    som_status st;
    double **wd, **ws, worst = 0;
    rng r = {7};
    int i, k, rc, used;
    for (i = 0; i < n; i++)
        for (k = 0; k < m; k++) x[(size_t)k * n + i] = (double)((i % 6) * (k + 1) % 7) + 0.3 * rnorm(&r);
    for (i = 0; i < nmaps; i++) {
        size[i] = 2 + i;
        restart[i] = 0;
        sigma0[i] = size[i] / 8.0;
    }
    memset(&p, 0, sizeof p);
    p.data.x = x;
    p.data.n = n;
    p.data.m = m;
    p.nmaps = nmaps;
    p.size = size;
    p.restart = restart;
    p.sigma0 = sigma0;
    p.iter_max = 13;
    p.eta0 = 1;
    p.init = SOM_INIT_UNIFORM;
    p.seed = 11;
    p.algorithm = SOM_BATCH;
    p.batch_block = SOM_BATCH_BLOCK;
    wd = alloc_weights(&p);
    ws = alloc_weights(&p);
    memset(&o, 0, sizeof o);
    set_where("%s: single precision batch against double", dev);
    som_status_init(&st);
    rc = cpu_train(&p, wd, 2, 0, NULL, &st);
    check(rc == SOM_OK, "CPU double: %s", st.message);
    clear_status(&st);
    if (rc == SOM_OK && som_ocl_open(d, SOM_SINGLE, NULL, &ctx, &st) == SOM_OK) {
        rc = ocl_train(ctx, &p, ws, &o, NULL, &used, &st);
        if (check(rc == SOM_OK, "OpenCL single: %s", st.message)) {
            for (i = 0; i < nmaps; i++)
                for (k = 0; k < size[i] * m; k++)
                    worst = fmax(worst, fabs(ws[i][k] - wd[i][k]));
            check(worst <= 1e-4, "single differs from double by %g", worst);
            printf("  single precision batch (20000 x 4, rings 2..12): largest difference "
                   "from double %.2g\n", worst);
        }
        close_checked(ctx);
    } else {
        check(0, "som_ocl_open (single): %s", st.message);
    }
    clear_status(&st);
    free_weights(wd, nmaps);
    free_weights(ws, nmaps);
}

#else
typedef int harness_gpu_unused; /* without OpenCL: nothing here (ISO C wants a declaration) */
#endif
