/* r_shards.c: data-parallel batch training from R (future workers): each pass, every
 * worker computes the sums of its range of blocks of rows, as the aligned nodes of the
 * pairwise sums it holds (C_batch_shards), and the main process ends the pass from all of
 * them in block order (C_batch_apply), as one process would. */
#include <string.h>

#include <R.h>

#include "r_glue.h"

/* Reals of one node's sums of every map of p. */
static double node_len(const som_problem *p)
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
    r_backend rb; /* the CPU backend */
    som_status st;
} shard_job;

static int job_of(SEXP data, SEXP problem, SEXP backend, shard_job *j)
{
    int rc;
    r_data_of(data, problem, &j->rd);
    problem_of(&j->rd.d, problem, &j->p);
    som_status_init(&j->st);
    if ((rc = backend_of(backend, &j->rb, &j->st)) == SOM_OK && j->rb.kind != R_BACKEND_CPU)
        rc = som_fail(&j->st, SOM_ERR_INVALID, "data-parallel batch runs on the CPU backend");
    return rc;
}

/* The job's CPU backend runs in single precision. */
static int single(const shard_job *j)
{
    return j->rb.cfg.cpu.precision == SOM_SINGLE;
}

/* The maps of `problem` (init "given": this pass's weights) summed over blocks
 * blocks[1] .. blocks[2] - 1 (0-based) of the data on the CPU backend `backend`: a matrix
 * of node_len x nodes (the range's aligned nodes of the pairwise sums), or a
 * somgpu_status. */
SEXP C_batch_shards(SEXP data, SEXP problem, SEXP backend, SEXP blocks)
{
    shard_job j;
    SEXP out;
    int64_t b0, b1;
    int rc = job_of(data, problem, backend, &j);
    if (TYPEOF(blocks) != REALSXP || XLENGTH(blocks) != 2)
        Rf_error("somgpu: internal error: shards must be two numbers");
    b0 = (int64_t)REAL(blocks)[0];
    b1 = (int64_t)REAL(blocks)[1];
    if (b0 < 0 || b1 < b0) Rf_error("somgpu: internal error: shards must be two numbers");
    out = PROTECT(Rf_allocMatrix(REALSXP, (int)node_len(&j.p),
                                 (int)som_pair_nodes((som_count)b0, (som_count)b1)));
    if (rc == SOM_OK) rc = r_data_open(&j.rd, &j.st); /* closed on every path below */
    j.p.data.src = j.rd.d.src;
    if (rc == SOM_OK) rc = som_check_problem(&j.p, &j.st);
    if (rc == SOM_OK)
        rc = (single(&j) ? som_cpu_batch_shards_f : som_cpu_batch_shards)(
            &j.rb.cfg.cpu, &j.p, b0, b1, REAL(out), &j.st);
    r_data_close(&j.rd);
    UNPROTECT(1);
    return rc == SOM_OK ? out : status_out(&j.st, R_NilValue);
}

/* The end of pass `pass` for the maps of `problem` (init "given": the pass's weights) from
 * the workers' nodes (a node_len x nodes matrix, in block order) over the ranges of blocks
 * (a 2 x workers matrix of first and end blocks, in order, from 0 to the last): the new
 * weights (a list of size x m matrices), or a somgpu_status. The data are not read. */
SEXP C_batch_apply(SEXP data, SEXP problem, SEXP backend, SEXP nodes, SEXP ranges, SEXP pass)
{
    shard_job j;
    SEXP weights, dim = Rf_getAttrib(nodes, R_DimSymbol);
    double **w;
    int64_t *rg, total = 0;
    int rc = job_of(data, problem, backend, &j), nr, i;
    if (TYPEOF(nodes) != REALSXP || Rf_length(dim) != 2 || INTEGER(dim)[0] != node_len(&j.p))
        Rf_error("somgpu: internal error: the shards' sums do not fit the maps");
    if (TYPEOF(ranges) != REALSXP || XLENGTH(ranges) % 2 != 0)
        Rf_error("somgpu: internal error: the shards' ranges must be pairs of blocks");
    nr = (int)(XLENGTH(ranges) / 2);
    rg = (int64_t *)R_alloc((size_t)XLENGTH(ranges) + 1, sizeof *rg);
    for (i = 0; i < 2 * nr; i++) rg[i] = (int64_t)REAL(ranges)[i];
    for (i = 0; i < nr; i++) { /* contiguous from block 0, and the nodes they hold */
        if (rg[2 * i] != (i ? rg[2 * i - 1] : 0) || rg[2 * i + 1] < rg[2 * i])
            Rf_error("somgpu: internal error: the shards' ranges must be pairs of blocks");
        total += (int64_t)som_pair_nodes((som_count)rg[2 * i], (som_count)rg[2 * i + 1]);
    }
    if (total != INTEGER(dim)[1]) Rf_error("somgpu: internal error: the shards' sums do not fit the maps");
    weights = PROTECT(r_weights_list(&j.p, &w));
    /* the data are not read: a block's rows are enough to size the engine's buffers */
    if (j.p.data.n > (int64_t)j.p.batch_block) j.p.data.n = (int64_t)j.p.batch_block;
    if (rc == SOM_OK)
        rc = (single(&j) ? som_cpu_batch_apply_f : som_cpu_batch_apply)(
            &j.rb.cfg.cpu, &j.p, w, REAL(nodes), rg, nr, Rf_asInteger(pass), &j.st);
    UNPROTECT(1);
    return rc == SOM_OK ? weights : status_out(&j.st, R_NilValue);
}
