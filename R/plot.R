#' Plot a family of ring SOMs
#'
#' Base graphics for reports; every type passes `...` to the graphics calls, so that `main`,
#' `xlab`, `ylab`, `col`, `pch`, `cex`, `lwd` and `lty` (and other graphical parameters)
#' override the defaults. Every figure carries a legend for each kind of mark it draws and
#' labels its reference lines. The figures read at the sizes reports use (`png()`'s 480 x
#' 480 pixels, a 7 x 5 inch R Markdown chunk, and larger): titles and labels are fitted to
#' their panels (shrunk, put on two lines, or said shorter), legends are drawn beside the
#' panels, never over the data, and axes of sizes, rows and passes carry whole numbers only.
#' [autoplot.somgpu()] draws the same figures with ggplot2.
#'
#' * `"quality"` (the default): quantization and topographic error against ring size,
#'   the kept restart of each size as a filled point, joined in order of size, the others as
#'   open circles, and the size [summary.somgpu()] suggests marked (`main` may give a title
#'   per panel).
#' * `"trace"`: quantization error after every pass, one line per size coloured along a
#'   ramp over the sizes (fits trained with `trace = TRUE`).
#' * `"codes"`: the data on their first two principal components (at most `max_points`
#'   rows, sampled reproducibly), coloured by their neuron, with the ring of one `size`
#'   drawn through its neurons, numbered (a number that would cover another beside its
#'   circle, in black); in the space the maps trained in (scaled, for a
#'   fit with `scale`), a row's missing values drawn at their column's mean. Points grow
#'   fainter and smaller as there are more of them.
#' * `"groups"`: the groups view: the data as in `"codes"`, coloured by the group
#'   [summary.somgpu()] finds for each row (the Gaussian groups of the fit's largest map
#'   alone, "this fit alone" in the title: [select_size()] also tries other shapes and
#'   checks the groups on replicates, so its groups view may differ), with the largest ring
#'   (the one the groups were found on) drawn through its neurons.
#' * `"neighbours"`: the ring's U-matrix, the distance between each pair of adjacent
#'   neurons around the ring (in the fit's distance: scaled and weighted as in training);
#'   high bars mark borders between groups of the data.
#' * `"profiles"`: a heatmap of the neurons (in ring order) by the variables (the first
#'   at the top), in the data's units (colours scaled per variable; values written in the
#'   cells when they fit, to three significant digits of their variable's range, so that a
#'   weight next to zero reads 0). A categorical column of a data frame (see [train()]) is
#'   a row of bars: in each neuron's cell its levels' shares stacked from the first level
#'   at the bottom, a colour per level's place (the first orange, the second sky blue, ...;
#'   Okabe and Ito's colours), named in a line per column under the figure (the first
#'   four columns).
#' * `"counts"`: the rows won by each neuron.
#'
#' @param x A `somgpu` fit from [train()].
#' @param type One of the types above; partial matching (`"cod"` is `"codes"`).
#' @param size For the one-size types: the ring size to draw (default: the suggested size,
#'   else the largest).
#' @param data For `"codes"` and `"groups"` when the fit does not keep its data: the
#'   training rows, in memory or as a file-backed `bigmemory::big.matrix` (of which the
#'   rows drawn are read from the file; for `"groups"`, each row's group is counted a
#'   block of rows at a time).
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
         codes = plot_codes(codes_view(x, size, data, max_points, call), dots),
         groups = plot_groups(fit_groups_view(x, data, max_points, call), dots),
         neighbours = plot_neighbours(x, size, dots),
         profiles = plot_profiles(x, size, dots),
         counts = plot_counts(x, size, dots))
  invisible(x)
}

plot_quality <- function(x, dots) {
  qd <- quality_data(x)
  q <- qd$points
  kept <- q[q$kept, , drop = FALSE]
  kept <- kept[order(kept$size), , drop = FALSE] # joined in order of size
  op <- graphics::par(mfrow = c(1, 2), mar = c(4, 4, 3.6, 1), oma = c(1.6, 0, 0, 0))
  on.exit(graphics::par(op))
  titles <- c(qe = "quantization error", te = "topographic error")
  for (what in c("qe", "te")) {
    frame <- frame_dots(dots)
    if (length(frame$main) == 2L) frame$main <- frame$main[[match(what, names(titles))]]
    draw_frame(graphics::plot, list(x = q$size, y = q[[what]], type = "n", xlab = "ring size N",
                                    ylab = what, main = titles[[what]], xaxt = "n"),
               frame, shorter = c(qe = "quantization", te = "topographic")[[what]], line = 1.6)
    size_axis(kept$size)
    graphics::points(q$size[!q$kept], q[[what]][!q$kept], pch = 1, col = "grey50")
    draw(graphics::lines, list(x = kept$size, y = kept[[what]], type = "b", pch = 19),
         mark_dots(dots))
    mark_size(qd$suggested, "suggested")
  }
  # the legend under both panels, off the points
  legend_foot(list(cex = 0.85, legend = c("kept restart (lowest qe)",
                                          if (any(!q$kept)) "other restarts"),
                   pch = c(19, if (any(!q$kept)) 1),
                   col = c(if (is.null(dots$col)) "black" else dots$col[1],
                           if (any(!q$kept)) "grey50"),
                   lty = c(1, if (any(!q$kept)) NA)))
  invisible(kept)
}

# A size marked on a panel: a dotted line, its label in readable text above the panel.
mark_size <- function(at, what) {
  if (!is.na(at)) mark_at(at, sprintf("%s N = %d", what, at), sprintf("N = %d", at))
}

# A dotted line at x = at, labelled above the panel, the text running away from the nearer
# side and fitted (shrunk, or `shorter`) to the room left to the edge of its figure, so that
# it stays over its panel.
mark_at <- function(at, label, shorter = character()) {
  graphics::abline(v = at, lty = 3, col = "grey30")
  if (!nzchar(label)) return(invisible(NULL))
  usr <- graphics::par("usr")
  left <- at < mean(usr[1:2])
  x <- graphics::grconvertX(at, "user", "inches")
  fig <- graphics::grconvertX(c(0, 1), "nfc", "inches")
  room <- (if (left) fig[2L] - x else x - fig[1L]) - 0.05
  ft <- fit_text(label, room, cex = 0.85, font = 2, shorter = shorter, min_cex = 0.65,
                 absolute = TRUE, wrap = FALSE)
  graphics::mtext(ft$text, side = 3, at = at, line = 0.3, cex = ft$cex, font = 2,
                  col = "grey20", adj = if (left) 0 else 1)
}

plot_trace <- function(x, dots, call) {
  td <- trace_data(x, call)
  sizes <- unique(td$size)
  tr <- matrix(td$qe, ncol = length(sizes))
  # a colour ramp over the sizes, small to large
  pal <- grDevices::hcl.colors(length(sizes), "viridis")[rank(sizes, ties.method = "first")]
  # the legend: every size up to 12, else ten along the ramp; in
  # the right margin, off the lines
  ord <- order(sizes)
  show <- if (length(sizes) <= 12L) ord else ord[unique(round(seq(1, length(ord), length.out = 10)))]
  col <- if (is.null(dots$col)) pal else rep_len(dots$col, length(sizes))
  key <- list(legend = paste0("N", sizes[show]), lty = 1, col = col[show], cex = 0.9,
              lwd = 2,
              title = if (length(sizes) > 12L) sprintf("%d sizes,\n10 shown", length(sizes)))
  old <- graphics::par("mai")
  on.exit(graphics::par(mai = old))
  graphics::par(mai = legend_margin(legend_inches(key), "right"))
  draw_frame(graphics::matplot, list(x = seq_len(nrow(tr)), y = tr, type = "l", lty = 1,
                                     col = pal, xlab = "pass", ylab = "quantization error",
                                     main = "training trace", xaxt = "n"), dots)
  integer_axis(1, c(1, nrow(tr)))
  legend_beside(key, "right")
  invisible(tr)
}

plot_codes <- function(cd, dots) {
  size <- nrow(cd$neurons)
  pal <- grDevices::hcl.colors(size, "Dark 3")
  key <- list(cex = 0.85, pch = c(16, 21), pt.cex = c(1, 1.8), col = c("grey40", "black"),
              pt.bg = c(NA, "grey70"),
              legend = c(shown_label(cd, "their neuron's colour"),
                         "neuron (numbered round the ring)"))
  rf <- ring_frame(cd, sprintf("ring of %d neurons", size), dots, key)
  on.exit(graphics::par(mai = rf$mai))
  st <- point_style(cd$shown)
  draw(graphics::points, list(x = cd$points$PC1, y = cd$points$PC2, pch = 16, cex = st$cex,
                              col = grDevices::adjustcolor(pal[cd$points$cluster], st$alpha)),
       mark_dots(dots))
  ring_neurons(cd$neurons, pal)
  legend_beside(key, rf$side)
  invisible(cd)
}

# The groups view: the rows coloured by their group, the grouping ring through its neurons
# (each filled with its group's colour), a legend naming every group.
plot_groups <- function(gd, dots) {
  pal <- group_palette(gd$groups)
  dots_in <- length(gd$labels) + length(gd$no_group) # the rows' kinds of dots: groups, none
  key <- list(cex = 0.8, pch = c(rep(16, dots_in), 21),
              col = c(pal, if (length(gd$no_group)) no_group_colour, "black"),
              pt.bg = c(rep(NA, dots_in), "white"), pt.cex = c(rep(1.2, dots_in), 1.4),
              legend = c(gd$labels, gd$no_group,
                         sprintf("neuron of the ring of %d", nrow(gd$neurons))),
              title = shown_label(gd, "their group's colour"), title.adj = 0)
  rf <- ring_frame(gd, gd$title, dots, key,
                   shorter = sprintf("%d group%s", gd$groups, if (gd$groups == 1) "" else "s"))
  on.exit(graphics::par(mai = rf$mai))
  st <- point_style(gd$shown)
  g <- gd$points$group
  draw(graphics::points, list(x = gd$points$PC1, y = gd$points$PC2, pch = 16, cex = st$cex,
                              col = ifelse(is.na(g), no_group_colour,
                                           grDevices::adjustcolor(pal[pmax(g, 1L)], st$alpha))),
       mark_dots(dots))
  fill <- ifelse(is.na(gd$neurons$group), "white", pal[pmax(gd$neurons$group, 1L)])
  ring_neurons(gd$neurons, fill, numbers = FALSE, cex = 1.6)
  legend_beside(key, rf$side)
  invisible(gd)
}

# The frame of a principal-components view with room for its legend (the arguments `key`)
# beside it, in the margin on the side that leaves the points the larger scale
# (legend_side()), never over them: list(mai, the margins as they were, for the caller to
# restore; side, where the caller draws the legend, legend_beside(), after the marks).
ring_frame <- function(cd, main, dots, key, shorter = character()) {
  old <- graphics::par("mai")
  xr <- range(cd$points$PC1, cd$neurons$PC1)
  yr <- range(cd$points$PC2, cd$neurons$PC2)
  inches <- legend_inches(key)
  side <- legend_side(inches, xr, yr)
  graphics::par(mai = legend_margin(inches, side))
  draw_frame(graphics::plot, list(x = xr, y = yr, type = "n", xlab = "PC1",
                                  ylab = if (cd$one_column) "" else "PC2", asp = 1, main = main),
             frame_dots(dots), shorter)
  list(mai = old, side = side)
}

# "right" or "bottom": where a legend of `inches` leaves points spanning xr by yr (drawn at
# one scale on both axes) the larger scale.
legend_side <- function(inches, xr, yr) {
  pin <- graphics::par("pin")
  mai <- graphics::par("mai")
  span <- pmax(c(diff(xr), diff(yr)), 1e-9)
  scale <- function(p) min(p / span)
  right <- pin - c(legend_margin(inches, "right")[4L] - mai[4L], 0)
  bottom <- pin - c(0, legend_margin(inches, "bottom")[1L] - mai[1L])
  if (scale(bottom) >= scale(right)) "bottom" else "right"
}

# The ring through its neurons, closed, each neuron a filled circle, numbered (white on its
# circle, or dark beside it where another number or neuron is in the way: label_places()).
ring_neurons <- function(neurons, fill, numbers = TRUE, cex = 3.2) {
  graphics::polygon(neurons$PC1, neurons$PC2, border = "black", lwd = 2)
  graphics::points(neurons$PC1, neurons$PC2, pch = 21, bg = fill, cex = cex)
  if (numbers) {
    lab <- as.character(neurons$neuron)
    # pch 21's radius: 0.375 of its size in points
    r <- 0.375 * cex * graphics::par("cex") * graphics::par("ps") / 72
    at <- label_places(graphics::grconvertX(neurons$PC1, "user", "inches"),
                       graphics::grconvertY(neurons$PC2, "user", "inches"),
                       graphics::strwidth(lab, "inches", font = 2) + 0.03,
                       1.2 * graphics::strheight("0", "inches", font = 2), r)
    keep <- !is.na(at$x)
    graphics::text(graphics::grconvertX(at$x[keep], "inches", "user"),
                   graphics::grconvertY(at$y[keep], "inches", "user"), labels = lab[keep],
                   cex = 1, font = 2, col = ifelse(at$moved[keep], "black", "white"))
  }
}

plot_neighbours <- function(x, size, dots) {
  gaps <- ring_gaps(x, size)
  bars(gaps, ring_pairs(size), list(xlab = "neighbouring neurons", ylab = "distance",
                          main = sprintf("neighbour distances, N = %d", size)),
       dots, shorter = sprintf("neighbours, N = %d", size))
  invisible(gaps)
}

# Bars as thick vertical lines (so that col, lwd, lty, pch and cex all apply), labelled: a
# tick per bar, a label at the bars axis_labels_at() picks; `counts`: whole numbers on the
# y axis.
bars <- function(height, labels, defaults, dots, counts = FALSE, shorter = character()) {
  at <- seq_along(height)
  draw_frame(graphics::plot, c(list(x = at, y = height, type = "h", lwd = 12, lend = 1,
                                    col = "grey60", xaxt = "n", yaxt = if (counts) "n" else "s",
                                    ylim = c(0, max(height, 1e-300)),
                                    xlim = c(0.5, length(height) + 0.5)), defaults), dots,
             shorter)
  cex <- if (is.null(dots$cex)) 1 else dots$cex
  graphics::axis(1, at = at, labels = FALSE)
  shown <- axis_labels_at(length(height))
  graphics::axis(1, at = shown, labels = labels[shown], cex.axis = cex, tick = FALSE)
  if (counts) integer_axis(2, c(0, max(height)))
}

plot_profiles <- function(x, size, dots) {
  w <- x$weights[[paste0("N", size)]]
  # colours per variable: each column from its minimum to its maximum; a categorical
  # column's cells hold bars of its levels' shares (mixed_profiles_data())
  pd <- profiles_data(w, x$encoding)
  vars <- pd$vars
  m <- length(vars)
  span <- pd$span
  keys <- profile_keys(pd) # a legend line per categorical column named
  numeric <- is.null(pd$categorical) || !all(pd$categorical)
  foot <- if (numeric) 7.2 else 4.2 # where the categorical columns' lines begin
  # the first variable at the top (as autoplot() lists them); room for the names at the left
  # and for the colour keys under the axis
  left <- max(graphics::strwidth(vars, "inches", cex = graphics::par("cex.axis"))) + 0.35
  old <- graphics::par(mai = c(0, max(0.8, left), 0, 0.2) +
                         c(foot + 1.5 * length(keys), 0, 3.4, 0) * margin_line())
  on.exit(graphics::par(old))
  draw_frame(graphics::image, list(x = seq_len(size), y = seq_len(m), z = span[, m:1, drop = FALSE],
                                   zlim = c(0, 1),
                                   col = grDevices::hcl.colors(32, "Blues 3", rev = TRUE),
                                   xlab = "neuron (ring order)", ylab = "", axes = FALSE,
                                   main = sprintf("profiles, N = %d", size)),
             area_dots(dots), shorter = sprintf("N = %d", size))
  if (!is.null(pd$note) && nzchar(pd$note)) { # which of thousands (mixed profiles: none)
    graphics::mtext(pd$note, side = 3, line = 0.4, cex = 0.8)
  }
  sg <- pd$segments
  if (!is.null(sg)) {
    graphics::rect(sg$neuron - 0.5, m - sg$row + 0.5 + sg$bottom, sg$neuron + 0.5,
                   m - sg$row + 0.5 + sg$top, col = sg$fill, border = "white", lwd = 0.5)
  }
  graphics::axis(1, at = seq_len(size), labels = FALSE)
  shown <- axis_labels_at(size)
  graphics::axis(1, at = shown, labels = shown, tick = FALSE)
  graphics::axis(2, at = seq_len(m), labels = rev(vars), las = 1)
  graphics::box()
  # the colour key under the axis label: each variable from its own lowest to its highest
  key <- grDevices::hcl.colors(32, "Blues 3", rev = TRUE)[c(1, 16, 32)]
  if (numeric) {
    graphics::legend(mean(graphics::par("usr")[1:2]), below_plot(4.2 * margin_line()),
                     xjust = 0.5, yjust = 1, xpd = NA, horiz = TRUE, bty = "n", fill = key,
                     legend = c("lowest", "middle", "highest"), cex = 0.8, border = "grey40",
                     title = if (is.null(pd$categorical)) "within each variable" else
                       "within each numeric variable")
  }
  # a line per categorical column: its levels' colours, shrunk to the plot's width
  for (i in seq_along(keys)) {
    k <- keys[[i]]
    args <- list(x = mean(graphics::par("usr")[1:2]),
                 y = below_plot((foot + 1.5 * (i - 1)) * margin_line()), xjust = 0.5,
                 yjust = 1, xpd = NA, horiz = TRUE, bty = "n", fill = c(NA, k$fill),
                 border = c(NA, rep("grey40", nrow(k))),
                 legend = c(paste0(k$column[1L], ":"), k$level))
    wide <- do.call(graphics::legend, c(args, list(cex = 0.8, plot = FALSE)))$rect$w
    cex <- 0.8 * min(1, diff(graphics::par("usr")[1:2]) / wide)
    do.call(graphics::legend, c(args, list(cex = max(0.4, cex))))
  }
  # the values in the cells, where they fit (cells are one unit wide and high)
  labels <- pd$labels
  fits <- max(graphics::strwidth(labels, cex = 0.8)) < 0.95 &&
    graphics::strheight("0", cex = 0.8) < 0.8
  if (fits) {
    graphics::text(rep(seq_len(size), m), rep(m:1, each = size), labels = labels,
                   cex = 0.8, col = ifelse(!is.na(span) & as.vector(span) > 0.6, "white", "black"))
  }
  invisible(w)
}

plot_counts <- function(x, size, dots) {
  counts <- tabulate(size_clusters(x, paste0("N", size)), size)
  bars(counts, seq_len(size), list(xlab = "neuron", ylab = "rows",
                                   main = sprintf("rows per neuron, N = %d", size)), dots,
       counts = TRUE, shorter = sprintf("rows, N = %d", size))
  invisible(counts)
}

#' Plot a size selection
#'
#' `type = "criteria"` (the default): three panels, the held-out error per size (mean over
#' the replicates, +- 1 standard error), the stability between replicates per size (the
#' mean adjusted Rand index, with the 95% interval over pairs of replicates), and the
#' figure of the rule that chose the groups per number of groups, its title naming the rule
#' (see [select_size()], "How the groups are chosen": the best BIC over the covariance
#' models; for groups of any shape the share of rows on a border, whose two nearest
#' prototypes lie in different groups; for groups apart or told their number the
#' narrowest gap; for groups parted by sparse rows the dense rows' neighbours across);
#' the recommended size and the
#' number of groups marked and labelled, and "no group structure" said in the figure when
#' there is none. `type = "groups"`: the groups view,
#' the rows on their first two principal components coloured by their group, the ring the
#' groups were found on drawn through its neurons, each group's rows and bootstrap
#' stability in the legend. [autoplot.somgpu_selection()] draws both with ggplot2.
#'
#' The three panels stand in a row on a wide device (7 x 5 inches, 900 x 600 pixels) and
#' two by two on a square one (`png()`'s 480 x 480), the legend under them or in the fourth
#' cell; their titles and labels are fitted to the panels, as in [plot.somgpu()].
#'
#' @param x A `somgpu_selection` from [select_size()].
#' @param type `"criteria"` or `"groups"`.
#' @param data For `type = "groups"`: the rows the selection was made on (unless its fit
#'   keeps them, `keep_data = TRUE`), in memory or as the file-backed
#'   `bigmemory::big.matrix` it was made on (only the rows drawn are read; the groups are
#'   the selection's, or read from its `groups_file`).
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
  plot_criteria(selection_data(x), dots)
  invisible(x)
}

# The three panels of a selection: in a row on a wide device, else in two rows and two
# columns (the fourth cell holding the legend); titles and labels fitted to their panels,
# the legend off the points (under the panels, or in its cell); `main` and "no size
# recommended" over all of them.
plot_criteria <- function(sd, dots) {
  main <- dots$main # one title over the three panels
  dots$main <- NULL
  din <- graphics::par("din")
  wide <- din[1L] >= 1.25 * din[2L]
  top <- (if (is.null(main)) 0 else 1.6) + (if (is.null(sd$none)) 0 else 1.4)
  op <- graphics::par(mfrow = if (wide) c(1, 3) else c(2, 2), mar = c(4, 4, 4.6, 1), cex = 0.9,
                      mgp = c(2.5, 0.8, 0), oma = c(if (wide) 1.8 else 0, 0, top, 0))
  on.exit(graphics::par(op))
  xlabs <- c("ring size N", "ring size N", "groups")
  ylabs <- c("held-out qe", "adjusted Rand index", sd$ylab)
  shorter <- list(c("held-out error", "error"), c("stability (95% of pairs)", "stability"),
                  sd$shorter)
  for (i in seq_along(sd$panels)) {
    d <- sd$long[sd$long$panel == sd$panels[i], , drop = FALSE]
    v <- c(d$lo, d$hi, d$y)
    ylim <- if (any(is.finite(v))) range(v[is.finite(v)]) else c(0, 1) # none: told k, connected
    draw_frame(graphics::plot, list(x = d$x, y = d$y, type = "n", ylim = ylim, xlab = xlabs[i],
                                    ylab = ylabs[i], xaxt = "n", main = sd$panels[i],
                                    cex.main = 0.95),
               frame_dots(dots), shorter[[i]], line = 1.6)
    integer_axis(1, range(d$x))
    bar <- which(is.finite(d$lo) & is.finite(d$hi) & d$hi - d$lo > 1e-9 * max(1, abs(d$hi)))
    if (length(bar)) { # a zero-length arrow warns
      graphics::arrows(d$x[bar], d$lo[bar], d$x[bar], d$hi[bar], angle = 90, code = 3,
                       length = 0.03, col = "grey50")
    }
    draw(graphics::lines, list(x = d$x, y = d$y, type = "b", pch = 19), mark_dots(dots))
    m <- sd$marks[i, ]
    if (!is.na(m$x)) {
      mark_at(m$x, m$label, if (i < 3L) sprintf("N = %d", m$x) else character())
    }
  }
  key <- list(cex = 0.85, pch = c(19, NA), lty = c(1, 1), col = c("black", "grey50"),
              legend = c("mean over replicates", "+- 1 SE; 95% of replicate pairs"))
  legend_foot(key, cell = !wide)
  width <- graphics::par("din")[1L] - 0.2
  if (!is.null(sd$none)) {
    ft <- fit_text(sd$none, width, cex = 0.9, font = 2, absolute = TRUE, wrap = FALSE)
    graphics::mtext(ft$text, side = 3, line = 0.2, outer = TRUE, cex = ft$cex, font = 2,
                    col = "firebrick")
  }
  if (!is.null(main)) {
    ft <- fit_text(main, width, cex = 1.1, font = 2, absolute = TRUE, wrap = FALSE)
    graphics::mtext(ft$text, side = 3, line = top - 1.3, outer = TRUE, cex = ft$cex, font = 2)
  }
  invisible(sd)
}
