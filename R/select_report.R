# What select_size() makes of its replicates: the figures per size, the number of groups and
# the recommended size with its reason, the clusters' stability; print and plot.

# Per size, the replicates' figures summarised (see select_size()'s sections), and the
# replicates' own, one row per size and replicate.
selection_criteria <- function(reps, full, x) {
  sizes <- full$params$sizes
  k <- length(sizes)
  bootstrap <- length(reps)
  grab <- function(what, type = numeric(k)) matrix(vapply(reps, function(r) r[[what]], type), nrow = k)
  held <- grab("heldout")
  # stability: per size, the ARI of pairs of replicates over the rows of y both assigned;
  # every pair up to 50 replicates (1225 pairs), beyond each with the next
  pairs <- if (bootstrap <= 50L) utils::combn(bootstrap, 2) else
    rbind(seq_len(bootstrap), c(seq_len(bootstrap)[-1L], 1L))
  pair_ari <- matrix(vapply(seq_len(k), function(i) {
    C <- vapply(reps, function(r) r$clusters[[i]], integer(nrow(x)))
    ari_pairs(C[stats::complete.cases(C), , drop = FALSE], pairs, sizes[i])
  }, numeric(ncol(pairs))), ncol = k)
  # each replicate's stability: its median agreement with the others
  per_rep <- matrix(vapply(seq_len(bootstrap), function(b) {
    mine <- pairs[1, ] == b | pairs[2, ] == b
    apply(pair_ari[mine, , drop = FALSE], 2, stats::median)
  }, numeric(k)), nrow = k)
  se <- function(m) apply(m, 1, stats::sd) / sqrt(ncol(m))
  indices <- cluster_indices(full, x)
  occupied <- vapply(paste0("N", sizes), function(s) {
    length(unique(stats::na.omit(full$clusters[[s]])))
  }, integer(1))
  criteria <- data.frame(
    size = sizes, train_qe = rowMeans(grab("qe")), heldout_qe = rowMeans(held),
    heldout_qe_se = se(held), te = rowMeans(grab("te")),
    explained_var = rowMeans(grab("explained")), stability = colMeans(pair_ari),
    stability_lo = apply(pair_ari, 2, stats::quantile, 0.025, names = FALSE),
    stability_hi = apply(pair_ari, 2, stats::quantile, 0.975, names = FALSE),
    occupied = unname(occupied), davies_bouldin = indices$davies_bouldin,
    calinski_harabasz = indices$calinski_harabasz)
  replicates <- data.frame(size = rep(sizes, bootstrap),
                           replicate = rep(seq_len(bootstrap), each = k),
                           train_qe = c(grab("qe")), heldout_qe = c(held),
                           stability = c(per_rep))
  ord <- order(sizes)
  criteria <- criteria[ord, , drop = FALSE]
  row.names(criteria) <- NULL
  replicates <- replicates[order(replicates$replicate, match(replicates$size, sizes[ord])), ,
                           drop = FALSE]
  row.names(replicates) <- NULL
  list(criteria = criteria, replicates = replicates)
}

# The number of groups, the recommended size and the reason in words, from a grouping
# (fit_grouping(); NULL when no map had rows to group) and the sizes compared; `maps`
# names whose map it was, for the reason.
recommend_size <- function(grouping, sizes, maps = "") {
  plural <- function(k, one, many = paste0(one, "s")) sprintf("%d %s", k, if (k == 1) one else many)
  if (is.null(grouping)) {
    return(list(groups = NA_integer_, size = NA_integer_, reason =
      "No map has rows to group: every row was left out (see the fit's `dropped`)."))
  }
  g <- grouping$groups
  on <- sprintf("the cells of the %sN = %d map", maps, grouping$size)
  if (g == 1L && !is.null(grouping$told)) {
    return(list(groups = 1L, size = NA_integer_, reason =
      "Told 1 group: every row is in it. A ring of any size summarises the data, no size better than another."))
  }
  if (g == 1L) {
    return(list(groups = 1L, size = NA_integer_, reason = sprintf(
      "No group structure: one Gaussian cloud fits the rows better than any grouping of %s. A ring of any size summarises the data, no size better than another.",
      on)))
  }
  size <- if (g %in% sizes) g else if (g > max(sizes)) max(sizes) else min(sizes[sizes > g])
  told <- grouping$told
  found <- if (!is.null(told)) {
    gap <- if (is.na(told$gap)) "" else sprintf(
      "; the connected groups' narrowest gap is %.2f times the rows' 90%% neighbour link", told$gap)
    if (told$chosen == "connected") {
      sprintf("Told %s: the rows joined by Genie's linkage, every cut a gap in the data%s",
              plural(g, "group"), gap)
    } else {
      sprintf("Told %s: joined from %s, %s with %s%s", plural(g, "group"), on,
              plural(g, "Gaussian group"), family_words[[grouping$family]], gap)
    }
  } else if (!is.null(grouping$apart)) {
    sprintf("The data hold %s apart: the rows joined by Genie's linkage, every cut a gap %.1f times or more the longest links (99%%) within the groups (%s)",
            plural(g, "group"), grouping$apart$gaps[g], apart_words(grouping$apart, g))
  } else if (!is.null(grouping$dense)) {
    dn <- grouping$dense
    sprintf("The data hold %s parted by sparse rows: the rows joined by Genie's linkage, where the share of the dense rows' neighbours in another group breaks (%s%%, against %.1f%% for the %d Gaussian groups, unsteady over the replicates: stability %.2f)",
            plural(g, "group"), format(signif(100 * dn$crossing[g], 2)), 100 * dn$gaussian_crossing,
            dn$gaussian_groups, dn$gaussian_steadiness)
  } else if (grouping_kind(grouping) == "connected") {
    sprintf("The data hold %s of any shape: the prototypes of a ring of %d neurons joined by their connectivity (Genie's linkage), where the share of rows whose two nearest prototypes lie in different groups breaks (%.1f%%, against %.1f%% for the Gaussian groups)",
            plural(g, "group"), grouping$size, 100 * grouping$crossing[g],
            100 * grouping$gaussian_crossing)
  } else {
    sprintf("The data hold %s: joined from %s, %s fit best (BIC of the classification)",
            plural(g, "group"), on, mixture_words(grouping$family, g, grouping$par))
  }
  reason <- if (g == size) {
    sprintf("%s; N = %d has a neuron for each.", found, size)
  } else {
    sprintf("%s; N = %d is the smallest size compared that holds them, with neurons to spare.",
            found, size)
  }
  if (!is.null(told)) {
    # told the number: nothing to add on the map's limits
  } else if (g >= grouping$cells) { # no two cells joined: the map shows no more groups
    reason <- paste(reason, groups_at_limit(grouping, sizes))
  } else if (g < min(sizes)) {
    reason <- sprintf("%s Smaller sizes were not compared (e.g. sizes = 2:%d).", reason,
                      max(sizes))
  }
  list(groups = g, size = as.integer(size), reason = reason)
}

# What the reason adds when no two of the map's cells were joined (each a group of its
# own): the data may hold more groups than the map shows. A wider range helps only when
# every neuron held enough rows to be a group (group_min_rows()) and the rows allow more
# such neurons; else the rows are what limits the groups.
groups_at_limit <- function(grouping, sizes) {
  least <- group_min_rows(grouping$rows)
  most <- floor(grouping$rows / least) # neurons the rows can fill with groups
  if (grouping$occupied < grouping$size) {
    return(sprintf(
      "Each group is one neuron's cell, and only %d of the N = %d map's neurons hold at least %g of the %d rows: the data may hold more groups than %d rows can show.",
      grouping$occupied, grouping$size, least, grouping$rows, grouping$rows))
  }
  if (max(sizes) >= most) {
    return(sprintf(
      "Every neuron of N = %d is a group of its own: the groups reach the largest size, and %d rows cannot show more groups of at least %g rows.",
      grouping$size, grouping$rows, least))
  }
  sprintf(
    "Every neuron of N = %d is a group of its own: the groups reach the largest size and the data may hold more; compare a wider range (e.g. sizes = %d:%d).",
    grouping$size, min(sizes), min(2L * max(sizes), most))
}

# Each group's bootstrap stability, as fpc::clusterboot reports it: per replicate, the
# Jaccard similarity of the group with its best match among the replicate's groups (found
# by the same rule, shape and count, on the replicate's map; replicate_fit()), both
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

# The group table: a row per group of the partition, its rows, stability (the mean of
# jaccard's row, its Jaccard similarity in each replicate; NaN: none measured, NA) and the
# usual reading of it, of the stability as printed (two decimals: 0.5996 shows as 0.60 and
# reads "a pattern"); the matrix kept as the attribute "jaccard" (readings_settled()).
stability_table <- function(G, partition, jaccard) {
  stab <- rowMeans(jaccard, na.rm = TRUE)
  stab[is.nan(stab)] <- NA_real_
  out <- data.frame(group = seq_len(G), rows = tabulate(partition, G), stability = stab,
                    reading = as.character(cut(round(stab, 2), c(-Inf, reading_bands, Inf),
                                               c("doubtful", "a pattern", "stable", "highly stable"),
                                               right = FALSE)))
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

# What the reason adds where the groups of `table` (stability_table()'s; 2 or more) are
# weak over the replicates: their stability weighted by rows under the band where groups
# read "stable" (fpc::clusterboot's 0.75). A Gaussian mixture cuts a flat or skewed
# density without groups into pieces (uniform rows in one column: 7 groups, stabilities
# 0.54 to 0.76), as mclust does; the table says so, and the reason then says it too.
weak_groups_words <- function(table) {
  if (is.null(table) || nrow(table) < 2L) return("")
  s <- weighted_stability(table)
  if (is.na(s) || s >= reading_bands[2]) return("")
  sprintf(paste(" Their bootstrap stability is low (%.2f weighted by rows, under the %.2f where",
                "groups read as stable): they may be pieces of rows that hold no such groups; see",
                "`group_table`."), s, reading_bands[2])
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

# Davies-Bouldin and Calinski-Harabasz indices of a fit's kept maps, on the rows of x (the
# data it trained on) that have no missing value, in the space it trained in (scaled,
# columns weighted by the square root of their weights), from the clusters' means.
cluster_indices <- function(fit, x) {
  x <- training_space(fit, x)$x
  rows <- stats::complete.cases(x)
  out <- lapply(fit$params$sizes, function(s) {
    cl <- fit$clusters[[paste0("N", s)]][rows]
    xs <- x[rows, , drop = FALSE]
    ok <- !is.na(cl)
    cl <- cl[ok]
    xs <- xs[ok, , drop = FALSE]
    used <- sort(unique(cl))
    k <- length(used)
    if (k < 2L || k >= nrow(xs)) return(c(NA_real_, NA_real_))
    g <- match(cl, used)
    cent <- rowsum(xs, g, reorder = TRUE) / tabulate(g, k)
    sq <- rowSums((xs - cent[g, , drop = FALSE])^2) # each row's squared distance to its centroid
    spread <- as.vector(rowsum(sqrt(sq), g, reorder = TRUE)) / tabulate(g, k)
    dc <- as.matrix(stats::dist(cent))
    db <- mean(vapply(seq_len(k), function(i) max((spread[i] + spread[-i]) / dc[i, -i]),
                      numeric(1)))
    within_ss <- sum(sq)
    total_ss <- sum((xs - rep(colMeans(xs), each = nrow(xs)))^2)
    ch <- ((total_ss - within_ss) / (k - 1)) / (within_ss / (nrow(xs) - k))
    c(db, ch)
  })
  list(davies_bouldin = vapply(out, `[`, numeric(1), 1),
       calinski_harabasz = vapply(out, `[`, numeric(1), 2))
}

# How the selection's schedule reads in print: "auto" or the numbers.
schedule_label <- function(sigma0) {
  if (identical(sigma0, "auto")) return("sigma0 = \"auto\" (ring-scaled; the original script's: sigma0 = 5)")
  if (length(sigma0) == 1L) return(sprintf("sigma0 = %s", format(sigma0, digits = 4)))
  "sigma0 per size"
}

#' @rdname select_size
#' @export
print.somgpu_selection <- function(x, ...) {
  cr <- x$criteria
  cat(sprintf("ring size selection: %d replicates (%g%% of the rows held out each), %d sizes, %s; %.1f s\n",
              x$bootstrap, 100 * x$holdout, nrow(cr), schedule_label(x$sigma0),
              if (is.null(x$elapsed)) NA_real_ else x$elapsed))
  if (!is.null(x$strategy)) cat(sprintf("trained on %s\n", x$strategy$text))
  tab <- data.frame(size = cr$size, heldout_qe = format_figure(cr$heldout_qe),
                    stability = sprintf("%.3f [%.2f, %.2f]", cr$stability,
                                        pmax(cr$stability_lo, 0), cr$stability_hi),
                    occupied = cr$occupied,
                    DB = sprintf("%.3f", cr$davies_bouldin),
                    CH = ifelse(abs(cr$calinski_harabasz) < 1e6,
                                sprintf("%.1f", cr$calinski_harabasz),
                                sprintf("%.4g", cr$calinski_harabasz)),
                    mark = ifelse(!is.na(x$recommended) & cr$size == x$recommended, "<-", ""))
  names(tab)[ncol(tab)] <- ""
  print(tab, row.names = FALSE, right = TRUE)
  if (all(is.na(cr$heldout_qe))) cat("(heldout_qe: no rows held out, holdout = 0)\n")
  cat(wrap_text(sprintf("groups in the data: %s. %s", format(x$groups), x$reason)), sep = "\n")
  cat(sprintf("recommended: %s\n", if (is.na(x$recommended)) "none" else
    sprintf("N = %d", x$recommended)))
  if (!is.null(x$group_table) && nrow(x$group_table) > 1L) {
    cat("groups (each row's in `partition`), bootstrap stability (mean Jaccard, as fpc::clusterboot):\n")
    gt <- x$group_table
    gt$stability <- sprintf("%.2f", gt$stability)
    print(gt, row.names = FALSE, right = TRUE)
  }
  if (!is.null(x$noise)) {
    cat(sprintf("in no group (noise = TRUE): %s, NA in `partition`\n",
                count_text(x$noise, "row")))
  }
  invisible(x)
}

# Why the groups apart replaced the groups found first (apart_grouping()): no Gaussian
# structure, or Gaussian groups that tile them (and the connected groups taken over those,
# more or fewer than the g groups apart).
apart_words <- function(apart, g) {
  if (apart$pieces < 2L) return("the Gaussian rule found no group structure")
  tile <- sprintf("the %d Gaussian groups found first tile them", apart$pieces)
  if (apart$found != "connected") return(tile)
  sprintf("%s, and the %d connected groups taken over those part them %s than the gaps do",
          tile, apart$replaced, if (apart$replaced > g) "further" else "less")
}
