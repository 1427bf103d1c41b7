#' Tidy tables of a fit for reports
#'
#' Methods for the generics package's `tidy()`, `glance()` and `augment()` (as broom users
#' know them; generics is a suggested package): plain data frames that
#' `knitr::kable()` prints in a report.
#'
#' @param x A `somgpu` fit from [train()].
#' @param data For `augment()`: the rows to add clusters to, all their columns kept
#'   (default: the data the fit keeps). Rows other than the training rows get the clusters
#'   [predict.somgpu()] gives them.
#' @param ... Ignored.
#' @return `tidy()`: one row per size and restart, with `size`, `restart`, `qe`, `te`,
#'   `explained_var` and `best` (the restart kept). `glance()`: one row per size, with
#'   `size`, `qe`, `te` and `explained_var` of the kept restart, `stability` (across
#'   restarts; `NA` with one) and `rows` (the rows used in training). `augment()`: `data` as
#'   a data frame with one column of clusters per size, `.cluster_N2`, `.cluster_N3`, ...
#' @seealso [summary.somgpu()]
#' @examples
#' if (requireNamespace("generics", quietly = TRUE)) {
#'   fit <- train(iris[, 1:4], nmax = 5, iter_max = 20, restarts = 2, seed = 1, threads = 2)
#'   generics::tidy(fit)
#'   generics::glance(fit)
#'   head(generics::augment(fit, iris))
#' }
#' @name tidy.somgpu
#' @exportS3Method generics::tidy
tidy.somgpu <- function(x, ...) {
  q <- x$quality
  data.frame(size = q$size, restart = q$restart, qe = q$qe, te = q$te,
             explained_var = q$explained_var, best = q$best)
}

#' @rdname tidy.somgpu
#' @exportS3Method generics::glance
glance.somgpu <- function(x, ...) {
  q <- x$quality[x$quality$best, , drop = FALSE]
  data.frame(size = q$size, qe = q$qe, te = q$te, explained_var = q$explained_var,
             stability = x$stability$stability[match(q$size, x$stability$size)],
             rows = x$params$n - length(x$dropped))
}

#' @rdname tidy.somgpu
#' @exportS3Method generics::augment
augment.somgpu <- function(x, data = NULL, ...) {
  call <- compact_call(sys.call(), "augment")
  if (is_file_data(data)) {
    abort_input("augment() binds the rows to their clusters in memory; for file-backed rows use predict(x, data, clusters_file = ...).",
                call)
  }
  clusters <- if (is.null(data)) {
    if (is.null(x$data)) {
      abort_input(if (isTRUE(x$params$file_backed)) {
        "The fit was trained on file-backed data and keeps none: pass rows in memory as `data`."
      } else {
        "The fit does not keep its data (keep_data = FALSE): pass the rows as `data`."
      }, call)
    }
    data <- x$data
    x$clusters
  } else {
    stats::predict(x, data)
  }
  out <- as.data.frame(data, stringsAsFactors = FALSE)
  for (nm in names(clusters)) out[[paste0(".cluster_", nm)]] <- clusters[[nm]]
  out
}
