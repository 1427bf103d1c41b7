# Rule "apart", groups apart (issue 39): where gaps in the data part the rows into a few
# groups and the Gaussian rule tiles each of them with several pieces (a curved band, a
# uniform square, a ring cut into arcs), or finds no structure at all in groups a gap
# divides (a spiral's arms), the groups are the gap-separated ones. Genie's linkage on the
# rows' minimum spanning tree (math_genie.R) gives a partition per number of groups; a number k
# is "apart" when the lightest tree edge between two of its groups is longer than
# "apart_times" ("apart_alone" where the Gaussian groups are one, below) times the
# "apart_quantile" quantile of the tree's edges within the groups (the links that hold
# each group together): a cut through empty space, not through data. The largest such k is
# taken over the groups found so far when the Gaussian groups number at least
# "apart_pieces" per group apart (or are one group), whether those or the connected groups
# were taken; connected groups unless they are as many as the groups apart (more: they
# broke a ring or a ball where no row crosses, or set a few outliers apart, where the
# Gaussian groups tile it; fewer: they join groups a gap parts; with as few Gaussian
# groups as touching blobs, the connected groups are those blobs).

# The constants "apart_quantile", "apart_times", "apart_pieces" and "apart_alone" were set
# on the field's benchmark suite and on data without groups (R/base_tuning.R; bench/README.md,
# "Groups apart").

# The gap a cut must pass: "apart_times" ("apart_alone" where the Gaussian groups are one
# and the rows have at least 2 columns), and in one column at least 1 + log(n) / log(1 /
# (1 - quantile)). There a row's links are the spacings, nearly exponential in data without groups: their
# quantile q is log(1 / (1 - q)) times their mean, and the widest of n, which a cut may
# take, log(n) + a Gumbel variable; so the ratio grows with n, and a fixed 2 is passed by
# chance on large sets (uniform rows: 5% of sets of 100 rows, 25% of 3,000, 67.5% of
# 10,000; bench/bench_apart_null.R --one-column). Gumbel's 99% point is near log(100),
# hence the 1: the chance no longer grows with n (5%, 0%, 0%, 0% and 0% of uniform sets of
# 100 to 10,000 rows; the quantile, read from n spacings, is itself uncertain on small
# sets).
apart_threshold <- function(gaussian_groups, columns, n) {
  times <- if (gaussian_groups < 2L && columns >= 2L) tuned("apart_alone") else tuned("apart_times")
  if (columns > 1L) return(times)
  max(times, 1 + log(n) / log(1 / (1 - tuned("apart_quantile"))))
}

# The rows xs (complete, the maps' space; `mst`, their spanning tree) joined by Genie's
# linkage into 1..k_max groups: list(cuts, the partitions (NULL where the linkage stops
# short); gaps, each one's narrowest gap over the "apart_quantile" quantile of the tree's
# edges within its groups (NA for 1 group, none, or no edge within a group)).
apart_profile <- function(xs, k_max, mst = mst_rows(xs)) {
  cuts <- genie_merge(mst, nrow(xs), k_max)
  gaps <- vapply(cuts, function(l) {
    if (is.null(l) || max(l) < 2L) return(NA_real_)
    cut <- tree_cut(mst, l)
    within <- mst$weight[!cut]
    if (!length(within)) return(NA_real_) # every point a group of its own
    narrowest_gap(mst, cut, stats::quantile(within, tuned("apart_quantile"), names = FALSE))
  }, 0)
  list(cuts = cuts, gaps = gaps)
}

# Rule "apart" on the rows of the fit's largest map (input_rows()), beside the grouping so
# far (`current`: Gaussian or connected) and the Gaussian groups' number G: with shape
# "auto" and at most "tree_rows" rows (the tree costs n^2), the largest number of groups
# apart, taken where G is one or at least "apart_pieces" per group apart, unless the
# connected groups taken are as many. The grouping: assign "rows"; detail: list(gaps, the
# narrowest gap per number of groups; pieces, G; found and replaced, the rule and number
# of the groups replaced).
rule_apart <- function(inputs, current) {
  st <- inputs$settings
  if (is.null(current) || is.null(inputs$gaussian)) return(not_tried("apart", "no groups so far to compare with"))
  G <- inputs$gaussian$groups
  rows <- input_rows(inputs)
  n <- length(rows$rows)
  if (n < 3L) return(not_tried("apart", "fewer than 3 rows"))
  if (n > tuned("tree_rows")) {
    return(not_tried("apart", sprintf("%s rows: the rows' tree is built up to %s", figure(n), figure(tuned("tree_rows")))))
  }
  prof <- apart_profile(rows$x, min(st$k_max, n), input_tree(inputs)) # the rule's cost, asked last
  least <- group_min_rows(n)
  times <- apart_threshold(G, ncol(rows$x), n)
  big <- vapply(prof$cuts, function(l) !is.null(l) && min(tabulate(l)) >= least, TRUE)
  apart <- which(prof$gaps > times & big)
  if (!length(apart)) {
    widest <- suppressWarnings(max(prof$gaps[big], na.rm = TRUE))
    return(declined("apart", "no cut into groups of enough rows is a gap", "widest gap / link quantile within",
                    if (is.finite(widest)) widest else NA_real_, times,
                    if (G < 2L && ncol(rows$x) >= 2L) "apart_alone" else "apart_times"))
  }
  K <- max(apart)
  pieces <- tuned("apart_pieces")
  if (G >= 2L && G < pieces * K) {
    return(declined("apart", sprintf("%d groups apart, but the %d Gaussian groups do not tile them (%s per group)",
                                     K, G, figure(G / K)),
                    "Gaussian groups per group apart", G / K, pieces, "apart_pieces"))
  }
  found <- current$rule
  if (found == "connected" && current$groups == K) {
    return(declined("apart", sprintf("the %d connected groups taken are as many as the groups apart", K),
                    "groups apart", K, current$groups))
  }
  g <- linkage_grouping("apart", inputs$fit, inputs$x, rows, prof$cuts[[K]], current$scores,
                        list(gaps = prof$gaps, pieces = G, found = found, replaced = current$groups))
  accepted("apart", g, sprintf("%d groups apart: every cut a gap %s times the longest links within", K,
                               figure(prof$gaps[K])),
           "narrowest gap / link quantile within", prof$gaps[K], times,
           if (G < 2L && ncol(rows$x) >= 2L) "apart_alone" else "apart_times")
}

# The reason's words for groups apart (rule_table()'s `found`): their narrowest gap, and
# why they replaced the groups found first (apart_words()).
apart_found <- function(grouping, on) {
  g <- grouping$groups
  dt <- grouping$detail
  sprintf("The data hold %s apart: the rows joined by Genie's linkage, every cut a gap %.1f times or more the longest links (%s%%) within the groups (%s)",
          count_words(g, "group"), dt$gaps[g], format(100 * tuned("apart_quantile")),
          apart_words(dt, g))
}

# Why the groups apart replaced the groups found first (rule_apart()'s detail): no Gaussian
# structure, or Gaussian groups that tile them (and the connected groups taken over those,
# more or fewer than the g groups apart).
apart_words <- function(apart, g) {
  if (apart$pieces < 2L) return("the Gaussian rule found no group structure")
  tile <- sprintf("the %d Gaussian groups found first tile them", apart$pieces)
  if (apart$found != "connected") return(tile)
  sprintf("%s, and the %d connected groups taken over those part them %s than the gaps do",
          tile, apart$replaced, if (apart$replaced > g) "further" else "less")
}

apart_kind <- function(gaussian) "apart, the rows' linkage"

# The figure's panel: the narrowest gap per number of groups.
apart_panel <- function(g) {
  gap_panel(g$detail$gaps, sprintf("gap / %s%% link within", format(100 * tuned("apart_quantile"))))
}
