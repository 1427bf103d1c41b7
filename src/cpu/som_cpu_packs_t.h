/* som_cpu_packs_t.h: how som_cpu_online_t.h lays out its work before a family trains: the
 * data row-major, the maps cut into packs of similar size (som_cpu_lanes_t.h) and the work
 * units ordered largest first. Part of som_cpu_online_t.h, after online_state. */

/* The data, row-major in som_real (malloc'ed). */
static som_real *rows_of(const som_data *d)
{
    som_real *x = som_alloc((double)d->n * d->m, sizeof *x);
    int64_t i;
    int k;
    if (x)
        for (k = 0; k < d->m; k++)
            for (i = 0; i < d->n; i++) x[(size_t)i * d->m + k] = (som_real)d->x[(size_t)k * d->n + i];
    return x;
}

static int by_size_desc(const void *a, const void *b)
{
    const online_map *x = a, *y = b;
    if (x->size != y->size) return x->size < y->size ? 1 : -1;
    return x->map - y->map;
}

/* The largest ring that goes in a pack (som_lanes.h), 0 where none does. */
static int lane_max_size(int m)
{
    if (!SOM_HAVE_LANES || m > SOM_LANE_MAX_DIM) return 0;
    return m > SOM_VEC_MAX_DIM ? SOM_LANE_WIDE_SIZE : SOM_LANE_MAX_SIZE;
}

/* Cut the maps (largest first) into packs: consecutive maps that may share a pack
 * (lane_max_size()), SOM_LANES at a time; a pack of one map trains alone. Sets each map's
 * pack and lane, and the packs' shapes. */
static int make_packs(online_state *s)
{
    const int nmaps = s->p->nmaps, max = lane_max_size(s->p->data.m);
    int i = 0, np = 0, l;
    for (i = 0; i < nmaps; i++) s->maps[i].pack = -1;
    for (i = 0; i < nmaps && s->maps[i].size > max; i++) {}
    for (; i + 1 < nmaps; i += SOM_LANES) {
        lane_pack *pk = s->packs + np;
        pk->nl = nmaps - i < SOM_LANES ? nmaps - i : SOM_LANES;
        pk->S = s->maps[i].size;
        for (l = 0; l < pk->nl; l++) {
            online_map *mp = s->maps + i + l;
            mp->pack = np;
            mp->lane = l;
            pk->map[l] = mp->map;
            pk->size[l] = mp->size;
            pk->order[l] = mp->order;
        }
        np++;
    }
    return np;
}

/* Weights and factors of the packs, from one block (the bound in online_size). */
static void place_packs(online_state *s, som_real *buf)
{
    const int m = s->p->data.m;
    int q, l;
    for (q = 0; q < s->npacks; q++) {
        lane_pack *pk = s->packs + q;
        pk->w = buf;
        buf += LANE_WEIGHTS(pk->S, m);
        for (l = 0; l < SOM_LANES; l++) {
            pk->circ[l] = buf;
            memset(buf, 0, 2 * (size_t)pk->S * sizeof *buf);
            buf += 2 * (size_t)pk->S;
        }
        for (l = pk->nl; l < SOM_LANES; l++) lanes_fill(pk, l, m);
    }
}

/* Work units largest first: packs cost their largest ring's, maps alone their own. */
static void order_units(online_state *s)
{
    int a = 0, b = 0, k = 0;
    const int nmaps = s->p->nmaps;
    while (k < s->nunits) {
        while (b < nmaps && s->maps[b].pack >= 0) b++; /* the next map alone */
        if (a < s->npacks && (b >= nmaps || s->packs[a].S >= s->maps[b].size))
            s->units[k++] = -(a++) - 1;
        else
            s->units[k++] = b++;
    }
}
