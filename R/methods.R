# Methods for fits: summary and plot (predict is in predict.R).

check_fit_sizes <- function(object, sizes, call) {
  ok <- is.numeric(sizes) && length(sizes) >= 1L && !anyNA(sizes) &&
    all(sizes %in% object$params$sizes)
  if (!ok) {
    abort_input(sprintf("`sizes` must be trained sizes of this fit (%s), not %s.",
                        paste(object$params$sizes, collapse = ", "), describe(sizes)), call)
  }
  as.integer(sizes)
}

# The rows the fit was trained on: kept in the fit (keep_data = TRUE) or given (columns
# taken by name, as in predict()).
fit_data <- function(object, data, call) {
  if (!is.null(data)) {
    x <- newdata_matrix(data, object, call, name = "data")
    scan_data(x, call, name = "data")
    return(x)
  }
  if (is.null(object$data)) {
    abort_input("The fit does not keep its data (keep_data = FALSE): pass the training data as `data`.",
                call)
  }
  object$data
}

#' Summarise a family of ring SOMs and suggest a size
#'
#' One row per ring size with the kept restart's quantization error (`qe`), topographic
#' error (`te`) and explained variance, the stability across restarts (mean adjusted Rand
#' index between the restarts' clusterings; `NA` with one restart), and the smallest and
#' largest cluster. The suggested size is the elbow of qe against size: the size whose point
#' lies farthest below the straight line from the smallest to the largest size, both axes
#' scaled to \[0, 1\] (at least three sizes; `NA` otherwise).
#'
#' @param object A `somgpu` fit from [train()].
#' @param x A `summary.somgpu` object.
#' @param ... Ignored.
#' @return A list of class `summary.somgpu`: `table` (a data frame with columns `size`, `qe`,
#'   `te`, `explained_var`, `stability`, `smallest`, `largest`), `suggested` (a size), and
#'   `dropped` (the number of rows left out for missing values) of `n` rows.
#' @seealso [train()], [plot.somgpu()]
#' @examples
#' set.seed(1)
#' y <- rbind(matrix(rnorm(300, 0, 0.1), ncol = 3), matrix(rnorm(300, 1, 0.1), ncol = 3))
#' fit <- train(y, nmax = 6, iter_max = 20, restarts = 2, seed = 1, threads = 2)
#' summary(fit)
#' @export
summary.somgpu <- function(object, ...) {
  q <- object$quality[object$quality$best, , drop = FALSE]
  sizes <- object$params$sizes
  counts <- lapply(seq_along(sizes), function(i) tabulate(object$clusters[[i]], sizes[i]))
  tab <- data.frame(size = q$size, qe = q$qe, te = q$te, explained_var = q$explained_var,
                    stability = object$stability$stability,
                    smallest = vapply(counts, min, integer(1)),
                    largest = vapply(counts, max, integer(1)))
  structure(list(table = tab, suggested = elbow(q$size, q$qe),
                 restarts = object$params$restarts, algorithm = object$params$algorithm,
                 dropped = length(object$dropped), n = object$params$n),
            class = "summary.somgpu")
}

#' @rdname summary.somgpu
#' @export
print.summary.somgpu <- function(x, ...) {
  cat(sprintf("ring SOMs: %d sizes, %d restart%s each (%s)\n", nrow(x$table), x$restarts,
              if (x$restarts == 1L) "" else "s", x$algorithm))
  if (length(x$dropped) && x$dropped > 0) {
    cat(sprintf("%d of %d rows left out for missing values (their clusters are NA)\n",
                x$dropped, x$n))
  }
  tab <- x$table
  fmt <- data.frame(size = tab$size, qe = sprintf("%.4f", tab$qe), te = sprintf("%.4f", tab$te),
                    explained = sprintf("%.3f", tab$explained_var),
                    stability = ifelse(is.na(tab$stability), "-", sprintf("%.3f", tab$stability)),
                    smallest = tab$smallest, largest = tab$largest)
  print(fmt, row.names = FALSE, right = TRUE)
  cat(sprintf("suggested size (elbow of qe): %s\n",
              if (is.na(x$suggested)) "none (fewer than 3 sizes)" else x$suggested))
  invisible(x)
}

#' Plot a family of ring SOMs
#'
#' `type = "quality"` (the default): quantization and topographic error against ring size,
#' every restart as a point and the kept restarts joined by a line. `type = "codes"`: the
#' data on their first two principal components (at most `max_points` rows, sampled
#' reproducibly) with the ring of the given `size` drawn through its neurons, numbered; in
#' the space the maps trained in (scaled, for a fit with `scale`), a row's missing values
#' drawn at their column's mean.
#' `type = "trace"`: quantization error after every pass, one line per size (fits trained
#' with `trace = TRUE`). Base graphics.
#'
#' @param x A `somgpu` fit from [train()].
#' @param type `"quality"`, `"codes"` or `"trace"`.
#' @param size For `type = "codes"`: the ring size to draw (default: the suggested size, else
#'   the largest).
#' @param data For `type = "codes"` when the fit does not keep its data: the training rows.
#' @param max_points For `type = "codes"`: most rows drawn.
#' @param ... Further graphical parameters for the main plot.
#' @return `x`, invisibly.
#' @seealso [summary.somgpu()]
#' @examples
#' set.seed(1)
#' y <- rbind(matrix(rnorm(300, 0, 0.1), ncol = 3), matrix(rnorm(300, 1, 0.1), ncol = 3))
#' fit <- train(y, nmax = 6, iter_max = 20, restarts = 2, seed = 1, threads = 2)
#' plot(fit)
#' plot(fit, type = "codes", size = 4)
#' @export
plot.somgpu <- function(x, type = c("quality", "codes", "trace"), size = NULL, data = NULL,
                        max_points = 5000, ...) {
  call <- sys.call()
  type <- if (missing(type)) "quality" else check_choice(type, "type", c("quality", "codes", "trace"), call)
  switch(type,
         quality = plot_quality(x, ...),
         codes = plot_codes(x, size, fit_data(x, data, call), max_points, call, ...),
         trace = plot_trace(x, call, ...))
  invisible(x)
}

plot_quality <- function(x, ...) {
  q <- x$quality
  kept <- q[q$best, , drop = FALSE]
  op <- graphics::par(mfrow = c(1, 2), mar = c(4, 4, 2, 1))
  on.exit(graphics::par(op))
  for (what in c("qe", "te")) {
    graphics::plot(q$size, q[[what]], pch = 1, col = "grey50", xlab = "ring size N",
                   ylab = what, main = if (what == "qe") "quantization error" else
                     "topographic error", xaxt = "n", ...)
    graphics::axis(1, at = kept$size)
    graphics::lines(kept$size, kept[[what]], type = "b", pch = 19)
  }
}

plot_codes <- function(x, size, data, max_points, call, ...) {
  sizes <- x$params$sizes
  if (is.null(size)) {
    s <- summary(x)$suggested
    size <- if (is.na(s)) max(sizes) else s
  }
  size <- check_fit_sizes(x, size, call)[1]
  # in the space the maps trained in: scaled data and weights
  data <- prepared_matrix(data, NULL, x$scaling)
  codes <- (if (is.null(x$scaling)) x$weights else x$scaled_weights)[[paste0("N", size)]]
  basis <- pca_basis(data)
  k <- min(2L, ncol(data))
  keep <- if (nrow(data) > max_points) {
    sample_keeping_seed(nrow(data), max_points)
  } else {
    seq_len(nrow(data))
  }
  project <- function(m) {
    m <- sweep(m, 2, basis$center)
    m[is.na(m)] <- 0 # a missing value drawn at its column's mean
    p <- m %*% basis$rotation[, seq_len(k), drop = FALSE]
    if (k == 1L) cbind(p, 0) else p
  }
  pts <- project(data[keep, , drop = FALSE])
  w <- project(codes)
  cl <- x$clusters[[paste0("N", size)]][keep]
  pal <- grDevices::hcl.colors(size, "Dark 3")
  graphics::plot(pts, col = grDevices::adjustcolor(pal[cl], 0.5), pch = 16, cex = 0.6,
                 xlab = "PC1", ylab = if (k == 2L) "PC2" else "", asp = 1,
                 main = sprintf("ring of %d neurons", size), ...)
  graphics::polygon(w, border = "black", lwd = 2)
  graphics::points(w, pch = 21, bg = pal, cex = 2.2)
  graphics::text(w, labels = seq_len(size), cex = 0.7)
}

# A reproducible subsample of k of n rows (seed 1) that leaves the session's random number
# stream as it was.
sample_keeping_seed <- function(n, k) {
  if (exists(".Random.seed", envir = globalenv())) {
    old <- get(".Random.seed", envir = globalenv())
    on.exit(assign(".Random.seed", old, envir = globalenv()))
  } else {
    on.exit(rm(".Random.seed", envir = globalenv()))
  }
  set.seed(1L)
  sort(sample.int(n, k))
}

plot_trace <- function(x, call, ...) {
  if (is.null(x$trace)) {
    abort_input("This fit has no trace: train with trace = TRUE.", call)
  }
  tr <- x$trace
  kept <- x$quality$best
  graphics::matplot(seq_len(nrow(tr)), tr[, kept, drop = FALSE], type = "l", lty = 1,
                    col = grDevices::hcl.colors(sum(kept), "Dark 3"), xlab = "pass",
                    ylab = "quantization error", main = "training trace", ...)
  graphics::legend("topright", legend = paste0("N", x$params$sizes), lty = 1, bty = "n",
                   col = grDevices::hcl.colors(sum(kept), "Dark 3"), cex = 0.7)
}
