/* som_tile.h: the CPU's winner search. Weights are tiled (w[k * ld + j]: a dimension's
 * neurons side by side, ld a whole number of register blocks), squared distances of a tile
 * of points to a block of neurons are kept in registers, summed over the dimensions in
 * order, and the nearest is taken by the winner rule of som_math.h: the bits of
 * SOM_NEAREST, the kernels' search. Online training takes one point against blocks of
 * SOM_JB neurons (its own loop, som_cpu_online_t.h); batch winners and the assessment take
 * SOM_PB points against SOM_TJB. */
#ifndef SOM_TILE_H
#define SOM_TILE_H

#include "som_host.h"
#include "som_math.h"
#include "som_omp.h"

#define SOM_JB 4    /* neurons per block of the online rule                            */
#define SOM_PB 4    /* points per tile; a block's rows are padded to a multiple        */
#define SOM_TJB 8   /* neurons per tile; weights are padded to a multiple              */
#define SOM_JB_F 8  /* the same in single precision (twice the values per register)    */
#define SOM_PB_F 8
/* Points per tile of the batch winner search on the plain path, side by side in the lanes
 * of one vector of 64 bytes: an AVX-512 register, two AVX2 ones, four SSE2 ones (the more
 * points per neuron's weights loaded, the fewer loads); a multiple of SOM_PB(_F). */
#define SOM_BT 8
#define SOM_BT_F 16

/* Neurons rounded up to whole blocks of jb: the leading dimension of tiled weights. */
SOM_INLINE int som_ld(int size, int jb)
{
    return (size + jb - 1) / jb * jb;
}

/* SOM_TILE_D2(NAME, REAL, PB, JB, LANES) defines NAME(x, w, ld, j, m, acc): acc[p][jj] = sum over
 * k of (x[p * m + k] - w[k * ld + j + jj])^2, in order of k, for PB rows of x (row-major)
 * and the JB neurons from j. LANES is the loop pragma over the JB neurons (SOM_SIMD for one
 * point, SOM_UNROLL for a tile: what the compiler turns into the fastest code for each).
 * Always inlined, so that a constant m unrolls. */
#define SOM_TILE_D2(NAME, REAL, PB, JB, LANES)                                             \
    SOM_INLINE void NAME(const REAL *x, const REAL *w, int ld, int j, const int m,         \
                         REAL acc[PB][JB])                                                 \
    {                                                                                      \
        int p, jj, k;                                                                      \
        SOM_UNROLL                                                                         \
        for (p = 0; p < PB; p++) {                                                         \
            const REAL x0 = x[(size_t)p * m];                                              \
            LANES                                                                          \
            for (jj = 0; jj < JB; jj++) {                                                  \
                acc[p][jj] = SOM_D2_TERM(x0, w[j + jj]);                                   \
            }                                                                              \
        }                                                                                  \
        for (k = 1; k < m; k++) {                                                          \
            const REAL *wk = w + (size_t)k * ld + j;                                       \
            SOM_UNROLL                                                                     \
            for (p = 0; p < PB; p++) {                                                     \
                const REAL xk = x[(size_t)p * m + k];                                      \
                LANES                                                                      \
                for (jj = 0; jj < JB; jj++) {                                              \
                    acc[p][jj] += SOM_D2_TERM(xk, wk[jj]);                                 \
                }                                                                          \
            }                                                                              \
        }                                                                                  \
    }

SOM_TILE_D2(som_tile_d2, double, SOM_PB, SOM_TJB, SOM_UNROLL) /* a tile: batch, assess */
SOM_TILE_D2(som_tile_d2_f, float, SOM_PB_F, SOM_TJB, SOM_UNROLL)

/* The general path's distances (som_data_general): SOM_TILE_D2_GENERAL(NAME, REAL, PB, JB, LANES)
 * defines NAME(x, w, ld, j, m, cw, acc): acc[p][jj] = sum over the observed k (x not NaN)
 * of cw[k] * (x[p * m + k] - w[k * ld + j + jj])^2, in order of k (a missing value's term
 * is 0 * (0 - w)^2 = 0; weights are finite). With cw all 1 and no missing value, the bits
 * of SOM_TILE_D2: 0 + 1 * d = d exactly. */
#define SOM_TILE_D2_GENERAL(NAME, REAL, PB, JB, LANES)                                     \
    SOM_INLINE void NAME(const REAL *x, const REAL *w, int ld, int j, const int m,         \
                         const REAL *cw, REAL acc[PB][JB])                                 \
    {                                                                                      \
        int p, jj, k;                                                                      \
        SOM_UNROLL                                                                         \
        for (p = 0; p < PB; p++)                                                           \
            for (jj = 0; jj < JB; jj++) acc[p][jj] = 0;                                    \
        for (k = 0; k < m; k++) {                                                          \
            const REAL *wk = w + (size_t)k * ld + j;                                       \
            SOM_UNROLL                                                                     \
            for (p = 0; p < PB; p++) {                                                     \
                const REAL v = x[(size_t)p * m + k];                                       \
                const int seen = !isnan(v);                                                \
                const REAL xk = seen ? v : 0, ck = seen ? cw[k] : 0;                       \
                LANES                                                                      \
                for (jj = 0; jj < JB; jj++) {                                              \
                    acc[p][jj] += SOM_D2_TERM_GENERAL(ck, xk, wk[jj]);                     \
                }                                                                          \
            }                                                                              \
        }                                                                                  \
    }

SOM_TILE_D2_GENERAL(som_tile_d2_general, double, SOM_PB, SOM_TJB, SOM_UNROLL)
SOM_TILE_D2_GENERAL(som_tile_d2_general_f, float, SOM_PB_F, SOM_TJB, SOM_UNROLL)

/* Observed values of a row of m (not NaN). */
SOM_INLINE int som_observed(const double *x, int m)
{
    int k, seen = 0;
    for (k = 0; k < m; k++) seen += !isnan(x[k]);
    return seen;
}

/* The winner rule over distances d[0 .. nb-1] of neurons j .. j + nb - 1, continuing the
 * search in the variables c (int) and bd (double): branch-free, as the comparison is
 * unpredictable. A macro, so that c and bd stay in registers. */
#define SOM_PICK(d, nb, j, c, bd)                                                          \
    do {                                                                                   \
        int jj_;                                                                           \
        for (jj_ = 0; jj_ < (nb); jj_++) {                                                 \
            const int lt_ = SOM_CLOSER((d)[jj_], bd);                                      \
            c = lt_ ? (j) + jj_ : c;                                                       \
            bd = lt_ ? (d)[jj_] : bd;                                                      \
        }                                                                                  \
    } while (0)

/* SOM_TILE_ROWS(NAME, REAL, PB) defines NAME(data, n, m, lo, rows, x): rows lo .. lo + rows
 * - 1 of column-major data (n rows, m columns) into x, row-major in REAL, with zero rows up
 * to a whole number of tiles of PB rows. */
#define SOM_TILE_ROWS(NAME, REAL, PB)                                                      \
    SOM_INLINE void NAME(const double *data, int64_t n, int m, int64_t lo, int rows,       \
                         REAL *x)                                                          \
    {                                                                                      \
        const int padded = (rows + (PB) - 1) / (PB) * (PB);                                \
        int k, i;                                                                          \
        for (k = 0; k < m; k++) {                                                          \
            const double *col = data + (size_t)k * n + lo;                                 \
            for (i = 0; i < rows; i++) x[(size_t)i * m + k] = (REAL)col[i];                \
            for (; i < padded; i++) x[(size_t)i * m + k] = 0;                              \
        }                                                                                  \
    }
SOM_TILE_ROWS(som_tile_rows, double, SOM_PB)
SOM_TILE_ROWS(som_batch_rows, double, SOM_BT)
SOM_TILE_ROWS(som_batch_rows_f, float, SOM_BT_F)

#endif
