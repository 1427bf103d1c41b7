/* som_rng.h: the random streams of somgpu.
 *
 * Every random number a map uses is a pure function of (seed, ring size, restart, pass,
 * index): Philox4x32-10 (Salmon et al., SC'11) gives the words, and a keyed Feistel
 * bijection of 0..n-1 gives each pass's visiting order without storing a permutation.
 * Nothing here depends on which thread or device computes it, so every backend that
 * includes this file reproduces the same maps bit for bit.
 *
 * The file is written in the common subset of C99 and OpenCL C 1.2: the OpenCL backend
 * embeds it in front of its kernels. Keep it free of headers other than <stdint.h>,
 * of globals and of floating point other than the one u01 conversion.
 */
#ifndef SOM_RNG_H
#define SOM_RNG_H

#ifdef __OPENCL_VERSION__
typedef uint som_u32;
typedef ulong som_u64;
#define SOM_FN inline
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

/* Feistel rounds of the visiting-order bijection (an even number). */
#define SOM_PERM_ROUNDS 6

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

/* A keyed bijection of 0..n-1: an unbalanced Feistel network on the smallest power of two
 * >= n (at least 4), with cycle walking to stay below n (on average < 2 evaluations). */
typedef struct {
    som_u32 n;
    int hi_bits, lo_bits; /* the two halves of the state; hi_bits >= lo_bits */
    som_u32 key[SOM_PERM_ROUNDS];
} som_perm;

/* Set up the bijection of stream (seed, tag) for map (size, restart) and pass. */
SOM_FN som_perm som_perm_make(som_u32 n, som_u32 seed, som_u32 tag, som_u32 size,
                              som_u32 restart, som_u32 pass)
{
    som_perm p;
    int bits = 2, r;
    while (bits < 32 && ((som_u64)1 << bits) < (som_u64)n) bits++;
    p.n = n;
    p.lo_bits = bits / 2;
    p.hi_bits = bits - p.lo_bits;
    for (r = 0; r < SOM_PERM_ROUNDS; r += 4) {
        som_philox_ctr w = som_philox4x32((som_u32)(r / 4), pass, size, restart, seed, tag);
        int q;
        for (q = 0; q < 4 && r + q < SOM_PERM_ROUNDS; q++) p.key[r + q] = w.v[q];
    }
    return p;
}

/* The round function: a 32-bit integer hash (Wellons' lowbias32) of the half and the key. */
SOM_FN som_u32 som_perm_round(som_u32 x, som_u32 key)
{
    x ^= key;
    x ^= x >> 16;
    x *= 0x7FEB352Du;
    x ^= x >> 15;
    x *= 0x846CA68Bu;
    x ^= x >> 16;
    return x;
}

/* One evaluation of the Feistel network on 0 .. 2^(hi_bits + lo_bits) - 1. The state is
 * (L, R) = (high part, low part); a round maps it to (R, L ^ F(R)), swapping the widths, so
 * after an even number of rounds the layout is the original one. */
SOM_FN som_u32 som_perm_feistel(const som_perm *p, som_u32 x)
{
    int wl = p->hi_bits, wr = p->lo_bits, r;
    som_u32 L = x >> wr, R = x & (((som_u32)1 << wr) - 1u);
    for (r = 0; r < SOM_PERM_ROUNDS; r++) {
        som_u32 nr = L ^ (som_perm_round(R, p->key[r]) & (((som_u32)1 << wl) - 1u));
        int w = wl;
        L = R;
        R = nr;
        wl = wr;
        wr = w;
    }
    return (L << wr) | R;
}

/* The i-th element (0-based) of the permutation. */
SOM_FN som_u32 som_perm_at(const som_perm *p, som_u32 i)
{
    som_u32 x = som_perm_feistel(p, i);
    while (x >= p->n) x = som_perm_feistel(p, x);
    return x;
}

#endif
