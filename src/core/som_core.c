/* som_core.c: what every backend shares: status, schedules and neighbourhood factors,
 * initial weights, layouts, the family's shape for memory plans. */
#define _POSIX_C_SOURCE 200809L /* clock_gettime */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#ifdef _WIN32
#include <windows.h>
#endif

#include "som_core.h"
#include "som_rng.h"

/* The schedules of the original script, with its operation order:
 * sigma_t = sigma0 - sigma0 / (iter_max + 1) * t, likewise eta_t. */
double som_sigma(const som_problem *p, int map, int t)
{
    const double s0 = p->sigma0[map];
    return s0 - (s0 / (p->iter_max + 1.0)) * t;
}

double som_eta(const som_problem *p, int t)
{
    return p->eta0 - (p->eta0 / (p->iter_max + 1.0)) * t;
}

int som_schedules(const som_problem *p, int *sched)
{
    int i, j, n = 0;
    for (i = 0; i < p->nmaps; i++) {
        for (j = 0; j < i && p->sigma0[j] != p->sigma0[i]; j++) {}
        sched[i] = j < i ? sched[j] : n++;
    }
    return n;
}

void som_neighbourhood_row(const som_problem *p, int map, int t, int dmax, double *row)
{
    double sigma = som_sigma(p, map, t), eta = p->algorithm == SOM_BATCH ? 1.0 : som_eta(p, t);
    double s2 = 2.0 * (sigma * sigma);
    int d;
    row[0] = eta; /* exp(-0 / s2) = 1 exactly, also when s2 underflows to 0 */
    for (d = 1; d <= dmax; d++) {
        double h = eta * exp(-((double)d * d) / s2);
        row[d] = h < SOM_FACTOR_MIN ? 0 : h;
    }
}

#define SOM_CIRC(NAME, REAL)                                                               \
    void NAME(const double *row, int size, REAL *circ)                                     \
    {                                                                                      \
        int i;                                                                             \
        for (i = 0; i < size; i++)                                                         \
            circ[i] = circ[size + i] = (REAL)row[i < size - i ? i : size - i];             \
    }
SOM_CIRC(som_neighbourhood_circ, double)
SOM_CIRC(som_neighbourhood_circ_f, float)

void som_status_init(som_status *st)
{
    st->code = SOM_OK;
    st->api_status = 0;
    st->message[0] = '\0';
    st->log = NULL;
}

void som_status_clear(som_status *st)
{
    free(st->log);
    som_status_init(st);
}

int som_fail(som_status *st, int code, const char *fmt, ...)
{
    va_list ap;
    st->code = code;
    va_start(ap, fmt);
    vsnprintf(st->message, sizeof st->message, fmt, ap);
    va_end(ap);
    return code;
}

/* Views of one shape, in memory, each map's in range, a view's maps consecutive, and no
 * more rows in all than a visiting order can number (32 bits). */
static int check_views(const som_problem *p, som_status *st)
{
    int i, v;
    if (p->nviews < 1 || p->views == NULL || p->seeds == NULL ||
        (double)p->data.n * p->nviews > 4294967295.0)
        return som_fail(st, SOM_ERR_INVALID, "invalid views");
    for (v = 0; v < p->nviews; v++) {
        const som_data *d = p->views + v;
        if (d->x == NULL || d->src != NULL || d->n != p->data.n || d->m != p->data.m ||
            d->col_w != p->data.col_w || d->missing != p->data.missing)
            return som_fail(st, SOM_ERR_INVALID, "view %d: not of the family's shape", v + 1);
    }
    for (i = 0; i < p->nmaps; i++)
        if (p->view[i] < 0 || p->view[i] >= p->nviews || (i > 0 && p->view[i] < p->view[i - 1]))
            return som_fail(st, SOM_ERR_INVALID, "map %d: invalid view", i + 1);
    return SOM_OK;
}

int som_check_problem(const som_problem *p, som_status *st)
{
    int i;
    if ((p->data.x == NULL) == (p->data.src == NULL) || p->data.n < 2 || p->data.m < 1 || p->data.n > 2147483647)
        return som_fail(st, SOM_ERR_INVALID, "data must have 2 to 2^31-1 rows and at least 1 column");
    if (p->nmaps < 1 || p->size == NULL || p->restart == NULL)
        return som_fail(st, SOM_ERR_INVALID, "no maps to train");
    if (p->iter_max < 1 || !(p->eta0 > 0) || !isfinite(p->eta0) || p->sigma0 == NULL)
        return som_fail(st, SOM_ERR_INVALID, "invalid schedule parameters");
    for (i = 0; i < p->nmaps; i++) {
        if (!(p->sigma0[i] > 0) || !isfinite(p->sigma0[i]))
            return som_fail(st, SOM_ERR_INVALID, "map %d: invalid sigma0", i + 1);
        if (p->size[i] < 2 || p->restart[i] < 0)
            return som_fail(st, SOM_ERR_INVALID, "map %d: invalid size or restart", i + 1);
        if (p->init == SOM_INIT_SAMPLE && (int64_t)p->size[i] > p->data.n)
            return som_fail(st, SOM_ERR_INVALID,
                            "init 'sample' needs at least %d rows for a ring of %d neurons",
                            p->size[i], p->size[i]);
        if (p->init == SOM_INIT_GIVEN && p->init_w == NULL)
            return som_fail(st, SOM_ERR_INVALID, "map %d: missing initial weights", i + 1);
    }
    if (p->algorithm != SOM_ONLINE && p->algorithm != SOM_BATCH)
        return som_fail(st, SOM_ERR_INVALID, "unknown algorithm");
    if (p->algorithm == SOM_ONLINE && p->data.src != NULL)
        return som_fail(st, SOM_ERR_INVALID, "online training needs the data in memory");
    if (p->algorithm == SOM_BATCH && p->batch_block < 1)
        return som_fail(st, SOM_ERR_INVALID, "invalid batch block size");
    return p->view ? check_views(p, st) : SOM_OK;
}

void som_rowmajor_weights(const double *colmajor, int size, int m, double *rowmajor)
{
    int j, k;
    for (k = 0; k < m; k++)
        for (j = 0; j < size; j++) rowmajor[(size_t)j * m + k] = colmajor[(size_t)k * size + j];
}

void som_tile_colmajor(const double *colmajor, int size, int m, int ld, double *tiled)
{
    int k;
    for (k = 0; k < m; k++)
        memcpy(tiled + (size_t)k * ld, colmajor + (size_t)k * size, (size_t)size * sizeof *tiled);
}

int som_init_map(const som_problem *p, int i, double *w, uint32_t *scratch, som_status *st)
{
    const som_data *data = som_map_data(p, i);
    const uint32_t seed = som_map_seed(p, i);
    int size = p->size[i], m = p->data.m, j;
    uint32_t restart = (uint32_t)p->restart[i];
    switch (p->init == SOM_INIT_GIVEN && p->init_w[i] == NULL ? SOM_INIT_UNIFORM : p->init) {
    case SOM_INIT_GIVEN:
        som_rowmajor_weights(p->init_w[i], size, m, w);
        break;
    case SOM_INIT_SAMPLE:
        /* distinct rows: the first `size` elements of a random order of the rows */
        som_order(scratch, (som_u32)data->n, seed, SOM_STREAM_SAMPLE, (som_u32)size, restart,
                  0);
        for (j = 0; j < size; j++) {
            double *wj = w + (size_t)j * m;
            int k, rc;
            som_window win;
            if ((rc = som_window_load(data, scratch[j], 1, wj, &win, st))) return rc;
            for (k = 0; k < m; k++) { /* wj may be the window itself: read before write */
                const double v = som_window_col(&win, k, scratch[j])[0];
                wj[k] = p->fill && isnan(v) ? p->fill[k] : v;
            }
        }
        break;
    default: {
        size_t e, ne = (size_t)size * m;
        for (e = 0; e < ne; e++)
            w[e] = som_init_uniform(seed, (som_u32)size, restart, (som_u64)e);
    }
    }
    return SOM_OK;
}

int som_window_load(const som_data *d, int64_t first, int64_t rows, double *buf,
                    som_window *w, som_status *st)
{
    if (d->src == NULL) {
        w->x = d->x;
        w->ld = d->n;
        w->first = 0;
        return SOM_OK;
    }
    w->x = buf;
    w->ld = rows;
    w->first = first;
    return d->src->read(d->src, first, rows, buf, st);
}

int64_t som_window_blocks(int sourced, int m, int64_t per_round, int64_t block)
{
    int64_t most;
    if (!sourced) return per_round;
    most = (int64_t)(SOM_WINDOW_BYTES / ((double)block * m * sizeof(double)));
    if (most < 1) most = 1;
    return per_round < most ? per_round : most;
}

void som_split_maps(const int *size, int nmaps, int ngroups, int *start)
{
    double per = 0, acc = 0;
    int i, g = 1;
    for (i = 0; i < nmaps; i++) per += size[i];
    per /= ngroups;
    start[0] = 0;
    for (i = 0; i < nmaps && g < ngroups; i++) {
        acc += size[i];
        if (acc >= per * g) start[g++] = i + 1;
    }
    while (g <= ngroups) start[g++] = nmaps;
}

int som_map_groups(int64_t blocks_per_round, int nthreads, int nmaps)
{
    int64_t g = blocks_per_round >= 2 * (int64_t)nthreads
                    ? 1 : (2 * (int64_t)nthreads + blocks_per_round - 1) / blocks_per_round;
    return (int)(g < nmaps ? g : nmaps);
}

void som_family_of(const som_problem *p, som_family *f)
{
    int i, r = 1;
    memset(f, 0, sizeof *f);
    f->n = p->data.n;
    f->m = p->data.m;
    f->nmaps = p->nmaps;
    for (i = 0; i < p->nmaps; i++) {
        f->size_sum += p->size[i];
        if (p->size[i] > f->size_max) f->size_max = p->size[i];
        if (p->restart[i] + 1 > r) r = p->restart[i] + 1;
    }
    f->restarts = r < p->nmaps ? r : p->nmaps;
    for (i = 0; i < p->nmaps; i++) { /* as som_schedules counts them */
        int j;
        for (j = 0; j < i && p->sigma0[j] != p->sigma0[i]; j++) {}
        f->schedules += j == i;
    }
    f->passes = p->iter_max > 1 ? p->iter_max - 1 : 0;
    f->trace = p->trace != NULL;
    f->batch_block = p->batch_block;
    f->general = som_data_general(&p->data);
    f->sourced = p->data.src != NULL;
    f->views = p->view ? p->nviews : 1;
}

void *som_alloc(double count, size_t size)
{
    if (!(count >= 0) || count * (double)size >= (double)SIZE_MAX) return NULL;
    return malloc((size_t)count * size + (count == 0)); /* never malloc(0): NULL is failure */
}

void som_plan_add(som_plan *plan, const char *what, double bytes, int where)
{
    if (plan == NULL || plan->count >= SOM_PLAN_MAX || !(bytes > 0)) return;
    plan->buf[plan->count].what = what;
    plan->buf[plan->count].bytes = bytes;
    plan->buf[plan->count].where = where;
    plan->count++;
}


/* Seconds on a monotonic clock (for time limits and rate limits, not for dates). */
#ifdef _WIN32
double som_now_seconds(void)
{
    LARGE_INTEGER f, c;
    QueryPerformanceFrequency(&f);
    QueryPerformanceCounter(&c);
    return (double)c.QuadPart / (double)f.QuadPart;
}
#else
double som_now_seconds(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}
#endif
