# Gaussian groups for the grouping rule (groups.R): six covariance shapes, a group's
# log-likelihood from its moments (count, sum, cross-products), the classification
# log-likelihood of a partition and its criterion, and EM over the rows.

# The covariance shapes, by mclust's names: the first letter says whether each group has
# its own volume and shape (V) or all share one (E), the last whether the covariance is
# full (V, E), diagonal (I on the axes: "VVI", "EEI") or spherical ("VII", "EII").
mixture_families <- c("VVV", "EEE", "VVI", "EEI", "VII", "EII")
family_words <- c(VVV = "a full covariance each", EEE = "one shared full covariance",
                  VVI = "a diagonal covariance each", EEI = "one shared diagonal covariance",
                  VII = "a spherical covariance each", EII = "one shared spherical covariance")
family_shared <- function(family) substr(family, 1L, 1L) == "E"

# Free parameters of G groups in d columns: G - 1 proportions, G means, the covariances.
family_params <- function(family, G, d) {
  cov <- switch(substr(family, 2L, 3L), VV = , EE = d * (d + 1) / 2, VI = , EI = d, II = 1)
  (G - 1) + G * d + (if (family_shared(family)) 1 else G) * cov
}

# The family and prior as the compiled code reads them (src/core/som_groups.h).
family_spec <- function(family, prior) {
  list(shape = switch(substr(family, 2L, 3L), VV = , EE = "full", VI = , EI = "diag", II = "sphere"),
       shared = family_shared(family), psi = prior$psi, nu = as.double(prior$nu))
}

# The prior that keeps every covariance estimate positive definite however few rows a group
# has: `nu` pseudo-rows with scatter `psi`, a share of the data's covariance (see
# group_prior_share); an estimate is (W + psi) / (n + nu).
mixture_prior <- function(x, share) {
  d <- ncol(x)
  cv <- if (nrow(x) > 1L) stats::cov(x) else matrix(0, d, d)
  floor <- 1e-10 * max(1, mean(diag(cv))) # a column without spread
  list(psi = share * cv + diag(floor, d), nu = d + 2)
}

# The family's covariance estimate from a scatter matrix W of n rows (about their mean).
family_cov <- function(family, W, n, prior) {
  d <- nrow(W)
  switch(substr(family, 2L, 3L),
         VV = , EE = (W + prior$psi) / (n + prior$nu),
         VI = , EI = diag((diag(W) + diag(prior$psi)) / (n + prior$nu), d),
         II = diag((sum(diag(W)) + sum(diag(prior$psi))) / ((n + prior$nu) * d), d))
}

# The log-likelihood of n rows with scatter W about their mean under the family's covariance
# estimate S (family_cov()): -(n d log(2 pi) + n log det S + tr(S^-1 W)) / 2. Diagonal and
# spherical shapes in closed form; a full one through its Cholesky factor (-Inf should it
# not be positive definite, which the prior prevents but rounding might not).
scatter_loglik <- function(family, W, n, prior) {
  d <- nrow(W)
  shape <- substr(family, 2L, 3L)
  if (shape %in% c("VI", "EI", "II")) {
    v <- family_cov(family, W, n, prior)[cbind(seq_len(d), seq_len(d))]
    return(-0.5 * (n * d * log(2 * pi) + n * sum(log(v)) + sum(diag(W) / v)))
  }
  ch <- tryCatch(chol(family_cov(family, W, n, prior)), error = function(e) NULL)
  if (is.null(ch)) return(-Inf)
  -0.5 * (n * d * log(2 * pi) + n * 2 * sum(log(diag(ch))) + sum(chol2inv(ch) * W))
}

# A group's moments: rows n, column sums s, cross-products q; its scatter about its mean.
moments_scatter <- function(m) m$q - tcrossprod(m$s) / m$n
moments_add <- function(a, b) list(n = a$n + b$n, s = a$s + b$s, q = a$q + b$q)

# The classification log-likelihood of a partition into groups with these moments (each row
# counted in its group's Gaussian, with the group's share of the rows as its proportion).
partition_loglik <- function(groups, n, family, prior) {
  ns <- vapply(groups, `[[`, 0, "n")
  mix <- sum(ns * log(ns / n))
  if (family_shared(family)) {
    W <- Reduce(`+`, lapply(groups, moments_scatter))
    return(mix + scatter_loglik(family, W, n, prior))
  }
  mix + sum(vapply(groups, function(g) {
    scatter_loglik(family, moments_scatter(g), g$n, prior)
  }, 0))
}

# The criterion a partition is chosen by (higher is better): the BIC of its classification
# log-likelihood, 2 loglik - (free parameters) log(n). On hard partitions it penalises
# groups that overlap, as the ICL does: splitting one Gaussian cloud in two never pays.
partition_criterion <- function(loglik, family, G, d, n) {
  2 * loglik - family_params(family, G, d) * log(n)
}

# The mixture's parameters from rows x and their weights z (n x G): proportions, means,
# covariances of the family.
mixture_mstep <- function(x, z, family, prior) {
  n <- nrow(x)
  ng <- colSums(z)
  mu <- crossprod(z, x) / ng
  W <- lapply(seq_along(ng), function(g) crossprod((x - rep(mu[g, ], each = n)) * sqrt(z[, g])))
  cov <- if (family_shared(family)) {
    rep(list(family_cov(family, Reduce(`+`, W), n, prior)), length(ng))
  } else {
    lapply(seq_along(ng), function(g) family_cov(family, W[[g]], ng[g], prior))
  }
  list(pro = ng / n, mean = mu, cov = cov)
}

# log(pro_g) + log N(x_i | mean_g, cov_g) for every row i and group g.
mixture_logdens <- function(x, par) {
  d <- ncol(x)
  vapply(seq_along(par$pro), function(g) {
    ch <- chol(par$cov[[g]])
    q <- colSums(backsolve(ch, t(x) - par$mean[g, ], transpose = TRUE)^2)
    log(par$pro[g]) - 0.5 * (d * log(2 * pi) + 2 * sum(log(diag(ch))) + q)
  }, numeric(nrow(x)))
}

# Each row's group under a mixture: the group of highest posterior (ties to the lower).
mixture_classify <- function(x, par) {
  max.col(matrix(mixture_logdens(x, par), nrow(x)), ties.method = "first")
}

# EM for a mixture of the family started from a partition of the rows (labels 1..G), at
# most `iter` steps or until the log-likelihood gains less than 1e-8 of itself: each step
# the proportions, means and covariances (mixture_mstep()'s), then each row's weights from
# its log-densities (mixture_logdens()'s). In C (src/core/som_mixture.c). Returns the
# parameters and each row's group; NULL when a group empties or a covariance degenerates.
mixture_em <- function(x, labels, family, prior, iter = 50L) {
  par <- call_core("fit the groups' mixture", NULL, function() {
    .Call(C_mixture_em, x, as.integer(labels),
          c(family_spec(family, prior), iter = as.integer(iter), tol = 1e-8))
  })
  if (is.null(par)) return(NULL)
  d <- ncol(x)
  par$cov <- lapply(seq_along(par$pro), function(g) matrix(par$cov[, , g], d, d))
  list(par = par, labels = mixture_classify(x, par))
}
