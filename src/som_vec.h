/* som_vec.h: vectors of 4 doubles (one AVX2 register; two SSE2 ones) through GCC and clang's
 * vector extension, for the code that compilers do not vectorize by themselves: lanes that
 * each keep their own best (a compare and a select per lane). Element-wise IEEE operations
 * only, so a lane's bits are those of the scalar code. SOM_HAVE_VEC is 0 elsewhere, and
 * the callers take their scalar paths. */
#ifndef SOM_VEC_H
#define SOM_VEC_H

#include <string.h>

#if defined(__GNUC__) || defined(__clang__)
#define SOM_HAVE_VEC 1
#define SOM_VW 4 /* doubles per vector */
typedef double som_vd __attribute__((vector_size(SOM_VW * sizeof(double))));
typedef long long som_vm __attribute__((vector_size(SOM_VW * sizeof(long long))));

/* Lanes of a where mask is set, of b elsewhere (a comparison's mask: all bits or none). */
#define SOM_SELECT(mask, a, b) ((som_vd)(((som_vm)(a) & (mask)) | ((som_vm)(b) & ~(mask))))

/* Unroll a loop over a tile's neurons fully, so that its vectors stay in registers. */
#if defined(__clang__)
#define SOM_UNROLL_ALL _Pragma("unroll")
#else
#define SOM_UNROLL_ALL _Pragma("GCC unroll 16")
#endif

/* SOM_VW doubles from memory, and back (no alignment needed). */
#define SOM_VLOAD(v, p) memcpy(&(v), (p), sizeof(som_vd))
#define SOM_VSTORE(p, v) memcpy((p), &(v), sizeof(som_vd))
#else
#define SOM_HAVE_VEC 0
#endif

#endif
