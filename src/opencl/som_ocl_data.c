/* som_ocl_data.c: the data on the device (with views, every view's rows one view after the
 * other), row-major in the device's precision, in chunks of whole rows: resident (a buffer per chunk, uploaded once) or streamed (one buffer, filled
 * with each chunk when its turn comes, for data that do not leave room for the rest); and
 * their distance: on the general path, the column weights (missing values stay NaN). */
#ifdef SOMGPU_HAVE_OPENCL
#include <stdlib.h>
#include <string.h>

#include "som_ocl_internal.h"

/* Rows first .. first + rows - 1 of the data, row-major, in the device's precision (from a
 * source, a window of rows at a time). */
static int stage_rows(som_ocl_data *d, int prec, int64_t first, int64_t rows, void *out,
                      som_status *st)
{
    const som_problem *p = d->p;
    const som_data *data = &p->data;
    const int m = data->m;
    const int64_t step = data->src ? d->window_rows : rows;
    int64_t lo, i;
    int k, rc;
    if (p->view) { /* views (in memory): row r is row r % n of view r / n */
        for (i = 0; i < rows; i++) {
            const int64_t r = first + i;
            const som_data *v = p->views + r / data->n;
            for (k = 0; k < m; k++)
                som_ocl_put(out, (size_t)i * m + k, v->x[(size_t)k * data->n + r % data->n], prec);
        }
        return SOM_OK;
    }
    for (lo = 0; lo < rows; lo += step) {
        const int64_t len = rows - lo < step ? rows - lo : step;
        som_window win;
        if ((rc = som_window_load(data, first + lo, len, d->window, &win, st))) return rc;
        for (k = 0; k < m; k++) {
            const double *col = som_window_col(&win, k, first + lo);
            for (i = 0; i < len; i++) som_ocl_put(out, (size_t)(lo + i) * m + k, col[i], prec);
        }
    }
    return SOM_OK;
}

static int64_t chunk_len(const som_ocl_data *d, int64_t c)
{
    const int64_t first = c * d->chunk_rows, n = som_view_rows(d->p);
    return n - first < d->chunk_rows ? n - first : d->chunk_rows;
}

int som_ocl_data_open(som_ocl_ctx *ctx, const som_problem *p, int64_t chunk_rows,
                      int streamed, som_ocl_data *d, som_status *st)
{
    const size_t bytes = (size_t)chunk_rows * p->data.m * som_ocl_real(ctx);
    int i, rc;
    memset(d, 0, sizeof *d);
    d->p = p;
    d->chunk_rows = chunk_rows;
    d->nchunks = (som_view_rows(p) + chunk_rows - 1) / chunk_rows;
    d->streamed = streamed;
    d->xs = calloc(streamed ? 1 : (size_t)d->nchunks, sizeof *d->xs);
    d->stage = malloc(bytes);
    if (!d->xs || !d->stage)
        return som_fail(st, SOM_ERR_NOMEM, "out of host memory preparing the OpenCL run");
    d->nxs = streamed ? 1 : (int)d->nchunks; /* som_ocl_data_close walks what exists */
    if (p->data.src) {
        d->window_rows = som_window_blocks(1, p->data.m, chunk_rows, 1);
        d->window = malloc((size_t)d->window_rows * p->data.m * sizeof *d->window);
        if (!d->window)
            return som_fail(st, SOM_ERR_NOMEM, "out of host memory preparing the OpenCL run");
    }
    d->general = som_data_general(&p->data);
    if (d->general) { /* the column weights, in the device's precision */
        const int m = p->data.m;
        void *cw = malloc((size_t)m * som_ocl_real(ctx));
        int k;
        if (!cw) return som_fail(st, SOM_ERR_NOMEM, "out of host memory preparing the OpenCL run");
        for (k = 0; k < m; k++)
            som_ocl_put(cw, (size_t)k, p->data.col_w ? p->data.col_w[k] : 1, ctx->precision);
        rc = som_ocl_buffer(ctx, &d->colw, CL_MEM_READ_ONLY, (size_t)m * som_ocl_real(ctx), cw, st);
        free(cw);
        if (rc) return rc;
    }
    for (i = 0; i < d->nxs; i++) {
        if (!streamed && (rc = stage_rows(d, ctx->precision, (int64_t)i * chunk_rows,
                                          chunk_len(d, i), d->stage, st)))
            return rc;
        if ((rc = som_ocl_buffer(ctx, &d->xs[i], CL_MEM_READ_ONLY, bytes,
                                 streamed ? NULL : d->stage, st)))
            return rc;
    }
    if (!streamed) { /* on the device for good: the host copy is no longer needed */
        free(d->stage);
        d->stage = NULL;
    }
    return SOM_OK;
}

int som_ocl_data_chunk(som_ocl_ctx *ctx, som_ocl_data *d, int64_t c, cl_mem *x,
                       int64_t *first, int64_t *rows, som_status *st)
{
    int rc;
    *first = c * d->chunk_rows;
    *rows = chunk_len(d, c);
    *x = d->xs[d->streamed ? 0 : c];
    if (!d->streamed) return SOM_OK;
    if ((rc = stage_rows(d, ctx->precision, *first, *rows, d->stage, st))) return rc;
    return som_ocl_write(ctx, *x, CL_TRUE, (size_t)*rows * d->p->data.m * som_ocl_real(ctx),
                         d->stage, st);
}

void som_ocl_data_close(som_ocl_data *d)
{
    int i;
    for (i = 0; i < d->nxs; i++) som_ocl_release(&d->xs[i]);
    som_ocl_release(&d->colw);
    free(d->xs);
    free(d->stage);
    free(d->window);
    memset(d, 0, sizeof *d);
}

#else
typedef int som_ocl_data_unused; /* without OpenCL: nothing here (ISO C wants a declaration) */
#endif /* SOMGPU_HAVE_OPENCL */
