/* som_cpu_shards_t.h: data-parallel batch on the CPU (future workers, R/train_shards.R), with the
 * batch engine's own functions: included after som_cpu_batch_t.h by som_cpu_batch.c and
 * som_cpu_batch_f.c. Each pass, every worker sums its range of blocks as the aligned nodes
 * of the pairwise sums (som_math.h) that the range holds (som_cpu_batch_shards), and this
 * process, as an engine of the one driver (som_cpu_shards), gathers every worker's nodes,
 * pushes them in block order and ends the pass, as the batch engine does in one process:
 * the totals, and so the maps, do not depend on the workers or where their ranges are cut;
 * the schedule, trace, progress and interrupts are the driver's. */
/* For future workers (data-parallel batch): the sums of blocks b0 .. b1 - 1 of the data with
 * the maps of p at their initial weights (init "given": the pass's weights), one column per
 * node of the range (som_pair_nodes), into out: per node every map's sums in map order (per
 * neuron m sums, then the counts: som_slot_width), as a pass on the whole data makes them. */
int PREC_SYMBOL(som_cpu_batch_shards)(som_cpu_cfg *cfg, const som_problem *p, int64_t b0,
                                       int64_t b1, double *out, som_status *st)
{
    void *state = NULL;
    int rc = batch_prepare(cfg, p, NULL, &state, st);
    if (rc == SOM_OK && b0 < b1) {
        batch_state *s = state;
        const int64_t B = s->cut.B, end = b1 * B < p->data.n ? b1 * B : p->data.n;
        som_slice sl;
        int64_t reached;
        s->node_out = out;
        s->node_i = 0;
        s->range_end = b1;
        s->node0 = b0;
        s->node1 = b0 + ((int64_t)1 << som_pair_node((som_count)b0, (som_count)b1));
        sl.from = b0 * B;
        sl.limit = end;
        sl.factors = NULL;
        while (rc == SOM_OK && sl.from < end) {
            rc = batch_advance(state, &sl, &reached, st);
            sl.from = reached;
        }
    }
    batch_release(state);
    return rc;
}

/* The engine of this process: the batch engine's state (its maps at the pass's start, its
 * pass's end), the pass's weights handed to the workers and their nodes back. */
typedef struct {
    const som_shards_cfg *cfg;
    void *batch;      /* the batch engine's state (batch_state)                    */
    double *wbuf;     /* the maps' weights, column-major, for the workers           */
    double **w;
    double *nodes;    /* the workers' nodes of a pass, in block order                */
    size_t nnodes;    /* their columns                                              */
    som_real *stack;  /* the pairwise sums, levels x the largest map's slot          */
    int64_t nblocks;
} shards_state;

static void shards_release(void *state)
{
    shards_state *s = state;
    if (!s) return;
    batch_release(s->batch);
    free(s->wbuf);
    free(s->w);
    free(s->nodes);
    free(s->stack);
    free(s);
}

static int shards_prepare(void *cfg_, const som_problem *p, const som_factors *fac,
                          void **state, som_status *st)
{
    const som_shards_cfg *cfg = cfg_;
    shards_state *s = calloc(1, sizeof *s);
    batch_state *b;
    size_t tot = 0, most = 0;
    int64_t r;
    int q, rc;
    *state = s;
    if (!s) return som_fail(st, SOM_ERR_NOMEM, "could not allocate memory for batch training");
    s->cfg = cfg;
    if ((rc = batch_prepare((void *)&cfg->cpu, p, fac, &s->batch, st))) return rc;
    b = s->batch;
    s->nblocks = b->cut.nblocks;
    /* the ranges: contiguous from block 0 to the pass's last, as R cut them */
    for (r = 0; r < cfg->nranges; r++) {
        if (cfg->ranges[2 * r] != (r ? cfg->ranges[2 * r - 1] : 0) ||
            cfg->ranges[2 * r + 1] < cfg->ranges[2 * r])
            break;
        s->nnodes += som_pair_nodes((som_count)cfg->ranges[2 * r], (som_count)cfg->ranges[2 * r + 1]);
    }
    if (r < cfg->nranges || cfg->nranges < 1 || cfg->ranges[2 * cfg->nranges - 1] != s->nblocks)
        return som_fail(st, SOM_ERR_INVALID, "the workers' ranges do not cover the blocks of a pass");
    for (q = 0; q < p->nmaps; q++) {
        tot += (size_t)p->size[q] * p->data.m;
        if (b->maps[q].slot_len > most) most = b->maps[q].slot_len;
    }
    s->wbuf = som_alloc((double)tot, sizeof *s->wbuf);
    s->w = malloc((size_t)p->nmaps * sizeof *s->w);
    s->nodes = som_alloc((double)s->nnodes * b->slot_len, sizeof *s->nodes);
    s->stack = som_alloc((double)som_pair_levels((som_count)s->nblocks) * most, sizeof *s->stack);
    if (!s->wbuf || !s->w || !s->nodes || !s->stack)
        return som_fail(st, SOM_ERR_NOMEM, "could not allocate memory for batch training");
    for (tot = 0, q = 0; q < p->nmaps; q++) {
        s->w[q] = s->wbuf + tot;
        tot += (size_t)p->size[q] * p->data.m;
    }
    return SOM_OK;
}

/* A whole pass: the workers' nodes for the maps as they are, pushed in block order into
 * every map's totals (the pass's end is batch_end_pass's). */
static int shards_advance(void *state, som_slice *slice, int64_t *reached, som_status *st)
{
    shards_state *s = state;
    const som_shards_cfg *cfg = s->cfg;
    batch_state *b = s->batch;
    const som_problem *p = b->p;
    const int64_t n = p->data.n;
    const int t = (int)(slice->from / n) + 1;
    int q, r, rc;
    if (slice->from % n != 0 || slice->limit < (int64_t)t * n)
        return som_fail(st, SOM_ERR_BACKEND, "data-parallel batch runs whole passes");
    if ((rc = batch_read(b, s->w, st))) return rc;
    if ((rc = cfg->gather(cfg->ud, p, s->w, t, s->nodes, s->nnodes * b->slot_len, st)))
        return rc;
    for (q = 0; q < p->nmaps; q++) {
        batch_map *mp = b->maps + q;
        int64_t node = 0;
        size_t e;
        for (r = 0; r < cfg->nranges; r++) {
            int64_t k = cfg->ranges[2 * r];
            while (k < cfg->ranges[2 * r + 1]) {
                const int L = som_pair_node((som_count)k, (som_count)cfg->ranges[2 * r + 1]);
                const double *sum = s->nodes + (size_t)node++ * b->slot_len + mp->slot_off;
                for (e = 0; e < mp->slot_len; e++)
                    pair_push(s->stack, mp->slot_len, e, (som_count)(k >> L), L, (som_real)sum[e]);
                k += (int64_t)1 << L;
            }
        }
        for (e = 0; e < mp->slot_len; e++)
            mp->total[e] = pair_total(s->stack, mp->slot_len, e, (som_count)s->nblocks);
    }
    *reached = (int64_t)t * n;
    return SOM_OK;
}

static int shards_end_pass(void *state, const som_factors *f, int t, som_status *st)
{
    return batch_end_pass(((shards_state *)state)->batch, f, t, st);
}

static int shards_read(void *state, double *const *w, som_status *st)
{
    return batch_read(((shards_state *)state)->batch, w, st);
}

static void shards_plan(void *cfg_, const som_family *f, som_plan *plan)
{
    batch_plan((void *)&((const som_shards_cfg *)cfg_)->cpu, f, plan);
}

const som_engine PREC_SYMBOL(som_cpu_shards) = {
    .name = PREC_NAME("cpu data-parallel batch"),
    .prepare = shards_prepare,
    .advance = shards_advance,
    .end_pass = shards_end_pass,
    .read = shards_read,
    .release = shards_release,
    .plan = shards_plan,
};
