# Groups apart (issue 39): where gaps in the data part the rows into a few groups and the
# Gaussian rule tiles each of them with several pieces (a curved band, a uniform square, a
# ring cut into arcs), or finds no structure at all in groups a gap divides (a spiral's
# arms), the groups are the gap-separated ones. Genie's linkage on the rows' minimum
# spanning tree (genie.R) gives a partition per number of groups; a number k is "apart"
# when the lightest tree edge between two of its groups is longer than apart_rule[["times"]]
# (apart_rule[["alone"]] where the Gaussian groups are one, below)
# times the apart_rule[["quantile"]] quantile of the tree's edges within the groups (the
# links that hold each group together): a cut through empty space, not through data. The
# largest such k is taken over the groups found so far when the Gaussian groups number at
# least apart_rule[["pieces"]] per group apart (or are one group), whether those or the
# connected groups were taken; connected groups unless they are as many as the groups
# apart (more: they broke a ring or a ball where no row crosses, or set a few outliers
# apart, where the Gaussian groups tile it; fewer: they join groups a gap parts; with as
# few Gaussian groups as touching blobs, the connected groups are those blobs).

# Set on the field's benchmark suite (bench/bench_clustering_suite.R, its 73 sets; see
# ?select_size, "Groups apart"): the quantile and factor from 0.99 x 2 to 0.99 x 3 and
# `pieces` from 3 to 5 gave the same answers there; fewer pieces (2: aggregation's and
# unbalance's touching blobs, 7 and 8 groups in 3 apart) or a lower quantile (0.9, where
# one sparse group's own links pass for gaps) lost sets the Gaussian rule gets right.
# Comparing the Gaussian groups' number also where connected groups were taken raised
# fcps/atom, fcps/target, graves/ring_outliers and other/square to ARI 1 and lost none.
# `alone`: the gap that suffices where the Gaussian groups are one (no group structure:
# the answer the groups apart compete with is no groups at all) and the rows have at least
# 2 columns, set against data without groups, not the suite: over 100 such sets (uniform,
# Gaussian, t5 and exponential rows, 30 to 3,000 rows in 1 to 10 columns) no cut with
# every group >= group_min_rows() had a gap above 0.94 in 2 or more columns, but 1.87 in
# one (bench/bench_apart_null.R; bench/README.md, "Groups apart where no Gaussian groups
# are").
apart_rule <- c(quantile = 0.99, times = 2, pieces = 4, alone = 1.5)

# The gap a cut must pass: `times` (`alone` where the Gaussian groups are one and the rows
# have at least 2 columns), and in one column at least 1 + log(n) / log(1 / (1 - quantile)).
# There a row's links are the spacings, nearly exponential in data without groups: their
# quantile q is log(1 / (1 - q)) times their mean, and the widest of n, which a cut may
# take, log(n) + a Gumbel variable; so the ratio grows with n, and a fixed 2 is passed by
# chance on large sets (uniform rows: 5% of sets of 100 rows, 25% of 3,000, 67.5% of
# 10,000; bench/bench_apart_null.R --one-column). Gumbel's 99% point is near log(100),
# hence the 1: the chance no longer grows with n (5%, 0%, 0%, 0% and 0% of uniform sets of
# 100 to 10,000 rows; the quantile, read from n spacings, is itself uncertain on small
# sets).
apart_times <- function(gaussian_groups, columns, n) {
  times <- apart_rule[[if (gaussian_groups < 2L && columns >= 2L) "alone" else "times"]]
  if (columns > 1L) return(times)
  max(times, 1 + log(n) / log(1 / (1 - apart_rule[["quantile"]])))
}

# The rows xs (complete, the maps' space) joined by Genie's linkage into 1..k_max groups:
# list(cuts, the partitions (NULL where the linkage stops short); gaps, each one's
# narrowest gap over the apart_rule quantile of the tree's edges within its groups (NA for
# 1 group, none, or no edge within a group)).
apart_profile <- function(xs, k_max) {
  mst <- mst_rows(xs)
  cuts <- genie_merge(mst, nrow(xs), k_max)
  gaps <- vapply(cuts, function(l) {
    if (is.null(l) || max(l) < 2L) return(NA_real_)
    cut <- tree_cut(mst, l)
    within <- mst$weight[!cut]
    if (!length(within)) return(NA_real_) # every point a group of its own
    narrowest_gap(mst, cut, stats::quantile(within, apart_rule[["quantile"]], names = FALSE))
  }, 0)
  list(cuts = cuts, gaps = gaps)
}

# The groups apart on the rows x of the fit (data units; its largest map's winners
# `cluster`), beside the grouping found so far (`current`: Gaussian or connected; NULL when
# no map had rows to group): with shape "auto" and at most select_rows_auto rows to join
# (the tree costs n^2), the groups apart (rows_grouping(), kind "rows", with `apart`:
# list(gaps, the narrowest gap per number of groups; pieces, the Gaussian groups' number;
# found and replaced, the kind and number of the groups replaced)) when apart_rule takes
# them; else `current`.
apart_grouping <- function(fit, x, cluster, current, k_max, shape) {
  if (shape != "auto" || is.null(current)) return(current)
  found <- grouping_kind(current)
  G <- if (found == "connected") current$gaussian_groups else current$groups
  if (is.null(G) || is.na(G)) return(current)
  rows <- grouping_rows(fit, x, max(fit$params$sizes), cluster)
  n <- length(rows$rows)
  if (n < 3L || n > select_rows_auto) return(current)
  prof <- apart_profile(rows$x, min(k_max, n)) # the tree: the rule's cost, asked last
  least <- group_min_rows(n)
  times <- apart_times(G, ncol(rows$x), n)
  apart <- which(prof$gaps > times & vapply(prof$cuts, function(l) {
    !is.null(l) && min(tabulate(l)) >= least
  }, TRUE))
  if (!length(apart)) return(current)
  K <- max(apart)
  if (G >= 2L && G < apart_rule[["pieces"]] * K) return(current)
  if (found == "connected" && current$groups == K) return(current) # the same count
  rows_grouping(fit, x, rows, prof$cuts[[K]], current$scores,
                apart = list(gaps = prof$gaps, pieces = G, found = found,
                             replaced = current$groups))
}
