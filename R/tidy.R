#' Tidy tables of a fit for reports
#'
#' Methods for the generics package's `tidy()`, `glance()` and `augment()`, following
#' broom's conventions for clustering (as `broom::tidy.kmeans()` and friends do; generics
#' is a suggested package): tibbles when the tibble package is installed, data frames
#' otherwise, that `knitr::kable()` prints in a report.
#'
#' `tidy()` and `augment()` describe one ring size: `size` when given, else the size that
#' [summary.somgpu()] suggests (the number of groups its maps show; a message says which;
#' the largest size when it suggests none).
#'
#' @param x A `somgpu` fit from [train()].
#' @param size The ring size to describe (one trained size; see Details).
#' @param quality For `tidy()`: `TRUE` gives the quality table of every map instead (one row
#'   per size and restart).
#' @param data For `augment()`: the rows to add clusters to, all their columns kept
#'   (default: the data the fit keeps; its own clusters); for `tidy()`, the training rows of
#'   a fit that keeps none (for `withinss`). Other rows get the clusters
#'   [predict.somgpu()] gives them.
#' @param newdata For `augment()`: new rows to assign (as [predict.somgpu()]), instead of
#'   `data`.
#' @param all_sizes For `augment()`: also add one integer column of clusters per trained
#'   size, `.cluster_N2`, `.cluster_N3`, ...
#' @param ... Not used: an argument these methods do not take is an error that names it
#'   (and the nearest argument they do take).
#' @return `tidy()`: one row per neuron of the ring with rows: `cluster` (a factor, the
#'   neuron), its weights (one column per variable, in the data's units; for a categorical
#'   column of a data frame a column per level, `column=level`, the neuron's share of the
#'   level), `size` (its rows)
#'   and `withinss` (the sum of its rows' squared distances to it, in the fit's distance;
#'   `NA` without the data). With `quality = TRUE`: `size`, `restart`, `qe`, `te`,
#'   `explained_var` and `best` (the restart kept) for every map. `glance()`: one row per
#'   size, with `size`, `qe`, `te` and `explained_var` of the kept restart, `stability`
#'   (across restarts; `NA` with one) and `rows` (the rows used in training).
#'   `augment()`: the rows (`data` or `newdata`, as a data frame or tibble; the fit's own
#'   rows of a data frame in its columns, categorical ones as factors) with `.cluster`,
#'   a factor of the neurons of the chosen size (`NA` for rows left out); `.group`, each
#'   row's group among those [summary.somgpu()] finds in the fit's data (a fit that keeps
#'   its data; as [select_size()]'s groups, see [tidy.somgpu_selection()]); and with
#'   `all_sizes = TRUE` a column per size.
#' @seealso [summary.somgpu()]
#' @examples
#' if (requireNamespace("generics", quietly = TRUE)) {
#'   fit <- train(iris[, 1:4], nmax = 5, iter_max = 20, restarts = 2, seed = 1, threads = 2)
#'   generics::tidy(fit, size = 3)
#'   generics::tidy(fit, quality = TRUE)
#'   generics::glance(fit)
#'   head(generics::augment(fit, iris, size = 3))
#'   generics::augment(fit, newdata = iris[1:5, ], size = 3)
#' }
#' @name tidy.somgpu
#' @usage \method{tidy}{somgpu}(x, size = NULL, quality = FALSE, data = NULL, ...)
#' @exportS3Method generics::tidy
tidy.somgpu <- function(x, size = NULL, quality = FALSE, data = NULL, ...) {
  call <- compact_call(sys.call(), "tidy")
  check_dots_used(list(...), tidy.somgpu, "tidy()", call)
  quality <- check_flag(quality, "quality", call)
  if (quality) {
    q <- x$quality
    return(as_table(data.frame(size = q$size, restart = q$restart, qe = q$qe, te = q$te,
                               explained_var = q$explained_var, best = q$best)))
  }
  size <- report_size(x, size, "tidy", call)
  w <- x$weights[[paste0("N", size)]]
  rows <- tabulate(size_clusters(x, paste0("N", size), call), size)
  x_data <- if (!is.null(data) || !is.null(x$data)) fit_data(x, data, call)
  withinss <- rep(NA_real_, size)
  if (!is.null(x_data)) {
    d <- stats::predict(x, x_data, sizes = size, type = "detail")
    ok <- !is.na(d$cluster)
    withinss <- vapply(seq_len(size), function(j) sum(d$distance[ok & d$cluster == j]^2), 0)
  }
  out <- data.frame(cluster = factor(seq_len(size)), unname(w))
  names(out)[-1] <- colnames(w)
  out$size <- rows
  out$withinss <- withinss
  as_table(out[rows > 0, , drop = FALSE])
}

#' @rdname tidy.somgpu
#' @usage \method{glance}{somgpu}(x, ...)
#' @exportS3Method generics::glance
glance.somgpu <- function(x, ...) {
  check_dots_used(list(...), glance.somgpu, "glance()", compact_call(sys.call(), "glance"))
  q <- x$quality[x$quality$best, , drop = FALSE]
  as_table(data.frame(size = q$size, qe = q$qe, te = q$te, explained_var = q$explained_var,
                      stability = x$stability$stability[match(q$size, x$stability$size)],
                      rows = x$params$n - length(x$dropped)))
}

#' @rdname tidy.somgpu
#' @usage \method{augment}{somgpu}(x, data = NULL, newdata = NULL, size = NULL,
#'   all_sizes = FALSE, ...)
#' @exportS3Method generics::augment
augment.somgpu <- function(x, data = NULL, newdata = NULL, size = NULL, all_sizes = FALSE,
                           ...) {
  call <- compact_call(sys.call(), "augment")
  check_dots_used(list(...), augment.somgpu, "augment()", call)
  all_sizes <- check_flag(all_sizes, "all_sizes", call)
  rows <- if (!is.null(newdata)) newdata else data
  if (is_file_data(rows)) {
    abort_input("augment() binds the rows to their clusters in memory; for file-backed rows use predict(x, newdata, clusters_file = ...).",
                call)
  }
  # the groups in the data (summary()'s, from the rows the fit keeps), when it keeps them
  s <- if (!is.null(x$data)) summary(x)
  size <- report_size(x, size, "augment", call, s)
  own <- is.null(rows)
  clusters <- if (own) {
    rows <- fit_data(x, NULL, call) # the fit's own rows (or what to do without them)
    x$clusters
  } else {
    stats::predict(x, rows)
  }
  # the fit's own rows of a data frame's categorical columns: the user's columns again
  out <- rows_frame(if (own && !is.null(x$encoding)) decoded_frame(rows, x$encoding) else rows)
  out$.cluster <- factor(clusters[[paste0("N", size)]], levels = seq_len(size))
  g <- s$grouping
  if (!is.null(g)) {
    groups <- if (own && nrow(rows) <= 50000) s$partition else
      predict_groups(g, x, newdata_matrix(rows, x, call), clusters[[paste0("N", g$size)]])
    out$.group <- factor(groups, levels = seq_len(g$groups))
  }
  if (all_sizes) for (nm in names(clusters)) out[[paste0(".cluster_", nm)]] <- clusters[[nm]]
  as_table(out)
}

# The one size tidy() and augment() describe: given (a trained size), else summary()'s
# suggested size (else the largest), said in a message. s: the fit's summary, if made.
report_size <- function(x, size, what, call, s = NULL) {
  if (!is.null(size)) {
    if (length(size) != 1L) abort_input("`size` must be one trained size.", call)
    return(check_fit_sizes(x, size, call))
  }
  if (is.null(s)) s <- summary(x)
  pick <- if (is.na(s$suggested)) max(x$params$sizes) else s$suggested
  message(sprintf("%s(): ring size N = %d, %s; choose another with `size =`.", what, pick,
                  if (!is.na(s$suggested)) sprintf("the size summary() suggests (%s)",
                                                   if (identical(s$rule, "elbow")) "elbow of qe" else "groups in the data")
                  else "the largest (summary() suggests none)"))
  pick
}

# The rows augment() returns, as a data frame: row names as a column, as broom keeps them;
# columns without a name (a matrix's) named V1, V2, ... as data.frame() names them.
rows_frame <- function(rows) {
  out <- as.data.frame(rows, stringsAsFactors = FALSE, optional = TRUE)
  nm <- names(out)
  if (is.null(nm)) nm <- character(length(out))
  blank <- is.na(nm) | !nzchar(nm)
  nm[blank] <- paste0("V", seq_along(out))[blank]
  names(out) <- nm
  if (.row_names_info(out) > 0L) {
    out <- cbind(data.frame(.rownames = row.names(out), stringsAsFactors = FALSE), out)
  }
  out
}

# A tibble when the tibble package is installed, else the data frame.
as_table <- function(df) {
  if (requireNamespace("tibble", quietly = TRUE)) tibble::as_tibble(df) else df
}

#' Tidy tables of a size selection
#'
#' `tidy()` gives a row per group that [select_size()] found: `group` (a factor), `rows`,
#' `stability` (the mean bootstrap Jaccard similarity, as `fpc::clusterboot` reports it)
#' and its `reading`, and the group's mean in the data's units (one column per variable;
#' `NA` for a column of weight 0; a categorical column's levels, `column=level`, the
#' group's probability of each). `augment()` gives rows with `.group`, their group (a
#' factor; `NA` for rows left out): the selection's own rows (when its fit keeps them,
#' `keep_data = TRUE`, or `data` is the data it was run on) or new rows, each in its group
#' as [predict.somgpu_selection()] gives it (the groups' Gaussian mixture, the fine ring's
#' neuron or the nearest grouped row, as the groups were found), which gives the
#' selection's rows their own groups. Tibbles when the tibble package is installed.
#'
#' @param x A `somgpu_selection` from [select_size()].
#' @param data,newdata For `augment()`: the rows (all their columns kept; default: the
#'   rows the selection's fit keeps). `newdata` is the same as `data`, for broom's habit.
#' @param ... Not used: an argument these methods do not take is an error that names it
#'   (and the nearest argument they do take).
#' @return A tibble or data frame (see Description). `glance()` gives one row: `groups`
#'   (1: no group structure), `recommended` (a size or `NA`), `rule` (the rule that found
#'   the groups, as in the selection's `decisions`), `model` (Gaussian groups' covariance
#'   model, mclust's name, else `NA`, as for latent classes of categorical columns alone), `criterion` (its BIC of the classification),
#'   `stability` (the groups' mean bootstrap stability), `rows` (the rows the rule ran on),
#'   `n` (the rows of the data), `sampled`, `bootstrap` and `elapsed` (seconds).
#' @seealso [select_size()], [tidy.somgpu()], [predict.somgpu_selection()]
#' @examples
#' if (requireNamespace("generics", quietly = TRUE)) {
#'   sel <- select_size(iris[1:4], sizes = 2:6, restarts = 2, bootstrap = 4, iter_max = 30,
#'                      scale = TRUE, seed = 1, threads = 2)
#'   generics::tidy(sel)
#'   generics::glance(sel)
#'   head(generics::augment(sel, iris))
#' }
#' @name tidy.somgpu_selection
#' @usage \method{tidy}{somgpu_selection}(x, ...)
#' @exportS3Method generics::tidy
tidy.somgpu_selection <- function(x, ...) {
  check_dots_used(list(...), tidy.somgpu_selection, "tidy()", compact_call(sys.call(), "tidy"))
  g <- selection_grouping(x, compact_call(sys.call(), "tidy"))
  gt <- x$group_table
  if (is.null(g) || is.null(gt)) {
    return(as_table(data.frame(group = factor(integer(0)), rows = integer(0))))
  }
  fit <- x$fit
  mu <- g$par$mean
  if (!is.null(fit$var_weights)) mu <- sweep(mu, 2, sqrt(fit$var_weights), "/")
  mu[!is.finite(mu)] <- NA_real_
  mu <- unscale_weights(mu, fit$scaling)
  names <- colnames(fit$weights[[1L]])
  out <- data.frame(group = factor(gt$group), rows = gt$rows, stability = gt$stability,
                    reading = gt$reading)
  means <- as.data.frame(unname(mu))
  names(means) <- names
  as_table(cbind(out, means))
}

#' @rdname tidy.somgpu_selection
#' @usage \method{augment}{somgpu_selection}(x, data = NULL, newdata = NULL, ...)
#' @exportS3Method generics::augment
augment.somgpu_selection <- function(x, data = NULL, newdata = NULL, ...) {
  call <- compact_call(sys.call(), "augment")
  check_dots_used(list(...), augment.somgpu_selection, "augment()", call)
  rows <- if (!is.null(newdata)) newdata else data
  if (is_file_data(rows)) {
    abort_input("augment() binds the rows to their groups in memory; pass rows in memory.", call)
  }
  if (is.null(rows) && is.null(x$fit$data)) {
    abort_input(paste(if (isTRUE(x$fit$params$file_backed)) {
      "The selection was made on file-backed data and keeps none: pass its rows, in memory, as `data`."
    } else {
      "The selection keeps no data (select_size(keep_data = TRUE) keeps it): pass the rows it was made on as `data`."
    }, "Every row's group is in", if (is.null(x$groups_file)) "`partition`." else
      "its groups file (as_big_matrix(selection))."), call)
  }
  own <- is.null(rows)
  if (own && !is.null(x$reduction)) {
    abort_input("The selection's maps kept the principal components of its rows, not their columns: pass the rows it was made on as `data`.", call)
  }
  if (own) rows <- fit_data(x$fit, NULL, call)
  groups <- stats::predict(x, rows)
  out <- rows_frame(if (own && !is.null(x$fit$encoding)) decoded_frame(rows, x$fit$encoding) else rows)
  out$.group <- factor(groups, levels = seq_len(max(1L, x$groups, na.rm = TRUE)))
  as_table(out)
}

#' @rdname tidy.somgpu_selection
#' @usage \method{glance}{somgpu_selection}(x, ...)
#' @exportS3Method generics::glance
glance.somgpu_selection <- function(x, ...) {
  call <- compact_call(sys.call(), "glance")
  check_dots_used(list(...), glance.somgpu_selection, "glance()", call)
  g <- selection_grouping(x, call)
  st <- x$strategy
  as_table(data.frame(
    groups = x$groups, recommended = x$recommended,
    rule = if (is.null(g)) NA_character_ else g$rule,
    model = reported_model(g),
    criterion = if (is.null(g)) NA_real_ else g$criterion,
    stability = if (is.null(x$group_table) || x$groups < 2L) NA_real_ else
      mean(x$group_table$stability, na.rm = TRUE),
    rows = if (is.null(g)) NA_integer_ else as.integer(g$rows),
    n = st$n, sampled = st$sampled,
    components = if (is.null(st$components)) NA_integer_ else st$components,
    bootstrap = x$bootstrap, elapsed = x$elapsed))
}
