/* som_file.c: a file-backed matrix (bigmemory's backing file: the values column-major, no
 * header) as a source of rows for the core (som_source) and as a sink for clusters
 * (som_sink). Read and written with stdio on the thread that drives the work, a column's
 * run of rows at a time; never mapped whole, so the process holds a window, not the file. */
#ifndef _WIN32
#define _FILE_OFFSET_BITS 64 /* 64-bit offsets in fseeko / ftello (before any header) */
#endif
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "som_file.h"

#ifdef _WIN32
#define som_fseek _fseeki64
#define som_ftell _ftelli64
typedef __int64 som_off;
#else
#include <sys/stat.h>
#include <sys/types.h>
#define som_fseek fseeko
#define som_ftell ftello
typedef off_t som_off;
#endif

/* Integers read per fread (a buffer on the stack). */
#define SOM_FILE_RUN 1024

static size_t value_bytes(int type)
{
    return type == SOM_FILE_DOUBLE ? sizeof(double) : sizeof(int);
}

/* Byte offset of row `row` (0-based, of the matrix described) in column k. */
static double offset_of(const som_file *fl, int k, int64_t row)
{
    const som_file_spec *sp = &fl->spec;
    return (sp->cols[k] * (double)sp->total_rows + (double)(sp->row_off + row)) *
           (double)value_bytes(sp->type);
}

static int seek_to(som_file *fl, int k, int64_t row, som_status *st)
{
    if (som_fseek(fl->f, (som_off)offset_of(fl, k, row), SEEK_SET) != 0)
        return som_fail(st, SOM_ERR_FILE, "could not seek in the backing file %s",
                        fl->spec.path);
    return SOM_OK;
}

/* A run of rows of each column, converted to double (NA integers to NaN) and prepared:
 * (x - center) / scale as R computes it, when scaling is given. */
static int file_read(som_source *src, int64_t first, int64_t rows, double *out, som_status *st)
{
    som_file *fl = (som_file *)src;
    int k, rc;
    int64_t i;
    if (first < 0 || rows < 0 || first + rows > fl->spec.n)
        return som_fail(st, SOM_ERR_INVALID, "rows beyond the file-backed matrix");
    for (k = 0; k < fl->spec.m; k++) {
        double *col = out + (size_t)k * rows;
        if ((rc = seek_to(fl, k, first, st))) return rc;
        if (fl->spec.type == SOM_FILE_DOUBLE) {
            if (fread(col, sizeof(double), (size_t)rows, fl->f) != (size_t)rows)
                return som_fail(st, SOM_ERR_FILE, "could not read the backing file %s",
                                fl->spec.path);
        } else { /* integers, a run at a time (NA: INT_MIN) */
            int iv[SOM_FILE_RUN];
            int64_t lo, j;
            for (lo = 0; lo < rows; lo += SOM_FILE_RUN) {
                const int64_t len = rows - lo < SOM_FILE_RUN ? rows - lo : SOM_FILE_RUN;
                if (fread(iv, sizeof(int), (size_t)len, fl->f) != (size_t)len)
                    return som_fail(st, SOM_ERR_FILE, "could not read the backing file %s",
                                    fl->spec.path);
                for (j = 0; j < len; j++) col[lo + j] = iv[j] == INT_MIN ? NAN : (double)iv[j];
            }
        }
        if (fl->spec.center) {
            const double c = fl->spec.center[k], s = fl->spec.scale[k];
            for (i = 0; i < rows; i++) col[i] = (col[i] - c) / s;
        }
    }
    return SOM_OK;
}

/* Map q's clusters (integers) of rows first .. first + rows - 1 into column q. */
static int file_write(som_sink *sink, int q, int64_t first, int64_t rows, const int *cl,
                      som_status *st)
{
    som_file *fl = (som_file *)((char *)sink - offsetof(som_file, sink));
    int rc;
    if (q >= fl->spec.m || first < 0 || first + rows > fl->spec.n)
        return som_fail(st, SOM_ERR_INVALID, "clusters beyond the file-backed matrix");
    if ((rc = seek_to(fl, q, first, st))) return rc;
    if (fwrite(cl, sizeof(int), (size_t)rows, fl->f) != (size_t)rows)
        return som_fail(st, SOM_ERR_FILE, "could not write the backing file %s",
                        fl->spec.path);
    return SOM_OK;
}

int som_file_open(som_file *fl, const som_file_spec *spec, int writable, som_status *st)
{
    double bytes;
    int k;
    memset(fl, 0, sizeof *fl);
    fl->src.read = file_read;
    fl->sink.write = file_write;
    fl->spec = *spec;
    if (writable && spec->type != SOM_FILE_INT)
        return som_fail(st, SOM_ERR_INVALID, "clusters go to an integer matrix");
#ifndef _WIN32
    {
        struct stat sb;
        if (stat(spec->path, &sb) == 0 && !S_ISREG(sb.st_mode))
            return som_fail(st, SOM_ERR_FILE, "the backing file %s is not a file (a folder?)",
                            spec->path);
    }
#endif
    errno = 0;
    fl->f = fopen(spec->path, writable ? "r+b" : "rb");
    if (fl->f == NULL)
        return som_fail(st, SOM_ERR_FILE, "could not open the backing file %s%s%s%s",
                        spec->path, errno ? " (" : "", errno ? strerror(errno) : "",
                        errno ? ")" : "");
    /* the file must hold the matrix: the last value of its last column readable */
    for (k = 0, bytes = 0; k < fl->spec.m; k++)
        if (offset_of(fl, k, fl->spec.n - 1) + (double)value_bytes(fl->spec.type) > bytes)
            bytes = offset_of(fl, k, fl->spec.n - 1) + (double)value_bytes(fl->spec.type);
    if (som_fseek(fl->f, 0, SEEK_END) != 0 || (double)som_ftell(fl->f) < bytes)
        return som_fail(st, SOM_ERR_FILE,
                        "the backing file %s is shorter than its matrix (%.0f bytes)",
                        spec->path, bytes);
    return SOM_OK;
}

int som_file_finish(som_file *fl, som_status *st)
{
    const int bad = fl->f && (fflush(fl->f) != 0 || ferror(fl->f));
    const int closed = fl->f == NULL || fclose(fl->f) == 0;
    fl->f = NULL;
    if (bad || !closed)
        return som_fail(st, SOM_ERR_FILE, "could not write the file %s (is the disk full?)",
                        fl->spec.path);
    return SOM_OK;
}

void som_file_close(som_file *fl)
{
    if (fl->f) fclose(fl->f);
    fl->f = NULL;
}
