/* som_vec.h: vectors of 4 doubles or 8 floats (one AVX2 register; two SSE2 ones) through
 * GCC and clang's vector extension, for the code that compilers do not vectorize by
 * themselves: lanes that each keep their own best (a compare and a select per lane).
 * Element-wise IEEE operations only, so a lane's bits are those of the scalar code.
 * SOM_HAVE_VEC is 0 elsewhere, and the callers take their scalar paths. */
#ifndef SOM_VEC_H
#define SOM_VEC_H

#define SOM_VEC_MAX_DIM 64 /* the most dimensions of a point held as vectors (on the stack) */

#if defined(__GNUC__) || defined(__clang__)
#define SOM_HAVE_VEC 1
#define SOM_VW 4 /* doubles per vector */
typedef double som_vd __attribute__((vector_size(SOM_VW * sizeof(double))));
typedef long long som_vm __attribute__((vector_size(SOM_VW * sizeof(long long))));
/* The same register as 8 floats (single precision on the CPU backend). */
#define SOM_VWF 8
typedef float som_vf __attribute__((vector_size(SOM_VWF * sizeof(float))));
typedef int som_vfm __attribute__((vector_size(SOM_VWF * sizeof(int))));

/* Lanes of a where mask is set, of b elsewhere (a comparison's mask: all bits or none), for
 * vectors of type VT with masks of type VM; SOM_SELECT for doubles. */
#define SOM_SELECT_AS(VM, VT, mask, a, b) ((VT)(((VM)(a) & (mask)) | ((VM)(b) & ~(mask))))
#define SOM_SELECT(mask, a, b) SOM_SELECT_AS(som_vm, som_vd, mask, a, b)

/* Unroll a loop over a tile's neurons fully, so that its vectors stay in registers. */
#if defined(__clang__)
#define SOM_UNROLL_ALL _Pragma("unroll")
#else
#define SOM_UNROLL_ALL _Pragma("GCC unroll 16")
#endif

#else
#define SOM_HAVE_VEC 0
#define SOM_UNROLL_ALL
#endif

#endif
