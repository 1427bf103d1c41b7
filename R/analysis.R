# Analysis helpers: the data's principal components (for init = "pca", align = TRUE and the
# codes plot), ring alignment, the adjusted Rand index (stability across restarts), and the
# elbow rule behind summary()'s suggested size.

# Mean, principal directions (columns of rotation, unit length, each with its largest
# loading positive so the basis does not depend on the eigen solver's sign) and standard
# deviations of the data, from the covariance matrix: no copy of the data. With missing
# values, from the observed ones: column means and pairwise covariances.
pca_basis <- function(x) {
  missing <- anyNA(x)
  if (missing) {
    mu <- colMeans(x, na.rm = TRUE)
    mu[!is.finite(mu)] <- 0
    cv <- suppressWarnings(stats::cov(x, use = "pairwise.complete.obs"))
    cv[!is.finite(cv)] <- 0 # a pair of columns never observed together
  } else {
    mu <- colMeans(x)
    cv <- if (nrow(x) > 1L) stats::cov(x) else matrix(0, ncol(x), ncol(x))
  }
  e <- eigen(cv, symmetric = TRUE)
  rot <- e$vectors
  flip <- apply(rot, 2, function(v) if (v[which.max(abs(v))] < 0) -1 else 1)
  rot <- sweep(rot, 2, flip, "*")
  list(center = mu, rotation = rot, sdev = sqrt(pmax(e$values, 0)),
       tss = if (missing) NA_real_ else sum(diag(cv)) * (nrow(x) - 1))
}

# init = "pca": each ring laid on the ellipse spanned by the first two principal components
# (one standard deviation along each), neuron j at angle 2 pi j / N; on one-dimensional data,
# along the first component.
pca_ring_init <- function(x, sizes, basis = pca_basis(x)) {
  lapply(sizes, function(N) {
    a <- 2 * pi * (seq_len(N) - 1) / N
    w <- matrix(basis$center, N, ncol(x), byrow = TRUE) +
      outer(cos(a) * basis$sdev[1], basis$rotation[, 1])
    if (ncol(x) > 1L) w <- w + outer(sin(a) * basis$sdev[2], basis$rotation[, 2])
    w
  })
}

# The relabelling that makes a ring's labels comparable across sizes: label 1 goes to the
# neuron lowest on the first principal component, and the labels run towards the neighbour
# that is lower on it. Returns new_label[old_label].
ring_relabel <- function(w, basis) {
  N <- nrow(w)
  score <- drop(sweep(w, 2, basis$center) %*% basis$rotation[, 1])
  start <- which.min(score)
  nxt <- start %% N + 1L
  prv <- (start - 2L) %% N + 1L
  step <- if (N > 2L && score[prv] < score[nxt]) -1L else 1L
  order <- (start - 1L + step * (seq_len(N) - 1L)) %% N + 1L # old labels in new order
  new <- integer(N)
  new[order] <- seq_len(N)
  new
}

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
  n <- nrow(C)
  P <- ncol(pairs)
  if (n < 2L) return(rep(1, P))
  comb2 <- function(v) as.double(v) * (v - 1) / 2
  keys <- (C[, pairs[1L, ]] - 1L) * k + C[, pairs[2L, ]] + rep((seq_len(P) - 1L) * k * k, each = n)
  index <- colSums(matrix(comb2(tabulate(keys, P * k * k)), k * k))
  per <- colSums(matrix(comb2(tabulate(C + rep((seq_len(ncol(C)) - 1L) * k, each = n), ncol(C) * k)), k))
  sa <- per[pairs[1L, ]]
  sb <- per[pairs[2L, ]]
  expected <- sa * sb / (as.double(n) * (n - 1) / 2)
  top <- (sa + sb) / 2
  ifelse(top == expected, 1, (index - expected) / (top - expected))
}

# Mean adjusted Rand index over the pairs of restarts' clusterings of one size.
stability_of <- function(clusters, size) {
  k <- length(clusters)
  if (k < 2L) return(NA_real_)
  # every pair up to 50 restarts (1225 pairs); beyond, each restart with the next (k pairs)
  pairs <- if (k <= 50L) utils::combn(k, 2) else rbind(seq_len(k), c(seq_len(k)[-1L], 1L))
  mean(ari_pairs(do.call(cbind, clusters), pairs, size))
}

# The elbow of a decreasing curve: the size whose point is farthest below the straight line
# joining the first and last points, both axes scaled to [0, 1]. NA for fewer than 3 sizes.
elbow <- function(sizes, qe) {
  o <- order(sizes)
  s <- sizes[o]
  q <- qe[o]
  if (length(s) < 3L || diff(range(q)) == 0) return(NA_integer_)
  xs <- (s - s[1]) / (s[length(s)] - s[1])
  ys <- (q - min(q)) / diff(range(q))
  line <- ys[1] + (ys[length(ys)] - ys[1]) * xs
  as.integer(s[which.max(line - ys)])
}

# expr evaluated with R's generator seeded by `seed`, the session's generator as it was
# afterwards.
with_private_seed <- function(seed, expr) {
  if (exists(".Random.seed", envir = globalenv())) {
    old <- get(".Random.seed", envir = globalenv())
    on.exit(assign(".Random.seed", old, envir = globalenv()))
  } else {
    on.exit(rm(".Random.seed", envir = globalenv()))
  }
  set.seed(seed)
  expr
}
