/* som_cpu_lanes_t.h: the online rule for a pack of small maps, one map per lane of a
 * register (som_lanes.h), in the precision of som_real.h: SOM_LANES maps of 4 doubles or 8
 * floats (8 doubles in the wide packs). Part of som_cpu_online_t.h. The kernel is compiled
 * for each instruction set (LANES_VERSIONS: AVX2 and the baseline; AVX-512 alone for the
 * wide packs); the same operations at every width, -ffp-contract=off keeping them unfused. */

#ifdef SOM_WIDE_LANES
#define LANES_VERSIONS SOM_VERSIONS_AVX512
#else
#define LANES_VERSIONS SOM_VERSIONS_AVX2
#endif

#if SOM_HAVE_LANES
#define SOM_LANES PREC_VW
#else
#define SOM_LANES 1 /* no packs are made */
#endif

typedef struct {
    int nl;                          /* maps in the pack                                */
    int S;                           /* neurons of the pack: its largest ring's         */
    int map[SOM_LANES];              /* each lane's map (index in the problem)          */
    int size[SOM_LANES];             /* each lane's ring (S in unused lanes)            */
    uint32_t *order[SOM_LANES];      /* each lane's visiting order (unused: lane 0's)   */
    som_real *circ[SOM_LANES];       /* each lane's factors, 2 S (zeros beyond 2 size)  */
    som_real *w;                     /* weights, w[(k * S + j) * SOM_LANES + lane]      */
} lane_pack;

/* Elements a pack of S neurons in m dimensions needs for its weights. */
#define LANE_WEIGHTS(S, m) ((size_t)(S) * (size_t)(m) * SOM_LANES)

#if SOM_HAVE_LANES
#define X_K(l) x[l][k]  /* lane l's point, dimension k  */
#define H_J(l) hl[l][j] /* lane l's factor of neuron j */
#define LANE_NB 8       /* neurons whose sums the general kernel keeps in flight */

/* Rows of up to LANE_DIF_DIM dimensions keep every difference x - w of the winner search
 * (in dif) for the update, which then need not subtract again: the same values, as w has
 * not moved in between, and one add fewer per neuron and dimension (online 5 to 9% faster
 * on an AMD EPYC). */
#define LANE_DIF_DIM 8

/* The squared distances of every lane's point (xv) to neuron J of its map, summed over the
 * dimensions in order, into OUT: each term SOM_D2_TERM's, the square of the difference. */
#define LANE_D2(J, OUT)                                                                    \
    do {                                                                                   \
        som_rv d_ = xv[0] - w[J];                                                          \
        if (m <= LANE_DIF_DIM) dif[J] = d_;                                                \
        OUT = d_ * d_;                                                                     \
        for (k = 1; k < m; k++) {                                                          \
            d_ = xv[k] - w[(size_t)k * S + (J)];                                           \
            if (m <= LANE_DIF_DIM) dif[(size_t)k * S + (J)] = d_;                          \
            OUT += d_ * d_;                                                                \
        }                                                                                  \
    } while (0)

/* Points i .. end-1 of the pass for every lane, inlined with a constant m where small. */
SOM_INLINE void lanes_points(const lane_pack *pk, const som_real *rows, const int m,
                             uint32_t i, uint32_t end)
{
    const int S = pk->S;
    som_rv *w = (som_rv *)pk->w;
    som_rv xv[SOM_VEC_MAX_DIM], dif[LANE_DIF_DIM * SOM_LANE_MAX_SIZE];
    const som_real *hl[SOM_LANES];
    memset(xv, 0, sizeof xv); /* set below for k < m; said here for the compiler */
    for (; i < end; i++) {
        som_rv bd, bd1, cv, cv1, jv;
        int j, k, l;
        const som_real *x[SOM_LANES];
        for (l = 0; l < SOM_LANES; l++) x[l] = rows + (size_t)pk->order[l][i] * m;
        for (k = 0; k < m; k++) xv[k] = PREC_GATHER(X_K); /* each lane's point */
        /* each lane's winner, the first strictly closest, as two chains (even and odd
         * neurons, each by the strict rule in order) merged with ties to the lower neuron:
         * the same winner, half the chain of dependent compares */
        bd = bd1 = jv = cv = cv1 = (som_rv){0};
        bd += (som_real)HUGE_VAL;
        bd1 += (som_real)HUGE_VAL;
        for (j = 0; j < S; j += 2, jv += 2) {
            som_rv acc, acc1;
            som_rm lt;
            LANE_D2(j, acc);
            lt = SOM_CLOSER(acc, bd); /* lane by lane */
            bd = PREC_SELECT(lt, acc, bd);
            cv = PREC_SELECT(lt, jv, cv);
            if (j + 1 < S) {
                LANE_D2(j + 1, acc1);
                lt = SOM_CLOSER(acc1, bd1);
                bd1 = PREC_SELECT(lt, acc1, bd1);
                cv1 = PREC_SELECT(lt, jv + 1, cv1);
            }
        }
        {
            const som_rm lt = SOM_CLOSER(bd1, bd) | ((bd1 == bd) & (cv1 < cv));
            cv = PREC_SELECT(lt, cv1, cv);
        }
        for (l = 0; l < SOM_LANES; l++) hl[l] = pk->circ[l] + pk->size[l] - (int)cv[l];
        for (j = 0; j < S; j++) { /* the update, each lane with its own factors */
            const som_rv h = PREC_GATHER(H_J);
            for (k = 0; k < m; k++) {
                som_rv *wk = w + (size_t)k * S + j;
                *wk += h * (m <= LANE_DIF_DIM ? dif[(size_t)k * S + j] : xv[k] - *wk);
            }
        }
    }
}

/* The squared distances of every lane's point to NB neurons from j (acc), for the general
 * path and wide rows: dimension by dimension, so that NB sums are in flight whatever m (a
 * neuron's sum over m dimensions alone is a chain of m dependent adds). Each sum starts at
 * 0 and takes every term in order of k: a lane's missing value (seen[k] clear) gives +0,
 * which changes no sum, so each lane's sum is the general rule's over its observed
 * dimensions (0 + t = t where every value is there); with column weights cw each term is
 * cw[k] * (x - w)^2 as there. */
SOM_INLINE void lanes_d2_block(const som_rv *w, int S, int j, const int m, const som_rv *xv,
                               const som_rm *seen, const som_real *cw, const int NB,
                               som_rv acc[LANE_NB])
{
    int b, k;
    SOM_UNROLL_ALL
    for (b = 0; b < NB; b++) acc[b] = (som_rv){0};
    for (k = 0; k < m; k++) {
        const som_rv *wk = w + (size_t)k * S + j;
        const som_rv x = xv[k];
        const som_rm s = seen[k];
        if (cw) {
            const som_real ck = cw[k];
            SOM_UNROLL_ALL
            for (b = 0; b < NB; b++) acc[b] += (som_rv)((som_rm)(ck * SOM_D2_TERM(x, wk[b])) & s);
        } else {
            SOM_UNROLL_ALL
            for (b = 0; b < NB; b++) acc[b] += (som_rv)((som_rm)SOM_D2_TERM(x, wk[b]) & s);
        }
    }
}

/* Points i .. end-1 of the pass for every lane, on the general path (missing values as NaN
 * in rows, column weights cw or NULL) or with more dimensions than the plain kernel holds:
 * the winner by blocks of LANE_NB neurons, picked in ascending order (the strict rule),
 * then the update, which leaves a lane's missing dimensions as they are. */
SOM_INLINE void lanes_points_general(const lane_pack *pk, const som_real *rows, const int m,
                                     const som_real *cw, uint32_t i, uint32_t end)
{
    const int S = pk->S;
    som_rv *w = (som_rv *)pk->w;
    som_rv xv[SOM_LANE_MAX_DIM], hv[SOM_LANE_MAX_SIZE];
    som_rm seen[SOM_LANE_MAX_DIM];
    const som_real *hl[SOM_LANES];
    for (; i < end; i++) {
        som_rv bd = {0}, cv = {0}, jv = {0};
        int j, k, l;
        const som_real *x[SOM_LANES];
        for (l = 0; l < SOM_LANES; l++) x[l] = rows + (size_t)pk->order[l][i] * m;
        for (k = 0; k < m; k++) { /* each lane's point, a missing value as 0 */
            const som_rv v = PREC_GATHER(X_K);
            seen[k] = v == v;
            xv[k] = PREC_SELECT(seen[k], v, (som_rv){0});
        }
        bd += (som_real)HUGE_VAL;
        for (j = 0; j < S; j += LANE_NB) {
            som_rv acc[LANE_NB];
            const int nb = S - j < LANE_NB ? S - j : LANE_NB;
            int b;
            switch (nb) {
            case 1: lanes_d2_block(w, S, j, m, xv, seen, cw, 1, acc); break;
            case 2: lanes_d2_block(w, S, j, m, xv, seen, cw, 2, acc); break;
            case 3: lanes_d2_block(w, S, j, m, xv, seen, cw, 3, acc); break;
            case 4: lanes_d2_block(w, S, j, m, xv, seen, cw, 4, acc); break;
            case 5: lanes_d2_block(w, S, j, m, xv, seen, cw, 5, acc); break;
            case 6: lanes_d2_block(w, S, j, m, xv, seen, cw, 6, acc); break;
            case 7: lanes_d2_block(w, S, j, m, xv, seen, cw, 7, acc); break;
            default: lanes_d2_block(w, S, j, m, xv, seen, cw, LANE_NB, acc);
            }
            for (b = 0; b < nb; b++, jv += 1) { /* lane by lane, the first strictly closest */
                const som_rm lt = SOM_CLOSER(acc[b], bd);
                bd = PREC_SELECT(lt, acc[b], bd);
                cv = PREC_SELECT(lt, jv, cv);
            }
        }
        for (l = 0; l < SOM_LANES; l++) hl[l] = pk->circ[l] + pk->size[l] - (int)cv[l];
        for (j = 0; j < S; j++) hv[j] = PREC_GATHER(H_J);
        for (k = 0; k < m; k++) { /* the update where a lane's value is there */
            som_rv *wk = w + (size_t)k * S;
            const som_rv xk = xv[k];
            const som_rm s = seen[k];
            for (j = 0; j < S; j++) wk[j] = PREC_SELECT(s, wk[j] + hv[j] * (xk - wk[j]), wk[j]);
        }
    }
}

SOM_INLINE void lanes_train_general_body(const int isa, const lane_pack *pk,
                                         const som_real *rows, int m, const som_real *cw,
                                         uint32_t i, uint32_t end)
{
    (void)isa; /* the same loops at every width */
    if (cw) lanes_points_general(pk, rows, m, cw, i, end);
    else lanes_points_general(pk, rows, m, NULL, i, end);
}
LANES_VERSIONS(lanes_train_general,
               (const lane_pack *pk, const som_real *rows, int m, const som_real *cw,
                uint32_t i, uint32_t end),
               (pk, rows, m, cw, i, end))


SOM_INLINE void lanes_train_body(const int isa, const lane_pack *pk, const som_real *rows,
                                 int m, uint32_t i, uint32_t end)
{
    (void)isa; /* the same loops at every width */
    switch (m) {
    case 1: lanes_points(pk, rows, 1, i, end); break;
    case 2: lanes_points(pk, rows, 2, i, end); break;
    case 3: lanes_points(pk, rows, 3, i, end); break;
    case 4: lanes_points(pk, rows, 4, i, end); break;
    case 5: lanes_points(pk, rows, 5, i, end); break;
    case 6: lanes_points(pk, rows, 6, i, end); break;
    case 8: lanes_points(pk, rows, 8, i, end); break;
    default: lanes_points(pk, rows, m, i, end);
    }
}
LANES_VERSIONS(lanes_train,
               (const lane_pack *pk, const som_real *rows, int m, uint32_t i, uint32_t end),
               (pk, rows, m, i, end))

#else
static void lanes_train(const lane_pack *pk, const som_real *rows, int m, uint32_t i,
                        uint32_t end)
{
    (void)pk, (void)rows, (void)m, (void)i, (void)end; /* never called: no packs are made */
}

static void lanes_train_general(const lane_pack *pk, const som_real *rows, int m,
                                const som_real *cw, uint32_t i, uint32_t end)
{
    (void)pk, (void)rows, (void)m, (void)cw, (void)i, (void)end; /* never called */
}
#endif

/* A lane's weights from row-major size x m (the padding set to NaN), and back to
 * column-major doubles. */
static void lanes_put(lane_pack *pk, int lane, const double *rowmajor, int m)
{
    const int S = pk->S, size = pk->size[lane];
    int j, k;
    for (k = 0; k < m; k++)
        for (j = 0; j < S; j++)
            pk->w[((size_t)k * S + j) * SOM_LANES + lane] =
                j < size ? (som_real)rowmajor[(size_t)j * m + k] : (som_real)NAN;
}

static void lanes_get(const lane_pack *pk, int lane, int m, double *colmajor)
{
    const int S = pk->S, size = pk->size[lane];
    int j, k;
    for (k = 0; k < m; k++)
        for (j = 0; j < size; j++)
            colmajor[(size_t)k * size + j] = pk->w[((size_t)k * S + j) * SOM_LANES + lane];
}

/* Fill an unused lane: NaN weights, lane 0's order. */
static void lanes_fill(lane_pack *pk, int lane, int m)
{
    int j, k;
    pk->size[lane] = pk->S;
    pk->order[lane] = pk->order[0];
    for (k = 0; k < m; k++)
        for (j = 0; j < pk->S; j++)
            pk->w[((size_t)k * pk->S + j) * SOM_LANES + lane] = (som_real)NAN;
}
