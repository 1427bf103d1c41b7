# Data frames as they come (issue 42): factor, ordered, logical and character columns as
# indicator columns, and back. The engines see numbers only: a categorical column of L
# levels becomes L indicator columns (1 where the row has the level, 0 elsewhere, all NA
# where its value is missing: the missing-value rule), named `column=level`: a mismatch
# costs 2 in the squared distance, what two rows drawn at random differ by on average on a
# standardized numeric column, and fit$weights on the indicators read as each neuron's
# share of the level. The fit keeps the encoding (new_encoding()); predict(), tidy(), the
# figures, as_kohonen() and select_size()'s groups read it back.

# The most levels a categorical column may have (more: an identifier or free text).
encoding_max_levels <- 100L

# Whether a column of a data frame is categorical: a factor (ordered or not), character,
# or logical with an observed value (an all-NA logical column is what read.csv() gives for
# an empty numeric column, and stays one).
is_categorical <- function(col) {
  is.null(dim(col)) && (is.factor(col) || is.character(col) ||
                          (is.logical(col) && !all(is.na(col))))
}

# The encoding of a data frame's columns: the user's columns (`columns`, names as the fit
# reports them), each one's `type` ("numeric", "factor", "ordered", "logical",
# "character") and `levels` (character(0) for a numeric column); the encoded columns'
# `names`, and for each its user `column` (index) and `level` (NA for a numeric column).
new_encoding <- function(columns, type, levels, names, column, level) {
  check_internal(is.character(columns) && length(type) == length(columns) &&
                   all(type %in% c("numeric", "factor", "ordered", "logical", "character")) &&
                   is.list(levels) && length(levels) == length(columns) &&
                   length(names) == length(column) && length(level) == length(column) &&
                   all(column %in% seq_along(columns)),
                 "new_encoding() was given parts that do not fit together")
  structure(list(columns = columns, type = type, levels = levels, names = names,
                 column = as.integer(column), level = level),
            class = "somgpu_encoding")
}

# The encoding of data frame y (NULL when it has no categorical column): levels in the
# factor's order (unused ones dropped), a character column's sorted as factor() sorts them
# (said once per session), a logical's FALSE, TRUE (those observed). Refuses a categorical
# column without an observed value, with more than encoding_max_levels levels, or with
# more than 20 levels, a level per observed value (an identifier; ?train says so).
frame_encoding <- function(y, call, name = "y") {
  cols <- as.list(y)
  categorical <- vapply(cols, is_categorical, logical(1))
  if (!any(categorical)) return(NULL)
  columns <- usable_names(names(y))
  if (is.null(columns)) columns <- paste0("V", seq_along(cols))
  chars <- columns[vapply(cols, is.character, logical(1)) & categorical]
  if (length(chars) && is.null(.said$character)) {
    .said$character <- TRUE
    message(sprintf("somgpu: character column%s %s taken as factor%s (levels sorted as factor() sorts them). (Said once per session.)",
                    if (length(chars) == 1L) "" else "s", name_list(paste0("`", chars, "`")),
                    if (length(chars) == 1L) "" else "s"))
  }
  type <- unname(vapply(cols, function(col) {
    if (!is_categorical(col)) "numeric" else if (is.ordered(col)) "ordered" else
      if (is.factor(col)) "factor" else if (is.logical(col)) "logical" else "character"
  }, character(1)))
  levels <- lapply(seq_along(cols), function(k) {
    if (!categorical[k]) return(character(0))
    col <- cols[[k]]
    lv <- if (is.factor(col)) levels(droplevels(col)) else
      if (is.logical(col)) c("FALSE", "TRUE")[c(any(!col, na.rm = TRUE), any(col, na.rm = TRUE))]
      else levels(factor(col))
    if (!length(lv)) {
      abort_input(sprintf(
        "`%s` of `%s` has no observed value (all missing): there is nothing to train it on. Drop it or fill it.",
        columns[k], name), call)
    }
    distinct <- length(lv) > 20L && length(lv) == sum(!is.na(col))
    if (length(lv) > encoding_max_levels || distinct) {
      abort_input(sprintf(
        "`%s` of `%s` has %d levels (%s): an identifier or free text? Drop it, or group its levels first.",
        columns[k], name, length(lv), if (distinct) "one per row" else
          sprintf("at most %d", encoding_max_levels)), call)
    }
    lv
  })
  width <- pmax(1L, lengths(levels))
  column <- rep(seq_along(cols), width)
  level <- unlist(lapply(seq_along(cols), function(k) {
    if (categorical[k]) levels[[k]] else NA_character_
  }))
  names <- ifelse(is.na(level), columns[column], paste0(columns[column], "=", level))
  new_encoding(columns, type, levels, make.unique(names), column, level)
}

# Data frame y (the user's columns of `enc`, by name) encoded: a data frame of numeric
# columns, the numeric ones as given (as_data_matrix() checks them), each categorical one
# as its indicator columns (0/1, NA where missing); y's row names kept. A value of a
# categorical column that is not among its levels is an error naming the column and the
# values; so is a numeric column where the encoding has a categorical one, or one where it
# has a numeric.
encode_frame <- function(y, enc, call, name = "y") {
  have <- usable_names(names(y))
  absent <- setdiff(enc$columns, have)
  if (length(absent)) {
    abort_input(sprintf("`%s` lacks the column%s %s of the training data.", name,
                        if (length(absent) == 1L) "" else "s",
                        paste0("`", absent, "`", collapse = ", ")), call)
  }
  cols <- as.list(y)[match(enc$columns, have)]
  out <- vector("list", length(enc$names))
  for (k in seq_along(enc$columns)) {
    col <- cols[[k]]
    at <- which(enc$column == k)
    if (enc$type[k] == "numeric") {
      if (is_categorical(col)) abort_trained_numeric(enc$columns[k], list(col), name, call)
      out[[at]] <- col
      next
    }
    if (!is.null(dim(col)) || !(is_categorical(col) || all(is.na(col)))) {
      abort_input(sprintf("`%s` of `%s` is %s, but the fit trained it as a categorical column (levels %s): give its levels (a factor, character or logical column).",
                          enc$columns[k], name,
                          if (!is.null(dim(col))) "a matrix column" else class(col)[1L],
                          name_list(enc$levels[[k]])), call)
    }
    v <- as.character(col)
    idx <- match(v, enc$levels[[k]])
    unseen <- unique(v[!is.na(v) & is.na(idx)])
    if (length(unseen)) {
      abort(sprintf(
        "`%s` of `%s` has the level%s %s, which the fit has not seen (its levels: %s). Set %s to NA (the rows are then placed by their other columns) or to a level the fit knows, or train on data that have %s.",
        enc$columns[k], name, if (length(unseen) == 1L) "" else "s",
        name_list(paste0("\"", unseen, "\"")), name_list(enc$levels[[k]]),
        if (length(unseen) == 1L) "it" else "them", if (length(unseen) == 1L) "it" else "them"),
        c("somgpu_unseen_level", "somgpu_input_error"), call, column = enc$columns[k],
        levels = unseen)
    }
    ind <- matrix(0, length(v), length(at))
    seen <- which(!is.na(idx))
    ind[cbind(seen, idx[seen])] <- 1
    ind[is.na(idx), ] <- NA_real_
    for (i in seq_along(at)) out[[at[i]]] <- ind[, i]
  }
  names(out) <- enc$names
  structure(out, row.names = .row_names_info(y, 0L), class = "data.frame")
}

# The data as train() and select_size() take them (check_data()'s list, with `encoding`:
# NULL for data without categorical columns, which take exactly the path they took before).
# y: the user's data; a data frame with categorical columns is encoded (frame_encoding());
# the encoded matrix select_size() trains its replicates on (encoded_matrix()) keeps its
# encoding.
encoded_data <- function(y, call, min_rows = 2L, name = "y") {
  enc <- NULL
  if (inherits(y, "somgpu_encoded")) {
    enc <- attr(y, "somgpu_encoding")
    y <- plain_matrix(y)
  } else if (is.data.frame(y)) {
    enc <- frame_encoding(y, call, name)
    if (!is.null(enc)) y <- encode_frame(y, enc, call, name)
  }
  c(check_data(y, call, min_rows, name), list(encoding = enc))
}

# The encoded matrix x with its encoding attached (class somgpu_encoded), so that rows of
# it (x[rows, , drop = FALSE]) given to train() train as the data frame would; NULL
# encoding: x as it is.
encoded_matrix <- function(x, enc) {
  if (is.null(enc)) return(x)
  structure(x, somgpu_encoding = enc, class = "somgpu_encoded")
}

# An encoded matrix as a plain double matrix.
plain_matrix <- function(x) {
  x <- unclass(x)
  attr(x, "somgpu_encoding") <- NULL
  x
}

#' @export
`[.somgpu_encoded` <- function(x, i, j, ..., drop = TRUE) {
  out <- NextMethod()
  # rows of it, every column kept: still the encoded data
  if (is.matrix(out) && identical(colnames(out), colnames(x))) {
    out <- encoded_matrix(out, attr(x, "somgpu_encoding"))
  }
  out
}

# The new rows predict() (and every reader of a fit's rows) takes, as the fit's numbers: for
# a fit with an encoding, a data frame (or a matrix of the user's columns) is encoded with
# it, an encoded matrix made plain; a matrix of the encoded columns (the fit's own data)
# passes as it is. Without an encoding, newdata as given.
encoded_newdata <- function(newdata, object, call, name = "newdata") {
  enc <- object$encoding
  if (inherits(newdata, "somgpu_encoded")) return(plain_matrix(newdata))
  if (is_file_data(newdata)) return(newdata)
  if (is.null(enc)) { # numeric columns only: the fit's, given as text or levels, refused
    if (is.data.frame(newdata)) {
      cols <- as.list(newdata)[intersect(object$params$colnames, usable_names(names(newdata)))]
      bad <- vapply(cols, is_categorical, TRUE)
      if (any(bad)) abort_trained_numeric(names(cols)[bad], cols[bad], name, call)
    }
    return(newdata)
  }
  have <- if (is.data.frame(newdata)) names(newdata) else colnames(newdata)
  if (!is.data.frame(newdata) && !is.null(have) && all(enc$names %in% have)) return(newdata)
  if (is.null(have)) {
    abort_input(sprintf(
      "The fit has categorical columns (%s): give `%s` as a data frame with the training columns by name.",
      name_list(enc$columns[enc$type != "numeric"]), name), call)
  }
  if (!is.data.frame(newdata)) {
    newdata <- as.data.frame(if (is.null(dim(newdata))) as.list(newdata) else newdata,
                             stringsAsFactors = FALSE, optional = TRUE)
  }
  encode_frame(newdata, enc, call, name)
}

# The error of newdata's columns (`columns`, their values `cols`) that the fit trained as
# numeric, given as text, levels or logical values.
abort_trained_numeric <- function(columns, cols, name, call) {
  one <- length(columns) == 1L
  abort_input(sprintf(
    "%s of `%s` %s %s, but the fit trained %s: give %s numbers (e.g. with as.numeric()).",
    paste0("`", columns, "`", collapse = ", "), name, if (one) "is" else "are",
    paste(unique(vapply(cols, function(col) class(col)[1L], "")), collapse = " and "),
    if (one) "it as a numeric column" else "them as numeric columns",
    if (one) "its" else "their"), call)
}

# `scale` for data with an encoding (check_scale() without one): the numeric columns
# scaled as `scale` says (FALSE: no scaling at all; TRUE: standardized; a list: their
# centres and scales, by name or in their order), the indicator columns never (centre 0,
# scale 1).
encoded_scale <- function(scale, x, enc, call) {
  if (is.null(enc) || isFALSE(scale)) return(check_scale(scale, x, call))
  num <- which(is.na(enc$level))
  if (!length(num) && !isTRUE(scale)) {
    abort_input("`scale` as a list gives the numeric columns' centres and scales; these data have none (every column is categorical): use scale = FALSE or TRUE.", call)
  }
  center <- rep(0, ncol(x))
  spread <- rep(1, ncol(x))
  if (length(num)) {
    s <- check_scale(scale, x[, num, drop = FALSE], call)
    center[num] <- s$center
    spread[num] <- s$scale
  }
  list(center = stats::setNames(center, colnames(x)), scale = stats::setNames(spread, colnames(x)))
}

# `var_weights` for data with an encoding (check_var_weights() without one): one weight per
# user column (by name or in order), each categorical column's weight on every one of its
# indicators. NULL or one weight per encoded column.
encoded_var_weights <- function(var_weights, x, enc, call) {
  if (is.null(enc) || is.null(var_weights)) return(check_var_weights(var_weights, x, call))
  user <- matrix(0, 0L, length(enc$columns), dimnames = list(NULL, enc$columns))
  w <- check_var_weights(var_weights, user, call)
  stats::setNames(unname(w)[enc$column], colnames(x))
}

# The user's columns back from rows of encoded numbers x (the fit's data): a data frame,
# each categorical column a factor of its levels (ordered for an ordered one, logical for
# a logical one; a character column comes back as a factor), from the level whose
# indicator is 1 (NA where they are missing); x's row names kept.
decoded_frame <- function(x, enc) {
  out <- lapply(seq_along(enc$columns), function(k) {
    at <- which(enc$column == k)
    if (enc$type[k] == "numeric") return(unname(x[, at]))
    ind <- x[, at, drop = FALSE]
    hit <- ifelse(is.na(ind[, 1L]), NA_integer_, max.col(ind, ties.method = "first"))
    v <- enc$levels[[k]][hit]
    if (enc$type[k] == "logical") as.logical(v) else
      factor(v, levels = enc$levels[[k]], ordered = enc$type[k] == "ordered")
  })
  names(out) <- enc$columns
  rn <- rownames(x)
  structure(out, row.names = if (is.null(rn)) .set_row_names(nrow(x)) else rn,
            class = "data.frame")
}

# The categorical columns as select_size()'s groups see them (rule_gaussian.R): per categorical
# user column with a weight above 0, its indicator columns (`cols`, in the fit's columns)
# and their `height` in the space the maps trained in (times the square root of the
# column's weight): a row's indicator there divided by it is 1 or 0 (a share where it was
# missing). NULL for a fit without categorical columns.
encoding_blocks <- function(fit) {
  enc <- fit$encoding
  if (is.null(enc) || all(enc$type == "numeric")) return(NULL)
  v <- if (is.null(fit$var_weights)) rep(1, length(enc$names)) else fit$var_weights
  out <- lapply(which(enc$type != "numeric"), function(k) {
    cols <- which(enc$column == k)
    if (v[cols[1L]] <= 0) return(NULL)
    h <- if (is.null(fit$scaling)) sqrt(v[cols[1L]]) else
      (1 - fit$scaling$center[cols[1L]]) / fit$scaling$scale[cols[1L]] * sqrt(v[cols[1L]])
    list(column = enc$columns[k], cols = cols, height = unname(h))
  })
  out <- Filter(Negate(is.null), out)
  if (length(out)) out
}

# What print() says of a fit's encoding (NULL without one): its categorical columns as
# indicator columns, and whether `scaling` centred and scaled its numeric columns.
encoding_note <- function(enc, scaling) {
  if (is.null(enc)) return(NULL)
  categorical <- which(enc$type != "numeric")
  num <- is.na(enc$level)
  scaled <- any(num) && (any(scaling$center[num] != 0) || any(scaling$scale[num] != 1))
  c(sprintf("%d categorical column%s (%s) as %d indicator columns", length(categorical),
            if (length(categorical) == 1L) "" else "s", name_list(enc$columns[categorical]),
            sum(!num)),
    if (scaled) "numeric columns centred and scaled")
}
