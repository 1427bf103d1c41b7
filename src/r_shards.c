/* r_shards.c: data-parallel batch training from R (future workers): each pass, every
 * worker computes the sums of its shards of the rows (C_batch_shards) and the main process
 * ends the pass from all of them in shard order (C_batch_apply), as one process would. */
#include <string.h>

#include <R.h>

#include "r_glue.h"

/* Reals of one shard's sums of every map of p. */
static double shard_len(const som_problem *p)
{
    double len = 0;
    int i;
    for (i = 0; i < p->nmaps; i++)
        len += (double)p->size[i] * som_slot_width(p->data.m, som_data_general(&p->data));
    return len;
}

/* What both entry points start from: the data, the problem and the CPU backend's settings
 * (R errors only here, before anything is opened); SOM_OK, or a status for a backend that
 * is not the CPU's. */
typedef struct {
    r_data rd;
    som_problem p;
    som_cpu_cfg cpu;
    som_status st;
} shard_job;

static int job_of(SEXP data, SEXP problem, SEXP backend, shard_job *j)
{
    som_backend be;
    som_ocl_cfg ocl;
    int rc;
    r_data_of(data, problem, &j->rd);
    problem_of(&j->rd.d, problem, &j->p);
    som_status_init(&j->st);
    if ((rc = backend_of(backend, &be, &j->cpu, &ocl, &j->st)) == SOM_OK && be.cfg != &j->cpu)
        rc = som_fail(&j->st, SOM_ERR_INVALID, "data-parallel batch runs on the CPU backend");
    return rc;
}

/* The maps of `problem` (init "given": this pass's weights) summed over shards
 * shards[1] .. shards[2] - 1 (0-based) of the data on the CPU backend `backend`: a
 * matrix of shard_len x shards, or a somgpu_status. */
SEXP C_batch_shards(SEXP data, SEXP problem, SEXP backend, SEXP shards)
{
    shard_job j;
    SEXP out;
    int64_t sh0, sh1;
    int rc = job_of(data, problem, backend, &j);
    if (TYPEOF(shards) != REALSXP || XLENGTH(shards) != 2)
        Rf_error("somgpu: internal error: shards must be two numbers");
    sh0 = (int64_t)REAL(shards)[0];
    sh1 = (int64_t)REAL(shards)[1];
    out = PROTECT(Rf_allocMatrix(REALSXP, (int)shard_len(&j.p), (int)(sh1 - sh0)));
    if (rc == SOM_OK) rc = r_data_open(&j.rd, &j.st); /* closed on every path below */
    j.p.data.src = j.rd.d.src;
    if (rc == SOM_OK) rc = som_check_problem(&j.p, &j.st);
    if (rc == SOM_OK)
        rc = (j.cpu.precision == SOM_SINGLE ? som_cpu_batch_shards_f : som_cpu_batch_shards)(
            &j.cpu, &j.p, sh0, sh1, REAL(out), &j.st);
    r_data_close(&j.rd);
    UNPROTECT(1);
    return rc == SOM_OK ? out : status_out(&j.st, R_NilValue);
}

/* The end of pass `pass` for the maps of `problem` (init "given": the pass's weights) from
 * the sums of every shard of the data (a shard_len x shards matrix, shards in order): the
 * new weights (a list of size x m matrices), or a somgpu_status. The data are not read. */
SEXP C_batch_apply(SEXP data, SEXP problem, SEXP backend, SEXP shards, SEXP pass)
{
    shard_job j;
    SEXP weights, dim = Rf_getAttrib(shards, R_DimSymbol);
    double **w;
    int rc = job_of(data, problem, backend, &j);
    if (TYPEOF(shards) != REALSXP || Rf_length(dim) != 2 || INTEGER(dim)[0] != shard_len(&j.p))
        Rf_error("somgpu: internal error: the shards' sums do not fit the maps");
    weights = PROTECT(r_weights_list(&j.p, &w));
    /* the data are not read: a shard's rows are enough to size the engine's buffers */
    if (j.p.data.n > (int64_t)SOM_BATCH_SHARD * j.p.batch_block)
        j.p.data.n = (int64_t)SOM_BATCH_SHARD * j.p.batch_block;
    if (rc == SOM_OK)
        rc = (j.cpu.precision == SOM_SINGLE ? som_cpu_batch_apply_f : som_cpu_batch_apply)(
            &j.cpu, &j.p, w, REAL(shards), INTEGER(dim)[1], Rf_asInteger(pass), &j.st);
    UNPROTECT(1);
    return rc == SOM_OK ? weights : status_out(&j.st, R_NilValue);
}
