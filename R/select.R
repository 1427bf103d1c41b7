#' Choose the ring size with held-out error and bootstrap stability
#'
#' Trains the family of ring sizes on `bootstrap` replicates of the data and measures, for
#' every size, how well the maps fit rows they were not trained on and how stable their
#' clusterings are from one replicate to the next; then recommends a size.
#'
#' Each replicate leaves out a random share `holdout` of the rows and trains on a bootstrap
#' resample (rows drawn with replacement) of the others: one [train()] call per replicate,
#' for every size and restart at once (so `parallel = "future"` spreads each replicate's
#' maps over the workers). Per size and replicate it records the kept restart's training
#' quantization error (qe), its qe on the rows left out (`heldout_qe`), its topographic
#' error and explained variance, and the cluster of every row of `y`. The stability of a
#' size is the adjusted Rand index between the clusterings of two replicates, on the same
#' rows, averaged over pairs of replicates (every pair up to 50 replicates, else each with
#' the next), with the 2.5% and 97.5% quantiles over the pairs as an interval. A last call
#' trains on all rows (`fit`); the Davies-Bouldin (lower is better) and Calinski-Harabasz
#' (higher is better) indices of its kept maps are reported too.
#'
#' The recommendation is the one-standard-error rule on a stability-adjusted held-out error.
#' Per replicate and size, `criterion = heldout_qe / stability`, where the replicate's
#' stability is the median of its adjusted Rand indices with the other replicates: an
#' error that only a stable clustering keeps low. Per size, the criterion is the median over
#' the replicates, with the median's standard error `sqrt(pi / 2) * mad / sqrt(bootstrap)`;
#' medians, because a replicate whose restarts all got stuck (small rings sometimes do) says
#' little about the size. The recommended size is the smallest whose criterion is within one
#' standard error of the lowest. With `holdout = 0` the training qe stands in for the
#' held-out one. When the recommended map leaves neurons empty (well-separated groups are
#' sometimes found more reliably by a ring with spare neurons), the reason says how many
#' groups its map on all rows has (column `occupied`).
#'
#' The time is about `bootstrap + 1` times that of one `train()` call with the same
#' arguments: with the defaults, a few seconds for a few hundred rows on 2 threads.
#'
#' @param y The data, as for [train()].
#' @param sizes Ring sizes to compare (at least two).
#' @param restarts Maps per size in every replicate (the kept one has the lowest qe).
#' @param bootstrap Number of replicates (at least 2).
#' @param holdout Share of the rows each replicate leaves out, from 0 to 0.9.
#' @param seed `NULL` (draw one from R's generator) or a whole number: the replicates' rows
#'   and the maps' streams derive from it.
#' @param ... For `select_size()`, further arguments to [train()] (`iter_max`, `algorithm`,
#'   `scale`, `var_weights`, `backend`, `threads`, `parallel = "future"`, ...); for `plot()`,
#'   graphical parameters (`main`, a title over the three panels; `col`, `pch`, `cex`,
#'   `lwd`, `lty`, `xlab`, ...); for `print()`, ignored.
#' @param x A `somgpu_selection` (for print and plot).
#' @return A list of class `somgpu_selection`: `criteria`, a data frame with one row per
#'   size (`size`, `train_qe`, `heldout_qe`, `heldout_qe_se`, `te`, `explained_var` (means
#'   over the replicates), `stability`, `stability_lo`, `stability_hi`, `criterion`,
#'   `criterion_se`, `davies_bouldin`, `calinski_harabasz`, `occupied` (neurons with rows in
#'   `fit`)); `recommended`, a size; `reason`, one sentence; `replicates`, a data frame with
#'   one row per replicate and size (`size`, `replicate`, `train_qe`, `heldout_qe`,
#'   `stability`, `criterion`); `fit`, the fit on all rows (a [train()] result, without
#'   its data); `seed`, `bootstrap`, `holdout`.
#' @seealso [train()], [summary.somgpu()]
#' @examples
#' set.seed(1)
#' centres <- matrix(c(0, 0, 0, 4, 0, 0, 0, 4, 0, 4, 4, 0), ncol = 3, byrow = TRUE)
#' y <- centres[rep(1:4, each = 50), ] + matrix(rnorm(600, sd = 0.5), ncol = 3)
#' sel <- select_size(y, sizes = 2:7, restarts = 2, bootstrap = 6, iter_max = 30,
#'                    seed = 1, threads = 2)
#' sel
#' plot(sel)
#' @export
select_size <- function(y, sizes = 2:20, restarts = 4, bootstrap = 20, holdout = 0.2,
                        seed = NULL, ...) {
  call <- compact_call(sys.call(), "select_size")
  if (is_file_data(y)) {
    abort_input("select_size() resamples the rows in memory; for file-backed data, run it on a sample of rows (e.g. `y[sample(nrow(y), 1e5), ]`).",
                call)
  }
  data <- check_data(y, call)
  x <- data$x
  n <- nrow(x)
  bootstrap <- check_whole(bootstrap, "bootstrap", 2, call = call)
  holdout <- check_number(holdout, "holdout", 0, 0.9, call = call)
  restarts <- check_whole(restarts, "restarts", 1, call = call)
  ok <- is.numeric(sizes) && length(sizes) >= 2L && !anyNA(sizes)
  if (!ok) {
    abort_input(sprintf("`sizes` must hold at least two ring sizes, not %s.", describe(sizes)),
                call)
  }
  seed <- check_seed(seed, call)
  dots <- list(...)
  taken <- intersect(names(dots), c("nmax", "nmin", "sizes", "restarts", "seed", "keep_data",
                                    "progress"))
  if (length(taken)) {
    abort_input(sprintf("select_size() sets %s itself; leave %s out of `...`.",
                        paste0("`", taken, "`", collapse = ", "),
                        if (length(taken) == 1L) "it" else "them"), call)
  }
  n_out <- floor(holdout * n)
  if (n - n_out < 2L) abort_input("`holdout` leaves fewer than 2 rows to train on.", call)
  fit_on <- function(rows, s) {
    do.call(train, c(list(if (is.null(rows)) x else x[rows, , drop = FALSE], sizes = sizes,
                          restarts = restarts, seed = s, keep_data = FALSE,
                          progress = FALSE), dots))
  }
  # the replicates' rows, from the seed, leaving the session's generator alone
  draws <- with_private_seed(seed, lapply(seq_len(bootstrap), function(b) {
    out <- if (n_out > 0L) sort(sample.int(n, n_out)) else integer(0)
    inside <- setdiff(seq_len(n), out)
    list(train = inside[sample.int(length(inside), length(inside), replace = TRUE)],
         out = out)
  }))
  reps <- lapply(seq_len(bootstrap), function(b) {
    fit <- fit_on(draws[[b]]$train, (seed + b) %% int_max)
    kept <- fit$quality[fit$quality$best, , drop = FALSE]
    # every row of y to its nearest neuron, per size: the clusters, and the held-out error
    d <- stats::predict(fit, x, type = "detail")
    out <- draws[[b]]$out
    held <- if (length(out)) {
      vapply(fit$params$sizes, function(s) {
        mean(d$distance[d$size == s][out], na.rm = TRUE)
      }, numeric(1))
    } else {
      kept$qe
    }
    list(qe = kept$qe, heldout = held, te = kept$te, explained = kept$explained_var,
         clusters = lapply(fit$params$sizes, function(s) d$cluster[d$size == s]))
  })
  full <- fit_on(NULL, seed)
  found <- selection_criteria(reps, full, x)
  pick <- recommend_size(found$criteria)
  structure(list(criteria = found$criteria, recommended = pick$size, reason = pick$reason,
                 replicates = found$replicates, fit = full, seed = seed,
                 bootstrap = bootstrap, holdout = holdout),
            class = "somgpu_selection")
}

# Per size, the replicates' figures summarised (see select_size()'s Details); and the
# replicates' own, one row per size and replicate.
selection_criteria <- function(reps, full, x) {
  sizes <- full$params$sizes
  k <- length(sizes)
  bootstrap <- length(reps)
  grab <- function(what) matrix(vapply(reps, function(r) r[[what]], numeric(k)), nrow = k)
  held <- grab("heldout")
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
  # each replicate's stability: its median agreement with the others (a replicate whose
  # restarts all got stuck disagrees with every other, but does not drag the rest down)
  per_rep <- matrix(vapply(seq_len(bootstrap), function(b) {
    mine <- pairs[1, ] == b | pairs[2, ] == b
    apply(ari_pairs[mine, , drop = FALSE], 2, stats::median)
  }, numeric(k)), nrow = k)
  crit <- held / pmax(per_rep, 1e-3)
  se <- function(m) apply(m, 1, stats::sd) / sqrt(ncol(m))
  # the median's standard error under normality (sqrt(pi / 2) sd / sqrt(n)), from the MAD
  median_se <- function(m) sqrt(pi / 2) * apply(m, 1, stats::mad) / sqrt(ncol(m))
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
    criterion = apply(crit, 1, stats::median), criterion_se = median_se(crit),
    davies_bouldin = indices$davies_bouldin, calinski_harabasz = indices$calinski_harabasz,
    occupied = unname(occupied))
  replicates <- data.frame(size = rep(sizes, bootstrap),
                           replicate = rep(seq_len(bootstrap), each = k),
                           train_qe = c(grab("qe")), heldout_qe = c(held),
                           stability = c(per_rep), criterion = c(crit))
  ord <- order(sizes)
  criteria <- criteria[ord, , drop = FALSE]
  row.names(criteria) <- NULL
  replicates <- replicates[order(replicates$replicate, match(replicates$size, sizes[ord])), ,
                           drop = FALSE]
  row.names(replicates) <- NULL
  list(criteria = criteria, replicates = replicates)
}

# The one-standard-error rule on the criterion (criteria sorted by size): the size, and why
# in one sentence.
recommend_size <- function(criteria) {
  best <- which.min(criteria$criterion)
  limit <- criteria$criterion[best] + criteria$criterion_se[best]
  i <- which(criteria$criterion <= limit)[1L]
  size <- criteria$size[i]
  reason <- if (i == best) {
    sprintf("N = %d has the lowest stability-adjusted held-out error (%.4g +- %.2g); its stability is %.2f",
            size, criteria$criterion[i], criteria$criterion_se[i], criteria$stability[i])
  } else {
    sprintf(paste0(
      "N = %d is the smallest size whose stability-adjusted held-out error (%.4g) is within ",
      "one standard error of the lowest (%.4g +- %.2g, at N = %d); its stability is %.2f"),
      size, criteria$criterion[i], criteria$criterion[best], criteria$criterion_se[best],
      criteria$size[best], criteria$stability[i])
  }
  empty <- size - criteria$occupied[i]
  reason <- if (empty > 0L) {
    sprintf("%s, and its map on all rows leaves %d of its neurons empty (%d groups).", reason,
            empty, criteria$occupied[i])
  } else {
    paste0(reason, ".")
  }
  list(size = as.integer(size), reason = reason)
}

# Davies-Bouldin and Calinski-Harabasz indices of a fit's kept maps, on the rows of x (the
# data it trained on) that have no missing value, in the space it trained in (scaled,
# columns weighted by the square root of their weights), from the clusters' means.
cluster_indices <- function(fit, x) {
  x <- prepared_matrix(x, NULL, fit$scaling)
  if (!is.null(fit$var_weights)) x <- sweep(x, 2, sqrt(fit$var_weights), "*")
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

#' @rdname select_size
#' @export
print.somgpu_selection <- function(x, ...) {
  cat(sprintf("ring size selection: %d replicates (%g%% of the rows held out each), %d sizes\n",
              x$bootstrap, 100 * x$holdout, nrow(x$criteria)))
  cr <- x$criteria
  tab <- data.frame(size = cr$size, heldout_qe = sprintf("%.4f", cr$heldout_qe),
                    stability = sprintf("%.3f [%.2f, %.2f]", cr$stability, cr$stability_lo,
                                        cr$stability_hi),
                    criterion = sprintf("%.4f +- %.3f", cr$criterion, cr$criterion_se),
                    DB = sprintf("%.3f", cr$davies_bouldin),
                    CH = sprintf("%.1f", cr$calinski_harabasz), groups = cr$occupied,
                    mark = ifelse(cr$size == x$recommended, "<-", ""))
  names(tab)[ncol(tab)] <- ""
  print(tab, row.names = FALSE, right = TRUE)
  cat(sprintf("recommended: N = %d. %s\n", x$recommended, x$reason))
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
  panel <- function(y, lo, hi, ylab, main) {
    draw(graphics::plot, list(x = cr$size, y = y, type = "n", ylim = range(lo, hi, y, na.rm = TRUE),
                              xlab = "ring size N", ylab = ylab, main = main), frame_dots(dots))
    bar <- which(is.finite(lo) & is.finite(hi) & hi - lo > 1e-9 * max(1, abs(hi)))
    if (length(bar)) { # a zero-length arrow warns
      graphics::arrows(cr$size[bar], lo[bar], cr$size[bar], hi[bar], angle = 90, code = 3,
                       length = 0.03, col = "grey50")
    }
    draw(graphics::lines, list(x = cr$size, y = y, type = "b", pch = 19), mark_dots(dots))
    graphics::abline(v = x$recommended, lty = 3)
  }
  panel(cr$heldout_qe, cr$heldout_qe - cr$heldout_qe_se, cr$heldout_qe + cr$heldout_qe_se,
        "held-out qe", "held-out error (+- 1 SE)")
  panel(cr$stability, cr$stability_lo, cr$stability_hi, "adjusted Rand index",
        "stability (95% of pairs)")
  panel(cr$criterion, cr$criterion - cr$criterion_se, cr$criterion + cr$criterion_se,
        "held-out qe / stability", "criterion (+- 1 SE)")
  if (!is.null(main)) graphics::mtext(main, outer = TRUE, font = 2)
  invisible(x)
}
