# The data as training and prediction see them: the rows used (na_max), the scaling computed
# (the checks of `scale` and `var_weights` are data_validate.R's), and the figures that depend on
# them (fill values for init = "sample", the total sum of squares). The compiled code takes the prepared matrix:
# missing values stay NaN there, and the column weights go with it (distance_spec()).

# Rows used: those whose share of missing values is at most na_max and that have an
# observed value. list(keep = row numbers, or NULL for all; dropped = row numbers).
usable_rows <- function(row_missing, m, na_max, unseen = NULL) {
  if (is.null(row_missing)) return(list(keep = NULL, dropped = integer(0)))
  bad <- row_missing / m > na_max | row_missing == m
  if (!is.null(unseen)) bad <- bad | unseen
  list(keep = if (any(bad)) which(!bad), dropped = which(bad))
}

# Rows observed only in columns of weight 0 (NULL when there can be none): they say nothing
# about any neuron (every distance 0), so they are left out like rows with nothing
# observed. One more pass of the compiled code, only with missing values and a zero weight.
unseen_rows <- function(x, var_weights, missing, call) {
  if (!missing || is.null(var_weights) || all(var_weights > 0)) return(NULL)
  counted <- var_weights > 0
  scan <- call_core("read the data", call, function() .Call(C_data_scan, x, counted))
  scan$row_missing_counted == sum(counted)
}

# Columns with no observed value in the rows used are refused: training could not move
# their weights (they would keep their initial values) nor could predict() use them. scan:
# scan_data()'s (its counts of the whole data; a file's rows are all used or refused).
check_observed_columns <- function(x, keep, scan, call, name = "y") {
  if (scan$missing == 0) return(invisible(NULL))
  count <- if (is.null(keep) || inherits(x, "somgpu_file")) scan$column_observed else
    colSums(!is.na(x[keep, , drop = FALSE]))
  empty <- which(count == 0)
  if (!length(empty)) return(invisible(NULL))
  nm <- colnames(x)
  if (!is.null(nm) && any(is.na(nm[empty]) | !nzchar(nm[empty]))) nm <- NULL # by position
  label <- if (is.null(nm)) paste("column", empty) else paste0("`", nm[empty], "`")
  drop <- if (is.null(nm)) sprintf("%s[, -%s]", name, deparse(as.integer(empty))) else
    sprintf("%s[, setdiff(colnames(%s), %s)]", name, name,
            paste(deparse(nm[empty]), collapse = ""))
  abort_input(sprintf(
    "%s of `%s` %s no observed value%s (all missing): there is nothing to train %s on. Drop %s (e.g. %s) or fill %s.",
    paste(label, collapse = ", "), name, if (length(empty) == 1L) "has" else "have",
    if (is.null(keep)) "" else " in the rows used", if (length(empty) == 1L) "it" else "them",
    if (length(empty) == 1L) "it" else "them", drop, if (length(empty) == 1L) "it" else "them"),
    call)
}

# The training (or prediction) matrix: the rows kept, centred and scaled by `scaling`
# (NULL, or list(center, scale)), (x - center) / scale column by column. x itself is not
# modified (R copies on the first change).
prepared_matrix <- function(x, keep, scaling) {
  if (inherits(x, "somgpu_file")) { # the compiled code scales the rows as it reads them
    check_internal(is.null(keep), "rows of a file-backed matrix cannot be left out")
    x$center <- if (!is.null(scaling)) unname(scaling$center)
    x$scale <- if (!is.null(scaling)) unname(scaling$scale)
    return(x)
  }
  if (!is.null(keep)) x <- x[keep, , drop = FALSE]
  if (!is.null(scaling)) x <- scaled_columns(x, scaling$center, scaling$scale)
  x
}

# x[] <- (x - center) / scale column by column: in C for a double matrix (the same
# arithmetic, one copy of x where R's made four: a replicate's grouping scales its rows
# several times), else in R.
scaled_columns <- function(x, center, scale) {
  if (is.double(x) && is.matrix(x) && length(center) == ncol(x) && length(scale) == ncol(x)) {
    return(.Call(C_scale_columns, x, as.double(center), as.double(scale)))
  }
  x[] <- (x - by_column(center, x)) / by_column(scale, x)
  x
}

# Weights trained on scaled data, in the data's units; and back.
unscale_weights <- function(w, scaling) {
  if (is.null(scaling)) return(w)
  w[] <- w * by_column(scaling$scale, w) + by_column(scaling$center, w)
  w
}
scale_weights <- function(w, scaling) {
  if (is.null(scaling)) return(w)
  w[] <- (w - by_column(scaling$center, w)) / by_column(scaling$scale, w)
  w
}

# A value per column of matrix x, repeated down its rows (a plain vector as long as x, so
# that x op it keeps x's attributes): arithmetic with it is elementwise, the operations a
# loop over the columns did (such a loop over a classed matrix copies the whole matrix per
# column: seconds on a wide one).
by_column <- function(v, x) rep(as.double(v)[seq_len(ncol(x))], each = nrow(x))

# A spread this small beside the column's mean is rounding, not data (a column of 0.3
# computed two ways differs by 1e-17): no spread. Far below any measured spread (a
# timestamp of 1.7e9 seconds spread over one second is 6e-10 of it).
spread_noise <- 1000 * .Machine$double.eps

# Each column's centre and spread over its observed values, as base R's scale() computes
# them (in C, as colMeans() and sqrt(sum(v^2) / (length(v) - 1))): list(center, spread),
# a spread 0 where the column has none (fewer than two values, one value, or a spread of
# spread_noise times its mean or less) and NaN centre where it has no value.
column_spreads <- function(x, call = NULL) {
  center <- column_means(x, call)
  stats <- column_stats(x, center, call)
  spread <- sqrt(stats$ss / pmax(1, stats$count - 1))
  # values so small or large that their squares under- or overflow (near 1e-160 or 1e160
  # and beyond): the spread of the column divided by its largest absolute value, scaled back
  odd <- which(spread == 0 | !is.finite(spread))
  if (length(odd) && !inherits(x, "somgpu_file")) {
    spread[odd] <- vapply(odd, function(k) {
      v <- x[!is.na(x[, k]), k]
      top <- max(abs(v), 0)
      if (length(v) < 2L || !is.finite(top) || top == 0) return(0)
      top * stats::sd(v / top)
    }, 0)
  }
  rounding <- is.finite(center) & spread <= spread_noise * abs(center)
  spread[!is.finite(spread) | rounding] <- 0
  list(center = center, spread = spread)
}

# scale = TRUE: each column's centre and spread (column_spreads()); a column with no spread
# is divided by 1. list(center, scale), named by the columns.
column_scaling <- function(x, call) {
  cs <- column_spreads(x, call)
  spread <- cs$spread
  spread[spread == 0] <- 1
  center <- cs$center
  center[!is.finite(center)] <- 0
  list(center = stats::setNames(as.double(center), colnames(x)),
       scale = stats::setNames(spread, colnames(x)))
}

# What the compiled code needs of the distance: list(col_w, missing).
distance_spec <- function(var_weights, missing) {
  list(col_w = if (!is.null(var_weights) && any(var_weights != 1)) unname(var_weights),
       missing = missing)
}

# init = "sample" on data with missing values: a drawn row's missing values are its
# columns' means over the observed values. NULL when the data have none.
sample_fill <- function(x, missing, call = NULL) {
  if (!missing) return(NULL)
  fill <- column_means(x, call)
  fill[!is.finite(fill)] <- 0
  unname(fill)
}

# The total sum of squares about the column means, weighted by column, over the observed
# cells (the denominator of the explained variance); a column with fewer than 2 observed
# values adds 0. Two passes of the compiled code, whatever holds the data.
total_ss <- function(x, var_weights = NULL, missing = FALSE, call = NULL) {
  w <- if (is.null(var_weights)) rep(1, ncol(x)) else var_weights
  stats <- column_stats(x, column_means(x, call), call)
  sum(ifelse(stats$count < 2, 0, w * stats$ss))
}

# What a squared difference is multiplied by at most, summed over the columns (for
# check_magnitude()): the column weights' sum (or the number of columns), times the columns
# again when missing values rescale a row's distance.
distance_factor <- function(var_weights, m, missing) {
  (if (is.null(var_weights)) m else sum(var_weights)) * (if (missing) m else 1)
}

# The row pipeline that train() and predict() share, in three steps: the rows
# (data_rows()), the matrix C reads (prepared_matrix(x, rows$used, scaling)), and the check
# of its magnitudes (check_prepared(), data_validate.R).
#
# 1. The rows of x that train (or are assigned, in predict()), from the one scan of its
# values (scan_data()): keep and dropped as usable_rows() gives them (rows over na_max, with
# nothing observed, or observed only in columns of weight 0); used, the rows the prepared
# matrix holds (keep; NULL, all of them, with read_all: a file's rows are all read); whether
# those have missing values; and dist, the distance C reads (distance_spec()).
data_rows <- function(x, scan, na_max, var_weights, call, read_all = FALSE) {
  unseen <- unseen_rows(x, var_weights, scan$missing > 0, call)
  rows <- usable_rows(scan$row_missing, ncol(x), na_max, unseen)
  rows$unseen <- unseen
  rows$used <- if (read_all) NULL else rows$keep
  rows$missing <- !is.null(scan$row_missing) &&
    any(if (is.null(rows$used)) scan$row_missing > 0 else scan$row_missing[rows$used] > 0)
  rows$dist <- distance_spec(var_weights, rows$missing)
  rows
}

# The one pass over the values of a data matrix (in C: no temporary as large as the data):
# refuses infinite values, and returns list(max_abs, the largest absolute value; missing,
# the number of missing values (NA, NaN); row_missing, each row's, NULL when none;
# column_observed, each column's observed values).
scan_data <- function(x, call, name = "y") {
  scan <- call_core("read the data", call, function() .Call(C_data_scan, x, NULL))
  if (scan$infinite > 0) {
    abort_input(sprintf(
      "`%s` has %.0f infinite value%s (Inf or -Inf); the first is in row %.0f. Replace %s by NA (missing values are allowed) or drop the row%s.",
      name, scan$infinite, if (scan$infinite == 1) "" else "s", scan$first_row,
      if (scan$infinite == 1) "it" else "them", if (scan$infinite == 1) "" else "s"),
      call)
  }
  list(max_abs = scan$max_abs, missing = scan$missing, row_missing = scan$row_missing,
       column_observed = scan$column_observed)
}
