#' Convert one ring of a fit to a kohonen object
#'
#' Builds a `kohonen` object (the class of the kohonen package) for the ring of the given
#' size, so that kohonen's tools (and packages built on them, such as aweSOM) can plot and
#' map it: the grid is `kohonen::somgrid(N, 1, "rectangular", toroidal = TRUE)` with a
#' Gaussian neighbourhood, the codes are the ring's weights, and `unit.classif` and
#' `distances` (squared distance of each row to its unit, in the fit's distance, over the
#' observed values) come from [predict.somgpu()]; rows left out for missing values are `NA`
#' and listed in `na.rows`. A fit on a data frame with categorical columns gives kohonen's
#' layers: `"numeric"` (the numeric columns, when there are some), then a layer per
#' categorical column, named by it, its indicators a column per level (kohonen's class
#' matrices, `codes` the level shares), every layer with the `"sumofsquares"` distance and
#' weight 1, so that their sum is the fit's distance (kohonen maps a row missing a whole
#' layer to `NA`, where the fit places it by its other columns).
#'
#' The codes and the data are in the space the maps trained in, so that kohonen's own
#' distance is the fit's and `kohonen::map()` agrees with `unit.classif`: for a fit with
#' `scale` or `var_weights`, each column centred and scaled as the fit scales it and
#' multiplied by the square root of its weight (without either, the data's units). The
#' object's attribute `somgpu_transform` holds `center`, `scale` and `multiplier` (`NULL`
#' when not used); map new rows after the same transform, e.g.
#' `sweep(scale(new, tr$center, tr$scale), 2, tr$multiplier, "*")`. `fit$weights` stay in
#' the data's units.
#' When the fit has a trace (`train(trace = TRUE)`), `changes` is the kept map's
#' quantization error after every pass (a one-column matrix), so that
#' `plot(as_kohonen(fit, N), type = "changes")` shows its training progress; otherwise
#' `NULL`. Requires the kohonen package.
#'
#' @param fit A `somgpu` fit from [train()], or a [select_size()] result (its fit on all
#'   rows, `fit$fit`).
#' @param size The ring size to convert; `NULL` (the default) takes the size a selection
#'   recommends, else the size that [summary.somgpu()] suggests, as [tidy.somgpu()] does (a
#'   message says which).
#' @param data The training rows, when the fit does not keep them (`keep_data = FALSE`).
#' @return An object of class `kohonen`.
#' @seealso [train()]
#' @examples
#' if (requireNamespace("kohonen", quietly = TRUE)) {
#'   set.seed(1)
#'   y <- matrix(runif(600), ncol = 3, dimnames = list(NULL, c("a", "b", "c")))
#'   fit <- train(y, nmax = 6, iter_max = 20, seed = 1, threads = 2)
#'   k <- as_kohonen(fit, 5)
#'   k
#'   table(k$unit.classif)
#'   traced <- train(y, sizes = 5, iter_max = 20, trace = TRUE, seed = 1, threads = 2)
#'   plot(as_kohonen(traced, 5), type = "changes")
#' }
#' @export
as_kohonen <- function(fit, size = NULL, data = NULL) {
  call <- compact_call(sys.call(), "as_kohonen")
  need_packages("kohonen", "as_kohonen()", call)
  if (inherits(fit, "somgpu_selection")) { # its fit on all rows, at the recommended size
    if (is.null(size) && !is.na(fit$recommended)) {
      size <- fit$recommended
      message(sprintf("as_kohonen(): ring size N = %d, the size the selection recommends; choose another with `size =`.",
                      size))
    }
    fit <- fit$fit
  }
  if (!inherits(fit, "somgpu")) {
    abort_input(sprintf("`fit` must be a somgpu fit from train() or a selection from select_size(), not %s.",
                        describe(fit)), call)
  }
  x <- fit_data(fit, data, call)
  size <- report_size(fit, size, "as_kohonen", call,
                      if (is.null(size)) summary(fit, data = if (!is.null(data)) x))
  d <- stats::predict(fit, x, sizes = size, type = "detail")
  # codes and data in the space the maps trained in, where kohonen's own distance is the fit's
  space <- training_space(fit, x)
  codes <- space$weights[[match(size, fit$params$sizes)]]
  dimnames(codes) <- list(paste0("V", seq_len(size)), colnames(x))
  xs <- space$x
  dimnames(xs) <- dimnames(x)
  changes <- NULL
  if (!is.null(fit$trace)) {
    q <- fit$quality
    kept <- q$restart[q$size == size & q$best]
    changes <- matrix(fit$trace[, sprintf("N%d.%d", size, kept)], ncol = 1L)
  }
  transform <- if (!is.null(fit$scaling) || !is.null(fit$var_weights)) {
    list(center = if (!is.null(fit$scaling)) fit$scaling$center,
         scale = if (!is.null(fit$scaling)) fit$scaling$scale,
         multiplier = if (!is.null(fit$var_weights)) sqrt(fit$var_weights))
  }
  # a data frame's categorical columns: a layer each (kohonen's class matrices, a column
  # per level), the numeric columns one layer; every layer's distance a sum of squares,
  # weighted 1, so that their sum is the fit's
  layers <- kohonen_layers(fit$encoding, ncol(x))
  split_layers <- function(m) {
    lapply(layers, function(cols) {
      out <- m[, cols, drop = FALSE]
      if (!is.null(fit$encoding) && !anyNA(fit$encoding$level[cols])) {
        colnames(out) <- fit$encoding$level[cols]
      }
      out
    })
  }
  L <- length(layers)
  structure(list(
    data = split_layers(xs),
    unit.classif = as.numeric(d$cluster),
    distances = d$distance^2,
    grid = kohonen::somgrid(size, 1, "rectangular", neighbourhood.fct = "gaussian",
                            toroidal = TRUE),
    codes = split_layers(codes),
    changes = changes,
    alpha = c(fit$params$eta0, 0),
    radius = c(rep_len(fit$params$sigma0, length(fit$params$sizes))[match(size, fit$params$sizes)], 0),
    na.rows = which(is.na(d$cluster)),
    user.weights = rep(1, L),
    distance.weights = rep(1, L),
    whatmap = seq_len(L),
    maxNA.fraction = if (is.null(fit$params$na_max)) 0.5 else fit$params$na_max,
    dist.fcts = rep("sumofsquares", L)
  ), class = "kohonen", somgpu_transform = transform)
}

# The columns of each of kohonen's layers: all m in one without an encoding; with one, the
# numeric columns in a layer named "numeric" (when there are some), then a layer per
# categorical column, named by it.
kohonen_layers <- function(enc, m) {
  if (is.null(enc)) return(list(seq_len(m)))
  num <- which(is.na(enc$level))
  levelled <- unique(enc$column[!is.na(enc$level)])
  out <- c(if (length(num)) list(numeric = num),
           lapply(levelled, function(k) which(enc$column == k)))
  names(out)[(length(out) - length(levelled) + 1L):length(out)] <- enc$columns[levelled]
  out
}
