/* som_problem.c: a family's check, its maps' initial weights and the layouts weights
 * travel in (som_problem.h). */
#include <math.h>
#include <string.h>

#include "som_problem.h"
#include "som_rng.h"

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
