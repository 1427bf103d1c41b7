# Base graphics' layout for every figure of plot.R: our defaults under the user's
# graphical parameters, titles that fit their panel (shorter ways to say them), legends
# beside or below the plot region with the margin they need, integer axes.

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

# A figure's frame (draw()), its title drawn apart by panel_title() to fit the plot region:
# `main` (the user's, or ours with the `shorter` ways to say it) at its cex.main.
draw_frame <- function(fun, defaults, dots, shorter = character(), line = NA) {
  args <- utils::modifyList(defaults, dots, keep.null = TRUE)
  main <- args$main
  args$main <- NULL
  do.call(fun, args)
  if (!identical(main, defaults$main)) shorter <- character() # the user's title, as it is
  panel_title(main, args, shorter, line)
}

# A title over the plot region, fitted to its width (fit_text()); `args`: the frame's
# arguments, for cex.main, font.main and col.main. An expression is drawn as it is.
panel_title <- function(main, args = list(), shorter = character(), line = NA) {
  if (is.null(main) || !length(main)) return(invisible(NULL))
  cex <- if (!is.null(args$cex.main)) args$cex.main else graphics::par("cex.main")
  font <- if (!is.null(args$font.main)) args$font.main else graphics::par("font.main")
  col <- if (!is.null(args$col.main)) args$col.main else graphics::par("col.main")
  if (!is.character(main)) {
    graphics::title(main = main, cex.main = cex, font.main = font, col.main = col, line = line)
    return(invisible(NULL))
  }
  ft <- fit_text(main[1L], graphics::par("pin")[1L], cex, font, shorter)
  graphics::title(main = ft$text, cex.main = ft$cex, font.main = font, col.main = col,
                  line = line)
  invisible(ft)
}

# `text` written to fit `width` inches in the open device: as it is at `cex`, shrunk (to 85%
# of it), on two lines (shrunk down to min_cex), then each of `shorter` in the same ways; the
# last, shrunk until it fits, when none does. list(text, cex). cex is relative to
# par("cex"), as cex.main is; `absolute`: as mtext()'s cex is, not scaled by par("cex").
fit_text <- function(text, width, cex = 1, font = 1, shorter = character(),
                     min_cex = 0.7 * cex, absolute = FALSE, wrap = TRUE) {
  rel <- if (absolute) 1 / graphics::par("cex") else 1
  wide <- function(t, k) text_width(t, k * rel, font)
  steps <- function(to) unique(c(seq(cex, to, by = -0.05 * cex), to))
  for (t in c(text, shorter)) {
    for (k in steps(max(min_cex, 0.85 * cex))) if (wide(t, k) <= width) return(list(text = t, cex = k))
    two <- if (wrap) two_lines(t, function(u) wide(u, cex))
    if (!is.null(two)) {
      for (k in steps(min_cex)) if (wide(two, k) <= width) return(list(text = two, cex = k))
    }
  }
  t <- c(text, shorter)[length(c(text, shorter))]
  list(text = t, cex = max(0.3, min_cex * width / wide(t, min_cex)))
}

# The width in inches of the widest line of `text` at `cex` (times par("cex")).
text_width <- function(text, cex, font = 1) {
  max(graphics::strwidth(strsplit(text, "\n", fixed = TRUE)[[1L]], "inches", cex = cex,
                         font = font))
}

# `text` on two lines, broken at the space that makes the wider line narrowest (NULL for one
# word, or a text with lines already).
two_lines <- function(text, width) {
  words <- strsplit(text, " ", fixed = TRUE)[[1L]]
  if (length(words) < 2L || grepl("\n", text, fixed = TRUE)) return(NULL)
  ways <- vapply(seq_len(length(words) - 1L), function(i) {
    paste(paste(words[seq_len(i)], collapse = " "),
          paste(words[-seq_len(i)], collapse = " "), sep = "\n")
  }, "")
  ways[which.min(vapply(ways, width, 0))]
}

# Positions in the margins: the user coordinate `inches` to the right of the plot region (x),
# or below it (y).
right_of_plot <- function(inches) {
  usr <- graphics::par("usr")
  usr[2L] + inches * diff(usr[1:2]) / graphics::par("pin")[1L]
}
below_plot <- function(inches) {
  usr <- graphics::par("usr")
  usr[3L] - inches * diff(usr[3:4]) / graphics::par("pin")[2L]
}
# Inches per line of margin.
margin_line <- function() graphics::par("mai")[1L] / graphics::par("mar")[1L]

# The size in inches (w, h) of a legend of `args` (legend = , and cex, pch, lty, lwd, title;
# one column, x.intersp, y.intersp and seg.len as their defaults) in the open device, as
# legend() lays it out, without drawing it or a frame: so that the margins can leave it
# room before the figure's frame is drawn. A title on several lines counts them all.
legend_inches <- function(args) {
  k <- if (is.null(args$cex)) 1 else args$cex
  cin <- graphics::par("cin") * k * graphics::par("cex") # a character's width and height
  lines <- !is.null(args$lty) || !is.null(args$lwd)
  w <- max(graphics::strwidth(args$legend, "inches", cex = k)) + 2 * cin[1L] +
    (if (lines) (2 - if (!is.null(args$pch)) 0.7 else 0) * cin[1L] else 0) + 0.5 * cin[1L]
  title <- if (!is.null(args$title)) strsplit(args$title, "\n")[[1L]]
  if (length(title)) w <- max(w, max(graphics::strwidth(title, "inches", cex = k)) + 0.5 * cin[1L])
  c(w = w, h = (length(args$legend) + length(title) + 1) * cin[2L])
}

# How many margin lines under the plot region a legend below it starts: clear of the x axis
# label, drawn on line 3 (par("mgp")) and a line high, with room between them.
legend_below_lines <- 4.4

# A legend beside the plot region, never over the data: in the right margin (side "right")
# or under the x axis label ("bottom"), the margins widened for it by legend_margin().
legend_beside <- function(args, side) {
  base <- list(bty = "n", xpd = NA)
  if (side == "right") {
    pos <- list(x = right_of_plot(0.12), y = mean(graphics::par("usr")[3:4]), xjust = 0,
                yjust = 0.5)
  } else {
    pos <- list(x = mean(graphics::par("usr")[1:2]), y = below_plot(legend_below_lines * margin_line()),
                xjust = 0.5, yjust = 1)
  }
  do.call(graphics::legend, c(pos, base, args))
}

# The margins (par("mai")) that leave a legend of size `inches` room on `side`.
legend_margin <- function(inches, side) {
  mai <- graphics::par("mai")
  if (side == "right") {
    mai[4L] <- max(mai[4L], inches[["w"]] + 0.2)
  } else {
    mai[1L] <- max(mai[1L], legend_below_lines * margin_line() + inches[["h"]] + 0.05)
  }
  mai
}

# A legend across the foot of the device (in the outer margin the figure left for it, as
# ggplot2 puts it at the bottom), or in the empty cell `cell` of the figure's layout.
legend_foot <- function(args, cell = FALSE) {
  if (cell) {
    graphics::plot.new()
    return(invisible(do.call(graphics::legend, c(list(x = "center", bty = "n"), args))))
  }
  op <- graphics::par(fig = c(0, 1, 0, 1), oma = c(0, 0, 0, 0), mar = c(0, 0, 0, 0), new = TRUE)
  on.exit(graphics::par(op))
  graphics::plot.new()
  graphics::plot.window(c(0, 1), c(0, 1), xaxs = "i", yaxs = "i")
  invisible(do.call(graphics::legend, c(list(x = "bottom", horiz = TRUE, bty = "n", xpd = NA),
                                        args)))
}

# An axis of whole numbers only (sizes, counts, passes) over `range`.
integer_axis <- function(side, range, ...) {
  graphics::axis(side, at = integer_breaks(range), ...)
}

# The x axis of the sizes trained: a tick at each, each labelled up to 12 of them, else the
# smallest and the round numbers (2, 5, 10, ...), as the ggplot figures label it.
size_axis <- function(sizes) {
  sizes <- sort(unique(sizes))
  if (length(sizes) <= 12L) return(invisible(graphics::axis(1, at = sizes)))
  graphics::axis(1, at = sizes, labels = FALSE)
  b <- integer_breaks(range(sizes))
  graphics::axis(1, at = unique(c(sizes[1L], b[b > sizes[1L] & b <= max(sizes)])), tick = FALSE)
}
