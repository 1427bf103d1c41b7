/* som_host.h: what C compiled for the host asks of its compiler, never the kernels (OpenCL
 * C has none of it): helpers always inlined, short loops unrolled, and functions compiled
 * twice, for AVX2 and the baseline, picked when the library loads. The CPU backend and the
 * core's own loops on the host (the assessment, the tiled search of som_tile.h) use them. */
#ifndef SOM_HOST_H
#define SOM_HOST_H

#if defined(__GNUC__)
#define SOM_INLINE static inline __attribute__((always_inline))
#else
#define SOM_INLINE static inline
#endif

/* A function compiled twice, for AVX2 and for the baseline, picked when the library loads
 * (GCC's function multi-versioning: x86-64 with glibc's ifunc). */
#if defined(__GNUC__) && !defined(__clang__) && __GNUC__ >= 6 && defined(__x86_64__) && \
    defined(__linux__)
#define SOM_CLONES 1
#define SOM_TARGET_CLONES __attribute__((target_clones("avx2", "default")))
#else
#define SOM_CLONES 0
#define SOM_TARGET_CLONES
#endif

/* Unroll the short loops over dimensions (-O2 does not; with a constant m they vanish). */
#if defined(__clang__)
#define SOM_UNROLL _Pragma("unroll 4")
#elif defined(__GNUC__) && __GNUC__ >= 8
#define SOM_UNROLL _Pragma("GCC unroll 4")
#else
#define SOM_UNROLL
#endif

#endif
