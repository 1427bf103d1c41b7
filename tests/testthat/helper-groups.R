# A slow reference of select_size()'s grouping rule, written from its documentation
# (?select_size, "Groups") with loops over the rows rather than the package's moments:
# the covariance of each shape with the prior (d + 2 pseudo-rows, a tenth of the data's
# covariance), each partition's classification log-likelihood summed row by row, greedy
# joining of the neurons' cells (the smallest ones, below 1% of the rows and 5, set aside up
# to 5% of the rows), the BIC of every candidate whose groups hold 1% of the rows (and 5),
# then EM from the best one, every row (those set aside too) to its most probable group.
# With categorical columns (`blocks`: each one's indicator columns `cols` and their
# `height`), the Gaussian part is over the other columns and every row adds, in its group,
# the log-probability of its level per categorical column (a share where it was missing),
# the probabilities from the group's counts with one pseudo-row (half spread as the rows
# spread, half evenly), and the criterion counts the levels less one per column and group.

ref_shapes <- c("VVV", "EEE", "VVI", "EEI", "VII", "EII")

ref_cov <- function(shape, W, n, psi, nu) {
  d <- nrow(W)
  full <- (W + psi) / (n + nu)
  if (shape %in% c("VVV", "EEE")) return(full)
  if (shape %in% c("VVI", "EEI")) return(diag(diag(full), d))
  diag(sum(diag(W + psi)) / ((n + nu) * d), d)
}

ref_dens <- function(x, mean, S) { # log density of each row
  d <- ncol(x)
  inv <- solve(S)
  ld <- as.numeric(determinant(S, logarithm = TRUE)$modulus)
  vapply(seq_len(nrow(x)), function(i) {
    v <- x[i, ] - mean
    -0.5 * (d * log(2 * pi) + ld + sum(v * (inv %*% v)))
  }, 0)
}

# a categorical column's pseudo-row: half as the rows spread, half evenly
ref_alpha <- function(x, b) {
  shares <- colMeans(x[, b$cols, drop = FALSE]) / b$height
  shares <- shares / sum(shares)
  (shares + 1 / length(shares)) / 2
}

# each group's level probabilities per categorical column, from the weights z
ref_levels <- function(x, z, blocks, alpha) {
  lapply(seq_along(blocks), function(k) {
    b <- blocks[[k]]
    t(vapply(seq_len(ncol(z)), function(g) {
      cnt <- colSums(x[, b$cols, drop = FALSE] / b$height * z[, g])
      (cnt + alpha[[k]]) / (sum(z[, g]) + 1)
    }, numeric(length(b$cols))))
  })
}

# each row's categorical log-probability in each group (n x G)
ref_cat_dens <- function(x, levels, blocks) {
  out <- 0
  for (k in seq_along(blocks)) {
    b <- blocks[[k]]
    out <- out + (x[, b$cols, drop = FALSE] / b$height) %*% t(log(levels[[k]]))
  }
  out
}

# each group's mean and covariance, from the rows and their weights z (n x G)
ref_params <- function(x, z, shape, psi, nu) {
  n <- nrow(x)
  G <- ncol(z)
  if (ncol(x) == 0L) return(list(pro = colSums(z) / n))
  means <- lapply(seq_len(G), function(g) colSums(x * z[, g]) / sum(z[, g]))
  W <- lapply(seq_len(G), function(g) {
    out <- matrix(0, ncol(x), ncol(x))
    for (i in seq_len(n)) out <- out + z[i, g] * tcrossprod(x[i, ] - means[[g]])
    out
  })
  covs <- if (substr(shape, 1, 1) == "E") {
    rep(list(ref_cov(shape, Reduce(`+`, W), n, psi, nu)), G)
  } else {
    lapply(seq_len(G), function(g) ref_cov(shape, W[[g]], sum(z[, g]), psi, nu))
  }
  list(pro = colSums(z) / n, means = means, covs = covs)
}

ref_loglik <- function(x, labels, shape, psi, nu, cat = NULL) { # labels 1..G, every group with rows
  z <- outer(labels, seq_len(max(labels)), "==") * 1
  xg <- if (is.null(cat)) x else x[, cat$gauss, drop = FALSE]
  p <- ref_params(xg, z, shape, psi, nu)
  cd <- if (!is.null(cat)) ref_cat_dens(x, ref_levels(x, z, cat$blocks, cat$alpha), cat$blocks)
  sum(vapply(seq_len(nrow(x)), function(i) {
    g <- labels[i]
    log(p$pro[g]) + (if (ncol(xg)) ref_dens(xg[i, , drop = FALSE], p$means[[g]], p$covs[[g]]) else 0) +
      (if (!is.null(cd)) cd[i, g] else 0)
  }, 0))
}

ref_nparams <- function(shape, G, d) {
  cov <- if (shape %in% c("VVV", "EEE")) d * (d + 1) / 2 else if (shape %in% c("VVI", "EEI")) d else 1
  (G - 1) + G * d + (if (substr(shape, 1, 1) == "E") 1 else G) * cov
}

# EM from the groups `labels`: 50 steps at most, until the log-likelihood gains less than
# 1e-8 of itself; the parameters from the last weights (NULL when a group empties).
ref_em <- function(x, labels, shape, psi, nu) {
  z <- outer(labels, seq_len(max(labels)), "==") * 1
  old <- -Inf
  for (it in 1:50) {
    if (any(colSums(z) < 1)) return(NULL)
    p <- ref_params(x, z, shape, psi, nu)
    ld <- sapply(seq_len(ncol(z)), function(g) log(p$pro[g]) + ref_dens(x, p$means[[g]], p$covs[[g]]))
    top <- apply(ld, 1, max)
    ll <- sum(top + log(rowSums(exp(ld - top))))
    z <- exp(ld - top) / rowSums(exp(ld - top))
    if (ll - old < 1e-8 * abs(ll)) break
    old <- ll
  }
  ref_params(x, z, shape, psi, nu)
}

# Three overlapping Gaussian groups in two columns and a binary column (8 rows of 180 at
# 1) that has nothing to do with them: a point mass the shapes with a variance per group
# would make a group of (ecoli's `lip` column in the field's suite).
lip_blobs <- function(seed) {
  withr::with_seed(seed, {
    g <- rep(1:3, each = 60)
    structure(cbind(c(0, 3, 0)[g] + rnorm(180), c(0, 0, 3)[g] + rnorm(180),
                    replace(rep(0, 180), sample(180, 8), 1)), groups = g)
  })
}

# Whether a partition's groups are degenerate under `shape` (?select_size, "Groups"): under
# a shape with a covariance per group, in a column where 90% of the rows or more have
# another row within 1e-5 of the data's spread (the root mean square of the centred
# values), a group's variance under 1e-6 of the column's; under the spherical one, the
# mean of a group's columns' variances under 1e-6 of theirs.
ref_degenerate <- function(x, labels, shape) {
  if (!ncol(x)) return(FALSE)
  xc <- sweep(x, 2, colMeans(x))
  tol <- 1e-5 * sqrt(mean(xc^2))
  total <- colMeans(xc^2)
  tied <- vapply(seq_len(ncol(x)), function(j) {
    mean(vapply(seq_len(nrow(x)), function(i) any(abs(xc[-i, j] - xc[i, j]) <= tol), TRUE)) >= 0.9
  }, TRUE)
  groups <- split(seq_len(nrow(x)), labels)
  vars <- t(vapply(groups, function(r) {
    apply(xc[r, , drop = FALSE], 2, function(v) mean((v - mean(v))^2))
  }, numeric(ncol(x))))
  if (substr(shape, 1, 1) == "E") return(FALSE) # a shared covariance: not asked
  vars <- vars[lengths(groups) >= 2, , drop = FALSE]
  if (substr(shape, 2, 3) == "II") return(any(rowMeans(vars) < 1e-6 * mean(total)))
  any(vars[, tied, drop = FALSE] < rep(1e-6 * total[tied], each = nrow(vars)))
}

ref_grouping <- function(x, cl, N, blocks = NULL) {
  all_x <- x
  n <- nrow(x)
  cat <- if (!is.null(blocks)) {
    list(blocks = blocks, alpha = lapply(blocks, function(b) ref_alpha(x, b)),
         gauss = setdiff(seq_len(ncol(x)), unlist(lapply(blocks, `[[`, "cols"))))
  }
  xg <- if (is.null(cat)) x else x[, cat$gauss, drop = FALSE]
  d <- ncol(xg)
  cv <- if (d) stats::cov(xg) else matrix(0, 0, 0)
  psi <- 0.1 * cv + diag(1e-10 * max(1, mean(diag(cv)), na.rm = TRUE), d)
  nu <- d + 2
  cat_params <- sum(vapply(blocks, function(b) length(b$cols) - 1, 0))
  least <- max(5, 0.01 * n)
  rows <- tabulate(cl, N)
  small <- which(rows > 0 & rows < least)
  small <- small[order(rows[small], small)]
  aside <- small[cumsum(rows[small]) <= 0.05 * n]
  x <- x[!cl %in% aside, , drop = FALSE]
  cl <- cl[!cl %in% aside]
  n <- nrow(x)
  xg_kept <- if (is.null(cat)) x else x[, cat$gauss, drop = FALSE]
  scores <- NULL
  best <- NULL
  at <- list() # each count's best candidate
  for (shape in if (d) ref_shapes else "VVV") {
    groups <- lapply(sort(unique(cl)), function(j) j) # each a set of neurons
    repeat {
      labels <- vapply(cl, function(j) which(vapply(groups, function(g) j %in% g, TRUE)), 1L)
      ll <- ref_loglik(x, labels, shape, psi, nu, cat)
      G <- length(groups)
      crit <- 2 * ll - (ref_nparams(shape, G, d) + G * cat_params) * log(n)
      if (G == 1 || (min(tabulate(labels, G)) >= least && !ref_degenerate(xg_kept, labels, shape))) {
        scores <- rbind(scores, data.frame(family = shape, groups = G, criterion = crit))
        cand <- list(family = shape, groups = G, criterion = crit, labels = labels)
        if (is.null(best) || crit > best$criterion + 1e-9 * abs(best$criterion)) best <- cand
        if (length(at) < G || is.null(at[[G]]) || crit > at[[G]]$criterion + 1e-9 * abs(at[[G]]$criterion)) {
          at[[G]] <- cand
        }
      }
      if (G == 1) break
      top <- -Inf
      for (i in seq_len(G - 1)) for (j in (i + 1):G) {
        merged <- groups
        merged[[i]] <- c(merged[[i]], merged[[j]])
        merged[[j]] <- NULL
        lab <- vapply(cl, function(k) which(vapply(merged, function(g) k %in% g, TRUE)), 1L)
        v <- ref_loglik(x, lab, shape, psi, nu, cat)
        if (v > top) {
          top <- v
          pick <- merged
        }
      }
      groups <- pick
    }
  }
  # each row's log density in each group: its Gaussian part and its levels'
  dens <- function(x, z, rows, family) {
    xg <- if (is.null(cat)) x else x[, cat$gauss, drop = FALSE]
    p <- ref_params(xg, z, family, psi, nu)
    rg <- if (is.null(cat)) rows else rows[, cat$gauss, drop = FALSE]
    out <- vapply(seq_len(ncol(z)), function(g) {
      log(p$pro[g]) + (if (d) ref_dens(rg, p$means[[g]], p$covs[[g]]) else rep(0, nrow(rows)))
    }, numeric(nrow(rows)))
    out <- matrix(out, nrow(rows))
    if (!is.null(cat)) out <- out + ref_cat_dens(rows, ref_levels(x, z, cat$blocks, cat$alpha), cat$blocks)
    out
  }
  logsum <- function(ld) {
    top <- apply(ld, 1, max)
    sum(top + log(rowSums(exp(ld - top))))
  }
  em <- function(cand) { # the weights after EM from a candidate
    z <- outer(cand$labels, seq_len(cand$groups), "==") * 1
    if (cand$groups == 1) return(z)
    old <- -Inf
    for (it in 1:50) {
      ld <- dens(x, z, x, cand$family)
      ll <- logsum(ld)
      z <- exp(ld - apply(ld, 1, max)) / rowSums(exp(ld - apply(ld, 1, max)))
      if (ll - old < 1e-8 * abs(ll)) break
      old <- ll
    }
    z
  }
  # the mixture's merge: the best candidate of each count up to the classification's, the
  # count whose mixture (after EM) has the highest BIC kept, ties to the fewer groups
  K <- best$groups
  zs <- lapply(seq_len(K), function(k) if (length(at) >= k && !is.null(at[[k]])) em(at[[k]]))
  z <- zs[[K]]
  merged <- NULL
  if (K > 1) {
    ks <- which(!vapply(zs, is.null, TRUE))
    bic <- vapply(ks, function(k) {
      2 * logsum(dens(x, zs[[k]], x, at[[k]]$family)) - (ref_nparams(at[[k]]$family, k, d) + k * cat_params) * log(n)
    }, 0)
    merged <- data.frame(groups = ks, mixture_bic = bic)
    k <- ks[which.max(bic)]
    best <- at[[k]]
    z <- zs[[k]]
  }
  ld <- dens(x, z, all_x, best$family)
  labels <- max.col(matrix(ld, nrow(all_x)), "first")
  best$labels <- labels
  best$scores <- scores
  best$merged <- merged
  best
}

# The greedy agglomeration of cells (moments: a list per cell of n, s, q) under a shape, a
# loop over every pair at every step, each union's log-likelihood from its rows' scatter:
# one entry per step, list(labels, rows, loglik), as ?select_size ("Groups") says.
ref_agglomerate <- function(moments, shape, n, psi, nu, down_to = 1L) {
  scatter <- function(m) m$q - tcrossprod(m$s) / m$n
  loglik_of <- function(W, rows) {
    S <- ref_cov(shape, W, rows, psi, nu)
    ch <- tryCatch(chol(S), error = function(e) NULL)
    if (is.null(ch)) return(-Inf)
    -0.5 * (rows * nrow(W) * log(2 * pi) + rows * 2 * sum(log(diag(ch))) + sum(solve(S) * W))
  }
  shared <- substr(shape, 1, 1) == "E"
  part_loglik <- function(groups) {
    ns <- vapply(groups, `[[`, 0, "n")
    mix <- sum(ns * log(ns / n))
    if (shared) return(mix + loglik_of(Reduce(`+`, lapply(groups, scatter)), n))
    mix + sum(vapply(groups, function(g) loglik_of(scatter(g), g$n), 0))
  }
  keep <- which(vapply(moments, `[[`, 0, "n") > 0)
  groups <- moments[keep]
  members <- as.list(keep)
  path <- list()
  repeat {
    labels <- integer(length(moments))
    for (k in seq_along(members)) labels[members[[k]]] <- k
    path[[length(path) + 1L]] <- list(labels = labels, rows = unname(vapply(groups, `[[`, 0, "n")),
                                      loglik = part_loglik(groups))
    K <- length(groups)
    if (K < 2L || K <= down_to) break
    best <- -Inf
    for (i in seq_len(K - 1L)) for (j in (i + 1L):K) {
      merged <- groups
      merged[[i]] <- list(n = groups[[i]]$n + groups[[j]]$n, s = groups[[i]]$s + groups[[j]]$s,
                          q = groups[[i]]$q + groups[[j]]$q)
      merged[[j]] <- NULL
      v <- part_loglik(merged)
      if (is.finite(v) && v > best) {
        best <- v
        pick <- c(i, j)
      }
    }
    if (!is.finite(best)) break
    groups[[pick[1]]] <- list(n = groups[[pick[1]]]$n + groups[[pick[2]]]$n,
                              s = groups[[pick[1]]]$s + groups[[pick[2]]]$s,
                              q = groups[[pick[1]]]$q + groups[[pick[2]]]$q)
    members[[pick[1]]] <- c(members[[pick[1]]], members[[pick[2]]])
    groups[[pick[2]]] <- members[[pick[2]]] <- NULL
  }
  path
}

# A rule's inputs (R/rule_inputs.R) for the tests that call one rule: the fit's largest
# map's winners of y; `gaussian` the Gaussian groups, or a stand-in list(groups = G); the
# settings as select_size() makes them.
test_rule_inputs <- function(fit, y, k_max, gaussian = NULL, shape = "auto", told = NULL,
                             reps = NULL, work = NULL, args = list(), seed = 1L, noise = FALSE) {
  top <- fit$clusters[[paste0("N", max(fit$params$sizes))]]
  somgpu:::new_rule_inputs(y, fit, top, gaussian, reps, work,
                           list(shape = shape, shape_asked = shape, k_max = k_max, told = told,
                                noise = noise, seed = seed, args = args))
}

# One rule of the pipeline on `inputs` beside the grouping so far, as the pipeline runs it
# (its entry in rule_table(): not tried where the number told or the shape rules it out).
apply_rule <- function(name, inputs, current) {
  somgpu:::run_rule(somgpu:::rule_table()[[name]], inputs, current)
}

# A stand-in for the grouping so far: `G` groups found by `rule`.
so_far <- function(G, rule = "gaussian") list(rule = rule, groups = G, scores = NULL)

# k groups of n_per rows around the vertices of a regular simplex in 5 dimensions (every
# two centres `sep` apart), unit spread
simplex_blobs <- function(k, sep = 8, n_per = 50, seed = 1) {
  withr::with_seed(seed, {
    basis <- qr.Q(qr(cbind(1, diag(6)[, 1:5])))[, 2:6] # orthonormal, orthogonal to (1, ..., 1)
    centres <- (diag(6) %*% basis)[seq_len(k), ] * sep / sqrt(2)
    centres[rep(seq_len(k), each = n_per), ] + matrix(rnorm(k * n_per * 5), ncol = 5)
  })
}

# k groups of unequal sizes around random centres at least min_sep apart, spreads 0.4..1
random_blobs <- function(k, m = 5, min_sep = 8, seed = 1) {
  withr::with_seed(seed, {
    repeat {
      centres <- matrix(stats::runif(k * m, -8, 8), k)
      if (min(stats::dist(centres)) >= min_sep) break
    }
    ns <- sample(30:120, k, replace = TRUE)
    sds <- runif(k, 0.4, 1)
    do.call(rbind, lapply(seq_len(k), function(i) {
      sweep(matrix(rnorm(ns[i] * m, sd = sds[i]), ns[i]), 2, centres[i, ], "+")
    }))
  })
}

# k round Gaussian groups of n_each rows in 2 columns, their centres on a circle, each
# `spread` from its neighbours; attribute "groups" (test-connected.R, test-figures.R).
blobs <- function(k, n_each, sd = 1, spread = 5, seed = 1) {
  withr::with_seed(seed, {
    a <- 2 * pi * seq_len(k) / k
    centres <- spread / (2 * sin(pi / k)) * cbind(cos(a), sin(a)) # neighbours `spread` apart
    g <- rep(seq_len(k), each = n_each)
    structure(centres[g, ] + matrix(rnorm(2 * length(g), sd = sd), ncol = 2), groups = g)
  })
}
