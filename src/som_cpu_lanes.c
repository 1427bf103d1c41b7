/* som_cpu_lanes.c: the online rule for a pack of small maps, one map per lane (som_lanes.h).
 * Compiled for AVX2 and the baseline where the compiler can pick at load time
 * (SOM_TARGET_CLONES); the same operations at either width, -ffp-contract=off keeping them
 * unfused. */
#include <math.h>
#include <string.h>

#include "som_lanes.h"

#if SOM_HAVE_LANES

/* The vector {F(0), .., F(3)} of a macro F of the lane, built in registers (element
 * stores into a vector go through memory and stall the load that follows). */
#define SOM_GATHER(F) ((som_vd){F(0), F(1), F(2), F(3)})
#if SOM_LANES != 4 || SOM_VW != 4
#error "SOM_GATHER is written for 4 lanes, one vector"
#endif

#define X_K(l) x[l][k]  /* lane l's point, dimension k  */
#define H_J(l) hl[l][j] /* lane l's factor of neuron j */

/* The rule for every lane, inlined with a constant m where it is small. */
SOM_INLINE void lanes_points(const som_lane_pack *pk, const double *rows, const int m,
                             uint32_t i, uint32_t end)
{
    const int S = pk->S;
    som_vd *w = (som_vd *)pk->w;
    som_vd xv[SOM_LANE_MAX_DIM];
    const double *hl[SOM_LANES];
    memset(xv, 0, sizeof xv); /* set below for k < m; said here for the compiler */
    for (; i < end; i++) {
        som_vd bd, cv, jv;
        int j, k, l;
        const double *x[SOM_LANES];
        for (l = 0; l < SOM_LANES; l++) x[l] = rows + (size_t)pk->order[l][i] * m;
        for (k = 0; k < m; k++) xv[k] = SOM_GATHER(X_K); /* each lane's point */
        bd = jv = cv = (som_vd){0};
        bd += HUGE_VAL;
        for (j = 0; j < S; j++) { /* each lane's winner: the first strictly closest */
            som_vd t = xv[0] - w[j], acc = t * t;
            som_vm lt;
            for (k = 1; k < m; k++) {
                t = xv[k] - w[(size_t)k * S + j];
                acc += t * t;
            }
            lt = acc < bd; /* SOM_CLOSER, lane by lane */
            bd = SOM_SELECT(lt, acc, bd);
            cv = SOM_SELECT(lt, jv, cv);
            jv += 1;
        }
        for (l = 0; l < SOM_LANES; l++) hl[l] = pk->circ[l] + pk->size[l] - (int)cv[l];
        for (j = 0; j < S; j++) { /* the update, each lane with its own factors */
            const som_vd h = SOM_GATHER(H_J);
            for (k = 0; k < m; k++) {
                som_vd *wk = w + (size_t)k * S + j;
                *wk += h * (xv[k] - *wk);
            }
        }
    }
}

SOM_TARGET_CLONES void som_lanes_train(const som_lane_pack *pk, const double *rows, int m,
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
void som_lanes_train(const som_lane_pack *pk, const double *rows, int m, uint32_t i,
                     uint32_t end)
{
    (void)pk, (void)rows, (void)m, (void)i, (void)end; /* never called: no packs are made */
}
#endif

void som_lanes_put(som_lane_pack *pk, int lane, const double *rowmajor, int m)
{
    const int S = pk->S, size = pk->size[lane];
    int j, k;
    for (k = 0; k < m; k++)
        for (j = 0; j < S; j++)
            pk->w[((size_t)k * S + j) * SOM_LANES + lane] =
                j < size ? rowmajor[(size_t)j * m + k] : NAN;
}

void som_lanes_get(const som_lane_pack *pk, int lane, int m, double *colmajor)
{
    const int S = pk->S, size = pk->size[lane];
    int j, k;
    for (k = 0; k < m; k++)
        for (j = 0; j < size; j++)
            colmajor[(size_t)k * size + j] = pk->w[((size_t)k * S + j) * SOM_LANES + lane];
}

void som_lanes_fill(som_lane_pack *pk, int lane, int m)
{
    int j, k;
    pk->size[lane] = pk->S;
    pk->order[lane] = pk->order[0];
    for (k = 0; k < m; k++)
        for (j = 0; j < pk->S; j++) pk->w[((size_t)k * pk->S + j) * SOM_LANES + lane] = NAN;
}

const char *som_lanes_isa(void)
{
#if defined(__GNUC__) && !defined(__clang__) && defined(__x86_64__)
    __builtin_cpu_init();
#if SOM_CLONES
    if (__builtin_cpu_supports("avx2")) return "avx2";
#endif
#endif
    return "baseline";
}
