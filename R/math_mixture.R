# Gaussian groups for the grouping rule (rule_gaussian.R): six covariance models, a group's
# log-likelihood from its moments (count, sum, cross-products), the classification
# log-likelihood of a partition and its criterion, and EM over the rows. With categorical
# columns (a data frame's, as indicator columns: data_encode.R), the Gaussian part is taken over
# the numeric columns and each group adds a latent-class term: its levels' shares per
# categorical column (a multinomial), whose parameters the criterion counts.

# The covariance models, by mclust's names: the first letter says whether each group has
# its own covariance (V) or all share one (E), the last whether the covariance's form is
# full (V, E), diagonal (I on the axes: "VVI", "EEI") or spherical ("VII", "EII").
mixture_models <- c("VVV", "EEE", "VVI", "EEI", "VII", "EII")
model_words <- c(VVV = "a full covariance each", EEE = "one shared full covariance",
                  VVI = "a diagonal covariance each", EEI = "one shared diagonal covariance",
                  VII = "a spherical covariance each", EII = "one shared spherical covariance")
model_shared <- function(model) substr(model, 1L, 1L) == "E"

# Whether a mixture's parameters (par) are latent classes alone: every column categorical,
# no Gaussian part and so no covariance model to name.
latent_only <- function(par) !is.null(par$blocks) && !length(par$gauss)

# G of what, in words: "3 Gaussian groups", "1 latent class".
count_words <- function(G, what) {
  sprintf("%d %s%s", G, what, if (G == 1) "" else if (grepl("s$", what)) "es" else "s")
}

# G groups of a mixture briefly, for a decision: "3 Gaussian groups (VVV)", or with
# categorical columns only, "3 latent classes".
mixture_label <- function(model, G, par) {
  if (latent_only(par)) count_words(G, "latent class") else sprintf("%s (%s)", count_words(G, "Gaussian group"), model)
}

# One group of a mixture in words: "one Gaussian cloud", or "one latent class".
one_group_words <- function(par) if (latent_only(par)) "one latent class" else "one Gaussian cloud"

# The covariance model a report names (glance(), summary()): mclust's name, NA for latent
# classes alone (and for a grouping without one).
reported_model <- function(grouping) {
  if (is.null(grouping) || latent_only(grouping$par)) NA_character_ else grouping$model
}

# G groups of a mixture (par: its parameters) in words: "3 Gaussian groups with a full
# covariance each"; with categorical columns, each group's levels' shares said too, or for
# categorical columns only, "3 latent classes".
mixture_words <- function(model, G, par) {
  groups <- function(what) count_words(G, what)
  if (is.null(par$blocks)) return(sprintf("%s with %s", groups("Gaussian group"), model_words[[model]]))
  k <- length(par$blocks)
  cols <- sprintf("%d categorical column%s", k, if (k == 1L) "" else "s")
  if (!length(par$gauss)) return(sprintf("%s (each group its levels' shares in the %s)", groups("latent class"), cols))
  sprintf("%s with %s and their levels' shares in the %s", groups("Gaussian group"),
          model_words[[model]], cols)
}

# Free parameters of G groups in d columns: G - 1 proportions, G means, the covariances.
model_params <- function(model, G, d) {
  cov <- switch(substr(model, 2L, 3L), VV = , EE = d * (d + 1) / 2, VI = , EI = d, II = 1)
  (G - 1) + G * d + (if (model_shared(model)) 1 else G) * cov
}

# The model and prior as the compiled code reads them (src/groups/som_groups.h).
model_spec <- function(model, prior) {
  out <- list(form = switch(substr(model, 2L, 3L), VV = , EE = "full", VI = , EI = "diag",
                             II = "sphere"),
              shared = model_shared(model), psi = prior$psi, nu = as.double(prior$nu))
  if (is.null(prior$blocks)) return(out)
  c(out, list(levels = vapply(prior$blocks, function(b) length(b$cols), 1L),
              alpha = as.double(unlist(lapply(prior$blocks, `[[`, "alpha")))))
}

# The prior that keeps every covariance estimate positive definite however few rows a group
# has: `nu` pseudo-rows with scatter `psi`, a share of the data's covariance (the constant
# "prior_share", R/base_tuning.R); an estimate is (W + psi) / (n + nu). With `blocks`
# (categorical columns, encoding_blocks(): each one's indicator columns `cols` of x and
# their `height`), the Gaussian part is over the other columns (`gauss`), and each block
# gets one pseudo-row spread over its levels as the rows spread (`alpha`: the levels'
# shares), so that a level a group lacks keeps a small probability; `at`, its levels'
# places in the moments' counts (`counted`, every block's columns in order, and `heights`,
# each one's block's height).
mixture_prior <- function(x, share, blocks = NULL) {
  gauss <- setdiff(seq_len(ncol(x)), unlist(lapply(blocks, `[[`, "cols")))
  if (!is.null(blocks)) x_all <- x
  if (!is.null(blocks)) x <- x[, gauss, drop = FALSE]
  d <- ncol(x)
  cv <- if (nrow(x) > 1L && d > 0L) stats::cov(x) else matrix(0, d, d)
  floor <- 1e-10 * spread_scale(x, cv) # a column without spread, at the data's scale
  out <- list(psi = share * cv + diag(floor, d), nu = d + 2)
  if (is.null(blocks)) return(out)
  end <- cumsum(lengths(lapply(blocks, `[[`, "cols")))
  out$gauss <- gauss
  out$counted <- unlist(lapply(blocks, `[[`, "cols"))
  out$heights <- rep(vapply(blocks, `[[`, 0, "height"), lengths(lapply(blocks, `[[`, "cols")))
  out$blocks <- lapply(seq_along(blocks), function(k) {
    b <- blocks[[k]]
    shares <- colMeans(x_all[, b$cols, drop = FALSE]) / b$height
    shares <- pmax(shares, 0) / max(sum(pmax(shares, 0)), 1e-300)
    # half of the pseudo-row as the rows spread, half evenly: no level's probability is 0
    c(b, list(alpha = (shares + 1 / length(shares)) / 2,
              at = (end[k] - length(b$cols) + 1L):end[k]))
  })
  out
}

# The data's scale, a variance, for the floor of a column without spread: the columns' mean
# variance, never an absolute one (which made data multiplied by 1e-7 one group), so that
# the answer does not change when the data are multiplied by a constant; where no column
# varies, the values' mean square, or 1.
spread_scale <- function(x, cv) {
  v <- mean(diag(cv), na.rm = TRUE)
  if (!(is.finite(v) && v > 0)) v <- if (length(x)) mean(x^2, na.rm = TRUE) else NaN
  if (is.finite(v) && v > 0) v else 1
}

# The covariance models worth trying under a prior: all of them, or with no Gaussian column
# (every column categorical) one, whose Gaussian part is empty.
mixture_models_for <- function(prior) {
  if (!is.null(prior$blocks) && !length(prior$gauss)) mixture_models[1L] else mixture_models
}

# A group's moments from its rows xr: rows n, column sums s and cross-products q of the
# Gaussian columns; with categorical blocks, `c`, each level's count (a share where the row
# missed the column).
mixture_moments <- function(xr, prior) {
  if (is.null(prior$blocks)) return(list(n = nrow(xr), s = colSums(xr), q = crossprod(xr)))
  xg <- xr[, prior$gauss, drop = FALSE]
  # every block's counts in one colSums() (column by column: the bits of one per block)
  list(n = nrow(xr), s = colSums(xg), q = crossprod(xg),
       c = unname(colSums(xr[, prior$counted, drop = FALSE]) / prior$heights))
}

# Free parameters of the latent-class term per group: the levels less one, per column.
categorical_params <- function(prior) {
  sum(vapply(prior$blocks, function(b) length(b$cols) - 1, 0))
}

# The model's covariance estimate from a scatter matrix W of n rows (about their mean).
model_cov <- function(model, W, n, prior) {
  d <- nrow(W)
  switch(substr(model, 2L, 3L),
         VV = , EE = (W + prior$psi) / (n + prior$nu),
         VI = , EI = diag((diag(W) + diag(prior$psi)) / (n + prior$nu), d),
         II = diag((sum(diag(W)) + sum(diag(prior$psi))) / ((n + prior$nu) * d), d))
}

# The criterion a partition is chosen by (higher is better): the BIC of its classification
# log-likelihood, 2 loglik - (free parameters) log(n). On hard partitions it penalises
# groups that overlap, as the ICL does: splitting one Gaussian cloud in two never pays.
# With categorical columns (prior$blocks), d is the Gaussian columns' count and each group
# adds its levels' shares' parameters.
partition_criterion <- function(loglik, model, G, d, n, prior = NULL) {
  if (!is.null(prior$blocks)) {
    return(2 * loglik - (model_params(model, G, length(prior$gauss)) +
                           G * categorical_params(prior)) * log(n))
  }
  2 * loglik - model_params(model, G, d) * log(n)
}

# The mixture's parameters from rows x and their weights z (n x G): proportions, means,
# covariances of the model.
mixture_mstep <- function(x, z, model, prior) {
  n <- nrow(x)
  ng <- colSums(z)
  mu <- crossprod(z, x) / ng
  mixed <- !is.null(prior$blocks)
  xg <- if (mixed) x[, prior$gauss, drop = FALSE] else x
  mg <- if (mixed) mu[, prior$gauss, drop = FALSE] else mu
  W <- lapply(seq_along(ng), function(g) crossprod((xg - rep(mg[g, ], each = n)) * sqrt(z[, g])))
  cov <- if (model_shared(model)) {
    rep(list(model_cov(model, Reduce(`+`, W), n, prior)), length(ng))
  } else {
    lapply(seq_along(ng), function(g) model_cov(model, W[[g]], ng[g], prior))
  }
  if (!mixed) return(list(pro = ng / n, mean = mu, cov = cov))
  for (b in prior$blocks) { # the levels' shares, with the prior's pseudo-row, as heights
    counts <- crossprod(z, x[, b$cols, drop = FALSE]) / b$height
    mu[, b$cols] <- sweep(counts, 2L, b$alpha, "+") / (ng + sum(b$alpha)) * b$height
  }
  list(pro = ng / n, mean = mu, cov = cov, gauss = prior$gauss, blocks = prior$blocks)
}

# A mixture's groups `kept` (in that order), its categorical part kept with them.
mixture_subset <- function(par, kept) {
  out <- list(pro = par$pro[kept], mean = par$mean[kept, , drop = FALSE], cov = par$cov[kept])
  if (!is.null(par$blocks)) out[c("gauss", "blocks")] <- par[c("gauss", "blocks")]
  out
}

# log(pro_g) + log N(x_i | mean_g, cov_g) for every row i and group g.
# With categorical columns, the Gaussian part over the numeric columns, and each level's
# log-probability per row (times its share, where the row missed the column).
mixture_logdens <- function(x, par) {
  if (!is.null(par$blocks)) return(mixed_logdens(x, par))
  d <- ncol(x)
  vapply(seq_along(par$pro), function(g) {
    ch <- chol(par$cov[[g]])
    q <- colSums(backsolve(ch, t(x) - par$mean[g, ], transpose = TRUE)^2)
    log(par$pro[g]) - 0.5 * (d * log(2 * pi) + 2 * sum(log(diag(ch))) + q)
  }, numeric(nrow(x)))
}

mixed_logdens <- function(x, par) {
  gauss <- par$gauss
  num <- if (length(gauss)) {
    mixture_logdens(x[, gauss, drop = FALSE],
                    list(pro = par$pro, mean = par$mean[, gauss, drop = FALSE], cov = par$cov))
  } else {
    matrix(rep(log(par$pro), each = nrow(x)), nrow(x))
  }
  for (b in par$blocks) {
    num <- num + (x[, b$cols, drop = FALSE] / b$height) %*%
      t(log(par$mean[, b$cols, drop = FALSE] / b$height))
  }
  num
}

# The mixture's log-likelihood of the rows x: the sum over rows of log sum_g pro_g f_g(x).
mixture_loglik <- function(x, par) {
  ld <- matrix(mixture_logdens(x, par), nrow(x))
  top <- apply(ld, 1L, max)
  sum(top + log(rowSums(exp(ld - top))))
}

# The mixture of a hard partition of the rows x (labels 1..G): mixture_mstep()'s.
mixture_hard <- function(x, labels, model, prior) {
  z <- matrix(0, nrow(x), max(labels))
  z[cbind(seq_len(nrow(x)), labels)] <- 1
  mixture_mstep(x, z, model, prior)
}

# Each row's group under a mixture: the group of highest posterior (ties to the lower).
mixture_classify <- function(x, par) {
  max.col(matrix(mixture_logdens(x, par), nrow(x)), ties.method = "first")
}

# EM for a mixture of the model started from a partition of the rows (labels 1..G), at
# most `iter` steps or until the log-likelihood gains less than 1e-8 of itself: each step
# the proportions, means and covariances (mixture_mstep()'s), then each row's weights from
# its log-densities (mixture_logdens()'s). In C (src/groups/som_mixture.c). Returns the
# parameters and each row's group; NULL when a group empties or a covariance degenerates.
mixture_em <- function(x, labels, model, prior, iter = 50L) {
  blocks <- prior$blocks
  gauss <- if (is.null(blocks)) seq_len(ncol(x)) else prior$gauss
  columns <- list(gauss = as.integer(gauss), cols = as.integer(unlist(lapply(blocks, `[[`, "cols"))),
                  height = as.double(vapply(blocks, `[[`, 0, "height")))
  par <- call_core("fit the groups' mixture", NULL, function() {
    .Call(C_mixture_em, x, as.integer(labels), columns,
          c(model_spec(model, prior), iter = as.integer(iter), tol = 1e-8))
  })
  if (is.null(par)) return(NULL)
  d <- length(gauss)
  par$cov <- lapply(seq_along(par$pro), function(g) matrix(par$cov[, , g], d, d))
  if (!is.null(blocks)) par[c("gauss", "blocks")] <- list(prior$gauss, blocks)
  list(par = par, labels = mixture_classify(x, par))
}
