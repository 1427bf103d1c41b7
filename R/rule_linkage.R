# The rows' own groups, for the rules that cut the rows' minimum spanning tree by Genie's
# linkage (told, apart, sparse): the gap of a cut, a grouping of the rows (each new row
# joins its nearest grouped row's group) and its groups' stability over the replicates'
# rows; and where a crossing share breaks (connected and sparse).

# The share of rows whose winner and runner-up prototypes lie in different groups
# (labels: each prototype's group; first, second: each row's prototypes, by index); also
# of any pairs of points (rule sparse: a row and its neighbours).
crossing_share <- function(labels, first, second) {
  ok <- !is.na(first) & !is.na(second)
  if (!any(ok)) return(0)
  mean(labels[first[ok]] != labels[second[ok]])
}

# The number of groups where a crossing share breaks (rules connected and sparse): k from 2 to k_max maximizing
# (share(k + 1) + eps) / (share(k) + eps), the jump a further cut costs (eps, the constant
# "break_eps", keeps a jump from zero finite). shares: element k the share of the
# partition into k groups.
share_breaks <- function(shares, eps = tuned("break_eps")) {
  k <- seq_len(length(shares) - 1L)
  k <- k[k >= 2L]
  if (!length(k)) return(1L)
  score <- (shares[k + 1L] + eps) / (shares[k] + eps)
  k[which.max(score)]
}

# The quantile of a spanning tree's edge lengths a gap is measured against (the constant
# "gap_quantile").
gap_quantile <- function(mst) stats::quantile(mst$weight, tuned("gap_quantile"), names = FALSE)

# Genie's linkage on the rows xs (complete, the maps' space; `mst`, their tree, made here
# when NULL) cut into k groups: list(labels, gap: the lightest edge of the tree between two
# groups over its gap_quantile(); with `every`, gaps: that of each cut into 1..k + 1
# groups, NA for one: the figure shows the gap that the next cut would leave too). NULL
# with fewer rows than k.
linkage_cut <- function(xs, k, every = FALSE, mst = NULL) {
  n <- nrow(xs)
  if (n < k) return(NULL)
  if (k == 1L) return(list(labels = rep(1L, n), gap = NA_real_, gaps = if (every) NA_real_))
  if (is.null(mst)) mst <- mst_rows(xs)
  cuts <- genie_merge(mst, n, if (every) min(k + 1L, n) else k)
  q <- gap_quantile(mst)
  gap_of <- function(l) if (is.null(l) || max(l) < 2L) NA_real_ else narrowest_gap(mst, tree_cut(mst, l), q)
  gaps <- if (every) vapply(cuts, gap_of, 0)
  list(labels = cuts[[k]], gap = if (every) gaps[k] else gap_of(cuts[[k]]), gaps = gaps)
}

# A grouping of the rows (assign "rows") by `rule`: the rows of the fit's largest map
# `rows` (input_rows()) in the groups `labels`, the rows of x out of them (rows left out)
# NA; `scores`, the Gaussian candidates' criteria when computed; told, the number asked
# for (NA); detail, the rule's figures. Each new row goes to the group of its nearest
# grouped row (`ref`, `ref_group`); each neuron is the group of most of its rows.
linkage_grouping <- function(rule, fit, x, rows, labels, scores, detail, told = NA_integer_) {
  size <- max(fit$params$sizes)
  partition <- rep(NA_integer_, nrow(x))
  partition[rows$rows] <- labels
  G <- max(labels)
  means <- rowsum(rows$x, labels, reorder = TRUE) / tabulate(labels, G)
  n <- length(rows$rows)
  new_grouping(rule, G, list(pro = tabulate(labels, G) / length(labels), mean = unname(means)),
               size, neuron_groups(rows$cluster, labels, size, G), partition, n,
               occupied = sum(tabulate(rows$cluster, size) >= group_min_rows(n)),
               cells = length(unique(rows$cluster)), assign = "rows", scores = scores,
               ref = rows$x, ref_group = labels, told = told, detail = detail)
}

# Each group's bootstrap stability for groups of the rows' linkage: per replicate (work,
# its rows of x), Genie's linkage on the replicate's distinct rows cut into as many
# groups, the group's best Jaccard similarity with the replicate's groups over those rows;
# the mean over the replicates. (reps: not used; every rule's stability takes them.)
linkage_stability <- function(grouping, reps, work) {
  regrouped_stability(grouping, work, function(x, w) linkage_cut(x, grouping$groups)$labels)
}

# A figure panel of a share per number of groups, in % (rules connected and sparse: the
# rows or neighbours across): criterion_panel()'s fields.
share_panel <- function(share, title, ylab, shorter, key) {
  list(values = stats::setNames(100 * share, seq_along(share)), title = title, ylab = ylab,
       shorter = shorter, key = key)
}

# A figure panel of the narrowest gap per number of groups (rules apart and told):
# criterion_panel()'s fields; v, the gap per number of groups (NA where none).
gap_panel <- function(v, ylab) {
  list(values = stats::setNames(v, seq_along(v))[!is.na(v)],
       title = "narrowest gap per number of groups", ylab = ylab,
       shorter = c("narrowest gap", "gap"), key = "mean over replicates (groups: narrowest gap)")
}
