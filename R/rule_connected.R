# Rule "connected", groups of any shape (issue 39): rule_gaussian.R joins a ring's cells into
# Gaussian groups, which cut a curved or chained group into pieces. Here a finer ring
# quantizes the data (its prototypes trace rings, spirals and chains), Genie's Gini-capped
# single linkage joins its prototypes, and the number of groups is where the rows'
# connectivity breaks: the share of rows whose winner and runner-up prototypes fall in
# different groups (Tasdemir and Merenyi's CONN graph, counted per row) stays near zero
# while the groups follow gaps in the data and jumps once a cut runs through dense data.

# The fine ring's size for n rows: a neuron per "fine_rows_per_neuron" rows, from
# "fine_min_neurons" to "fine_max_neurons".
connected_ring_size <- function(n) {
  as.integer(max(tuned("fine_min_neurons"),
                 min(tuned("fine_max_neurons"), round(n / tuned("fine_rows_per_neuron")))))
}

# The rule's tests, in order, each taking the connected groups over the Gaussian ones only
# if it passes: the Gaussian groups' crossing share (each prototype in the Gaussian group
# of most of its rows) above "connected_times" times the connected groups' plus
# "connected_plus" (a Gaussian cut through dense data, where the connected groups follow
# gaps), and per boundary (the share over the number of groups less one: more groups cross
# more rows) above "connected_boundary_times" times theirs plus "connected_boundary_plus"
# (35 Gaussian groups, each cut a shallow valley, cross more rows in all than 4 groups
# apart, but not per boundary); then the Gaussian groups not steady over the first round
# of replicates (touching blobs cross as many rows per boundary as a ring's arcs, but
# replicates find blobs again where arcs shift: stability under "steady"); last, the
# connected groups must part the rows themselves at a gap (connected_gap() over
# "gap_times": the fine ring's connectivity can break where the rows' does not, a blob
# beside touching ones, rows in many columns). Set on the field's benchmark suite
# (bench/bench_clustering_suite.R; bench/README.md), checked on the real and synthetic
# suites.

# Rule "connected" on the rows x (the fit's training rows, data units), beside the Gaussian
# groups inputs$gaussian: a ring of connected_ring_size() neurons trained with the
# selection's arguments and seed, its prototypes joined by genie_partitions() into 1..k_max
# + 1 groups, the number where the crossing share breaks (share_breaks()). shape "auto"
# takes them where every test above passes; "connected" always; "gaussian" never trains
# the ring. The grouping: assign "neurons" (each new row its winner's group on the fine
# ring, `fine`); detail: crossing (the share per number of groups), gaussian_crossing,
# gaussian_groups, gaussian_steadiness (NA with shape "connected"), and for
# connected_stability() the rows' prototypes (first, second) and the cuts.
rule_connected <- function(inputs, current) {
  st <- inputs$settings
  gaussian <- inputs$gaussian
  if (st$shape == "auto" && (is.null(gaussian) || gaussian$groups < 2L)) {
    return(not_tried("connected", "fewer than 2 Gaussian groups to replace"))
  }
  x <- inputs$x
  N <- connected_ring_size(nrow(x))
  args <- utils::modifyList(st$args, list(sizes = N, restarts = 2L, sigma0 = "auto",
                                          keep_data = FALSE, progress = FALSE))
  fine <- do.call(train, c(list(x, seed = st$seed), args))
  d <- stats::predict(fine, x, type = "detail", threads = args$threads)
  occ <- sort(unique(stats::na.omit(d$cluster)))
  if (length(occ) < 3L) {
    return(declined("connected", sprintf("the fine ring of %d neurons has %d cells with rows", N, length(occ)),
                    "cells with rows", length(occ), 3))
  }
  P <- training_space(fine, x)$weights[[1L]][occ, , drop = FALSE]
  first <- match(d$cluster, occ)
  second <- match(d$runner_up, occ)
  cuts <- genie_partitions(P, min(st$k_max + 1L, length(occ)))
  crossing <- vapply(cuts, crossing_share, 0, first, second)
  K <- share_breaks(crossing)
  # the Gaussian groups as the prototypes see them: each prototype the group of most of its
  # rows
  gauss <- if (!is.null(gaussian)) {
    vapply(seq_along(occ), function(j) {
      g <- gaussian$partition[which(first == j)]
      g <- g[!is.na(g)]
      if (length(g)) which.max(tabulate(g, gaussian$groups)) else NA_integer_
    }, 1L)
  }
  g_cross <- if (!is.null(gauss)) crossing_share(gauss, first, second) else NA_real_
  labels <- cuts[[K]]
  neurons <- rep(NA_integer_, N)
  neurons[occ] <- labels
  partition <- neurons[d$cluster]
  test <- if (st$shape == "auto") connected_test(inputs, fine, x, d$cluster, partition, g_cross,
                                                  crossing[K], K)
  if (!is.null(test) && test$outcome == "declined") return(rule_result(test))
  xs <- training_space(fine, x)$x
  ok <- !is.na(partition)
  means <- rowsum(replace(xs[ok, , drop = FALSE], is.na(xs[ok, , drop = FALSE]), 0),
                  partition[ok], reorder = TRUE) /
    rowsum(1 * !is.na(xs[ok, , drop = FALSE]), partition[ok], reorder = TRUE)
  g <- new_grouping("connected", K, list(pro = tabulate(partition, K) / sum(ok), mean = unname(means)),
                    N, neurons, partition, sum(ok), occupied = length(occ), cells = length(occ),
                    assign = "neurons", scores = if (!is.null(gaussian)) gaussian$scores,
                    fine = fine,
                    detail = list(crossing = crossing, gaussian_crossing = g_cross,
                                  gaussian_groups = if (!is.null(gaussian)) gaussian$groups else NA_integer_,
                                  gaussian_steadiness = if (!is.null(test)) gaussian_steadiness(inputs) else NA_real_,
                                  first = first, second = second, cuts = cuts))
  if (is.null(test)) {
    return(accepted("connected", g, "shape = \"connected\"", "crossing share at the break",
                    crossing[K]))
  }
  rule_result(test, g)
}

# The tests of rule "connected" in order (see above), for its groups of K with crossing
# share c_cross beside the Gaussian groups' g_cross: the decision of the first that says
# no, or of the last, accepted. The steadiness asks the replicates, the gap the rows' tree
# (n^2): each only when the tests before it passed.
connected_test <- function(inputs, fine, x, cluster, partition, g_cross, c_cross, K) {
  G <- inputs$gaussian$groups
  say <- function(outcome, reason, statistic, value, threshold, constant) {
    decision("connected", outcome, reason, statistic, value, threshold, constant)
  }
  no <- connected_crossing_test(g_cross, G, c_cross, K)
  if (!is.null(no)) return(no)
  steady <- gaussian_steadiness(inputs)
  if (isTRUE(steady >= tuned("steady"))) {
    return(say("declined", sprintf("the Gaussian groups are steady over the replicates (%s)", figure(steady)),
               "Gaussian steadiness", steady, tuned("steady"), "steady"))
  }
  gap <- connected_gap(fine, x, cluster, partition)
  if (isTRUE(gap <= tuned("gap_times"))) {
    return(say("declined", sprintf("no gap parts the %d connected groups' rows (%s)", K, figure(gap)),
               "narrowest gap / link quantile", gap, tuned("gap_times"), "gap_times"))
  }
  if (is.na(gap)) {
    return(say("accepted", sprintf("%d connected groups cut through less dense data than the %d Gaussian ones, which are not steady (%s); the gap not measured",
                                   K, G, figure(steady)),
               "Gaussian steadiness", steady, tuned("steady"), "steady"))
  }
  say("accepted", sprintf("%d connected groups follow gaps (%s) where the %d Gaussian groups cut through dense data",
                          K, figure(gap), G),
      "narrowest gap / link quantile", gap, tuned("gap_times"), "gap_times")
}

# The first two tests, on the crossing shares alone: NULL where both pass (the G Gaussian
# groups cross g_cross of the rows, the K connected ones c_cross), else the decision of
# the one that says no.
connected_crossing_test <- function(g_cross, G, c_cross, K) {
  say <- function(reason, statistic, value, threshold, constant) {
    decision("connected", "declined", reason, statistic, value, threshold, constant)
  }
  bar <- tuned("connected_times") * c_cross + tuned("connected_plus")
  if (!isTRUE(g_cross > bar)) {
    return(say(sprintf("the %d Gaussian groups cross %s%% of the rows, the %d connected ones %s%%: not clearly more",
                       G, figure(100 * g_cross), K, figure(100 * c_cross)),
               "Gaussian crossing share", g_cross, bar, "connected_times"))
  }
  per <- g_cross / max(G - 1, 1)
  bar <- tuned("connected_boundary_times") * c_cross / max(K - 1, 1) + tuned("connected_boundary_plus")
  if (!isTRUE(per > bar)) {
    return(say(sprintf("per boundary the %d Gaussian groups cross no more rows than the %d connected ones",
                       G, K),
               "Gaussian crossing share per boundary", per, bar, "connected_boundary_times"))
  }
  NULL
}

# The connected groups' narrowest cut in the rows' own minimum spanning tree (the rows x of
# the fine ring `fine`, its winners `cluster`, in the space it trained in; their groups
# `partition`): the lightest tree edge between two groups over the tree's gap_quantile();
# NA beyond "tree_rows" rows (the tree costs n^2), with one group, or where every column
# takes few values (discrete_columns(): rows on a grid of a few values, as scores from 1 to
# 10, are linked by the grid's steps and no cut can show a gap wider than one).
connected_gap <- function(fine, x, cluster, partition) {
  rows <- grouping_rows(fine, x, max(fine$params$sizes), cluster)
  labels <- partition[rows$rows]
  ok <- !is.na(labels)
  n <- sum(ok)
  if (n > tuned("tree_rows") || n < 3L || length(unique(labels[ok])) < 2L) return(NA_real_)
  xs <- rows$x[ok, , drop = FALSE]
  if (all(discrete_columns(sweep(xs, 2L, colMeans(xs))))) return(NA_real_) # a grid: above
  mst <- mst_rows(xs)
  narrowest_gap(mst, tree_cut(mst, labels[ok]), gap_quantile(mst))
}

# Each connected group's bootstrap stability: per replicate (work, its rows of x), the
# number of groups decided again from its rows' crossing shares on the same prototypes,
# the group's best Jaccard similarity with the replicate's groups over its rows; the
# mean over the replicates. (The prototypes are the fit on all rows': this measures how
# firmly the rows decide the groups, not how the ring would move. reps: not used.)
connected_stability <- function(grouping, reps, work) {
  G <- grouping$groups
  full <- grouping$partition
  dt <- grouping$detail
  jac <- vapply(work, function(w) {
    rows <- w$train
    shares <- vapply(dt$cuts, crossing_share, 0, dt$first[rows], dt$second[rows])
    mine <- dt$cuts[[share_breaks(shares)]][dt$first]
    rows <- unique(rows)
    jaccard_best(full[rows], mine[rows], G)
  }, numeric(G))
  stability_table(G, full, matrix(jac, nrow = G))
}

# The reason's words for connected groups (rule_table()'s `found`): where the crossing
# share breaks, against the Gaussian groups'.
connected_found <- function(grouping, on) {
  g <- grouping$groups
  dt <- grouping$detail
  sprintf("The data hold %s of any shape: the prototypes of a ring of %d neurons joined by their connectivity (Genie's linkage), where the share of rows whose two nearest prototypes lie in different groups breaks (%.1f%%, against %.1f%% for the Gaussian groups)",
          count_words(g, "group"), grouping$size, 100 * dt$crossing[g], 100 * dt$gaussian_crossing)
}

connected_kind <- function(gaussian) "of any shape, on a finer ring"

# The figure's panel: the share of rows on a border per number of groups (%).
connected_panel <- function(g) {
  share_panel(g$detail$crossing, "border rows per number of groups", "rows on a border (%)",
              c("border rows", "borders"), "mean over replicates (groups: rows on a border)")
}
