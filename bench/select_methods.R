# The established ways of choosing the number of groups that bench/bench_select_real.R runs
# beside select_size(), each a function of the data (a standardized matrix) and the largest
# number of groups, returning list(k, groups): the number chosen and the partition of the
# rows it gives. Every method chooses among 1..kmax groups (prediction strength: 1 when no
# k in 2..kmax reaches its cutoff).

# What these benchmarks need: the packages of the methods, mclust attached (Mclust() looks
# up mclustBIC() on the search path), wide printing.
select_bench_setup <- function() {
  for (p in c("cluster", "mclust", "fpc")) {
    if (!requireNamespace(p, quietly = TRUE)) stop("this benchmark needs the package ", p)
  }
  suppressPackageStartupMessages(library(mclust))
  options(width = 200)
}

# k-means with k groups, as the gap statistic and prediction strength use it (10 starts);
# one group for k = 1.
kmeans_groups <- function(x, k) {
  if (k == 1L) return(rep(1L, nrow(x)))
  set.seed(1)
  stats::kmeans(x, k, nstart = 10, iter.max = 50)$cluster
}

alt_methods <- list(
  mclust = function(x, kmax) { # BIC over every covariance model, G = 1..kmax
    m <- suppressMessages(mclust::Mclust(x, G = seq_len(kmax), verbose = FALSE))
    list(k = m$G, groups = as.integer(m$classification))
  },
  gap = function(x, kmax) { # the gap statistic on k-means, B = 50, Tibshirani's firstSEmax
    set.seed(1)
    g <- cluster::clusGap(x, FUNcluster = function(x, k) stats::kmeans(x, k, nstart = 10, iter.max = 50),
                          K.max = kmax, B = 50, verbose = FALSE)
    k <- cluster::maxSE(g$Tab[, "gap"], g$Tab[, "SE.sim"], method = "firstSEmax")
    list(k = k, groups = kmeans_groups(x, k))
  },
  `prediction strength` = function(x, kmax) { # fpc, k-means, M = 50 splits, cutoff 0.8
    set.seed(1)
    x1 <- if (ncol(x) == 1L) cbind(x, 0) else x # fpc's classification drops a single column
    # at most a quarter of the rows: each half of the data needs 2 rows a group (with more,
    # fpc's k-means on a half of 16 rows never returns)
    ps <- fpc::prediction.strength(x1, Gmin = 2, Gmax = max(2L, min(kmax, nrow(x) %/% 4L)), M = 50,
                                   clustermethod = fpc::kmeansCBI, classification = "centroid")
    list(k = ps$optimalk, groups = kmeans_groups(x, ps$optimalk))
  })
