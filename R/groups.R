# The groups the data hold, found on a ring's map: how select_size() and summary() answer
# "how many groups, and which rows are in each". The map of the largest size orders the
# data finely along its ring; its neurons' cells are the building blocks. For each of six
# covariance shapes (mixture.R), the cells are joined greedily (the two groups whose union
# raises the classification log-likelihood most, down to one group), and every partition
# on the way whose groups all hold enough rows is a candidate. The candidate of highest
# criterion (the BIC of the classification log-likelihood, partition_criterion()) gives
# the number of groups and their shape; EM over the rows, started from it, gives every
# row its group (a group may span an arc of neighbouring neurons, or cells the ring passed
# twice). One group means no group structure. Measured on real labelled data and shaped
# groups (bench/bench_select_real.R) and on 68 data sets with a known number of groups
# (bench/bench_select_accuracy.R), beside mclust, the gap statistic and prediction strength.

# The prior's share of the data's covariance (mixture_prior()): enough to keep a group of a
# few rows from a degenerate covariance, small beside a real group's own scatter.
group_prior_share <- 0.1

# Rows every group of a candidate must hold: 1% of the rows, and 5.
group_min_rows <- function(n) max(5, 0.01 * n)

# The most rows the neurons set aside from the groups may hold together (group_aside()).
group_aside_share <- 0.05

# The neurons set aside: those with rows but fewer than `least`, fewest rows first (ties to
# the lower neuron), as long as together they hold at most group_aside_share of the n rows.
group_aside <- function(rows, least, n) {
  small <- which(rows > 0 & rows < least)
  small <- small[order(rows[small], small)]
  small[cumsum(rows[small]) <= group_aside_share * n]
}

# The fit's maps and x (its rows, in data units) in the space the maps trained in: scaled as
# the fit scales them, each column multiplied by the square root of its weight; x a plain
# matrix (an encoded one's every subset would go through `[.somgpu_encoded`).
training_space <- function(fit, x) {
  x <- prepared_matrix(plain_matrix(x), NULL, fit$scaling)
  w <- if (is.null(fit$scaling)) fit$weights else fit$scaled_weights
  if (!is.null(fit$var_weights)) {
    v <- sqrt(fit$var_weights)
    x <- sweep(x, 2, v, "*")
    w <- lapply(w, function(m) sweep(m, 2, v, "*"))
  }
  list(x = unname(x), weights = lapply(w, unname))
}

# The rows x in the space the fit's maps trained in, each row's missing values taken from
# its winner's weights (they move it along no direction), with each row's winner on the map
# of `size` (NA for rows left out). detail: predict(type = "detail") of x at that size.
grouping_rows <- function(fit, x, size, cluster) {
  sp <- training_space(fit, x)
  w <- sp$weights[[match(size, fit$params$sizes)]]
  ok <- !is.na(cluster)
  xs <- sp$x[ok, , drop = FALSE]
  if (anyNA(xs)) {
    miss <- which(is.na(xs), arr.ind = TRUE)
    xs[miss] <- w[cbind(cluster[ok][miss[, 1]], miss[, 2])]
  }
  list(x = xs, cluster = cluster[ok], rows = which(ok), weights = w)
}

# Each neuron's moments (rows, column sums, cross-products) over the rows of its cell (with
# categorical columns, mixture_moments()'s).
neuron_moments <- function(x, cluster, N, prior = NULL) {
  cells <- split(seq_len(nrow(x)), factor(cluster, levels = seq_len(N)))
  lapply(cells, function(r) {
    xr <- x[r, , drop = FALSE]
    if (!is.null(prior$blocks)) return(mixture_moments(xr, prior))
    list(n = length(r), s = colSums(xr), q = crossprod(xr))
  })
}

# Greedy agglomeration of the neurons' cells under a family: from a group per neuron with
# rows, merge at each step the two groups whose union gives the highest classification
# log-likelihood (ties to the first pair, the groups in the order of their lowest neuron),
# down to one group, or to `down_to`. Returns one entry per number of groups: the neurons'
# labels (0 for neurons without rows), the groups' rows and the log-likelihood; with
# categorical columns each group's latent-class term counts too. In C
# (src/core/som_groups.c: every step weighs every pair, O(N^2) unions of d x d scatters).
agglomerate_cells <- function(moments, family, n, prior, down_to = 1L) {
  d <- nrow(prior$psi)
  rows <- vapply(moments, `[[`, 0, "n")
  sums <- vapply(moments, function(m) as.double(m$s), numeric(d))
  cross <- vapply(moments, function(m) as.double(m$q), numeric(d * d))
  counts <- if (!is.null(prior$blocks)) { # the levels' counts (mixture_moments())
    as.double(vapply(moments, function(m) as.double(m$c), numeric(length(moments[[1L]]$c))))
  }
  call_core("join the cells into groups", NULL, function() {
    .Call(C_agglomerate, as.double(rows), matrix(sums, d, length(rows)), as.double(cross), counts,
          c(family_spec(family, prior), n = as.double(n), down_to = as.integer(down_to)))
  })
}

# A group whose rows all tie in a column that takes few values (a binary, clipped or
# rounded column's point mass) has a likelihood that grows without bound under a shape
# that gives each group its own variance there (VVV, VVI; under VII, whose one variance is
# the columns' mean, when the group's rows are one point): no group, as mclust gives such
# a fit no BIC. A candidate with such a group (its variance there under group_degenerate[[
# "variance"]] times the data's: a spread under a thousandth of the data's) is no candidate
# for that shape. A column takes few values when at least group_degenerate[["tied"]] of
# the rows tie with another (within group_degenerate[["tie"]] of the data's spread: a value
# rounded, or with noise far below the data's scale); a group lying flat in a column that
# varies elsewhere (a disc in a plane beside a ball, the suite's mk4) is a group. The
# shapes that share one covariance are left as they are: there the point masses' variance
# is pooled over all rows, the same for every partition that keeps them apart, and asking
# it of them too lost the suite's ecoli (ARI 0.73 -> 0: no candidate was left).
group_degenerate <- c(variance = 1e-6, tied = 0.9, tie = 1e-5)

# Which of the columns of xc (the Gaussian columns, centred) take few values
# (group_degenerate).
discrete_columns <- function(xc) {
  tol <- group_degenerate[["tie"]] * sqrt(mean(xc^2))
  vapply(seq_len(ncol(xc)), function(j) {
    v <- sort(xc[, j])
    close <- diff(v) <= tol
    mean(c(close, FALSE) | c(FALSE, close)) >= group_degenerate[["tied"]]
  }, TRUE)
}

# Whether the partition of the rows xc into `groups` is degenerate under `family`
# (group_degenerate); total: the columns' variances; discrete: discrete_columns(xc).
degenerate_partition <- function(xc, groups, family, total, discrete) {
  spherical <- substr(family, 2L, 3L) == "II"
  if (family_shared(family) || !ncol(xc) || (!spherical && !any(discrete))) return(FALSE)
  n <- rowsum(rep(1, length(groups)), groups)[, 1L]
  v <- rowsum(xc^2, groups) / n - (rowsum(xc, groups) / n)^2
  v <- v[n >= 2L, , drop = FALSE]
  if (spherical) return(any(rowMeans(v) < group_degenerate[["variance"]] * mean(total)))
  any(sweep(v[, discrete, drop = FALSE], 2L, group_degenerate[["variance"]] * total[discrete], "<"))
}

# The groups of one map: rows x (training space, complete) with their winners `cluster` on
# the map's N neurons. Every family's agglomeration gives candidates (partitions whose
# groups all hold group_min_rows(n) rows); the best by partition_criterion() wins, or, with
# `G` given, the partition into G groups of `family` (of the family whose partition into G
# groups has the highest criterion, when `family` is NULL). EM over the rows refines
# it. Returns the family, the count, the criterion of every candidate (`scores`), the
# mixture's parameters, each row's group, numbered in ring order (the group of the
# lowest neuron first), and `cells`, the neurons whose cells were joined (with rows, not
# set aside). blocks: the categorical columns (encoding_blocks()), each group's levels'
# shares then part of its likelihood (mixture.R).
map_grouping <- function(x, cluster, N, family = NULL, G = NULL, blocks = NULL) {
  n <- nrow(x)
  d <- ncol(x)
  prior <- mixture_prior(x, group_prior_share, blocks)
  moments <- neuron_moments(x, cluster, N, prior)
  least <- group_min_rows(n)
  # the fewest-row neurons with fewer than `least` rows, up to group_aside_share of the rows
  # (an outlier's neuron, a neuron between groups), are set aside: their rows count in no
  # candidate and join their most probable group at the end
  aside <- group_aside(vapply(moments, `[[`, 0, "n"), least, n)
  for (j in aside) moments[[j]]$n <- 0
  used <- !(cluster %in% aside)
  n <- sum(used)
  xc <- x[used, if (is.null(prior$gauss)) seq_len(d) else prior$gauss, drop = FALSE]
  xc <- sweep(xc, 2L, colMeans(xc))
  total <- colMeans(xc^2)
  discrete <- discrete_columns(xc)
  scores <- list()
  best <- NULL
  for (fam in if (is.null(family)) mixture_families_for(prior) else family) {
    # with G given (the replicates' case), the path stops at G groups
    for (p in agglomerate_cells(moments, fam, n, prior, if (is.null(G)) 1L else G)) {
      K <- length(p$rows)
      crit <- partition_criterion(p$loglik, fam, K, d, n, prior)
      if (K > 1L && degenerate_partition(xc, p$labels[cluster[used]], fam, total, discrete)) next
      if (!is.null(G)) { # the family's partition into G groups (of every family: the best)
        if (K != G) next
        scores[[length(scores) + 1L]] <- data.frame(family = fam, groups = K, criterion = crit)
        if (is.null(best) || isTRUE(crit > best$criterion)) best <- c(p, family = fam, criterion = crit)
        next
      }
      if (K > 1L && min(p$rows) < least) next
      scores[[length(scores) + 1L]] <- data.frame(family = fam, groups = K, criterion = crit)
      # a tie (within rounding: one group has the same criterion under every shape of the
      # same covariance) goes to the earlier shape in mixture_families
      if (is.finite(crit) && (is.null(best) || crit > best$criterion + 1e-9 * abs(best$criterion))) {
        best <- c(p, family = fam, criterion = crit)
      }
    }
  }
  if (is.null(best)) return(NULL)
  labels <- best$labels[cluster[used]]
  K <- max(labels)
  em <- if (K > 1L) mixture_em(x[used, , drop = FALSE], labels, best$family, prior)
  par <- if (is.null(em)) { # one group, or EM lost a group: the cells' partition as it is
    z <- matrix(0, n, K)
    z[cbind(seq_len(n), labels)] <- 1
    mixture_mstep(x[used, , drop = FALSE], z, best$family, prior)
  } else {
    em$par
  }
  # every row to its most probable group (as predict_groups() assigns new rows); the groups
  # with rows, numbered along the ring (by the lowest neuron that sends them rows)
  labels <- mixture_classify(x, par)
  kept <- sort(unique(labels))
  kept <- kept[order(vapply(kept, function(g) min(cluster[labels == g]), 0))]
  par <- mixture_subset(par, kept)
  list(family = best$family, groups = length(kept), criterion = best$criterion,
       scores = if (length(scores)) `row.names<-`(do.call(rbind, scores), NULL), par = par,
       labels = match(labels, kept), cells = sum(vapply(moments, `[[`, 0, "n") > 0))
}

# The grouping rule on a fit: on its largest map, with the rows x (data units: the fit's
# training rows, or rows like them) and the map's prediction of them (predict(type =
# "detail") at that size, or its clusters). Returns what map_grouping() returns, with
# `size` (the map), `partition` (each row of x its group; NA for rows left out),
# `neurons` (each neuron the group most of its rows join; NA without rows), `rows` (the
# rows grouped) and `occupied` (the neurons holding group_min_rows() rows; each cell a
# group of its own, `groups` = `cells`, means the map could not show more groups).
fit_grouping <- function(fit, x, cluster, family = NULL, G = NULL) {
  size <- max(fit$params$sizes)
  rows <- grouping_rows(fit, x, size, cluster)
  if (!length(rows$rows)) return(NULL)
  out <- map_grouping(rows$x, rows$cluster, size, family, G, encoding_blocks(fit))
  if (is.null(out)) return(NULL)
  out$size <- size
  out$partition <- rep(NA_integer_, nrow(x))
  out$partition[rows$rows] <- out$labels
  out$labels <- NULL
  out$neurons <- vapply(seq_len(size), function(j) {
    g <- out$partition[rows$rows][rows$cluster == j]
    if (length(g)) which.max(tabulate(g, out$groups)) else NA_integer_
  }, 1L)
  out$rows <- length(rows$rows)
  out$occupied <- sum(tabulate(rows$cluster, size) >= group_min_rows(out$rows))
  out
}

# The groups of new rows under a grouping (fit_grouping()'s, connected_grouping()'s or
# told_grouping()'s): each row in the training space of the grouping's fit (`fit`, whose
# map of grouping$size gave the winners `cluster`), missing values from its winner; then
# the mixture's most probable group, its winner's group (connected groups of a fine ring)
# or its nearest grouped row's (connected groups of the rows); NA for the rows in no group
# (grouping$noise, noise_rows()).
predict_groups <- function(grouping, fit, x, cluster) {
  kind <- grouping_kind(grouping)
  if (kind == "connected" && is.null(grouping$noise)) return(grouping$neurons[cluster])
  rows <- grouping_rows(fit, x, grouping$size, cluster)
  out <- rep(NA_integer_, nrow(x))
  if (!length(rows$rows)) return(out)
  g <- switch(kind, connected = grouping$neurons[rows$cluster],
              rows = grouping$ref_group[nearest_rows(rows$x, grouping$ref)$nearest],
              mixture_classify(rows$x, grouping$par))
  if (!is.null(grouping$noise)) {
    noise <- grouping$noise
    if (is.null(noise$ref)) noise$ref <- grouping$ref
    g[noise_rows(rows$x, g, noise)] <- NA_integer_
  }
  out[rows$rows] <- g
  out
}

# A grouping's kind: "gaussian" (fit_grouping()'s, without one), "connected" or "rows".
grouping_kind <- function(grouping) if (is.null(grouping$kind)) "gaussian" else grouping$kind

# The fit whose map a grouping's groups live on: the connected groups' fine ring, or the
# fit of the Gaussian groups' largest map.
grouping_fit <- function(grouping, fit) {
  if (grouping_kind(grouping) == "connected") grouping$fine else fit
}
