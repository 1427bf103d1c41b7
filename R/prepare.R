# The data as training and prediction see them: the rows used (na_max), the scaling and the
# variable weights a fit keeps, and the figures that depend on them (fill values for
# init = "sample", the total sum of squares). The compiled code takes the prepared matrix:
# missing values stay NaN there, and the column weights go with it (distance_spec()).

# Rows used: those whose share of missing values is at most na_max and that have an
# observed value. list(keep = row numbers, or NULL for all; dropped = row numbers).
usable_rows <- function(row_missing, m, na_max) {
  if (is.null(row_missing)) return(list(keep = NULL, dropped = integer(0)))
  bad <- row_missing / m > na_max | row_missing == m
  list(keep = if (any(bad)) which(!bad), dropped = which(bad))
}

# The training (or prediction) matrix: the rows kept, centred and scaled by `scaling`
# (NULL, or list(center, scale)), (x - center) / scale column by column. x itself is not
# modified (R copies on the first change).
prepared_matrix <- function(x, keep, scaling) {
  if (inherits(x, "somgpu_file")) { # the compiled code scales the rows as it reads them
    stopifnot(is.null(keep))
    x$center <- if (!is.null(scaling)) unname(scaling$center)
    x$scale <- if (!is.null(scaling)) unname(scaling$scale)
    return(x)
  }
  if (!is.null(keep)) x <- x[keep, , drop = FALSE]
  if (!is.null(scaling)) {
    for (k in seq_len(ncol(x))) x[, k] <- (x[, k] - scaling$center[k]) / scaling$scale[k]
  }
  x
}

# Weights trained on scaled data, in the data's units; and back.
unscale_weights <- function(w, scaling) {
  if (is.null(scaling)) return(w)
  for (k in seq_len(ncol(w))) w[, k] <- w[, k] * scaling$scale[k] + scaling$center[k]
  w
}
scale_weights <- function(w, scaling) {
  if (is.null(scaling)) return(w)
  for (k in seq_len(ncol(w))) w[, k] <- (w[, k] - scaling$center[k]) / scaling$scale[k]
  w
}

# scale = FALSE (none), TRUE (each column centred on its mean and divided by its standard
# deviation, over its observed values, as base R's scale() computes them; a column with no
# spread is divided by 1), or list(center, scale) (one value per column, by name or in
# column order). NULL or list(center, scale), named by the columns.
check_scale <- function(scale, x, call) {
  if (isFALSE(scale)) return(NULL)
  m <- ncol(x)
  if (isTRUE(scale)) { # in C, as colMeans() and sqrt(sum(v^2) / (length(v) - 1)) compute them
    center <- column_means(x)
    stats <- column_stats(x, center)
    spread <- sqrt(stats$ss / pmax(1, stats$count - 1))
    spread[!is.finite(spread) | spread == 0] <- 1
    center[!is.finite(center)] <- 0
    return(list(center = stats::setNames(as.double(center), colnames(x)),
                scale = stats::setNames(spread, colnames(x))))
  }
  if (is.list(scale) && !is.data.frame(scale) && length(scale) == 2L &&
      setequal(names(scale), c("center", "scale"))) {
    center <- column_values(scale$center, "scale$center", x, call)
    spread <- column_values(scale$scale, "scale$scale", x, call, positive = TRUE)
    return(list(center = center, scale = spread))
  }
  abort_input(sprintf(
    "`scale` must be TRUE, FALSE or a list with `center` and `scale` (one value per column), not %s.",
    describe(scale)), call)
}

# var_weights: NULL (every column 1), or one non-negative weight per column, by name or in
# column order, not all 0. NULL or the weights, named by the columns.
check_var_weights <- function(var_weights, x, call) {
  if (is.null(var_weights)) return(NULL)
  w <- column_values(var_weights, "var_weights", x, call, nonnegative = TRUE)
  if (!any(w > 0)) abort_input("`var_weights` must not all be 0.", call)
  w
}

# One finite value per column of x: a numeric vector named by x's columns (any order; all
# of them) or of length ncol(x) in column order.
column_values <- function(v, name, x, call, positive = FALSE, nonnegative = FALSE) {
  m <- ncol(x)
  ok <- is.numeric(v) && !is.object(v) && is.null(dim(v)) && !anyNA(v) && all(is.finite(v))
  if (ok && !is.null(names(v)) && !is.null(colnames(x))) {
    missing <- setdiff(colnames(x), names(v))
    if (length(missing)) {
      abort_input(sprintf("`%s` has no value for the column%s %s.", name,
                          if (length(missing) == 1L) "" else "s",
                          paste0("`", missing, "`", collapse = ", ")), call)
    }
    v <- v[colnames(x)]
  }
  ok <- ok && length(v) == m && (!positive || all(v > 0)) && (!nonnegative || all(v >= 0))
  if (!ok) {
    abort_input(sprintf(
      "`%s` must be %s finite number%s, one per column of the data (%d, by name or in column order), not %s.",
      name, if (positive) "positive" else if (nonnegative) "non-negative" else "",
      if (m == 1L) "" else "s", m, describe(v)), call)
  }
  stats::setNames(as.double(v), colnames(x))
}

# What the compiled code needs of the distance: list(col_w, missing).
distance_spec <- function(var_weights, missing) {
  list(col_w = if (!is.null(var_weights) && any(var_weights != 1)) unname(var_weights),
       missing = missing)
}

# init = "sample" on data with missing values: a drawn row's missing values are its
# columns' means over the observed values. NULL when the data have none.
sample_fill <- function(x, missing) {
  if (!missing) return(NULL)
  fill <- column_means(x)
  fill[!is.finite(fill)] <- 0
  unname(fill)
}

# The total sum of squares about the column means, weighted by column, over the observed
# cells (the denominator of the explained variance); a column with fewer than 2 observed
# values adds 0. Two passes of the compiled code, whatever holds the data.
total_ss <- function(x, var_weights = NULL, missing = FALSE) {
  w <- if (is.null(var_weights)) rep(1, ncol(x)) else var_weights
  stats <- column_stats(x, column_means(x))
  sum(ifelse(stats$count < 2, 0, w * stats$ss))
}
