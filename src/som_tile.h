/* som_tile.h: squared distances of a tile of SOM_PB points to SOM_TJB neurons, kept in
 * registers: the inner loop of the batch winners and of the assessment. Each distance is
 * summed over the dimensions in order, so every tile gives the bits of som_winner. */
#ifndef SOM_TILE_H
#define SOM_TILE_H

#include "som_core.h"

#define SOM_PB 4  /* points per tile; a block's rows are padded to a multiple */
#define SOM_TJB 8 /* neurons per tile; weights are padded to a multiple       */

#ifdef _OPENMP
#define SOM_SIMD _Pragma("omp simd")
#else
#define SOM_SIMD
#endif

/* Neurons rounded up to whole tiles: the leading dimension of tiled weights. */
SOM_INLINE int som_tile_ld(int size)
{
    return (size + SOM_TJB - 1) / SOM_TJB * SOM_TJB;
}

/* acc[p][jj] = sum_k (x[p * m + k] - w[k * ld + j + jj])^2 for the tile at neuron j. Inlined
 * with a constant m where the caller has one. */
SOM_INLINE void som_tile_d2(const double *x, const double *w, int ld, int j, const int m,
                            double acc[SOM_PB][SOM_TJB])
{
    int p, jj, k;
    SOM_UNROLL
    for (p = 0; p < SOM_PB; p++) {
        const double x0 = x[(size_t)p * m];
        SOM_UNROLL
        for (jj = 0; jj < SOM_TJB; jj++) {
            double t = x0 - w[j + jj];
            acc[p][jj] = t * t;
        }
    }
    for (k = 1; k < m; k++) {
        const double *wk = w + (size_t)k * ld + j;
        SOM_UNROLL
        for (p = 0; p < SOM_PB; p++) {
            const double xk = x[(size_t)p * m + k];
            SOM_UNROLL
            for (jj = 0; jj < SOM_TJB; jj++) {
                double t = xk - wk[jj];
                acc[p][jj] += t * t;
            }
        }
    }
}

/* Rows lo .. lo + rows - 1 of column-major data (n rows, m columns) into x, row-major, with
 * zero rows up to a whole number of tiles. */
SOM_INLINE void som_tile_rows(const double *data, int64_t n, int m, int64_t lo, int rows,
                              double *x)
{
    const int padded = (rows + SOM_PB - 1) / SOM_PB * SOM_PB;
    int k, i;
    for (k = 0; k < m; k++) {
        const double *col = data + (size_t)k * n + lo;
        for (i = 0; i < rows; i++) x[(size_t)i * m + k] = col[i];
        for (; i < padded; i++) x[(size_t)i * m + k] = 0;
    }
}

#endif
