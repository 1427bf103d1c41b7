/* som_real.h: the precision a CPU engine is compiled for. The engines are written once
 * (som_cpu_online_t.h, som_cpu_batch_t.h) in terms of the names below, and compiled twice:
 * som_cpu_online.c and som_cpu_batch.c in double precision, som_cpu_online_f.c and
 * som_cpu_batch_f.c with SOM_SINGLE_PRECISION defined, in single precision (the data, the
 * weights, the factors and every sum in float, as the OpenCL backend's single precision;
 * the results are read back as doubles); som_cpu_online_w.c, with SOM_WIDE_LANES, in
 * double precision with packs of 8 maps (an AVX-512 register) in place of 4. The names are PREC_*: the precision's block sizes,
 * searches and symbols (nothing here is R's: this layer never includes R's headers). */
#ifndef SOM_REAL_H
#define SOM_REAL_H

#include "som_schedule.h"
#include "som_tile.h"
#include "som_vec.h"

#ifdef SOM_SINGLE_PRECISION
typedef float som_real;
#define PREC_JB SOM_JB_F                     /* neurons per block, one map alone           */
#define PREC_PB SOM_PB_F                     /* rows per tile of the batch winners         */
#define PREC_TILE_D2 som_tile_d2_f
#define PREC_TILE_D2_GENERAL som_tile_d2_general_f
#define PREC_BT SOM_BT_F                     /* points per tile of the batch search        */
#define PREC_TILE_ROWS som_batch_rows_f
#define PREC_CIRC som_neighbourhood_circ_f
#define PREC_NAME(s) s " (single)"        /* an engine's name                           */
#define PREC_SYMBOL(name) name##_f        /* an engine's symbol                         */
#if SOM_HAVE_VEC
typedef som_vf som_rv;                    /* a register of som_real                     */
typedef som_vfm som_rm;                   /* its comparison masks                       */
#define PREC_VW SOM_VWF
/* The vector {F(0), .., F(PREC_VW - 1)} of a macro F of the lane, built in registers (element
 * stores into a vector go through memory and stall the load that follows). */
#define PREC_GATHER(F) ((som_rv){F(0), F(1), F(2), F(3), F(4), F(5), F(6), F(7)})
typedef float som_bv __attribute__((vector_size(64))); /* a batch tile's points (PREC_BT) */
typedef int som_bm __attribute__((vector_size(64)));
#define PREC_BGATHER(F)                                                                    \
    ((som_bv){F(0), F(1), F(2), F(3), F(4), F(5), F(6), F(7), F(8), F(9), F(10), F(11), F(12), \
              F(13), F(14), F(15)})
#endif
#else
typedef double som_real;
#define PREC_JB SOM_JB
#define PREC_PB SOM_PB
#define PREC_TILE_D2 som_tile_d2
#define PREC_TILE_D2_GENERAL som_tile_d2_general
#define PREC_BT SOM_BT
#define PREC_TILE_ROWS som_batch_rows
#define PREC_CIRC som_neighbourhood_circ
#ifdef SOM_WIDE_LANES
#define PREC_NAME(s) s " (wide packs)"
#define PREC_SYMBOL(name) name##_w
#else
#define PREC_NAME(s) s
#define PREC_SYMBOL(name) name
#endif
#if SOM_HAVE_VEC
#ifdef SOM_WIDE_LANES
/* The online engine's wide packs (som_cpu_online_w.c): 8 doubles, one AVX-512 register. */
typedef double som_rv __attribute__((vector_size(64)));
typedef long long som_rm __attribute__((vector_size(64)));
#define PREC_VW 8
#define PREC_GATHER(F) ((som_rv){F(0), F(1), F(2), F(3), F(4), F(5), F(6), F(7)})
#else
typedef som_vd som_rv;
typedef som_vm som_rm;
#define PREC_VW SOM_VW
#define PREC_GATHER(F) ((som_rv){F(0), F(1), F(2), F(3)})
#endif
typedef double som_bv __attribute__((vector_size(64)));
typedef long long som_bm __attribute__((vector_size(64)));
#define PREC_BGATHER(F) ((som_bv){F(0), F(1), F(2), F(3), F(4), F(5), F(6), F(7)})
#endif
#endif

#define PREC_SELECT(mask, a, b) SOM_SELECT_AS(som_rm, som_rv, mask, a, b)
#define PREC_BSELECT(mask, a, b) SOM_SELECT_AS(som_bm, som_bv, mask, a, b)

/* Elements of som_real rounded up to whole 64-byte cache lines, so that the buffers of
 * maps trained by different threads never share a line. */
SOM_INLINE size_t som_pad_line(size_t count)
{
    const size_t per_line = 64 / sizeof(som_real);
    return (count + per_line - 1) / per_line * per_line;
}

/* The first cache-line boundary in a block allocated with a line to spare. */
SOM_INLINE som_real *som_align_line(som_real *raw)
{
    return raw ? (som_real *)(((uintptr_t)raw + 63) & ~(uintptr_t)63) : NULL;
}

/* Row-major size x m (som_init_map) into tiled weights w[k * ld + j] (the padding
 * untouched), and tiled weights back to column-major doubles. */
SOM_INLINE void som_tile_real(const double *rowmajor, int size, int m, int ld, som_real *w)
{
    int j, k;
    for (k = 0; k < m; k++)
        for (j = 0; j < size; j++) w[(size_t)k * ld + j] = (som_real)rowmajor[(size_t)j * m + k];
}

SOM_INLINE void som_untile_real(const som_real *w, int size, int m, int ld, double *colmajor)
{
    int j, k;
    for (k = 0; k < m; k++)
        for (j = 0; j < size; j++) colmajor[(size_t)k * size + j] = w[(size_t)k * ld + j];
}

#endif
