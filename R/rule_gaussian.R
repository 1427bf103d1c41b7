# The groups the data hold, found on a ring's map: how select_size() and summary() answer
# "how many groups, and which rows are in each". The map of the largest size orders the
# data finely along its ring; its neurons' cells are the building blocks. For each of six
# covariance models (math_mixture.R), the cells are joined greedily (the two groups whose union
# raises the classification log-likelihood most, down to one group), and every partition
# on the way whose groups all hold enough rows is a candidate. The candidate of highest
# criterion (the BIC of the classification log-likelihood, partition_criterion()) gives
# the number of groups K and their model. Then the mixture's BIC may merge: the best
# candidate of every count up to K, fitted by EM over the rows, and the count whose
# mixture has the highest BIC (mclust's criterion) is kept (a class of wide spread that the
# classification cut into pieces is whole again; the criterion never splits further than
# K). Every row joins its most probable group (a group may span an arc of neighbouring
# neurons, or cells the ring passed twice). One group means no group structure. Measured
# on real labelled data and shaped groups (bench/bench_select_real.R) and on 68 data sets
# with a known number of groups (bench/bench_select_accuracy.R), beside mclust, the gap
# statistic and prediction strength.

# The neurons set aside: those with rows but fewer than `least`, fewest rows first (ties to
# the lower neuron), as long as together they hold at most the share "aside_share" of the n
# rows.
group_aside <- function(rows, least, n) {
  small <- which(rows > 0 & rows < least)
  small <- small[order(rows[small], small)]
  small[cumsum(rows[small]) <= tuned("aside_share") * n]
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

# Greedy agglomeration of the neurons' cells under a covariance model: from a group per neuron with
# rows, merge at each step the two groups whose union gives the highest classification
# log-likelihood (ties to the first pair, the groups in the order of their lowest neuron),
# down to one group, or to `down_to`. Returns one entry per number of groups: the neurons'
# labels (0 for neurons without rows), the groups' rows and the log-likelihood; with
# categorical columns each group's latent-class term counts too. In C
# (src/groups/som_groups.c: every step weighs every pair, O(N^2) unions of d x d scatters).
agglomerate_cells <- function(moments, model, n, prior, down_to = 1L) {
  d <- nrow(prior$psi)
  rows <- vapply(moments, `[[`, 0, "n")
  sums <- vapply(moments, function(m) as.double(m$s), numeric(d))
  cross <- vapply(moments, function(m) as.double(m$q), numeric(d * d))
  counts <- if (!is.null(prior$blocks)) { # the levels' counts (mixture_moments())
    as.double(vapply(moments, function(m) as.double(m$c), numeric(length(moments[[1L]]$c))))
  }
  call_core("join the cells into groups", NULL, function() {
    .Call(C_agglomerate, as.double(rows), matrix(sums, d, length(rows)), as.double(cross), counts,
          c(model_spec(model, prior), n = as.double(n), down_to = as.integer(down_to)))
  })
}

# A group whose rows all tie in a column that takes few values (a binary, clipped or
# rounded column's point mass) has a likelihood that grows without bound under a model
# that gives each group its own variance there (VVV, VVI; under VII, whose one variance is
# the columns' mean, when the group's rows are one point): no group, as mclust gives such
# a fit no BIC. A candidate with such a group (its variance there under "point_variance"
# times the data's) is no candidate for that model. A column takes few values when at
# least "few_values_tied" of the rows tie with another (within "few_values_tie" of the
# data's spread: a value rounded, or with noise far below the data's scale); a group lying
# flat in a column that varies elsewhere (a disc in a plane beside a ball, the suite's mk4)
# is a group. The models that share one covariance are left as they are: there the point
# masses' variance is pooled over all rows, the same for every partition that keeps them
# apart, and asking it of them too lost the suite's ecoli (ARI 0.73 -> 0: no candidate was
# left).

# Which of the columns of xc (the Gaussian columns, centred) take few values.
discrete_columns <- function(xc) {
  tol <- tuned("few_values_tie") * sqrt(mean(xc^2))
  n <- nrow(xc)
  if (n < 2L || !ncol(xc)) return(rep(FALSE, ncol(xc))) # no neighbour to tie with, or no column
  # every column sorted at once (one order() by column, then value); a row ties where the
  # gap to its lower or upper neighbour is within tol
  v <- matrix(xc[order(col(xc), xc)], n)
  close <- v[-1L, , drop = FALSE] - v[-n, , drop = FALSE] <= tol
  colMeans(rbind(close, FALSE) | rbind(FALSE, close)) >= tuned("few_values_tied")
}

# Whether the partition of the rows xc into `groups` is degenerate under `model` (a point
# mass, above); total: the columns' variances; discrete: discrete_columns(xc).
degenerate_partition <- function(xc, groups, model, total, discrete) {
  spherical <- substr(model, 2L, 3L) == "II"
  if (model_shared(model) || !ncol(xc) || (!spherical && !any(discrete))) return(FALSE)
  n <- rowsum(rep(1, length(groups)), groups)[, 1L]
  v <- rowsum(xc^2, groups) / n - (rowsum(xc, groups) / n)^2
  v <- v[n >= 2L, , drop = FALSE]
  floor <- tuned("point_variance")
  if (spherical) return(any(rowMeans(v) < floor * mean(total)))
  any(sweep(v[, discrete, drop = FALSE], 2L, floor * total[discrete], "<"))
}

# The groups of one map: rows x (training space, complete) with their winners `cluster` on
# the map's N neurons. Every model's agglomeration gives candidates (partitions whose
# groups all hold group_min_rows(n) rows); the best by partition_criterion() wins, or, with
# `G` given, the partition into G groups of `model` (of the model whose partition into G
# groups has the highest criterion, when `model` is NULL). EM over the rows refines it;
# without G, the mixture's merge (mixture_merge()) may keep fewer groups. Returns the
# model, the count, the criterion of every candidate (`scores`), the mixture's parameters,
# each row's group, numbered in ring order (the group of the lowest neuron first), `cells`,
# the neurons whose cells were joined (with rows, not set aside), and `merged` (the
# merge's table, or NULL).
# blocks: the categorical columns (encoding_blocks()), each group's levels' shares then
# part of its likelihood (math_mixture.R).
map_grouping <- function(x, cluster, N, model = NULL, G = NULL, blocks = NULL) {
  n <- nrow(x)
  d <- ncol(x)
  prior <- mixture_prior(x, tuned("prior_share"), blocks)
  moments <- neuron_moments(x, cluster, N, prior)
  least <- group_min_rows(n)
  # the fewest-row neurons with too few rows, up to "aside_share" of the rows (an
  # outlier's neuron, a neuron between groups), are set aside: their rows count in no
  # candidate and join their most probable group at the end
  aside <- group_aside(vapply(moments, `[[`, 0, "n"), least, n)
  for (j in aside) moments[[j]]$n <- 0
  used <- !(cluster %in% aside)
  n <- sum(used)
  xc <- x[used, if (is.null(prior$gauss)) seq_len(d) else prior$gauss, drop = FALSE]
  xc <- sweep(xc, 2L, colMeans(xc))
  total <- colMeans(xc^2)
  discrete <- discrete_columns(xc)
  scores <- list(model = character(0), groups = integer(0), criterion = numeric(0))
  score <- function(mod, K, crit) {
    scores$model <<- c(scores$model, mod)
    scores$groups <<- c(scores$groups, K)
    scores$criterion <<- c(scores$criterion, crit)
  }
  best <- NULL
  at <- list() # each count's best candidate (of every model), for the mixture's merge
  for (mod in if (is.null(model)) mixture_models_for(prior) else model) {
    # with G given (the replicates' case), the path stops at G groups
    for (p in agglomerate_cells(moments, mod, n, prior, if (is.null(G)) 1L else G)) {
      K <- length(p$rows)
      # with G given, the path's other counts are not weighed (nor their points checked)
      if (!is.null(G) && K != G) next
      crit <- partition_criterion(p$loglik, mod, K, d, n, prior)
      if (K > 1L && degenerate_partition(xc, p$labels[cluster[used]], mod, total, discrete)) next
      if (!is.null(G)) { # the model's partition into G groups (of every model: the best)
        score(mod, K, crit)
        if (is.null(best) || isTRUE(crit > best$criterion)) best <- c(p, model = mod, criterion = crit)
        next
      }
      if (K > 1L && min(p$rows) < least) next
      score(mod, K, crit)
      # a tie (within rounding: one group has the same criterion under every model of the
      # same covariance) goes to the earlier model in mixture_models
      if (is.finite(crit) && (is.null(best) || crit > best$criterion + 1e-9 * abs(best$criterion))) {
        best <- c(p, model = mod, criterion = crit)
      }
      if (is.finite(crit) && (K > length(at) || is.null(at[[K]]) ||
                              crit > at[[K]]$criterion + 1e-9 * abs(at[[K]]$criterion))) {
        at[[K]] <- c(p, model = mod, criterion = crit)
      }
    }
  }
  if (is.null(best)) return(NULL)
  xu <- x[used, , drop = FALSE]
  fits <- if (is.null(G)) at[seq_len(length(best$rows))] else list(best)
  fits <- lapply(fits, function(cand) {
    if (!is.null(cand)) candidate_mixture(xu, cand$labels[cluster[used]], cand$model, prior)
  })
  merged <- if (is.null(G)) mixture_merge(xu, at, fits, prior)
  k <- if (is.null(merged)) length(fits) else merged$groups[which.max(merged$mixture_bic)]
  best <- if (is.null(G)) at[[k]] else best
  par <- fits[[k]]
  # every row to its most probable group (as predict_groups() assigns new rows); the groups
  # with rows, numbered along the ring (by the lowest neuron that sends them rows)
  labels <- mixture_classify(x, par)
  kept <- sort(unique(labels))
  kept <- kept[order(vapply(kept, function(g) min(cluster[labels == g]), 0))]
  par <- mixture_subset(par, kept)
  list(model = best$model, groups = length(kept), criterion = best$criterion,
       scores = if (length(scores$model)) as.data.frame(scores), par = par,
       labels = match(labels, kept), cells = sum(vapply(moments, `[[`, 0, "n") > 0),
       merged = merged)
}

# The mixture of a candidate (labels 1..G of the rows x under `model`): EM over the rows
# started from it, or the partition's own mixture where EM loses a group.
candidate_mixture <- function(x, labels, model, prior) {
  em <- if (max(labels) > 1L) mixture_em(x, labels, model, prior)
  if (is.null(em)) mixture_hard(x, labels, model, prior) else em$par
}

# The mixture's merge: `at`, the best candidate of each count (NULL where none), `fits`
# their mixtures (candidate_mixture()) up to the classification's choice K; each scored by
# the BIC of its mixture log-likelihood over the rows x. A data frame (groups, model,
# criterion, mixture_bic) of the counts up to K with a candidate, or NULL when K is 1.
# Its highest mixture_bic is the count kept (which.max(): ties to the fewer groups).
mixture_merge <- function(x, at, fits, prior) {
  if (length(fits) < 2L) return(NULL)
  ks <- which(!vapply(fits, is.null, TRUE))
  bic <- vapply(ks, function(k) {
    partition_criterion(mixture_loglik(x, fits[[k]]), at[[k]]$model, k, ncol(x), nrow(x), prior)
  }, 0)
  data.frame(groups = ks, model = vapply(at[ks], `[[`, "", "model"),
             criterion = vapply(at[ks], `[[`, 0, "criterion"), mixture_bic = bic)
}

# The Gaussian groups of a fit: on its largest map, with the rows x (data units: the fit's
# training rows, or rows like them) and the map's winners of them (`cluster`). A grouping
# (new_grouping(), rule "gaussian", assign "mixture"), or NULL when no row has a winner:
# `partition`, each row of x its group (NA for rows left out); `occupied`, the neurons
# holding group_min_rows() rows (each cell a group of its own, `groups` = `cells`, means
# the map could not show more groups). `model` and `G` as for map_grouping().
fit_grouping <- function(fit, x, cluster, model = NULL, G = NULL) {
  size <- max(fit$params$sizes)
  rows <- grouping_rows(fit, x, size, cluster)
  if (!length(rows$rows)) return(NULL)
  out <- map_grouping(rows$x, rows$cluster, size, model, G, encoding_blocks(fit))
  if (is.null(out)) return(NULL)
  partition <- rep(NA_integer_, nrow(x))
  partition[rows$rows] <- out$labels
  n <- length(rows$rows)
  new_grouping("gaussian", out$groups, out$par, size,
               neuron_groups(rows$cluster, out$labels, size, out$groups), partition, n,
               occupied = sum(tabulate(rows$cluster, size) >= group_min_rows(n)),
               cells = out$cells, assign = "mixture", model = out$model,
               criterion = out$criterion, scores = out$scores,
               detail = if (is.null(out$merged)) list() else list(merged = out$merged))
}

# Rule "gaussian": the Gaussian groups of the fit's largest map (inputs$gaussian), the
# answer the later rules compete with; one group is "no group structure". Not tried when
# the call told the number of groups (rule "told" has its Gaussian candidate).
rule_gaussian <- function(inputs, current) {
  g <- inputs$gaussian
  if (is.null(g)) return(declined("gaussian", "no row has a winner on the largest map"))
  one <- g$scores$criterion[g$scores$groups == 1L]
  one <- if (length(one)) max(one) else NA_real_
  m <- g$detail$merged
  split <- if (!is.null(m)) max(m$groups) else g$groups
  one_group <- one_group_words(g$par)
  why <- if (g$groups == 1L && split == 1L) {
    sprintf("%s fits the rows better than any grouping of the cells", one_group)
  } else if (g$groups == 1L) {
    sprintf("%d groups fit the classification best, but %s's mixture has the higher BIC", split, one_group)
  } else if (split > g$groups) {
    sprintf("%s: %d fit the classification best, %d the mixture's BIC",
            mixture_label(g$model, g$groups, g$par), split, g$groups)
  } else {
    sprintf("%s fit best, above one group's criterion", mixture_label(g$model, g$groups, g$par))
  }
  accepted("gaussian", g, why, statistic = "criterion (BIC of the classification)",
           value = g$criterion, threshold = one)
}

# The reason's words for Gaussian groups (rule_table()'s `found`): their model and the
# criterion that chose their number.
gaussian_found <- function(grouping, on) {
  g <- grouping$groups
  sprintf("The data hold %s: joined from %s, %s fit best (%s)", count_words(g, "group"), on,
          mixture_words(grouping$model, g, grouping$par), merged_words(grouping))
}

# Which criterion chose the Gaussian groups: the classification's, or the mixture's where
# it merged the classification's groups (mixture_merge()).
merged_words <- function(grouping) {
  m <- grouping$detail$merged
  if (is.null(m) || max(m$groups) <= grouping$groups) return("BIC of the classification")
  sprintf("BIC of the mixture; the classification's preferred %d", max(m$groups))
}

gaussian_kind <- function(gaussian) gaussian

# The answer's mark on the criterion's panel: merged Gaussian groups are the mixture's
# BIC's best, fewer than the criterion's.
gaussian_note <- function(g) {
  merged <- g$detail$merged
  if (!is.null(merged) && max(merged$groups) > g$groups) " (mixture BIC)" else ""
}
