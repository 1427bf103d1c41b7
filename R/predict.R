#' Clusters of new rows
#'
#' Assigns each row of `newdata` to its nearest neuron in the trained ring of each requested
#' size, with the distance the fit was trained with: the fit's scaling applied to
#' `newdata`, its variable weights, and for rows with missing values the distance over the
#' observed columns (rescaled); ties go to the lowest neuron. Rows missing more than the
#' fit's `na_max` share of their values (or all of them) get `NA`.
#'
#' @param object A `somgpu` fit from [train()].
#' @param newdata The rows to assign (omitted: the training rows, as R's `predict()` methods
#'   do: their clusters as the fit holds them, `fit$clusters`, for `sizes`; with
#'   `type = "detail"`, the rows the fit keeps, `keep_data = TRUE`): a data frame (or tibble), a numeric matrix, a named
#'   numeric vector (one row), or a file-backed `bigmemory::big.matrix` (or its
#'   descriptor; read a window of rows at a time, as [train()] reads one). When `newdata`
#'   has column names, the fit's columns are taken by name and everything else in
#'   `newdata` is ignored, whatever its type or missing values; without names, by
#'   position. For a fit trained on a matrix without column names (its columns `V1`,
#'   `V2`, ...), `newdata` with other names is refused rather than matched by position.
#'   For a fit on a data frame with categorical columns (see [train()], "Data frames with
#'   categorical columns"), a data frame with those columns by name (a factor's levels as
#'   factor, character or logical values; a missing one places the row by its other
#'   columns); a value the fit has not seen among a column's levels is an error of class
#'   `somgpu_unseen_level` (and `somgpu_input_error`) naming the column and the values, with
#'   `column` and `levels` fields: set them to `NA` or to a known level. Zero rows give an
#'   empty result.
#' @param sizes Ring sizes to use (default: all trained sizes).
#' @param threads Number of CPU threads; `NULL` uses [somgpu_threads()].
#' @param type `"clusters"` (one column per size) or `"detail"` (how sure each assignment
#'   is; see Value).
#' @param clusters_file `NULL`, or for file-backed `newdata` a path where no file is yet:
#'   the clusters go to a new file-backed integer `big.matrix` there (one column per size;
#'   its descriptor beside it, the path plus `".desc"`), returned invisibly as clusters
#'   in a file (see [as_big_matrix()]: they read like a matrix and survive [saveRDS()]),
#'   with a message naming the file.
#' @param ... Not used: an argument these methods do not take is an error that names it
#'   (and the nearest argument they do take).
#' @return With `type = "clusters"`, a data frame with one integer column per size (`N2`,
#'   `N3`, ...) and one row per row of `newdata` (with its row names), as `fit$clusters`
#'   (class `somgpu_clusters`: it prints its first rows and a count when long).
#'   With `type = "detail"`, one long data frame, a row per row of `newdata` and size:
#'   `row` (its number in `newdata`), `size`, `cluster`, `distance` (Euclidean, to the
#'   winning neuron, in the fit's distance), `runner_up` (the second nearest neuron) and
#'   `margin` (the runner-up's distance minus the winner's: near 0, the row sits between
#'   two neurons).
#' @seealso [train()]
#' @examples
#' set.seed(1)
#' y <- matrix(runif(600), ncol = 3, dimnames = list(NULL, c("a", "b", "c")))
#' fit <- train(y, nmax = 5, iter_max = 20, seed = 1, threads = 2)
#' predict(fit, y[1:5, ])
#' predict(fit, data.frame(c = 0.5, a = 0.1, b = 0.9, note = "extra"), sizes = c(3, 5))
#' predict(fit, c(a = 0.2, b = NA, c = 0.7), type = "detail")
#' @export
predict.somgpu <- function(object, newdata, sizes = object$params$sizes, threads = NULL,
                           type = c("clusters", "detail"), clusters_file = NULL, ...) {
  call <- compact_call(sys.call(), "predict")
  check_dots_used(list(...), predict.somgpu, "predict()", call)
  type <- if (missing(type)) "clusters" else
    check_choice(type, "type", c("clusters", "detail"), call)
  sizes <- check_fit_sizes(object, sizes, call)
  threads <- resolve_threads(threads, call)
  if (missing(newdata)) { # the training rows: their clusters, kept in the fit
    if (type == "clusters" && is.null(clusters_file)) return(training_clusters(object, sizes, call))
    newdata <- training_newdata(object, call)
  }
  x <- newdata_matrix(newdata, object, call)
  sourced <- inherits(x, "somgpu_file")
  clusters_file <- check_clusters_file(clusters_file, sourced, call)
  if (!is.null(clusters_file) && type == "detail") {
    abort_input("`clusters_file` holds clusters: use it with `type = \"clusters\"`.", call)
  }
  if (is.null(clusters_file)) {
    a <- predict_rows(object, x, sizes, threads, type == "detail", call)
    if (type == "clusters") {
      names(a$clusters) <- paste0("N", sizes)
      return(new_clusters(list2DF(a$clusters), rownames(x)))
    }
    parts <- lapply(seq_along(sizes), function(i) {
      data.frame(row = seq_len(nrow(x)), size = rep(sizes[i], nrow(x)),
                 cluster = a$clusters[[i]], distance = a$distance[[i]],
                 runner_up = a$second[[i]], margin = a$`next`[[i]] - a$distance[[i]])
    })
    return(do.call(rbind, parts))
  }
  predict_rows(object, x, sizes, threads, FALSE, call, clusters_file)
}

# The winner of every row of x (newdata_matrix()'s) on each map of `sizes`, in the fit's
# distance: list(clusters, and with detail distance, second, next), each a list of a vector
# per size over every row of x (NA for rows left out); or, with `clusters_file` (for
# file-backed x), the clusters written there and returned invisibly.
predict_rows <- function(object, x, sizes, threads, detail, call, clusters_file = NULL) {
  sourced <- inherits(x, "somgpu_file")
  scan <- scan_data(x, call, name = "newdata")
  na_max <- if (is.null(object$params$na_max)) 0.5 else object$params$na_max
  # the row pipeline train() shares (data_prepare.R): rows, matrix, magnitudes; file-backed rows
  # are all assigned (read in windows), those left out set to NA after
  rows <- data_rows(x, scan, na_max, object$var_weights, call, read_all = sourced)
  used <- rows$used
  xt <- prepared_matrix(x, used, object$scaling)
  w <- unname(lapply((if (is.null(object$scaling)) object$weights else
    object$scaled_weights)[paste0("N", sizes)], unname))
  a <- NULL
  to <- NULL
  if (nrow(xt) > 0L) {
    check_prepared(xt, scan, rows, object$scaling, object$var_weights, w, "double", call,
                   name = "newdata", trained = TRUE)
    to <- clusters_file_matrix(clusters_file, nrow(x), paste0("N", sizes), call)
    a <- with_clusters_file(to, assess_maps(
      xt, w, threads, rows$dist, call,
      clusters = is.null(to), detail = detail, to = to$file,
      what = "assign the rows to clusters"))
  }
  if (!is.null(to)) { # the clusters are in the file; rows left out get NA there
    if (length(rows$dropped)) to$matrix[rows$dropped, ] <- NA_integer_
    message(sprintf("predict(): the clusters of %.0f rows, %d size%s, went to %s (a file-backed big.matrix, its descriptor beside it)",
                    as.double(nrow(x)), length(sizes), if (length(sizes) == 1L) "" else "s",
                    to$file$path))
    return(invisible(to$clusters))
  }
  # every row of newdata: NA where left out
  all_rows <- function(v, na) {
    out <- rep(na, nrow(x))
    if (!length(v)) return(out)
    if (is.null(used)) out[] <- v else out[used] <- v
    if (sourced) out[rows$dropped] <- na
    out
  }
  what <- c("clusters", if (detail) c("distance", "second", "next"))
  na <- list(clusters = NA_integer_, distance = NA_real_, second = NA_integer_, `next` = NA_real_)
  out <- lapply(what, function(v) lapply(seq_along(sizes), function(i) all_rows(a[[v]][[i]], na[[v]])))
  names(out) <- what
  out
}

# newdata as a double matrix of the fit's columns: by name when newdata has column names
# (every other column dropped before any check, whatever its type), else by position; a
# fit of unnamed columns (V1, V2, ...: params$named FALSE) refuses other names. A named numeric vector is one row; so is an unnamed one of the fit's number of
# columns (for more than one column). Zero rows are allowed.
newdata_matrix <- function(newdata, object, call, name = "newdata") {
  names <- object$params$colnames
  m <- object$params$m
  newdata <- encoded_newdata(newdata, object, call, name) # categorical columns (data_encode.R)
  if (is_file_data(newdata)) newdata <- file_data(newdata, call, min_rows = 1L, name = name)
  if (is.numeric(newdata) && !is.object(newdata) && is.null(dim(newdata)) &&
      ((!is.null(names(newdata)) && !is.null(names)) || (m > 1L && length(newdata) == m))) {
    newdata <- matrix(newdata, nrow = 1L, dimnames = list(NULL, names(newdata)))
  }
  have <- usable_names(if (is.data.frame(newdata)) names(newdata) else colnames(newdata))
  if (!is.null(have) && !inherits(newdata, "somgpu_file")) { # named as training names them
    if (is.data.frame(newdata)) names(newdata) <- have else colnames(newdata) <- have
  }
  if (!is.null(names) && !is.null(have)) {
    absent <- setdiff(names, have)
    if (length(absent) && isFALSE(object$params$named)) {
      abort_input(sprintf(
        "The fit was trained on columns without names (%s, taken by position); `%s` has named columns (%s), which somgpu will not match by position. Pass them unnamed in the training order (e.g. unname(as.matrix(%s))), or train on named columns.",
        name_list(names), name, name_list(have), name), call)
    }
    if (length(absent)) {
      abort_input(sprintf("`%s` lacks the column%s %s of the training data.", name,
                          if (length(absent) == 1L) "" else "s",
                          paste0("`", absent, "`", collapse = ", ")), call)
    }
    newdata <- if (is.data.frame(newdata)) newdata[names] else
      if (inherits(newdata, "somgpu_file")) file_columns(newdata, names) else
        newdata[, names, drop = FALSE]
  }
  x <- if (inherits(newdata, "somgpu_file")) newdata else
    as_data_matrix(newdata, call, min_rows = 0L, name = name)
  if (ncol(x) != m) {
    abort_input(sprintf("`%s` has %d column%s; the maps were trained on %d.", name, ncol(x),
                        if (ncol(x) == 1L) "" else "s", m), call)
  }
  x
}

# The training rows' clusters on `sizes` (predict() without newdata): the fit's own, with
# the training rows' names; clusters in a file, all sizes at once.
training_clusters <- function(object, sizes, call) {
  cl <- object$clusters
  if (!inherits(cl, "somgpu_file_clusters")) return(new_clusters(cl[paste0("N", sizes)]))
  if (setequal(sizes, object$params$sizes)) return(cl)
  abort_input("The fit's clusters are in a file (`clusters_file`), every size at once: predict() without `newdata` gives them all (or read columns of as_big_matrix(fit$clusters)).",
              call)
}

# The rows predict() reads without newdata where it needs them (type = "detail"): those
# the fit keeps.
training_newdata <- function(object, call) {
  if (is.null(object$data)) {
    abort_input("predict() without `newdata` gives the training rows' clusters; their details need the rows, which the fit does not keep (keep_data = FALSE): pass them as `newdata`.",
                call)
  }
  object$data
}

check_fit_sizes <- function(object, sizes, call) {
  ok <- is.numeric(sizes) && length(sizes) >= 1L && !anyNA(sizes) &&
    all(sizes %in% object$params$sizes)
  if (!ok) {
    abort_input(sprintf("`sizes` must be trained sizes of this fit (%s), not %s.",
                        paste(object$params$sizes, collapse = ", "),
                        if (is.numeric(sizes)) describe_bad(sizes, sizes %in% object$params$sizes)
                        else describe(sizes)), call)
  }
  as.integer(sizes)
}

# The rows the fit was trained on: kept in the fit (keep_data = TRUE) or given (columns
# taken by name, as in predict()).
fit_data <- function(object, data, call) {
  if (!is.null(data)) {
    if (is_file_data(data)) {
      abort_input("`data` is file-backed; this needs the rows in memory (e.g. `data = y[, ]` when they fit).",
                  call)
    }
    x <- newdata_matrix(data, object, call, name = "data")
    scan_data(x, call, name = "data")
    return(x)
  }
  if (is.null(object$data)) {
    abort_input(if (isTRUE(object$params$file_backed)) {
      "The fit was trained on file-backed data and keeps none: pass the training rows, in memory, as `data`."
    } else {
      "The fit does not keep its data (keep_data = FALSE): pass the training data as `data`."
    }, call)
  }
  object$data
}
