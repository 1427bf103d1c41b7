# R/math_pca.R: rings relabelled from the first principal component (align = TRUE), and
# init = "pca" on the ellipse of the first two, against prcomp().

test_that("align: rings relabelled from the first principal component, consistently", {
  y <- two_blobs(seed = 4)
  raw <- train(y, nmax = 6, iter_max = 15, seed = 5)
  al <- train(y, nmax = 6, iter_max = 15, seed = 5, align = TRUE)
  expect_true(al$params$align)
  pc1 <- prcomp(y)$rotation[, 1]
  pc1 <- pc1 * sign(pc1[which.max(abs(pc1))])
  for (N in 2:6) {
    key <- paste0("N", N)
    # the same map and partition, relabelled
    expect_equal(sort(rowSums(al$weights[[key]])), sort(rowSums(raw$weights[[key]])))
    expect_equal(ref_ari(al$clusters[[key]], raw$clusters[[key]]), 1)
    # label 1 is the neuron lowest on PC1, and its clusters are its nearest rows
    score <- drop(sweep(al$weights[[key]], 2, colMeans(y)) %*% pc1)
    expect_identical(which.min(score), 1L)
    if (N > 2) expect_lte(score[2], score[N]) # towards the lower neighbour (ties: label 2 next)
    expect_identical(al$clusters[[key]], ref_assess(y, al$weights[[key]])$clusters)
  }
  expect_identical(al$quality$qe, raw$quality$qe)
})

test_that("init = 'pca' puts the ring on the ellipse of the first two components", {
  y <- two_blobs(seed = 5)
  fit <- train(y, sizes = c(4, 7), iter_max = 1, init = "pca", seed = 1)
  expect_identical(fit$params$init, "pca")
  p <- prcomp(y)
  rot <- apply(p$rotation[, 1:2], 2, function(v) v * sign(v[which.max(abs(v))]))
  for (N in c(4, 7)) {
    a <- 2 * pi * (0:(N - 1)) / N
    ref <- matrix(colMeans(y), N, 3, byrow = TRUE) + outer(cos(a) * p$sdev[1], rot[, 1]) +
      outer(sin(a) * p$sdev[2], rot[, 2])
    expect_equal(unname(fit$weights[[paste0("N", N)]]), unname(ref), tolerance = 1e-10)
  }
  # deterministic: the seed does not matter
  expect_identical(train(y, sizes = 4, iter_max = 3, init = "pca", seed = 1)$weights,
                   train(y, sizes = 4, iter_max = 3, init = "pca", seed = 1)$weights)
  one_d <- train(y[, 1], sizes = 3, iter_max = 1, init = "pca", seed = 1)
  expect_true(all(is.finite(one_d$weights$N3)))
})
