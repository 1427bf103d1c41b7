/* som_host.h: what C compiled for the host asks of its compiler, never the kernels (OpenCL
 * C has none of it): helpers always inlined, short loops unrolled, and functions compiled
 * for AVX-512, AVX2 and the baseline, picked at run time. The CPU backend and the
 * core's own loops on the host (the assessment, the tiled search of som_tile.h) use them. */
#ifndef SOM_HOST_H
#define SOM_HOST_H

#if defined(__GNUC__)
#define SOM_INLINE static inline __attribute__((always_inline))
#else
#define SOM_INLINE static inline
#endif

/* Functions compiled three times, for AVX-512, AVX2 and the baseline, the version picked at
 * run time (som_isa(): what the processor has, capped by SOMGPU_ISA; som_isa.c). The same
 * source and, with -ffp-contract=off, the same operations at every width: the same bits.
 * SOM_VERSIONS(name, params, args) defines `static void name params` over an always-inlined
 * `name##_body(const int isa, params)`, which each version compiles for its instruction set
 * with isa the constant SOM_ISA_* it is compiled for (a body may shape its loops by it; GCC
 * and clang on x86-64; elsewhere name is the body alone, with isa SOM_ISA_BASELINE). */
#define SOM_ISA_BASELINE 0
#define SOM_ISA_AVX2 1
#define SOM_ISA_AVX512 2
int som_isa(void);
int som_isa_set(const char *request); /* the cap: "portable", "avx2", "avx512" or NULL */
const char *som_isa_name(void);

#define SOM_UNPAREN(...) __VA_ARGS__
#if defined(__GNUC__) && defined(__x86_64__)
#define SOM_CLONES 1
#define SOM_TARGET(isa) __attribute__((target(isa)))
#define SOM_VERSION(name, sfx, attrs, isa, params, args)                                   \
    __attribute__((noinline)) attrs static void name##sfx params                           \
    {                                                                                      \
        name##_body(isa, SOM_UNPAREN args);                                                \
    }
#define SOM_VERSIONS(name, params, args)                                                   \
    SOM_VERSION(name, _avx512, SOM_TARGET("avx512f"), SOM_ISA_AVX512, params, args)        \
    SOM_VERSION(name, _avx2, SOM_TARGET("avx2"), SOM_ISA_AVX2, params, args)               \
    SOM_VERSION(name, _base, , SOM_ISA_BASELINE, params, args)                             \
    static void name params                                                                \
    {                                                                                      \
        switch (som_isa()) {                                                               \
        case SOM_ISA_AVX512: name##_avx512 args; break;                                    \
        case SOM_ISA_AVX2: name##_avx2 args; break;                                        \
        default: name##_base args;                                                         \
        }                                                                                  \
    }
/* The same with two versions, AVX2 (taken by AVX-512 processors too) and the baseline: for
 * the online rule, whose registers of 4 doubles ran slower compiled for AVX-512 (the seed
 * case 0.043 s against 0.037 on an AMD EPYC with AVX-512). */
#define SOM_VERSIONS_AVX2(name, params, args)                                              \
    SOM_VERSION(name, _avx2, SOM_TARGET("avx2"), SOM_ISA_AVX2, params, args)               \
    SOM_VERSION(name, _base, , SOM_ISA_BASELINE, params, args)                             \
    static void name params                                                                \
    {                                                                                      \
        if (som_isa() >= SOM_ISA_AVX2) name##_avx2 args;                                   \
        else name##_base args;                                                             \
    }
/* One version, for AVX-512 (the baseline's where the processor lacks it: the caller checks
 * som_isa() first): for code whose vectors are AVX-512 registers. */
#define SOM_VERSIONS_AVX512(name, params, args)                                            \
    SOM_VERSION(name, _avx512, SOM_TARGET("avx512f,avx512vl,avx512dq"), SOM_ISA_AVX512,   \
                params, args)                                                              \
    SOM_VERSION(name, _base, , SOM_ISA_BASELINE, params, args)                             \
    static void name params                                                                \
    {                                                                                      \
        if (som_isa() >= SOM_ISA_AVX512) name##_avx512 args;                               \
        else name##_base args;                                                             \
    }
#else
#define SOM_CLONES 0
#define SOM_VERSIONS(name, params, args)                                                   \
    static void name params                                                                \
    {                                                                                      \
        name##_body(SOM_ISA_BASELINE, SOM_UNPAREN args);                                   \
    }
#define SOM_VERSIONS_AVX2 SOM_VERSIONS
#define SOM_VERSIONS_AVX512 SOM_VERSIONS
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
