#' Plot a family of ring SOMs
#'
#' Base graphics for reports; every type passes `...` to the graphics calls, so that `main`,
#' `xlab`, `ylab`, `col`, `pch`, `cex`, `lwd` and `lty` (and other graphical parameters)
#' override the defaults.
#'
#' * `"quality"` (the default): quantization and topographic error against ring size,
#'   every restart as a point and the kept restarts joined in order of size (`main` may
#'   give a title per panel).
#' * `"trace"`: quantization error after every pass, one line per size coloured along a
#'   ramp over the sizes (fits trained with `trace = TRUE`).
#' * `"codes"`: the data on their first two principal components (at most `max_points`
#'   rows, sampled reproducibly) with the ring of one `size` drawn through its neurons,
#'   numbered; in the space the maps trained in (scaled, for a fit with `scale`), a row's
#'   missing values drawn at their column's mean.
#' * `"neighbours"`: the ring's U-matrix, the distance between each pair of adjacent
#'   neurons around the ring (in the fit's distance: scaled and weighted as in training);
#'   high bars mark borders between groups of the data.
#' * `"profiles"`: a heatmap of the neurons (in ring order) by the variables, in the data's
#'   units (colours scaled per variable, values written in the cells when they fit).
#' * `"counts"`: the rows won by each neuron.
#'
#' @param x A `somgpu` fit from [train()].
#' @param type One of the types above; partial matching (`"cod"` is `"codes"`).
#' @param size For the one-size types: the ring size to draw (default: the suggested size,
#'   else the largest).
#' @param data For `type = "codes"` when the fit does not keep its data: the training rows.
#' @param max_points For `type = "codes"`: most rows drawn.
#' @param ... Graphical parameters that override the defaults.
#' @return `x`, invisibly.
#' @seealso [summary.somgpu()]
#' @examples
#' set.seed(1)
#' y <- rbind(matrix(rnorm(300, 0, 0.1), ncol = 3), matrix(rnorm(300, 1, 0.1), ncol = 3))
#' fit <- train(y, nmax = 6, iter_max = 20, restarts = 2, seed = 1, threads = 2)
#' plot(fit)
#' plot(fit, type = "codes", size = 4, main = "four neurons", pch = 1)
#' plot(fit, type = "neighbours", size = 6)
#' plot(fit, type = "profiles", size = 4)
#' plot(fit, type = "counts", size = 4, col = "steelblue")
#' @export
plot.somgpu <- function(x, type = "quality", size = NULL, data = NULL, max_points = 5000,
                        ...) {
  call <- compact_call(sys.call(), "plot")
  types <- c("quality", "trace", "codes", "neighbours", "profiles", "counts")
  type <- check_choice(type, "type", types, call)
  dots <- list(...)
  if (type %in% c("codes", "neighbours", "profiles", "counts")) size <- plot_size(x, size, call)
  switch(type,
         quality = plot_quality(x, dots),
         trace = plot_trace(x, dots, call),
         codes = plot_codes(x, size, fit_data(x, data, call), max_points, dots),
         neighbours = plot_neighbours(x, size, dots),
         profiles = plot_profiles(x, size, dots),
         counts = plot_counts(x, size, dots))
  invisible(x)
}

# The one ring size a plot draws: given, else the suggested size, else the largest.
plot_size <- function(x, size, call) {
  sizes <- x$params$sizes
  if (is.null(size)) {
    s <- summary(x)$suggested
    return(if (is.na(s)) max(sizes) else s)
  }
  ok <- is.numeric(size) && length(size) == 1L && !is.na(size) && size %in% sizes
  if (!ok) {
    abort_input(sprintf("`size` must be one trained size of this fit (%s), not %s.",
                        paste(sizes, collapse = ", "), describe(size)), call)
  }
  as.integer(size)
}

# Graphical parameters that style the marks (points, lines, bars) rather than the frame.
mark_args <- c("col", "pch", "cex", "lwd", "lty", "bg", "type")

# A graphics call with our defaults, the user's arguments (dots) taking precedence.
draw <- function(fun, defaults, dots) {
  do.call(fun, utils::modifyList(defaults, dots, keep.null = TRUE))
}
frame_dots <- function(dots) dots[setdiff(names(dots), mark_args)]
mark_dots <- function(dots) dots[intersect(names(dots), mark_args)]
# For image(): the marks it has no use for dropped.
area_dots <- function(dots) dots[setdiff(names(dots), c("pch", "type", "cex", "bg", "lwd", "lty"))]

plot_quality <- function(x, dots) {
  q <- x$quality
  kept <- q[q$best, , drop = FALSE]
  kept <- kept[order(kept$size), , drop = FALSE] # joined in order of size
  op <- graphics::par(mfrow = c(1, 2), mar = c(4, 4, 2, 1))
  on.exit(graphics::par(op))
  titles <- c(qe = "quantization error", te = "topographic error")
  # the size summary() suggests (the groups its maps show), marked on both panels
  suggested <- tryCatch(summary(x)$suggested, error = function(e) NA_integer_)
  for (what in c("qe", "te")) {
    frame <- frame_dots(dots)
    if (length(frame$main) == 2L) frame$main <- frame$main[[match(what, names(titles))]]
    draw(graphics::plot, list(x = q$size, y = q[[what]], type = "n", xlab = "ring size N",
                              ylab = what, main = titles[[what]], xaxt = "n"), frame)
    graphics::axis(1, at = kept$size)
    graphics::points(q$size[!q$best], q[[what]][!q$best], pch = 1, col = "grey50")
    draw(graphics::lines, list(x = kept$size, y = kept[[what]], type = "b", pch = 19),
         mark_dots(dots))
    if (!is.na(suggested)) {
      graphics::abline(v = suggested, lty = 3, col = "grey40")
      graphics::mtext("suggested", side = 3, at = suggested, line = 0.1, cex = 0.7,
                      col = "grey40")
    }
  }
  invisible(kept)
}

plot_trace <- function(x, dots, call) {
  if (is.null(x$trace)) {
    abort_input("This fit has no trace: train with trace = TRUE.", call)
  }
  kept <- x$quality$best
  tr <- x$trace[, kept, drop = FALSE]
  sizes <- x$quality$size[kept]
  # a colour ramp over the sizes, small to large
  pal <- grDevices::hcl.colors(length(sizes), "viridis")[rank(sizes, ties.method = "first")]
  draw(graphics::matplot, list(x = seq_len(nrow(tr)), y = tr, type = "l", lty = 1, col = pal,
                               xlab = "pass", ylab = "quantization error",
                               main = "training trace"), dots)
  # the legend: every size up to 12 (in two columns beyond 6), else ten along the ramp
  ord <- order(sizes)
  show <- if (length(sizes) <= 12L) ord else ord[unique(round(seq(1, length(ord), length.out = 10)))]
  col <- if (is.null(dots$col)) pal else rep_len(dots$col, length(sizes))
  graphics::legend("topright", legend = paste0("N", sizes[show]), lty = 1, bty = "n",
                   col = col[show], cex = 0.9, lwd = 2, ncol = if (length(show) > 6L) 2L else 1L,
                   title = if (length(sizes) > 12L) sprintf("%d sizes, 10 shown", length(sizes)))
  invisible(tr)
}

plot_codes <- function(x, size, data, max_points, dots) {
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
  cl <- size_clusters(x, paste0("N", size))[keep]
  pal <- grDevices::hcl.colors(size, "Dark 3")
  draw(graphics::plot, list(x = pts, type = "n", xlab = "PC1",
                            ylab = if (k == 2L) "PC2" else "", asp = 1,
                            main = sprintf("ring of %d neurons", size)), frame_dots(dots))
  draw(graphics::points, list(x = pts, col = grDevices::adjustcolor(pal[cl], 0.5), pch = 16,
                              cex = 0.6), mark_dots(dots))
  graphics::polygon(w, border = "black", lwd = 2)
  graphics::points(w, pch = 21, bg = pal, cex = 3.2)
  graphics::text(w, labels = seq_len(size), cex = 1, font = 2, col = "white")
  invisible(list(points = pts, neurons = w))
}

# The distance between neurons j and j + 1 around the ring (N and 1 last), in the fit's
# distance: the trained (scaled) weights, each column's term times its weight.
ring_gaps <- function(x, size) {
  w <- (if (is.null(x$scaling)) x$weights else x$scaled_weights)[[paste0("N", size)]]
  v <- if (is.null(x$var_weights)) rep(1, ncol(w)) else x$var_weights
  nxt <- c(seq_len(size)[-1L], 1L)
  sqrt(colSums(v * t((w - w[nxt, , drop = FALSE])^2)))
}

plot_neighbours <- function(x, size, dots) {
  gaps <- ring_gaps(x, size)
  labels <- sprintf("%d-%d", seq_len(size), c(seq_len(size)[-1L], 1L))
  bars(gaps, labels, list(xlab = "neighbouring neurons", ylab = "distance",
                          main = sprintf("neighbour distances, N = %d", size)),
       dots)
  invisible(gaps)
}

# Bars as thick vertical lines (so that col, lwd, lty, pch and cex all apply), labelled.
bars <- function(height, labels, defaults, dots) {
  at <- seq_along(height)
  draw(graphics::plot, c(list(x = at, y = height, type = "h", lwd = 12, lend = 1,
                              col = "grey60", xaxt = "n", ylim = c(0, max(height, 1e-300)),
                              xlim = c(0.5, length(height) + 0.5)), defaults), dots)
  graphics::axis(1, at = at, labels = labels, cex.axis = if (is.null(dots$cex)) 1 else dots$cex)
}

plot_profiles <- function(x, size, dots) {
  w <- x$weights[[paste0("N", size)]]
  m <- ncol(w)
  vars <- if (is.null(colnames(w))) paste0("V", seq_len(m)) else colnames(w)
  # colours per variable: each column from its own minimum to its maximum
  span <- apply(w, 2, function(v) if (diff(range(v)) > 0) (v - min(v)) / diff(range(v)) else v * 0 + 0.5)
  span <- matrix(span, nrow = size)
  old <- graphics::par(mar = c(4, max(4, 0.6 * max(nchar(vars)) + 1), 3, 1))
  on.exit(graphics::par(old))
  graphics::par(mar = c(4, max(4, 0.6 * max(nchar(vars)) + 1), 5, 1)) # room for the key
  draw(graphics::image, list(x = seq_len(size), y = seq_len(m), z = span, zlim = c(0, 1),
                             col = grDevices::hcl.colors(32, "Blues 3", rev = TRUE),
                             xlab = "neuron (ring order)", ylab = "", axes = FALSE,
                             main = sprintf("profiles, N = %d", size)),
       area_dots(dots))
  graphics::axis(1, at = seq_len(size))
  graphics::axis(2, at = seq_len(m), labels = vars, las = 1)
  graphics::box()
  # the colour key: each variable from its own lowest to its highest weight
  key <- grDevices::hcl.colors(32, "Blues 3", rev = TRUE)[c(1, 16, 32)]
  graphics::legend("topright", inset = c(0, -0.1), xpd = TRUE, horiz = TRUE, bty = "n",
                   fill = key, legend = c("lowest", "middle", "highest"), cex = 0.8,
                   border = "grey40", title = "within each variable")
  # the values in the cells, where they fit (cells are one unit wide and high)
  labels <- formatC(signif(as.vector(w), 3), format = "g")
  fits <- max(graphics::strwidth(labels, cex = 0.8)) < 0.95 &&
    graphics::strheight("0", cex = 0.8) < 0.8
  if (fits) {
    graphics::text(rep(seq_len(size), m), rep(seq_len(m), each = size), labels = labels,
                   cex = 0.8, col = ifelse(as.vector(span) > 0.6, "white", "black"))
  }
  invisible(w)
}

plot_counts <- function(x, size, dots) {
  counts <- tabulate(size_clusters(x, paste0("N", size)), size)
  bars(counts, seq_len(size), list(xlab = "neuron", ylab = "rows",
                                   main = sprintf("rows per neuron, N = %d", size)), dots)
  invisible(counts)
}

# A reproducible subsample of k of n rows (seed 1) that leaves the session's random number
# stream as it was.
sample_keeping_seed <- function(n, k) with_private_seed(1L, sort(sample.int(n, k)))
