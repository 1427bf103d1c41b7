/* som_cpu_batch_cut_t.h: how the batch engine cuts a pass (blocks, rounds, spans of maps,
 * segments of rows) and what it allocates (its memory plan); part of som_cpu_batch_t.h,
 * included there after the engine's types. */

static void batch_cut_of(const som_family *f, int threads, double round_units, batch_cut *c)
{
    const double block_cost = ((f->m + 1) * f->size_sum + SOM_POINT_UNITS * f->nmaps);
    c->B = f->batch_block < f->n ? f->batch_block : f->n;
    c->nblocks = (f->n + c->B - 1) / c->B;
    c->per_round = (int64_t)(round_units * threads / (block_cost * (double)c->B));
    if (c->per_round < 1) c->per_round = 1;
    if (c->per_round > c->nblocks) c->per_round = c->nblocks;
    c->per_round = som_window_blocks(f->sourced, f->m, c->per_round, c->B);
    c->nspans = som_map_spans(c->per_round, threads, f->nmaps);
    c->nseg = (int)((2 * (int64_t)threads + c->per_round * c->nspans - 1) /
                    (c->per_round * c->nspans));
    c->seg_rows = (size_t)((c->B + c->nseg - 1) / c->nseg + PREC_BT - 1) / PREC_BT * PREC_BT;
    if (c->seg_rows < 64) c->seg_rows = 64;
    c->nseg = (int)((c->B + (int64_t)c->seg_rows - 1) / (int64_t)c->seg_rows);
    c->whole = c->nspans == 1 && c->nseg == 1;
    c->bpad = (size_t)((c->B + PREC_BT - 1) / PREC_BT * PREC_BT);
    c->levels = som_pair_levels((som_count)c->nblocks);
}

/* Element counts of the buffers, from the family's shape (bounds for per-map padding). */
typedef struct {
    double store, slots, xr, num, wins, win, runs, init, window;
} batch_sizes;

static void batch_size(const som_family *f, const batch_cut *c, int threads, batch_sizes *z)
{
    const double maps = f->nmaps, slot = f->size_sum * som_slot_width(f->m, f->general);
    const double rounds = (double)c->per_round;
    /* per map: tiled weights, the pass's totals, the pairwise partial sums */
    z->store = (f->size_sum + (SOM_TJB - 1) * maps) * f->m + (1.0 + c->levels) * slot;
    z->slots = rounds * slot;
    z->xr = rounds * (double)c->bpad * f->m;
    z->num = (double)threads * 2 * f->m;
    z->wins = rounds * maps * (double)c->B;
    z->win = rounds * maps;
    z->runs = 2 * (floor(f->size_sum / SOM_SMOOTH_RUN) + maps);
    z->init = (double)f->size_max * f->m;
    z->window = f->sourced ? rounds * (double)c->B * f->m : 0;
}

static double cpu_round(const som_cpu_cfg *cfg)
{
    return cfg->round_units > 0 ? cfg->round_units : SOM_ROUND_UNITS;
}

static void batch_plan(void *cfg_, const som_family *f, som_plan *plan)
{
    const som_cpu_cfg *cfg = cfg_;
    const int threads = som_threads(cfg->threads);
    batch_cut c;
    batch_sizes z;
    batch_cut_of(f, threads, cpu_round(cfg), &c);
    batch_size(f, &c, threads, &z);
    som_plan_add(plan, "cpu batch: weights and sums", z.store * sizeof(som_real), SOM_HOST);
    som_plan_add(plan, "cpu batch: a round's block sums", z.slots * sizeof(som_real), SOM_HOST);
    som_plan_add(plan, "cpu batch: a round's blocks, row-major", (z.xr + z.num) * sizeof(som_real),
                 SOM_HOST);
    som_plan_add(plan, "cpu batch: a round's winners",
                 z.wins * sizeof(int) + z.win * sizeof(int *), SOM_HOST);
    som_plan_add(plan, "cpu batch: smoothing tasks, a round's pairwise plan",
                 z.runs * sizeof(int) + (double)c.per_round * (sizeof(int64_t) + sizeof(int)),
                 SOM_HOST);
    som_plan_add(plan, "cpu batch: a round's rows, read from the source",
                 z.window * sizeof(double), SOM_HOST);
    som_plan_add(plan, "cpu batch: initial weights",
                 (z.init + f->m) * sizeof(double) + (double)f->n * sizeof(uint32_t), SOM_HOST);
}
