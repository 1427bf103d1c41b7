# A family's assessment: the quality of every trained map, the restart kept per size and the
# stability across restarts (assess_family), the alignment of the rings (align_family).

# The compiled assessment of maps `weights` on x with the distance `dist` (col_w, missing):
# qe, te, sse and, where `clusters` (one flag, or one per map), the clusters in R; with
# `detail`, the runner-up and distances; with `to` (a somgpu_file), every map's clusters
# written there instead.
assess_maps <- function(x, weights, threads, dist, call, clusters = FALSE, detail = FALSE,
                        to = NULL, what = "assess the maps") {
  call_core(what, call, function() {
    .Call(C_assess, x, weights,
          c(list(threads = threads, round_units = cpu_round_units(call),
                 clusters = rep_len(clusters, length(weights)), detail = detail,
                 clusters_to = to), dist))
  })
}

# Quality of every map, the best restart of each size, the clusters of the best maps and,
# with restarts, the stability of each size (mean adjusted Rand index between its restarts'
# clusterings: each size's restarts are assessed together, clusters kept, then dropped).
# With `clusters_to` (a somgpu_file from clusters_file_matrix()), the clusters of the kept
# maps go there instead (with restarts, in a second pass over the data, once the kept maps
# are known), and the stability is not measured.
assess_family <- function(x, weights, map_size, restarts, threads, dist, call,
                          clusters_to = NULL) {
  nmaps <- length(weights)
  assess <- function(idx, clusters = is.null(clusters_to), to = NULL) {
    assess_maps(x, weights[idx], threads, dist, call, clusters = clusters, to = to)
  }
  if (!is.null(clusters_to)) {
    groups <- split(seq_len(nmaps), rep(seq_len(nmaps / restarts), each = restarts))
    one <- restarts == 1L # every map kept: its clusters written in the one pass
    a <- assess(seq_len(nmaps), to = if (one) clusters_to)
    keep <- vapply(groups, function(g) g[which.min(a$qe[g])], integer(1))
    if (!one) assess(keep, to = clusters_to)
    return(list(weights = weights[keep], clusters = NULL, qe = a$qe, te = a$te, sse = a$sse,
                best = seq_len(nmaps) %in% keep, stability = rep(NA_real_, length(groups))))
  }
  groups <- split(seq_len(nmaps), rep(seq_len(nmaps / restarts), each = restarts))
  qe <- te <- sse <- numeric(nmaps)
  best <- rep(FALSE, nmaps)
  clusters <- vector("list", length(groups))
  stability <- rep(NA_real_, length(groups))
  parts <- if (restarts == 1L) list(seq_len(nmaps)) else groups
  for (g in parts) {
    a <- assess(g)
    qe[g] <- a$qe
    te[g] <- a$te
    sse[g] <- a$sse
    if (restarts == 1L) {
      clusters <- a$clusters
    } else {
      s <- which(vapply(groups, function(h) identical(h, g), logical(1)))
      k <- which.min(a$qe) # ties go to the first restart
      clusters[[s]] <- a$clusters[[k]]
      stability[s] <- stability_of(a$clusters, map_size[g[1]])
    }
  }
  keep <- vapply(groups, function(g) g[which.min(qe[g])], integer(1))
  best[keep] <- TRUE
  list(weights = weights[keep], clusters = clusters, qe = qe, te = te, sse = sse,
       best = best, stability = stability)
}

# align = TRUE: each kept ring relabelled (see ring_relabel()), weights and clusters alike.
align_family <- function(fit, basis) {
  for (i in seq_along(fit$weights)) {
    new <- ring_relabel(fit$weights[[i]], basis)
    w <- fit$weights[[i]]
    w[new, ] <- w
    fit$weights[[i]] <- w
    fit$clusters[[i]] <- new[fit$clusters[[i]]]
  }
  fit
}
