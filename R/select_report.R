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
# (NULL when none was found: every row left out, `dropped_all`, or no rule gave groups)
# and the sizes compared; `maps` names whose map it was, for the reason. The words follow
# the rule that found the groups (grouping$rule) and its figures (grouping$detail); for
# no groups, the bimodal rule's decision where it declined (`decisions`); `rows`, the rows
# the groups were found on (whether they hold more distinct points than groups).
recommend_size <- function(grouping, sizes, maps = "", dropped_all = TRUE, decisions = NULL,
                           rows = NULL) {
  if (is.null(grouping)) {
    return(list(groups = NA_integer_, size = NA_integer_, reason = if (dropped_all) {
      "No map has rows to group: every row was left out (see the fit's `dropped`)."
    } else {
      "No rule of the pipeline gave groups (see `decisions`)."
    }))
  }
  g <- grouping$groups
  on <- sprintf("the cells of the %sN = %d map", maps, grouping$size)
  told <- !is.na(grouping$told)
  if (g == 1L && told) {
    return(list(groups = 1L, size = NA_integer_, reason =
      "Told 1 group: every row is in it. A ring of any size summarises the data, no size better than another."))
  }
  if (g == 1L) {
    # what the rules that declined with a figure add (the bimodal rule: the dip too shallow)
    more <- if (!is.null(decisions)) vapply(rule_table(), function(entry) {
      d <- decisions[decisions$rule == entry$name & decisions$outcome == "declined" &
                       !is.na(decisions$value), , drop = FALSE]
      if (NROW(d)) entry$no_groups(d[1L, , drop = FALSE]) else ""
    }, "")
    return(list(groups = 1L, size = NA_integer_, reason = sprintf(
      "No group structure: %s fits the rows better than any grouping of %s%s. A ring of any size summarises the data, no size better than another.",
      one_group_words(grouping$par), on, paste(more, collapse = ""))))
  }
  size <- if (g %in% sizes) g else if (g > max(sizes)) max(sizes) else min(sizes[sizes > g])
  found <- rule_entry(grouping$rule)$found(grouping, on)
  reason <- if (g == size) {
    sprintf("%s; N = %d has a neuron for each.", found, size)
  } else {
    sprintf("%s; N = %d is the smallest size compared that holds them, with neurons to spare.",
            found, size)
  }
  if (told) {
    # told the number: nothing to add on the map's limits
  } else if (g >= grouping$cells) { # no two cells joined: the map shows no more groups
    reason <- paste(reason, groups_at_limit(grouping, sizes, rows))
  } else if (g < min(sizes)) {
    reason <- sprintf("%s Smaller sizes were not compared (e.g. sizes = 2:%d).", reason,
                      max(sizes))
  }
  list(groups = g, size = as.integer(size), reason = reason)
}

# The distinct rows among `rows` in a group of `partition` (all of them where the partition
# is of other rows); NA without rows.
distinct_grouped <- function(rows, partition) {
  if (is.null(rows)) return(NA_integer_)
  if (length(partition) == nrow(rows)) rows <- rows[!is.na(partition), , drop = FALSE]
  nrow(unique(rows))
}

# What the reason adds when no two of the map's cells were joined (each a group of its
# own): the data may hold more groups than the map shows. A wider range helps only when
# every neuron held enough rows to be a group (group_min_rows()) and the rows allow more
# such neurons; else the rows are what limits the groups. Rows (`rows`, those the groups
# were found on) that hold no more distinct points than groups show no more groups at all.
groups_at_limit <- function(grouping, sizes, rows = NULL) {
  distinct <- distinct_grouped(rows, grouping$partition)
  if (isTRUE(distinct <= grouping$groups)) {
    return(sprintf("Each group is one point: the %d rows are %d distinct points, no more groups to show.",
                   grouping$rows, distinct))
  }
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
  cat(control_words(x$control))
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
  if (!is.null(x$decisions)) cat(wrap_text(decision_story(x$decisions)), sep = "\n")
  cat(sprintf("recommended: %s\n", if (is.na(x$recommended)) "none" else
    sprintf("N = %d", x$recommended)))
  # where every row's group is: `partition`, or the file of groups_file
  held <- if (is.null(x$groups_file)) "`partition`" else "`groups_file`"
  if (!is.null(x$group_table) && nrow(x$group_table) > 1L) {
    cat(sprintf("groups (each row's in %s), bootstrap stability (mean Jaccard, as fpc::clusterboot):\n",
                held))
    gt <- x$group_table
    gt$stability <- sprintf("%.2f", gt$stability)
    print(gt, row.names = FALSE, right = TRUE)
  }
  if (!is.null(x$noise_rows)) {
    cat(sprintf("in no group (noise = TRUE): %s, NA in %s\n",
                count_text(x$noise_rows, "row"), held))
  }
  invisible(x)
}

# The groups' kind in a few words, from the rule that found them and their model.
rule_words <- function(rule, model, G, latent = FALSE) {
  if (is.na(rule)) return("no rule gave groups: see `decisions`")
  if (G == 1L) return(sprintf("rule %s: no group structure", rule))
  gaussian <- if (isTRUE(latent)) "latent classes" else if (!is.na(model)) sprintf("Gaussian, %s", model)
  sprintf("rule %s: %s", rule, rule_entry(rule)$kind(gaussian))
}

# The decisions in one line: the rule that decided and what each other rule tried said,
# in the pipeline's order.
decision_story <- function(decisions) {
  tried <- decisions[decisions$outcome != "not tried", , drop = FALSE]
  if (!nrow(tried)) return("No rule was tried (see `decisions`).")
  part <- sprintf("%s %s%s", tried$rule, tried$outcome, ifelse(
    is.na(tried$value), "", sprintf(" (%s %s%s)", tried$statistic, figure(tried$value),
                                    ifelse(is.na(tried$threshold), "",
                                           paste0(", threshold ", figure(tried$threshold))))))
  sprintf("rules tried, in order (`decisions`): %s.", paste(part, collapse = "; "))
}

# The decisions as lines, a rule each: its outcome, reason and the figures it compared.
decision_lines <- function(decisions) {
  figures <- ifelse(is.na(decisions$value), "", sprintf(
    " [%s %s%s%s]", decisions$statistic, figure(decisions$value),
    ifelse(is.na(decisions$threshold), "", paste0("; threshold ", figure(decisions$threshold))),
    ifelse(is.na(decisions$constant), "", sprintf(", \"%s\"", decisions$constant))))
  lead <- sprintf("  %-9s %-9s ", decisions$rule, decisions$outcome)
  unlist(lapply(seq_along(lead), function(i) {
    w <- strwrap(paste0(decisions$reason[i], figures[i]),
                 width = max(30L, getOption("width") - nchar(lead[i])))
    paste0(c(lead[i], rep(strrep(" ", nchar(lead[i])), length(w) - 1L)), w)
  }))
}
