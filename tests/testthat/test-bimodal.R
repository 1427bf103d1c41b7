# Rule "bimodal" (R/rule_bimodal.R, issue 53): where the Gaussian rule finds one group, two
# Gaussian groups whose rows' density dips between them are two groups.

# Two spherical Gaussian groups of n_each rows in d columns, centres `sep` standard
# deviations apart along `direction` (1: the first column; else a random one); attribute
# "nearer": each row's nearer true centre.
two_gaussians <- function(d, sep, n_each = 1024, seed = 1, direction = 1) {
  withr::with_seed(seed, {
    u <- if (identical(direction, 1)) c(1, rep(0, d - 1)) else {
      v <- rnorm(d)
      v / sqrt(sum(v^2))
    }
    g <- rep(1:2, each = n_each)
    y <- matrix(rnorm(2 * n_each * d), ncol = d) + outer(g - 1, sep * u)
    structure(y, nearer = 1L + (drop(y %*% u) > sep / 2))
  })
}

# A slow reference of one half's dip (half_dip()), from its documentation: the direction
# from xa's groups' means and pooled covariance; the kernel density of xb's projections
# summed kernel by kernel on a grid of 512 points; the rows within one bandwidth of the dip
# between the means and of the lower side's peak.
ref_half_dip <- function(xa, la, xb) {
  m <- rbind(colMeans(xa[la == 1, , drop = FALSE]), colMeans(xa[la == 2, , drop = FALSE]))
  S <- (crossprod(xa[la == 1, , drop = FALSE] - rep(m[1, ], each = sum(la == 1))) +
          crossprod(xa[la == 2, , drop = FALSE] - rep(m[2, ], each = sum(la == 2)))) / nrow(xa)
  S <- S + diag(1e-6 * mean(diag(S)), ncol(S))
  w <- solve(S, m[2, ] - m[1, ])
  t <- as.vector((xb - rep(m[1, ], each = nrow(xb))) %*% w) / sum((m[2, ] - m[1, ]) * w)
  h <- 0.9 * min(stats::sd(t), stats::IQR(t) / 1.34) * length(t)^-0.2
  grid <- seq(min(t), max(t), length.out = 512)
  f <- vapply(grid, function(g) mean(stats::dnorm(g, t, h)), 0)
  inside <- which(grid >= 0 & grid <= 1)
  dip <- inside[which.min(f[inside])]
  left <- seq_len(dip)
  right <- dip:512
  peak <- if (max(f[left]) < max(f[right])) left[which.max(f[left])] else right[which.max(f[right])]
  a <- sum(abs(t - grid[peak]) <= h)
  b <- sum(abs(t - grid[dip]) <= h)
  (a - b) / sqrt(a + b)
}

test_that("a half's dip matches a slow reference", {
  for (case in 1:3) {
    y <- two_gaussians(c(1, 2, 5)[case], c(3, 4, 2.5)[case], n_each = 300, seed = case,
                       direction = 0)
    g <- attr(y, "nearer")
    a <- seq(1, nrow(y), 2)
    b <- seq(2, nrow(y), 2)
    got <- somgpu:::half_dip(y[a, , drop = FALSE], g[a], y[b, , drop = FALSE])
    # the package's density is binned (stats::density()): the grid points may differ by
    # one, and the counts within a bandwidth by a few rows
    expect_equal(got, ref_half_dip(y[a, , drop = FALSE], g[a], y[b, , drop = FALSE]),
                 tolerance = 0.1, label = sprintf("case %d", case))
  }
  # a dip grows with the separation; none inside one cloud cut in two
  z <- vapply(c(2, 3, 4, 5), function(s) {
    y <- two_gaussians(1, s, n_each = 500, seed = 2)
    somgpu:::bimodal_dip(y, attr(y, "nearer"))
  }, 0)
  expect_true(all(diff(z) > 0))
  one <- withr::with_seed(3, matrix(rnorm(1000), ncol = 1))
  expect_lt(somgpu:::bimodal_dip(one, 1L + (one[, 1] > 0)), 1)
})

test_that("the direction is fitted on the other half: a cloud in many columns shows no dip", {
  # 1,000 Gaussian rows in 256 columns, halved by their first principal component's sign:
  # projected on a direction fitted to the same rows, a dip shows; on the other half's, none
  y <- withr::with_seed(4, matrix(rnorm(1000 * 256), ncol = 256))
  g <- 1L + (stats::prcomp(y)$x[, 1] > 0)
  expect_lt(somgpu:::bimodal_dip(y, g), somgpu:::tuned("bimodal_z"))
  expect_gt(somgpu:::half_dip(y, g, y), somgpu:::tuned("bimodal_z"))
})

test_that("two Gaussian groups 3 standard deviations apart are two groups, in 1 to 16 columns", {
  for (d in c(1L, 2L, 16L)) {
    y <- two_gaussians(d, 3)
    for (shape in c("auto", "gaussian")) {
      sel <- select_size(y, seed = 1, threads = 2, progress = FALSE, shape = shape)
      lab <- sprintf("%d columns, shape %s", d, shape)
      expect_identical(sel$groups, 2L, label = lab)
      expect_identical(sel$grouping$rule, "bimodal", label = lab)
      expect_gte(somgpu:::ari(sel$partition, attr(y, "nearer"), 2L, 2L), 0.85)
      b <- sel$decisions[sel$decisions$rule == "bimodal", ]
      expect_identical(b$outcome, "accepted")
      expect_gt(b$value, b$threshold)
    }
  }
  expect_match(sel$reason, "the rows' density dips between the two halves")
  # the groups' stability: the replicates found the two groups on their own maps
  expect_true(all(sel$group_table$stability > 0.75))
  # new rows: their most probable group of the two
  expect_identical(predict(sel, y), sel$partition)
})

test_that("one cloud, a uniform box or a skewed cloud stay one group", {
  clouds <- list(withr::with_seed(5, matrix(rnorm(3000), ncol = 2)),
                 withr::with_seed(6, matrix(runif(2000), ncol = 1)),
                 withr::with_seed(7, matrix(rexp(2000), ncol = 2)),
                 two_gaussians(2, 2)) # 2 sd apart: one flat-topped mode
  for (i in seq_along(clouds)) {
    sel <- select_size(clouds[[i]], sizes = 2:8, seed = 1, threads = 2, progress = FALSE,
                       bootstrap = 4)
    b <- sel$decisions[sel$decisions$rule == "bimodal", ]
    expect_false(identical(b$outcome, "accepted"), label = sprintf("cloud %d", i))
  }
  # categorical columns: not asked (their levels make dips of their own)
  df <- data.frame(x = withr::with_seed(8, rnorm(200)), f = factor(rep(c("a", "b"), 100)))
  sel <- select_size(df, sizes = 2:4, bootstrap = 2, seed = 1, progress = FALSE)
  b <- sel$decisions[sel$decisions$rule == "bimodal", ]
  if (sel$groups == 1L) expect_match(b$reason, "categorical columns")
})
