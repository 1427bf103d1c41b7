/* som_cpu_shards_t.h: data-parallel batch on the CPU (future workers, R/shards.R), with the
 * batch engine's own functions: included after som_cpu_batch_t.h by som_cpu_batch.c and
 * som_cpu_batch_f.c. A second driver of the batch pass, said out loud: each pass, every
 * worker sums its range of blocks as the aligned nodes of the pairwise sums (som_math.h)
 * that the range holds, and the main process pushes every worker's nodes in block order
 * and ends the pass, as the engine does in one process: the totals, and so the maps, do
 * not depend on the workers or where their ranges are cut. */

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

/* The end of pass t for the maps of p at their initial weights (init "given": the weights
 * w, column-major, updated in place) from the workers' nodes (as som_cpu_batch_shards makes
 * them; `nodes` columns in block order) over the ranges of blocks ranges[2 i] ..
 * ranges[2 i + 1] - 1 (nranges of them, in order, from block 0 to the pass's last): pushed
 * in order, as one pass pushes its blocks. */
int PREC_SYMBOL(som_cpu_batch_apply)(som_cpu_cfg *cfg, const som_problem *p, double *const *w,
                                      const double *nodes, const int64_t *ranges, int nranges,
                                      int t, som_status *st)
{
    void *state = NULL;
    som_factors fac;
    som_real *stack = NULL;
    const int64_t nblocks = nranges > 0 ? ranges[2 * nranges - 1] : 0;
    const int levels = som_pair_levels((som_count)nblocks);
    int rc = som_factors_open(&fac, p, st), q, r;
    if (rc == SOM_OK) rc = batch_prepare(cfg, p, &fac, &state, st);
    if (rc == SOM_OK) {
        batch_state *s = state;
        size_t most = 0;
        for (q = 0; q < p->nmaps; q++)
            if (s->maps[q].slot_len > most) most = s->maps[q].slot_len;
        if (!(stack = som_alloc((double)levels * most, sizeof *stack)))
            rc = som_fail(st, SOM_ERR_NOMEM, "could not allocate memory for batch training");
        for (q = 0; rc == SOM_OK && q < p->nmaps; q++) {
            batch_map *mp = s->maps + q;
            int64_t node = 0;
            size_t e;
            for (r = 0; r < nranges; r++) {
                int64_t b = ranges[2 * r];
                while (b < ranges[2 * r + 1]) {
                    const int L = som_pair_node((som_count)b, (som_count)ranges[2 * r + 1]);
                    const double *sum = nodes + (size_t)node++ * s->slot_len + mp->slot_off;
                    for (e = 0; e < mp->slot_len; e++)
                        pair_push(stack, mp->slot_len, e, (som_count)(b >> L), L, (som_real)sum[e]);
                    b += (int64_t)1 << L;
                }
            }
            for (e = 0; e < mp->slot_len; e++)
                mp->total[e] = pair_total(stack, mp->slot_len, e, (som_count)nblocks);
        }
        if (rc == SOM_OK) {
            som_factors_group(&fac, p);
            rc = som_pass_end(&PREC_SYMBOL(som_cpu_batch), state, &fac, t, st); /* as the driver */
        }
        if (rc == SOM_OK) rc = batch_read(state, w, st);
    }
    free(stack);
    som_factors_close(&fac);
    batch_release(state);
    return rc;
}
