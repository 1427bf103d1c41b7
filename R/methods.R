# Methods for fits: summary (predict is in predict.R, plot in plot.R).

check_fit_sizes <- function(object, sizes, call) {
  ok <- is.numeric(sizes) && length(sizes) >= 1L && !anyNA(sizes) &&
    all(sizes %in% object$params$sizes)
  if (!ok) {
    abort_input(sprintf("`sizes` must be trained sizes of this fit (%s), not %s.",
                        paste(object$params$sizes, collapse = ", "), describe(sizes)), call)
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

#' Summarise a family of ring SOMs and suggest a size
#'
#' One row per ring size with the kept restart's quantization error (`qe`), topographic
#' error (`te`) and explained variance, the stability across restarts (mean adjusted Rand
#' index between the restarts' clusterings; `NA` with one restart), and the smallest and
#' largest cluster. The suggested size is the elbow of qe against size: the size whose point
#' lies farthest below the straight line from the smallest to the largest size, both axes
#' scaled to \[0, 1\] (at least three sizes; `NA` otherwise). For a choice backed by
#' held-out error and bootstrap stability, see [select_size()].
#'
#' @param object A `somgpu` fit from [train()].
#' @param x A `summary.somgpu` object.
#' @param ... Ignored.
#' @return A list of class `summary.somgpu`: `table` (a data frame with columns `size`, `qe`,
#'   `te`, `explained_var`, `stability`, `smallest`, `largest`), `suggested` (a size), and
#'   `dropped` (the number of rows left out for missing values) of `n` rows.
#' @seealso [train()], [plot.somgpu()], [select_size()]
#' @examples
#' set.seed(1)
#' y <- rbind(matrix(rnorm(300, 0, 0.1), ncol = 3), matrix(rnorm(300, 1, 0.1), ncol = 3))
#' fit <- train(y, nmax = 6, iter_max = 20, restarts = 2, seed = 1, threads = 2)
#' summary(fit)
#' @export
summary.somgpu <- function(object, ...) {
  q <- object$quality[object$quality$best, , drop = FALSE]
  sizes <- object$params$sizes
  counts <- lapply(seq_along(sizes), function(i) tabulate(size_clusters(object, i), sizes[i]))
  tab <- data.frame(size = q$size, qe = q$qe, te = q$te, explained_var = q$explained_var,
                    stability = object$stability$stability,
                    smallest = vapply(counts, min, integer(1)),
                    largest = vapply(counts, max, integer(1)))
  structure(list(table = tab, suggested = elbow(q$size, q$qe),
                 restarts = object$params$restarts, algorithm = object$params$algorithm,
                 dropped = length(object$dropped), n = object$params$n),
            class = "summary.somgpu")
}

#' @rdname summary.somgpu
#' @export
print.summary.somgpu <- function(x, ...) {
  cat(sprintf("ring SOMs: %d sizes, %d restart%s each (%s)\n", nrow(x$table), x$restarts,
              if (x$restarts == 1L) "" else "s", x$algorithm))
  if (length(x$dropped) && x$dropped > 0) {
    cat(sprintf("%d of %d rows left out for missing values (their clusters are NA)\n",
                x$dropped, x$n))
  }
  tab <- x$table
  fmt <- data.frame(size = tab$size, qe = sprintf("%.4f", tab$qe), te = sprintf("%.4f", tab$te),
                    explained = sprintf("%.3f", tab$explained_var),
                    stability = ifelse(is.na(tab$stability), "-", sprintf("%.3f", tab$stability)),
                    smallest = tab$smallest, largest = tab$largest)
  print(fmt, row.names = FALSE, right = TRUE)
  cat(sprintf("suggested size (elbow of qe): %s\n",
              if (is.na(x$suggested)) "none (fewer than 3 sizes)" else x$suggested))
  invisible(x)
}
