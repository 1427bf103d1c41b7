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
# neuron (0.5 when all equal), the variables' names, the values as written in the cells.
profiles_data <- function(w) {
  span <- apply(w, 2, function(v) if (diff(range(v)) > 0) (v - min(v)) / diff(range(v)) else v * 0 + 0.5)
  list(span = matrix(span, nrow = nrow(w)),
       vars = if (is.null(colnames(w))) paste0("V", seq_len(ncol(w))) else colnames(w),
       labels = formatC(signif(as.vector(w), 3), format = "g"))
}

# How points are drawn for n of them: more and fainter, smaller points as n grows, so that a
# hundred rows and a hundred thousand (drawn as max_points of them) both read.
point_style <- function(n) {
  list(alpha = min(0.85, max(0.08, 12 / sqrt(max(n, 1)))),
       cex = min(1.3, max(0.45, 2.2 - 0.4 * log10(max(n, 1)))))
}

# The data on their first two principal components (at most max_points rows, sampled
# reproducibly), in the space the maps trained in, a missing value drawn at its column's
# mean, with the ring of `size` drawn through its neurons: points (PC1, PC2, cluster) and
# neurons (PC1, PC2, neuron), and `shown` of `n` rows.
codes_data <- function(x, size, data, max_points) {
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
    m[is.na(m)] <- 0
    p <- m %*% basis$rotation[, seq_len(k), drop = FALSE]
    if (k == 1L) cbind(p, 0) else p
  }
  pts <- project(data[keep, , drop = FALSE])
  w <- project(codes)
  list(points = data.frame(PC1 = pts[, 1], PC2 = pts[, 2], row = keep,
                           cluster = size_clusters(x, paste0("N", size))[keep]),
       neurons = data.frame(PC1 = w[, 1], PC2 = w[, 2], neuron = seq_len(size)),
       one_column = k == 1L, n = nrow(data), shown = length(keep))
}

# The groups view: codes_data() of the grouping map (the largest ring) with each row's group
# and each neuron's, and a label per group naming its rows and stability (NA without
# replicates: a fit's summary()). grouping: fit_grouping()'s; table: the selection's
# group_table or NULL.
groups_data <- function(x, grouping, partition, data, max_points, table = NULL) {
  cd <- codes_data(x, grouping$size, data, max_points)
  cd$points$group <- partition[cd$points$row]
  cd$neurons$group <- grouping$neurons
  G <- grouping$groups
  rows <- tabulate(partition, G)
  stab <- if (!is.null(table)) sprintf(", stability %.2f (%s)", table$stability, table$reading)
  cd$labels <- sprintf("group %d: %d rows%s", seq_len(G), rows, if (is.null(stab)) "" else stab)
  cd$groups <- G
  cd
}

# A fit's groups view: summary()'s groups, found on (at most 50,000 of) the fit's rows or
# `data`, every row then in its group.
fit_groups_view <- function(x, data, max_points, call) {
  cl <- fit_clusters(x, call)
  answer <- fit_answer(x, data, cl, call)
  if (is.null(answer) || is.null(answer$grouping)) {
    abort_input("The groups view needs the fit's data: train with keep_data = TRUE or pass `data`.",
                call)
  }
  g <- answer$grouping
  rows <- fit_data(x, data, call)
  partition <- if (nrow(rows) == length(g$partition)) g$partition else {
    top <- which.max(x$params$sizes)
    winners <- if (is.null(data)) size_clusters(x, top, cl = cl) else
      stats::predict(x, rows, sizes = x$params$sizes[top])[[1L]]
    predict_groups(g, x, rows, winners)
  }
  groups_data(x, g, partition, rows, max_points)
}

# A selection's figures in one long table: per size the held-out error (+- 1 SE) and the
# stability (its 95% interval over pairs of replicates), per number of groups the best
# criterion over the shapes; `panel` names each; `mark` is where the answer stands.
selection_data <- function(x) {
  cr <- x$criteria
  sc <- x$grouping$scores
  best <- if (is.null(sc)) c(`1` = NA_real_) else vapply(split(sc$criterion, sc$groups), max, 0)
  panels <- c("held-out error (+- 1 SE)", "stability (95% of replicate pairs)",
              "criterion per number of groups")
  long <- rbind(
    data.frame(panel = panels[1], x = cr$size, y = cr$heldout_qe,
               lo = cr$heldout_qe - cr$heldout_qe_se, hi = cr$heldout_qe + cr$heldout_qe_se),
    data.frame(panel = panels[2], x = cr$size, y = cr$stability, lo = cr$stability_lo,
               hi = cr$stability_hi),
    data.frame(panel = panels[3], x = as.integer(names(best)), y = unname(best),
               lo = unname(best), hi = unname(best)))
  long$panel <- factor(long$panel, levels = panels)
  marks <- data.frame(panel = factor(panels, levels = panels),
                      side = vapply(seq_along(panels), function(i) {
                        r <- range(long$x[long$panel == panels[i]])
                        at <- c(x$recommended, x$recommended, x$groups)[i]
                        if (is.na(at) || at <= mean(r)) 0 else 1
                      }, 0),
                      x = c(x$recommended, x$recommended, x$groups),
                      label = c(rep(if (is.na(x$recommended)) "" else
                        sprintf("recommended N = %d", x$recommended), 2),
                        if (is.na(x$groups)) "" else
                          sprintf("%d group%s", x$groups, if (x$groups == 1) "" else "s")))
  list(long = long, marks = marks, panels = panels,
       none = if (is.na(x$recommended)) {
         if (identical(x$groups, 1L)) "no group structure: no size recommended" else "no size recommended"
       })
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

# A selection's groups view (groups_data()), on `data` or the rows its fit keeps.
selection_groups_view <- function(x, data, max_points, call) {
  if (is.null(x$grouping)) abort_input("This selection found no groups to draw.", call)
  rows <- if (!is.null(data)) data else x$fit$data
  if (is.null(rows)) {
    abort_input("The groups view draws the rows: pass the data the selection was made on as `data` (or run select_size() with keep_data = TRUE).",
                call)
  }
  xm <- newdata_matrix(rows, x$fit, call, name = "data")
  if (nrow(xm) != length(x$partition)) {
    abort_input(sprintf("`data` has %d rows; the selection was made on %d.", nrow(xm),
                        length(x$partition)), call)
  }
  groups_data(x$fit, x$grouping, x$partition, xm, max_points, x$group_table)
}
