# A grouping: the groups found in the rows, which rule found them and how a new row joins
# them. Built by new_grouping() alone, with a fixed set of fields; a step that changes one
# (the rows in no group) builds another from it (update_grouping()), so a grouping a rule
# returned is never changed in place. Also the rows in the space the maps trained in, and
# new rows' groups, which every rule's groups share.

# How a new row joins the groups: "mixture", its most probable Gaussian group; "neurons",
# its winner neuron's group on the grouping's ring; "rows", its nearest grouped row's
# group. (The rules that find groups are R/rule_table.R's rule_table(), above this file: its
# runner checks that a rule's groups name a rule of the table.)
grouping_assigns <- c("mixture", "neurons", "rows")

# The fields, in order. rule; groups (their number); model (the Gaussian groups'
# covariance model, mclust's name, NA for groups that are no mixture); criterion (its BIC
# of the classification, NA otherwise); scores (every Gaussian candidate's criterion by
# model and number of groups, or NULL); par (the groups' proportions and means, for a
# mixture their covariances too, in the space the maps trained in); size (the ring the
# groups live on); neurons (each neuron's group, NA without rows); partition (each row the
# rule saw its group, NA for rows left out or in no group); rows (the rows grouped);
# occupied (the neurons holding group_min_rows()); cells (the neurons whose cells were
# joined); assign; fine (for "neurons", the fit of the ring the groups live on, else NULL);
# ref, ref_group (for "rows", the grouped rows in the maps' space and their groups); told
# (the number of groups the call asked for, else NA); noise (the rows in no group,
# noise_grouping()'s, else NULL); detail (the rule's own figures per number of groups, for
# plot() and the reason: see each rule).
grouping_fields <- c("rule", "groups", "model", "criterion", "scores", "par", "size",
                     "neurons", "partition", "rows", "occupied", "cells", "assign", "fine",
                     "ref", "ref_group", "told", "noise", "detail")

new_grouping <- function(rule, groups, par, size, neurons, partition, rows, occupied, cells,
                         assign, model = NA_character_, criterion = NA_real_, scores = NULL,
                         fine = NULL, ref = NULL, ref_group = NULL, told = NA_integer_,
                         noise = NULL, detail = list()) {
  out <- list(rule = rule, groups = as.integer(groups), model = as.character(model),
              criterion = as.double(criterion), scores = scores, par = par,
              size = as.integer(size), neurons = as.integer(neurons),
              partition = as.integer(partition), rows = as.integer(rows),
              occupied = as.integer(occupied), cells = as.integer(cells), assign = assign,
              fine = fine, ref = ref, ref_group = ref_group, told = as.integer(told),
              noise = noise, detail = detail)
  validate_grouping(out)
}

# A grouping's invariants (a broken one is a bug here, not the user's input).
validate_grouping <- function(g) {
  bad <- function(what) check_internal(FALSE, sprintf("a grouping with %s", what))
  if (!identical(names(g), grouping_fields)) bad("other fields")
  if (!is.character(g$rule) || length(g$rule) != 1L || is.na(g$rule)) bad(sprintf("rule %s", describe(g$rule)))
  if (!isTRUE(g$assign %in% grouping_assigns)) bad(sprintf("assign %s", describe(g$assign)))
  if (length(g$groups) != 1L || is.na(g$groups) || g$groups < 1L) bad("no groups")
  if (any(g$partition > g$groups, na.rm = TRUE)) bad("a row in a group beyond its number")
  if (length(g$neurons) != g$size) bad("a neuron count other than its ring's")
  if (g$assign == "neurons" && is.null(g$fine)) bad("neurons of no ring")
  if (g$assign == "rows" && (is.null(g$ref) || length(g$ref_group) != nrow(g$ref))) {
    bad("no grouped rows to join")
  }
  if (g$assign == "mixture" && is.null(g$par$cov)) bad("a mixture without covariances")
  g
}

# A grouping built from another with some fields changed (`...`, named).
update_grouping <- function(g, ...) {
  changes <- list(...)
  for (f in names(changes)) g[f] <- list(changes[[f]])
  do.call(new_grouping, g)
}

# Rows every group of a candidate must hold: a share of the rows, and a few.
group_min_rows <- function(n) max(tuned("group_min_rows"), tuned("group_min_share") * n)

# The fit's maps and x (its rows, in data units) in the space the maps trained in: scaled as
# the fit scales them, each column multiplied by the square root of its weight; x a plain
# matrix (an encoded one's every subset would go through `[.somgpu_encoded`).
training_space <- function(fit, x) {
  x <- prepared_matrix(plain_matrix(x), NULL, fit$scaling)
  w <- if (is.null(fit$scaling)) fit$weights else fit$scaled_weights
  if (!is.null(fit$var_weights)) {
    v <- sqrt(fit$var_weights)
    x <- sweep(x, 2, v, "*")
    w <- lapply(w, function(m) sweep(m, 2, v, "*"))
  }
  list(x = unname(x), weights = lapply(w, unname))
}

# The rows x in the space the fit's maps trained in, each row's missing values taken from
# its winner's weights (they move it along no direction), with each row's winner on the map
# of `size` (NA for rows left out): list(x, the complete rows; cluster, their winners;
# rows, their numbers in x; weights, the map's).
grouping_rows <- function(fit, x, size, cluster) {
  sp <- training_space(fit, x)
  w <- sp$weights[[match(size, fit$params$sizes)]]
  ok <- !is.na(cluster)
  xs <- sp$x[ok, , drop = FALSE]
  if (anyNA(xs)) {
    miss <- which(is.na(xs), arr.ind = TRUE)
    xs[miss] <- w[cbind(cluster[ok][miss[, 1]], miss[, 2])]
  }
  list(x = xs, cluster = cluster[ok], rows = which(ok), weights = w)
}

# The fit whose map a grouping's groups live on: the fine ring of groups joined on its
# neurons, else the fit whose largest map gave the groups.
grouping_fit <- function(grouping, fit) if (is.null(grouping$fine)) fit else grouping$fine

# The groups of new rows x under a grouping: each row in the training space of the
# grouping's fit (`fit`, grouping_fit()'s, whose map of grouping$size gave the winners
# `cluster`), missing values from its winner; then as grouping$assign says; NA for the rows
# in no group (grouping$noise, noise_rows()).
predict_groups <- function(grouping, fit, x, cluster) {
  if (grouping$assign == "neurons" && is.null(grouping$noise)) return(grouping$neurons[cluster])
  rows <- grouping_rows(fit, x, grouping$size, cluster)
  out <- rep(NA_integer_, nrow(x))
  if (!length(rows$rows)) return(out)
  g <- switch(grouping$assign, neurons = grouping$neurons[rows$cluster],
              rows = grouping$ref_group[nearest_rows(rows$x, grouping$ref)$nearest],
              mixture = mixture_classify(rows$x, grouping$par))
  if (!is.null(grouping$noise)) {
    noise <- grouping$noise
    if (is.null(noise$ref)) noise$ref <- grouping$ref
    g[noise_rows(rows$x, g, noise)] <- NA_integer_
  }
  out[rows$rows] <- g
  out
}

# Each neuron of a ring of `size` the group most of its rows join (NA without rows): the
# rows' winners `cluster` and groups `labels`, both of the rows grouped.
neuron_groups <- function(cluster, labels, size, G) {
  vapply(seq_len(size), function(j) {
    g <- labels[cluster == j & !is.na(labels)]
    if (length(g)) which.max(tabulate(g, G)) else NA_integer_
  }, 1L)
}
