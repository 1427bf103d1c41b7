/* harness_ocl.c: the OpenCL backend (see harness.c): double precision against the CPU bit
 * for bit under every option, single precision sane, failures and interrupts, and no
 * OpenCL object left behind; in a CPU-only build, the stubs. */
#include "harness.h"

/* --- OpenCL ------------------------------------------------------------------------ */

#ifdef SOMGPU_HAVE_OPENCL

/* The OpenCL reference count of a som_ocl_ctx's context. Every buffer, queue, program and
 * kernel holds a reference on its context, so the count back at its value after
 * som_ocl_open means a run released every OpenCL object it made, which LeakSanitizer
 * cannot see (the runtime keeps them reachable). -1 when it cannot be read. */
static long ctx_refcount(const som_ocl_ctx *ctx)
{
    cl_device_id dev = NULL;
    cl_uint count = 0;
    if (ctx->context == NULL ||
        clGetContextInfo(ctx->context, CL_CONTEXT_DEVICES, sizeof dev, &dev, NULL) != CL_SUCCESS ||
        dev != ctx->device)
        return -1;
    if (clGetContextInfo(ctx->context, CL_CONTEXT_REFERENCE_COUNT, sizeof count, &count, NULL) !=
        CL_SUCCESS)
        return -1;
    return (long)count;
}

/* The count once the runtime has caught up: PoCL drops the references of a finished
 * command's objects from a thread of its own, a little after clFinish. Up to 2 s. */
static long settled_refcount(const som_ocl_ctx *ctx, long want)
{
    long c = ctx_refcount(ctx);
    int i;
    for (i = 0; i < 200 && c != want; i++) {
        struct timespec ts = {0, 10000000};
        nanosleep(&ts, NULL);
        c = ctx_refcount(ctx);
    }
    return c;
}

/* som_ocl_close, checked: with a reference of our own on the context, after the close it
 * must be the only one left (every kernel, the program and the queue were released). */
void close_checked(som_ocl_ctx *ctx)
{
    cl_context context;
    cl_uint count = 0;
    if (ctx_refcount(ctx) <= 0) {
        som_ocl_close(ctx);
        return;
    }
    context = ctx->context;
    clRetainContext(context);
    som_ocl_close(ctx);
    {
        int i;
        for (i = 0; i < 200; i++) {
            struct timespec ts = {0, 10000000};
            if (clGetContextInfo(context, CL_CONTEXT_REFERENCE_COUNT, sizeof count, &count,
                                 NULL) != CL_SUCCESS || count == 1)
                break;
            nanosleep(&ts, NULL);
        }
    }
    check(count == 1, "som_ocl_close left %u references on the context", count - 1);
    clReleaseContext(context);
}

const char *kernel_name(int k)
{
    return k == SOM_KERNEL_ITEM ? "item" : k == SOM_KERNEL_WG ? "group" : "auto";
}

/* A max_alloc cap just above what the problem needs in one buffer, so that maps are
 * trained in groups and the batch data in chunks of a few blocks. */
static double small_alloc(const som_problem *p, size_t rs, int factor)
{
    const int m = p->data.m;
    const double n = (double)p->data.n;
    double need = 0, bc = p->batch_block < p->data.n ? p->batch_block : n;
    int i, maxN = 0;
    for (i = 0; i < p->nmaps; i++)
        if (p->size[i] > maxN) maxN = p->size[i];
    if (p->algorithm == SOM_ONLINE) {
        need = fmax(n * m * rs, n * 4.0);
    } else {
        need = fmax(bc * m * rs, bc * 4.0);
        need = fmax(need, (double)maxN * som_slot_width(m, som_data_general(&p->data)) * rs);
    }
    need = fmax(need, (double)maxN * m * rs);
    return need * factor;
}

/* The options of run j: cycles of coprime lengths, so that the problems meet them all. */
static som_ocl_opts pick_opts(const som_problem *p, int j, size_t rs)
{
    som_ocl_opts o;
    memset(&o, 0, sizeof o);
    o.kernel = j % 3;
    o.wg_local = j / 3 % 2;
    o.stream_data = j / 2 % 2;
    o.wg_min_size = j % 5 < 2 ? 8 : 0;
    o.max_alloc = j % 4 == 1 ? small_alloc(p, rs, 1 + j / 4 % 3) : 0;
    o.launch_seconds = j % 7 == 3 ? 0.002 : 0;
    /* a device with no local memory to spare, or an NVIDIA SM's 48 KiB: the paths PoCL's
     * 2 MiB never takes */
    o.local_mem = j % 5 == 3 ? 1 : j % 5 == 1 ? 49152 : 0;
    return o;
}

/* One OpenCL run of a problem: double must give the CPU's bits, single finite weights and,
 * online (float additions, subtractions and products only, in the same order), the bits of
 * the CPU's single precision. */
void ocl_train_checks(som_ocl_ctx *ctx, prob *pr, const som_ocl_opts *o, long base_refs)
{
    som_problem p = pr->p;
    const int prec = ctx->precision;
    double **w = alloc_weights(&p), *tr = pr->want_trace ? alloc_trace(&p) : NULL;
    hookstate hs;
    som_hooks hooks = make_hooks(&hs, -1);
    som_status st;
    int rc, used = -1;

    p.trace = tr;
    som_status_init(&st);
    rc = ocl_train(ctx, &p, w, o, &hooks, &used, &st);
    if (check(rc == SOM_OK, "som_train (opencl) returned %d: %s", rc, st.message)) {
        check_progress(&p, &hs, "OpenCL training");
        if (prec == SOM_DOUBLE) {
            if (pr->ref_ok)
                check(same_weights(&p, w, pr->ref_w), "double precision differs from the CPU");
            if (tr && pr->ref_ok)
                check(memcmp(tr, pr->ref_trace, trace_len(&p) * sizeof(double)) == 0,
                      "double precision trace differs from the CPU");
        } else {
            check(all_finite(&p, w), "single precision: non-finite weights");
            if (tr) check(trace_finite(&p, tr), "single precision: non-finite trace");
            if (p.algorithm == SOM_ONLINE) {
                double **cw = alloc_weights(&p);
                som_problem q = p;
                som_status cs;
                q.trace = NULL;
                som_status_init(&cs);
                if (check(cpu_train_in(&q, cw, 2, 0, SOM_SINGLE, NULL, &cs) == SOM_OK,
                          "som_train (cpu single): %s", cs.message))
                    check(same_weights(&p, w, cw), "single precision differs from the CPU's");
                som_status_clear(&cs);
                free_weights(cw, p.nmaps);
            }
        }
        /* the kernels that ran */
        if (p.algorithm == SOM_BATCH) {
            check(used == 8, "batch: kernels_used %d", used);
        } else if (p.iter_max == 1) {
            check(used == 0, "no pass: kernels_used %d", used);
        } else if (o->kernel == SOM_KERNEL_ITEM) {
            check(used == 1, "item kernel: kernels_used %d", used);
        } else if (o->kernel == SOM_KERNEL_WG) {
            check(o->wg_local ? used == 2 || used == 4 : used == 4,
                  "group kernel (local %d): kernels_used %d", o->wg_local, used);
        } else {
            check(used >= 1 && used <= 7, "auto kernel: kernels_used %d", used);
        }
    }
    clear_status(&st);
    if (base_refs > 0) {
        long now = settled_refcount(ctx, base_refs);
        check(now == base_refs, "OpenCL objects left behind: context refcount %ld, %ld after "
              "som_ocl_open", now, base_refs);
    }
    free_weights(w, p.nmaps);
    free(tr);
}

/* Failing runs on an open context: invalid problems, a buffer cap below the data, and
 * interrupts; none may leave an OpenCL object behind. */
static void ocl_error_checks(som_ocl_ctx *ctx, long base_refs, const char *dev)
{
    bad_case c[MAX_BAD];
    int nc = bad_cases(c), k, rc, a, i, used;
    som_status st;
    som_ocl_opts o;
    const int ks[3] = {0, 1, 5};

    memset(&o, 0, sizeof o);
    for (k = 0; k < nc; k++) {
        set_where("%s: invalid problem: %s", dev, c[k].what);
        som_status_init(&st);
        rc = ocl_train(ctx, &c[k].p, bad_out, &o, NULL, &used, &st);
        check_fail(rc, &st, SOM_ERR_INVALID, "som_train (opencl)");
        clear_status(&st);
    }
    for (a = 0; a < 2; a++) {
        som_problem p = intr_problem(a, 1200);
        double **w = alloc_weights(&p), *tr = alloc_trace(&p);
        /* a buffer cap below one block of the data: refused with the sizes */
        set_where("%s: %s, max_alloc 16 bytes", dev, a ? "batch" : "online");
        o.max_alloc = 16;
        som_status_init(&st);
        rc = ocl_train(ctx, &p, w, &o, NULL, &used, &st);
        check_fail(rc, &st, SOM_ERR_BACKEND, "som_train (opencl)");
        check(st.api_status == -61, "api_status %d, expected CL_INVALID_BUFFER_SIZE",
              st.api_status);
        clear_status(&st);
        if (base_refs > 0)
            check(settled_refcount(ctx, base_refs) == base_refs, "objects left behind");
        /* interrupts, with the trace on and the work in short launches */
        o.max_alloc = 0;
        o.launch_seconds = 1e-4;
        p.trace = tr;
        for (i = 0; i < 3; i++) {
            hookstate hs;
            som_hooks hooks = make_hooks(&hs, ks[i]);
            set_where("%s: OpenCL %s interrupted after %d checks", dev, a ? "batch" : "online",
                      ks[i]);
            som_status_init(&st);
            rc = ocl_train(ctx, &p, w, &o, &hooks, &used, &st);
            check_interrupted(rc, &st, &hs, ks[i], "som_train (opencl)");
            if (base_refs > 0) {
                long now = settled_refcount(ctx, base_refs);
                check(now == base_refs, "OpenCL objects left behind: context refcount %ld, %ld "
                      "after som_ocl_open", now, base_refs);
            }
        }
        /* the context still works after an interrupt */
        {
            hookstate hs;
            som_hooks hooks = make_hooks(&hs, -1);
            set_where("%s: OpenCL %s after interrupts", dev, a ? "batch" : "online");
            som_status_init(&st);
            rc = ocl_train(ctx, &p, w, &o, &hooks, &used, &st);
            check(rc == SOM_OK, "som_train (opencl) after interrupts: %d (%s)", rc, st.message);
            clear_status(&st);
            check(all_finite(&p, w), "non-finite weights after interrupts");
            if (ctx->precision == SOM_DOUBLE) {
                double **wc = alloc_weights(&p), *tc = alloc_trace(&p);
                p.trace = tc;
                rc = cpu_train(&p, wc, 2, 0, NULL, &st);
                check(rc == SOM_OK && same_weights(&p, w, wc), "differs from the CPU");
                check(memcmp(tr, tc, trace_len(&p) * sizeof(double)) == 0,
                      "trace differs from the CPU");
                clear_status(&st);
                free_weights(wc, p.nmaps);
                free(tc);
            }
        }
        o.launch_seconds = 0;
        free_weights(w, p.nmaps);
        free(tr);
    }
}

/* Batch training with the data in chunks of 100 rows, not whole 1024-row blocks (those of
 * som_assess): the trace must still be the CPU's, bit for bit, resident or streamed. */
static void ocl_trace_chunks_check(som_ocl_ctx *ctx, long base_refs, const char *dev)
{
    som_problem p = intr_problem(SOM_BATCH, 1500);
    double **w = alloc_weights(&p), **wc = alloc_weights(&p);
    double *tr = alloc_trace(&p), *tc = alloc_trace(&p);
    som_ocl_opts o;
    som_status st;
    int rc, used, stream;
    p.batch_block = 100;
    p.iter_max = 4;
    p.trace = tc;
    som_status_init(&st);
    rc = cpu_train(&p, wc, 2, 0, NULL, &st);
    check(rc == SOM_OK, "CPU: %d", rc);
    clear_status(&st);
    for (stream = 0; stream < 2; stream++) {
        set_where("%s: batch trace, data in chunks of 100 rows, streamed %d", dev, stream);
        memset(&o, 0, sizeof o);
        o.max_alloc = 100 * 3 * 8 * 2 - 1; /* under two blocks of 100 rows x 3 doubles */
        o.stream_data = stream;
        p.trace = tr;
        rc = ocl_train(ctx, &p, w, &o, NULL, &used, &st);
        check(rc == SOM_OK, "som_train (opencl): %d (%s)", rc, st.message);
        clear_status(&st);
        check(same_weights(&p, w, wc), "weights differ from the CPU");
        check(memcmp(tr, tc, trace_len(&p) * sizeof(double)) == 0, "trace differs from the CPU");
        if (base_refs > 0)
            check(settled_refcount(ctx, base_refs) == base_refs, "objects left behind");
    }
    free_weights(w, p.nmaps);
    free_weights(wc, p.nmaps);
    free(tr);
    free(tc);
}

/* som_ocl_open's failures: no such device, no double precision, a kernel source that
 * does not build (with its log), one without the kernels. */
static void ocl_open_checks(int ndev, const som_ocl_device *devs)
{
    som_ocl_ctx *ctx;
    som_status st;
    int rc, d;
    set_where("som_ocl_open, no such device");
    som_status_init(&st);
    ctx = (som_ocl_ctx *)&st; /* must be reset to NULL */
    rc = som_ocl_open(-1, SOM_SINGLE, NULL, &ctx, &st);
    check_fail(rc, &st, SOM_ERR_INVALID, "device 0");
    check(ctx == NULL, "no context, yet *out is set");
    clear_status(&st);
    rc = som_ocl_open(ndev, SOM_SINGLE, NULL, &ctx, &st);
    check_fail(rc, &st, SOM_ERR_INVALID, "device n + 1");
    check(ctx == NULL, "no context, yet *out is set");
    clear_status(&st);
    for (d = 0; d < ndev; d++) {
        const int prec = devs[d].fp64 ? SOM_DOUBLE : SOM_SINGLE;
        if (!devs[d].fp64) {
            set_where("device %d: double precision without fp64", d + 1);
            rc = som_ocl_open(d, SOM_DOUBLE, NULL, &ctx, &st);
            check_fail(rc, &st, SOM_ERR_UNAVAILABLE, "som_ocl_open");
            clear_status(&st);
        }
        set_where("device %d: a kernel source that does not build", d + 1);
        printf("  (the OpenCL compiler may now complain about a deliberately broken kernel "
               "source)\n");
        fflush(stdout);
        rc = som_ocl_open(d, prec, "this is not OpenCL C { (", &ctx, &st);
        check_fail(rc, &st, SOM_ERR_BACKEND, "som_ocl_open");
        check(st.api_status == -11, "api_status %d, expected CL_BUILD_PROGRAM_FAILURE",
              st.api_status);
        check(st.log != NULL && st.log[0] != '\0', "no build log");
        check(ctx == NULL, "no context, yet *out is set");
        if (verbose && st.log) printf("  build log: %s\n", st.log);
        clear_status(&st);
        set_where("device %d: a kernel source without the kernels", d + 1);
        rc = som_ocl_open(d, prec, "__kernel void k_other(__global int *a) { a[0] = 1; }\n",
                          &ctx, &st);
        check_fail(rc, &st, SOM_ERR_BACKEND, "som_ocl_open");
        check(st.api_status == -46, "api_status %d, expected CL_INVALID_KERNEL_NAME",
              st.api_status);
        check(ctx == NULL, "no context, yet *out is set");
        clear_status(&st);
    }
}

void ocl_part(prob *probs, int np)
{
    som_ocl_device *devs = NULL;
    som_status st;
    int ndev = 0, rc, d, i;

    set_where("som_ocl_list");
    check(som_ocl_built() == 1, "som_ocl_built() is 0 in an OpenCL build");
    som_status_init(&st);
    rc = som_ocl_list(&devs, &ndev, &st);
    check(rc == SOM_OK, "som_ocl_list returned %d: %s", rc, st.message);
    clear_status(&st);
    check(!som_ocl_forked(), "som_ocl_forked() in the parent");
    if (rc != SOM_OK || ndev == 0) {
        printf("  OpenCL part skipped: no OpenCL device\n");
        free(devs);
        return;
    }
    for (d = 0; d < ndev; d++) {
        const som_ocl_device *v = devs + d;
        set_where("device %d", d + 1);
        check(v->name[0] && v->platform[0] && v->version[0], "empty device strings");
        check(!strcmp(v->type, "GPU") || !strcmp(v->type, "CPU") ||
                  !strcmp(v->type, "ACCELERATOR") || !strcmp(v->type, "OTHER"),
              "device type '%s'", v->type);
        check(v->compute_units > 0 && v->global_mem > 0 && v->max_alloc > 0 &&
                  v->max_alloc <= v->global_mem && v->max_wg >= 1,
              "device figures");
    }
    ocl_open_checks(ndev, devs);

    for (d = 0; d < ndev; d++) {
        int pi;
        launches_reset();
        for (pi = 0; pi < 2; pi++) {
            const int prec = pi == 0 ? SOM_DOUBLE : SOM_SINGLE;
            const size_t rs = prec == SOM_DOUBLE ? sizeof(double) : sizeof(float);
            char dev[200];
            som_ocl_ctx *ctx = NULL;
            long refs;
            int runs = 0;
            double t0 = som_now_seconds();
            if (prec == SOM_DOUBLE && !devs[d].fp64) continue;
            snprintf(dev, sizeof dev, "device %d %s", d + 1, prec == SOM_DOUBLE ? "double"
                                                                                : "single");
            set_where("%s: som_ocl_open", dev);
            som_status_init(&st);
            rc = som_ocl_open(d, prec, NULL, &ctx, &st);
            if (!check(rc == SOM_OK && ctx != NULL, "som_ocl_open returned %d: %s%s%s", rc,
                       st.message, st.log ? "\n" : "", st.log ? st.log : "")) {
                clear_status(&st);
                continue;
            }
            clear_status(&st);
            check(strcmp(ctx->info.name, devs[d].name) == 0 && ctx->precision == prec,
                  "the context's device or precision");
            refs = ctx_refcount(ctx);
            if (refs <= 0)
                printf("  note: context reference count not readable: OpenCL object leak "
                       "checks skipped\n");
            /* one context for many problems: every problem in double, every third in
             * single */
            for (i = 0; i < np; i++) {
                som_ocl_opts o;
                if (prec == SOM_SINGLE && i % 3) continue;
                o = pick_opts(&probs[i].p, i + d, rs);
                set_where("%s, %s, kernel %s local %d stream %d max_alloc %.0f launch %g", dev,
                          probs[i].desc, kernel_name(o.kernel), o.wg_local, o.stream_data,
                          o.max_alloc, o.launch_seconds);
                if (verbose) printf("  %s\n", where);
                /* every other problem profiled (a launch then waits for its end); the
                 * others let the two queues overlap */
                check(som_ocl_profile(ctx, i % 2, &st) == SOM_OK, "som_ocl_profile: %s",
                      st.message);
                clear_status(&st);
                ocl_train_checks(ctx, &probs[i], &o, refs);
                if (prec == SOM_DOUBLE && i % 4 == 1) views_checks(&probs[i], ctx, &o);
                if (i % 2) launches_add(ctx);
                runs++;
                if (probs[i].big) big_ring_checks(ctx, &probs[i], refs, dev);
            }
            if (som_ocl_profile(ctx, 1, &st) == SOM_OK) {
                coverage_runs(ctx, probs, np, refs, dev);
                if (prec == SOM_DOUBLE) single_batch_check(d, dev);
            }
            clear_status(&st);
            check(som_ocl_profile(ctx, 0, &st) == SOM_OK, "som_ocl_profile off");
            clear_status(&st);
            ocl_error_checks(ctx, refs, dev);
            if (prec == SOM_DOUBLE) ocl_trace_chunks_check(ctx, refs, dev);
            set_where("%s: som_ocl_close", dev);
            close_checked(ctx);
            printf("  OpenCL %s (%s): %d problems and the failure cases on one context, "
                   "%.1f s\n", dev, devs[d].name, runs, som_now_seconds() - t0);
            /* a context per problem, opened and closed around it */
            for (i = 0; i < np && i < 2; i++) {
                som_ocl_opts o = pick_opts(&probs[i].p, i + 1, rs);
                set_where("%s, fresh context, %s", dev, probs[i].desc);
                som_status_init(&st);
                rc = som_ocl_open(d, prec, NULL, &ctx, &st);
                if (check(rc == SOM_OK, "som_ocl_open returned %d: %s", rc, st.message)) {
                    ocl_train_checks(ctx, &probs[i], &o, ctx_refcount(ctx));
                    close_checked(ctx);
                }
                clear_status(&st);
            }
        }
        set_where("device %d", d + 1);
        {
            char dev[32];
            snprintf(dev, sizeof dev, "device %d", d + 1);
            launches_check(dev);
        }
    }
    free(devs);
}

#else /* no OpenCL: the stubs say so */

void ocl_part(prob *probs, int np)
{
    som_ocl_device *devs = (som_ocl_device *)&np;
    som_ocl_ctx *ctx = (som_ocl_ctx *)&np;
    som_status st;
    som_ocl_opts o;
    int ndev = -1, rc, used = -1;
    (void)probs;
    memset(&o, 0, sizeof o);
    set_where("CPU-only build: OpenCL stubs");
    check(som_ocl_built() == 0 && som_ocl_forked() == 0, "som_ocl_built() in a CPU-only build");
    som_status_init(&st);
    rc = som_ocl_list(&devs, &ndev, &st);
    check(rc == SOM_OK && ndev == 0 && devs == NULL, "som_ocl_list: %d, %d devices", rc, ndev);
    rc = som_ocl_open(0, SOM_DOUBLE, NULL, &ctx, &st);
    check_fail(rc, &st, SOM_ERR_UNAVAILABLE, "som_ocl_open");
    check(ctx == NULL, "som_ocl_open set a context");
    clear_status(&st);
    rc = ocl_train(NULL, &probs[0].p, NULL, &o, NULL, &used, &st);
    check_fail(rc, &st, SOM_ERR_UNAVAILABLE, "som_train (opencl)");
    clear_status(&st);
    som_ocl_close(NULL);
    printf("  OpenCL part skipped: built without OpenCL (CPU-only variant)\n");
}

#endif
