/* som_cpu_shards_t.h: data-parallel batch on the CPU (future workers, R/shards.R), with the
 * batch engine's own functions: included after som_cpu_batch_t.h by som_cpu_batch.c and
 * som_cpu_batch_f.c. A worker sums its shards of the rows; the main process adds every
 * shard in order and ends the pass, as the engine does in one process. */

/* For future workers (data-parallel batch): the sums of shards sh0 .. sh1 - 1 of the data
 * with the maps of p at their initial weights (init "given": the pass's weights), every
 * shard's into out (shard-major; per shard every map's sums in map order: per neuron m
 * sums, then the counts: som_slot_width), as a pass on the whole data adds them. */
int R_EXPORT(som_cpu_batch_shards)(som_cpu_cfg *cfg, const som_problem *p, int64_t sh0,
                                    int64_t sh1, double *out, som_status *st)
{
    void *state = NULL;
    int rc = batch_prepare(cfg, p, NULL, &state, st);
    if (rc == SOM_OK) {
        batch_state *s = state;
        const int64_t rows = s->cut.B * SOM_BATCH_SHARD;
        const int64_t end = sh1 * rows < p->data.n ? sh1 * rows : p->data.n;
        som_slice sl;
        int64_t reached;
        s->shard_out = out;
        s->shard_first = sh0;
        sl.from = sh0 * rows;
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
 * w, column-major, updated in place) from the sums of nshards shards (as
 * som_cpu_batch_shards makes them), added in shard order as a pass adds them. */
int R_EXPORT(som_cpu_batch_apply)(som_cpu_cfg *cfg, const som_problem *p, double *const *w,
                                   const double *shards, int64_t nshards, int t,
                                   som_status *st)
{
    void *state = NULL;
    som_factors fac;
    int rc = som_factors_open(&fac, p, st), q;
    if (rc == SOM_OK) rc = batch_prepare(cfg, p, &fac, &state, st);
    if (rc == SOM_OK) {
        batch_state *s = state;
        int64_t sh;
        for (q = 0; q < p->nmaps; q++) {
            batch_map *mp = s->maps + q;
            size_t e;
            memset(mp->total, 0, mp->slot_len * sizeof(som_real));
            for (sh = 0; sh < nshards; sh++) {
                const double *sum = shards + (size_t)sh * s->slot_len + mp->slot_off;
                for (e = 0; e < mp->slot_len; e++) mp->total[e] += (som_real)sum[e];
            }
        }
        som_factors_group(&fac, p); /* the pass's factors, as the driver makes them */
        fac.t_first = t;
        som_factor_pass(&fac, t);
        rc = batch_end_pass(state, &fac, t, st);
        if (rc == SOM_OK) rc = batch_read(state, w, st);
    }
    som_factors_close(&fac);
    batch_release(state);
    return rc;
}
