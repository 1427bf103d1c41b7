#' Plot a family of ring SOMs
#'
#' Base graphics for reports; every type passes `...` to the graphics calls, so that `main`,
#' `xlab`, `ylab`, `col`, `pch`, `cex`, `lwd` and `lty` (and other graphical parameters)
#' override the defaults. Every figure carries a legend for each kind of mark it draws and
#' labels its reference lines. [autoplot.somgpu()] draws the same figures with ggplot2.
#'
#' * `"quality"` (the default): quantization and topographic error against ring size,
#'   the kept restart of each size as a filled point, joined in order of size, the others as
#'   open circles, and the size [summary.somgpu()] suggests marked (`main` may give a title
#'   per panel).
#' * `"trace"`: quantization error after every pass, one line per size coloured along a
#'   ramp over the sizes (fits trained with `trace = TRUE`).
#' * `"codes"`: the data on their first two principal components (at most `max_points`
#'   rows, sampled reproducibly), coloured by their neuron, with the ring of one `size`
#'   drawn through its neurons, numbered; in the space the maps trained in (scaled, for a
#'   fit with `scale`), a row's missing values drawn at their column's mean. Points grow
#'   fainter and smaller as there are more of them.
#' * `"groups"`: the groups view: the data as in `"codes"`, coloured by the group
#'   [summary.somgpu()] finds for each row (as [select_size()] does), with the largest ring
#'   (the one the groups were found on) drawn through its neurons.
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
#' @param data For `"codes"` and `"groups"` when the fit does not keep its data: the
#'   training rows.
#' @param max_points For `"codes"` and `"groups"`: most rows drawn.
#' @param ... Graphical parameters that override the defaults.
#' @return `x`, invisibly.
#' @seealso [summary.somgpu()], [autoplot.somgpu()]
#' @examples
#' set.seed(1)
#' y <- rbind(matrix(rnorm(300, 0, 0.1), ncol = 3), matrix(rnorm(300, 1, 0.1), ncol = 3))
#' fit <- train(y, nmax = 6, iter_max = 20, restarts = 2, seed = 1, threads = 2)
#' plot(fit)
#' plot(fit, type = "codes", size = 4, main = "four neurons", pch = 1)
#' plot(fit, type = "groups")
#' plot(fit, type = "neighbours", size = 6)
#' plot(fit, type = "profiles", size = 4)
#' plot(fit, type = "counts", size = 4, col = "steelblue")
#' @export
plot.somgpu <- function(x, type = "quality", size = NULL, data = NULL, max_points = 5000,
                        ...) {
  call <- compact_call(sys.call(), "plot")
  type <- check_choice(type, "type", fit_plot_types, call)
  dots <- list(...)
  if (type %in% c("codes", "neighbours", "profiles", "counts")) size <- plot_size(x, size, call)
  switch(type,
         quality = plot_quality(x, dots),
         trace = plot_trace(x, dots, call),
         codes = plot_codes(codes_data(x, size, fit_data(x, data, call), max_points), dots),
         groups = plot_groups(fit_groups_view(x, data, max_points, call), dots),
         neighbours = plot_neighbours(x, size, dots),
         profiles = plot_profiles(x, size, dots),
         counts = plot_counts(x, size, dots))
  invisible(x)
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
  qd <- quality_data(x)
  q <- qd$points
  kept <- q[q$kept, , drop = FALSE]
  kept <- kept[order(kept$size), , drop = FALSE] # joined in order of size
  op <- graphics::par(mfrow = c(1, 2), mar = c(4, 4, 3, 1))
  on.exit(graphics::par(op))
  titles <- c(qe = "quantization error", te = "topographic error")
  for (what in c("qe", "te")) {
    frame <- frame_dots(dots)
    if (length(frame$main) == 2L) frame$main <- frame$main[[match(what, names(titles))]]
    draw(graphics::plot, list(x = q$size, y = q[[what]], type = "n", xlab = "ring size N",
                              ylab = what, main = titles[[what]], xaxt = "n"), frame)
    graphics::axis(1, at = kept$size)
    graphics::points(q$size[!q$kept], q[[what]][!q$kept], pch = 1, col = "grey50")
    draw(graphics::lines, list(x = kept$size, y = kept[[what]], type = "b", pch = 19),
         mark_dots(dots))
    mark_size(qd$suggested, "suggested")
    if (what == "qe") {
      graphics::legend("topright", bty = "n", cex = 0.85,
                       legend = c("kept restart (lowest qe)",
                                  if (any(!q$kept)) "other restarts"),
                       pch = c(19, if (any(!q$kept)) 1),
                       col = c(if (is.null(dots$col)) "black" else dots$col[1],
                               if (any(!q$kept)) "grey50"),
                       lty = c(1, if (any(!q$kept)) NA))
    }
  }
  invisible(kept)
}

# A size marked on a panel: a dotted line, its label in readable text above the panel.
mark_size <- function(at, what) {
  if (!is.na(at)) mark_at(at, sprintf("%s N = %d", what, at))
}

# A dotted line at x = at, labelled above the panel, the text running away from the nearer
# side so that it stays over its panel.
mark_at <- function(at, label) {
  graphics::abline(v = at, lty = 3, col = "grey30")
  usr <- graphics::par("usr")
  graphics::mtext(label, side = 3, at = at, line = 0.3, cex = 0.85, font = 2, col = "grey20",
                  adj = if (at < mean(usr[1:2])) 0 else 1)
}

plot_trace <- function(x, dots, call) {
  td <- trace_data(x, call)
  sizes <- unique(td$size)
  tr <- matrix(td$qe, ncol = length(sizes))
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

plot_codes <- function(cd, dots) {
  size <- nrow(cd$neurons)
  pal <- grDevices::hcl.colors(size, "Dark 3")
  ring_frame(cd, sprintf("ring of %d neurons", size), dots)
  st <- point_style(cd$shown)
  draw(graphics::points, list(x = cd$points$PC1, y = cd$points$PC2, pch = 16, cex = st$cex,
                              col = grDevices::adjustcolor(pal[cd$points$cluster], st$alpha)),
       mark_dots(dots))
  ring_neurons(cd$neurons, pal)
  graphics::legend("topright", bty = "n", cex = 0.85, pch = c(16, 21), pt.cex = c(1, 1.8),
                   col = c("grey40", "black"), pt.bg = c(NA, "grey70"),
                   legend = c(shown_label(cd, "their neuron's colour"),
                              "neuron (numbered round the ring)"))
  invisible(cd)
}

# The groups view: the rows coloured by their group, the grouping ring through its neurons
# (each filled with its group's colour), a legend naming every group.
plot_groups <- function(gd, dots) {
  pal <- group_palette(gd$groups)
  ring_frame(gd, sprintf("%d group%s, found on the ring of %d", gd$groups,
                         if (gd$groups == 1) "" else "s", nrow(gd$neurons)), dots)
  st <- point_style(gd$shown)
  g <- gd$points$group
  draw(graphics::points, list(x = gd$points$PC1, y = gd$points$PC2, pch = 16, cex = st$cex,
                              col = ifelse(is.na(g), "grey70",
                                           grDevices::adjustcolor(pal[pmax(g, 1L)], st$alpha))),
       mark_dots(dots))
  fill <- ifelse(is.na(gd$neurons$group), "white", pal[pmax(gd$neurons$group, 1L)])
  ring_neurons(gd$neurons, fill, numbers = FALSE, cex = 1.6)
  graphics::legend("topright", bty = "n", cex = 0.8, pch = c(rep(16, gd$groups), 21),
                   col = c(pal, "black"), pt.bg = c(rep(NA, gd$groups), "white"),
                   pt.cex = c(rep(1.2, gd$groups), 1.4),
                   legend = c(gd$labels, sprintf("neuron of the ring of %d", nrow(gd$neurons))),
                   title = shown_label(gd, "their group's colour"))
  invisible(gd)
}

# The empty frame of a principal-components view, room at the top right for its legend.
ring_frame <- function(cd, main, dots) {
  xr <- range(cd$points$PC1, cd$neurons$PC1)
  yr <- range(cd$points$PC2, cd$neurons$PC2)
  yr[2] <- yr[2] + 0.35 * diff(yr) # the legend's room
  draw(graphics::plot, list(x = xr, y = yr, type = "n", xlab = "PC1",
                            ylab = if (cd$one_column) "" else "PC2", asp = 1, main = main),
       frame_dots(dots))
}

# The ring through its neurons, closed, each neuron a filled circle (numbered).
ring_neurons <- function(neurons, fill, numbers = TRUE, cex = 3.2) {
  graphics::polygon(neurons$PC1, neurons$PC2, border = "black", lwd = 2)
  graphics::points(neurons$PC1, neurons$PC2, pch = 21, bg = fill, cex = cex)
  if (numbers) {
    graphics::text(neurons$PC1, neurons$PC2, labels = neurons$neuron, cex = 1, font = 2,
                   col = "white")
  }
}

plot_neighbours <- function(x, size, dots) {
  gaps <- ring_gaps(x, size)
  bars(gaps, ring_pairs(size), list(xlab = "neighbouring neurons", ylab = "distance",
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
  pd <- profiles_data(w) # colours per variable: each column from its minimum to its maximum
  vars <- pd$vars
  span <- pd$span
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
  labels <- pd$labels
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

#' Plot a size selection
#'
#' `type = "criteria"` (the default): three panels, the held-out error per size (mean over
#' the replicates, +- 1 standard error), the stability between replicates per size (the
#' mean adjusted Rand index, with the 95% interval over pairs of replicates), and the
#' criterion of the best grouping per number of groups (see [select_size()], "Groups");
#' the recommended size and the number of groups marked and labelled, and "no group
#' structure" said in the figure when there is none. `type = "groups"`: the groups view,
#' the rows on their first two principal components coloured by their group, the ring the
#' groups were found on drawn through its neurons, each group's rows and bootstrap
#' stability in the legend. [autoplot.somgpu_selection()] draws both with ggplot2.
#'
#' @param x A `somgpu_selection` from [select_size()].
#' @param type `"criteria"` or `"groups"`.
#' @param data For `type = "groups"`: the rows the selection was made on (unless its fit
#'   keeps them, `keep_data = TRUE`).
#' @param max_points For `type = "groups"`: most rows drawn.
#' @param ... Graphical parameters (`main`, a title over the panels; `col`, `pch`, `cex`,
#'   `lwd`, `lty`, `xlab`, ...).
#' @return `x`, invisibly.
#' @seealso [select_size()]
#' @examples
#' set.seed(1)
#' y <- rbind(matrix(rnorm(200, 0, 0.3), ncol = 2), matrix(rnorm(200, 2, 0.3), ncol = 2))
#' sel <- select_size(y, sizes = 2:5, restarts = 2, bootstrap = 4, iter_max = 30, seed = 1,
#'                    threads = 2)
#' plot(sel)
#' plot(sel, type = "groups", data = y)
#' @export
plot.somgpu_selection <- function(x, type = "criteria", data = NULL, max_points = 5000, ...) {
  call <- compact_call(sys.call(), "plot")
  type <- check_choice(type, "type", c("criteria", "groups"), call)
  dots <- list(...)
  if (type == "groups") {
    plot_groups(selection_groups_view(x, data, max_points, call), dots)
    return(invisible(x))
  }
  sd <- selection_data(x)
  main <- dots$main # one title over the three panels
  dots$main <- NULL
  op <- graphics::par(mfrow = c(1, 3), mar = c(4, 4, 4.5, 1), cex = 0.9, mgp = c(2.5, 0.8, 0),
                      oma = c(0, 0, if (is.null(main)) 0 else 2, 0))
  on.exit(graphics::par(op))
  xlabs <- c("ring size N", "ring size N", "groups")
  ylabs <- c("held-out qe", "adjusted Rand index", "BIC of the classification")
  for (i in seq_along(sd$panels)) {
    d <- sd$long[sd$long$panel == sd$panels[i], , drop = FALSE]
    ylim <- range(d$lo, d$hi, d$y, na.rm = TRUE)
    if (!all(is.finite(ylim))) ylim <- c(0, 1)
    draw(graphics::plot, list(x = d$x, y = d$y, type = "n", ylim = ylim, xlab = xlabs[i],
                              ylab = ylabs[i]), frame_dots(dots))
    graphics::title(main = sd$panels[i], line = 2.2, cex.main = 0.95)
    bar <- which(is.finite(d$lo) & is.finite(d$hi) & d$hi - d$lo > 1e-9 * max(1, abs(d$hi)))
    if (length(bar)) { # a zero-length arrow warns
      graphics::arrows(d$x[bar], d$lo[bar], d$x[bar], d$hi[bar], angle = 90, code = 3,
                       length = 0.03, col = "grey50")
    }
    draw(graphics::lines, list(x = d$x, y = d$y, type = "b", pch = 19), mark_dots(dots))
    m <- sd$marks[i, ]
    if (!is.na(m$x)) mark_at(m$x, m$label)
    if (!is.null(sd$none) && i < 3L) {
      graphics::mtext(sd$none, side = 3, line = 0.3, cex = 0.85, font = 2, col = "firebrick")
    }
    if (i == 1L) {
      graphics::legend("topright", bty = "n", cex = 0.85, pch = c(19, NA), lty = c(1, 1),
                       col = c("black", "grey50"), legend = c("mean over replicates", "+- 1 SE"))
    }
  }
  if (!is.null(main)) graphics::mtext(main, outer = TRUE, font = 2)
  invisible(x)
}

