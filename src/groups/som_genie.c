/* som_genie.c: Prim's minimum spanning tree and Genie's merges (som_genie.h). Each step of
 * both is O(n), so a tree and its linkage cost O(n^2 d) and O(n^2), memory O(n). */
#include <math.h>

#include "som_genie.h"

/* ord[0..m) sorted by w[ord[.]] ascending, stable (ties keep their order): a merge sort,
 * tmp of m ints. */
static void sort_by_weight(int *ord, int *tmp, int m, const double *w)
{
    int width, lo, i, j, k, mid, hi;
    for (width = 1; width < m; width *= 2) {
        for (lo = 0; lo < m; lo += 2 * width) {
            mid = lo + width < m ? lo + width : m;
            hi = lo + 2 * width < m ? lo + 2 * width : m;
            i = lo;
            j = mid;
            k = lo;
            while (i < mid && j < hi) tmp[k++] = w[ord[j]] < w[ord[i]] ? ord[j++] : ord[i++];
            while (i < mid) tmp[k++] = ord[i++];
            while (j < hi) tmp[k++] = ord[j++];
        }
        for (i = 0; i < m; i++) ord[i] = tmp[i];
    }
}

void som_mst(const double *x, int n, int d, int *from, int *to, double *weight,
             double *work, int *iwork)
{
    /* out: the points not yet joined, in order; best: each one's squared distance to the
     * tree; near: the tree point it is that close to; f, t, w: the edges as taken */
    double *best = work, *w = work + n;
    int *out = iwork, *near = iwork + n, *f = iwork + 2 * n, *t = iwork + 3 * n;
    int *ord = iwork + 4 * n, *tmp = iwork + 5 * n;
    int m = n - 1, e, i, j, k, cur = 0;
    for (i = 0; i < m; i++) {
        out[i] = i + 1;
        best[i] = INFINITY;
        near[i] = 0;
    }
    for (e = 0; e < n - 1; e++) {
        const double *c = x + (long)cur * d;
        for (i = 0; i < m; i++) {
            const double *q = x + (long)out[i] * d;
            double s = 0;
            for (k = 0; k < d; k++) {
                double u = q[k] - c[k];
                s += u * u;
            }
            if (s < best[i]) {
                best[i] = s;
                near[i] = cur;
            }
        }
        j = 0;
        for (i = 1; i < m; i++)
            if (best[i] < best[j]) j = i;
        f[e] = near[j];
        t[e] = out[j];
        w[e] = best[j];
        cur = out[j];
        for (i = j; i < m - 1; i++) { /* out of the list, the order kept */
            out[i] = out[i + 1];
            best[i] = best[i + 1];
            near[i] = near[i + 1];
        }
        m--;
    }
    for (e = 0; e < n - 1; e++) ord[e] = e;
    sort_by_weight(ord, tmp, n - 1, w);
    for (e = 0; e < n - 1; e++) {
        from[e] = f[ord[e]] + 1;
        to[e] = t[ord[e]] + 1;
        weight[e] = sqrt(w[ord[e]]);
    }
}

/* Sum over the live groups g of |size[g] - s| (the sizes are whole numbers: exact). */
static double spread_to(const double *size, const int *live, int p, double s)
{
    double sum = 0;
    int g;
    for (g = 0; g < p; g++)
        if (live[g]) sum += fabs(size[g] - s);
    return sum;
}

void som_genie(const int *from, const int *to, int p, int k_max, double gini, int *labels,
               int *iwork, double *size)
{
    /* group: each point's group (the index of one of its points); live: a group index in
     * use; open: an edge not yet joined; seen: numbering by first appearance */
    int *group = iwork, *live = iwork + p, *open = iwork + 2 * p, *seen = iwork + 3 * p;
    int K = p, lightest = 0, e, i, pick, a, b, next;
    double spread = 0; /* sum over pairs of live groups of |s_i - s_j| */
    if (k_max > p) k_max = p;
    for (i = 0; i < p; i++) {
        group[i] = i;
        live[i] = 1;
        size[i] = 1;
        open[i] = i < p - 1;
    }
    if (p <= k_max)
        for (i = 0; i < p; i++) labels[(long)(p - 1) * p + i] = i + 1;
    while (K > 1) {
        pick = -1;
        if (spread / ((double)(K - 1) * p) > gini) { /* the lightest edge at a smallest group */
            double smallest = INFINITY;
            for (i = 0; i < p; i++)
                if (live[i] && size[i] < smallest) smallest = size[i];
            for (e = 0; e < p - 1 && pick < 0; e++)
                if (open[e] && (size[group[from[e] - 1]] == smallest ||
                                size[group[to[e] - 1]] == smallest))
                    pick = e;
        }
        if (pick < 0) { /* the lightest open edge (always one while K > 1) */
            while (!open[lightest]) lightest++;
            pick = lightest;
        }
        open[pick] = 0;
        a = group[from[pick] - 1];
        b = group[to[pick] - 1];
        spread = spread - spread_to(size, live, p, size[a]) - spread_to(size, live, p, size[b]) +
                 fabs(size[a] - size[b]);
        live[b] = 0;
        size[a] += size[b];
        spread += spread_to(size, live, p, size[a]);
        for (i = 0; i < p; i++)
            if (group[i] == b) group[i] = a;
        K--;
        if (K <= k_max) {
            int *col = labels + (long)(K - 1) * p;
            for (i = 0; i < p; i++) seen[i] = 0;
            next = 0;
            for (i = 0; i < p; i++) {
                if (!seen[group[i]]) seen[group[i]] = ++next;
                col[i] = seen[group[i]];
            }
        }
    }
}
