/* som_data.c: windows of rows of the data (som_data.h). */
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
    if (d->src->read == NULL) { /* held in memory: a view, within the rows held */
        if (first < d->src->held_first || rows < 0 ||
            first + rows > d->src->held_first + d->src->held_rows)
            return som_fail(st, SOM_ERR_INVALID, "rows beyond the range held in memory");
        w->x = d->src->held;
        w->ld = d->src->held_rows;
        w->first = d->src->held_first;
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
