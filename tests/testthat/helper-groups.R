# A slow reference of select_size()'s grouping rule, written from its documentation
# (?select_size, "Groups") with loops over the rows rather than the package's moments:
# the covariance of each shape with the prior (d + 2 pseudo-rows, a tenth of the data's
# covariance), each partition's classification log-likelihood summed row by row, greedy
# joining of the neurons' cells (the smallest ones, below 1% of the rows and 5, set aside up
# to 5% of the rows), the BIC of every candidate whose groups hold 1% of the rows (and 5),
# then EM from the best one, every row (those set aside too) to its most probable group.

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

# each group's mean and covariance, from the rows and their weights z (n x G)
ref_params <- function(x, z, shape, psi, nu) {
  n <- nrow(x)
  G <- ncol(z)
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

ref_loglik <- function(x, labels, shape, psi, nu) { # labels 1..G, every group with rows
  z <- outer(labels, seq_len(max(labels)), "==") * 1
  p <- ref_params(x, z, shape, psi, nu)
  sum(vapply(seq_len(nrow(x)), function(i) {
    g <- labels[i]
    log(p$pro[g]) + ref_dens(x[i, , drop = FALSE], p$means[[g]], p$covs[[g]])
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

ref_grouping <- function(x, cl, N) {
  all_x <- x
  n <- nrow(x)
  d <- ncol(x)
  cv <- stats::cov(x)
  psi <- 0.1 * cv + diag(1e-10 * max(1, mean(diag(cv))), d)
  nu <- d + 2
  least <- max(5, 0.01 * n)
  rows <- tabulate(cl, N)
  small <- which(rows > 0 & rows < least)
  small <- small[order(rows[small], small)]
  aside <- small[cumsum(rows[small]) <= 0.05 * n]
  x <- x[!cl %in% aside, , drop = FALSE]
  cl <- cl[!cl %in% aside]
  n <- nrow(x)
  scores <- NULL
  best <- NULL
  for (shape in ref_shapes) {
    groups <- lapply(sort(unique(cl)), function(j) j) # each a set of neurons
    repeat {
      labels <- vapply(cl, function(j) which(vapply(groups, function(g) j %in% g, TRUE)), 1L)
      ll <- ref_loglik(x, labels, shape, psi, nu)
      G <- length(groups)
      crit <- 2 * ll - ref_nparams(shape, G, d) * log(n)
      if (G == 1 || min(tabulate(labels, G)) >= least) {
        scores <- rbind(scores, data.frame(family = shape, groups = G, criterion = crit))
        if (is.null(best) || crit > best$criterion + 1e-9 * abs(best$criterion)) {
          best <- list(family = shape, groups = G, criterion = crit, labels = labels)
        }
      }
      if (G == 1) break
      top <- -Inf
      for (i in seq_len(G - 1)) for (j in (i + 1):G) {
        merged <- groups
        merged[[i]] <- c(merged[[i]], merged[[j]])
        merged[[j]] <- NULL
        lab <- vapply(cl, function(k) which(vapply(merged, function(g) k %in% g, TRUE)), 1L)
        v <- ref_loglik(x, lab, shape, psi, nu)
        if (v > top) {
          top <- v
          pick <- merged
        }
      }
      groups <- pick
    }
  }
  p <- if (best$groups > 1) ref_em(x, best$labels, best$family, psi, nu) else
    ref_params(x, outer(best$labels, 1, "==") * 1, best$family, psi, nu)
  ld <- sapply(seq_len(best$groups), function(g) log(p$pro[g]) + ref_dens(all_x, p$means[[g]], p$covs[[g]]))
  labels <- max.col(matrix(ld, nrow(all_x)), "first")
  best$labels <- labels
  best$scores <- scores
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
