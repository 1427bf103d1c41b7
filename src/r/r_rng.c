/* r_rng.c: somgpu's random streams (som_rng.h) from R, for the known-answer and reference
 * tests: Philox4x32-10 blocks, xoshiro128** draws, and visiting orders. */
#include "r_glue.h"
#include "som_rng.h"

static som_u32 word_of(SEXP x, int i)
{
    return (som_u32)REAL(x)[i];
}

/* Philox4x32-10 of one counter (4 words) and key (2 words), given and returned as doubles. */
SEXP C_philox(SEXP ctr, SEXP key)
{
    som_philox_ctr r = som_philox4x32(word_of(ctr, 0), word_of(ctr, 1), word_of(ctr, 2),
                                      word_of(ctr, 3), word_of(key, 0), word_of(key, 1));
    SEXP out = PROTECT(Rf_allocVector(REALSXP, 4));
    int i;
    for (i = 0; i < 4; i++) REAL(out)[i] = r.v[i];
    UNPROTECT(1);
    return out;
}

/* The visiting order (0-based) of pass `pass` of map (size, restart) over n points, from
 * the order stream (sample = FALSE) or the init = "sample" stream (sample = TRUE):
 * order = list(n, seed, size, restart, pass, sample). */
SEXP C_visit_order(SEXP order)
{
    som_u32 n = (som_u32)r_real(order, "n");
    SEXP out = PROTECT(Rf_allocVector(INTSXP, (R_xlen_t)n));
    som_order((som_u32 *)INTEGER(out), n, (som_u32)(int64_t)r_real(order, "seed"),
              r_flag(order, "sample") ? SOM_STREAM_SAMPLE : SOM_STREAM_ORDER,
              (som_u32)r_int(order, "size"), (som_u32)r_int(order, "restart"),
              (som_u32)r_int(order, "pass"));
    UNPROTECT(1);
    return out;
}

/* `count` draws of xoshiro128** from state (4 words): raw 32-bit outputs when k is 0, else
 * uniform integers in 0 .. k-1 (som_xoshiro_below): draws = list(state, k, count). For the
 * known-answer tests. */
SEXP C_xoshiro_draws(SEXP draws)
{
    som_xoshiro g;
    som_u32 kk = (som_u32)r_real(draws, "k");
    int n = r_int(draws, "count"), i;
    SEXP state = r_elt(draws, "state");
    SEXP out = PROTECT(Rf_allocVector(REALSXP, n));
    for (i = 0; i < 4; i++) g.s[i] = word_of(state, i);
    for (i = 0; i < n; i++) REAL(out)[i] = kk ? som_xoshiro_below(&g, kk) : som_xoshiro_next(&g);
    UNPROTECT(1);
    return out;
}
