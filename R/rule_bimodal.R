# Rule "bimodal" (issue 53): the Gaussian rule's criterion, the BIC of the classification
# likelihood, penalises groups that overlap, as the ICL does: two Gaussian groups whose
# centres lie 3 standard deviations apart break even with one Gaussian cloud, and the rule
# says "no group structure" where mclust's BIC names the two. What tells such a mixture
# from one cloud (or a uniform box, which a Gaussian mixture would also split) is that
# the rows' density dips between the two: where the Gaussian rule found one group, the
# best partition into two Gaussian groups is taken when the rows projected on the line
# that separates the two (the discriminant direction of their means and pooled
# covariance) are fewer near the dip between the two groups' means than near the lower
# of the density's two peaks, by more than "bimodal_z" standard errors.
#
# The direction is fitted on one half of the rows and the dip measured on the other (and
# the other way round; the two z combined as Stouffer's, sum / sqrt(2)): a direction
# fitted on the rows it projects finds a dip in any cloud in many columns (2,048 Gaussian
# rows in 128 columns: z up to 3 without a second group). Asked only where every column
# is numeric and takes many values: levels and rounded values make dips of their own.

# The dip of the rows xb projected on the discriminant direction that rows xa, in groups la
# (1, 2), give: z, (rows near the lower peak - rows near the dip) / sqrt(their sum), near
# meaning within one bandwidth (Silverman's, stats::bw.nrd0()) of the kernel density's
# lowest point between the two groups' projected means and of the highest point on the
# side of that dip whose peak is lower; 0 without a dip between the means.
half_dip <- function(xa, la, xb) {
  m1 <- colMeans(xa[la == 1L, , drop = FALSE])
  m2 <- colMeans(xa[la == 2L, , drop = FALSE])
  S <- (crossprod(sweep(xa[la == 1L, , drop = FALSE], 2L, m1)) +
          crossprod(sweep(xa[la == 2L, , drop = FALSE], 2L, m2))) / nrow(xa)
  S <- S + diag(1e-6 * max(mean(diag(S)), 1e-300), ncol(S))
  del <- m2 - m1
  w <- tryCatch(solve(S, del), error = function(e) NULL)
  if (is.null(w) || !is.finite(sum(del * w)) || sum(del * w) <= 0) return(0)
  t <- drop(sweep(xb, 2L, m1) %*% w) / sum(del * w) # m1 at 0, m2 at 1
  h <- stats::bw.nrd0(t)
  if (!is.finite(h) || h <= 0) return(0)
  f <- stats::density(t, bw = h, n = 512L, from = min(t), to = max(t))
  between <- which(f$x >= 0 & f$x <= 1)
  if (!length(between)) return(0)
  dip <- between[which.min(f$y[between])]
  left <- seq_len(dip)
  right <- seq.int(dip, length(f$y))
  peak <- if (max(f$y[left]) < max(f$y[right])) left[which.max(f$y[left])] else right[which.max(f$y[right])]
  near_dip <- sum(abs(t - f$x[dip]) <= h)
  near_peak <- sum(abs(t - f$x[peak]) <= h)
  (near_peak - near_dip) / sqrt(max(near_peak + near_dip, 1))
}

# The dip of rows xs (complete, the maps' space) between their two groups `labels`: the
# two halves' z (odd rows fit the direction, even rows are measured, and the other way
# round) combined; 0 where a half lacks 3 rows of a group.
bimodal_dip <- function(xs, labels) {
  a <- seq.int(1L, nrow(xs), by = 2L)
  b <- seq.int(2L, nrow(xs), by = 2L)
  enough <- function(h) all(tabulate(labels[h], 2L) >= 3L)
  if (!enough(a) || !enough(b)) return(0)
  za <- half_dip(xs[a, , drop = FALSE], labels[a], xs[b, , drop = FALSE])
  zb <- half_dip(xs[b, , drop = FALSE], labels[b], xs[a, , drop = FALSE])
  (za + zb) / sqrt(2)
}

# The covariance models whose partitions into 2 the rule weighs: those the two groups share.
# A model that gives each group its own covariance splits one cloud into a core and a
# halo around it, which the classification criterion can prefer to the split between two
# clouds (two Gaussians 3 sd apart in 2 columns: VVV's partition ARI 0.03, EEE's 0.72);
# the discriminant direction, too, is that of a shared covariance. Of their partitions
# (each refined by EM) the one whose mixture has the highest BIC of the likelihood
# (mclust's criterion: each row's density summed over the groups) is tested: the
# classification criterion can prefer a group of a few tail rows (in 16 columns, EEE's 36
# rows of 2,048, ARI 0; EII's mixture, the two clouds, ARI 0.71, is the likelier).
bimodal_models <- c("EEE", "EEI", "EII")

# The BIC of a mixture's likelihood on the rows xs (2 loglik - parameters log n).
mixture_bic <- function(xs, g) {
  2 * mixture_loglik(xs, g$par) - model_params(g$model, g$groups, ncol(xs)) * log(nrow(xs))
}

# The partition into 2 that rule "bimodal" tests: of bimodal_models', the likeliest
# mixture (mixture_bic()); NULL without one.
bimodal_candidate <- function(inputs) {
  rows <- input_rows(inputs)
  best <- NULL
  for (m in bimodal_models) {
    g <- fit_grouping(inputs$fit, inputs$x, inputs$top, model = m, G = 2L)
    if (is.null(g) || g$groups != 2L) next
    bic <- mixture_bic(rows$x, g)
    if (is.finite(bic) && (is.null(best) || bic > best$bic)) best <- list(g = g, bic = bic)
  }
  best$g
}

# Rule "bimodal": where the grouping so far is the Gaussian rule's one group, the
# partition of the largest map's cells into 2 Gaussian groups of a shared covariance
# (bimodal_candidate()), taken when the rows' density dips between them (bimodal_dip()
# over "bimodal_z"). The grouping: assign "mixture"; detail: list(z).
rule_bimodal <- function(inputs, current) {
  if (is.null(current)) return(not_tried("bimodal", "no groups so far (rule gaussian gave none)"))
  if (current$rule != "gaussian" || current$groups != 1L) return(not_tried("bimodal", "groups were found"))
  if (!is.null(encoding_blocks(inputs$fit))) {
    return(not_tried("bimodal", "categorical columns: their levels make dips of their own"))
  }
  rows <- input_rows(inputs)
  if (any(discrete_columns(sweep(rows$x, 2L, colMeans(rows$x))))) {
    return(not_tried("bimodal", "a column takes few values: its values make dips of their own"))
  }
  two <- bimodal_candidate(inputs)
  if (is.null(two) || two$groups != 2L) {
    return(declined("bimodal", "no partition of the cells into 2 Gaussian groups"))
  }
  z <- bimodal_dip(rows$x, two$partition[rows$rows])
  bar <- tuned("bimodal_z")
  if (!isTRUE(z > bar)) {
    return(declined("bimodal", sprintf("the rows' density does not dip between the 2 best Gaussian groups (%s standard errors)", figure(z)),
                    "dip between 2 groups (z)", z, bar, "bimodal_z"))
  }
  g <- update_grouping(two, rule = "bimodal", scores = current$scores, detail = list(z = z))
  accepted("bimodal", g, sprintf("the rows' density dips between %s by %s standard errors",
                                 mixture_label(g$model, 2L, g$par), figure(z)),
           "dip between 2 groups (z)", z, bar, "bimodal_z")
}

# The reason's words for the two groups of a dip (rule_table()'s `found`).
bimodal_found <- function(grouping, on) {
  g <- grouping$groups
  sprintf("The data hold %s: one Gaussian cloud fits %s better than any grouping, but the rows' density dips between the two halves of %s (%.1f standard errors)",
          count_words(g, "group"), on, mixture_words(grouping$model, g, grouping$par),
          grouping$detail$z)
}

bimodal_kind <- function(gaussian) sprintf("%s, the density dips between them", gaussian)

# The answer's mark on the criterion's panel: the dip decided, not the criterion.
bimodal_note <- function(g) sprintf(" (dip, z = %.1f)", g$detail$z)

# Where no groups were found, the dip the rule measured and found too shallow (its
# declined decision, one row).
bimodal_no_groups <- function(decision) {
  sprintf(", and the rows' density does not dip between its two halves (%.1f standard errors, under %s)",
          decision$value, format(decision$threshold))
}
