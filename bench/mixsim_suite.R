# Overlapping Gaussian mixtures (issue 67), drawn with MixSim (CRAN; Melnykov, Chen and
# Maitra 2012), the generator mixture-model papers use: K groups with general or
# spherical covariances, unequal proportions, and a set average pairwise overlap
# (BarOmega: the mean over pairs of groups of the sum of the two misclassification
# probabilities). As bench/bench_mixsim.R reads them; nothing runs when this file is
# sourced.

# The battery's designs: each overlap level with the same eight (K, columns, spherical)
# shapes, K 2 to 10 and 2 to 20 columns, so that the levels compare like with like.
mixsim_overlaps <- c(0.001, 0.01, 0.05, 0.1)
mixsim_shapes <- data.frame(
  K = c(2L, 3L, 4L, 5L, 6L, 7L, 8L, 10L),
  p = c(2L, 5L, 10L, 20L, 2L, 5L, 10L, 20L),
  sph = c(FALSE, TRUE, FALSE, TRUE, FALSE, FALSE, TRUE, FALSE))

# One set: K groups of `per_group` rows on average, in p columns, average overlap
# `overlap`, the smallest proportion half of an equal share (PiLow), drawn from `seed`.
# list(name, overlap, K, p, sph, x, groups, k).
mixsim_set <- function(K, p, sph, overlap, seed, per_group = 200L) {
  set.seed(seed)
  m <- MixSim::MixSim(BarOmega = overlap, K = K, p = p, sph = sph, PiLow = 0.5 / K, resN = 1000)
  if (m$fail != 0L) stop("MixSim could not reach the overlap ", overlap, " for K = ", K, ", p = ", p)
  d <- MixSim::simdataset(n = per_group * K, Pi = m$Pi, Mu = m$Mu, S = m$S)
  list(name = sprintf("K=%d p=%d %s overlap %s", K, p, if (sph) "spherical" else "general", overlap),
       overlap = overlap, K = K, p = p, sph = sph, x = d$X,
       groups = as.integer(d$id), k = length(unique(d$id)))
}

# The battery: every overlap level by every shape, each set its own seed (100 + its index).
mixsim_battery <- function() {
  if (!requireNamespace("MixSim", quietly = TRUE)) {
    stop("the MixSim battery needs the package MixSim (CRAN: install.packages(\"MixSim\"))")
  }
  out <- list()
  for (o in mixsim_overlaps) for (i in seq_len(nrow(mixsim_shapes))) {
    s <- mixsim_shapes[i, ]
    out[[length(out) + 1L]] <- mixsim_set(s$K, s$p, s$sph, o, seed = 100L + length(out))
  }
  out
}
