# Groups parted by sparse rows (R/dense.R): the dense rows' neighbour crossing, and the
# rule that takes the rows' groups over unsteady Gaussian groups.

# two interleaved moons (300 rows each) with uniform noise among them (label 0)
noisy_moons <- function(seed, n = 300, noise = 0.1) {
  set.seed(seed)
  t1 <- runif(n, 0, pi)
  t2 <- runif(n, 0, pi)
  a <- cbind(cos(t1), sin(t1)) + matrix(rnorm(2 * n, sd = 0.05), n)
  b <- cbind(1 - cos(t2), 0.5 - sin(t2)) + matrix(rnorm(2 * n, sd = 0.05), n)
  k <- round(noise * 2 * n)
  list(y = rbind(a, b, cbind(runif(k, -1.5, 2.5), runif(k, -1, 1.5))),
       truth = c(rep(1:2, each = n), rep(0L, k)))
}

test_that("the dense rows' neighbours and their crossing match a brute-force count", {
  x <- withr::with_seed(1, rbind(matrix(rnorm(80, sd = 0.3), 40), matrix(runif(20, -3, 3), 10)))
  x <- rbind(x, x[1, ], x[1, ], x[2, ], x[2, ], x[2, ], x[2, ], x[2, ]) # copies: 2 and 5 (> m)
  n <- nrow(x)
  m <- 4L
  nb <- somgpu:::dense_neighbours(x, m)
  d <- as.matrix(stats::dist(x))
  for (i in seq_len(n)) {
    others <- setdiff(seq_len(n), i)
    expect_identical(nb$knn[i, ], others[order(d[i, others])][seq_len(m)])
  }
  kth <- vapply(seq_len(n), function(i) sort(d[i, -i])[m], 0)
  expect_identical(nb$core, kth <= stats::quantile(kth, 0.9, names = FALSE))
  labels <- rep(1:2, length.out = n)
  pairs <- unlist(lapply(which(nb$core), function(i) labels[nb$knn[i, ]] != labels[i]))
  expect_equal(somgpu:::neighbour_crossing(labels, nb$knn, nb$core), mean(pairs))
  expect_identical(somgpu:::neighbour_crossing(rep(1L, n), nb$knn, nb$core), 0)
})

test_that("noisy moons: the rows' groups parted by sparse rows replace the Gaussian pieces", {
  d <- noisy_moons(4)
  keep <- d$truth > 0
  sel <- select_size(d$y, sizes = 2:10, seed = 1, threads = 2, progress = FALSE)
  expect_identical(sel$groups, 2L)
  expect_identical(sel$grouping$rule, "sparse")
  expect_identical(sel$grouping$assign, "rows")
  dn <- sel$grouping$detail
  expect_false(is.null(dn$crossing))
  d_row <- sel$decisions[sel$decisions$rule == "sparse", ]
  expect_identical(d_row$outcome, "accepted")
  expect_identical(d_row$value, dn$crossing[2])
  expect_lt(dn$gaussian_steadiness, 0.95)
  expect_lt(dn$crossing[2], 0.001)
  expect_gt(dn$gaussian_crossing, 0.01)
  expect_identical(as.vector(table(sel$partition[keep], d$truth[keep]) > 0),
                   c(TRUE, FALSE, FALSE, TRUE)) # each moon one group
  expect_match(sel$reason, "2 groups parted by sparse rows")
  # the Gaussian rule alone tiles the moons
  gauss <- select_size(d$y, sizes = 2:10, seed = 1, threads = 2, progress = FALSE,
                       shape = "gaussian")
  expect_gt(gauss$groups, 2L)
  # new rows join their nearest grouped row's group (found by brute force)
  new <- d$y[c(1, 301, 450, 610), ] + withr::with_seed(9, matrix(rnorm(8, sd = 0.05), 4))
  grouped <- which(!is.na(sel$partition))
  nearest <- apply(new, 1, function(r) grouped[which.min(colSums((t(d$y[grouped, ]) - r)^2))])
  expect_identical(predict(sel, new, threads = 2), sel$partition[nearest])
})

test_that("the rule asks only for unsteady Gaussian groups with shape = \"auto\"", {
  d <- noisy_moons(4)
  fit <- train(d$y, sizes = 10, seed = 1, threads = 2)
  g <- somgpu:::fit_grouping(fit, d$y, fit$clusters$N10)
  expect_gt(g$groups, 2L)
  # the replicates' reading of the Gaussian groups' steadiness, as the inputs keep it
  rule <- function(fit, y, current, steadiness, shape = "auto") {
    inputs <- test_rule_inputs(fit, y, 10L, current, shape)
    assign("steadiness", steadiness, envir = inputs$cache)
    apply_rule("sparse", inputs, current)
  }
  got <- rule(fit, d$y, g, 0.5)
  expect_identical(got$grouping$rule, "sparse")
  expect_identical(got$grouping$groups, 2L)
  # no grouping, or one group: nothing to part
  expect_identical(rule(fit, d$y, NULL, 0.5)$decision$outcome, "not tried")
  one <- somgpu:::update_grouping(g, groups = 1L, partition = rep(1L, length(g$partition)),
                                  neurons = rep(1L, 10L))
  expect_identical(rule(fit, d$y, one, 0.5)$decision$outcome, "not tried")
  steady <- rule(fit, d$y, g, 0.96)
  expect_null(steady$grouping)
  expect_identical(steady$decision[c("outcome", "statistic", "value", "threshold", "constant")],
                   data.frame(outcome = "declined", statistic = "Gaussian steadiness",
                              value = 0.96, threshold = 0.95, constant = "steady"))
  expect_identical(rule(fit, d$y, g, 0.5, "gaussian")$decision$outcome, "not tried")
  # Gaussian blobs that cross dense rows no more than the floor: kept
  blobs <- withr::with_seed(2, rbind(matrix(rnorm(400, 0, 0.5), 200),
                                     matrix(rnorm(400, 4, 0.5), 200)))
  fb <- train(blobs, sizes = 10, seed = 1, threads = 2)
  gb <- somgpu:::fit_grouping(fb, blobs, fb$clusters$N10)
  kept <- rule(fb, blobs, gb, 0.5)
  expect_null(kept$grouping)
  expect_identical(kept$decision$statistic, "Gaussian dense neighbours across")
  expect_lte(kept$decision$value, kept$decision$threshold)
})
