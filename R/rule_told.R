# Rule "told": select_size(groups = k) partitions the rows into exactly k groups from the
# same maps. Two candidates: the Gaussian groups of the largest map's cells (rule_gaussian.R: the
# best covariance model's partition into k groups on the way of its agglomeration, refined
# by EM), and the rows' own groups (Genie's linkage on their minimum spanning tree,
# rule_linkage.R, cut into k groups). With shape "auto" the rows' groups are taken when every
# cut they make is a gap: each edge of the tree between two of them longer than
# "gap_times" times the tree's "gap_quantile" quantile. Otherwise the Gaussian groups: their
# cuts run through data where no gap separates the groups, as between overlapping Gaussian
# groups, where a linkage splits off outliers instead. shape "gaussian" or "connected"
# takes that candidate alone. detail: list(gap, the rows' groups' narrowest gap over the
# quantile, NA when not computed; gaps, that of every cut into 1..k + 1 groups, NULL when
# not computed).
rule_told <- function(inputs, current) {
  k <- inputs$settings$told
  shape <- inputs$settings$shape
  fit <- inputs$fit
  gauss <- if (shape != "connected") fit_grouping(fit, inputs$x, inputs$top, G = k)
  if (!is.null(gauss) && gauss$groups != k) gauss <- NULL # EM lost a group
  rows <- input_rows(inputs)
  if (!length(rows$rows)) return(declined("told", "no row has a winner on the largest map"))
  conn <- if (shape != "gaussian" || is.null(gauss)) {
    linkage_cut(rows$x, k, every = TRUE,
                mst = if (k > 1L && nrow(rows$x) >= k) input_tree(inputs))
  }
  gap <- if (is.null(conn)) NA_real_ else conn$gap
  detail <- list(gap = gap, gaps = conn$gaps)
  times <- tuned("gap_times")
  test <- list(statistic = "narrowest gap / link quantile", value = gap, threshold = times,
               constant = "gap_times")
  if (!is.null(conn) && (is.null(gauss) || shape == "connected" || (is.finite(gap) && gap > times))) {
    why <- if (shape == "connected") "shape = \"connected\"" else if (is.null(gauss)) {
      "no Gaussian candidate"
    } else sprintf("every cut a gap (%s > %s)", figure(gap), times)
    g <- linkage_grouping("told", fit, inputs$x, rows, conn$labels,
                          if (!is.null(gauss)) gauss$scores, detail, told = k)
    return(do.call(accepted, c(list("told", g, sprintf("%d groups of the rows' linkage: %s", k, why)), test)))
  }
  if (is.null(gauss)) return(declined("told", sprintf("fewer rows than %d groups", k)))
  why <- if (shape == "gaussian") "shape = \"gaussian\"" else if (is.na(gap)) {
    "the rows' linkage gives no cut to measure"
  } else sprintf("the rows' linkage cuts through data (%s <= %s)", figure(gap), times)
  g <- update_grouping(gauss, rule = "told", told = k, detail = detail)
  do.call(accepted, c(list("told", g, sprintf("%s: %s", mixture_label(g$model, k, g$par), why)), test))
}

# The reason's words for groups told their number (rule_table()'s `found`): the rows'
# linkage or the Gaussian groups, and the linkage's narrowest gap where it was measured.
told_found <- function(grouping, on) {
  g <- grouping$groups
  dt <- grouping$detail
  gap <- if (!is.na(dt$gap)) sprintf(
    "; the rows' linkage's narrowest gap is %.2f times the rows' %s%% neighbour link", dt$gap,
    format(100 * tuned("gap_quantile"))) else ""
  if (grouping$assign == "rows") {
    return(sprintf("Told %s: the rows joined by Genie's linkage%s%s", count_words(g, "group"),
                   if (isTRUE(dt$gap > tuned("gap_times"))) ", every cut a gap in the data" else "",
                   gap))
  }
  sprintf("Told %s: joined from %s, %s%s", count_words(g, "group"), on,
          mixture_words(grouping$model, g, grouping$par), gap)
}

told_kind <- function(gaussian) if (is.null(gaussian)) "the rows' linkage" else gaussian

# The figure's panel: the rows' linkage's narrowest gap per number of groups, where it
# was measured (else the Gaussian criterion's).
told_panel <- function(g) {
  if (!is.null(g$detail$gaps)) gap_panel(g$detail$gaps, sprintf("gap / %s%% link", format(100 * tuned("gap_quantile"))))
}
