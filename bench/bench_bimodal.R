# Benchmark: two overlapping Gaussian groups (issue 53's miss) and data without groups, for
# rule "bimodal" (R/rule_bimodal.R).
#
#   Rscript bench/bench_bimodal.R            the family: two spherical Gaussian groups of
#                                            1,024 rows each, centres 1.5 to 5 within-group
#                                            standard deviations apart along a random
#                                            direction (seed 1: the first column), in 1, 2,
#                                            16 and 128 columns, 3 seeds each; per
#                                            separation, how often each method names 2 and
#                                            its mean ARI against the partition by the
#                                            nearer true centre (the best any rule can do)
#   Rscript bench/bench_bimodal.R --null     the rule's statistic on data without groups
#                                            (uniform, Gaussian, t with 5 degrees of freedom,
#                                            exponential; 30 to 3,000 rows; 1 to 128 columns;
#                                            3 seeds), where the Gaussian rule found one
#                                            group: the largest z beside "bimodal_z" (set on
#                                            these sets); with --heldout, data it was not set
#                                            on (lognormal, beta(2, 2), half-normal, axes of
#                                            1 to 5 sd, two Gaussians 1.5 sd apart; seeds 4
#                                            to 6)
#
# Methods beside select_size() (defaults, seed 1, 2 threads): mclust::Mclust(G = 1:5)
# (BIC) and its ICL (mclust::mclustICL, the criterion the Gaussian rule's classification
# likelihood resembles), the gap statistic (cluster::clusGap with k-means, K.max = 5, B =
# 20, nstart = 5, firstSEmax), all three up to 16 columns (mclust takes some 5 minutes a
# set in 128), and k-means told 2 (nstart = 10; ARI only).
args <- commandArgs(trailingOnly = TRUE)
script <- sub("^--file=", "", grep("^--file=", commandArgs(), value = TRUE))
here <- if (length(script)) dirname(script) else "bench"
source(file.path(here, "helpers.R"))
suppressPackageStartupMessages({
  library(somgpu)
  library(mclust) # Mclust() looks up mclustBIC() on the search path
})
ns <- asNamespace("somgpu")

two_gaussians <- function(d, sep, seed, n_each = 1024) {
  set.seed(seed)
  u <- if (seed == 1) c(1, rep(0, d - 1)) else {
    v <- stats::rnorm(d)
    v / sqrt(sum(v^2))
  }
  g <- rep(1:2, each = n_each)
  y <- matrix(stats::rnorm(2 * n_each * d), ncol = d) + outer(g - 1, sep * u)
  list(x = y, nearer = 1L + (drop(y %*% u) > sep / 2))
}

cat(machine_line(), "\n")
if ("--null" %in% args) {
  heldout <- "--heldout" %in% args
  gens <- if (!heldout) {
    list(uniform = function(n, d) matrix(stats::runif(n * d), n, d),
         gaussian = function(n, d) matrix(stats::rnorm(n * d), n, d),
         t5 = function(n, d) matrix(stats::rt(n * d, 5), n, d),
         exponential = function(n, d) matrix(stats::rexp(n * d), n, d))
  } else { # kinds and seeds the threshold was not set on
    list(lognormal = function(n, d) matrix(stats::rlnorm(n * d), n, d),
         beta22 = function(n, d) matrix(stats::rbeta(n * d, 2, 2), n, d),
         halfnormal = function(n, d) matrix(abs(stats::rnorm(n * d)), n, d),
         axes_1_to_5 = function(n, d) matrix(stats::rnorm(n * d), n, d) %*% diag(seq(1, 5, length.out = d), d),
         two_1.5_sd_apart = function(n, d) { # one flat-topped mode
           y <- matrix(stats::rnorm(n * d), n, d)
           y[, 1] <- y[, 1] + 1.5 * (seq_len(n) > n / 2)
           y
         })
  }
  rows <- list()
  for (g in names(gens)) for (n in c(30, 100, 300, 1000, 3000)) for (d in c(1, 2, 5, 10, 32, 128)) {
    if (d >= n / 3) next
    for (s in if (heldout) 4:6 else 1:3) {
      set.seed(100 * s + d)
      y <- gens[[g]](n, d)
      fit <- train(y, sizes = 20, restarts = 4, sigma0 = "auto", seed = s, threads = 2,
                   progress = FALSE)
      top <- fit$clusters$N20
      one <- ns$fit_grouping(fit, y, top)
      inputs <- ns$new_rule_inputs(y, fit, top, one, NULL, NULL, list())
      two <- ns$bimodal_candidate(inputs)
      z <- if (!is.null(two)) ns$bimodal_dip(ns$input_rows(inputs)$x, two$partition) else NA
      rows[[length(rows) + 1L]] <- data.frame(data = g, n = n, d = d, seed = s,
                                              gaussian_groups = one$groups, z = round(z, 3))
    }
  }
  tab <- do.call(rbind, rows)
  asked <- tab[tab$gaussian_groups == 1L & !is.na(tab$z), ]
  cat(sprintf("%d sets without groups; the Gaussian rule found one group in %d (the rule is asked only there)\n",
              nrow(tab), nrow(asked)))
  cat("largest z per kind of data and rows (where asked):\n")
  print(stats::aggregate(z ~ data + n, asked, max), row.names = FALSE)
  cat(sprintf("largest z of all: %.3f; bimodal_z = %s; sets above it: %d\n", max(asked$z),
              format(ns$tuned("bimodal_z")), sum(asked$z > ns$tuned("bimodal_z"))))
  quit(save = "no")
}

seps <- c(1.5, 2, 2.5, 3, 3.5, 4, 5)
max_columns_others <- 16 # mclust, its ICL and the gap statistic: not in 128 columns
rows <- list()
for (D in seps) for (d in c(1, 2, 16, 128)) for (s in 1:3) {
  dat <- two_gaussians(d, D, s)
  x <- dat$x
  t0 <- proc.time()[["elapsed"]]
  sel <- select_size(x, seed = 1, threads = 2, progress = FALSE)
  t_sel <- proc.time()[["elapsed"]] - t0
  others <- d <= max_columns_others # mclust takes minutes a set in 128 columns
  t0 <- proc.time()[["elapsed"]]
  mc <- if (others) mclust::Mclust(x, G = 1:5, verbose = FALSE)
  t_mc <- if (others) proc.time()[["elapsed"]] - t0 else NA_real_
  icl_k <- if (others) {
    icl <- mclust::mclustICL(x, G = 1:5, verbose = FALSE)
    as.integer(sub("^.*,", "", names(summary(icl))[1]))
  } else NA_integer_
  gap_k <- if (others) {
    set.seed(1)
    gap <- cluster::clusGap(x, stats::kmeans, K.max = 5, B = 20, nstart = 5, verbose = FALSE)
    cluster::maxSE(gap$Tab[, "gap"], gap$Tab[, "SE.sim"], "firstSEmax")
  } else NA_integer_
  set.seed(1)
  km <- stats::kmeans(x, 2, nstart = 10)$cluster
  rule <- if (is.null(sel$grouping)) NA_character_ else sel$grouping$rule
  rows[[length(rows) + 1L]] <- data.frame(
    sep = D, d = d, seed = s, k_select = sel$groups, rule = rule,
    ari_select = round(ari_of(sel$partition, dat$nearer), 3), s_select = round(t_sel, 1),
    k_mclust = if (others) mc$G else NA_integer_,
    ari_mclust = if (others) round(ari_of(mc$classification, dat$nearer), 3) else NA_real_,
    s_mclust = round(t_mc, 1), k_icl = icl_k, k_gap = gap_k,
    ari_kmeans2 = round(ari_of(km, dat$nearer), 3))
  print(rows[[length(rows)]], row.names = FALSE)
}
tab <- do.call(rbind, rows)
cat("\nper separation (12 sets: 1, 2, 16, 128 columns x 3 seeds; mclust and the gap statistic on the 9 up to 16 columns): how often each names 2, and the mean ARI against the nearer true centre\n")
per <- do.call(rbind, lapply(split(tab, tab$sep), function(t) {
  o <- t$d <= max_columns_others
  data.frame(sep = t$sep[1], select_size = sum(t$k_select == 2),
             select_size_to_16 = sum(t$k_select[o] == 2), mclust_BIC_to_16 = sum(t$k_mclust[o] == 2),
             mclust_ICL_to_16 = sum(t$k_icl[o] == 2), gap_to_16 = sum(t$k_gap[o] == 2),
             ARI_select_size = round(mean(t$ari_select), 3),
             ARI_select_size_to_16 = round(mean(t$ari_select[o]), 3),
             ARI_mclust_to_16 = round(mean(t$ari_mclust[o]), 3),
             ARI_kmeans_told_2 = round(mean(t$ari_kmeans2), 3),
             bimodal_taken = sum(t$rule == "bimodal", na.rm = TRUE),
             s_select_size_to_16 = sum(t$s_select[o]), s_mclust_to_16 = sum(t$s_mclust[o]))
}))
print(per, row.names = FALSE)
