/* som_rng.h: the random streams of somgpu.
 *
 * Every random number a map uses is a pure function of (seed, ring size, restart, pass,
 * index): Philox4x32-10 (Salmon et al., SC'11) gives the words, and each pass's visiting
 * order is a Fisher-Yates shuffle driven by xoshiro128** seeded from them. Nothing here depends on which thread or
 * device computes it, so every backend that includes this file reproduces the same maps
 * bit for bit.
 *
 * The file is written in the common subset of C99 and OpenCL C 1.2: the OpenCL backend
 * embeds it in front of its kernels. Keep it free of headers other than <stdint.h>,
 * of globals and of floating point other than the one u01 conversion.
 */
#ifndef SOM_RNG_H
#define SOM_RNG_H

#ifdef SOM_OPENCL_C
typedef uint som_u32;
typedef ulong som_u64;
/* one program, one definition: plain functions (OpenCL C 1.1 has no static functions) */
#define SOM_FN
#else
#include <stdint.h>
typedef uint32_t som_u32;
typedef uint64_t som_u64;
#define SOM_FN static inline
#endif

/* Second key word of each stream: the first is the user's seed. */
#define SOM_STREAM_INIT   0x494E4954u /* "INIT": uniform initial weights            */
#define SOM_STREAM_ORDER  0x4F524452u /* "ORDR": visiting order of each pass         */
#define SOM_STREAM_SAMPLE 0x534D504Cu /* "SMPL": rows drawn by init = "sample"       */

typedef struct { som_u32 v[4]; } som_philox_ctr;

/* Philox4x32-10: counter (c0..c3) and key (k0, k1) to four 32-bit words. */
SOM_FN som_philox_ctr som_philox4x32(som_u32 c0, som_u32 c1, som_u32 c2, som_u32 c3,
                                     som_u32 k0, som_u32 k1)
{
    int r;
    for (r = 0; r < 10; r++) {
        som_u64 p0 = (som_u64)0xD2511F53u * c0;
        som_u64 p1 = (som_u64)0xCD9E8D57u * c2;
        som_u32 hi0 = (som_u32)(p0 >> 32), lo0 = (som_u32)p0;
        som_u32 hi1 = (som_u32)(p1 >> 32), lo1 = (som_u32)p1;
        c0 = hi1 ^ c1 ^ k0;
        c1 = lo1;
        c2 = hi0 ^ c3 ^ k1;
        c3 = lo0;
        k0 += 0x9E3779B9u;
        k1 += 0xBB67AE85u;
    }
    som_philox_ctr out;
    out.v[0] = c0; out.v[1] = c1; out.v[2] = c2; out.v[3] = c3;
    return out;
}

/* Two words to a double in [0, 1) with 53 random bits (27 from a, 26 from b). */
#ifndef SOM_NO_DOUBLE
SOM_FN double som_u01(som_u32 a, som_u32 b)
{
    return ((double)(a >> 5) * 67108864.0 + (double)(b >> 6)) * (1.0 / 9007199254740992.0);
}
#endif

/* The initial weight of element e = j * m + k (neuron j, dimension k) of map (size, restart):
 * U(0,1) - 0.5 as in the original script; two elements share one Philox block. */
#ifndef SOM_NO_DOUBLE
SOM_FN double som_init_uniform(som_u32 seed, som_u32 size, som_u32 restart, som_u64 e)
{
    som_u64 block = e >> 1;
    som_philox_ctr w = som_philox4x32((som_u32)block, (som_u32)(block >> 32), size, restart,
                                      seed, SOM_STREAM_INIT);
    return (e & 1) ? som_u01(w.v[2], w.v[3]) - 0.5 : som_u01(w.v[0], w.v[1]) - 0.5;
}
#endif

/* The buffer a visiting order is written to: global memory on a device. */
#ifdef SOM_OPENCL_C
#define SOM_ORDER_SPACE __global
#else
#define SOM_ORDER_SPACE
#endif

/* xoshiro128** (Blackman and Vigna): a small, fast sequential generator. A pass's shuffle
 * is sequential anyway, so one Philox block seeds it and it draws the rest. */
typedef struct { som_u32 s[4]; } som_xoshiro;

SOM_FN som_u32 som_rotl32(som_u32 x, int k)
{
    return (x << k) | (x >> (32 - k));
}

SOM_FN som_u32 som_xoshiro_next(som_xoshiro *g)
{
    som_u32 r = som_rotl32(g->s[1] * 5u, 7) * 9u, t = g->s[1] << 9;
    g->s[2] ^= g->s[0];
    g->s[3] ^= g->s[1];
    g->s[1] ^= g->s[2];
    g->s[0] ^= g->s[3];
    g->s[2] ^= t;
    g->s[3] = som_rotl32(g->s[3], 11);
    return r;
}

/* A uniform integer in 0 .. k-1 (1 <= k <= 2^32 - 1), exactly: Lemire's multiply-shift with
 * rejection of the 2^32 mod k low products that would bias it. */
SOM_FN som_u32 som_xoshiro_below(som_xoshiro *g, som_u32 k)
{
    som_u64 p = (som_u64)som_xoshiro_next(g) * k;
    if ((som_u32)p < k) {
        som_u32 threshold = (0u - k) % k;
        while ((som_u32)p < threshold) p = (som_u64)som_xoshiro_next(g) * k;
    }
    return (som_u32)(p >> 32);
}

/* The generator of a pass's shuffle for map (size, restart) and pass, from stream (seed,
 * tag): xoshiro128** seeded with Philox block (0, pass, size, restart) (an all-zero block,
 * which xoshiro cannot use, becomes (1, 0, 0, 0)). */
SOM_FN void som_order_seed(som_xoshiro *g, som_u32 seed, som_u32 tag, som_u32 size,
                           som_u32 restart, som_u32 pass)
{
    som_philox_ctr w = som_philox4x32(0, pass, size, restart, seed, tag);
    g->s[0] = w.v[0] | ((w.v[0] | w.v[1] | w.v[2] | w.v[3]) == 0);
    g->s[1] = w.v[1];
    g->s[2] = w.v[2];
    g->s[3] = w.v[3];
}

/* One step of the Fisher-Yates shuffle: order[i] swapped with order[j], j uniform in 0..i.
 * Steps i = n-1 .. 1 on 0..n-1 in order make the shuffle (the online work-group kernel
 * takes one per training step, drawing the next pass's order while this one trains). */
SOM_FN void som_order_swap(SOM_ORDER_SPACE som_u32 *order, som_u32 i, som_xoshiro *g)
{
    som_u32 j = som_xoshiro_below(g, i + 1), tmp = order[i];
    order[i] = order[j];
    order[j] = tmp;
}

/* A uniformly random order of 0..n-1 for map (size, restart) and pass, from stream (seed,
 * tag): the identity, then som_order_swap for i = n-1 .. 1 with som_order_seed's generator.
 * The first k elements of the order are a uniform sample of k rows. */
SOM_FN void som_order(SOM_ORDER_SPACE som_u32 *order, som_u32 n, som_u32 seed, som_u32 tag,
                      som_u32 size, som_u32 restart, som_u32 pass)
{
    som_xoshiro g;
    som_u32 i;
    som_order_seed(&g, seed, tag, size, restart, pass);
    for (i = 0; i < n; i++) order[i] = i;
    for (i = n - 1; i >= 1 && i < n; i--) som_order_swap(order, i, &g);
}

#endif
