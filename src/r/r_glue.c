/* r_glue.c: the entry points for training, assessment, memory plans, constants and what
 * was built. R has validated every value; the lists it passes are read by r_args.c into
 * the core's structs, and the results (or a status object) go back as R values. The core
 * runs on this thread; interrupts and progress reach it through r_hooks.c. */
#include <stdlib.h>
#include <string.h>

#include <R.h>

#include "r_glue.h"
#include "som_omp.h"

/* --- entry points ------------------------------------------------------------------ */

/* Train the maps of `problem` (see problem_of; trace = TRUE records the trace) on the data
 * (a matrix or a file; with the problem's view and seeds, a list of views: r_views_of)
 * with `backend` (see backend_of). progress: TRUE (a cli bar), FALSE, or an R function of
 * the share done. Returns list(weights, kernels, trace) or a somgpu_status. */
SEXP C_train(SEXP data, SEXP problem, SEXP backend, SEXP progress)
{
    const char *names[] = {"weights", "kernels", "trace", ""};
    som_problem p;
    r_backend rb;
    som_status st;
    som_hooks hooks;
    glue_ud ud;
    SEXP weights, trace, keep, out;
    double **w;
    int rc;

    r_data rd;
    const int views = !Rf_isNull(r_opt(problem, "view")); /* data: a list of views */
    r_data_of(views ? VECTOR_ELT(data, 0) : data, problem, &rd);
    problem_of(&rd.d, problem, &p);
    if (views) r_views_of(data, problem, &p);
    /* the trace: passes x maps, NaN until filled */
    trace = PROTECT(r_flag(problem, "trace")
                        ? Rf_allocMatrix(REALSXP, p.iter_max > 1 ? p.iter_max - 1 : 0, p.nmaps)
                        : R_NilValue);
    if (trace != R_NilValue) {
        R_xlen_t e;
        for (e = 0; e < XLENGTH(trace); e++) REAL(trace)[e] = R_NaN;
        p.trace = REAL(trace);
    }
    weights = PROTECT(r_weights_list(&p, &w));
    keep = PROTECT(Rf_allocVector(VECSXP, R_HOOKS_KEEP));
    som_status_init(&st);
    if (backend_of(backend, &rb, &st) != SOM_OK) {
        UNPROTECT(3);
        return status_out(&st, R_NilValue);
    }
    hooks = r_hooks_start(&ud, keep, progress, "training ring SOMs");
    backend_hooks(&rb, &ud);
    rc = r_data_open(&rd, &st); /* after every R allocation: closed on every path below */
    p.data.src = rd.d.src;
    if (rc == SOM_OK) rc = som_train(&p, &rb.be, w, &hooks, &st);
    r_data_close(&rd);
    if (rc != SOM_OK) {
        out = status_out(&st, r_hooks_end(&ud, &st));
        UNPROTECT(3);
        return out;
    }
    r_hooks_end(&ud, &st);
    out = PROTECT(Rf_mkNamed(VECSXP, names));
    SET_VECTOR_ELT(out, 0, weights);
    SET_VECTOR_ELT(out, 1, backend_ran(&rb));
    SET_VECTOR_ELT(out, 2, trace);
    UNPROTECT(4);
    return out;
}

/* A list of nmaps vectors of n values of `type`, NULL where want is not TRUE; ptr[i] points
 * into each (NULL where none). */
static SEXP per_map(SEXPTYPE type, SEXP want, R_xlen_t n, void **ptr)
{
    const int nmaps = LENGTH(want);
    SEXP out = PROTECT(Rf_allocVector(VECSXP, nmaps));
    int i;
    for (i = 0; i < nmaps; i++) {
        ptr[i] = NULL;
        if (LOGICAL(want)[i] == TRUE) {
            SEXP v = Rf_allocVector(type, n);
            SET_VECTOR_ELT(out, i, v);
            ptr[i] = type == INTSXP ? (void *)INTEGER(v) : (void *)REAL(v);
        }
    }
    UNPROTECT(1);
    return out;
}

/* qe, te and sse of every map in `weights` (a list of size x m matrices), the 1-based winner
 * of every point for the maps where options$clusters is TRUE, and with options$detail TRUE
 * for those maps the runner-up and the distances to both (see som_detail); options:
 * threads, round_units, clusters, detail, col_w, missing (the data's distance). */
SEXP C_assess(SEXP data, SEXP weights, SEXP options)
{
    const char *names[] = {"qe", "te", "sse", "clusters", "second", "distance", "next", ""};
    SEXP to = r_opt(options, "clusters_to");
    r_data rd, sink;
    som_maps maps;
    som_detail detail;
    som_status st;
    glue_ud ud;
    som_hooks hooks;
    SEXP want = r_elt(options, "clusters"), none, out, keep;
    const int nmaps = LENGTH(weights), details = r_flag(options, "detail");
    int i, rc, *sizes;
    const double **w;

    if (TYPEOF(weights) != VECSXP)
        Rf_error("somgpu: internal error: the weights must be double matrices of the data's columns");
    r_data_of(data, options, &rd);
    memset(&sink, 0, sizeof sink);
    if (!Rf_isNull(to)) r_data_of(to, R_NilValue, &sink); /* the clusters' file */
    if (TYPEOF(want) != LGLSXP || LENGTH(want) != nmaps)
        Rf_error("somgpu: internal error: clusters must say, for each map, whether to keep them");
    sizes = (int *)R_alloc((size_t)nmaps, sizeof *sizes);
    w = (const double **)R_alloc((size_t)nmaps, sizeof *w);
    for (i = 0; i < nmaps; i++) {
        SEXP wi = VECTOR_ELT(weights, i), dim = Rf_getAttrib(wi, R_DimSymbol);
        if (TYPEOF(wi) != REALSXP || Rf_length(dim) != 2 || INTEGER(dim)[1] != rd.d.m ||
            INTEGER(dim)[0] < 1)
            Rf_error("somgpu: internal error: the weights must be double matrices of the data's columns");
        sizes[i] = INTEGER(dim)[0];
        w[i] = REAL(wi);
    }
    maps.nmaps = nmaps;
    maps.size = sizes;
    maps.weights = w;
    detail.second = (int **)R_alloc((size_t)nmaps, sizeof(int *));
    detail.best = (double **)R_alloc((size_t)nmaps, sizeof(double *));
    detail.next = (double **)R_alloc((size_t)nmaps, sizeof(double *));
    keep = PROTECT(Rf_allocVector(VECSXP, R_HOOKS_KEEP));
    hooks = r_hooks_interrupt_only(&ud, keep);
    out = PROTECT(Rf_mkNamed(VECSXP, names));
    SET_VECTOR_ELT(out, 0, Rf_allocVector(REALSXP, nmaps));
    SET_VECTOR_ELT(out, 1, Rf_allocVector(REALSXP, nmaps));
    SET_VECTOR_ELT(out, 2, Rf_allocVector(REALSXP, nmaps));
    {
        int **cl = (int **)R_alloc((size_t)nmaps, sizeof *cl);
        none = PROTECT(Rf_allocVector(LGLSXP, nmaps));
        for (i = 0; i < nmaps; i++) LOGICAL(none)[i] = details ? LOGICAL(want)[i] : FALSE;
        const R_xlen_t n = (R_xlen_t)rd.d.n;
        const int threads = r_int(options, "threads");
        const double units = r_real(options, "round_units");
        SET_VECTOR_ELT(out, 3, per_map(INTSXP, want, n, (void **)cl));
        SET_VECTOR_ELT(out, 4, per_map(INTSXP, none, n, (void **)detail.second));
        SET_VECTOR_ELT(out, 5, per_map(REALSXP, none, n, (void **)detail.best));
        SET_VECTOR_ELT(out, 6, per_map(REALSXP, none, n, (void **)detail.next));
        som_status_init(&st);
        /* the files last, after every R allocation: closed on every path below */
        rc = r_data_open(&rd, &st);
        if (rc == SOM_OK && sink.is_file) rc = som_file_open(&sink.file, &sink.desc, 1, &st);
        if (rc == SOM_OK && sink.is_file)
            rc = som_assess_to(&rd.d, &maps, threads, units, &hooks, REAL(VECTOR_ELT(out, 0)),
                               REAL(VECTOR_ELT(out, 1)), REAL(VECTOR_ELT(out, 2)),
                               &sink.file.sink, &st);
        else if (rc == SOM_OK)
            rc = som_assess(&rd.d, &maps, threads, units, &hooks, REAL(VECTOR_ELT(out, 0)),
                            REAL(VECTOR_ELT(out, 1)), REAL(VECTOR_ELT(out, 2)), cl,
                            details ? &detail : NULL, &st);
        if (sink.is_file && rc == SOM_OK) rc = som_file_finish(&sink.file, &st);
        som_file_close(&sink.file);
        r_data_close(&rd);
    }
    if (rc != SOM_OK) out = status_out(&st, r_hooks_end(&ud, &st));
    UNPROTECT(3);
    return out;
}

/* The family of `problem` on the data as C computes it once the maps exist (som_family_of):
 * list(n, m, nmaps, restarts, size_sum, size_max, passes, trace, batch_block, general,
 * sourced, schedules), the fields of the family R's memory plan describes beforehand. */
SEXP C_family_of(SEXP data, SEXP problem)
{
    const char *names[] = {"n", "m", "nmaps", "restarts", "size_sum", "size_max", "passes",
                           "trace", "batch_block", "general", "sourced", "schedules", ""};
    r_data rd;
    som_problem p;
    som_family f;
    SEXP out;
    r_data_of(data, problem, &rd);
    problem_of(&rd.d, problem, &p);
    som_family_of(&p, &f);
    out = PROTECT(Rf_mkNamed(VECSXP, names));
    SET_VECTOR_ELT(out, 0, Rf_ScalarReal((double)f.n));
    SET_VECTOR_ELT(out, 1, Rf_ScalarInteger(f.m));
    SET_VECTOR_ELT(out, 2, Rf_ScalarReal((double)f.nmaps));
    SET_VECTOR_ELT(out, 3, Rf_ScalarInteger(f.restarts));
    SET_VECTOR_ELT(out, 4, Rf_ScalarReal((double)f.size_sum));
    SET_VECTOR_ELT(out, 5, Rf_ScalarInteger(f.size_max));
    SET_VECTOR_ELT(out, 6, Rf_ScalarInteger(f.passes));
    SET_VECTOR_ELT(out, 7, Rf_ScalarLogical(r_flag(problem, "trace")));
    SET_VECTOR_ELT(out, 8, Rf_ScalarInteger(f.batch_block));
    SET_VECTOR_ELT(out, 9, Rf_ScalarLogical(f.general));
    SET_VECTOR_ELT(out, 10, Rf_ScalarLogical(f.sourced));
    SET_VECTOR_ELT(out, 11, Rf_ScalarInteger(f.schedules));
    UNPROTECT(1);
    return out;
}

/* What a call of train() allocates, buffer by buffer, for a family of this shape:
 * family = list(n, m, nmaps, restarts, size_sum, size_max, passes, trace, batch_block,
 * general, algorithm, schedules, views (1 when absent)); backend as for C_train, with here =
 * FALSE when the maps train elsewhere (future workers: this process only assesses them).
 * Returns list(what, bytes, where = "host" | "device") or a somgpu_status. */
SEXP C_memory_plan(SEXP family, SEXP backend)
{
    const char *names[] = {"what", "bytes", "where", ""};
    som_family f;
    som_plan plan;
    r_backend rb;
    som_status st;
    int algorithm, i;
    double nsizes;
    SEXP out;

    memset(&f, 0, sizeof f);
    memset(&plan, 0, sizeof plan);
    f.n = (int64_t)r_real(family, "n");
    f.m = r_int(family, "m");
    f.nmaps = r_int(family, "nmaps");
    f.restarts = r_int(family, "restarts");
    f.size_sum = r_real(family, "size_sum");
    f.size_max = r_int(family, "size_max");
    f.passes = r_int(family, "passes");
    f.trace = r_flag(family, "trace");
    f.batch_block = r_int(family, "batch_block");
    f.general = r_flag(family, "general");
    f.sourced = Rf_asLogical(r_opt(family, "sourced")) == TRUE; /* NULL: in memory */
    f.schedules = Rf_isNull(r_opt(family, "schedules")) ? 1 : Rf_asInteger(r_opt(family, "schedules"));
    f.views = Rf_isNull(r_opt(family, "views")) ? 1 : Rf_asInteger(r_opt(family, "views"));
    algorithm = r_choice(family, "algorithm", som_algorithm_names);
    nsizes = (double)f.nmaps / f.restarts;
    /* what R holds: the weights of every map, the trace, the clusters of the maps assessed
     * at once (a size's restarts, or every map) and the kept ones */
    som_plan_add(&plan, "R: weights of every map", f.size_sum * f.m * sizeof(double) +
                                                         256.0 * f.nmaps, SOM_HOST);
    if (f.trace)
        som_plan_add(&plan, "R: trace", (double)f.passes * f.nmaps * sizeof(double), SOM_HOST);
    if (Rf_asLogical(r_opt(family, "clusters_in_r")) != FALSE) /* NULL: they are */
        som_plan_add(&plan, "R: clusters", (double)f.n * sizeof(int) *
                                               ((f.restarts > 1 ? f.restarts : f.nmaps) + nsizes),
                     SOM_HOST);
    som_status_init(&st);
    if (backend_of(backend, &rb, &st) != SOM_OK) return status_out(&st, R_NilValue);
    som_train_plan(&f, algorithm, r_flag(backend, "here") ? &rb.be : NULL, rb.be.threads, &plan);
    out = PROTECT(Rf_mkNamed(VECSXP, names));
    SET_VECTOR_ELT(out, 0, Rf_allocVector(STRSXP, plan.count));
    SET_VECTOR_ELT(out, 1, Rf_allocVector(REALSXP, plan.count));
    SET_VECTOR_ELT(out, 2, Rf_allocVector(STRSXP, plan.count));
    for (i = 0; i < plan.count; i++) {
        SET_STRING_ELT(VECTOR_ELT(out, 0), i, Rf_mkChar(plan.buf[i].what));
        REAL(VECTOR_ELT(out, 1))[i] = plan.buf[i].bytes;
        SET_STRING_ELT(VECTOR_ELT(out, 2), i,
                       Rf_mkChar(plan.buf[i].where == SOM_DEVICE ? "device" : "host"));
    }
    UNPROTECT(1);
    return out;
}

/* The constants R needs: status codes, default block sizes, the kernel kinds. */
SEXP C_constants(void)
{
    const char *names[] = {"status", "batch_block", "assess_block", "kernels", "point_units",
                           "cpu_units_per_second", "sigma0_ring_share", "backends",
                           "shard_backends", ""};
    const char *codes[] = {"ok", "invalid", "nomem", "interrupted", "unavailable", "backend",
                           "file"};
    const int values[] = {SOM_OK, SOM_ERR_INVALID, SOM_ERR_NOMEM, SOM_ERR_INTERRUPTED,
                          SOM_ERR_UNAVAILABLE, SOM_ERR_BACKEND, SOM_ERR_FILE};
    SEXP out = PROTECT(Rf_mkNamed(VECSXP, names)), status, code_names;
    int i;
    status = Rf_allocVector(INTSXP, 7);
    SET_VECTOR_ELT(out, 0, status);
    code_names = Rf_allocVector(STRSXP, 7);
    Rf_setAttrib(status, R_NamesSymbol, code_names);
    for (i = 0; i < 7; i++) {
        INTEGER(status)[i] = values[i];
        SET_STRING_ELT(code_names, i, Rf_mkChar(codes[i]));
    }
    SET_VECTOR_ELT(out, 1, Rf_ScalarInteger(SOM_BATCH_BLOCK));
    SET_VECTOR_ELT(out, 2, Rf_ScalarInteger(SOM_ASSESS_BLOCK));
    SET_VECTOR_ELT(out, 3, ran_names((1 << SOM_RAN_KINDS) - 1));
    SET_VECTOR_ELT(out, 4, Rf_ScalarReal(SOM_POINT_UNITS));
    SET_VECTOR_ELT(out, 5, Rf_ScalarReal(SOM_CPU_UNITS_PER_SECOND));
    SET_VECTOR_ELT(out, 6, Rf_ScalarReal(SOM_SIGMA0_RING_SHARE));
    SET_VECTOR_ELT(out, 7, backend_names(0));
    SET_VECTOR_ELT(out, 8, backend_names(1));
    UNPROTECT(1);
    return out;
}

/* What this build offers: OpenMP or not, the most threads it may use, OpenCL or not, and
 * whether this is a forked child that must leave OpenCL alone. */
SEXP C_build_info(void)
{
    const char *names[] = {"openmp", "max_threads", "opencl", "opencl_forked", "simd",
                           "processors", ""};
    SEXP out = PROTECT(Rf_mkNamed(VECSXP, names));
    SET_VECTOR_ELT(out, 0, Rf_ScalarLogical(som_have_openmp()));
    SET_VECTOR_ELT(out, 1, Rf_ScalarInteger(som_max_threads()));
    SET_VECTOR_ELT(out, 2, Rf_ScalarLogical(som_ocl_built()));
    SET_VECTOR_ELT(out, 3, Rf_ScalarLogical(som_ocl_forked()));
    SET_VECTOR_ELT(out, 4, Rf_mkString(som_isa_name()));
    SET_VECTOR_ELT(out, 5, Rf_ScalarInteger(som_processors()));
    UNPROTECT(1);
    return out;
}
