/* som_cpu_lanes_t.h: the online rule for a pack of small maps, one map per lane of a
 * register (som_lanes.h), in the precision of som_real.h: SOM_LANES maps of 4 doubles or 8
 * floats. Part of som_cpu_online_t.h. The kernel is compiled for AVX2 and the baseline where
 * the compiler can pick at load time (SOM_TARGET_CLONES); the same operations at either
 * width, -ffp-contract=off keeping them unfused. */

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

/* The squared distances of every lane's point (xv) to neuron J of its map, summed over the
 * dimensions in order, into OUT. */
#define LANE_D2(J, OUT)                                                                    \
    do {                                                                                   \
        OUT = SOM_D2_TERM(xv[0], w[J]);                                                    \
        for (k = 1; k < m; k++) OUT += SOM_D2_TERM(xv[k], w[(size_t)k * S + (J)]);         \
    } while (0)

/* Points i .. end-1 of the pass for every lane, inlined with a constant m where small. */
SOM_INLINE void lanes_points(const lane_pack *pk, const som_real *rows, const int m,
                             uint32_t i, uint32_t end)
{
    const int S = pk->S;
    som_rv *w = (som_rv *)pk->w;
    som_rv xv[SOM_VEC_MAX_DIM];
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
                *wk += h * (xv[k] - *wk);
            }
        }
    }
}

SOM_TARGET_CLONES static void lanes_train(const lane_pack *pk, const som_real *rows, int m,
                                          uint32_t i, uint32_t end)
{
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
#else
static void lanes_train(const lane_pack *pk, const som_real *rows, int m, uint32_t i,
                        uint32_t end)
{
    (void)pk, (void)rows, (void)m, (void)i, (void)end; /* never called: no packs are made */
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
