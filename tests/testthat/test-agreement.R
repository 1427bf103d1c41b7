# R/math_agreement.R: the adjusted Rand index against an independent one (ref_ari()), and each
# size's stability over its restarts against the pure-R reference's maps.

test_that("stability is the mean adjusted Rand index between restarts", {
  y <- two_blobs(n = 30, m = 2, seed = 2)
  fit <- train(y, sizes = c(2, 5), iter_max = 6, restarts = 3, seed = 4)
  expect_identical(fit$stability$size, c(2L, 5L))
  for (N in c(2, 5)) {
    # each restart's map from its own streams, with the R reference
    cl <- lapply(0:2, function(r) {
      w <- ref_train_map(y, ref_init_uniform(4, N, r, 2), iter_max = 6, seed = 4, restart = r)
      ref_assess(y, w)$clusters
    })
    want <- mean(c(ref_ari(cl[[1]], cl[[2]]), ref_ari(cl[[1]], cl[[3]]),
                   ref_ari(cl[[2]], cl[[3]])))
    expect_equal(fit$stability$stability[fit$stability$size == N], want, tolerance = 1e-12)
  }
  one <- train(y, nmax = 4, iter_max = 5, seed = 1)
  expect_true(all(is.na(one$stability$stability)))
})

test_that("beyond 50 restarts stability compares each restart with the next", {
  y <- two_blobs(n = 30, m = 2, seed = 3)
  k <- 53
  fit <- train(y, sizes = 4, iter_max = 3, restarts = k, seed = 6)
  cl <- lapply(seq_len(k) - 1L, function(r) {
    w <- ref_train_map(y, ref_init_uniform(6, 4, r, 2), iter_max = 3, seed = 6, restart = r)
    ref_assess(y, w)$clusters
  })
  want <- mean(vapply(seq_len(k), function(i) ref_ari(cl[[i]], cl[[i %% k + 1]]), 0))
  expect_equal(fit$stability$stability, want, tolerance = 1e-12)
})

test_that("the package's ARI agrees with an independent one", {
  withr::with_seed(3, {
    for (i in 1:20) {
      a <- sample.int(5, 200, replace = TRUE)
      b <- if (i %% 2) sample.int(4, 200, replace = TRUE) else (a %% 3) + 1L
      expect_equal(somgpu:::ari(a, b), ref_ari(a, b), tolerance = 1e-12)
    }
  })
  expect_identical(somgpu:::ari(c(1L, 1L, 2L, 2L), c(2L, 2L, 1L, 1L)), 1)
  expect_identical(somgpu:::ari(rep(1L, 5), rep(1L, 5)), 1)
})

test_that("the ARI of many pairs at once is each pair's, against the independent one", {
  C <- withr::with_seed(4, cbind(sample.int(6, 150, replace = TRUE), rep(1:3, 50),
                                 rep(1:3, 50), rep(1L, 150), sample.int(2, 150, replace = TRUE)))
  pairs <- utils::combn(5, 2)
  got <- somgpu:::ari_pairs(C, pairs, 7L) # k above every cluster seen
  want <- apply(pairs, 2, function(p) ref_ari(C[, p[1]], C[, p[2]]))
  expect_equal(got, want, tolerance = 1e-12)
  expect_identical(got[pairs[1, ] == 2 & pairs[2, ] == 3], 1)
  expect_identical(somgpu:::ari_pairs(C[1, , drop = FALSE], pairs, 7L), rep(1, 10))
})

test_that("the ARI of many pairs in C has the bits of the tabulate() form in R", {
  # the form ari_pairs() had in R: every pair's contingency table by one tabulate()
  tabulated <- function(C, pairs, k) {
    n <- nrow(C)
    P <- ncol(pairs)
    comb2 <- function(v) as.double(v) * (v - 1) / 2
    keys <- (C[, pairs[1L, ]] - 1L) * k + C[, pairs[2L, ]] + rep((seq_len(P) - 1L) * k * k, each = n)
    index <- colSums(matrix(comb2(tabulate(keys, P * k * k)), k * k))
    per <- colSums(matrix(comb2(tabulate(C + rep((seq_len(ncol(C)) - 1L) * k, each = n), ncol(C) * k)), k))
    sa <- per[pairs[1L, ]]
    sb <- per[pairs[2L, ]]
    expected <- sa * sb / (as.double(n) * (n - 1) / 2)
    top <- (sa + sb) / 2
    ifelse(top == expected, 1, (index - expected) / (top - expected))
  }
  for (s in 1:4) {
    k <- c(2L, 5L, 20L, 75L)[s]
    C <- withr::with_seed(s, matrix(sample.int(k, 400 * 12, replace = TRUE,
                                               prob = seq_len(k)^2), 400))
    C[, 3] <- C[, 2] # one pair agrees exactly
    pairs <- utils::combn(12, 2)
    expect_identical(somgpu:::ari_pairs(C, pairs, k), tabulated(C, pairs, k))
  }
  # a missing cluster counts in no cell, as tabulate() drops it
  C <- withr::with_seed(9, matrix(sample.int(4, 300, replace = TRUE), 100))
  C[c(5, 50), 2] <- NA
  expect_identical(somgpu:::ari_pairs(C, utils::combn(3, 2), 4L),
                   tabulated(C, utils::combn(3, 2), 4L))
  expect_error(somgpu:::ari_pairs(C, utils::combn(3, 2), 3L), "outside 1..k")
})
