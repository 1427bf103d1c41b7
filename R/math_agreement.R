# How far two partitions agree: the adjusted Rand index, and a size's stability over its
# restarts (the fit's `stability`; select_size()'s replicates).

# Adjusted Rand index of two labelings (Hubert and Arabie 1985), from their contingency table.
ari <- function(a, b, na = max(a), nb = max(b)) {
  n <- length(a)
  if (n < 2L) return(1)
  nij <- tabulate((a - 1L) * nb + b, na * nb)
  comb2 <- function(v) sum(as.double(v) * (v - 1) / 2)
  index <- comb2(nij)
  sa <- comb2(tabulate(a, na))
  sb <- comb2(tabulate(b, nb))
  expected <- sa * sb / (as.double(n) * (n - 1) / 2)
  top <- (sa + sb) / 2
  if (top == expected) return(1) # both partitions trivial: they agree
  (index - expected) / (top - expected)
}

# ari() of many pairs of clusterings at once: the columns of C (n x B, clusters 1..k, no
# NA) paired as the columns of `pairs` (2 x P); the P indices, each as ari() gives it.
ari_pairs <- function(C, pairs, k) {
  P <- ncol(pairs)
  if (nrow(C) < 2L) return(rep(1, P))
  storage.mode(C) <- "integer"
  storage.mode(pairs) <- "integer"
  .Call(C_ari_pairs, C, pairs, as.integer(k)) # src/groups/som_agreement.c
}

# Mean adjusted Rand index over the pairs of restarts' clusterings of one size.
stability_of <- function(clusters, size) {
  k <- length(clusters)
  if (k < 2L) return(NA_real_)
  # every pair up to 50 restarts (1225 pairs); beyond, each restart with the next (k pairs)
  pairs <- if (k <= 50L) utils::combn(k, 2) else rbind(seq_len(k), c(seq_len(k)[-1L], 1L))
  mean(ari_pairs(do.call(cbind, clusters), pairs, size))
}
