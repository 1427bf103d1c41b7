/* som_online.cl: online training of many ring SOMs at once. Compiled after som_rng.h and
 * som_math.h with -DSOM_REAL=double -DSOM_DOUBLE or -DSOM_REAL=float -DSOM_NO_DOUBLE;
 * tools/embed-kernels.sh puts the cl_khr_fp64 switch (under SOM_DOUBLE) in front of all.
 *
 * Every map follows the same global step sequence s = (t - 1) * n + i (pass t, position i
 * of that pass's visiting order), so a launch covers steps [start, start + count) of every
 * map; the only state kept between launches is the weights and the visiting orders (each
 * map's current one, and for the work-group kernel the next one half drawn, with its
 * generator's state). The arithmetic is the
 * CPU backend's, in the same order and without contraction into fused multiply-adds, and
 * the neighbourhood factors and initial weights come from the host: in double precision the
 * results are the CPU's bits. */

#pragma OPENCL FP_CONTRACT OFF

typedef SOM_REAL real;

/* The squared distance of x to a neuron, and the nearest neuron of x among the N neurons of
 * w (row-major, N x m) by the winner rule (som_math.h), for weights in global and in local
 * memory. */
SOM_SQDIST(som_sqdist, real, __global, __global)
SOM_SQDIST(som_sqdist_local, real, __global, __local)
SOM_NEAREST(som_nearest, som_sqdist, real, __global, __global)
SOM_NEAREST(som_nearest_local, som_sqdist_local, real, __global, __local)
/* The same on the general path: column weights colw, missing values (NaN) left out. */
SOM_SQDIST_GENERAL(som_sqdist_general, real, __global, __global)
SOM_SQDIST_GENERAL(som_sqdist_general_local, real, __global, __local)
SOM_NEAREST_GENERAL(som_nearest_general, som_sqdist_general, real, __global, __global)
SOM_NEAREST_GENERAL(som_nearest_general_local, som_sqdist_general_local, real, __global,
                    __local)

/* The arguments both training kernels start with: the data, the maps this launch trains
 * (maps), every map's size, restart, weight offset, weights and order buffer, the
 * neighbourhood factors of passes t_first, t_first + 1, ... (per pass nsched rows of
 * tab_width factors, indexed by ring distance; map q's is row sched[q]), every map's seed
 * and first row (its view's: the views' rows lie one after the other in y; visiting orders
 * number a view's n rows), the steps [start, start + count), and for the general path
 * (general != 0) the column weights. */
#define SOM_STEP_ARGS                                                                      \
    __global const real *y, uint n, int m, __global const int *maps,                       \
    __global const int *size, __global const int *restart, __global const ulong *woff,     \
    __global real *W, __global uint *orders, __global const real *tab,                     \
    __global const int *sched, int tab_width, int nsched, int t_first,                     \
    __global const uint *seeds, __global const ulong *row0,                                \
    ulong start, ulong count, int general,                                                 \
    __global const real *colw

/* One work-item per map: maps[get_global_id(0)], for the first nmaps work-items. */
__kernel void k_online_item(SOM_STEP_ARGS, int nmaps)
{
    int q = get_global_id(0);
    if (q >= nmaps) return;
    int map = maps[q], N = size[map], t = 1 + (int)(start / n);
    uint i = (uint)(start % n);
    __global real *w = W + woff[map];
    __global uint *ord = orders + (ulong)map * n;
    __global const real *yv = y + row0[map] * m;
    const uint seed = seeds[map];
    const ulong pass_len = (ulong)nsched * tab_width;
    __global const real *h = tab + (ulong)(t - t_first) * pass_len + (ulong)sched[map] * tab_width;
    ulong s;
    for (s = 0; s < count; s++) {
        __global const real *x;
        int c, j, k;
        if (i == 0) som_order(ord, n, seed, SOM_STREAM_ORDER, (uint)N, (uint)restart[map], (uint)t);
        real bd;
        x = yv + (ulong)ord[i] * m;
        if (general) { /* missing values move nothing */
            c = som_nearest_general(x, w, colw, N, m, &bd);
            for (j = 0; j < N; j++) {
                real hj = h[som_ring_dist(c, j, N)];
                __global real *wj = w + (ulong)j * m;
                for (k = 0; k < m; k++)
                    if (!isnan(x[k])) wj[k] += hj * (x[k] - wj[k]);
            }
        } else {
            c = som_nearest(x, w, N, m, &bd);
            for (j = 0; j < N; j++) {
                real hj = h[som_ring_dist(c, j, N)];
                __global real *wj = w + (ulong)j * m;
                for (k = 0; k < m; k++) wj[k] += hj * (x[k] - wj[k]);
            }
        }
        if (++i == n) {
            i = 0;
            t++;
            h += pass_len;
        }
    }
}

/* One work-group per map, work-item l owning neurons l, l + L, l + 2L, ...: each step finds
 * the winner by a work-group reduction over (distance, index), ties to the lowest index,
 * then every work-item updates its own neurons. The visiting orders are double-buffered:
 * pass t's in orders (t even) or ahead (t odd; a row per work-group), and while pass t
 * trains, work-item L - 1 (the fewest neurons) draws pass t + 1's into the other buffer, a
 * Fisher-Yates step per training step (som_order_swap) after the work-group has written the
 * identity in parallel; its generator's state waits in gstate between launches. Only the
 * first pass's order is drawn while the work-group waits. The orders are som_order's.
 * SOM_W_PREPARE / SOM_W_FINISH say where the weights live while the launch runs: local
 * memory (copied in and out) or global memory; SOM_W_SQDIST is the distance for them. */
#define SOM_GROUP_BODY                                                                     \
    int map = maps[get_group_id(0)], N = size[map];                                        \
    int lid = get_local_id(0), L = get_local_size(0), t = 1 + (int)(start / n);           \
    const int drawer = lid == L - 1;                                                       \
    uint i = (uint)(start % n);                                                            \
    __global real *wg = W + woff[map];                                                     \
    __global uint *ord_even = orders + (ulong)map * n;                                     \
    __global uint *ord_odd = ahead + (ulong)get_group_id(0) * n;                           \
    __global uint *ord = (t & 1) ? ord_odd : ord_even;                                     \
    __global uint *next = (t & 1) ? ord_even : ord_odd;                                    \
    __global uint *gs = gstate + (ulong)get_group_id(0) * 4;                               \
    __global const real *yv = y + row0[map] * m;                                           \
    const uint seed = seeds[map];                                                          \
    som_xoshiro gx;                                                                        \
    const ulong pass_len = (ulong)nsched * tab_width;                                      \
    __global const real *h =                                                               \
        tab + (ulong)(t - t_first) * pass_len + (ulong)sched[map] * tab_width;             \
    ulong s, e, ne = (ulong)N * m;                                                         \
    SOM_W_PREPARE                                                                          \
    if (drawer && i != 0) /* a pass begun in the launch before */                         \
        for (e = 0; e < 4; e++) gx.s[e] = gs[e];                                           \
    barrier(CLK_LOCAL_MEM_FENCE);                                                          \
    for (s = 0; s < count; s++) {                                                          \
        __global const real *x;                                                            \
        real bd = INFINITY;                                                                \
        int bi = N, j, k, c;                                                               \
        if (i == 0) {                                                                      \
            if (t == 1 && lid == 0) /* nobody drew the first pass's */                     \
                som_order(ord, n, seed, SOM_STREAM_ORDER, (uint)N, (uint)restart[map], 1u); \
            for (e = lid; e < n; e += L) next[e] = (uint)e;                                \
            if (drawer)                                                                    \
                som_order_seed(&gx, seed, SOM_STREAM_ORDER, (uint)N, (uint)restart[map],   \
                               (uint)t + 1u);                                              \
            barrier(CLK_GLOBAL_MEM_FENCE);                                                 \
        }                                                                                  \
        /* the next pass's draw first, so that its loads may be in flight while the    */ \
        /* drawer's own neurons are searched                                           */ \
        if (drawer && i + 1 < n) som_order_swap(next, n - 1 - i, &gx);                     \
        x = yv + (ulong)ord[i] * m;                                                        \
        for (j = lid; j < N; j += L) {                                                     \
            const real d2 = general ? SOM_W_SQDIST_GENERAL(x, w + (ulong)j * m, colw, m)   \
                                    : SOM_W_SQDIST(x, w + (ulong)j * m, m);                \
            if (SOM_CLOSER(d2, bd)) {                                                      \
                bd = d2;                                                                   \
                bi = j;                                                                    \
            }                                                                              \
        }                                                                                  \
        best_d[lid] = bd;                                                                  \
        best_i[lid] = bi;                                                                  \
        barrier(CLK_LOCAL_MEM_FENCE);                                                      \
        for (j = L / 2; j > 0; j >>= 1) {                                                  \
            if (lid < j) {                                                                 \
                real od = best_d[lid + j];                                                 \
                int oi = best_i[lid + j];                                                  \
                if (SOM_WINS(od, oi, best_d[lid], best_i[lid])) {                          \
                    best_d[lid] = od;                                                      \
                    best_i[lid] = oi;                                                      \
                }                                                                          \
            }                                                                              \
            barrier(CLK_LOCAL_MEM_FENCE);                                                  \
        }                                                                                  \
        c = best_i[0] < N ? best_i[0] : 0;                                                 \
        for (j = lid; j < N; j += L) {                                                     \
            real hj = h[som_ring_dist(c, j, N)];                                       \
            for (k = 0; k < m; k++) {                                                      \
                ulong o = (ulong)j * m + k;                                                \
                if (!general || !isnan(x[k])) w[o] += hj * (x[k] - w[o]);                  \
            }                                                                              \
        }                                                                                  \
        /* everyone has read best_i[0] and the order before they change */                 \
        barrier(CLK_LOCAL_MEM_FENCE | CLK_GLOBAL_MEM_FENCE);                               \
        if (++i == n) {                                                                    \
            __global uint *done = ord;                                                     \
            ord = next;                                                                    \
            next = done;                                                                   \
            i = 0;                                                                         \
            t++;                                                                           \
            h += pass_len;                                                                 \
        }                                                                                  \
    }                                                                                      \
    if (drawer)                                                                            \
        for (e = 0; e < 4; e++) gs[e] = gx.s[e];                                           \
    SOM_W_FINISH

#define SOM_WG_ARGS                                                                     \
    SOM_STEP_ARGS, __global uint *ahead, __global uint *gstate, __local real *best_d,      \
        __local int *best_i

/* Weights in local memory: copied in at the start of the launch, out at the end. */
__kernel void k_online_wg_local(SOM_WG_ARGS, __local real *w)
{
#define SOM_W_SQDIST som_sqdist_local
#define SOM_W_SQDIST_GENERAL som_sqdist_general_local
#define SOM_W_PREPARE for (e = lid; e < ne; e += L) w[e] = wg[e];
#define SOM_W_FINISH                                                                       \
    barrier(CLK_LOCAL_MEM_FENCE);                                                          \
    for (e = lid; e < ne; e += L) wg[e] = w[e];
    SOM_GROUP_BODY
#undef SOM_W_SQDIST
#undef SOM_W_SQDIST_GENERAL
#undef SOM_W_PREPARE
#undef SOM_W_FINISH
}

/* Weights in global memory, for maps too large for local memory. */
__kernel void k_online_wg_global(SOM_WG_ARGS)
{
#define SOM_W_SQDIST som_sqdist
#define SOM_W_SQDIST_GENERAL som_sqdist_general
#define SOM_W_PREPARE __global real *w = wg; (void)e; (void)ne;
#define SOM_W_FINISH
    SOM_GROUP_BODY
#undef SOM_W_SQDIST
#undef SOM_W_SQDIST_GENERAL
#undef SOM_W_PREPARE
#undef SOM_W_FINISH
}
