# What the figure tests (test-figures.R) measure a figure with: the sizes people draw at, and
# what a base figure writes, recorded as it is drawn.

# Figures at the sizes people use (issue 38): png()'s default 480 x 480 pixels, an R
# Markdown chunk of 7 x 5 inches (96 pixels to the inch) and a wide 900 x 600, each figure
# drawn in turn.
figure_sizes <- list(`480 x 480` = list(width = 480, height = 480),
                     `7 x 5 in` = list(width = 7, height = 5, units = "in", res = 96),
                     `900 x 600` = list(width = 900, height = 600))

# What a base figure writes over its panels, measured in the open device as it is drawn:
# each title (title()) with its width and the width of its plot region; each text above a
# panel (mtext(), side 3) with its extent and its figure region's (or the device's, outer);
# each legend's box and each panel's plot region, in device fractions (ndc); the ticks of
# each axis. All in inches but the boxes.
record_fit <- function(expr, size) {
  seen <- new.env()
  seen$titles <- list()
  seen$tops <- list()
  seen$legends <- list()
  seen$panels <- list()
  seen$axes <- list()
  seen$texts <- list()
  add <- function(what, value) assign(what, c(get(what, seen), list(value)), envir = seen)
  title_tracer <- bquote({
    a <- list(...)
    if (is.character(main) && length(main)) {
      cex <- if (is.null(a$cex.main)) graphics::par("cex.main") else a$cex.main
      font <- if (is.null(a$font.main)) graphics::par("font.main") else a$font.main
      lines <- strsplit(main[1], "\n", fixed = TRUE)[[1]]
      .(add)("titles", list(text = main[1], width = max(graphics::strwidth(lines, "inches",
                                                                           cex = cex, font = font)),
                            room = graphics::par("pin")[1]))
    }
    .(add)("panels", c(graphics::grconvertX(c(0, 1), "npc", "ndc"),
                       graphics::grconvertY(c(0, 1), "npc", "ndc")))
  })
  mtext_tracer <- bquote({
    if (side == 3) {
      k <- if (is.na(cex)) 1 else cex
      f <- if (is.na(font)) 1 else font
      w <- max(graphics::strwidth(strsplit(text[1], "\n", fixed = TRUE)[[1]], "inches",
                                  cex = k / graphics::par("cex"), font = f))
      if (outer) {
        room <- c(0, graphics::par("din")[1])
        left <- (if (is.na(at)) 0.5 else at) * room[2] - (if (is.na(adj)) 0.5 else adj) * w
      } else {
        room <- graphics::grconvertX(c(0, 1), "nfc", "inches")
        x <- if (is.na(at)) mean(graphics::grconvertX(c(0, 1), "npc", "inches")) else
          graphics::grconvertX(at, "user", "inches")
        left <- x - (if (is.na(adj)) 0.5 else adj) * w
      }
      .(add)("tops", list(text = text[1], left = left, right = left + w, room = room))
    }
  })
  # before legend()'s last step, its box computed (w, h, left, top): not one measured
  # (plot = FALSE); an exit trace would not do, legend(xpd = ) replaces it with its on.exit()
  legend_tracer <- bquote(if (plot) {
    .(add)("legends", c(graphics::grconvertX(c(left, left + w), "user", "ndc"),
                        graphics::grconvertY(c(top - h, top), "user", "ndc")))
  })
  axis_tracer <- bquote({ # an axis called with xaxt or yaxt = "n" draws nothing
    a <- list(...)
    hidden <- identical(a[[if (side %% 2 == 1) "xaxt" else "yaxt"]], "n")
    if (!hidden) {
      .(add)("axes", list(side = side, at = if (is.null(at)) graphics::axTicks(side) else at,
                          labels = labels))
    }
  })
  # each label text() centres (not legend()'s, which it places by their left edge): its
  # centre, width and height in inches
  text_tracer <- bquote(if (!missing(labels) && missing(adj)) {
    xy <- grDevices::xy.coords(x, y)
    lab <- as.character(labels)
    k <- if (is.null(cex)) 1 else cex
    f <- if (is.null(font)) 1 else font
    .(add)("texts", data.frame(
      x = graphics::grconvertX(xy$x, "user", "inches"),
      y = graphics::grconvertY(xy$y, "user", "inches"),
      w = graphics::strwidth(lab, "inches", cex = k, font = f),
      h = graphics::strheight(lab, "inches", cex = k, font = f)))
  })
  suppressMessages({
    trace("text.default", where = asNamespace("graphics"), print = FALSE, tracer = text_tracer)
    trace("title", where = asNamespace("graphics"), print = FALSE, tracer = title_tracer)
    trace("mtext", where = asNamespace("graphics"), print = FALSE, tracer = mtext_tracer)
    trace("legend", where = asNamespace("graphics"), print = FALSE, tracer = legend_tracer,
          at = length(body(graphics::legend)))
    trace("axis", where = asNamespace("graphics"), print = FALSE, tracer = axis_tracer)
  })
  on.exit(suppressMessages({
    for (f in c("title", "mtext", "legend", "axis")) untrace(f, where = asNamespace("graphics"))
    untrace("text.default", where = asNamespace("graphics"))
  }))
  do.call(grDevices::png, c(list(filename = tempfile(fileext = ".png")), size))
  on.exit(grDevices::dev.off(), add = TRUE, after = FALSE)
  force(expr)
  as.list(seen)
}
