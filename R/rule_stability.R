# Each group's bootstrap stability, as fpc::clusterboot measures it: the Jaccard similarity
# of a group with its best match in each replicate, the mean over the replicates, and the
# usual reading of it; whether more replicates could change a reading.

# Each group's bootstrap stability over the replicates' own Gaussian groups: per replicate, the
# Jaccard similarity of the group with its best match among the replicate's groups (found
# by the same model and count, on the replicate's map; replicate_fit()), both
# restricted to the rows the replicate trained on; the mean over the replicates. A table
# with a row per group: its rows, stability and the usual reading of it.
group_stability <- function(grouping, reps, work) {
  G <- grouping$groups
  full <- grouping$partition
  jac <- vapply(seq_along(reps), function(b) {
    r <- reps[[b]]$groups
    if (is.null(r)) return(rep(NA_real_, G))
    rows <- unique(work[[b]]$train)
    jaccard_best(full[rows], r[rows], G)
  }, numeric(G))
  stability_table(G, full, matrix(jac, nrow = G))
}

# Each group's bootstrap stability for groups of the rows (assign "rows"): per replicate
# (work, its rows), regroup(x, w) groups again the replicate's distinct grouped rows x (in
# the maps' space, grouping$ref's; NULL: not measured), and the group's best Jaccard
# similarity with those groups over the rows; the mean over the replicates.
regrouped_stability <- function(grouping, work, regroup) {
  G <- grouping$groups
  full <- grouping$partition
  at <- which(!is.na(full)) # the grouped rows, in the order of grouping$ref
  jac <- vapply(work, function(w) {
    rows <- intersect(sort(unique(w$train)), at)
    mine <- regroup(grouping$ref[match(rows, at), , drop = FALSE], w)
    if (is.null(mine)) return(rep(NA_real_, G))
    jaccard_best(full[rows], mine, G)
  }, numeric(G))
  stability_table(G, full, matrix(jac, nrow = G))
}

# The group table: a row per group of the partition, its rows, stability (the mean of
# jaccard's row, its Jaccard similarity in each replicate; NaN: none measured, NA) and the
# usual reading of it, of the stability as printed (two decimals: 0.5996 shows as 0.60 and
# reads "a pattern"); the matrix kept as the attribute "jaccard" (readings_settled()).
# One group is not rated: its match in a replicate of one group is the replicate's every
# row, a Jaccard of 1 that measures nothing (stability NA, as glance() says, and reading
# "not rated").
stability_table <- function(G, partition, jaccard) {
  stab <- if (G == 1L) NA_real_ else rowMeans(jaccard, na.rm = TRUE)
  stab[is.nan(stab)] <- NA_real_
  reading <- as.character(cut(round(stab, 2), c(-Inf, reading_bands, Inf),
                              c("doubtful", "a pattern", "stable", "highly stable"),
                              right = FALSE))
  if (G == 1L) reading <- "not rated"
  out <- data.frame(group = seq_len(G), rows = tabulate(partition, G), stability = stab,
                    reading = reading)
  structure(out, jaccard = jaccard)
}

# The stability readings' bands (stability_table()).
reading_bands <- c(0.6, 0.75, 0.85)

# A group table's stability weighted by the groups' rows (NA where no replicate measured
# one).
weighted_stability <- function(table) {
  ok <- !is.na(table$stability)
  if (!any(ok)) return(NA_real_)
  sum(table$rows[ok] * table$stability[ok]) / sum(table$rows[ok])
}

# Whether more replicates would leave every group's reading as it is: each group's mean
# Jaccard plus and minus two standard errors (over the replicates measured) in one band of
# reading_bands. No groups, nothing to settle.
readings_settled <- function(table) {
  jac <- attr(table, "jaccard")
  if (is.null(jac)) return(TRUE)
  all(apply(jac, 1L, function(v) {
    v <- v[!is.na(v)]
    if (length(v) < 2L) return(length(v) == 0L)
    half <- 2 * stats::sd(v) / sqrt(length(v))
    findInterval(mean(v) - half, reading_bands) == findInterval(mean(v) + half, reading_bands)
  }))
}

# For each group 1..G of partition a: its best Jaccard similarity with a group of partition
# r, over the rows both assign (NA for a group without such rows).
jaccard_best <- function(a, r, G) {
  ok <- !is.na(a) & !is.na(r)
  a <- a[ok]
  r <- r[ok]
  K <- max(c(r, 1L))
  both <- matrix(tabulate((a - 1L) * K + r, G * K), G, byrow = TRUE)
  na <- tabulate(a, G)
  nr <- tabulate(r, K)
  vapply(seq_len(G), function(j) {
    if (na[j] == 0) return(NA_real_)
    max(both[j, ] / (na[j] + nr - both[j, ]))
  }, numeric(1))
}

