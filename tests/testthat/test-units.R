# select_size(scale = "auto"): columns in different units standardized (R/select_units.R).

# two groups in a column of spread about 0.5, beside a uniform column in units 1,000 times
# larger: in the data's units the maps see the wide column alone
mixed_units <- function() {
  set.seed(3)
  cbind(a = c(rnorm(100, 0, 0.1), rnorm(100, 1, 0.1)), b = runif(200, 0, 1000))
}

# whether two partitions are the same up to the groups' numbers
same_partition <- function(p, q) {
  tab <- table(p, q) > 0
  all(rowSums(tab) == 1L) && all(colSums(tab) == 1L)
}

test_that("the spread ratio is the largest column sd over the smallest positive one", {
  x <- cbind(a = c(1, 2, 3, 4), b = c(10, 30, NA, 50), c = 7, d = c(NA, NA, 2, NA))
  # by hand: sd(a) = sqrt(5 / 3); sd(b) over its observed values = 20; c has no spread and
  # d a single value: both left out
  expect_equal(somgpu:::spread_ratio(x), 20 / sqrt(5 / 3))
  expect_identical(somgpu:::spread_ratio(x[, c("a", "c"), drop = FALSE]), 1)
  expect_identical(somgpu:::spread_ratio(x[, "a", drop = FALSE]), 1)
})

test_that("a column that varies by rounding alone has no spread; huge values keep theirs", {
  # 0.3 computed two ways (0.1 * 3 and 0.3 differ by 5.6e-17): rounding, not a spread
  x <- withr::with_seed(1, cbind(a = rnorm(50), b = rnorm(50, sd = 2),
                                 c = c(rep(0.3, 49), 0.1 * 3)))
  expect_gt(stats::sd(x[, "c"]), 0)
  expect_equal(somgpu:::spread_ratio(x), stats::sd(x[, "b"]) / stats::sd(x[, "a"]))
  sc <- somgpu:::column_scaling(x, NULL)
  expect_identical(unname(sc$scale[["c"]]), 1) # divided by 1, not blown up
  expect_equal(unname(sc$scale[c("a", "b")]), unname(apply(x[, 1:2], 2, stats::sd)))
  expect_false(select_size(x, sizes = 2:3, bootstrap = 2, seed = 1, threads = 2,
                           progress = FALSE)$strategy$scaled)
  # a tiny spread around 0 is data, and a column near 1e200 keeps its spread (its squares
  # overflow): the ratio of the two, by hand
  y <- cbind(u = c(-1, 1, -1, 1) * 1e-20, v = c(1, 2, 3, 4))
  expect_equal(somgpu:::spread_ratio(y), sqrt(5 / 3) / (sqrt(4 / 3) * 1e-20))
  z <- cbind(big = c(1, 2, 3, 4) * 1e200, one = c(1, 2, 3, 4))
  expect_equal(somgpu:::spread_ratio(z), 1e200)
})

test_that("scale = \"auto\" standardizes columns in different units and finds their groups", {
  y <- mixed_units()
  truth <- rep(1:2, each = 100)
  args <- list(y, sizes = 2:6, restarts = 2, bootstrap = 4, iter_max = 30, seed = 1,
               threads = 2, progress = FALSE)
  auto <- do.call(select_size, args)
  kept <- do.call(select_size, c(args, scale = FALSE))
  s <- apply(y, 2, sd)
  expect_true(auto$strategy$scaled)
  expect_equal(auto$strategy$spread_ratio, max(s) / min(s))
  expect_match(auto$strategy$text, "columns standardized \\(their spreads differ 55[0-9]-fold")
  expect_output(print(auto), "columns standardized")
  # the maps are train()'s with scale = TRUE
  direct <- train(y, sizes = 2:6, restarts = 2, iter_max = 30, seed = 1, sigma0 = "auto",
                  scale = TRUE, threads = 2, keep_data = FALSE, progress = FALSE)
  expect_identical(auto$fit$weights, direct$weights)
  expect_identical(auto$fit$scaling, direct$scaling)
  # the groups of column a found; in the data's units, not
  expect_identical(auto$groups, 2L)
  expect_true(same_partition(auto$partition, truth))
  expect_false(kept$strategy$scaled)
  expect_null(kept$fit$scaling)
  expect_false(same_partition(kept$partition, truth))
  # TRUE gives the same as "auto" here, without the ratio
  forced <- do.call(select_size, c(args, scale = TRUE))
  expect_identical(forced$partition, auto$partition)
  expect_true(is.na(forced$strategy$spread_ratio))
  expect_false(grepl("standardized", forced$strategy$text))
})

test_that("columns in one unit keep it: \"auto\" is scale = FALSE there, bit for bit", {
  set.seed(4)
  y <- rbind(matrix(rnorm(120, 0, 1), ncol = 2), matrix(rnorm(120, 5, 3), ncol = 2))
  expect_lt(somgpu:::spread_ratio(y), 10)
  args <- list(y, sizes = 2:5, restarts = 1, bootstrap = 3, iter_max = 20, seed = 2,
               threads = 2, progress = FALSE)
  auto <- do.call(select_size, args)
  kept <- do.call(select_size, c(args, scale = FALSE))
  expect_false(auto$strategy$scaled)
  expect_identical(auto$fit$weights, kept$fit$weights)
  expect_identical(auto$partition, kept$partition)
  expect_identical(auto$criteria, kept$criteria)
})

test_that("a data frame with categorical columns is standardized under \"auto\"", {
  set.seed(5)
  df <- data.frame(x = c(rnorm(30), rnorm(30, 4)), f = factor(rep(c("u", "v"), 30)))
  sel <- select_size(df, sizes = 2:4, restarts = 1, bootstrap = 3, iter_max = 20, seed = 1,
                     threads = 2, progress = FALSE)
  expect_true(sel$strategy$scaled)
  expect_false(is.null(sel$fit$scaling))
  expect_true(is.na(sel$strategy$spread_ratio))
})

test_that("a `scale` select_size() does not know is a classed error naming \"auto\"", {
  y <- mixed_units()
  for (bad in list("yes", 2, NA, c(TRUE, FALSE))) {
    expect_error(select_size(y, sizes = 2:4, scale = bad, seed = 1, threads = 2),
                 class = "somgpu_input_error", regexp = "\"auto\", TRUE, FALSE or a list")
  }
})

test_that("the data multiplied by a constant give the same groups (issue 68)", {
  # three round groups 5 sd apart: X's groups are (up to a few rows in the tails) those the
  # rows were drawn from, and X in other units (times 1e-7, 1e-100 or 1e7) holds the same
  # groups, found by the same rules (once, below 1, variances were floored at an absolute
  # 1e-10 and X * 1e-7 was one group)
  set.seed(1)
  truth <- rep(1:3, each = 100)
  x <- cbind(rnorm(300, c(0, 5, 0)[truth]), rnorm(300, c(0, 5, 5)[truth]))
  base <- select_size(x, seed = 1, threads = 1, progress = FALSE)
  expect_identical(base$groups, 3L)
  expect_gt(ref_ari(base$partition, truth), 0.95)
  for (k in c(1e-7, 1e-100, 1e7)) {
    sel <- select_size(x * k, seed = 1, threads = 1, progress = FALSE)
    expect_identical(sel$groups, 3L, label = sprintf("groups of x * %g", k))
    expect_true(same_partition(sel$partition, base$partition),
                label = sprintf("x * %g's partition is x's", k))
    expect_identical(sel$decisions$outcome, base$decisions$outcome)
  }
})
