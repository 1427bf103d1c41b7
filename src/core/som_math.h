/* som_math.h: the ring's arithmetic that C and the OpenCL kernels share: ring distance, the
 * winner rule, the nearest-neuron search over row-major weights, and the block sizes that
 * fix the order of sums. Written in the common subset of C99 and OpenCL C 1.2 (the OpenCL
 * backend embeds it in front of its kernels, after som_rng.h), so that the rule the results
 * depend on is written once. */
#ifndef SOM_MATH_H
#define SOM_MATH_H

#ifdef SOM_OPENCL_C
#define SOM_MATH_FN /* one program, one definition: OpenCL C 1.1 has no static functions */
typedef ulong som_index; /* offsets into buffers */
typedef ulong som_count; /* counts of blocks */
#else
#include <math.h>
#include <stddef.h>
#include <stdint.h>
#define SOM_MATH_FN static inline
typedef size_t som_index;
typedef uint64_t som_count;
#endif

/* Rows per block of the assessment's sums (qe, te, and the trace on every backend): each
 * block is summed in row order, the blocks in block order. */
#define SOM_ASSESS_BLOCK 1024

/* Rows per block of the batch algorithm's sums, unless the option somgpu.batch_block says
 * otherwise: part of what defines a batch result. */
#define SOM_BATCH_BLOCK 4096

/* The batch sums of a pass, pairwise over its blocks. Each block's sums are taken in row
 * order; the blocks are added as a binary tree: a node of level L is blocks
 * [k 2^L, (k + 1) 2^L), the sum of its two halves (left + right). The nodes are made as a
 * binary counter counts: block (or node) k of a level is pushed on a stack of partial sums,
 * one per level, and merged with the left sibling waiting there while k is odd. A pass's
 * total adds what the stack holds at the end (nb's binary digits), lowest level first. A
 * range of blocks cut anywhere (a future worker's rows) is the aligned nodes it holds,
 * and pushing those nodes in order makes the same sums: the totals do not depend on where
 * the rows were cut. The element-wise steps, for C and the kernels: */

/* Levels of partial sums a pass of nb blocks needs (levels 0 .. this - 1). */
SOM_MATH_FN int som_pair_levels(som_count nb)
{
    int L = 1;
    while (((som_count)1 << (L - 1)) < nb) L++;
    return L;
}

/* The largest aligned node of the range [a, b) that starts at a: its level. */
SOM_MATH_FN int som_pair_node(som_count a, som_count b)
{
    int L = 0;
    while (a % ((som_count)2 << L) == 0 && a + ((som_count)2 << L) <= b) L++;
    return L;
}

/* Nodes the range [a, b) holds (its aligned nodes, largest first from a). */
SOM_MATH_FN som_count som_pair_nodes(som_count a, som_count b)
{
    som_count n = 0;
    while (a < b) {
        a += (som_count)1 << som_pair_node(a, b);
        n++;
    }
    return n;
}

/* SOM_PAIR_PUSH(NAME, REAL, SPACE) defines
 *   void NAME(SPACE REAL *stack, som_index stride, som_index e, som_count k, int level,
 *             REAL v)
 * node k of `level` with value v (element e) pushed on the stack (level l's element e at
 * stack[l * stride + e]); SOM_PAIR_TOTAL(NAME, REAL, SPACE) defines
 *   REAL NAME(SPACE const REAL *stack, som_index stride, som_index e, som_count nb)
 * the total of nb blocks pushed from block 0 (for nb a power of two, its one node). */
#define SOM_PAIR_PUSH(NAME, REAL, SPACE)                                                   \
    SOM_MATH_FN void NAME(SPACE REAL *stack, som_index stride, som_index e, som_count k,    \
                          int level, REAL v)                                               \
    {                                                                                      \
        while (k & 1) {                                                                    \
            v = stack[(som_index)level * stride + e] + v;                                  \
            level++;                                                                       \
            k >>= 1;                                                                       \
        }                                                                                  \
        stack[(som_index)level * stride + e] = v;                                          \
    }
#define SOM_PAIR_TOTAL(NAME, REAL, SPACE)                                                  \
    SOM_MATH_FN REAL NAME(SPACE const REAL *stack, som_index stride, som_index e,           \
                          som_count nb)                                                    \
    {                                                                                      \
        REAL acc = 0;                                                                      \
        int level = 0, any = 0;                                                            \
        for (; nb; nb >>= 1, level++)                                                      \
            if (nb & 1) {                                                                  \
                acc = any ? stack[(som_index)level * stride + e] + acc                     \
                          : stack[(som_index)level * stride + e];                          \
                any = 1;                                                                   \
            }                                                                              \
        return acc;                                                                        \
    }

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

/* The distance, written once: a dimension's term of the squared distance, (x_k - w_k)^2,
 * and of the general distance (variable weights, missing values), c_k * (x_k - w_k)^2. A
 * distance is its terms summed in order of k, the first term taken as it is (0 + t = t);
 * every search sums these terms (the kernels', the CPU's for one point, for tiles, for
 * vector lanes), so a metric that is a sum over the dimensions changes these two lines.
 * Arguments are read twice: pass plain values. */
#define SOM_D2_TERM(xk, wk) (((xk) - (wk)) * ((xk) - (wk)))
#define SOM_D2_TERM_GENERAL(ck, xk, wk) ((ck) * SOM_D2_TERM(xk, wk))

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
        for (k = 0; k < m; k++) d2 += SOM_D2_TERM(x[k], w[k]);                             \
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
#ifdef SOM_OPENCL_C
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
            if (!isnan(xk)) d2 += SOM_D2_TERM_GENERAL(c[k], xk, w[k]);                     \
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
