/* som_agreement.c: the adjusted Rand index of many pairs of clusterings (som_agreement.h),
 * from each pair's contingency table: the pairs of rows in the same cluster of both,
 * against those expected by chance from each clustering's own pairs. */
#include <string.h>

#include "som_agreement.h"

/* Pairs among v rows, as R's as.double(v) * (v - 1) / 2. */
static double comb2(int v)
{
    return (double)v * ((double)v - 1.0) / 2.0;
}

/* A missing cluster (R's NA, the least int) counts in no cell, as tabulate() drops it. */
#define SOM_NO_CLUSTER (-2147483647 - 1)

/* The pairs of rows in one cluster of labels (n of them, 1..k), counted in cells (k). */
static double pairs_within(const int *labels, int64_t n, int k, int *cells)
{
    long double s = 0;
    int64_t i;
    int c;
    memset(cells, 0, (size_t)k * sizeof *cells);
    for (i = 0; i < n; i++)
        if (labels[i] != SOM_NO_CLUSTER) cells[labels[i] - 1]++;
    for (c = 0; c < k; c++) s += comb2(cells[c]);
    return (double)s;
}

void som_ari_pairs(const int *C, int64_t n, int ncol, const int *pairs, int npairs, int k,
                   int *cells, double *per, double *out)
{
    const double all = (double)n * ((double)n - 1.0) / 2.0;
    int j, p;
    for (j = 0; j < ncol; j++) per[j] = pairs_within(C + (size_t)j * n, n, k, cells);
    for (p = 0; p < npairs; p++) {
        const int *a = C + (size_t)pairs[2 * p] * n, *b = C + (size_t)pairs[2 * p + 1] * n;
        const double sa = per[pairs[2 * p]], sb = per[pairs[2 * p + 1]];
        long double s = 0;
        double index, expected, top;
        int64_t i;
        int c;
        memset(cells, 0, (size_t)k * k * sizeof *cells);
        for (i = 0; i < n; i++)
            if (a[i] != SOM_NO_CLUSTER && b[i] != SOM_NO_CLUSTER)
                cells[(size_t)(a[i] - 1) * k + (b[i] - 1)]++;
        for (c = 0; c < k * k; c++) s += comb2(cells[c]);
        index = (double)s;
        expected = sa * sb / all;
        top = (sa + sb) / 2;
        out[p] = top == expected ? 1 : (index - expected) / (top - expected);
    }
}
