/* r_glue.c: the only file that speaks to R. It turns R objects into core problems, runs a
 * backend on the calling thread, and hands back either the result or a status object
 * (list(code, message, api_status, log)) that R turns into a classed condition once every
 * resource is released. Interrupts and progress reach the core through som_hooks. */
#include <setjmp.h>
#include <stdlib.h>
#include <string.h>

#define R_NO_REMAP
#include <R.h>
#include <Rinternals.h>

#include <cli/progress.h>

#include "r_glue.h"
#include "som_core.h"
#include "som_ocl.h"
#include "som_rng.h"

/* --- hooks ------------------------------------------------------------------------- */

/* Progress goes to cli's bar, made before the core runs, or to an R function of the share
 * done (train() on a future worker passes one that signals progressr updates). Either is
 * updated between chunks of work, on this thread: the bar when cli's timer ticks, the
 * function at most every PROGRESS_FN_SECONDS (cli's timer only runs with a bar). Neither
 * lets an R error, interrupt or other jump pass over the core's cleanup: the bar runs in a
 * top-level context; the function inside tryCatch(error, interrupt) (a failing function is
 * dropped, an interrupt stops the run), itself inside R_UnwindProtect: any other jump (a
 * restart, an exiting handler outside train()) stops the run, and C_train continues it
 * once the core has released everything. The function must not be called in a top-level
 * context: progressr's handlers are outside train(). */
#define PROGRESS_TOTAL 1000
#define PROGRESS_FN_SECONDS 0.2

typedef struct {
    SEXP bar;        /* cli progress bar, or R_NilValue */
    SEXP fn;         /* R function(fraction), or R_NilValue */
    SEXP conds;      /* c("error", "interrupt"): what a call of fn may not jump out with */
    SEXP cont;       /* R_UnwindProtect's continuation token when fn is set */
    double fraction;
    double fn_called; /* som_now_seconds() at the last call of fn */
    int interrupted;  /* an interrupt arrived while fn ran */
    int unwinding;    /* fn jumped out: continue that jump after the core's cleanup */
} glue_ud;

#define GLUE_UD_INIT {R_NilValue, R_NilValue, R_NilValue, R_NilValue, 0, 0, 0, 0}

static void check_interrupt(void *unused)
{
    (void)unused;
    R_CheckUserInterrupt();
}

/* R_CheckUserInterrupt would jump over the core's cleanup: run it in a top-level context
 * and report instead. */
static int glue_interrupted(void *ud_)
{
    glue_ud *ud = ud_;
    return ud->interrupted || ud->unwinding || !R_ToplevelExec(check_interrupt, NULL);
}

static void update_bar(void *ud_)
{
    glue_ud *ud = ud_;
    cli_progress_set(ud->bar, ud->fraction * PROGRESS_TOTAL);
}

static SEXP call_progress_fn(void *ud_)
{
    glue_ud *ud = ud_;
    SEXP fraction = PROTECT(Rf_ScalarReal(ud->fraction));
    SEXP call = PROTECT(Rf_lang2(ud->fn, fraction));
    Rf_eval(call, R_GlobalEnv);
    UNPROTECT(2);
    return R_NilValue;
}

/* A progress function that failed is not called again; an interrupt stops the run. */
static SEXP progress_fn_failed(SEXP cond, void *ud_)
{
    glue_ud *ud = ud_;
    if (Rf_inherits(cond, "interrupt")) ud->interrupted = 1;
    ud->fn = R_NilValue;
    return R_NilValue;
}

static SEXP call_progress_caught(void *ud_)
{
    glue_ud *ud = ud_;
    return R_tryCatch(call_progress_fn, ud, ud->conds, progress_fn_failed, ud, NULL, NULL);
}

/* R_UnwindProtect's cleanup: on a jump, come back to glue_progress instead of unwinding
 * through the core. */
static void jump_back(void *jb, Rboolean jump)
{
    if (jump) longjmp(*(jmp_buf *)jb, 1);
}

static void glue_progress(void *ud_, double fraction)
{
    glue_ud *ud = ud_;
    if (ud->bar == R_NilValue && ud->fn == R_NilValue) return;
    ud->fraction = fraction < 0 ? 0 : fraction > 1 ? 1 : fraction;
    if (ud->bar != R_NilValue) {
        if (CLI_SHOULD_TICK) R_ToplevelExec(update_bar, ud);
        return;
    }
    double now = som_now_seconds();
    if (now - ud->fn_called < PROGRESS_FN_SECONDS) return;
    ud->fn_called = now;
    {
        jmp_buf jb;
        if (setjmp(jb)) {
            ud->unwinding = 1;
            ud->fn = R_NilValue;
            return;
        }
        R_UnwindProtect(call_progress_caught, ud, jump_back, &jb, ud->cont);
    }
}

/* A cli progress bar named `name` when show is TRUE (protected: the caller unprotects). */
static SEXP progress_start(int show, const char *name)
{
    SEXP config, bar;
    if (!show) return PROTECT(R_NilValue);
    config = PROTECT(Rf_allocVector(VECSXP, 1));
    SET_VECTOR_ELT(config, 0, Rf_mkString(name));
    Rf_setAttrib(config, R_NamesSymbol, Rf_mkString("name"));
    bar = cli_progress_bar(PROGRESS_TOTAL, config);
    UNPROTECT(1);
    return PROTECT(bar);
}

static void done_bar(void *bar)
{
    cli_progress_done((SEXP)bar);
}

static void progress_end(glue_ud *ud)
{
    if (ud->bar != R_NilValue) R_ToplevelExec(done_bar, ud->bar);
}

/* --- helpers ----------------------------------------------------------------------- */

/* A failed status as an R list, with class somgpu_status for the R side to raise. */
static SEXP status_object(const som_status *st)
{
    const char *names[] = {"code", "message", "api_status", "api_status_name", "log", ""};
    SEXP out = PROTECT(Rf_mkNamed(VECSXP, names));
    SET_VECTOR_ELT(out, 0, Rf_ScalarInteger(st->code));
    SET_VECTOR_ELT(out, 1, Rf_mkString(st->message));
    SET_VECTOR_ELT(out, 2, Rf_ScalarInteger(st->api_status));
    SET_VECTOR_ELT(out, 3, Rf_mkString(st->api_status ? som_ocl_status_name(st->api_status) : ""));
    SET_VECTOR_ELT(out, 4, st->log ? Rf_mkString(st->log) : Rf_allocVector(STRSXP, 0));
    Rf_setAttrib(out, R_ClassSymbol, Rf_mkString("somgpu_status"));
    UNPROTECT(1);
    return out;
}

static som_data data_of(SEXP y)
{
    som_data d;
    SEXP dim = Rf_getAttrib(y, R_DimSymbol);
    d.x = REAL(y);
    d.n = INTEGER(dim)[0];
    d.m = INTEGER(dim)[1];
    return d;
}

static int as_threads(SEXP threads)
{
    int nth = Rf_asInteger(threads);
    return nth == NA_INTEGER || nth < 1 ? 1 : nth;
}

/* --- entry points ------------------------------------------------------------------ */

static som_ocl_ctx *ctx_of(SEXP ptr)
{
    return TYPEOF(ptr) == EXTPTRSXP ? (som_ocl_ctx *)R_ExternalPtrAddr(ptr) : NULL;
}

/* Train maps of sizes `size` with restart indices `restart` (0-based) on the CPU (ctx is
 * NULL) or on an OpenCL context from C_ocl_open; R has validated every argument. opts:
 * list(kernel, group_min_size, max_alloc, launch_seconds, round_units, group_local,
 * stream_data): round_units for the CPU, the others for OpenCL. progress: TRUE (a cli bar),
 * FALSE, or an R function of the share done.
 * Returns list(weights, kernels) or a somgpu_status. */
SEXP C_train(SEXP y, SEXP size, SEXP restart, SEXP iter_max, SEXP sigma0, SEXP eta0,
             SEXP init, SEXP init_w, SEXP seed, SEXP algorithm, SEXP batch_block,
             SEXP threads, SEXP progress, SEXP ctx, SEXP opts, SEXP trace)
{
    som_problem p;
    som_status st;
    glue_ud ud = GLUE_UD_INIT;
    som_hooks hooks = {glue_interrupted, glue_progress, &ud};
    int nmaps = LENGTH(size), i, rc, kernels = 0;
    SEXP weights, out;
    double **w;
    const double **iw = NULL;
    const char *names[] = {"weights", "kernels", "trace", ""};
    SEXP tr;

    p.data = data_of(y);
    p.nmaps = nmaps;
    p.size = INTEGER(size);
    p.restart = INTEGER(restart);
    p.iter_max = Rf_asInteger(iter_max);
    p.sigma0 = Rf_asReal(sigma0);
    p.eta0 = Rf_asReal(eta0);
    p.init = Rf_asInteger(init);
    p.seed = (uint32_t)(int64_t)Rf_asReal(seed);
    p.init_w = NULL;
    p.algorithm = Rf_asInteger(algorithm);
    p.batch_block = Rf_asInteger(batch_block);
    p.trace = NULL;

    /* the trace: passes x maps, NaN until filled */
    tr = PROTECT(Rf_asLogical(trace) == TRUE
                     ? Rf_allocMatrix(REALSXP, p.iter_max - 1 > 0 ? p.iter_max - 1 : 0, nmaps)
                     : R_NilValue);
    if (tr != R_NilValue) {
        R_xlen_t e;
        for (e = 0; e < XLENGTH(tr); e++) REAL(tr)[e] = R_NaN;
        p.trace = REAL(tr);
    }
    ud.bar = progress_start(!Rf_isFunction(progress) && Rf_asLogical(progress) == TRUE,
                            "training ring SOMs");
    ud.conds = PROTECT(Rf_allocVector(STRSXP, 2));
    SET_STRING_ELT(ud.conds, 0, Rf_mkChar("error"));
    SET_STRING_ELT(ud.conds, 1, Rf_mkChar("interrupt"));
    ud.cont = PROTECT(Rf_isFunction(progress) ? R_MakeUnwindCont() : R_NilValue);
    if (Rf_isFunction(progress)) {
        ud.fn = progress;
        ud.fn_called = som_now_seconds();
    }
    weights = PROTECT(Rf_allocVector(VECSXP, nmaps));
    w = (double **)R_alloc((size_t)nmaps, sizeof *w);
    for (i = 0; i < nmaps; i++) {
        SEXP wi = Rf_allocMatrix(REALSXP, p.size[i], p.data.m);
        SET_VECTOR_ELT(weights, i, wi);
        w[i] = REAL(wi);
    }
    if (p.init == SOM_INIT_GIVEN) {
        iw = (const double **)R_alloc((size_t)nmaps, sizeof *iw);
        for (i = 0; i < nmaps; i++) iw[i] = REAL(VECTOR_ELT(init_w, i));
        p.init_w = iw;
    }

    som_status_init(&st);
    if (Rf_isNull(ctx)) {
        rc = som_cpu_train(&p, w, as_threads(threads), Rf_asReal(VECTOR_ELT(opts, 4)), &hooks,
                           &st);
    } else if (ctx_of(ctx) == NULL) {
        rc = som_fail(&st, SOM_ERR_INVALID, "the OpenCL context is no longer valid");
    } else {
        som_ocl_opts o;
        o.kernel = Rf_asInteger(VECTOR_ELT(opts, 0));
        o.group_min_size = Rf_asInteger(VECTOR_ELT(opts, 1));
        o.max_alloc = Rf_asReal(VECTOR_ELT(opts, 2));
        o.launch_seconds = Rf_asReal(VECTOR_ELT(opts, 3));
        o.group_local = Rf_asInteger(VECTOR_ELT(opts, 5));
        o.stream_data = Rf_asLogical(VECTOR_ELT(opts, 6)) == TRUE;
        rc = som_ocl_train(ctx_of(ctx), &p, w, &o, &hooks, &kernels, &st);
    }
    progress_end(&ud);
    if (ud.unwinding) { /* the core has cleaned up: let the progress function's jump go on */
        som_status_clear(&st);
        R_ContinueUnwind(ud.cont);
    }
    if (rc != SOM_OK) {
        out = status_object(&st);
        som_status_clear(&st);
        UNPROTECT(5);
        return out;
    }
    out = PROTECT(Rf_mkNamed(VECSXP, names));
    SET_VECTOR_ELT(out, 0, weights);
    SET_VECTOR_ELT(out, 1, Rf_ScalarInteger(kernels));
    SET_VECTOR_ELT(out, 2, tr);
    UNPROTECT(6);
    return out;
}

/* qe and te of every map in `weights` (a list of size x m matrices), and the 1-based winner
 * of every point for the maps where want_clusters is TRUE. */
SEXP C_assess(SEXP y, SEXP weights, SEXP want_clusters, SEXP threads, SEXP round_units)
{
    som_data d = data_of(y);
    som_maps maps;
    som_status st;
    glue_ud ud = GLUE_UD_INIT;
    som_hooks hooks = {glue_interrupted, NULL, &ud};
    int nmaps = LENGTH(weights), i, rc, *sizes;
    const double **w;
    int **cl;
    SEXP qe, te, sse, clusters, out;
    const char *names[] = {"qe", "te", "sse", "clusters", ""};

    sizes = (int *)R_alloc((size_t)nmaps, sizeof *sizes);
    w = (const double **)R_alloc((size_t)nmaps, sizeof *w);
    cl = (int **)R_alloc((size_t)nmaps, sizeof *cl);
    qe = PROTECT(Rf_allocVector(REALSXP, nmaps));
    te = PROTECT(Rf_allocVector(REALSXP, nmaps));
    sse = PROTECT(Rf_allocVector(REALSXP, nmaps));
    clusters = PROTECT(Rf_allocVector(VECSXP, nmaps));
    for (i = 0; i < nmaps; i++) {
        SEXP wi = VECTOR_ELT(weights, i);
        sizes[i] = INTEGER(Rf_getAttrib(wi, R_DimSymbol))[0];
        w[i] = REAL(wi);
        cl[i] = NULL;
        if (LOGICAL(want_clusters)[i] == TRUE) {
            SEXP ci = Rf_allocVector(INTSXP, (R_xlen_t)d.n);
            SET_VECTOR_ELT(clusters, i, ci);
            cl[i] = INTEGER(ci);
        }
    }
    maps.nmaps = nmaps;
    maps.size = sizes;
    maps.weights = w;

    som_status_init(&st);
    rc = som_assess(&d, &maps, as_threads(threads), Rf_asReal(round_units), &hooks, REAL(qe),
                    REAL(te), REAL(sse), cl, &st);
    if (rc != SOM_OK) {
        out = status_object(&st);
        som_status_clear(&st);
        UNPROTECT(4);
        return out;
    }
    out = PROTECT(Rf_mkNamed(VECSXP, names));
    SET_VECTOR_ELT(out, 0, qe);
    SET_VECTOR_ELT(out, 1, te);
    SET_VECTOR_ELT(out, 2, sse);
    SET_VECTOR_ELT(out, 3, clusters);
    UNPROTECT(5);
    return out;
}

/* One pass over a double matrix: the number of non-finite values, the first row (1-based)
 * holding one (NA when none), and the largest absolute finite value. */
SEXP C_data_scan(SEXP x)
{
    const char *names[] = {"nonfinite", "first_row", "max_abs", ""};
    SEXP dim = Rf_getAttrib(x, R_DimSymbol), out;
    R_xlen_t n = INTEGER(dim)[0], m = INTEGER(dim)[1], i, k;
    const double *v = REAL(x);
    double bad = 0, big = 0;
    R_xlen_t first = -1;
    for (k = 0; k < m; k++) {
        const double *col = v + k * n;
        for (i = 0; i < n; i++) {
            double a = col[i];
            if (!R_FINITE(a)) {
                bad++;
                if (first < 0 || i < first) first = i;
            } else {
                a = a < 0 ? -a : a;
                if (a > big) big = a;
            }
        }
    }
    out = PROTECT(Rf_mkNamed(VECSXP, names));
    SET_VECTOR_ELT(out, 0, Rf_ScalarReal(bad));
    SET_VECTOR_ELT(out, 1, Rf_ScalarReal(first < 0 ? NA_REAL : (double)first + 1));
    SET_VECTOR_ELT(out, 2, Rf_ScalarReal(big));
    UNPROTECT(1);
    return out;
}

/* What this build offers: OpenMP or not, the most threads it may use, OpenCL or not, and
 * whether this is a forked child that must leave OpenCL alone. */
SEXP C_build_info(void)
{
    const char *names[] = {"openmp", "max_threads", "opencl", "opencl_forked", ""};
    SEXP out = PROTECT(Rf_mkNamed(VECSXP, names));
    SET_VECTOR_ELT(out, 0, Rf_ScalarLogical(som_have_openmp()));
    SET_VECTOR_ELT(out, 1, Rf_ScalarInteger(som_max_threads()));
    SET_VECTOR_ELT(out, 2, Rf_ScalarLogical(som_ocl_built()));
    SET_VECTOR_ELT(out, 3, Rf_ScalarLogical(som_ocl_forked()));
    UNPROTECT(1);
    return out;
}

/* --- OpenCL ------------------------------------------------------------------------ */

/* The OpenCL devices as a list of columns (R makes the data frame). */
SEXP C_ocl_devices(void)
{
    const char *names[] = {"platform", "name", "type", "version", "compute_units",
                           "global_mem", "max_alloc", "local_mem", "max_group", "fp64", ""};
    som_ocl_device *d = NULL;
    som_status st;
    int n = 0, i, rc;
    SEXP out;
    som_status_init(&st);
    rc = som_ocl_list(&d, &n, &st);
    if (rc != SOM_OK) {
        out = status_object(&st);
        som_status_clear(&st);
        return out;
    }
    out = PROTECT(Rf_mkNamed(VECSXP, names));
    for (i = 0; i < 4; i++) SET_VECTOR_ELT(out, i, Rf_allocVector(STRSXP, n));
    SET_VECTOR_ELT(out, 4, Rf_allocVector(INTSXP, n));
    for (i = 5; i < 9; i++) SET_VECTOR_ELT(out, i, Rf_allocVector(REALSXP, n));
    SET_VECTOR_ELT(out, 9, Rf_allocVector(LGLSXP, n));
    for (i = 0; i < n; i++) {
        SET_STRING_ELT(VECTOR_ELT(out, 0), i, Rf_mkChar(d[i].platform));
        SET_STRING_ELT(VECTOR_ELT(out, 1), i, Rf_mkChar(d[i].name));
        SET_STRING_ELT(VECTOR_ELT(out, 2), i, Rf_mkChar(d[i].type));
        SET_STRING_ELT(VECTOR_ELT(out, 3), i, Rf_mkChar(d[i].version));
        INTEGER(VECTOR_ELT(out, 4))[i] = d[i].compute_units;
        REAL(VECTOR_ELT(out, 5))[i] = d[i].global_mem;
        REAL(VECTOR_ELT(out, 6))[i] = d[i].max_alloc;
        REAL(VECTOR_ELT(out, 7))[i] = d[i].local_mem;
        REAL(VECTOR_ELT(out, 8))[i] = d[i].max_group;
        LOGICAL(VECTOR_ELT(out, 9))[i] = d[i].fp64;
    }
    free(d);
    UNPROTECT(1);
    return out;
}

static void ctx_finalizer(SEXP ptr)
{
    som_ocl_close(ctx_of(ptr));
    R_ClearExternalPtr(ptr);
}

/* Open device `index` (1-based) for a precision (0 double, 1 single) and build its kernels;
 * `source` (a string) replaces the embedded kernels, for tests. Returns an external pointer
 * whose finalizer releases the context, or a somgpu_status. */
SEXP C_ocl_open(SEXP index, SEXP precision, SEXP source)
{
    som_ocl_ctx *ctx = NULL;
    som_status st;
    SEXP out;
    int rc;
    const char *src = Rf_isString(source) ? CHAR(STRING_ELT(source, 0)) : NULL;
    som_status_init(&st);
    rc = som_ocl_open(Rf_asInteger(index) - 1, Rf_asInteger(precision), src, &ctx, &st);
    if (rc != SOM_OK) {
        out = status_object(&st);
        som_status_clear(&st);
        return out;
    }
    out = PROTECT(R_MakeExternalPtr(ctx, R_NilValue, R_NilValue));
    R_RegisterCFinalizerEx(out, ctx_finalizer, TRUE);
    UNPROTECT(1);
    return out;
}

/* Release a context now (the finalizer then has nothing left to do). */
SEXP C_ocl_close(SEXP ptr)
{
    if (TYPEOF(ptr) == EXTPTRSXP) ctx_finalizer(ptr);
    return R_NilValue;
}

SEXP C_ocl_valid(SEXP ptr)
{
    return Rf_ScalarLogical(ctx_of(ptr) != NULL);
}

/* --- internals exposed for the known-answer and reference tests -------------------- */

static som_u32 word_of(SEXP x, int i)
{
    return (som_u32)REAL(x)[i];
}

/* Philox4x32-10 of one counter (4 words) and key (2 words), given and returned as doubles. */
SEXP C_philox(SEXP ctr, SEXP key)
{
    som_philox_ctr r = som_philox4x32(word_of(ctr, 0), word_of(ctr, 1), word_of(ctr, 2),
                                      word_of(ctr, 3), word_of(key, 0), word_of(key, 1));
    SEXP out = PROTECT(Rf_allocVector(REALSXP, 4));
    int i;
    for (i = 0; i < 4; i++) REAL(out)[i] = r.v[i];
    UNPROTECT(1);
    return out;
}

/* The visiting order (0-based) of pass `pass` of map (size, restart) over n points, from
 * the order stream (sample = FALSE) or the init = "sample" stream (sample = TRUE). */
SEXP C_visit_order(SEXP n, SEXP seed, SEXP size, SEXP restart, SEXP pass, SEXP sample)
{
    som_u32 nn = (som_u32)Rf_asReal(n);
    SEXP out = PROTECT(Rf_allocVector(INTSXP, (R_xlen_t)nn));
    som_order((som_u32 *)INTEGER(out), nn, (som_u32)(int64_t)Rf_asReal(seed),
              Rf_asLogical(sample) == TRUE ? SOM_STREAM_SAMPLE : SOM_STREAM_ORDER,
              (som_u32)Rf_asInteger(size), (som_u32)Rf_asInteger(restart),
              (som_u32)Rf_asInteger(pass));
    UNPROTECT(1);
    return out;
}

/* `count` draws of xoshiro128** from state (4 words): raw 32-bit outputs when k is 0, else
 * uniform integers in 0 .. k-1 (som_xoshiro_below). For the known-answer tests. */
SEXP C_xoshiro_draws(SEXP state, SEXP k, SEXP count)
{
    som_xoshiro g;
    som_u32 kk = (som_u32)Rf_asReal(k);
    int n = Rf_asInteger(count), i;
    SEXP out = PROTECT(Rf_allocVector(REALSXP, n));
    for (i = 0; i < 4; i++) g.s[i] = word_of(state, i);
    for (i = 0; i < n; i++) REAL(out)[i] = kk ? som_xoshiro_below(&g, kk) : som_xoshiro_next(&g);
    UNPROTECT(1);
    return out;
}
