# The data behind every figure, as data frames: plot() draws them with base graphics and
# autoplot() with ggplot2, from the same numbers.

# The kept restart and the others, per size: quality and topographic error; and the size
# summary() suggests (NA without one).
quality_data <- function(x) {
  q <- x$quality
  list(points = data.frame(size = q$size, restart = q$restart, qe = q$qe, te = q$te,
                           kept = q$best),
       suggested = tryCatch(summary(x)$suggested, error = function(e) NA_integer_))
}

# The kept restarts' quantization error after every pass: pass, size, qe (long).
trace_data <- function(x, call) {
  if (is.null(x$trace)) abort_input("This fit has no trace: train with trace = TRUE.", call)
  kept <- x$quality$best
  tr <- x$trace[, kept, drop = FALSE]
  data.frame(pass = rep(seq_len(nrow(tr)), ncol(tr)),
             size = rep(x$quality$size[kept], each = nrow(tr)), qe = as.vector(tr))
}

# A heatmap's cells: each variable's weights scaled from its lowest (0) to its highest (1)
# neuron (0.5 when all equal), the variables' names, the values as written in the cells
# (cell_labels()), and `note`. Of more than profile_columns variables, those whose neurons
# differ most (the range of their weights over the neurons, in the weights' units: a wide
# table's columns share one), most first: a heatmap of 2,000 rows has no readable label;
# `note` says so in words ("" when all are shown). With an encoding (a data frame's
# categorical columns), the user's columns: mixed_profiles_data().
profile_columns <- 30L

profiles_data <- function(w, enc = NULL) {
  if (!is.null(enc)) return(mixed_profiles_data(w, enc))
  m <- ncol(w)
  vars <- if (is.null(colnames(w))) paste0("V", seq_len(m)) else colnames(w)
  shown <- seq_len(m)
  note <- ""
  if (m > profile_columns) {
    spread <- apply(w, 2, function(v) diff(range(v)))
    shown <- order(-spread, seq_len(m))[seq_len(profile_columns)]
    note <- sprintf("the %d of %s variables whose neurons differ most", profile_columns,
                    format(m, big.mark = ","))
  }
  w <- w[, shown, drop = FALSE]
  span <- apply(w, 2, function(v) if (diff(range(v)) > 0) (v - min(v)) / diff(range(v)) else v * 0 + 0.5)
  list(span = matrix(span, nrow = nrow(w)), vars = vars[shown], labels = cell_labels(w),
       note = note)
}

# The profiles of a fit with categorical columns, a row per user column: a numeric one's
# cells as profiles_data() gives them; in a categorical one's, each neuron's bar of its
# levels' shares (its weights on the level's indicators, those below 0 taken as 0, summed
# to 1), the first level at the bottom: `segments` (neuron, row: the column's place,
# level, bottom, top, share, fill). `key`: each categorical column's levels and their
# colours (level_colours()); `categorical`: which rows are.
mixed_profiles_data <- function(w, enc) {
  m <- length(enc$columns)
  N <- nrow(w)
  categorical <- enc$type != "numeric"
  span <- matrix(NA_real_, N, m)
  labels <- matrix("", N, m)
  fills <- level_colours(enc)
  segments <- list()
  for (k in seq_len(m)) {
    cols <- which(enc$column == k)
    if (!categorical[k]) {
      v <- w[, cols]
      span[, k] <- if (diff(range(v)) > 0) (v - min(v)) / diff(range(v)) else v * 0 + 0.5
      labels[, k] <- cell_labels(matrix(v))
      next
    }
    sh <- pmax(w[, cols, drop = FALSE], 0)
    total <- rowSums(sh)
    sh <- sh / ifelse(total > 0, total, NA) # each row over its total
    sh[is.na(sh)] <- 1 / length(cols)
    top <- t(apply(sh, 1L, cumsum))
    if (length(cols) == 1L) top <- t(top)
    segments[[length(segments) + 1L]] <- data.frame(
      neuron = rep(seq_len(N), length(cols)), row = k,
      level = rep(enc$levels[[k]], each = N), bottom = as.vector(top - sh),
      top = as.vector(top), share = as.vector(sh), fill = rep(fills[cols], each = N),
      stringsAsFactors = FALSE)
  }
  key <- data.frame(column = enc$columns[enc$column], level = enc$level, fill = fills,
                    stringsAsFactors = FALSE)[categorical[enc$column], , drop = FALSE]
  list(span = span, vars = enc$columns, labels = as.vector(labels),
       segments = do.call(rbind, segments), key = key, categorical = categorical)
}

# A colour per level of each categorical column of an encoding (NA for the encoded numeric
# columns), by the level's place in its column: Okabe and Ito's colours (without black),
# the first level orange, the second sky blue, ..., again from the ninth.
level_colours <- function(enc) {
  okabe <- c("#E69F00", "#56B4E9", "#009E73", "#F0E442", "#0072B2", "#D55E00", "#CC79A7",
             "#999999")
  at <- stats::ave(seq_along(enc$column), enc$column, FUN = seq_along)
  ifelse(is.na(enc$level), NA_character_, okabe[(at - 1L) %% length(okabe) + 1L])
}

# The categorical columns whose levels a profiles figure names in its legend: the first
# profile_key_columns of them (key rows of mixed_profiles_data()), split by column.
profile_key_columns <- 4L
profile_keys <- function(pd) {
  if (is.null(pd$key) || !nrow(pd$key)) return(list())
  shown <- utils::head(unique(pd$key$column), profile_key_columns)
  key <- pd$key[pd$key$column %in% shown, , drop = FALSE]
  split(key, factor(key$column, shown))
}

# The values of a heatmap's cells as written, column by column: three significant digits of
# the column's range (so the decimals a column gets follow its spread, and a value near zero
# beside ones near 1, as 1.55e-15 among 0 and 1, reads 0), the same decimals for every
# value of a column (2.70 beside 2.44), less those that are zero in all of them.
cell_labels <- function(w) {
  out <- vapply(seq_len(ncol(w)), function(k) {
    v <- w[, k]
    r <- max(abs(range(v)))
    s <- diff(range(v))
    ref <- if (s > 0) s else r
    if (!is.finite(ref) || ref == 0) return(formatC(signif(v, 3), format = "g"))
    d <- max(0L, 2L - floor(log10(ref)))
    v <- round(v, d)
    v[v == 0] <- 0 # no "-0"
    text <- formatC(v, format = "f", digits = d)
    while (d > 0L && all(endsWith(text, "0"))) {
      d <- d - 1L
      text <- formatC(v, format = "f", digits = d)
    }
    text
  }, character(nrow(w)))
  as.vector(out)
}

# Integer breaks for an axis of counts or sizes over `range`: pretty() ones that are whole,
# or every whole number in range when pretty() gives fewer than two.
integer_breaks <- function(range, n = 5) {
  range <- range[is.finite(range)]
  if (!length(range)) return(numeric(0))
  b <- pretty(range, n)
  b <- b[abs(b - round(b)) < 1e-9]
  if (length(b) < 2L) b <- seq(ceiling(min(range)), floor(max(range)))
  b
}

# A label at x = at over a panel spanning `range`: running right from it in the left third,
# left in the right third, centred between, so that it stays in the panel.
mark_hjust <- function(at, range) {
  r <- if (diff(range) > 0) (at - range[1L]) / diff(range) else 0.5
  if (r < 1 / 3) 0 else if (r > 2 / 3) 1 else 0.5
}

# Which of n bars (or cells) along an axis are labelled: every one up to 12, else 1 and the
# pretty whole numbers (1, 5, 10, ...).
axis_labels_at <- function(n) {
  if (n <= 12L) return(seq_len(n))
  b <- integer_breaks(c(1, n), 8)
  sort(unique(c(1L, as.integer(b[b >= 1 & b <= n]))))
}

# Where the neurons' numbers go so that no two overlap (x, y: the neurons; w, h: each
# number's box; r: a neuron's circle's radius; one unit on both axes), in order: a number on
# its neuron where its box clears the numbers placed before it, else just off its circle,
# in the first of eight directions (outward from the ring's middle first) where it clears
# them and every other neuron's circle, then twice as far; NA where no place clears (a crowd
# of neurons on top of each other). data.frame(x, y, moved: off its neuron).
label_places <- function(x, y, w, h, r) {
  n <- length(x)
  w <- rep_len(w, n)
  h <- rep_len(h, n)
  px <- py <- rep(NA_real_, n)
  moved <- logical(n)
  clear <- function(i, at) {
    k <- which(!is.na(px))
    !any(abs(at[1L] - px[k]) < (w[i] + w[k]) / 2 & abs(at[2L] - py[k]) < (h[i] + h[k]) / 2)
  }
  off_circles <- function(i, at) { # the box's nearest point to each other neuron's centre
    dx <- pmax(abs(at[1L] - x[-i]) - w[i] / 2, 0)
    dy <- pmax(abs(at[2L] - y[-i]) - h[i] / 2, 0)
    all(dx^2 + dy^2 >= r^2)
  }
  for (i in seq_len(n)) {
    ways <- list(c(x[i], y[i]))
    out <- atan2(y[i] - mean(y), x[i] - mean(x))
    for (step in 1:2) for (a in out + c(0, 1, -1, 2, -2, 3, -3, 4) * pi / 4) {
      d <- step * (r + sqrt(w[i]^2 + h[i]^2) / 2)
      ways <- c(ways, list(c(x[i] + d * cos(a), y[i] + d * sin(a))))
    }
    for (j in seq_along(ways)) {
      if (clear(i, ways[[j]]) && (j == 1L || off_circles(i, ways[[j]]))) {
        px[i] <- ways[[j]][1L]
        py[i] <- ways[[j]][2L]
        moved[i] <- j > 1L
        break
      }
    }
  }
  data.frame(x = px, y = py, moved = moved)
}

# How points are drawn for n of them: more and fainter, smaller points as n grows, so that a
# hundred rows and a hundred thousand (drawn as max_points of them) both read.
point_style <- function(n) {
  list(alpha = min(0.85, max(0.08, 12 / sqrt(max(n, 1)))),
       cex = min(1.3, max(0.45, 2.2 - 0.4 * log10(max(n, 1)))))
}

# The rows a principal-components view draws from: the rows in memory (fit_data()), or a
# file-backed big.matrix as a somgpu_file, of which the view reads only the rows it draws
# (view_points()). NULL when the fit keeps no data and none is given.
view_rows <- function(x, data, call) {
  if (!is.null(data) && is_file_data(data)) return(newdata_matrix(data, x, call, name = "data"))
  if (is.null(data) && is.null(x$data) && isTRUE(x$params$file_backed)) {
    abort_input("The fit was trained on file-backed data and keeps none: pass them as `data` (the big.matrix, or its rows in memory).",
                call)
  }
  fit_data(x, data, call)
}

# Rows `idx` (increasing) of a somgpu_file: file_rows() reads a run of consecutive rows at a
# time, a seek and a read per run and column; rows close together are read as one run (a
# piece of at most 25,000 rows) and picked out, so that a sample of a large file costs a
# few long reads rather than a short one per row.
view_file_rows <- function(f, idx) {
  piece <- 25000
  parts <- split(idx, (idx - 1) %/% piece)
  out <- lapply(parts, function(i) {
    runs <- sum(diff(i) != 1) + 1
    span <- i[length(i)] - i[1L] + 1
    if (span > 1000 * runs) return(file_rows(f, i)) # far apart: a read per run
    file_rows(f, seq.int(i[1L], i[length(i)]))[i - i[1L] + 1L, , drop = FALSE]
  })
  do.call(rbind, unname(out))
}

# The rows drawn (at most max_points of n, sampled reproducibly): list(x, the rows as
# given (the fit's columns, unscaled, in memory), row, their numbers).
view_points <- function(rows, max_points) {
  n <- nrow(rows)
  keep <- if (n > max_points) sample_keeping_seed(n, max_points) else seq_len(n)
  x <- if (inherits(rows, "somgpu_file")) view_file_rows(rows, keep) else rows[keep, , drop = FALSE]
  list(x = x, row = keep)
}

# The data on their first two principal components (at most max_points rows, sampled
# reproducibly), in the space the maps trained in, a missing value drawn at its column's
# mean, with the ring of `size` drawn through its neurons: points (PC1, PC2, cluster: each
# row's neuron) and neurons (PC1, PC2, neuron), and `shown` of `n` rows. `rows`:
# view_rows()'s; the components are those of all rows in memory, of the rows drawn for a
# file. A row's neuron is the fit's cluster of it when `rows` are the fit's rows (as many),
# else its winner (predict()). `drawn` keeps the rows drawn, as given, for groups_data().
codes_data <- function(x, size, rows, max_points) {
  drawn <- view_points(rows, max_points)
  keep <- drawn$row
  all <- prepared_matrix(if (inherits(rows, "somgpu_file")) drawn$x else rows, NULL, x$scaling)
  data <- if (inherits(rows, "somgpu_file")) all else all[keep, , drop = FALSE]
  codes <- (if (is.null(x$scaling)) x$weights else x$scaled_weights)[[paste0("N", size)]]
  basis <- pca_basis(all)
  k <- min(2L, ncol(all))
  project <- function(m) {
    m <- sweep(m, 2, basis$center)
    m[is.na(m)] <- 0
    p <- m %*% basis$rotation[, seq_len(k), drop = FALSE]
    if (k == 1L) cbind(p, 0) else p
  }
  pts <- project(data)
  w <- project(codes)
  cl <- size_clusters(x, paste0("N", size))
  cluster <- if (length(cl) == nrow(rows)) cl[keep] else
    stats::predict(x, drawn$x, sizes = size)[[1L]]
  list(points = data.frame(PC1 = pts[, 1], PC2 = pts[, 2], row = keep, cluster = cluster),
       neurons = data.frame(PC1 = w[, 1], PC2 = w[, 2], neuron = seq_len(size)),
       one_column = k == 1L, n = nrow(rows), shown = length(keep), drawn = drawn$x)
}

# A fit's codes view: codes_data() of `data` (in memory or file-backed) or the fit's rows.
codes_view <- function(x, size, data, max_points, call) {
  cd <- codes_data(x, size, view_rows(x, data, call), max_points)
  cd$drawn <- NULL
  cd
}

# The groups view: codes_data() of the grouping map (the largest ring) with each drawn row's
# group and each neuron's, and a label per group naming its rows and stability (NA without
# replicates: a fit's summary()). grouping: fit_grouping()'s; groups_at(row, x): the groups
# of the rows numbered `row`, `x` those rows as given; rows: each group's rows in all;
# table: the selection's group_table or NULL.
groups_data <- function(x, grouping, groups_at, counts, rows, max_points, table = NULL) {
  cd <- codes_data(x, grouping$size, rows, max_points)
  cd$points$group <- groups_at(cd$points$row, cd$drawn)
  cd$drawn <- NULL
  cd$neurons$group <- grouping$neurons
  G <- grouping$groups
  stab <- if (!is.null(table)) {
    ifelse(is.na(table$stability), ", stability not rated",
           sprintf(", stability %.2f (%s)", table$stability, table$reading))
  }
  cd$labels <- sprintf("group %d: %d rows%s", seq_len(G), counts, if (is.null(stab)) "" else stab)
  cd$groups <- G
  # rows in no group (select_size(noise = TRUE)), drawn grey: a legend line of their own
  # where some are drawn
  outside <- cd$n - sum(counts)
  cd$no_group <- if (outside > 0 && anyNA(cd$points$group)) {
    sprintf("in no group: %d row%s", outside, if (outside == 1) "" else "s")
  }
  # the title: where the groups were found (the rows themselves for groups of the rows'
  # linkage, the ring then drawn only to show the data's shape) and by which rule
  cd$title <- sprintf(if (grouping$assign == "rows") "%d group%s of the rows (rule %s), the ring of %d" else
    "%d group%s (rule %s), found on the ring of %d", G, if (G == 1) "" else "s", grouping$rule,
    grouping$size)
  cd
}

# A fit's groups view: summary()'s groups, found on (at most 50,000 of) the fit's rows or
# `data`, every row then in its group. `data` may be a file-backed big.matrix: the groups
# are found on the rows summary() would take of it in memory (read from the file), every
# row's group is counted a block of rows at a time (groups_of_rows()), and the rows drawn
# are read from the file.
fit_groups_view <- function(x, data, max_points, call) {
  if (wide_fit(x)) {
    abort_input(sprintf("The fit has %s columns: find their groups with select_size(), which runs on their principal components, and draw plot(selection, \"groups\", data = ...).",
                        format(x$params$m, big.mark = ",")), call)
  }
  cl <- fit_clusters(x, call)
  file <- !is.null(data) && is_file_data(data)
  rows <- if (file) view_rows(x, data, call)
  if (file) { # the rows fit_answer() keeps of data in memory: every one, or 50,000 evenly spaced
    n <- nrow(rows)
    at <- if (n > 50000) unique(round(seq(1, n, length.out = 50000))) else seq_len(n)
    answer <- fit_answer(x, view_file_rows(rows, at), cl, call)
  } else {
    answer <- fit_answer(x, data, cl, call)
  }
  if (is.null(answer) || is.null(answer$grouping)) {
    abort_input("The groups view needs the fit's data: train with keep_data = TRUE or pass `data`.",
                call)
  }
  g <- answer$grouping
  if (file) {
    every <- groups_of_rows(g, x, rows, nrow(rows), threads = NULL)
    partition <- every$partition
  } else {
    rows <- fit_data(x, data, call)
    partition <- if (nrow(rows) == length(g$partition)) g$partition else {
      top <- which.max(x$params$sizes)
      winners <- if (is.null(data)) size_clusters(x, top, cl = cl) else
        stats::predict(x, rows, sizes = x$params$sizes[top])[[1L]]
      predict_groups(g, x, rows, winners)
    }
  }
  gd <- groups_data(x, g, function(row, drawn) partition[row], tabulate(partition, g$groups),
                    rows, max_points)
  # summary()'s groups, not select_size()'s answer (other shapes, replicates): said
  gd$title <- sub("(rule gaussian)", "(rule gaussian, this fit alone)", gd$title, fixed = TRUE)
  gd
}

# A selection's figures in one long table: per size the held-out error (+- 1 SE) and the
# stability (its 95% interval over pairs of replicates), per number of groups what chose
# the groups (criterion_panel()); `panel` names each; `mark` is where the answer stands;
# `ylab`, `shorter` (the third panel's title said shorter) and `key` say what the points
# are.
selection_data <- function(x) {
  cr <- x$criteria
  third <- with_control(x$control, criterion_panel(x$grouping)) # its thresholds' words
  panels <- c("held-out error (+- 1 SE)", "stability (95% of replicate pairs)", third$title)
  best <- third$values
  long <- rbind(
    data.frame(panel = panels[1], x = cr$size, y = cr$heldout_qe,
               lo = cr$heldout_qe - cr$heldout_qe_se, hi = cr$heldout_qe + cr$heldout_qe_se),
    data.frame(panel = panels[2], x = cr$size, y = cr$stability, lo = cr$stability_lo,
               hi = cr$stability_hi),
    data.frame(panel = panels[3], x = as.integer(names(best)), y = unname(best),
               lo = unname(best), hi = unname(best)))
  long$panel <- factor(long$panel, levels = panels)
  marks <- data.frame(panel = factor(panels, levels = panels),
                      side = vapply(seq_along(panels), function(i) { # a label's hjust
                        r <- range(long$x[long$panel == panels[i]])
                        at <- c(x$recommended, x$recommended, x$groups)[i]
                        if (is.na(at)) 0 else mark_hjust(at, r)
                      }, 0),
                      x = c(x$recommended, x$recommended, x$groups),
                      label = c(rep(if (is.na(x$recommended)) "" else
                        sprintf("recommended N = %d", x$recommended), 2),
                        if (is.na(x$groups)) "" else
                          sprintf("%d group%s%s", x$groups, if (x$groups == 1) "" else "s",
                                  third$note)))
  list(long = long, marks = marks, panels = panels, ylab = third$ylab, shorter = third$shorter,
       key = third$key,
       none = if (is.na(x$recommended)) {
         if (identical(x$groups, 1L)) "no group structure: no size recommended" else "no size recommended"
       })
}

# The third panel of a selection's figures, per number of groups what the rule that found
# the groups (grouping$rule) measured, as its entry in rule_table() gives it (`panel`:
# rules apart and told the narrowest gap, connected and sparse the share of rows or
# neighbours across), else the best BIC over the models. list(values, named by number of
# groups; title, with the rule's name, ylab, shorter, key; note, for the answer's mark, as
# the rule's `note` says).
criterion_panel <- function(g) {
  entry <- if (!is.null(g)) rule_entry(g$rule)
  out <- if (!is.null(entry)) entry$panel(g)
  if (is.null(out)) out <- gaussian_panel(g)
  if (!is.null(g)) out$title <- sprintf("rule %s: %s", g$rule, out$title)
  out$note <- if (!is.null(entry)) entry$note(g) else ""
  out
}

# The Gaussian criterion's panel: the best BIC of the classification over the models per
# number of groups (NA without scores).
gaussian_panel <- function(g) {
  sc <- g$scores
  list(values = if (is.null(sc)) c(`1` = NA_real_) else vapply(split(sc$criterion, sc$groups), max, 0),
       title = "criterion per number of groups", ylab = "BIC of the classification",
       shorter = c("criterion per groups", "criterion"),
       key = "mean over replicates (criterion: best model)")
}

# "1-2", "2-3", ..., "N-1": the pairs of adjacent neurons round a ring of `size`.
ring_pairs <- function(size) sprintf("%d-%d", seq_len(size), c(seq_len(size)[-1L], 1L))

# A reproducible subsample of k of n rows (seed 1) that leaves the session's random number
# stream as it was.
sample_keeping_seed <- function(n, k) with_private_seed(1L, sort(sample.int(n, k)))

fit_plot_types <- c("quality", "trace", "codes", "groups", "neighbours", "profiles", "counts")

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

# The distance between neurons j and j + 1 around the ring (N and 1 last), in the fit's
# distance: the trained (scaled) weights, each column's term times its weight.
ring_gaps <- function(x, size) {
  w <- (if (is.null(x$scaling)) x$weights else x$scaled_weights)[[paste0("N", size)]]
  v <- if (is.null(x$var_weights)) rep(1, ncol(w)) else x$var_weights
  nxt <- c(seq_len(size)[-1L], 1L)
  sqrt(colSums(v * t((w - w[nxt, , drop = FALSE])^2)))
}

# "rows (colour: ...)", with how many of them are drawn.
shown_label <- function(cd, colour) {
  sprintf("rows, in %s%s", colour,
          if (cd$shown < cd$n) sprintf(" (%s of %s drawn)", format(cd$shown, big.mark = ","),
                                       format(cd$n, big.mark = ",")) else "")
}

# Colours of G groups, distinct and readable on white.
group_palette <- function(G) grDevices::hcl.colors(max(G, 1L), "Dark 3")

# The colour of the rows in no group (select_size(noise = TRUE)) in the groups view.
no_group_colour <- "grey70"

# A selection's groups view (groups_data()), on `data` (in memory, or a file-backed
# big.matrix, of which only the rows drawn are read) or the rows its fit keeps; each row's
# group from the selection's partition, or from its groups_file.
selection_groups_view <- function(x, data, max_points, call) {
  if (is.null(selection_grouping(x, call))) abort_input("This selection found no groups to draw.", call)
  rows <- if (!is.null(data)) data else x$fit$data
  if (is.null(rows)) {
    abort_input("The groups view draws the rows: pass the data the selection was made on as `data` (or run select_size() with keep_data = TRUE).",
                call)
  }
  xm <- if (!is.null(x$reduction) && !is.null(data)) { # wide data: drawn on its components
    reduced <- newdata_matrix(rows, x$reduction$source, call, name = "data")
    if (inherits(reduced, "somgpu_file")) reduced <- rows_at(reduced, seq_len(nrow(reduced)))
    reduce_rows(x$reduction, reduced)
  } else {
    newdata_matrix(rows, x$fit, call, name = "data")
  }
  n <- if (!is.null(x$partition)) length(x$partition) else x$strategy$n
  if (nrow(xm) != n) {
    abort_input(sprintf("`data` has %d rows; the selection was made on %d.", nrow(xm), n), call)
  }
  groups_at <- if (!is.null(x$partition)) function(row, drawn) x$partition[row] else
    function(row, drawn) selection_file_groups(x, row, call)
  counts <- if (!is.null(x$group_table$rows)) x$group_table$rows else
    tabulate(x$partition, x$grouping$groups)
  groups_data(grouping_fit(x$grouping, x$fit), x$grouping, groups_at, counts, xm, max_points, x$group_table)
}

# Rows `row` of the groups a selection wrote to its groups_file (attached as
# as_big_matrix() attaches it: a classed error when the file is gone).
selection_file_groups <- function(x, row, call) as_big_matrix(x)[row, 1L]
