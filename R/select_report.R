# What select_size() makes of its replicates: the figures per size, the number of groups and
# the recommended size with its reason, the clusters' stability; print and plot.

# Per size, the replicates' figures summarised (see select_size()'s sections); the
# replicates' own, one row per size and replicate; and the groups of every replicate's map
# (sizes x replicates).
selection_criteria <- function(reps, full, x) {
  sizes <- full$params$sizes
  k <- length(sizes)
  bootstrap <- length(reps)
  grab <- function(what, type = numeric(k)) matrix(vapply(reps, function(r) r[[what]], type), nrow = k)
  held <- grab("heldout")
  counts <- grab("groups", integer(k))
  # stability: per size, the ARI of pairs of replicates over the rows of y both assigned;
  # every pair up to 50 replicates (1225 pairs), beyond each with the next
  pairs <- if (bootstrap <= 50L) utils::combn(bootstrap, 2) else
    rbind(seq_len(bootstrap), c(seq_len(bootstrap)[-1L], 1L))
  ari_pairs <- matrix(vapply(seq_len(k), function(i) {
    apply(pairs, 2, function(p) {
      a <- reps[[p[1]]]$clusters[[i]]
      b <- reps[[p[2]]]$clusters[[i]]
      both <- !is.na(a) & !is.na(b)
      ari(a[both], b[both], sizes[i], sizes[i])
    })
  }, numeric(ncol(pairs))), ncol = k)
  # each replicate's stability: its median agreement with the others
  per_rep <- matrix(vapply(seq_len(bootstrap), function(b) {
    mine <- pairs[1, ] == b | pairs[2, ] == b
    apply(ari_pairs[mine, , drop = FALSE], 2, stats::median)
  }, numeric(k)), nrow = k)
  se <- function(m) apply(m, 1, stats::sd) / sqrt(ncol(m))
  indices <- cluster_indices(full, x)
  occupied <- vapply(paste0("N", sizes), function(s) {
    length(unique(stats::na.omit(full$clusters[[s]])))
  }, integer(1))
  criteria <- data.frame(
    size = sizes, train_qe = rowMeans(grab("qe")), heldout_qe = rowMeans(held),
    heldout_qe_se = se(held), te = rowMeans(grab("te")),
    explained_var = rowMeans(grab("explained")), stability = colMeans(ari_pairs),
    stability_lo = apply(ari_pairs, 2, stats::quantile, 0.025, names = FALSE),
    stability_hi = apply(ari_pairs, 2, stats::quantile, 0.975, names = FALSE),
    groups = apply(counts, 1, count_mode), occupied = unname(occupied),
    davies_bouldin = indices$davies_bouldin, calinski_harabasz = indices$calinski_harabasz)
  replicates <- data.frame(size = rep(sizes, bootstrap),
                           replicate = rep(seq_len(bootstrap), each = k),
                           train_qe = c(grab("qe")), heldout_qe = c(held),
                           stability = c(per_rep), groups = c(counts))
  ord <- order(sizes)
  criteria <- criteria[ord, , drop = FALSE]
  row.names(criteria) <- NULL
  replicates <- replicates[order(replicates$replicate, match(replicates$size, sizes[ord])), ,
                           drop = FALSE]
  row.names(replicates) <- NULL
  list(criteria = criteria, replicates = replicates, counts = counts[ord, , drop = FALSE])
}

# The number of groups (the count seen most often over every replicate's map of every size;
# see select_size()'s sections), the recommended size and the reason in words. counts:
# sizes (sorted) x replicates; maps: what the counts come from, in words.
recommend_size <- function(counts, sizes, maps = "the replicates' maps") {
  g <- count_mode(counts)
  plural <- function(k, one, many = paste0(one, "s")) sprintf("%d %s", k, if (k == 1) one else many)
  if (is.na(g)) {
    return(list(groups = NA_integer_, size = NA_integer_, reason =
      "No size's map has neurons with enough rows to count groups (each needs 1% of the rows, and 5): use more rows or smaller sizes."))
  }
  # how often the maps from N = g up show g groups
  from <- sizes >= g
  agree <- if (any(from)) mean(counts[from, ] == g, na.rm = TRUE) else NA_real_
  seen <- sprintf("%.0f%% of %s of %s show %s", 100 * agree, maps,
                  if (sum(from) == 1L) sprintf("N = %d", sizes[from]) else
                    sprintf("N = %d to %d", min(sizes[from]), max(sizes)), plural(g, "group"))
  if (g == 1L) {
    return(list(groups = 1L, size = NA_integer_, reason = paste0(
      "No group structure: the maps join their neurons, with no valley of the data's density between them (", seen,
      "). The data form one cloud; a ring of any size summarises it, no size better than another.")))
  }
  size <- if (g %in% sizes) g else if (g > max(sizes)) max(sizes) else min(sizes[sizes > g])
  reason <- if (g == size) {
    sprintf("The data hold %s: %s, and N = %d has a neuron for each.", plural(g, "group"),
            seen, size)
  } else if (size > g) {
    sprintf("The data hold %s (%s); N = %d is the smallest size compared that holds them, with neurons to spare.",
            plural(g, "group"), seen, size)
  } else {
    sprintf("The maps of N = %d show %s", size, plural(g, "group"))
  }
  if (g >= max(sizes)) {
    reason <- sprintf(
      "%s N = %d is the largest size compared: the data may hold more groups; compare a wider range (e.g. sizes = %d:%d).",
      reason, max(sizes), min(sizes), 2L * max(sizes))
  } else if (g < min(sizes)) {
    reason <- sprintf("%s; smaller sizes were not compared (e.g. sizes = 2:%d).", reason,
                      max(sizes))
  }
  list(groups = g, size = as.integer(size), reason = reason)
}

# The bootstrap stability of each cluster of the fit's map of `size`, as fpc::clusterboot
# reports it: per replicate, the Jaccard similarity of the cluster with its best match among
# the replicate's clusters, both restricted to the rows the replicate trained on; the mean
# over the replicates.
cluster_stability <- function(fit, reps, work, size) {
  i <- match(size, fit$params$sizes)
  full <- fit$clusters[[paste0("N", size)]]
  jac <- vapply(seq_along(reps), function(b) {
    rows <- unique(work[[b]]$train)
    a <- full[rows]
    r <- reps[[b]]$clusters[[i]][rows]
    ok <- !is.na(a) & !is.na(r)
    a <- a[ok]
    r <- r[ok]
    both <- matrix(tabulate((a - 1L) * size + r, size * size), size, byrow = TRUE)
    na <- tabulate(a, size)
    nr <- tabulate(r, size)
    vapply(seq_len(size), function(j) {
      if (na[j] == 0) return(NA_real_)
      max(both[j, ] / (na[j] + nr - both[j, ]))
    }, numeric(1))
  }, numeric(size))
  jac <- matrix(jac, nrow = size)
  rows <- tabulate(full, size)
  stab <- rowMeans(jac, na.rm = TRUE)
  used <- rows > 0
  data.frame(cluster = seq_len(size)[used], rows = rows[used], stability = stab[used],
             reading = as.character(cut(stab[used], c(-Inf, 0.6, 0.75, 0.85, Inf),
                                        c("doubtful", "a pattern", "stable", "highly stable"),
                                        right = FALSE)))
}

# Davies-Bouldin and Calinski-Harabasz indices of a fit's kept maps, on the rows of x (the
# data it trained on) that have no missing value, in the space it trained in (scaled,
# columns weighted by the square root of their weights), from the clusters' means.
cluster_indices <- function(fit, x) {
  x <- training_space(fit, x)$x
  rows <- stats::complete.cases(x)
  out <- lapply(fit$params$sizes, function(s) {
    cl <- fit$clusters[[paste0("N", s)]][rows]
    xs <- x[rows, , drop = FALSE]
    ok <- !is.na(cl)
    cl <- cl[ok]
    xs <- xs[ok, , drop = FALSE]
    used <- sort(unique(cl))
    k <- length(used)
    if (k < 2L || k >= nrow(xs)) return(c(NA_real_, NA_real_))
    cent <- t(vapply(used, function(j) colMeans(xs[cl == j, , drop = FALSE]), numeric(ncol(xs))))
    cent <- matrix(cent, nrow = k)
    spread <- vapply(seq_len(k), function(i) {
      mean(sqrt(rowSums(sweep(xs[cl == used[i], , drop = FALSE], 2, cent[i, ])^2)))
    }, numeric(1))
    dc <- as.matrix(stats::dist(cent))
    db <- mean(vapply(seq_len(k), function(i) max((spread[i] + spread[-i]) / dc[i, -i]),
                      numeric(1)))
    within_ss <- sum(vapply(seq_len(k), function(i) {
      sum(sweep(xs[cl == used[i], , drop = FALSE], 2, cent[i, ])^2)
    }, numeric(1)))
    total_ss <- sum(sweep(xs, 2, colMeans(xs))^2)
    ch <- ((total_ss - within_ss) / (k - 1)) / (within_ss / (nrow(xs) - k))
    c(db, ch)
  })
  list(davies_bouldin = vapply(out, `[`, numeric(1), 1),
       calinski_harabasz = vapply(out, `[`, numeric(1), 2))
}

# How the selection's schedule reads in print: "auto" or the numbers.
schedule_label <- function(sigma0) {
  if (identical(sigma0, "auto")) return("sigma0 = \"auto\" (ring-scaled; the original script's: sigma0 = 5)")
  if (length(sigma0) == 1L) return(sprintf("sigma0 = %s", format(sigma0, digits = 4)))
  "sigma0 per size"
}

#' @rdname select_size
#' @export
print.somgpu_selection <- function(x, ...) {
  cr <- x$criteria
  cat(sprintf("ring size selection: %d replicates (%g%% of the rows held out each), %d sizes, %s; %.1f s\n",
              x$bootstrap, 100 * x$holdout, nrow(cr), schedule_label(x$sigma0),
              if (is.null(x$elapsed)) NA_real_ else x$elapsed))
  tab <- data.frame(size = cr$size, heldout_qe = format_figure(cr$heldout_qe),
                    stability = sprintf("%.3f [%.2f, %.2f]", cr$stability,
                                        pmax(cr$stability_lo, 0), cr$stability_hi),
                    groups = cr$groups, occupied = cr$occupied,
                    DB = sprintf("%.3f", cr$davies_bouldin),
                    CH = ifelse(abs(cr$calinski_harabasz) < 1e6,
                                sprintf("%.1f", cr$calinski_harabasz),
                                sprintf("%.4g", cr$calinski_harabasz)),
                    mark = ifelse(!is.na(x$recommended) & cr$size == x$recommended, "<-", ""))
  names(tab)[ncol(tab)] <- ""
  print(tab, row.names = FALSE, right = TRUE)
  cat(strwrap(sprintf("groups in the data: %s. %s", format(x$groups), x$reason),
              width = getOption("width")), sep = "\n")
  cat(sprintf("recommended: %s\n", if (is.na(x$recommended)) "none" else
    sprintf("N = %d", x$recommended)))
  if (!is.null(x$clusters)) {
    cat(sprintf("clusters of N = %d, bootstrap stability (mean Jaccard, as fpc::clusterboot):\n",
                x$recommended))
    cl <- x$clusters
    cl$stability <- sprintf("%.2f", cl$stability)
    print(cl, row.names = FALSE, right = TRUE)
  }
  invisible(x)
}

#' @rdname select_size
#' @export
plot.somgpu_selection <- function(x, ...) {
  cr <- x$criteria
  dots <- list(...)
  main <- dots$main # one title over the three panels
  dots$main <- NULL
  op <- graphics::par(mfrow = c(1, 3), mar = c(4, 4, 2, 1),
                      oma = c(0, 0, if (is.null(main)) 0 else 2, 0))
  on.exit(graphics::par(op))
  panel <- function(y, lo, hi, ylab, main, whole = FALSE) {
    ylim <- range(lo, hi, y, na.rm = TRUE)
    draw(graphics::plot, list(x = cr$size, y = y, type = "n", ylim = ylim,
                              xlab = "ring size N", ylab = ylab, main = main,
                              yaxt = if (whole) "n" else "s"), frame_dots(dots))
    if (whole) { # counts: whole-number ticks
      at <- unique(round(pretty(ylim)))
      graphics::axis(2, at = at[at >= ylim[1] & at <= ylim[2]])
    }
    bar <- which(is.finite(lo) & is.finite(hi) & hi - lo > 1e-9 * max(1, abs(hi)))
    if (length(bar)) { # a zero-length arrow warns
      graphics::arrows(cr$size[bar], lo[bar], cr$size[bar], hi[bar], angle = 90, code = 3,
                       length = 0.03, col = "grey50")
    }
    draw(graphics::lines, list(x = cr$size, y = y, type = "b", pch = 19), mark_dots(dots))
    if (!is.na(x$recommended)) graphics::abline(v = x$recommended, lty = 3)
  }
  panel(cr$heldout_qe, cr$heldout_qe - cr$heldout_qe_se, cr$heldout_qe + cr$heldout_qe_se,
        "held-out qe", "held-out error (+- 1 SE)")
  panel(cr$stability, cr$stability_lo, cr$stability_hi, "adjusted Rand index",
        "stability (95% of pairs)")
  counts <- x$replicates
  lo <- vapply(cr$size, function(s) min(counts$groups[counts$size == s], na.rm = TRUE), 0)
  hi <- vapply(cr$size, function(s) max(counts$groups[counts$size == s], na.rm = TRUE), 0)
  panel(cr$groups, lo, hi, "groups its maps show", "groups (range over replicates)", TRUE)
  if (!is.na(x$groups)) graphics::abline(h = x$groups, lty = 2, col = "grey50")
  if (!is.null(main)) graphics::mtext(main, outer = TRUE, font = 2)
  invisible(x)
}
