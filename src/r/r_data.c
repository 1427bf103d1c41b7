/* r_data.c: the data as the core reads them, from R: a double matrix in memory, or a
 * file-backed matrix (R's somgpu_file list, see R/data_file.R) read a window at a time; and
 * the passes over the data that R asks for (the scan of the values, column statistics),
 * written once for both. */
#include <stdlib.h>
#include <string.h>

#include <R.h>

#include "r_glue.h"

static const char *const file_types[] = {"double", "integer", NULL};

/* A somgpu_file list as the core's description of the file (R's strings and vectors:
 * valid while the list is). */
static void file_desc_of(SEXP y, som_file_spec *fs)
{
    SEXP center = r_opt(y, "center"), scale = r_opt(y, "scale"), path = r_elt(y, "path"), cols;
    memset(fs, 0, sizeof *fs);
    if (!Rf_isString(path) || XLENGTH(path) != 1)
        Rf_error("somgpu: internal error: a file's path must be a string");
    fs->path = Rf_translateChar(STRING_ELT(path, 0));
    fs->type = r_choice(y, "type", file_types) == 0 ? SOM_FILE_DOUBLE : SOM_FILE_INT;
    fs->total_rows = (int64_t)r_real(y, "total_rows");
    fs->row_off = (int64_t)r_real(y, "row_off");
    cols = r_elt(y, "cols");
    fs->n = (int64_t)r_real(y, "n");
    fs->m = r_int(y, "m");
    if (TYPEOF(cols) != REALSXP || XLENGTH(cols) != fs->m)
        Rf_error("somgpu: internal error: a file's columns must be a double per column");
    fs->cols = REAL(cols);
    if (!Rf_isNull(center)) {
        if (TYPEOF(center) != REALSXP || TYPEOF(scale) != REALSXP || XLENGTH(center) != fs->m ||
            XLENGTH(scale) != fs->m)
            Rf_error("somgpu: internal error: a file's scaling must hold a double per column");
        fs->center = REAL(center);
        fs->scale = REAL(scale);
    }
}

void r_data_of(SEXP y, SEXP dist, r_data *rd)
{
    som_data *d = &rd->d;
    memset(rd, 0, sizeof *rd);
    if (TYPEOF(y) == VECSXP) {
        file_desc_of(y, &rd->desc);
        rd->is_file = 1;
        d->n = rd->desc.n;
        d->m = rd->desc.m;
    } else {
        SEXP dim = Rf_getAttrib(y, R_DimSymbol);
        if (TYPEOF(y) != REALSXP || Rf_length(dim) != 2)
            Rf_error("somgpu: internal error: the data must be a double matrix or a file");
        d->x = REAL(y);
        d->n = INTEGER(dim)[0];
        d->m = INTEGER(dim)[1];
    }
    if (dist != R_NilValue) {
        SEXP cw = r_elt(dist, "col_w");
        d->missing = r_flag(dist, "missing");
        if (!Rf_isNull(cw)) {
            if (TYPEOF(cw) != REALSXP || XLENGTH(cw) != d->m)
                Rf_error("somgpu: internal error: col_w must hold a double per column");
            d->col_w = REAL(cw);
        }
    }
}

void r_views_of(SEXP data, SEXP problem, som_problem *p)
{
    SEXP view = r_elt(problem, "view"), seeds = r_elt(problem, "seeds");
    const int nv = TYPEOF(data) == VECSXP ? LENGTH(data) : 0;
    som_data *views;
    uint32_t *sv;
    int v;
    if (nv < 1 || TYPEOF(view) != INTSXP || LENGTH(view) != p->nmaps ||
        TYPEOF(seeds) != REALSXP || LENGTH(seeds) != nv)
        Rf_error("somgpu: internal error: views need a list of matrices, a view per map and a seed per view");
    views = (som_data *)R_alloc((size_t)nv, sizeof *views);
    sv = (uint32_t *)R_alloc((size_t)nv, sizeof *sv);
    for (v = 0; v < nv; v++) {
        r_data rv;
        if (TYPEOF(VECTOR_ELT(data, v)) != REALSXP)
            Rf_error("somgpu: internal error: a view must be a double matrix");
        r_data_of(VECTOR_ELT(data, v), problem, &rv);
        views[v] = rv.d;
        sv[v] = (uint32_t)(int64_t)REAL(seeds)[v];
    }
    p->nviews = nv;
    p->views = views;
    p->seeds = sv;
    p->view = INTEGER(view);
    p->data = views[0];
}

int r_data_open(r_data *rd, som_status *st)
{
    int rc;
    if (!rd->is_file) return SOM_OK;
    rc = som_file_open(&rd->file, &rd->desc, 0, st);
    if (rc == SOM_OK) rd->d.src = &rd->file.src;
    return rc;
}

void r_data_close(r_data *rd)
{
    som_file_close(&rd->file);
    rd->d.src = NULL;
}

/* The rows of d a window at a time (SOM_WINDOW_BYTES): fn(ud, window, first, rows) for each
 * in row order. */
static int each_window(const som_data *d, double *buf, int64_t step,
                       void (*fn)(void *ud, const som_window *w, int64_t first, int64_t rows),
                       void *ud, som_status *st)
{
    int64_t first;
    int rc;
    for (first = 0; first < d->n; first += step) {
        const int64_t rows = d->n - first < step ? d->n - first : step;
        som_window w;
        if ((rc = som_window_load(d, first, rows, buf, &w, st))) return rc;
        fn(ud, &w, first, rows);
    }
    return SOM_OK;
}

/* Run fn over the windows of the data y (a matrix, or a file opened here and closed on
 * every path); SOM_OK or a status code with st set. */
static int over_data(SEXP y, void (*fn)(void *, const som_window *, int64_t, int64_t), void *ud,
                     som_status *st)
{
    r_data rd;
    double *buf = NULL;
    int64_t step;
    int rc;
    r_data_of(y, R_NilValue, &rd);
    step = rd.is_file ? som_window_blocks(1, rd.d.m, rd.d.n, 1) : rd.d.n;
    if (rd.is_file && !(buf = malloc((size_t)step * rd.d.m * sizeof *buf)))
        return som_fail(st, SOM_ERR_NOMEM, "could not allocate memory to read the data");
    rc = r_data_open(&rd, st);
    if (rc == SOM_OK) rc = each_window(&rd.d, buf, step, fn, ud, st);
    r_data_close(&rd);
    free(buf);
    return rc;
}

/* --- the scan -------------------------------------------------------------------- */

typedef struct {
    int m;
    double inf, missing, big;
    int64_t first;        /* the first row with an infinite value, -1: none          */
    int *per_row;         /* NULL, or (a second pass) missing values by row          */
    const int *counted;   /* NULL, or per column whether it counts in the distance   */
    int *per_row_counted; /* NULL, or (a second pass) missing counted values by row  */
    double *observed;     /* per column, its observed values                         */
} scan_ud;

static void scan_window(void *ud_, const som_window *w, int64_t first, int64_t rows)
{
    scan_ud *s = ud_;
    int64_t i;
    int k;
    for (k = 0; k < s->m; k++) {
        const double *col = som_window_col(w, k, first);
        double missing = 0;
        for (i = 0; i < rows; i++) {
            double a = col[i];
            if (ISNAN(a)) {
                missing++;
                if (s->per_row) s->per_row[first + i]++;
                if (s->per_row_counted && s->counted[k]) s->per_row_counted[first + i]++;
            } else if (!R_FINITE(a)) {
                s->inf++;
                if (s->first < 0 || first + i < s->first) s->first = first + i;
            } else {
                a = a < 0 ? -a : a;
                if (a > s->big) s->big = a;
            }
        }
        s->missing += missing;
        s->observed[k] += (double)rows - missing;
    }
}

/* One pass over the data (a double matrix or a somgpu_file): the number of infinite values
 * and the first row (1-based) holding one (NA when none), the number of missing values
 * (NA, NaN), each column's observed values (Inf counted, as !is.na() does) and, when there
 * are missing values, the missing values of every row (else NULL; a second
 * pass, after R has allocated them, with no file open) and, with counted (NULL or a
 * logical per column: the columns that count in the distance), every row's missing values
 * among those columns; and the largest absolute finite value. Or a somgpu_status (a file
 * that cannot be read). */
SEXP C_data_scan(SEXP x, SEXP counted)
{
    const char *names[] = {"infinite", "first_row", "missing", "row_missing", "max_abs",
                           "row_missing_counted", "column_observed", ""};
    SEXP out = PROTECT(Rf_mkNamed(VECSXP, names));
    scan_ud s;
    som_status st;
    r_data rd;
    int *per_row = NULL, *per_row_counted = NULL, pass;
    double *observed;
    r_data_of(x, R_NilValue, &rd);
    if (!Rf_isNull(counted) && (TYPEOF(counted) != LGLSXP || XLENGTH(counted) != rd.d.m))
        Rf_error("somgpu: internal error: counted must hold a logical per column");
    som_status_init(&st);
    SET_VECTOR_ELT(out, 6, Rf_allocVector(REALSXP, rd.d.m));
    observed = REAL(VECTOR_ELT(out, 6));
    for (pass = 0; pass < 2; pass++) { /* the second, with missing values: by row too */
        memset(&s, 0, sizeof s);
        memset(observed, 0, (size_t)rd.d.m * sizeof *observed);
        s.observed = observed;
        s.m = rd.d.m;
        s.first = -1;
        s.per_row = per_row;
        s.counted = Rf_isNull(counted) ? NULL : LOGICAL(counted);
        s.per_row_counted = per_row_counted;
        if (over_data(x, scan_window, &s, &st) != SOM_OK) {
            UNPROTECT(1);
            return status_out(&st, R_NilValue);
        }
        if (per_row || s.missing == 0) break;
        SET_VECTOR_ELT(out, 3, Rf_allocVector(INTSXP, (R_xlen_t)rd.d.n));
        per_row = INTEGER(VECTOR_ELT(out, 3));
        memset(per_row, 0, (size_t)rd.d.n * sizeof(int));
        if (!Rf_isNull(counted)) {
            SET_VECTOR_ELT(out, 5, Rf_allocVector(INTSXP, (R_xlen_t)rd.d.n));
            per_row_counted = INTEGER(VECTOR_ELT(out, 5));
            memset(per_row_counted, 0, (size_t)rd.d.n * sizeof(int));
        }
    }
    SET_VECTOR_ELT(out, 0, Rf_ScalarReal(s.inf));
    SET_VECTOR_ELT(out, 1, Rf_ScalarReal(s.first < 0 ? NA_REAL : (double)s.first + 1));
    SET_VECTOR_ELT(out, 2, Rf_ScalarReal(s.missing));
    SET_VECTOR_ELT(out, 4, Rf_ScalarReal(s.big));
    UNPROTECT(1);
    return out;
}

/* --- column statistics ------------------------------------------------------------ */

typedef struct {
    int m;
    const double *center; /* NULL: the means only */
    double *count;
    long double *sum, *ss;
} stats_ud;

static void stats_window(void *ud_, const som_window *w, int64_t first, int64_t rows)
{
    stats_ud *s = ud_;
    int64_t i;
    int k;
    for (k = 0; k < s->m; k++) {
        const double *col = som_window_col(w, k, first);
        long double sum = s->sum[k], ss = s->ss[k];
        double cnt = s->count[k];
        for (i = 0; i < rows; i++) {
            if (ISNAN(col[i])) continue;
            cnt++;
            sum += col[i];
            if (s->center) {
                const double v = col[i] - s->center[k]; /* as R: v <- x - center; sum(v^2) */
                ss += v * v;
            }
        }
        s->sum[k] = sum;
        s->ss[k] = ss;
        s->count[k] = cnt;
    }
}

/* Per column of the data, over its observed values: the count, the mean as
 * colMeans(na.rm = TRUE) computes it (a long double sum in row order, divided there), and
 * with center (NULL or a double per column) the sum of squared differences from it as
 * sum((x - center)^2) computes it. One pass, whatever holds the data; or a somgpu_status. */
SEXP C_column_stats(SEXP x, SEXP center)
{
    const char *names[] = {"count", "mean", "ss", ""};
    SEXP out = PROTECT(Rf_mkNamed(VECSXP, names));
    stats_ud s;
    som_status st;
    r_data rd;
    int k;
    r_data_of(x, R_NilValue, &rd);
    memset(&s, 0, sizeof s);
    s.m = rd.d.m;
    if (!Rf_isNull(center)) {
        if (TYPEOF(center) != REALSXP || XLENGTH(center) != s.m)
            Rf_error("somgpu: internal error: center must hold a double per column");
        s.center = REAL(center);
    }
    SET_VECTOR_ELT(out, 0, Rf_allocVector(REALSXP, s.m));
    SET_VECTOR_ELT(out, 1, Rf_allocVector(REALSXP, s.m));
    SET_VECTOR_ELT(out, 2, Rf_allocVector(REALSXP, s.m));
    s.count = REAL(VECTOR_ELT(out, 0));
    s.sum = (long double *)R_alloc((size_t)s.m, sizeof(long double));
    s.ss = (long double *)R_alloc((size_t)s.m, sizeof(long double));
    for (k = 0; k < s.m; k++) s.count[k] = 0, s.sum[k] = 0, s.ss[k] = 0;
    som_status_init(&st);
    if (over_data(x, stats_window, &s, &st) != SOM_OK) {
        UNPROTECT(1);
        return status_out(&st, R_NilValue);
    }
    for (k = 0; k < s.m; k++) {
        long double mean = s.sum[k];
        mean /= s.count[k];
        REAL(VECTOR_ELT(out, 1))[k] = (double)mean;
        REAL(VECTOR_ELT(out, 2))[k] = s.center ? (double)s.ss[k] : NA_REAL;
    }
    UNPROTECT(1);
    return out;
}

/* (x - center[k]) / scale[k] for every value of column k of the double matrix x (center and
 * scale a double per column), in a copy with x's attributes: the arithmetic of R's
 * x[] <- (x - center) / scale with the values repeated down the columns, one copy of x
 * where R's made four. */
SEXP C_scale_columns(SEXP x, SEXP center, SEXP scale)
{
    const R_xlen_t n = Rf_nrows(x);
    const int m = Rf_ncols(x);
    SEXP out;
    const double *xv, *c = REAL(center), *sc = REAL(scale);
    double *o;
    R_xlen_t i;
    int k;
    if (TYPEOF(x) != REALSXP || TYPEOF(center) != REALSXP || TYPEOF(scale) != REALSXP ||
        XLENGTH(center) != m || XLENGTH(scale) != m)
        Rf_error("somgpu: internal error: scale a double matrix by a double per column");
    out = PROTECT(Rf_allocVector(REALSXP, XLENGTH(x)));
    xv = REAL(x);
    o = REAL(out);
    for (k = 0; k < m; k++) {
        const double ck = c[k], sk = sc[k];
        for (i = 0; i < n; i++) o[(size_t)k * n + i] = (xv[(size_t)k * n + i] - ck) / sk;
    }
    DUPLICATE_ATTRIB(out, x);
    UNPROTECT(1);
    return out;
}
