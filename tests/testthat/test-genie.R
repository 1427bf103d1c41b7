# Genie's linkage and the rows' neighbours (R/math_genie.R): the linkage against genieclust (an
# independent implementation), the compiled spanning tree and merges against the R they
# replaced (helper-genie.R), nearest rows against dist(). Small and fast: tools/valgrind.R
# runs this file under memcheck.

test_that("genie_partitions() is Genie's linkage (genieclust's, as an independent reference)", {
  skip_if_not_installed("genieclust")
  for (s in 1:10) {
    P <- withr::with_seed(s, rbind(matrix(rnorm(60), 30), matrix(rnorm(100, 4), 50),
                                   matrix(runif(40) * 8, 20)))
    mine <- somgpu:::genie_partitions(P, 12)
    ref <- genieclust::gclust(P, gini_threshold = 0.3)
    for (k in 2:12) {
      expect_identical(somgpu:::ari(mine[[k]], stats::cutree(ref, k), k, k), 1,
                       label = sprintf("seed %d, k = %d", s, k))
    }
  }
})

test_that("mst_rows() and genie_merge() are genieclust's tree and linkage on rows", {
  skip_if_not_installed("genieclust")
  for (s in 1:4) {
    X <- withr::with_seed(s, rbind(matrix(rnorm(120), 60), matrix(rnorm(80, 3), 40),
                                   matrix(runif(30) * 6, 15)))
    m <- somgpu:::mst_rows(X)
    ref <- genieclust::mst(X)
    expect_equal(sum(m$weight), sum(ref[, 3]), tolerance = 1e-6) # genieclust's in single precision
    mine <- somgpu:::genie_merge(m, nrow(X), 6)
    for (k in 2:6) {
      expect_identical(somgpu:::ari(mine[[k]], genieclust::genie(X, k, gini_threshold = 0.3), k, k), 1,
                       label = sprintf("seed %d, k = %d", s, k))
    }
  }
})

test_that("nearest_rows() gives the nearest row and the m-th nearest distance", {
  x <- withr::with_seed(1, matrix(rnorm(60), 20))
  ref <- withr::with_seed(2, matrix(rnorm(90), 30))
  d <- as.matrix(stats::dist(rbind(x, ref)))[1:20, 21:50]
  got <- somgpu:::nearest_rows(x, ref, 4L)
  expect_identical(got$nearest, unname(apply(d, 1, which.min)))
  expect_equal(got$mth, unname(apply(d, 1, function(r) sort(r)[4])), tolerance = 1e-10)
  own <- somgpu:::nearest_rows(ref, ref, 1L) # a row of ref is its own nearest
  expect_identical(own$nearest, 1:30)
  expect_equal(own$mth, rep(0, 30), tolerance = 1e-6)
  # far from the origin, as close
  far <- somgpu:::nearest_rows(x + 1e7, ref + 1e7, 4L)
  expect_identical(far$nearest, got$nearest)
  expect_equal(far$mth, got$mth, tolerance = 1e-6)
  # equal distances: the first nearest, the m-th counted as often as equals occur
  grid <- as.matrix(expand.grid(0:3, 0:3)) # ref on a grid: many equal distances
  pts <- withr::with_seed(3, matrix(sample(0:6, 40, TRUE) / 2, 20))
  dg <- as.matrix(stats::dist(rbind(pts, grid)))[1:20, 21:36]
  for (m in c(1L, 2L, 5L, 6L, 16L)) {
    g <- somgpu:::nearest_rows(pts, grid, m)
    expect_identical(g$nearest, unname(apply(dg, 1, which.min)))
    expect_equal(g$mth, unname(apply(dg, 1, function(r) sort(r)[m])), tolerance = 1e-12)
  }
  expect_identical(somgpu:::nearest_rows(pts, grid, 99L)$mth, # m beyond ref: its farthest
                   somgpu:::nearest_rows(pts, grid, 16L)$mth)
})

test_that("nearest_rows(neighbours = TRUE) gives the m nearest rows in order, ties by index", {
  x <- withr::with_seed(1, matrix(rnorm(60), 20))
  ref <- withr::with_seed(2, matrix(rnorm(90), 30))
  d <- as.matrix(stats::dist(rbind(x, ref)))[1:20, 21:50]
  # order() is stable: among equal distances the lower index first
  want <- function(d, m) {
    matrix(unlist(lapply(seq_len(nrow(d)), function(i) order(d[i, ])[seq_len(m)])),
           ncol = m, byrow = TRUE)
  }
  for (m in c(1L, 3L, 10L, 30L)) {
    got <- somgpu:::nearest_rows(x, ref, m, neighbours = TRUE)
    expect_identical(got$knn, want(d, m))
    expect_identical(got$knn[, 1], got$nearest)
    expect_null(somgpu:::nearest_rows(x, ref, m)$knn)
  }
  grid <- as.matrix(expand.grid(0:3, 0:3)) # equal distances everywhere
  pts <- withr::with_seed(3, matrix(sample(0:6, 40, TRUE) / 2, 20))
  dg <- as.matrix(stats::dist(rbind(pts, grid)))[1:20, 21:36]
  for (m in c(2L, 5L, 16L)) {
    expect_identical(somgpu:::nearest_rows(pts, grid, m, neighbours = TRUE)$knn, want(dg, m))
  }
  # a row among the references: itself first (distance 0), then its neighbours
  own <- somgpu:::nearest_rows(ref, ref, 4L, neighbours = TRUE)$knn
  expect_identical(own[, 1], 1:30)
  # blocks of rows (2e7 distances each) agree with one block
  big <- withr::with_seed(4, matrix(runif(2 * 3000), ncol = 2))
  ref2 <- big[1:7000 %% 3000 + 1, ]
  whole <- somgpu:::nearest_rows(big, ref2, 5L, neighbours = TRUE)
  rows <- 2850:2865 # across the first block's end (2e7 / 7,000 rows)
  brute <- t(vapply(rows, function(i) {
    d2 <- colSums((t(ref2) - big[i, ])^2)
    order(d2)[1:5] # equals (each row is in ref2 two or three times) by index
  }, integer(5)))
  expect_identical(whole$knn[rows, ], brute)
  expect_identical(whole$knn[2995:3000, ],
                   somgpu:::nearest_rows(big[2995:3000, ], ref2, 5L, neighbours = TRUE)$knn)
})

test_that("the spanning tree and Genie's merges in C are the R they replaced, ties and all", {
  cases <- list(
    withr::with_seed(1, matrix(rnorm(600), 200)),          # 200 x 3, no ties
    as.matrix(expand.grid(1:9, 1:7)),                      # a grid: many equal edges
    withr::with_seed(2, matrix(sample(0:3, 160, TRUE), 80)), # repeated points: zero edges
    rbind(matrix(withr::with_seed(3, rnorm(100)), 50) * 0.1, c(20, 20), c(20.1, 20)), # outliers
    matrix(c(0, 1), 2))                                    # two points
  for (X in cases) {
    ref <- mst_reference(X)
    got <- somgpu:::mst_rows(X)
    expect_identical(got$from, ref$from)
    expect_identical(got$to, ref$to)
    expect_identical(got$weight, ref$weight)
    for (gini in c(0.3, 0.1, 1)) {
      expect_identical(somgpu:::genie_merge(got, nrow(X), 12L, gini),
                       genie_reference(ref, nrow(X), 12L, gini))
    }
  }
  one <- somgpu:::mst_rows(matrix(1, 1, 2)) # one point: no edge, one group
  expect_identical(somgpu:::genie_merge(one, 1L, 3L), list(1L))
  expect_identical(somgpu:::genie_merge(one, 1L, 3L), genie_reference(one, 1L, 3L))
})
