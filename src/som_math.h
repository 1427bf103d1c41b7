/* som_math.h: the ring's arithmetic that C and the OpenCL kernels share: ring distance, the
 * winner rule, the nearest-neuron search over row-major weights, and the block sizes that
 * fix the order of sums. Written in the common subset of C99 and OpenCL C 1.2 (the OpenCL
 * backend embeds it in front of its kernels, after som_rng.h), so that the rule the results
 * depend on is written once. */
#ifndef SOM_MATH_H
#define SOM_MATH_H

#ifdef __OPENCL_VERSION__
#define SOM_MATH_FN /* one program, one definition: OpenCL C 1.1 has no static functions */
typedef ulong som_index; /* offsets into buffers */
#else
#include <math.h>
#include <stddef.h>
#define SOM_MATH_FN static inline
typedef size_t som_index;
#endif

/* Rows per block of the assessment's sums (qe, te, and the trace on every backend): each
 * block is summed in row order, the blocks in block order. */
#define SOM_ASSESS_BLOCK 1024

/* Rows per block of the batch algorithm's sums, unless the option somgpu.batch_block says
 * otherwise: part of what defines a batch result. */
#define SOM_BATCH_BLOCK 4096

/* Blocks per shard of the batch sums: a pass's totals are the shards' sums added in shard
 * order, each shard's the sum of its blocks' in block order. A shard is what a future
 * worker returns for its rows (whole shards), so the totals do not depend on the workers. */
#define SOM_BATCH_SHARD 64

/* Ring distance between neurons a and b of a ring of `size`. */
SOM_MATH_FN int som_ring_dist(int a, int b, int size)
{
    int d = a > b ? a - b : b - a;
    return d < size - d ? d : size - d;
}

/* The winner rule: the neuron at the smallest squared distance (summed over the dimensions
 * in order), the lowest index among equals. A scan in increasing index keeps the first of
 * equals by taking a neuron only when it is strictly closer (SOM_CLOSER); merging the bests
 * of two sets of neurons (a work-group reduction) compares the indices too (SOM_WINS). */
#define SOM_CLOSER(d, best) ((d) < (best))
#define SOM_WINS(d, j, best, jbest) (SOM_CLOSER(d, best) || ((d) == (best) && (j) < (jbest)))

/* SOM_SQDIST(NAME, REAL, XSPACE, WSPACE) defines
 *   REAL NAME(XSPACE const REAL *x, WSPACE const REAL *w, int m)
 * the squared distance of point x to one neuron's weights w, summed over the dimensions in
 * order. A macro because OpenCL C 1.2 has no generic address space: the kernels need it for
 * weights in global and in local memory; C instantiates it with empty spaces. */
#define SOM_SQDIST(NAME, REAL, XSPACE, WSPACE)                                             \
    SOM_MATH_FN REAL NAME(XSPACE const REAL *x, WSPACE const REAL *w, int m)               \
    {                                                                                      \
        REAL d2 = 0;                                                                       \
        int k;                                                                             \
        for (k = 0; k < m; k++) {                                                          \
            REAL diff = x[k] - w[k];                                                       \
            d2 += diff * diff;                                                             \
        }                                                                                  \
        return d2;                                                                         \
    }

/* SOM_NEAREST(NAME, SQDIST, REAL, XSPACE, WSPACE) defines
 *   int NAME(XSPACE const REAL *x, WSPACE const REAL *w, int size, int m, REAL *best)
 * the winner of point x among the `size` neurons of w (row-major, size x m), by the winner
 * rule, and its squared distance in *best; SQDIST is a SOM_SQDIST of the same spaces. */
#define SOM_NEAREST(NAME, SQDIST, REAL, XSPACE, WSPACE)                                    \
    SOM_MATH_FN int NAME(XSPACE const REAL *x, WSPACE const REAL *w, int size, int m,      \
                         REAL *best)                                                       \
    {                                                                                      \
        REAL bd = INFINITY;                                                                \
        int c = 0, j;                                                                      \
        for (j = 0; j < size; j++) {                                                       \
            const REAL d2 = SQDIST(x, w + (som_index)j * m, m);                            \
            if (SOM_CLOSER(d2, bd)) {                                                      \
                bd = d2;                                                                   \
                c = j;                                                                     \
            }                                                                              \
        }                                                                                  \
        *best = bd;                                                                        \
        return c;                                                                          \
    }

/* The general path (column weights, missing values: som_data_general):
 * SOM_SQDIST_GENERAL(NAME, REAL, XSPACE, WSPACE) defines
 *   REAL NAME(XSPACE const REAL *x, WSPACE const REAL *w, __global const REAL *c, int m)
 * (no address space for c in C), the sum over the observed k (x_k not NaN) of
 * c[k] * (x_k - w_k)^2 in order of k; with every c[k] = 1 and no missing value, SOM_SQDIST's
 * bits. SOM_NEAREST_GENERAL(NAME, SQDIST, REAL, XSPACE, WSPACE) defines
 *   int NAME(XSPACE const REAL *x, WSPACE const REAL *w, __global const REAL *c, int size,
 *            int m, REAL *best)
 * the winner with that distance. */
#ifdef __OPENCL_VERSION__
#define SOM_CSPACE __global
#else
#define SOM_CSPACE
#endif

#define SOM_SQDIST_GENERAL(NAME, REAL, XSPACE, WSPACE)                                     \
    SOM_MATH_FN REAL NAME(XSPACE const REAL *x, WSPACE const REAL *w,                      \
                          SOM_CSPACE const REAL *c, int m)                                 \
    {                                                                                      \
        REAL d2 = 0;                                                                       \
        int k;                                                                             \
        for (k = 0; k < m; k++) {                                                          \
            const REAL xk = x[k];                                                          \
            if (!isnan(xk)) {                                                              \
                REAL diff = xk - w[k];                                                     \
                d2 += c[k] * (diff * diff);                                                \
            }                                                                              \
        }                                                                                  \
        return d2;                                                                         \
    }

#define SOM_NEAREST_GENERAL(NAME, SQDIST, REAL, XSPACE, WSPACE)                            \
    SOM_MATH_FN int NAME(XSPACE const REAL *x, WSPACE const REAL *w,                       \
                         SOM_CSPACE const REAL *c, int size, int m, REAL *best)            \
    {                                                                                      \
        REAL bd = INFINITY;                                                                \
        int j, cw = 0;                                                                     \
        for (j = 0; j < size; j++) {                                                       \
            const REAL d2 = SQDIST(x, w + (som_index)j * m, c, m);                         \
            if (SOM_CLOSER(d2, bd)) {                                                      \
                bd = d2;                                                                   \
                cw = j;                                                                    \
            }                                                                              \
        }                                                                                  \
        *best = bd;                                                                        \
        return cw;                                                                         \
    }

#endif
