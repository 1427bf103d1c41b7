# summary() of a fit: a row per size and the suggested size.

#' Summarise a family of ring SOMs and suggest a size
#'
#' One row per ring size with the kept restart's quantization error (`qe`), topographic
#' error (`te`) and explained variance, the stability across restarts (mean adjusted Rand
#' index between the restarts' clusterings; `NA` with one restart), and the smallest and
#' largest cluster.
#'
#' The suggested size comes from the groups found on this one fit's largest map: its
#' Gaussian groups (see [select_size()], "How the groups are chosen", rule gaussian), and
#' the size with a neuron per group. This is not always [select_size()]'s answer, which
#' also tries groups of other shapes (rules connected, apart, sparse, bimodal) and checks
#' them on bootstrap replicates; the printed reason says so. With
#' one group (no group structure) there is none. A fit trained with the same arguments and
#' seed as [select_size()]'s (with `sigma0 = "auto"`) gets the Gaussian groups its rule
#' gaussian found, every row in the same one. The groups use the fit's data (`keep_data = TRUE`, the default; at most
#' 50,000 rows, evenly spaced) or `data`. Without them, the suggestion is the elbow of qe
#' against size, a rough guide: the size whose point lies farthest below the straight line
#' from the smallest to the largest size, both axes scaled to \[0, 1\] (at least three
#' sizes). So it is too for a fit of 64 columns or more (a wide table, numeric), whose
#' groups [select_size()] finds on the leading principal components (its "Wide data").
#'
#' @param object A `somgpu` fit from [train()].
#' @param data The training rows, for a fit that keeps none (`keep_data = FALSE`).
#' @param x A `summary.somgpu` object.
#' @param ... Ignored.
#' @return A list of class `summary.somgpu`: `table` (a data frame with columns `size`, `qe`,
#'   `te`, `explained_var`, `stability`, `smallest`, `largest`), `groups` (the number of
#'   groups in the data; `NA` without data), `partition` (each row's group, for the rows
#'   the groups were found on; `NULL` without data), `grouping` (how they were found, as
#'   in [select_size()]'s result), `suggested` (a size or `NA`), `rule`
#'   (`"groups"` or `"elbow"`), `reason`, and `dropped` (the number of rows left out for
#'   missing values) of `n` rows.
#' @seealso [train()], [plot.somgpu()], [select_size()]
#' @examples
#' set.seed(1)
#' y <- rbind(matrix(rnorm(300, 0, 0.1), ncol = 3), matrix(rnorm(300, 1, 0.1), ncol = 3))
#' fit <- train(y, nmax = 6, iter_max = 20, restarts = 2, seed = 1, threads = 2)
#' summary(fit)
#' @export
summary.somgpu <- function(object, data = NULL, ...) {
  call <- compact_call(sys.call(), "summary")
  q <- object$quality[object$quality$best, , drop = FALSE]
  sizes <- object$params$sizes
  cl <- fit_clusters(object, call)
  counts <- lapply(seq_along(sizes),
                   function(i) tabulate(size_clusters(object, i, cl = cl), sizes[i]))
  tab <- data.frame(size = q$size, qe = q$qe, te = q$te, explained_var = q$explained_var,
                    stability = object$stability$stability,
                    smallest = vapply(counts, min, integer(1)),
                    largest = vapply(counts, max, integer(1)))
  wide <- wide_fit(object)
  answer <- if (!wide) fit_answer(object, data, cl, call)
  pick <- if (!is.null(answer)) {
    found <- recommend_size(answer$grouping, sort(sizes), "fit's ", rows = answer$x)
    found$reason <- paste(found$reason, fit_groups_caveat)
    found
  } else {
    list(groups = NA_integer_, size = elbow(q$size, q$qe), reason = paste(
      if (wide) {
        sprintf("The fit has %s columns, whose groups select_size() finds on their principal components: this is the elbow of qe, a rough guide;",
                format(object$params$m, big.mark = ","))
      } else {
        "The fit keeps no data to find groups in (pass them as `data`): this is the elbow of qe, a rough guide;"
      },
      "select_size() finds the groups and checks them on bootstrap replicates."))
  }
  structure(list(table = tab, groups = pick$groups, suggested = pick$size,
                 partition = answer$grouping$partition, grouping = answer$grouping,
                 rule = if (is.null(answer)) "elbow" else "groups", reason = pick$reason,
                 restarts = object$params$restarts, algorithm = object$params$algorithm,
                 dropped = length(object$dropped), n = object$params$n),
            class = "summary.somgpu")
}

# What a fit's groups are not: select_size()'s answer, which may be another rule's and is
# checked on replicates (summary() says it after the groups' reason).
fit_groups_caveat <- paste(
  "(The Gaussian groups of this fit's largest map alone: select_size() also tries groups",
  "of other shapes and checks them on bootstrap replicates, so its answer may differ.)")

# Whether a fit's columns are a wide table (numeric, from "wide_columns" on), whose groups
# only select_size() finds, on their components (R/select_reduce.R): the Gaussian rule on
# the columns themselves costs the cube of their number (minutes at 2,000).
wide_fit <- function(object) wide_auto("auto", object$params$m, object$encoding)

# The groups of a fit (fit_grouping() on its largest map), from its own data (at most
# 50,000 rows, evenly spaced) or `data`: list(x, grouping), or NULL without data. cl: the
# fit's clusters (fit_clusters()), the winners of its own rows.
fit_answer <- function(object, data, cl, call) {
  if (is.null(data) && is.null(object$data)) return(NULL)
  x <- fit_data(object, data, call)
  top <- which.max(object$params$sizes)
  keep <- if (nrow(x) > 50000) unique(round(seq(1, nrow(x), length.out = 50000)))
  if (!is.null(keep)) x <- x[keep, , drop = FALSE]
  winners <- if (is.null(data)) {
    w <- size_clusters(object, top, cl = cl)
    if (is.null(keep)) w else w[keep]
  } else {
    stats::predict(object, x, sizes = object$params$sizes[top])[[1L]]
  }
  list(x = x, grouping = fit_grouping(object, x, winners))
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
  fmt <- data.frame(size = tab$size, qe = format_figure(tab$qe), te = sprintf("%.4f", tab$te),
                    explained = sprintf("%.3f", tab$explained_var),
                    stability = ifelse(is.na(tab$stability), "-", sprintf("%.3f", tab$stability)),
                    smallest = tab$smallest, largest = tab$largest)
  print(fmt, row.names = FALSE, right = TRUE)
  rule <- if (identical(x$rule, "elbow")) "elbow of qe" else "groups in the data"
  cat(sprintf("suggested size (%s): %s\n", rule,
              if (!is.na(x$suggested)) x$suggested else if (identical(x$rule, "elbow"))
                "none (fewer than 3 sizes)" else "none"))
  if (!is.null(x$reason)) cat(wrap_text(x$reason), sep = "\n")
  invisible(x)
}

#' Summarise a selection: the groups found, in a few lines
#'
#' The answer of [select_size()] without its per-size table: how many groups, which rule
#' found them, how stable each is, which size has a neuron per group, what the call ran on,
#' and the decision of every rule in the order they were tried (the selection's
#' `decisions`). `print()` of the selection shows the criteria per size as well;
#' `generics::glance()` gives the same facts as one row.
#'
#' @param object A `somgpu_selection` from [select_size()].
#' @param x A `summary.somgpu_selection` object.
#' @param ... Ignored.
#' @return A list of class `summary.somgpu_selection`: `groups` (the number of groups; 1:
#'   no group structure), `told` (whether the call gave the number, `groups = k`), `rule`
#'   (the rule that found the groups: `"gaussian"`, `"told"`, `"connected"`, `"apart"`,
#'   `"sparse"`, `"bimodal"` or `"graph"`; see [select_size()], "How the groups are chosen"),
#'   `model` (the Gaussian groups' covariance model, mclust's name such as `"VVV"`, or
#'   `NA`: groups not Gaussian, or latent classes of categorical columns alone), `latent`
#'   (whether the groups are such latent classes), `recommended` (a size or `NA`),
#'   `reason`, `decisions` (as in [select_size()]'s result), `group_table`, `noise_rows`
#'   (the number of rows in no group, with `noise = TRUE`, else `NULL`), `rows` (the rows
#'   in a group), `n` (the rows of the data), `sampled` (whether
#'   the groups were found on a sample of the rows), `ran_on` (the rows they were found
#'   on), `bootstrap` (the replicates run) and `elapsed` (seconds).
#' @seealso [select_size()], [tidy.somgpu_selection()]
#' @examples
#' set.seed(1)
#' y <- rbind(matrix(rnorm(300, 0, 0.3), ncol = 3), matrix(rnorm(300, 3, 0.3), ncol = 3))
#' sel <- select_size(y, sizes = 2:5, restarts = 1, bootstrap = 4, iter_max = 20,
#'                    seed = 1, threads = 2)
#' summary(sel)
#' @export
summary.somgpu_selection <- function(object, ...) {
  g <- selection_grouping(object, compact_call(sys.call(), "summary"))
  st <- object$strategy
  structure(list(
    groups = object$groups, told = !is.null(g) && !is.na(g$told),
    rule = if (is.null(g)) NA_character_ else g$rule,
    model = reported_model(g), latent = !is.null(g) && latent_only(g$par),
    recommended = object$recommended, reason = object$reason,
    decisions = object$decisions, group_table = object$group_table,
    noise_rows = object$noise_rows,
    rows = if (!is.null(object$group_table)) sum(object$group_table$rows) else
      if (is.null(g)) 0L else as.integer(g$rows),
    n = st$n, sampled = st$sampled, ran_on = if (is.null(g)) NA_integer_ else as.integer(g$rows),
    bootstrap = object$bootstrap, elapsed = object$elapsed),
    class = "summary.somgpu_selection")
}

#' @rdname summary.somgpu_selection
#' @export
print.summary.somgpu_selection <- function(x, ...) {
  cat(sprintf("%s group%s (%s%s); recommended size: %s\n", format(x$groups),
              if (identical(x$groups, 1L)) "" else "s", rule_words(x$rule, x$model, x$groups, x$latent),
              if (x$told) ", told their number" else "",
              if (is.na(x$recommended)) "none" else sprintf("N = %d", x$recommended)))
  cat(sprintf("%s of %s grouped%s; %d replicates; %.1f s\n",
              format(x$rows, big.mark = ","), count_text(x$n, "row"),
              if (isTRUE(x$sampled)) sprintf(" (the groups found on a sample of %s)",
                                             format(x$ran_on, big.mark = ",")) else "",
              x$bootstrap,
              if (is.null(x$elapsed)) NA_real_ else x$elapsed))
  if (!is.null(x$group_table) && nrow(x$group_table) > 1L) {
    gt <- x$group_table
    gt$stability <- sprintf("%.2f", gt$stability)
    print(gt, row.names = FALSE, right = TRUE)
  }
  if (!is.null(x$noise_rows)) {
    cat(sprintf("in no group: %s\n", count_text(x$noise_rows, "row")))
  }
  if (!is.null(x$decisions)) {
    cat("how the groups were chosen (`decisions`, in order):\n")
    cat(decision_lines(x$decisions), sep = "\n")
  }
  invisible(x)
}

# The elbow of a decreasing curve: the size whose point is farthest below the straight line
# joining the first and last points, both axes scaled to [0, 1]. NA for fewer than 3 sizes.
elbow <- function(sizes, qe) {
  o <- order(sizes)
  s <- sizes[o]
  q <- qe[o]
  if (length(s) < 3L || diff(range(q)) == 0) return(NA_integer_)
  xs <- (s - s[1]) / (s[length(s)] - s[1])
  ys <- (q - min(q)) / diff(range(q))
  line <- ys[1] + (ys[length(ys)] - ys[1]) * xs
  as.integer(s[which.max(line - ys)])
}
