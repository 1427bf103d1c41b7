/* som_data.c: windows of rows of the data (som_data.h). */
#include <string.h>

#include "som_data.h"

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

static int held_read(som_source *src, int64_t first, int64_t rows, double *out, som_status *st)
{
    const som_held *h = (const som_held *)src;
    int k;
    if (first < h->first || rows < 0 || first + rows > h->first + h->rows)
        return som_fail(st, SOM_ERR_INVALID, "rows beyond the range held in memory");
    for (k = 0; k < h->m; k++)
        memcpy(out + (size_t)k * rows, h->x + (size_t)k * h->rows + (first - h->first),
               (size_t)rows * sizeof(double));
    return SOM_OK;
}

void som_held_init(som_held *h, const double *x, int64_t first, int64_t rows, int m)
{
    h->src.read = held_read;
    h->x = x;
    h->first = first;
    h->rows = rows;
    h->m = m;
}
