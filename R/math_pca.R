# The data's principal components and what is built on them: init = "pca" (each ring on
# the ellipse of the first two), align = TRUE (the rings relabelled from the first), the
# codes plot's axes.

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
