/* harness_refuse.c: refusals of invalid problems by every entry point, status names, and
 * interrupts of CPU runs (see harness.c). */
#include "harness.h"

/* --- invalid problems -------------------------------------------------------------- */


/* Invalid variants of a small valid problem, for every entry point that takes one. The
 * buffers live in statics: the cases point into them. */
static double bad_x[3 * 4], bad_w0[2 * 3], bad_w1[5 * 3];
static int bad_size[2] = {2, 5}, bad_restart[2] = {0, 1}, bad_size0[2] = {2, 0},
           bad_size1[2] = {2, 1}, bad_sizeneg[2] = {-3, 2}, bad_restartneg[2] = {0, -1},
           bad_sizebig[2] = {2, 5};
static const double *bad_iw[2] = {bad_w0, bad_w1}, *bad_iw_hole[2] = {bad_w0, NULL};
static double bad_sigma[2] = {1, 1}, bad_sigma0[2] = {1, 0}, bad_sigmaneg[2] = {-1, 1},
              bad_sigmanan[2] = {1, NAN}, bad_sigmainf[2] = {INFINITY, 1};

static som_problem valid_small(void)
{
    som_problem p;
    int i;
    for (i = 0; i < 12; i++) bad_x[i] = (double)((i * 7) % 5) / 4.0;
    for (i = 0; i < 6; i++) bad_w0[i] = 0.1 * i;
    for (i = 0; i < 15; i++) bad_w1[i] = 0.05 * i;
    memset(&p, 0, sizeof p);
    p.data.x = bad_x;
    p.data.n = 4;
    p.data.m = 3;
    p.nmaps = 2;
    p.size = bad_size;
    p.restart = bad_restart;
    p.iter_max = 3;
    p.sigma0 = bad_sigma;
    p.eta0 = 0.5;
    p.init = SOM_INIT_UNIFORM;
    p.seed = 7;
    p.algorithm = SOM_ONLINE;
    p.batch_block = 2;
    return p;
}

int bad_cases(bad_case *c)
{
    int k = 0;
    som_problem v = valid_small();
#define BAD(name, stmt)            \
    do {                           \
        c[k].what = name;          \
        c[k].p = v;                \
        {                          \
            som_problem *p = &c[k].p; \
            stmt;                  \
        }                          \
        k++;                       \
    } while (0)
    BAD("data NULL", p->data.x = NULL);
    BAD("n = 0", p->data.n = 0);
    BAD("n = 1", p->data.n = 1);
    BAD("n = -5", p->data.n = -5);
    BAD("n = 2^31", p->data.n = (int64_t)1 << 31);
    BAD("m = 0", p->data.m = 0);
    BAD("m = -1", p->data.m = -1);
    BAD("nmaps = 0", p->nmaps = 0);
    BAD("nmaps = -2", p->nmaps = -2);
    BAD("size NULL", p->size = NULL);
    BAD("restart NULL", p->restart = NULL);
    BAD("a size 0", p->size = bad_size0);
    BAD("a size 1", p->size = bad_size1);
    BAD("a size -3", p->size = bad_sizeneg);
    BAD("a restart -1", p->restart = bad_restartneg);
    BAD("iter_max = 0", p->iter_max = 0);
    BAD("iter_max = -4", p->iter_max = -4);
    BAD("sigma0 NULL", p->sigma0 = NULL);
    BAD("a sigma0 = 0", p->sigma0 = bad_sigma0);
    BAD("a sigma0 = -1", p->sigma0 = bad_sigmaneg);
    BAD("a sigma0 = NaN", p->sigma0 = bad_sigmanan);
    BAD("a sigma0 = Inf", p->sigma0 = bad_sigmainf);
    BAD("eta0 = 0", p->eta0 = 0);
    BAD("eta0 = NaN", p->eta0 = NAN);
    BAD("eta0 = -Inf", p->eta0 = -INFINITY);
    BAD("init sample, size > n", (p->init = SOM_INIT_SAMPLE, p->size = bad_sizebig));
    BAD("init given, init_w NULL", p->init = SOM_INIT_GIVEN);
    BAD("algorithm 2", p->algorithm = 2);
    BAD("algorithm -1", p->algorithm = -1);
    BAD("batch, batch_block 0", (p->algorithm = SOM_BATCH, p->batch_block = 0));
    BAD("batch, batch_block -7", (p->algorithm = SOM_BATCH, p->batch_block = -7));
#undef BAD
    return k;
}


/* Sizes up to 5, 3 columns: room for any case's weights. */
static double bad_out0[5 * 3], bad_out1[5 * 3];
double *const bad_out[2] = {bad_out0, bad_out1};

void invalid_problem_checks(void)
{
    bad_case c[MAX_BAD];
    int k, nc = bad_cases(c), rc;
    som_status st;
    som_problem v = valid_small();
    hookstate hs;
    som_hooks hooks;

    /* the valid base: accepted, in every form the cases vary */
    set_where("valid small problem");
    {
        som_problem g = v, b = v;
        g.init = SOM_INIT_GIVEN;
        g.init_w = bad_iw;
        b.algorithm = SOM_BATCH;
        som_status_init(&st);
        check(som_check_problem(&v, &st) == SOM_OK && st.code == SOM_OK && !st.message[0],
              "the valid problem is refused: %s", st.message);
        check(som_check_problem(&g, &st) == SOM_OK, "init given refused: %s", st.message);
        check(som_check_problem(&b, &st) == SOM_OK, "batch refused: %s", st.message);
        rc = cpu_train(&g, bad_out, 1, 0, NULL, &st);
        check(rc == SOM_OK && all_finite(&g, bad_out), "training the valid problem: %d", rc);
        clear_status(&st);
        /* a given init with a hole: that map starts from its uniform initial weights */
        set_where("init given, a map's init_w NULL");
        {
            som_problem h = v, u = v;
            double a0[2 * 3], a1[5 * 3], b0[2 * 3], b1[5 * 3];
            double *const wa[2] = {a0, a1}, *const wb[2] = {b0, b1};
            int rc2;
            h.init = SOM_INIT_GIVEN;
            h.init_w = bad_iw_hole;
            h.iter_max = u.iter_max = 1;
            rc = cpu_train(&h, wa, 1, 0, NULL, &st);
            rc2 = cpu_train(&u, wb, 1, 0, NULL, &st);
            check(rc == SOM_OK && rc2 == SOM_OK, "training: %d, %d (%s)", rc, rc2, st.message);
            check(memcmp(a0, bad_w0, sizeof a0) == 0, "the given map is not its init");
            check(memcmp(a1, b1, sizeof a1) == 0, "the map without init is not uniform");
            clear_status(&st);
        }
        /* an online problem need not have a batch block */
        set_where("online problem with batch_block 0");
        g = v;
        g.batch_block = 0;
        check(som_check_problem(&g, &st) == SOM_OK, "refused: %s", st.message);
        rc = cpu_train(&g, bad_out, 2, 0, NULL, &st);
        check(rc == SOM_OK, "som_train: %d (%s)", rc, st.message);
        clear_status(&st);
    }
    for (k = 0; k < nc; k++) {
        set_where("invalid problem: %s", c[k].what);
        som_status_init(&st);
        rc = som_check_problem(&c[k].p, &st);
        check_fail(rc, &st, SOM_ERR_INVALID, "som_check_problem");
        clear_status(&st);
        hooks = make_hooks(&hs, -1);
        rc = cpu_train(&c[k].p, bad_out, 2, 0, &hooks, &st);
        check_fail(rc, &st, SOM_ERR_INVALID, "som_train (cpu)");
        check(hs.calls == 0 && hs.pcalls == 0, "hooks called on an invalid problem");
        clear_status(&st);
    }
    /* som_assess refuses nothing to assess */
    {
        const double *w[2] = {bad_w0, bad_w1};
        som_maps maps = {2, bad_size, w};
        som_data d = v.data;
        double qe[2];
        set_where("som_assess, invalid input");
        d.n = 0;
        som_status_init(&st);
        check_fail(som_assess(&d, &maps, 1, 0, NULL, qe, NULL, NULL, NULL, NULL, &st), &st,
                   SOM_ERR_INVALID, "som_assess n = 0");
        clear_status(&st);
        d = v.data;
        d.m = 0;
        check_fail(som_assess(&d, &maps, 1, 0, NULL, qe, NULL, NULL, NULL, NULL, &st), &st,
                   SOM_ERR_INVALID, "som_assess m = 0");
        clear_status(&st);
        maps.nmaps = 0;
        check_fail(som_qe_maps(&v.data, &maps, 1, qe, &st), &st, SOM_ERR_INVALID,
                   "som_qe_maps nmaps = 0");
        clear_status(&st);
    }
}

/* --- OpenCL status names (both builds) --------------------------------------------- */

void status_name_checks(void)
{
    const struct { int code; const char *name; } known[] = {
        {0, "CL_SUCCESS"},           {-1, "CL_DEVICE_NOT_FOUND"},
        {-5, "CL_OUT_OF_RESOURCES"}, {-11, "CL_BUILD_PROGRAM_FAILURE"},
        {-46, "CL_INVALID_KERNEL_NAME"}, {-61, "CL_INVALID_BUFFER_SIZE"},
        {-68, "CL_INVALID_DEVICE_PARTITION_COUNT"}, {-1001, "CL_PLATFORM_NOT_FOUND_KHR"}};
    const int unknown[] = {1, 5, -20, -29, -69, -1000, -1002, INT_MIN, INT_MAX};
    size_t i;
    int code;
    set_where("som_ocl_status_name");
    for (i = 0; i < sizeof known / sizeof known[0]; i++)
        check(strcmp(som_ocl_status_name(known[i].code), known[i].name) == 0, "%d gives %s",
              known[i].code, som_ocl_status_name(known[i].code));
    for (i = 0; i < sizeof unknown / sizeof unknown[0]; i++)
        check(strcmp(som_ocl_status_name(unknown[i]), "CL_UNKNOWN_ERROR") == 0, "%d gives %s",
              unknown[i], som_ocl_status_name(unknown[i]));
    for (code = -68; code <= 0; code++) { /* every name a name */
        const char *s = som_ocl_status_name(code);
        check(s != NULL && strncmp(s, "CL_", 3) == 0, "%d gives no name", code);
    }
}

/* --- interrupts -------------------------------------------------------------------- */

/* A problem long enough for many interrupt checks: n x 3 uniform, sizes 5, 12, 30. */
static double *intr_x;

void intr_free(void)
{
    free(intr_x);
    intr_x = NULL;
}
static int intr_size[3] = {5, 12, 30}, intr_restart[3] = {0, 1, 0};
static double intr_sigma[3] = {3, 3, 3};

som_problem intr_problem(int algorithm, int64_t n)
{
    som_problem p;
    rng r = {12345};
    int64_t e;
    free(intr_x);
    intr_x = malloc((size_t)n * 3 * sizeof *intr_x);
    for (e = 0; e < n * 3; e++) intr_x[e] = runif(&r);
    memset(&p, 0, sizeof p);
    p.data.x = intr_x;
    p.data.n = n;
    p.data.m = 3;
    p.nmaps = 3;
    p.size = intr_size;
    p.restart = intr_restart;
    p.iter_max = 12; /* 11 passes: at least 10 interrupt checks, one slice a pass or more */
    p.sigma0 = intr_sigma;
    p.eta0 = 0.7;
    p.init = SOM_INIT_UNIFORM;
    p.seed = 99;
    p.algorithm = algorithm;
    p.batch_block = 64;
    return p;
}

/* An interrupted run: the interrupt code and message, the hook asked exactly k + 1 times. */
void check_interrupted(int rc, som_status *st, const hookstate *hs, int k,
                              const char *what)
{
    check_fail(rc, st, SOM_ERR_INTERRUPTED, what);
    check(hs->calls == k + 1, "%s: the interrupt hook was called %d times, expected %d", what,
          hs->calls, k + 1);
    clear_status(st);
}

void cpu_interrupt_checks(void)
{
    const int ks[3] = {0, 1, 5};
    int a, i, rc;
    for (a = 0; a < 2; a++) {
        som_problem p = intr_problem(a, 1200);
        double **w = alloc_weights(&p), *tr = alloc_trace(&p);
        p.trace = tr;
        for (i = 0; i < 3; i++) {
            hookstate hs;
            som_hooks hooks = make_hooks(&hs, ks[i]);
            som_status st;
            set_where("CPU %s interrupted after %d checks", a ? "batch" : "online", ks[i]);
            som_status_init(&st);
            rc = cpu_train(&p, w, 2, 2000, &hooks, &st);
            check_interrupted(rc, &st, &hs, ks[i], "som_train (cpu, 2 threads)");
            hooks = make_hooks(&hs, ks[i]);
            rc = cpu_train(&p, w, 1, 2000, &hooks, &st);
            check_interrupted(rc, &st, &hs, ks[i], "som_train (cpu, 1 thread)");
        }
        free_weights(w, p.nmaps);
        free(tr);
    }
    /* som_assess: 6 blocks, a round each: 5 checks */
    {
        som_problem p = intr_problem(SOM_ONLINE, 6000);
        double **w = alloc_weights(&p), qe[3];
        int *cl[3];
        som_maps maps;
        som_status st;
        const int ka[3] = {0, 1, 3};
        size_t e;
        for (i = 0; i < 3; i++) {
            for (e = 0; e < (size_t)p.size[i] * 3; e++) w[i][e] = (double)e / 90.0;
            cl[i] = malloc((size_t)p.data.n * sizeof **cl);
        }
        maps.nmaps = 3;
        maps.size = p.size;
        maps.weights = (const double *const *)w;
        for (i = 0; i < 3; i++) {
            hookstate hs;
            som_hooks hooks = make_hooks(&hs, ka[i]);
            set_where("som_assess interrupted after %d checks", ka[i]);
            som_status_init(&st);
            rc = som_assess(&p.data, &maps, 2, 1, &hooks, qe, NULL, NULL, cl, NULL, &st);
            check_interrupted(rc, &st, &hs, ka[i], "som_assess");
        }
        for (i = 0; i < 3; i++) free(cl[i]);
        free_weights(w, 3);
    }
}
