/* som_graph.c: the rows' shared-neighbour graph and Louvain's communities (som_graph.h). */
#include <stddef.h>

#include "som_graph.h"

long som_snn_graph(const int *knn, int n, int k, double prune, int *start, int *adj,
                   double *w, int *iwork)
{
    int *inv_start = iwork, *inv = iwork + n + 1, *cnt = inv + (long)n * k,
        *touched = cnt + n;
    long pos = 0;
    int i, j, t, p, nt;

    /* the points whose neighbours include each point: inverted lists */
    for (i = 0; i <= n; i++) inv_start[i] = 0;
    for (i = 0; i < n; i++) cnt[i] = 0;
    for (long e = 0; e < (long)n * k; e++) inv_start[knn[e]]++; /* 1-based: slot j + 1 */
    for (i = 0; i < n; i++) inv_start[i + 1] += inv_start[i];
    for (i = 0; i < n; i++)
        for (t = 0; t < k; t++) {
            j = knn[(long)i * k + t] - 1;
            inv[inv_start[j] + cnt[j]++] = i;
        }
    for (i = 0; i < n; i++) cnt[i] = 0;
    for (i = 0; i < n; i++) {
        /* every point sharing a neighbour with i, counted once per neighbour shared */
        nt = 0;
        for (t = 0; t < k; t++) {
            j = knn[(long)i * k + t] - 1;
            for (p = inv_start[j]; p < inv_start[j + 1]; p++) {
                int l = inv[p];
                if (!cnt[l]++) touched[nt++] = l;
            }
        }
        if (start) start[i] = (int)pos;
        for (p = 0; p < nt; p++) {
            int l = touched[p];
            double s = cnt[l], jac = s / (2.0 * k - s);
            cnt[l] = 0;
            if (l == i || jac < prune) continue;
            if (start) {
                adj[pos] = l;
                w[pos] = jac;
            }
            pos++;
        }
    }
    if (start) start[n] = (int)pos;
    return pos;
}

/* One level of Louvain's local moving on a graph of N nodes (st, ad, wt; self: each node's
 * loop weight, its members' internal weight over ordered pairs; deg: each node's weighted
 * degree, loops included; m2: their sum): comm, each node's community (a node number),
 * moved until no move raises the modularity. tot, nw: N doubles of scratch; list: N ints.
 * Returns whether any node moved. */
static int local_moving(const int *st, const int *ad, const double *wt, const double *deg,
                        int N, double m2, double gamma, const int *order, int *comm,
                        double *tot, double *nw, int *list)
{
    int any = 0, moved, pass, idx, i, c, nl, p, best;
    double gain, best_gain;
    for (i = 0; i < N; i++) {
        comm[i] = i;
        tot[i] = deg[i];
        nw[i] = -1.0;
    }
    for (pass = 0; pass < 1000; pass++) { /* (a guard: each move raises the modularity) */
        moved = 0;
        for (idx = 0; idx < N; idx++) {
            i = order ? order[idx] : idx;
            c = comm[i];
            nl = 0;
            nw[c] = 0.0;
            list[nl++] = c;
            for (p = st[i]; p < st[i + 1]; p++) {
                int d = comm[ad[p]];
                if (ad[p] == i) continue;
                if (nw[d] < 0.0) {
                    nw[d] = 0.0;
                    list[nl++] = d;
                }
                nw[d] += wt[p];
            }
            tot[c] -= deg[i];
            best = c;
            best_gain = nw[c] - gamma * tot[c] * deg[i] / m2;
            for (p = 1; p < nl; p++) {
                gain = nw[list[p]] - gamma * tot[list[p]] * deg[i] / m2;
                if (gain > best_gain + 1e-12 * (1.0 + best_gain)) {
                    best_gain = gain;
                    best = list[p];
                }
            }
            tot[best] += deg[i];
            comm[i] = best;
            if (best != c) moved++;
            for (p = 0; p < nl; p++) nw[list[p]] = -1.0;
        }
        if (!moved) break;
        any = 1;
    }
    return any;
}

double som_louvain(const int *start, const int *adj, const double *w, int n,
                   double resolution, const int *order, int *membership, double *work,
                   int *iwork)
{
    const long e = start[n];
    double *deg = work, *self = work + n, *tot = work + 2 * n, *nw = work + 3 * n,
           *wbuf[2] = {work + 4 * n, work + 4 * n + e};
    int *sbuf[2] = {iwork, iwork + n + 1}, *comm = iwork + 2 * n + 2, *list = comm + n,
        *renum = list + n, *bycomm = renum + n, *abuf[2] = {bycomm + n, bycomm + n + e};
    const int *st = start, *ad = adj; /* the level's graph: the points', then a buffer's */
    const double *wt = w;
    double m2 = 0.0, q = 0.0;
    int N = n, level, i, c, C, p;

    for (i = 0; i < n; i++) {
        self[i] = 0.0;
        deg[i] = 0.0;
        for (p = start[i]; p < start[i + 1]; p++) deg[i] += w[p];
        m2 += deg[i];
        membership[i] = i;
    }
    if (m2 <= 0.0) {
        for (i = 0; i < n; i++) membership[i] = i + 1;
        return 0.0;
    }
    for (level = 0;; level++) {
        int *ns = sbuf[level % 2], *na = abuf[level % 2];
        double *nwt = wbuf[level % 2];
        long pos = 0;
        if (!local_moving(st, ad, wt, deg, N, m2, resolution, level ? NULL : order, comm, tot,
                          nw, list))
            break;
        /* the communities numbered by first appearance; the points follow their node */
        for (i = 0; i < N; i++) renum[i] = -1;
        for (C = 0, i = 0; i < N; i++)
            if (renum[comm[i]] < 0) renum[comm[i]] = C++;
        for (i = 0; i < N; i++) comm[i] = renum[comm[i]];
        for (i = 0; i < n; i++) membership[i] = comm[membership[i]];
        if (C == N) break;
        /* the nodes of each community (bycomm, from offsets renum[c]) */
        for (c = 0; c <= C; c++) renum[c] = 0;
        for (i = 0; i < N; i++) renum[comm[i] + 1]++;
        for (c = 0; c < C; c++) renum[c + 1] += renum[c];
        for (i = 0; i < N; i++) list[i] = 0;
        for (i = 0; i < N; i++) bycomm[renum[comm[i]] + list[comm[i]]++] = i;
        /* the aggregated graph: a node per community, its loop the weight within */
        for (c = 0; c < C; c++) nw[c] = -1.0;
        for (c = 0; c < C; c++) {
            int nl = 0, t;
            double within = 0.0;
            ns[c] = (int)pos;
            for (t = renum[c]; t < renum[c + 1]; t++) {
                i = bycomm[t];
                within += self[i];
                for (p = st[i]; p < st[i + 1]; p++) {
                    int d = comm[ad[p]];
                    if (d == c) {
                        within += wt[p];
                        continue;
                    }
                    if (nw[d] < 0.0) {
                        nw[d] = 0.0;
                        list[nl++] = d;
                    }
                    nw[d] += wt[p];
                }
            }
            for (t = 0; t < nl; t++) {
                na[pos] = list[t];
                nwt[pos++] = nw[list[t]];
                nw[list[t]] = -1.0;
            }
            tot[c] = within; /* (the new loops, kept apart until every community is read) */
        }
        ns[C] = (int)pos;
        for (c = 0; c < C; c++) {
            double dsum = 0.0;
            for (p = ns[c]; p < ns[c + 1]; p++) dsum += nwt[p];
            self[c] = tot[c];
            deg[c] = tot[c] + dsum;
        }
        st = ns;
        ad = na;
        wt = nwt;
        N = C;
    }
    /* numbered 1.. by first appearance among the points; the modularity on the first graph */
    for (i = 0; i < n; i++) renum[i] = -1;
    for (C = 0, i = 0; i < n; i++) {
        if (renum[membership[i]] < 0) renum[membership[i]] = C++;
        membership[i] = renum[membership[i]] + 1;
    }
    for (c = 0; c < C; c++) {
        tot[c] = 0.0;
        nw[c] = 0.0;
    }
    for (i = 0; i < n; i++) {
        double di = 0.0;
        for (p = start[i]; p < start[i + 1]; p++) {
            di += w[p];
            if (membership[adj[p]] == membership[i]) nw[membership[i] - 1] += w[p];
        }
        tot[membership[i] - 1] += di;
    }
    for (c = 0; c < C; c++) q += nw[c] / m2 - resolution * (tot[c] / m2) * (tot[c] / m2);
    return q;
}
