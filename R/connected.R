# Groups of any shape (issue 39): groups.R joins a ring's cells into Gaussian groups, which
# cut a curved or chained group into pieces. Here a finer ring quantizes the data (its
# prototypes trace rings, spirals and chains), Genie's Gini-capped single linkage joins its
# prototypes, and the number of groups is where the rows' connectivity breaks: the share of
# rows whose winner and runner-up prototypes fall in different groups (Tasdemir and
# Merenyi's CONN graph, counted per row) stays near zero while the groups follow gaps in
# the data and jumps once a cut runs through dense data.

# The fine ring's size for n rows: a neuron per 5 rows, from 20 to 200.
connected_ring_size <- function(n) as.integer(max(20, min(200, round(n / 5))))

# The share of rows whose winner and runner-up prototypes lie in different groups
# (labels: each prototype's group; first, second: each row's prototypes, by index).
crossing_share <- function(labels, first, second) {
  ok <- !is.na(first) & !is.na(second)
  if (!any(ok)) return(0)
  mean(labels[first[ok]] != labels[second[ok]])
}

# The number of groups where the crossing share breaks: k from 2 to k_max maximizing
# (share(k + 1) + eps) / (share(k) + eps), the jump a further cut costs (eps keeps a
# jump from zero finite). shares: element k the share of the partition into k groups.
connected_breaks <- function(shares, eps = 0.002) {
  k <- seq_len(length(shares) - 1L)
  k <- k[k >= 2L]
  if (!length(k)) return(1L)
  score <- (shares[k + 1L] + eps) / (shares[k] + eps)
  k[which.max(score)]
}

# The rule that chooses the connected groups over the Gaussian ones: the Gaussian groups'
# crossing share above connected_switch[["times"]] times the connected groups' plus
# connected_switch[["plus"]] (a Gaussian cut through dense data, where the connected
# groups follow gaps), and per boundary (the share over the number of groups less one:
# more groups cross more rows) above connected_switch[["boundary_times"]] times theirs
# plus connected_switch[["boundary_plus"]] (35 Gaussian groups, each cut a shallow
# valley, cross more rows in all than 4 groups apart, but not per boundary). Set on the
# field's benchmark suite (bench/bench_clustering_suite.R; see ?select_size, "Groups of
# any shape"), checked on the real and synthetic suites. Touching Gaussian blobs can cross
# as many rows per boundary as a ring's arcs, but replicates find blobs again where arcs
# shift: Gaussian groups whose stability over the first round of replicates, weighted by
# their rows, is at least connected_switch[["steady"]] stay (on the suite, 0.97 to 0.99
# where connected groups had broken d31's and a2's 31 and 35 blobs; 0.62 to 0.92 on
# every set where the connected groups won by more than 0.05 of ARI; zigzag's straight
# segments, 0.98, now stay too; bench/README.md, "Steady Gaussian groups").
connected_switch <- c(times = 20, plus = 0.01, boundary_times = 2, boundary_plus = 0.001,
                      steady = 0.95)

# Whether connected_switch takes the connected groups: the Gaussian groups' crossing share
# g_cross with G groups, the connected groups' c_cross with K.
connected_switch_taken <- function(g_cross, G, c_cross, K) {
  sw <- connected_switch
  isTRUE(g_cross > sw[["times"]] * c_cross + sw[["plus"]] &&
         g_cross / max(G - 1, 1) > sw[["boundary_times"]] * c_cross / max(K - 1, 1) +
           sw[["boundary_plus"]])
}

# The Gaussian groups' stability over the replicates reps (their rows: work), weighted by
# the groups' rows (NA where no replicate measured one), as connected_switch reads it.
gaussian_steadiness <- function(gaussian, reps, work) {
  weighted_stability(group_stability(gaussian, reps, work))
}

# The groups of any shape on the rows x (the fit's training rows, data units), beside the
# Gaussian grouping of the fit on all rows (fit_grouping(); NULL without one): a ring of
# connected_ring_size() neurons trained with `args` (train()'s, as the selection's maps)
# and `seed`, its prototypes joined by genie_partitions() into 1..k_max + 1 groups, the
# number where the crossing share breaks (connected_breaks()). `shape` "auto" keeps the
# Gaussian grouping unless connected_switch says otherwise (its steadiness read from the
# replicates reps, on their rows work, which found the Gaussian groups too); "connected"
# takes these groups; "gaussian" never trains the ring. Returns the grouping to use: the
# Gaussian one, or a list like it with kind "connected", size (the ring's), fine (its
# fit), neurons (each neuron's group), partition, par (proportions and means in the
# training space), crossing (the share per number of groups; gaussian_crossing, the
# Gaussian groups'; gaussian_steadiness, theirs when the crossing shares asked for it, else
# NA; gaussian_groups, their number, for apart_grouping()), and for connected_stability()
# the rows' prototypes (first, second) and the cuts.
connected_grouping <- function(x, gaussian, args, seed, k_max, shape, reps, work) {
  if (shape == "gaussian" || (shape == "auto" && (is.null(gaussian) || gaussian$groups < 2L))) {
    return(gaussian)
  }
  N <- connected_ring_size(nrow(x))
  args <- utils::modifyList(args, list(sizes = N, restarts = 2L, sigma0 = "auto",
                                       keep_data = FALSE, progress = FALSE))
  fine <- do.call(train, c(list(x, seed = seed), args))
  d <- stats::predict(fine, x, type = "detail", threads = args$threads)
  occ <- sort(unique(stats::na.omit(d$cluster)))
  if (length(occ) < 3L) return(gaussian)
  P <- training_space(fine, x)$weights[[1L]][occ, , drop = FALSE]
  first <- match(d$cluster, occ)
  second <- match(d$runner_up, occ)
  cuts <- genie_partitions(P, min(k_max + 1L, length(occ)))
  crossing <- vapply(cuts, crossing_share, 0, first, second)
  K <- connected_breaks(crossing)
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
  steadiness <- NA_real_
  take <- shape == "connected" || connected_switch_taken(g_cross, gaussian$groups, crossing[K], K)
  if (take && shape == "auto") { # asked only now: the groups' table costs a pass over reps
    steadiness <- gaussian_steadiness(gaussian, reps, work)
    take <- !isTRUE(steadiness >= connected_switch[["steady"]])
  }
  labels <- cuts[[K]]
  neurons <- rep(NA_integer_, N)
  neurons[occ] <- labels
  partition <- neurons[d$cluster]
  gap <- NA_real_
  if (take && shape == "auto") { # the rows' tree: asked last, it costs n^2
    gap <- connected_gap(fine, x, d$cluster, partition)
    take <- !isTRUE(gap <= told_gap[["times"]])
  }
  if (!take) {
    gaussian$crossing <- crossing
    gaussian$gaussian_crossing <- g_cross
    gaussian$gaussian_steadiness <- steadiness
    gaussian$connected_gap <- gap
    return(gaussian)
  }
  xs <- training_space(fine, x)$x
  ok <- !is.na(partition)
  means <- rowsum(replace(xs[ok, , drop = FALSE], is.na(xs[ok, , drop = FALSE]), 0),
                  partition[ok], reorder = TRUE) /
    rowsum(1 * !is.na(xs[ok, , drop = FALSE]), partition[ok], reorder = TRUE)
  list(kind = "connected", family = "connected", groups = K, criterion = NA_real_,
       scores = if (!is.null(gaussian)) gaussian$scores,
       par = list(pro = tabulate(partition, K) / sum(ok), mean = unname(means)),
       size = N, fine = fine, neurons = neurons, partition = partition,
       rows = sum(ok), occupied = length(occ), cells = length(occ),
       crossing = crossing, gaussian_crossing = g_cross, gaussian_steadiness = steadiness,
       connected_gap = gap,
       gaussian_groups = if (!is.null(gaussian)) gaussian$groups else NA_integer_,
       first = first, second = second, cuts = cuts)
}

# The connected groups' narrowest cut in the rows' own minimum spanning tree (the rows x of
# the fine ring `fine`, its winners `cluster`, in the space it trained in; their groups
# `partition`): the lightest tree edge between two groups over the told_gap quantile of the
# tree's edges, as told_grouping() reads it; NA beyond select_rows_auto rows (the tree
# costs n^2), with one group, or where every column takes few values (discrete_columns():
# rows on a grid of a few values, as scores from 1 to 10, are linked by the grid's steps
# and no cut can show a gap wider than one). Where it is not above told_gap[["times"]], the fine ring's
# groups part rows that no gap parts (its prototypes' connectivity broke where the rows do
# not: a blob beside touching ones, rows in many columns), and the Gaussian groups stay.
connected_gap <- function(fine, x, cluster, partition) {
  rows <- grouping_rows(fine, x, max(fine$params$sizes), cluster)
  labels <- partition[rows$rows]
  ok <- !is.na(labels)
  n <- sum(ok)
  if (n > select_rows_auto || n < 3L || length(unique(labels[ok])) < 2L) return(NA_real_)
  xs <- rows$x[ok, , drop = FALSE]
  if (all(discrete_columns(sweep(xs, 2L, colMeans(xs))))) return(NA_real_) # a grid: below
  mst <- mst_rows(xs)
  narrowest_gap(mst, tree_cut(mst, labels[ok]), told_quantile(mst))
}

# Each connected group's bootstrap stability: per replicate (work, its rows of x), the
# number of groups decided again from its rows' crossing shares on the same prototypes,
# the group's best Jaccard similarity with the replicate's groups over its rows; the
# mean over the replicates. (The prototypes are the fit on all rows': this measures how
# firmly the rows decide the groups, not how the ring would move.)
connected_stability <- function(grouping, work) {
  G <- grouping$groups
  full <- grouping$partition
  jac <- vapply(work, function(w) {
    rows <- w$train
    shares <- vapply(grouping$cuts, crossing_share, 0, grouping$first[rows],
                     grouping$second[rows])
    mine <- grouping$cuts[[connected_breaks(shares)]][grouping$first]
    rows <- unique(rows)
    jaccard_best(full[rows], mine[rows], G)
  }, numeric(G))
  stability_table(G, full, matrix(jac, nrow = G))
}
