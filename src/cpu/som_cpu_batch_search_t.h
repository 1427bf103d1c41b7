/* som_cpu_batch_search_t.h: the batch engine's arithmetic per block: every point's
 * winner (tiles of PREC_PB points, in vector lanes where there are some) and a block's sums
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
/* Neurons j .. j + nb - 1 (nb a constant where inlined) for the points in the lanes of xv
 * (xv[k]: their k-th values): each distance summed over k in order, then the winner rule
 * in each lane over these neurons in order, continuing from bd, bc. */
SOM_INLINE void lanes_block(const som_rv *xv, const som_real *w, int ld, int j, const int m,
                            const int nb, som_rv *bd, som_rv *bc)
{
    som_rv acc[SOM_TJB], jv = (som_rv){0} + (som_real)j;
    int jj, k;
    SOM_UNROLL_ALL
    for (jj = 0; jj < nb; jj++) acc[jj] = SOM_D2_TERM(xv[0], w[j + jj]);
    for (k = 1; k < m; k++) {
        const som_real *wk = w + (size_t)k * ld + j;
        SOM_UNROLL_ALL
        for (jj = 0; jj < nb; jj++) acc[jj] += SOM_D2_TERM(xv[k], wk[jj]);
    }
    SOM_UNROLL_ALL
    for (jj = 0; jj < nb; jj++, jv += 1) {
        const som_rm lt = SOM_CLOSER(acc[jj], *bd);
        *bd = PREC_SELECT(lt, acc[jj], *bd);
        *bc = PREC_SELECT(lt, jv, *bc);
    }
}

/* The winners of the PREC_PB = PREC_VW points of a tile (xv, one point per lane) among the
 * neurons of w: each lane runs the winner rule over the neurons in order, in blocks of
 * SOM_TJB, 4 and 1 neurons (no padded neuron computed): the bits and winners of winners(),
 * with vector compares in place of a scalar chain per point. */
SOM_INLINE void winners_lanes(const som_rv *xv, const som_real *w, int size, int ld,
                              const int m, int *c)
{
    som_rv bd = (som_rv){0} + (som_real)HUGE_VAL, bc = (som_rv){0};
    int j = 0, l;
    for (; j + SOM_TJB <= size; j += SOM_TJB)
        lanes_block(xv, w, ld, j, m, SOM_TJB, &bd, &bc);
    if (j + 4 <= size) {
        lanes_block(xv, w, ld, j, m, 4, &bd, &bc);
        j += 4;
    }
    for (; j < size; j++) lanes_block(xv, w, ld, j, m, 1, &bd, &bc);
    for (l = 0; l < PREC_VW; l++) c[l] = (int)bc[l];
}
#endif

#define X_P(l) xi[(size_t)(l) * m + k] /* the tile's point l, dimension k */

/* Rows of a block (row-major in x, padded to whole tiles) against maps q0 .. q1-1: each
 * row's winner into win[q] (indexed from the block's first row, offset); cw: the general
 * path's column weights, or NULL. A tile of points at a time against every map (their
 * weights stay in the first-level cache); on the plain path with vectors, the tile's
 * points side by side in the lanes (winners_lanes). Also compiled for AVX2 where the
 * compiler can pick the version at load time (the same operations, a register at a time:
 * -ffp-contract=off keeps them unfused). */
SOM_TARGET_CLONES static void segment_winners(const batch_map *maps, int q0, int q1, int m,
                                              const som_real *cw, const som_real *x, int rows,
                                              int offset, int *const *win)
{
    const int padded = (rows + PREC_PB - 1) / PREC_PB * PREC_PB;
    const int lanes = SOM_HAVE_VEC && !cw && m <= SOM_VEC_MAX_DIM;
    int i, q, r;
    (void)lanes; /* unused without vectors */
    for (i = 0; i < padded; i += PREC_PB) {
        const som_real *xi = x + (size_t)i * m;
#if SOM_HAVE_VEC
        som_rv xv[SOM_VEC_MAX_DIM];
        if (lanes) { /* the tile's points side by side */
            int k;
            for (k = 0; k < m; k++) xv[k] = PREC_GATHER(X_P);
        }
#endif
        for (q = q0; q < q1; q++) {
            const batch_map *mp = maps + q;
            int c[PREC_PB];
#if SOM_HAVE_VEC
            if (lanes) switch (m) {
            case 2: winners_lanes(xv, mp->w, mp->size, mp->ld, 2, c); break;
            case 3: winners_lanes(xv, mp->w, mp->size, mp->ld, 3, c); break;
            case 4: winners_lanes(xv, mp->w, mp->size, mp->ld, 4, c); break;
            case 8: winners_lanes(xv, mp->w, mp->size, mp->ld, 8, c); break;
            case 16: winners_lanes(xv, mp->w, mp->size, mp->ld, 16, c); break;
            default: winners_lanes(xv, mp->w, mp->size, mp->ld, m, c);
            }
            else
#endif
            if (cw) winners(xi, mp->w, mp->size, mp->ld, m, cw, c); /* not unrolled by m */
            else switch (m) {
            case 1: winners(xi, mp->w, mp->size, mp->ld, 1, NULL, c); break;
            case 8: winners(xi, mp->w, mp->size, mp->ld, 8, NULL, c); break;
            default: winners(xi, mp->w, mp->size, mp->ld, m, NULL, c);
            }
            for (r = 0; r < PREC_PB && i + r < rows; r++) win[q][offset + i + r] = c[r];
        }
    }
}

/* A block's sums (rows row-major in x), every map at once, each element in row order: into
 * the block's slot, S[c * m + k] then the counts (slot_width) per map. Each row is read
 * once. general: missing values are left out of the sums and their columns' counts. */
static void block_sums(const batch_map *maps, int nmaps, int m, int general,
                       const som_real *restrict x, int rows, int *const *win,
                       som_real *restrict slot)
{
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
