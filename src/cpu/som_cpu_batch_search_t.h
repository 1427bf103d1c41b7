/* som_cpu_batch_search_t.h: the batch engine's arithmetic per block: every point's
 * winner (tiles of PREC_BT points, in vector lanes where there are some) and a block's sums
 * of the points each neuron won, in row order; part of som_cpu_batch_t.h, included there
 * after the engine's types. */

/* The winners of PREC_PB points (rows of x, m apart) among the neurons of w (tiled, leading
 * dimension ld), by the winner rule; cw: the general path's column weights, or NULL (a
 * constant NULL where inlined takes the plain path's code). */
SOM_INLINE void winners(const som_real *x, const som_real *w, int size, int ld, const int m,
                        const som_real *cw, int *c)
{
    som_real bd[PREC_PB];
    int p, j;
    for (p = 0; p < PREC_PB; p++) {
        bd[p] = (som_real)HUGE_VAL;
        c[p] = 0;
    }
    for (j = 0; j < size; j += SOM_TJB) {
        som_real acc[PREC_PB][SOM_TJB];
        const int nb = size - j < SOM_TJB ? size - j : SOM_TJB;
        if (cw) PREC_TILE_D2_GENERAL(x, w, ld, j, m, cw, acc);
        else PREC_TILE_D2(x, w, ld, j, m, acc);
        SOM_UNROLL
        for (p = 0; p < PREC_PB; p++) SOM_PICK(acc[p], nb, j, c[p], bd[p]);
    }
}

#if SOM_HAVE_VEC
/* LANES_SEARCH(SFX, VT, MT, SELECT, W) defines, for W points side by side in the lanes of
 * a vector of type VT (masks MT):
 * lanes_block##SFX(xv, w, ld, j, m, nb, bd, bc): neurons j .. j + nb - 1 (nb a constant
 *   where inlined) for the points of xv (xv[k]: their k-th values), each distance summed
 *   over k in order, then the winner rule in each lane over these neurons in order,
 *   continuing from bd, bc;
 * winners_lanes##SFX(xv, w, size, ld, m, c): their winners among the neurons of w, in
 *   blocks of SOM_TJB, 4 and 1 neurons (no padded neuron computed): the bits and winners
 *   of winners(), with vector compares in place of a scalar chain per point.
 * Defined for one register (PREC_VW points) and for a 64-byte vector (PREC_BT points: one
 * AVX-512 register; AVX2 has no 64-byte registers, and its compiler splits their masks
 * and selects poorly, so it takes the tile a register at a time). */
#define LANES_SEARCH(SFX, VT, MT, SELECT, W)                                               \
    SOM_INLINE void lanes_block##SFX(const VT *xv, const som_real *w, int ld, int j,       \
                                     const int m, const int nb, VT *bd, VT *bc)            \
    {                                                                                      \
        VT acc[SOM_TJB], jv = (VT){0} + (som_real)j;                                       \
        int jj, k;                                                                         \
        SOM_UNROLL_ALL                                                                     \
        for (jj = 0; jj < nb; jj++) acc[jj] = SOM_D2_TERM(xv[0], w[j + jj]);               \
        for (k = 1; k < m; k++) {                                                          \
            const som_real *wk = w + (size_t)k * ld + j;                                   \
            SOM_UNROLL_ALL                                                                 \
            for (jj = 0; jj < nb; jj++) acc[jj] += SOM_D2_TERM(xv[k], wk[jj]);             \
        }                                                                                  \
        SOM_UNROLL_ALL                                                                     \
        for (jj = 0; jj < nb; jj++, jv += 1) {                                             \
            const MT lt = SOM_CLOSER(acc[jj], *bd);                                        \
            *bd = SELECT(lt, acc[jj], *bd);                                                \
            *bc = SELECT(lt, jv, *bc);                                                     \
        }                                                                                  \
    }                                                                                      \
    SOM_INLINE void winners_lanes##SFX(const VT *xv, const som_real *w, int size, int ld,  \
                                       const int m, int *c)                                \
    {                                                                                      \
        VT bd = (VT){0} + (som_real)HUGE_VAL, bc = (VT){0};                                \
        int j = 0, l;                                                                      \
        for (; j + SOM_TJB <= size; j += SOM_TJB)                                          \
            lanes_block##SFX(xv, w, ld, j, m, SOM_TJB, &bd, &bc);                          \
        if (j + 4 <= size) {                                                               \
            lanes_block##SFX(xv, w, ld, j, m, 4, &bd, &bc);                                \
            j += 4;                                                                        \
        }                                                                                  \
        for (; j < size; j++) lanes_block##SFX(xv, w, ld, j, m, 1, &bd, &bc);              \
        for (l = 0; l < (W); l++) c[l] = (int)bc[l];                                       \
    }
LANES_SEARCH(, som_rv, som_rm, PREC_SELECT, PREC_VW)
LANES_SEARCH(_wide, som_bv, som_bm, PREC_BSELECT, PREC_BT)

/* The winners in lanes of the tile's points (xv: PREC_BT vectors of one register, or one
 * 64-byte vector per dimension where wide) against one map, a constant m where common. */
#define LANES_BY_M(FN, xv, mp, m, c)                                                       \
    do {                                                                                   \
        switch (m) {                                                                       \
        case 2: FN(xv, (mp)->w, (mp)->size, (mp)->ld, 2, c); break;                        \
        case 3: FN(xv, (mp)->w, (mp)->size, (mp)->ld, 3, c); break;                        \
        case 4: FN(xv, (mp)->w, (mp)->size, (mp)->ld, 4, c); break;                        \
        case 8: FN(xv, (mp)->w, (mp)->size, (mp)->ld, 8, c); break;                        \
        case 16: FN(xv, (mp)->w, (mp)->size, (mp)->ld, 16, c); break;                      \
        default: FN(xv, (mp)->w, (mp)->size, (mp)->ld, m, c);                              \
        }                                                                                  \
    } while (0)
#endif

#define X_P(l) xi[(size_t)(l) * m + k]                 /* the tile's point l, dimension k */
#define X_SUB(l) xi[(size_t)(sub + (l)) * m + k]       /* point l of the sub-tile at sub  */
#define WIDE_TILE (SOM_HAVE_VEC && PREC_BT != PREC_VW) /* a 64-byte vector is not one register */

/* Rows of a block (row-major in x, padded to whole tiles of PREC_BT) against maps q0 ..
 * q1-1: each row's winner into win[q] (indexed from the block's first row, offset); cw:
 * the general path's column weights, or NULL. A tile of points at a time against every map
 * (their weights stay in the first-level cache); on the plain path with vectors, the
 * tile's points side by side in lanes: one 64-byte vector with AVX-512, registers of
 * PREC_VW points elsewhere; on the general path PREC_PB points at a time (winners).
 * Compiled for each instruction set (SOM_VERSIONS: the same operations at every width,
 * -ffp-contract=off keeping them unfused). */
SOM_INLINE void segment_winners_body(const int isa, const batch_map *maps, int q0, int q1,
                                     int m, const som_real *cw, const som_real *x, int rows,
                                     int offset, int *const *win)
{
    const int padded = (rows + PREC_BT - 1) / PREC_BT * PREC_BT;
    const int lanes = SOM_HAVE_VEC && !cw && m <= SOM_VEC_MAX_DIM;
    const int wide = lanes && WIDE_TILE && isa == SOM_ISA_AVX512;
    int i, q, r, p;
    (void)lanes, (void)wide; /* unused without vectors */
    for (i = 0; i < padded; i += PREC_BT) {
        const som_real *xi = x + (size_t)i * m;
#if SOM_HAVE_VEC
        som_bv xw[SOM_VEC_MAX_DIM];
        som_rv xv[PREC_BT / PREC_VW][SOM_VEC_MAX_DIM];
        if (wide) { /* the tile's points side by side */
            int k;
            for (k = 0; k < m; k++) xw[k] = PREC_BGATHER(X_P);
        } else if (lanes) { /* a register's points at a time */
            int k, sub;
            for (sub = 0; sub < PREC_BT; sub += PREC_VW)
                for (k = 0; k < m; k++) xv[sub / PREC_VW][k] = PREC_GATHER(X_SUB);
        }
#endif
        for (q = q0; q < q1; q++) {
            const batch_map *mp = maps + q;
            int c[PREC_BT];
#if SOM_HAVE_VEC
            if (wide) LANES_BY_M(winners_lanes_wide, xw, mp, m, c);
            else if (lanes)
                for (p = 0; p < PREC_BT; p += PREC_VW)
                    LANES_BY_M(winners_lanes, xv[p / PREC_VW], mp, m, c + p);
            else
#endif
            for (p = 0; p < PREC_BT; p += PREC_PB) {
                const som_real *xp = xi + (size_t)p * m;
                if (cw) winners(xp, mp->w, mp->size, mp->ld, m, cw, c + p); /* not unrolled */
                else switch (m) {
                case 1: winners(xp, mp->w, mp->size, mp->ld, 1, NULL, c + p); break;
                case 8: winners(xp, mp->w, mp->size, mp->ld, 8, NULL, c + p); break;
                default: winners(xp, mp->w, mp->size, mp->ld, m, NULL, c + p);
                }
            }
            for (r = 0; r < PREC_BT && i + r < rows; r++) win[q][offset + i + r] = c[r];
        }
    }
}
SOM_VERSIONS(segment_winners,
             (const batch_map *maps, int q0, int q1, int m, const som_real *cw,
              const som_real *x, int rows, int offset, int *const *win),
             (maps, q0, q1, m, cw, x, rows, offset, win))


/* A block's sums (rows row-major in x), every map at once, each element in row order: into
 * the block's slot, S[c * m + k] then the counts (slot_width) per map. Each row is read
 * once. general: missing values are left out of the sums and their columns' counts. */
SOM_INLINE void block_sums_body(const int isa, const batch_map *maps, int nmaps, int m,
                                int general, const som_real *restrict x, int rows,
                                int *const *win, som_real *restrict slot)
{
    (void)isa; /* the same loops at every width */
    int i, q, k;
    for (q = 0; q < nmaps; q++) memset(slot + maps[q].slot_off, 0, maps[q].slot_len * sizeof *slot);
    if (general) {
        for (i = 0; i < rows; i++) {
            const som_real *xi = x + (size_t)i * m;
            for (q = 0; q < nmaps; q++) {
                const int c = win[q][i];
                som_real *S = slot + maps[q].slot_off, *Sc = S + (size_t)c * m;
                som_real *Nc = S + ((size_t)maps[q].size + c) * m;
                for (k = 0; k < m; k++)
                    if (!isnan(xi[k])) {
                        Sc[k] += xi[k];
                        Nc[k] += 1;
                    }
            }
        }
        return;
    }
    for (i = 0; i < rows; i++) {
        const som_real *xi = x + (size_t)i * m;
        for (q = 0; q < nmaps; q++) {
            const int c = win[q][i];
            som_real *S = slot + maps[q].slot_off, *Sc = S + (size_t)c * m;
            SOM_SIMD /* dimensions side by side; each still in row order */
            for (k = 0; k < m; k++) Sc[k] += xi[k];
            S[(size_t)maps[q].size * m + c] += 1;
        }
    }
}
SOM_VERSIONS(block_sums,
             (const batch_map *maps, int nmaps, int m, int general, const som_real *restrict x,
              int rows, int *const *win, som_real *restrict slot),
             (maps, nmaps, m, general, x, rows, win, slot))

