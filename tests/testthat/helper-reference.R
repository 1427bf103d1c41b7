# A slow, independent pure-R reference of somgpu's random streams and training rule,
# written from the specification (Philox4x32-10 as published in Random123; the
# Fisher-Yates visiting order driven by xoshiro128**, and the online rule, as documented in
# src/core/som_rng.h and ?train). It uses doubles for 32-bit unsigned arithmetic and shares no code with the
# package.

two16 <- 65536
two32 <- 4294967296

u32_xor <- function(a, b) {
  bitwXor(as.integer(a %/% two16), as.integer(b %/% two16)) * two16 +
    bitwXor(as.integer(a %% two16), as.integer(b %% two16))
}

# Full 64-bit product of two unsigned 32-bit numbers, as (hi, lo) words.
u32_mul <- function(a, b) {
  ah <- a %/% two16; al <- a %% two16
  bh <- b %/% two16; bl <- b %% two16
  ll <- al * bl
  mid <- al * bh + ah * bl + ll %/% two16
  list(hi = ah * bh + mid %/% two16, lo = (mid %% two16) * two16 + ll %% two16)
}

u32_add <- function(a, b) (a + b) %% two32

# Philox4x32-10, vectorised over rows of `ctr` (a k x 4 matrix); key = c(k0, k1).
ref_philox <- function(ctr, key) {
  ctr <- matrix(ctr, ncol = 4)
  c0 <- ctr[, 1]; c1 <- ctr[, 2]; c2 <- ctr[, 3]; c3 <- ctr[, 4]
  k0 <- key[1]; k1 <- key[2]
  for (r in 1:10) {
    p0 <- u32_mul(0xD2511F53, c0)
    p1 <- u32_mul(0xCD9E8D57, c2)
    n0 <- u32_xor(u32_xor(p1$hi, c1), k0)
    n2 <- u32_xor(u32_xor(p0$hi, c3), k1)
    c0 <- n0; c1 <- p1$lo; c2 <- n2; c3 <- p0$lo
    k0 <- u32_add(k0, 0x9E3779B9)
    k1 <- u32_add(k1, 0xBB67AE85)
  }
  cbind(c0, c1, c2, c3, deparse.level = 0)
}

words_hex <- function(x) {
  vapply(x, function(v) sprintf("%04x%04x", as.integer(v %/% two16), as.integer(v %% two16)),
         character(1), USE.NAMES = FALSE)
}
hex_value <- function(h) {
  vapply(h, function(s) {
    strtoi(substr(s, 1, 4), 16L) * two16 + strtoi(substr(s, 5, 8), 16L)
  }, numeric(1), USE.NAMES = FALSE)
}

stream_tag <- c(init = 0x494E4954, order = 0x4F524452, sample = 0x534D504C)

seed_word <- function(seed) seed %% two32

# 53-bit uniform in [0, 1) from two words.
ref_u01 <- function(a, b) ((a %/% 32) * 67108864 + b %/% 64) / 2^53

# Initial weights of init = "uniform": element e = j * m + k is U(0,1) - 0.5 from the
# Philox block e %/% 2 of stream (seed, "INIT") at counter (block, 0, size, restart).
ref_init_uniform <- function(seed, size, restart, m) {
  e <- seq_len(size * m) - 1
  block <- e %/% 2
  w <- ref_philox(cbind(block %% two32, block %/% two32, size, restart),
                  c(seed_word(seed), stream_tag[["init"]]))
  u <- ifelse(e %% 2 == 0, ref_u01(w[, 1], w[, 2]), ref_u01(w[, 3], w[, 4]))
  matrix(u - 0.5, size, m, byrow = TRUE)
}

u32_rotl <- function(x, k) (x * 2^k) %% two32 + x %/% 2^(32 - k)

# xoshiro128** (Blackman and Vigna, https://prng.di.unimi.it/xoshiro128starstar.c) as a
# closure over its four 32-bit state words.
ref_xoshiro <- function(s) {
  function() {
    result <- (u32_rotl((s[2] * 5) %% two32, 7) * 9) %% two32
    t <- (s[2] * 2^9) %% two32
    s[3] <<- u32_xor(s[3], s[1])
    s[4] <<- u32_xor(s[4], s[2])
    s[2] <<- u32_xor(s[2], s[3])
    s[1] <<- u32_xor(s[1], s[4])
    s[3] <<- u32_xor(s[3], t)
    s[4] <<- u32_rotl(s[4], 11)
    result
  }
}

# A uniform integer in 0..k-1 from a 32-bit generator: Lemire's multiply-shift, redrawing
# while the low word of the product is below 2^32 mod k.
ref_below <- function(gen, k) {
  p <- u32_mul(gen(), k)
  threshold <- (two32 - k) %% k
  while (p$lo < threshold) p <- u32_mul(gen(), k)
  p$hi
}

# The visiting order of a pass (0-based values): Fisher-Yates from i = n-1 down to 1,
# swapping positions i and j = below(i + 1), drawn from xoshiro128** seeded with the Philox
# block (0, pass, size, restart) of stream (seed, tag).
ref_order <- function(n, seed, tag, size, restart, pass) {
  order <- seq_len(n) - 1
  w <- ref_philox(c(0, pass, size, restart), c(seed_word(seed), stream_tag[[tag]]))[1, ]
  if (all(w == 0)) w[1] <- 1
  gen <- ref_xoshiro(w)
  if (n >= 2) for (i in seq(n - 1, 1)) {
    j <- ref_below(gen, i + 1)
    tmp <- order[i + 1]
    order[i + 1] <- order[j + 1]
    order[j + 1] <- tmp
  }
  order
}

# The online rule of the original script, one ring of nrow(w0) neurons.
ref_train_map <- function(y, w0, iter_max = 150, sigma0 = 5, eta0 = 1, seed, restart = 0,
                          passes = iter_max - 1) {
  w <- w0
  size <- nrow(w)
  n <- nrow(y)
  m <- ncol(y)
  if (passes > 0) for (t in seq_len(passes)) {
    sigma <- sigma0 - (sigma0 / (iter_max + 1)) * t
    s2 <- 2 * sigma^2
    eta <- eta0 - (eta0 / (iter_max + 1)) * t
    for (i in ref_order(n, seed, "order", size, restart, t) + 1) {
      x <- y[i, ]
      d2 <- (x[1] - w[, 1])^2
      if (m > 1) for (k in 2:m) d2 <- d2 + (x[k] - w[, k])^2
      c <- which.min(d2)
      d <- abs(c - seq_len(size))
      d <- pmin(d, size - d)
      # exp(-0 / s2) = 1 for any sigma > 0: the winner's factor is eta, even when s2
      # underflows to 0 and the formula would give 0/0; other factors below 1e-30 are 0
      h <- ifelse(d == 0, eta, eta * exp(-(d^2) / s2))
      h[d > 0 & h < 1e-30] <- 0
      w <- w + h * (matrix(x, size, m, byrow = TRUE) - w)
    }
  }
  w
}

# Winners, qe and te of a trained ring, from squared distances summed over the dimensions
# in order (as everywhere in somgpu: colSums would sum in long double and break near-ties
# differently).
ref_assess <- function(y, w) {
  size <- nrow(w)
  d2 <- vapply(seq_len(size), function(j) {
    d <- (y[, 1] - w[j, 1])^2
    if (ncol(y) > 1) for (k in 2:ncol(y)) d <- d + (y[, k] - w[j, k])^2
    d
  }, numeric(nrow(y)))
  d2 <- matrix(d2, nrow = nrow(y))
  best <- apply(d2, 1, which.min)
  second <- vapply(seq_len(nrow(y)), function(i) {
    d <- d2[i, ]
    d[best[i]] <- Inf
    which.min(d)
  }, integer(1))
  ring <- pmin(abs(best - second), size - abs(best - second))
  list(clusters = best, qe = mean(sqrt(d2[cbind(seq_len(nrow(y)), best)])),
       te = mean(ring > 1))
}

# The sum of a pass's block sums (a list, in block order) as a binary tree: a node of level
# L is the sum of its two halves (left + right), nodes aligned to multiples of 2^L; the total
# is the nodes of nb's binary digits from the left, n1 + (n2 + (... + nk)). Written
# recursively, apart from the compiled code's binary counter (som_math.h).
ref_pair_sum <- function(blocks) {
  node <- function(k, L) {
    if (L == 0) return(blocks[[k + 1]])
    node(2 * k, L - 1) + node(2 * k + 1, L - 1)
  }
  nb <- length(blocks)
  parts <- list()
  start <- 0
  for (L in rev(seq_len(floor(log2(nb)) + 1) - 1)) {
    if (floor(nb / 2^L) %% 2 == 1) {
      parts[[length(parts) + 1L]] <- node(start / 2^L, L)
      start <- start + 2^L
    }
  }
  acc <- parts[[length(parts)]]
  for (p in rev(seq_along(parts))[-1]) acc <- parts[[p]] + acc
  acc
}

# The batch rule, one ring: each pass, every row's winner (squared distance summed over the
# dimensions in order, ties to the lowest neuron); the rows' sums per winner, taken in row
# order within blocks of `block` rows, the blocks added pairwise (ref_pair_sum()); then
# W_j = sum_c h(d(c, j)) S_c / sum_c h(d(c, j)) n_c, summed over c in order, h(0) = 1; a
# neuron whose denominator is zero keeps its weights.
ref_batch_map <- function(y, w0, iter_max = 150, sigma0 = 5, block = 4096) {
  w <- w0
  size <- nrow(w)
  n <- nrow(y)
  m <- ncol(y)
  ring <- function(a, b) pmin(abs(a - b), size - abs(a - b))
  if (iter_max > 1) for (t in seq_len(iter_max - 1)) {
    sigma <- sigma0 - (sigma0 / (iter_max + 1)) * t
    s2 <- 2 * sigma^2
    d2 <- vapply(seq_len(size), function(j) {
      d <- (y[, 1] - w[j, 1])^2
      if (m > 1) for (k in 2:m) d <- d + (y[, k] - w[j, k])^2
      d
    }, numeric(n))
    d2 <- matrix(d2, nrow = n)
    win <- apply(d2, 1, which.min)
    # each block's sums in row order; the blocks added pairwise
    starts <- seq(1, n, by = block)
    blocks <- lapply(starts, function(b0) {
      Sb <- matrix(0, size, m + 1) # the sums, then the counts
      for (i in b0:min(n, b0 + block - 1)) {
        Sb[win[i], ] <- Sb[win[i], ] + c(y[i, ], 1)
      }
      Sb
    })
    tot <- ref_pair_sum(blocks)
    S <- tot[, seq_len(m), drop = FALSE]
    cnt <- tot[, m + 1]
    h <- function(d) {
      v <- ifelse(d == 0, 1, exp(-(d^2) / s2))
      ifelse(d > 0 & v < 1e-30, 0, v)
    }
    for (j in seq_len(size)) {
      num <- numeric(m)
      den <- 0
      for (c in seq_len(size)) {
        hh <- h(ring(c, j))
        den <- den + hh * cnt[c]
        num <- num + hh * S[c, ]
      }
      if (den > 0) w[j, ] <- num / den
    }
  }
  w
}

# --- missing values and column weights (the general rule) --------------------------------
# Squared distances of row x to every neuron of w over its observed columns, each column's
# term times its weight v, summed in column order (as somgpu sums them).
ref_d2_general <- function(x, w, v) {
  d2 <- numeric(nrow(w))
  for (k in seq_along(x)) {
    if (is.na(x[k])) next
    t <- x[k] - w[, k]
    d2 <- d2 + v[k] * (t * t)
  }
  d2
}

# The online rule with missing values and column weights: the winner by the weighted
# distance over the observed columns, and only the observed columns move.
ref_train_map_general <- function(y, w0, v = rep(1, ncol(y)), iter_max = 150, sigma0 = 5,
                                  eta0 = 1, seed, restart = 0, passes = iter_max - 1) {
  w <- w0
  size <- nrow(w)
  if (passes > 0) for (t in seq_len(passes)) {
    sigma <- sigma0 - (sigma0 / (iter_max + 1)) * t
    eta <- eta0 - (eta0 / (iter_max + 1)) * t
    for (i in ref_order(nrow(y), seed, "order", size, restart, t) + 1) {
      x <- y[i, ]
      c <- which.min(ref_d2_general(x, w, v))
      d <- pmin(abs(c - seq_len(size)), size - abs(c - seq_len(size)))
      h <- ifelse(d == 0, eta, eta * exp(-(d^2) / (2 * sigma^2)))
      h[d > 0 & h < 1e-30] <- 0
      for (k in which(!is.na(x))) w[, k] <- w[, k] + h * (x[k] - w[, k])
    }
  }
  w
}

# The batch rule with missing values and column weights: winners by the weighted distance
# over the observed columns; sums and counts column by column over the rows where the
# column is observed, in row order within blocks of `block` rows, added block by block;
# W_jk = sum_c h S_ck / sum_c h n_ck, a zero denominator keeping the value.
ref_batch_map_general <- function(y, w0, v = rep(1, ncol(y)), iter_max = 150, sigma0 = 5,
                                  block = 4096) {
  w <- w0
  size <- nrow(w)
  n <- nrow(y)
  m <- ncol(y)
  ring <- function(a, b) pmin(abs(a - b), size - abs(a - b))
  if (iter_max > 1) for (t in seq_len(iter_max - 1)) {
    sigma <- sigma0 - (sigma0 / (iter_max + 1)) * t
    win <- vapply(seq_len(n), function(i) which.min(ref_d2_general(y[i, ], w, v)), integer(1))
    starts <- seq(1, n, by = block) # blocks added pairwise, as in ref_batch_map()
    blocks <- lapply(starts, function(b0) {
      Sb <- Nb <- matrix(0, size, m)
      for (i in b0:min(n, b0 + block - 1)) {
        seen <- !is.na(y[i, ])
        Sb[win[i], seen] <- Sb[win[i], seen] + y[i, seen]
        Nb[win[i], seen] <- Nb[win[i], seen] + 1
      }
      cbind(Sb, Nb)
    })
    tot <- ref_pair_sum(blocks)
    S <- tot[, seq_len(m), drop = FALSE]
    N <- tot[, m + seq_len(m), drop = FALSE]
    h <- function(d) {
      r <- ifelse(d == 0, 1, exp(-(d^2) / (2 * sigma^2)))
      ifelse(d > 0 & r < 1e-30, 0, r)
    }
    for (j in seq_len(size)) {
      for (k in seq_len(m)) {
        num <- 0
        den <- 0
        for (c in seq_len(size)) {
          hh <- h(ring(c, j))
          num <- num + hh * S[c, k]
          den <- den + hh * N[c, k]
        }
        if (den > 0) w[j, k] <- num / den
      }
    }
  }
  w
}

# Winners, qe (rescaled by m / the observed columns) and te of a ring on data with missing
# values and column weights.
ref_assess_general <- function(y, w, v = rep(1, ncol(y))) {
  m <- ncol(y)
  res <- t(vapply(seq_len(nrow(y)), function(i) {
    d2 <- ref_d2_general(y[i, ], w, v)
    best <- which.min(d2)
    d2b <- d2
    d2b[best] <- Inf
    second <- which.min(d2b)
    c(best, second, sqrt(m / sum(!is.na(y[i, ])) * d2[best]))
  }, numeric(3)))
  size <- nrow(w)
  ring <- pmin(abs(res[, 1] - res[, 2]), size - abs(res[, 1] - res[, 2]))
  list(clusters = as.integer(res[, 1]), qe = mean(res[, 3]), te = mean(ring > 1))
}

# An independent adjusted Rand index (Hubert and Arabie), from table() and choose().
ref_ari <- function(a, b) {
  tab <- table(a, b)
  s <- sum(choose(tab, 2))
  sa <- sum(choose(rowSums(tab), 2))
  sb <- sum(choose(colSums(tab), 2))
  e <- sa * sb / choose(length(a), 2)
  (s - e) / ((sa + sb) / 2 - e)
}
