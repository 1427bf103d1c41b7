/* r_shards.c: data-parallel batch training from R (future workers): each pass, every
 * worker computes the sums of its range of blocks of rows, as the aligned nodes of the
 * pairwise sums it holds (C_batch_shards), from the file or from its rows read once into
 * memory (C_shard_rows), and the main process, training through the driver with the shards
 * engine (C_train, backend "shards"), gathers them (r_shards_gather) and ends the pass from
 * all of them in block order, as one process would. */
#include <limits.h>
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

/* What a worker's entry point starts from: the data, the problem and the CPU backend's
 * settings (R errors only here, before anything is opened); SOM_OK, or a status for a
 * backend that is not the CPU's. */
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

/* The rows a worker holds (R's list(x, first): a double matrix of the file's rows
 * first .. first + nrow(x) - 1, as C_shard_rows read them) as the data's source. R errors
 * only. */
static void held_of(SEXP held, const som_data *d, som_held *h)
{
    SEXP x = r_elt(held, "x"), dim = Rf_getAttrib(x, R_DimSymbol);
    int64_t first;
    if (TYPEOF(x) != REALSXP || Rf_length(dim) != 2 || INTEGER(dim)[1] != d->m)
        Rf_error("somgpu: internal error: the rows held must be a double matrix of the data's columns");
    first = (int64_t)r_real(held, "first");
    if (first < 0 || first + INTEGER(dim)[0] > d->n)
        Rf_error("somgpu: internal error: the rows held lie beyond the data");
    som_held_init(h, REAL(x), first, INTEGER(dim)[0], d->m);
}

/* The maps of `problem` (init "given": this pass's weights) summed over blocks
 * blocks[1] .. blocks[2] - 1 (0-based) of the data on the CPU backend `backend`, the rows
 * read from the file, or from `held` (NULL, or the rows of those blocks in memory: held_of):
 * a matrix of node_len x nodes (the range's aligned nodes of the pairwise sums), or a
 * somgpu_status. */
SEXP C_batch_shards(SEXP data, SEXP problem, SEXP backend, SEXP blocks, SEXP held)
{
    shard_job j;
    som_held in_memory;
    SEXP out;
    int64_t b0, b1;
    int rc = job_of(data, problem, backend, &j);
    if (TYPEOF(blocks) != REALSXP || XLENGTH(blocks) != 2)
        Rf_error("somgpu: internal error: shards must be two numbers");
    b0 = (int64_t)REAL(blocks)[0];
    b1 = (int64_t)REAL(blocks)[1];
    if (b0 < 0 || b1 < b0) Rf_error("somgpu: internal error: shards must be two numbers");
    if (!Rf_isNull(held)) held_of(held, &j.rd.d, &in_memory);
    out = PROTECT(Rf_allocMatrix(REALSXP, (int)node_len(&j.p),
                                 (int)som_pair_nodes((som_count)b0, (som_count)b1)));
    if (Rf_isNull(held)) {
        if (rc == SOM_OK) rc = r_data_open(&j.rd, &j.st); /* closed on every path below */
        j.p.data.src = j.rd.d.src;
    } else {
        j.p.data.x = NULL; /* the rows come from those held, whatever the data */
        j.p.data.src = &in_memory.src;
    }
    if (rc == SOM_OK) rc = som_check_problem(&j.p, &j.st);
    if (rc == SOM_OK)
        rc = (single(&j) ? som_cpu_batch_shards_f : som_cpu_batch_shards)(
            &j.rb.cfg.cpu, &j.p, b0, b1, REAL(out), &j.st);
    r_data_close(&j.rd);
    UNPROTECT(1);
    return rc == SOM_OK ? out : status_out(&j.st, R_NilValue);
}

/* Rows first .. first + rows - 1 of a file-backed matrix `data` (R's somgpu_file list) as
 * the core reads them (centred and scaled where R would have): a double matrix of rows x m,
 * or a somgpu_status. A worker's shard, read once (R/train_shards.R). */
SEXP C_shard_rows(SEXP data, SEXP first, SEXP rows)
{
    r_data rd;
    som_status st;
    SEXP out;
    int64_t f, r;
    int rc;
    r_data_of(data, R_NilValue, &rd);
    f = (int64_t)Rf_asReal(first);
    r = (int64_t)Rf_asReal(rows);
    if (!rd.is_file || f < 0 || r < 0 || f + r > rd.d.n || r > INT_MAX)
        Rf_error("somgpu: internal error: rows beyond the file-backed matrix");
    out = PROTECT(Rf_allocMatrix(REALSXP, (int)r, rd.d.m));
    som_status_init(&st);
    rc = r_data_open(&rd, &st); /* closed on every path below */
    if (rc == SOM_OK && r > 0) rc = rd.d.src->read(rd.d.src, f, r, REAL(out), &st);
    r_data_close(&rd);
    UNPROTECT(1);
    return rc == SOM_OK ? out : status_out(&st, R_NilValue);
}

/* The shards engine's gather (som_gather_fn, ud an r_gather): R's function(weights, pass)
 * run through the hooks (r_hooks_call: an error or interrupt there stops the run without
 * jumping over the driver), its matrix of the workers' nodes copied into nodes. */
int r_shards_gather(void *ud, const som_problem *p, double *const *w, int t, double *nodes,
                    size_t count, som_status *st)
{
    const r_gather *g = ud;
    SEXP weights, pass, call, val;
    double **wp;
    int i;
    weights = PROTECT(r_weights_list(p, &wp));
    for (i = 0; i < p->nmaps; i++)
        memcpy(wp[i], w[i], (size_t)p->size[i] * p->data.m * sizeof(double));
    pass = PROTECT(Rf_ScalarInteger(t));
    call = PROTECT(Rf_lang3(g->fun, weights, pass));
    val = PROTECT(r_hooks_call(g->hooks, call));
    if (val == R_NilValue) {
        UNPROTECT(4);
        if (g->hooks->interrupted) return som_fail(st, SOM_ERR_INTERRUPTED, "training interrupted");
        return som_fail(st, SOM_ERR_BACKEND, "the workers' sums of pass %d could not be gathered", t);
    }
    if (TYPEOF(val) != REALSXP || (size_t)XLENGTH(val) != count) {
        UNPROTECT(4);
        return som_fail(st, SOM_ERR_BACKEND, "the workers' sums do not fit the maps");
    }
    memcpy(nodes, REAL(val), count * sizeof(double));
    UNPROTECT(4);
    return SOM_OK;
}
