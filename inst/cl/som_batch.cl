/* som_batch.cl: the batch SOM on a device, after som_online.cl (same types and helpers).
 * Each pass: k_batch_assign finds every point's winner in each map; k_batch_sums adds each
 * block's points per winner, in point order, into the block's slot; k_batch_reduce adds
 * the slots in block order; k_batch_smooth sets every neuron from the sums. The blocks and
 * orders are the CPU backend's (som_batch.c), so double precision gives its bits. Data may
 * come in several chunks (whole blocks each); block and point numbers are global. */

/* Work-item i: the winner of row first + i of the chunk in each map of the launch, written
 * to win[q * chunk_rows + first + i] (q = index in maps). Weights are row-major size x m per
 * map at woff. */
__kernel void k_batch_assign(__global const real *x, uint first, uint rows, int m,
                             __global const int *maps, int nmaps, __global const int *size,
                             __global const ulong *woff, __global const real *W,
                             __global int *win, uint chunk_rows, int general,
                             __global const real *colw)
{
    uint i = get_global_id(0);
    int q;
    if (i >= rows) return;
    i += first;
    for (q = 0; q < nmaps; q++) {
        int map = maps[q];
        real bd;
        win[(ulong)q * chunk_rows + i] =
            general ? som_nearest_general(x + (ulong)i * m, W + woff[map], colw, size[map], m,
                                          &bd)
                    : som_nearest(x + (ulong)i * m, W + woff[map], size[map], m, &bd);
    }
}

/* The same with every map's weights (wtot reals) first copied into local memory by the
 * work-group: the winner search then reads fast memory. */
__kernel void k_batch_assign_local(__global const real *x, uint first, uint rows, int m,
                                   __global const int *maps, int nmaps,
                                   __global const int *size, __global const ulong *woff,
                                   __global const real *W, __global int *win, uint chunk_rows,
                                   int general, __global const real *colw,
                                   __local real *wl, ulong wtot)
{
    uint i = get_global_id(0);
    ulong e;
    int q;
    for (e = get_local_id(0); e < wtot; e += get_local_size(0)) wl[e] = W[e];
    barrier(CLK_LOCAL_MEM_FENCE);
    if (i >= rows) return;
    i += first;
    for (q = 0; q < nmaps; q++) {
        int map = maps[q];
        real bd;
        win[(ulong)q * chunk_rows + i] =
            general ? som_nearest_general_local(x + (ulong)i * m, wl + woff[map], colw,
                                                size[map], m, &bd)
                    : som_nearest_local(x + (ulong)i * m, wl + woff[map], size[map], m, &bd);
    }
}

/* Work-item (b, q, k): block b of the chunk, map q, column k: the block's sums of column k
 * per winner, in row order, into the block's slot at partial + b * slot_len + slot_off[q]
 * (S[c * m + k], then the counts n[c], made by the column-0 items, or on the general path a
 * count per column, n[c * m + k], over the rows where the column is observed). Each sum
 * keeps its row order, so a column per work-item gives the bits of a row at a time. */
__kernel void k_batch_sums(__global const real *x, uint rows, int m, uint block,
                           __global const int *maps, int nmaps, __global const int *size,
                           __global const int *win, uint chunk_rows,
                           __global real *partial, ulong slot_len,
                           __global const ulong *slot_off, uint nblocks, int general)
{
    uint b = get_global_id(0), i, lo, hi;
    int q = get_global_id(1), k = get_global_id(2), c, N;
    __global real *S;
    __global real *cnt;
    __global const int *wq;
    if (b >= nblocks || q >= nmaps || k >= m) return;
    N = size[maps[q]];
    S = partial + (ulong)b * slot_len + slot_off[q];
    cnt = S + (ulong)N * m;
    wq = win + (ulong)q * chunk_rows;
    lo = b * block;
    hi = lo + block < rows ? lo + block : rows;
    if (general) {
        for (c = 0; c < N; c++) S[(ulong)c * m + k] = cnt[(ulong)c * m + k] = 0;
        for (i = lo; i < hi; i++) {
            const real v = x[(ulong)i * m + k];
            if (!isnan(v)) {
                S[(ulong)wq[i] * m + k] += v;
                cnt[(ulong)wq[i] * m + k] += 1;
            }
        }
        return;
    }
    for (c = 0; c < N; c++) S[(ulong)c * m + k] = 0;
    if (k == 0)
        for (c = 0; c < N; c++) cnt[c] = 0;
    for (i = lo; i < hi; i++) {
        S[(ulong)wq[i] * m + k] += x[(ulong)i * m + k];
        if (k == 0) cnt[wq[i]] += 1;
    }
}

SOM_PAIR_PUSH(som_pair_push, real, __global)
SOM_PAIR_TOTAL(som_pair_total, real, __global)

/* Work-item e: element e of the chunk's slots (its first block: block b0 of the pass's
 * pass_blocks) pushed in block order on the pairwise partial sums (stack, a level every
 * slot_len reals), and the pass's total made after its last block (som_math.h). */
__kernel void k_batch_reduce(__global const real *partial, ulong slot_len, uint nblocks,
                             __global real *total, __global real *stack, uint b0,
                             uint pass_blocks)
{
    ulong e = get_global_id(0);
    uint b;
    if (e >= slot_len) return;
    for (b = 0; b < nblocks; b++)
        som_pair_push(stack, slot_len, e, (som_count)(b0 + b), 0,
                      partial[(ulong)b * slot_len + e]);
    if (b0 + nblocks == pass_blocks)
        total[e] = som_pair_total(stack, slot_len, e, (som_count)pass_blocks);
}

/* Work-item (q, j, k): column k of neuron j of map q from the totals: W_jk = sum_c h(d(c, j))
 * S_ck / sum_c h(d(c, j)) n_c, summed over c in order (every column's item sums the same
 * denominator in the same order: the same bits); unchanged when the denominator is 0; on
 * the general path with the column's own counts. tab holds the pass's factors by ring
 * distance, a row of tab_width per schedule: map q's is row sched[q]. */
__kernel void k_batch_smooth(__global const int *maps, int nmaps, __global const int *size,
                             __global const ulong *woff, __global real *W, int m,
                             __global const real *total, __global const ulong *slot_off,
                             __global const real *tab, __global const int *sched,
                             int tab_width, int general)
{
    int q = get_global_id(0), j = get_global_id(1), k = get_global_id(2), c;
    int N;
    __global const real *S;
    __global const real *cnt;
    __global const real *h;
    real num = 0, den = 0;
    if (q >= nmaps || k >= m) return;
    N = size[maps[q]];
    if (j >= N) return;
    h = tab + (ulong)sched[maps[q]] * tab_width;
    S = total + slot_off[q];
    cnt = S + (ulong)N * m;
    for (c = 0; c < N; c++) {
        const real hc = h[som_ring_dist(c, j, N)];
        den += hc * (general ? cnt[(ulong)c * m + k] : cnt[c]);
    }
    if (!(den > 0)) return;
    for (c = 0; c < N; c++) num += h[som_ring_dist(c, j, N)] * S[(ulong)c * m + k];
    W[woff[maps[q]] + (ulong)j * m + k] = num / den;
}

/* Work-group (b, q) of L work-items: for a trace, the sum of the distances to their nearest
 * neuron of map q, in row order, of the rows of the b-th block (SOM_ASSESS_BLOCK rows) of
 * the data that this chunk touches (x holds rows first_row .. first_row + rows - 1), into
 * partial[block * nmaps + q]. The work-items find the nearest neurons of L rows side by side
 * (dist, local), then work-item 0 adds their distances in row order. A block begun in the
 * previous chunk goes on from that chunk's sum (chunks run in order), so these are the
 * blocks of som_assess whatever the chunks: added in block order and divided by n, they
 * give its qe. */
__kernel void k_trace_qe(__global const real *x, uint rows, int m, __global const int *maps,
                         int nmaps, __global const int *size, __global const ulong *woff,
                         __global const real *W, __global real *partial, uint first_row,
                         uint nblocks, int general, __global const real *colw,
                         __local real *dist)
{
    uint b = get_group_id(0), lo, hi, blk, base, L = get_local_size(0), lid = get_local_id(0);
    int q = get_global_id(1), map;
    real s = 0;
    if (b >= nblocks || q >= nmaps) return; /* whole work-groups */
    map = maps[q];
    blk = first_row / SOM_ASSESS_BLOCK + b; /* the block in the whole data */
    lo = blk * SOM_ASSESS_BLOCK > first_row ? blk * SOM_ASSESS_BLOCK - first_row : 0;
    hi = blk * SOM_ASSESS_BLOCK + SOM_ASSESS_BLOCK - first_row < rows
             ? blk * SOM_ASSESS_BLOCK + SOM_ASSESS_BLOCK - first_row : rows;
    if (lid == 0 && blk * SOM_ASSESS_BLOCK < first_row) s = partial[(ulong)blk * nmaps + q];
    for (base = lo; base < hi; base += L) {
        const uint i = base + lid;
        real d = 0;
        if (i < hi) {
            __global const real *xi = x + (ulong)i * m;
            real bd;
            if (general) { /* rescaled to all m columns, as som_assess */
                int k, seen = 0;
                real scale;
                som_nearest_general(xi, W + woff[map], colw, size[map], m, &bd);
                for (k = 0; k < m; k++) seen += !isnan(xi[k]);
                scale = seen ? (real)m / seen : 0;
                d = sqrt(scale * bd);
            } else {
                som_nearest(xi, W + woff[map], size[map], m, &bd);
                d = sqrt(bd);
            }
        }
        dist[lid] = d;
        barrier(CLK_LOCAL_MEM_FENCE);
        if (lid == 0) {
            const uint e = hi - base < L ? hi - base : L;
            uint r;
            for (r = 0; r < e; r++) s += dist[r];
        }
        barrier(CLK_LOCAL_MEM_FENCE); /* dist is read before the next rows overwrite it */
    }
    if (lid == 0) partial[(ulong)blk * nmaps + q] = s;
}
