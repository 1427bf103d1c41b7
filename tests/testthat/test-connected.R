# Groups of any shape (R/connected.R, issue 39): Genie's linkage on a fine ring's prototypes,
# the number of groups where the rows' connectivity breaks, chosen over the Gaussian groups
# where those cut through dense data.

two_rings <- function(n = 600, seed = 1) {
  withr::with_seed(seed, {
    th <- runif(n, 0, 2 * pi)
    r <- rep(c(1, 3), n / 2)
    structure(cbind(r * cos(th), r * sin(th)) + matrix(rnorm(2 * n, sd = 0.1), ncol = 2),
              groups = rep(1:2, n / 2))
  })
}

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

test_that("the number of groups is where the crossing share breaks", {
  expect_identical(somgpu:::connected_breaks(c(0, 0, 0.08, 0.1, 0.12)), 2L)
  expect_identical(somgpu:::connected_breaks(c(0, 0, 0, 0.001, 0.3, 0.31)), 4L)
  expect_identical(somgpu:::connected_breaks(c(0, 0.5)), 1L) # no k from 2 to compare
  expect_identical(somgpu:::crossing_share(c(1, 1, 2), c(1, 2, 3, NA), c(2, 3, 1, 1)), 2 / 3)
})

test_that("two rings give 2 groups, every row in its ring; the Gaussian rule cuts them", {
  y <- two_rings()
  sel <- select_size(y, bootstrap = 4, seed = 1, progress = FALSE)
  expect_identical(sel$grouping$kind, "connected")
  expect_identical(sel$groups, 2L)
  expect_identical(sel$recommended, 2L)
  expect_identical(somgpu:::ari(sel$partition, attr(y, "groups"), 2L, 2L), 1)
  expect_match(sel$reason, "2 groups of any shape")
  expect_identical(predict(sel, y), sel$partition)
  expect_true(all(sel$group_table$stability > 0.85))
  gauss <- select_size(y, bootstrap = 4, seed = 1, progress = FALSE, shape = "gaussian")
  expect_gt(gauss$groups, 4L)
  expect_null(gauss$grouping$kind)
})

test_that("a chain of two linked rings gives 2 groups", {
  y <- withr::with_seed(2, {
    th <- runif(800, 0, 2 * pi)
    ring <- rep(1:2, 400)
    # fcps' chainlink: two unit rings through each other, at right angles
    a <- cbind(cos(th), sin(th), 0)
    b <- cbind(1 + cos(th), 0, sin(th))
    xyz <- ifelse(ring == 1, 1, 0) * a + ifelse(ring == 2, 1, 0) * b
    structure(xyz + matrix(rnorm(2400, sd = 0.05), ncol = 3), groups = ring)
  })
  sel <- select_size(y, bootstrap = 4, seed = 1, progress = FALSE)
  expect_identical(sel$groups, 2L)
  expect_identical(somgpu:::ari(sel$partition, attr(y, "groups"), 2L, 2L), 1)
})

test_that("Gaussian blobs keep the Gaussian groups and their count", {
  for (k in c(3L, 5L)) {
    centres <- withr::with_seed(k, matrix(rnorm(k * 4, sd = 6), k))
    g <- rep(seq_len(k), each = 80)
    y <- withr::with_seed(k + 10, centres[g, ] + matrix(rnorm(length(g) * 4), ncol = 4))
    sel <- select_size(y, bootstrap = 4, seed = 1, progress = FALSE)
    expect_identical(sel$groups, k)
    expect_null(sel$grouping$kind)
    expect_gte(somgpu:::ari(sel$partition, g, k, k), 0.95)
  }
  # no group structure stays none: the connected rule is not asked
  u <- withr::with_seed(3, matrix(runif(1200), ncol = 3))
  expect_identical(select_size(u, bootstrap = 4, seed = 1, progress = FALSE)$groups, 1L)
})

test_that("shape is checked, and \"connected\" forces the connected groups", {
  expect_error(select_size(iris[1:4], shape = "round"), "`shape` must be one of",
               class = "somgpu_input_error")
  sel <- select_size(iris[1:4], sizes = 2:6, bootstrap = 3, seed = 1, progress = FALSE,
                     shape = "connected", scale = TRUE)
  expect_identical(sel$grouping$kind, "connected")
  expect_length(sel$partition, 150L)
  expect_false(anyNA(sel$partition))
})
