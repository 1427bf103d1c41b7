#' ggplot2 figures of a fit and of a size selection
#'
#' Every figure [plot.somgpu()] and [plot.somgpu_selection()] draw with base graphics, as
#' a ggplot object (ggplot2 is a suggested package) to theme, facet, annotate or combine:
#' `ggplot2::autoplot(fit, type)` for the types of [plot.somgpu()] (`"quality"`,
#' `"trace"`, `"codes"`, `"groups"`, `"neighbours"`, `"profiles"`, `"counts"`) and
#' `ggplot2::autoplot(sel, type)` for a selection (`"criteria"`, `"groups"`). The figures
#' are the same, from the same numbers: legends for every kind of mark, the suggested or
#' recommended size marked and labelled, "no group structure" said in the figure, points
#' fainter and smaller as there are more of them. The labels of the marked sizes sit in
#' room left above the data, never on a point; panel names, titles and the legends' keys wrap
#' to the width of the device they are drawn on (titles: the device open when the figure is
#' made; png()'s 480 pixels where none is), so that nothing is cut at 480 x 480 or 900 x 600
#' pixels; every neuron of a codes view is numbered, a number that would cover another
#' beside its circle, in black; axes of sizes, rows and passes carry whole numbers only,
#' and on rings of more than 12 neurons the bars' axes label some neurons (1, 5, 10, ... on
#' a ring of 30); a heatmap's values are left out when its
#' cells are too small for them (beyond some 13 neurons of four-character values, the cells
#' of a 480 pixel figure).
#'
#' @param object A `somgpu` fit from [train()] or a `somgpu_selection` from
#'   [select_size()].
#' @param type The figure (see Description); partial matching.
#' @param size,data,max_points As for [plot.somgpu()] and [plot.somgpu_selection()].
#' @param ... Ignored.
#' @return A ggplot object.
#' @seealso [plot.somgpu()], [plot.somgpu_selection()]
#' @examples
#' if (requireNamespace("ggplot2", quietly = TRUE)) {
#'   fit <- train(iris[, 1:4], nmax = 6, scale = TRUE, restarts = 2, iter_max = 30,
#'                seed = 1, threads = 2)
#'   ggplot2::autoplot(fit)
#'   ggplot2::autoplot(fit, "groups") + ggplot2::theme_minimal()
#'   sel <- select_size(iris[, 1:4], sizes = 2:6, restarts = 2, bootstrap = 4,
#'                      iter_max = 30, scale = TRUE, seed = 1, threads = 2)
#'   ggplot2::autoplot(sel)
#'   ggplot2::autoplot(sel, "groups", data = iris)
#' }
#' @name autoplot.somgpu
#' @usage \method{autoplot}{somgpu}(object, type = "quality", size = NULL, data = NULL,
#'   max_points = 5000, ...)
#' @exportS3Method ggplot2::autoplot
autoplot.somgpu <- function(object, type = "quality", size = NULL, data = NULL,
                            max_points = 5000, ...) {
  call <- compact_call(sys.call(), "autoplot")
  need_packages("ggplot2", "autoplot()", call)
  x <- object
  type <- check_choice(type, "type", fit_plot_types, call)
  if (type %in% c("codes", "neighbours", "profiles", "counts")) size <- plot_size(x, size, call)
  switch(type,
         quality = gg_quality(quality_data(x)),
         trace = gg_trace(trace_data(x, call)),
         codes = gg_codes(codes_view(x, size, data, max_points, call)),
         groups = gg_groups(fit_groups_view(x, data, max_points, call)),
         neighbours = gg_bars(data.frame(at = factor(ring_pairs(size), ring_pairs(size)),
                                         value = ring_gaps(x, size)),
                              "neighbouring neurons", "distance",
                              sprintf("neighbour distances, N = %d", size)),
         profiles = gg_profiles(x$weights[[paste0("N", size)]], size, x$encoding),
         counts = gg_bars(data.frame(at = factor(seq_len(size)),
                                     value = tabulate(size_clusters(x, paste0("N", size)), size)),
                          "neuron", "rows", sprintf("rows per neuron, N = %d", size),
                          counts = TRUE))
}

#' @rdname autoplot.somgpu
#' @usage \method{autoplot}{somgpu_selection}(object, type = "criteria", data = NULL,
#'   max_points = 5000, ...)
#' @exportS3Method ggplot2::autoplot
autoplot.somgpu_selection <- function(object, type = "criteria", data = NULL,
                                      max_points = 5000, ...) {
  call <- compact_call(sys.call(), "autoplot")
  need_packages("ggplot2", "autoplot()", call)
  type <- check_choice(type, "type", c("criteria", "groups"), call)
  if (type == "groups") return(gg_groups(selection_groups_view(object, data, max_points, call)))
  gg_criteria(selection_data(object))
}

# The column names the figures map, for R CMD check (ggplot2's aes() takes them unquoted).
utils::globalVariables(c("PC1", "PC2", "value", "measure", "status", "pass", "qe", "lo",
                         "hi", "label", "neuron", "variable", "span", "text", "at", "colour",
                         "fill", "panel", "x", "y", "size", "group_f", "cluster_f", "side", "ymin", "ymax",
                         "dark"))

# The width in inches of the open device, or of png()'s 480 pixels (at 72 to the inch, the
# smallest figure the pages promise to fit) where none is open (none is opened for it).
device_width <- function() {
  if (grDevices::dev.cur() > 1L) grDevices::dev.size("in")[1L] else 480 / 72
}

# `text` (each element; NULL stays NULL) broken at spaces into lines that fit a `share` of
# the open device's width (less its margins and `less` inches: a legend's key, an axis) at
# ggplot2's text of `points` (a character taken as 0.55 of its size wide, above the average).
gg_wrap <- function(text, points, share = 1, less = 0) {
  if (is.null(text)) return(NULL)
  inches <- max(0.5, share * (device_width() - 0.4) - less)
  chars <- max(8L, floor(inches * 72 / (0.55 * points)))
  vapply(text, function(t) paste(wrap_text(t, chars), collapse = "\n"), "", USE.NAMES = FALSE)
}

# Wrapping at the size the figure is drawn: a labeller of facet strips (theme_grey()'s 8.8
# points) for `columns` panels in a row, each with its y axis; the labels of a legend's keys
# (8.8 points) for `guides` legends side by side. Both are called when the figure is drawn,
# on its device.
gg_strips <- function(columns) {
  ggplot2::as_labeller(function(x) gg_wrap(x, 8.8, 1 / columns, less = 0.6))
}
gg_keys <- function(guides = 1) function(x) gg_wrap(x, 8.8, 1 / guides, less = 0.5)

gg_quality <- function(qd) {
  q <- qd$points
  long <- data.frame(size = rep(q$size, 2), measure = rep(c("quantization error", "topographic error"),
                                                          each = nrow(q)),
                     value = c(q$qe, q$te),
                     status = rep(ifelse(q$kept, "kept restart (lowest qe)", "other restarts"), 2))
  kept <- long[long$status == "kept restart (lowest qe)", , drop = FALSE]
  kept <- kept[order(kept$measure, kept$size), , drop = FALSE]
  p <- ggplot2::ggplot(long, ggplot2::aes(size, value)) +
    (if (length(unique(kept$size)) > 1L) ggplot2::geom_line(data = kept, colour = "grey20")) +
    ggplot2::geom_point(ggplot2::aes(shape = status, colour = status), size = 2.2) +
    ggplot2::scale_shape_manual(values = c(`kept restart (lowest qe)` = 19, `other restarts` = 1),
                                name = NULL) +
    ggplot2::scale_colour_manual(values = c(`kept restart (lowest qe)` = "black",
                                            `other restarts` = "grey50"), name = NULL) +
    ggplot2::scale_x_continuous(breaks = size_breaks(q$size)) +
    gg_headroom() +
    ggplot2::facet_wrap(~measure, scales = "free_y") +
    ggplot2::labs(x = "ring size N", y = NULL, title = "quality by ring size") +
    ggplot2::theme(legend.position = "bottom")
  at <- qd$suggested
  if (is.na(at)) return(p)
  p + ggplot2::geom_vline(xintercept = at, linetype = "dashed", colour = "grey30") +
    ggplot2::annotate("label", x = at, y = Inf, label = sprintf("suggested N = %d", at),
                      vjust = 1.1, hjust = mark_hjust(at, range(q$size)), lineheight = 0.9,
                      size = 3.4, fontface = "bold", label.size = 0, fill = "white")
}

# The breaks of an axis of ring sizes: every size up to 12 of them, else whole numbers.
size_breaks <- function(sizes) {
  sizes <- sort(unique(sizes))
  if (length(sizes) <= 12L) sizes else function(lim) integer_breaks(lim)
}

# Room above the data in each panel (a fifth of its height) for the labels of the marked
# sizes, which sit at its top (y = Inf) and so never over a point.
gg_headroom <- function() {
  ggplot2::scale_y_continuous(expand = ggplot2::expansion(mult = c(0.05, 0.3)))
}

gg_trace <- function(td) {
  ggplot2::ggplot(td, ggplot2::aes(pass, qe, colour = size, group = size)) +
    (if (length(unique(td$pass)) > 1L) ggplot2::geom_line() else ggplot2::geom_point()) +
    ggplot2::scale_colour_viridis_c(name = "ring size N", breaks = function(lim) integer_breaks(lim)) +
    ggplot2::scale_x_continuous(breaks = function(lim) integer_breaks(lim)) +
    ggplot2::labs(x = "pass", y = "quantization error", title = "training trace")
}

gg_codes <- function(cd) {
  size <- nrow(cd$neurons)
  st <- point_style(cd$shown)
  cd$points$cluster_f <- factor(cd$points$cluster, levels = seq_len(size))
  gg_ring(cd) +
    ggplot2::geom_point(data = cd$points, ggplot2::aes(PC1, PC2, colour = cluster_f),
                        alpha = st$alpha, size = 1.6 * st$cex) +
    ggplot2::scale_colour_manual(values = grDevices::hcl.colors(size, "Dark 3"),
                                 name = gg_wrap(shown_label(cd, "their neuron's colour"), 11),
                                 drop = FALSE) +
    ggplot2::guides(colour = ggplot2::guide_legend(nrow = ceiling(size / 10), byrow = TRUE,
                                                   title.position = "top",
                                                   override.aes = list(alpha = 1, size = 2.5))) +
    gg_neurons(cd$neurons, grDevices::hcl.colors(size, "Dark 3"), numbers = TRUE,
               span = max(diff(range(cd$points$PC1, cd$neurons$PC1)),
                          diff(range(cd$points$PC2, cd$neurons$PC2)))) +
    ggplot2::labs(title = sprintf("ring of %d neurons", size),
                  caption = gg_wrap("circles: the ring's neurons, numbered", 8.8)) +
    ggplot2::theme(legend.position = "bottom", legend.direction = "horizontal")
}

gg_groups <- function(gd) {
  st <- point_style(gd$shown)
  pal <- group_palette(gd$groups)
  # the rows in no group as a level of their own, named in the legend
  labels <- c(gd$labels, gd$no_group)
  g <- gd$points$group
  gd$points$group_f <- factor(ifelse(is.na(g), gd$no_group, gd$labels[g]), levels = labels)
  fill <- ifelse(is.na(gd$neurons$group), "white", pal[pmax(gd$neurons$group, 1L)])
  gg_ring(gd) +
    ggplot2::geom_point(data = gd$points, ggplot2::aes(PC1, PC2, colour = group_f),
                        alpha = st$alpha, size = 1.6 * st$cex) +
    ggplot2::scale_colour_manual(values = stats::setNames(
                                   c(pal, no_group_colour)[seq_along(labels)], labels),
                                 name = gg_wrap(shown_label(gd, "their group's colour"), 11),
                                 labels = gg_keys()) +
    ggplot2::guides(colour = ggplot2::guide_legend(override.aes = list(alpha = 1, size = 3))) +
    gg_neurons(gd$neurons, fill, numbers = FALSE) +
    ggplot2::labs(title = gg_wrap(gd$title, 13.2),
                  caption = gg_wrap("circles: the ring's neurons, in their group's colour", 8.8)) +
    ggplot2::theme(legend.position = "bottom", legend.direction = "vertical")
}

# The frame of a principal-components view.
gg_ring <- function(cd) {
  ggplot2::ggplot() +
    ggplot2::coord_equal() +
    ggplot2::labs(x = "PC1", y = if (cd$one_column) NULL else "PC2")
}

# The ring through its neurons; `numbers`: each numbered, white on its circle or dark beside
# it where another number or neuron is in the way (label_places(); `span`: the view's larger
# side, in data units, the panel's some 4 inches on a figure of 480 pixels or 7 x 5 inches,
# where a neuron's circle, of size 7, is some 0.11 inches across half).
gg_neurons <- function(neurons, fill, numbers, span = 1) {
  ring <- rbind(neurons, neurons[1, , drop = FALSE])
  if (numbers) {
    lab <- as.character(neurons$neuron)
    at <- label_places(neurons$PC1, neurons$PC2, span * (0.005 + 0.021 * nchar(lab)),
                       0.033 * span, 0.028 * span)
    keep <- !is.na(at$x)
    placed <- data.frame(PC1 = at$x, PC2 = at$y, neuron = neurons$neuron)[keep, , drop = FALSE]
  }
  list(ggplot2::geom_path(data = ring, ggplot2::aes(PC1, PC2), linewidth = 0.8),
       ggplot2::geom_point(data = neurons, ggplot2::aes(PC1, PC2), shape = 21,
                           fill = fill, size = if (numbers) 7 else 3.5, stroke = 0.8),
       if (numbers) {
         ggplot2::geom_text(data = placed, ggplot2::aes(PC1, PC2, label = neuron),
                            colour = ifelse(at$moved[keep], "black", "white"),
                            fontface = "bold")
       })
}

# Bars along a ring: a label at the bars axis_labels_at() picks; `counts`: whole numbers on
# the y axis.
gg_bars <- function(d, xlab, ylab, title, counts = FALSE) {
  lv <- levels(d$at)
  ggplot2::ggplot(d, ggplot2::aes(at, value)) +
    ggplot2::geom_col(fill = "grey60", width = 0.6) +
    ggplot2::scale_x_discrete(breaks = lv[axis_labels_at(length(lv))]) +
    (if (counts) ggplot2::scale_y_continuous(breaks = function(lim) integer_breaks(lim))) +
    ggplot2::labs(x = xlab, y = ylab, title = title)
}

# The variables from the first at the top, as plot() lists them; the values in the cells
# when cells of a 7 inch figure hold them (profiles_fit()). enc: a fit's encoding, whose
# categorical columns gg_mixed_profiles() draws as bars of level shares.
gg_profiles <- function(w, size, enc = NULL) {
  if (!is.null(enc)) return(gg_mixed_profiles(profiles_data(w, enc), size))
  pd <- profiles_data(w)
  m <- length(pd$vars)
  d <- data.frame(neuron = factor(rep(seq_len(size), m), seq_len(size)),
                  variable = factor(rep(pd$vars, each = size), rev(pd$vars)),
                  span = as.vector(pd$span), text = pd$labels)
  p <- ggplot2::ggplot(d, ggplot2::aes(neuron, variable, fill = span)) +
    ggplot2::geom_tile(colour = "white")
  if (profiles_fit(pd$labels, size, m)) {
    p <- p + ggplot2::geom_text(ggplot2::aes(label = text, colour = span > 0.6), size = 3,
                                show.legend = FALSE) +
      ggplot2::scale_colour_manual(values = c(`TRUE` = "white", `FALSE` = "black"))
  }
  p + ggplot2::scale_fill_gradientn(colours = grDevices::hcl.colors(32, "Blues 3", rev = TRUE),
                                    limits = c(0, 1), breaks = c(0, 0.5, 1),
                                    labels = c("lowest", "middle", "highest"),
                                    name = "within each\nvariable") +
    ggplot2::scale_x_discrete(breaks = levels(d$neuron)[axis_labels_at(size)]) +
    ggplot2::labs(x = "neuron (ring order)", y = NULL, title = sprintf("profiles, N = %d", size),
                  subtitle = if (nzchar(pd$note)) gg_wrap(pd$note, 11))
}

# The profiles of a fit with categorical columns (mixed_profiles_data()): the numeric
# columns' cells and the categorical columns' bars in colours given as they are (one fill
# scale for both), the keys in one legend: lowest, middle, highest within each numeric
# column, then the levels' colours.
gg_mixed_profiles <- function(pd, size) {
  m <- length(pd$vars)
  ramp <- grDevices::hcl.colors(32, "Blues 3", rev = TRUE)
  num <- which(!is.na(pd$span))
  tiles <- data.frame(neuron = rep(seq_len(size), m)[num], y = rep(m:1, each = size)[num],
                      fill = ramp[1L + round(31 * pd$span[num])], text = pd$labels[num],
                      dark = pd$span[num] > 0.6)
  sg <- pd$segments
  sg$ymin <- m - sg$row + 0.5 + sg$bottom
  sg$ymax <- m - sg$row + 0.5 + sg$top
  # a level's colour is its place in its column's levels: each colour named by the levels
  # it stands for in the columns plot() names
  keys <- do.call(rbind, profile_keys(pd))
  named <- vapply(split(keys$level, factor(keys$fill, unique(keys$fill))),
                  function(l) paste(unique(l), collapse = ", "), "")
  breaks <- c(if (nrow(tiles)) ramp[c(1, 16, 32)], names(named))
  labels <- c(if (nrow(tiles)) c("lowest", "middle", "highest"), unname(named))
  p <- ggplot2::ggplot() +
    ggplot2::geom_tile(data = tiles, ggplot2::aes(neuron, y, fill = fill), colour = "white") +
    ggplot2::geom_rect(data = sg, ggplot2::aes(xmin = neuron - 0.5, xmax = neuron + 0.5,
                                               ymin = ymin, ymax = ymax, fill = fill),
                       colour = "white", linewidth = 0.2)
  if (nrow(tiles) && profiles_fit(tiles$text, size, m)) {
    p <- p + ggplot2::geom_text(data = tiles, ggplot2::aes(neuron, y, label = text,
                                                           colour = dark),
                                size = 3, show.legend = FALSE) +
      ggplot2::scale_colour_manual(values = c(`TRUE` = "white", `FALSE` = "black"))
  }
  p + ggplot2::scale_fill_identity(guide = "legend", breaks = breaks, labels = labels,
                                   limits = unique(c(breaks, tiles$fill, sg$fill)),
                                   name = if (nrow(tiles)) "within each numeric\nvariable;\nlevels' shares" else "levels' shares") +
    ggplot2::scale_x_continuous(breaks = axis_labels_at(size), expand = c(0, 0)) +
    ggplot2::scale_y_continuous(breaks = m:1, labels = pd$vars, expand = c(0, 0)) +
    ggplot2::labs(x = "neuron (ring order)", y = NULL, title = sprintf("profiles, N = %d", size))
}

# Whether a heatmap's values can be written in its cells (size columns, m rows) at ggplot2's
# size 3 (8.5 points) on a figure of 480 pixels, the panel some 4.3 inches wide and high: a
# character 0.07 inches wide, a line 0.16 high.
profiles_fit <- function(labels, size, m) {
  max(nchar(labels)) * 0.07 <= 0.9 * 4.3 / size && 0.16 <= 0.9 * 4.3 / m
}

gg_criteria <- function(sd) {
  d <- sd$long
  marks <- sd$marks[!is.na(sd$marks$x), , drop = FALSE]
  # the marks' labels in the headroom at the top of their panel, on two lines or more: a
  # label starts up to a third into its panel (mark_hjust()), so it may take two thirds
  # of it (at geom_label()'s size 3.2, 9.1 points)
  marks$label <- sub("^recommended ", "recommended\n", gg_wrap(marks$label, 9.1, 2 / 9))
  p <- ggplot2::ggplot(d, ggplot2::aes(x, y)) +
    ggplot2::geom_errorbar(ggplot2::aes(ymin = lo, ymax = hi, linetype = "interval"),
                           width = 0.25, colour = "grey50") +
    ggplot2::geom_line() +
    ggplot2::geom_point(ggplot2::aes(shape = sd$key)) +
    ggplot2::scale_linetype_manual(values = c(interval = "solid"), name = NULL,
                                   labels = function(x) gg_keys(2)("+- 1 SE; 95% of replicate pairs")) +
    ggplot2::scale_shape_manual(values = 19, name = NULL, labels = gg_keys(2)) +
    ggplot2::scale_x_continuous(breaks = function(lim) integer_breaks(lim)) +
    gg_headroom() +
    ggplot2::facet_wrap(~panel, scales = "free", labeller = gg_strips(3)) +
    ggplot2::labs(x = "ring size N (criterion: number of groups)", y = NULL,
                  title = "choosing the ring size",
                  subtitle = gg_wrap(sd$none, 11)) +
    ggplot2::theme(legend.position = "bottom", legend.direction = "vertical")
  if (nrow(marks)) {
    p <- p + ggplot2::geom_vline(data = marks, ggplot2::aes(xintercept = x),
                                 linetype = "dashed", colour = "grey30") +
      ggplot2::geom_label(data = marks, ggplot2::aes(x = x, y = Inf, label = label, hjust = side),
                          vjust = 1.1, size = 3.2, lineheight = 0.9, fontface = "bold",
                          label.size = 0)
  }
  if (!is.null(sd$none)) p <- p + ggplot2::theme(plot.subtitle = ggplot2::element_text(colour = "firebrick", face = "bold"))
  p
}
