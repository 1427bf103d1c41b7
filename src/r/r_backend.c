/* r_backend.c: the registry of backends, R's list(name, threads, ...) read into each
 * backend's settings (see r_backend.h). */
#include <string.h>

#include "r_args.h"
#include "r_backend.h"

/* --- the CPU backend: list(name = "cpu", threads, round_units, precision) --- */
static int read_cpu(SEXP backend, int threads, r_backend *rb, som_status *st)
{
    som_cpu_cfg *cpu = &rb->cfg.cpu;
    (void)st;
    cpu->threads = threads;
    cpu->round_units = r_real(backend, "round_units");
    cpu->precision = r_choice(backend, "precision", som_precision_names) == 1 ? SOM_SINGLE
                                                                            : SOM_DOUBLE;
    rb->be = som_cpu_backend(cpu);
    return SOM_OK;
}

/* --- the OpenCL backend: list(name = "opencl", threads, context, kernel, wg_min_size,
 * max_alloc, launch_seconds, wg_local, stream_data, local_mem) --- */
/* somgpu.opencl_kernel's values: "group" is the work-group kernel (a name users write) */
static const char *const kernel_names[] = {"auto", "item", "group", NULL};

static int read_ocl(SEXP backend, int threads, r_backend *rb, som_status *st)
{
    som_ocl_cfg *ocl = &rb->cfg.ocl;
    ocl->ctx = r_ocl_ctx(r_elt(backend, "context"));
    ocl->opts.kernel = r_choice(backend, "kernel", kernel_names);
    ocl->opts.wg_min_size = r_int(backend, "wg_min_size");
    ocl->opts.max_alloc = r_real(backend, "max_alloc");
    ocl->opts.launch_seconds = r_real(backend, "launch_seconds");
    ocl->opts.wg_local = r_flag(backend, "wg_local");
    ocl->opts.stream_data = r_flag(backend, "stream_data");
    ocl->opts.local_mem = r_real(backend, "local_mem");
    rb->be = som_ocl_backend(ocl, threads);
    if (ocl->ctx == NULL)
        return som_fail(st, SOM_ERR_INVALID, "the OpenCL context is no longer valid");
    return SOM_OK;
}

/* --- data-parallel batch over future workers, this process's side: list(name = "shards",
 * threads, round_units, precision, gather, ranges): the CPU backend's settings, R's
 * function(weights, pass) that returns the workers' nodes (R/train_shards.R), their ranges of
 * blocks (pairs of first and end blocks, in order) --- */
static int read_shards(SEXP backend, int threads, r_backend *rb, som_status *st)
{
    SEXP ranges = r_elt(backend, "ranges"), fun = r_elt(backend, "gather");
    som_shards_cfg sh;
    int64_t *rg;
    R_xlen_t i;
    if (TYPEOF(ranges) != REALSXP || XLENGTH(ranges) % 2 != 0 || XLENGTH(ranges) == 0)
        Rf_error("somgpu: internal error: the shards' ranges must be pairs of blocks");
    if (!Rf_isFunction(fun)) Rf_error("somgpu: internal error: gather must be a function");
    read_cpu(backend, threads, rb, st); /* the CPU backend's settings, into cfg.cpu */
    memset(&sh, 0, sizeof sh);
    sh.cpu = rb->cfg.cpu;
    rg = (int64_t *)R_alloc((size_t)XLENGTH(ranges), sizeof *rg);
    for (i = 0; i < XLENGTH(ranges); i++) rg[i] = (int64_t)REAL(ranges)[i];
    sh.ranges = rg;
    sh.nranges = (int)(XLENGTH(ranges) / 2);
    sh.gather = r_shards_gather;
    sh.ud = &rb->gather;
    rb->cfg.shards = sh;
    rb->gather.fun = fun;
    rb->be = som_cpu_shards_backend(&rb->cfg.shards);
    return SOM_OK;
}

SEXP ran_names(int used)
{
    SEXP out;
    int k, count = 0;
    for (k = 0; k < SOM_RAN_KINDS; k++) count += (used >> k) & 1;
    out = PROTECT(Rf_allocVector(STRSXP, count));
    for (count = 0, k = 0; k < SOM_RAN_KINDS; k++)
        if ((used >> k) & 1) SET_STRING_ELT(out, count++, Rf_mkChar(som_ocl_ran_name(k)));
    UNPROTECT(1);
    return out;
}

static SEXP ocl_ran(const r_backend *rb)
{
    return ran_names(rb->cfg.ocl.kernels_used);
}

/* --- the registry, in the order of the R_BACKEND_* entries --- */
static const struct {
    const char *name;                                          /* R's backend name     */
    int (*read)(SEXP backend, int threads, r_backend *rb, som_status *st);
    SEXP (*ran)(const r_backend *rb);                          /* NULL: reports nothing */
    int shards;  /* the workers of the data-parallel batch run it (r_shards.c)             */
    int user;    /* a backend users choose (train(backend =)); else somgpu's own            */
} registry[] = {
    {"cpu", read_cpu, NULL, 1, 1},
    {"opencl", read_ocl, ocl_ran, 0, 1},
    {"shards", read_shards, NULL, 0, 0}, /* this process's side of the data-parallel batch */
};
#define NBACKENDS ((int)(sizeof registry / sizeof registry[0]))

int backend_of(SEXP backend, r_backend *rb, som_status *st)
{
    SEXP v = r_elt(backend, "name");
    const char *name;
    int k;
    if (!Rf_isString(v) || XLENGTH(v) != 1)
        Rf_error("somgpu: internal error: a backend's name must be a string");
    name = CHAR(STRING_ELT(v, 0));
    memset(rb, 0, sizeof *rb);
    for (k = 0; k < NBACKENDS && strcmp(name, registry[k].name) != 0; k++) {}
    if (k == NBACKENDS) Rf_error("somgpu: internal error: no backend named '%s'", name);
    rb->kind = k;
    return registry[k].read(backend, r_int(backend, "threads"), rb, st);
}

SEXP backend_names(int shards)
{
    SEXP out;
    int k, count = 0;
    for (k = 0; k < NBACKENDS; k++) count += registry[k].user && (!shards || registry[k].shards);
    out = PROTECT(Rf_allocVector(STRSXP, count));
    for (count = 0, k = 0; k < NBACKENDS; k++)
        if (registry[k].user && (!shards || registry[k].shards))
            SET_STRING_ELT(out, count++, Rf_mkChar(registry[k].name));
    UNPROTECT(1);
    return out;
}

void backend_hooks(r_backend *rb, glue_ud *hooks)
{
    rb->gather.hooks = hooks;
}

SEXP backend_ran(const r_backend *rb)
{
    return registry[rb->kind].ran ? registry[rb->kind].ran(rb) : Rf_allocVector(STRSXP, 0);
}
