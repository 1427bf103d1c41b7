# Data frames as they come (issue 42): categorical columns as indicator columns, against a
# hand-built indicator matrix; predict(), the reports and select_size() read them back.

# A small mixed frame: two numeric columns (one with gaps), a factor with a missing value
# and an unused level, a logical and a character column.
mixed_frame <- function(n = 90, rng_seed = 1) {
  withr::with_seed(rng_seed, {
    g <- sample(1:3, n, replace = TRUE)
    a <- c(0, 3, 6)[g] + rnorm(n)
    b <- rnorm(n)
    b[c(4, 30)] <- NA
    f <- factor(c("lo", "mid", "hi")[g], levels = c("lo", "mid", "hi", "unused"))
    f[c(7, 50)] <- NA
    data.frame(a = a, f = f, b = b, ok = g == 2 | (runif(n) < 0.1),
               h = c("x", "y")[1 + (runif(n) < 0.3)], stringsAsFactors = FALSE)
  })
}

# The frame's indicator matrix built by hand: the factor's observed levels in their order,
# the logical's FALSE, TRUE, the character's sorted; 1/0, NA where missing.
hand_indicators <- function(d) {
  ind <- function(v, levels) {
    m <- vapply(levels, function(l) as.numeric(v == l), numeric(length(v)))
    m[is.na(v), ] <- NA
    m
  }
  x <- cbind(a = d$a, ind(as.character(d$f), c("lo", "mid", "hi")), b = d$b,
             ind(as.character(d$ok), c("FALSE", "TRUE")), ind(d$h, c("x", "y")))
  colnames(x) <- c("a", "f=lo", "f=mid", "f=hi", "b", "ok=FALSE", "ok=TRUE", "h=x", "h=y")
  x
}

# A categorical column's height by hand: its indicators' variances add up to 1.
hand_height <- function(v) {
  v <- v[!is.na(v)]
  p <- table(v) / length(v)
  1 / sqrt(1 - sum(p^2))
}

test_that("a mixed frame trains as its hand-built indicator matrix", {
  d <- mixed_frame()
  x <- hand_indicators(d)
  expect_message(fit <- train(d, nmax = 4, iter_max = 20, seed = 3),
                 "character column `h` taken as factor", fixed = TRUE)
  expect_identical(fit$data, x) # the encoding: names, order, NA rows, the unused level gone
  expect_equal(fit$encoding$height[c(2, 4, 5)],
               c(hand_height(d$f), hand_height(d$ok), hand_height(d$h)), tolerance = 1e-14)
  # the same maps as the hand-built matrix, each indicator at its height
  h <- c(1, rep(hand_height(d$f), 3), 1, rep(hand_height(d$ok), 2), rep(hand_height(d$h), 2))
  ref <- train(x, nmax = 4, iter_max = 20, seed = 3,
               scale = list(center = rep(0, 9), scale = 1 / h))
  expect_equal(fit$scaled_weights, ref$scaled_weights, tolerance = 1e-12)
  expect_identical(fit$clusters, ref$clusters)
  expect_identical(fit$dropped, ref$dropped)
  # scale = TRUE standardizes the numeric columns only; the weights read as level shares
  fs <- train(d, nmax = 4, iter_max = 20, seed = 3, algorithm = "batch", scale = TRUE)
  expect_equal(unname(fs$scaling$center[c("a", "b")]),
               c(mean(d$a), mean(d$b, na.rm = TRUE)), tolerance = 1e-14)
  expect_identical(unname(fs$scaling$center[-c(1, 5)]), rep(0, 7))
  w <- fs$weights$N4
  expect_identical(colnames(w), colnames(x))
  expect_equal(unname(rowSums(w[, c("f=lo", "f=mid", "f=hi")])), rep(1, 4), tolerance = 1e-12)
  expect_true(all(w[, -c(1, 5)] > -1e-12 & w[, -c(1, 5)] < 1 + 1e-12))
  # the user's data are not modified; numeric-only frames keep the path they had (no encoding)
  expect_identical(d, mixed_frame())
  expect_null(train(d[c("a", "b")], nmax = 3, iter_max = 5, seed = 1)$encoding)
})

test_that("predict() takes the user's columns, refuses a level it has not seen", {
  d <- suppressMessages(mixed_frame())
  fit <- suppressMessages(train(d, nmax = 4, iter_max = 20, seed = 3))
  expect_identical(predict(fit, d), fit$clusters)
  # by name, in any order, other columns ignored; a factor's labels as character or factor
  nd <- d[c(5, 1, 3), c("h", "b", "ok", "f", "a")]
  nd$f <- as.character(nd$f)
  nd$h <- factor(nd$h)
  nd$note <- "extra"
  expect_identical(unname(as.matrix(predict(fit, nd))),
                   unname(as.matrix(fit$clusters[c(5, 1, 3), ])))
  # a missing level: NA in every indicator, the row placed by its other columns
  x <- hand_indicators(d)
  one <- d[9, ]
  one$f <- NA
  xr <- x[9, , drop = FALSE]
  xr[, c("f=lo", "f=mid", "f=hi")] <- NA
  expect_identical(predict(fit, one, type = "detail"), predict(fit, xr, type = "detail"))
  one$f <- "new"
  err <- expect_error(predict(fit, one), class = "somgpu_unseen_level")
  expect_s3_class(err, "somgpu_input_error")
  expect_match(conditionMessage(err), "`f` of `newdata` has the level \"new\"", fixed = TRUE)
  expect_identical(err$column, "f")
  one$f <- "lo"
  one$a <- "3" # text where the fit had numbers
  expect_error(predict(fit, one), "`a` of `newdata` is character, but the fit trained it as a numeric",
               class = "somgpu_input_error")
  expect_error(predict(fit, d[c("a", "b")]), "lacks the columns `f`, `ok`, `h`",
               class = "somgpu_input_error")
})

test_that("var_weights stay per user column; refusals name the column", {
  d <- suppressMessages(mixed_frame())
  fit <- suppressMessages(train(d, nmax = 3, iter_max = 10, seed = 1,
                                var_weights = c(a = 1, f = 2, b = 1, ok = 0.5, h = 1)))
  expect_identical(unname(fit$var_weights), c(1, 2, 2, 2, 1, 0.5, 0.5, 1, 1))
  expect_error(train(d, nmax = 3, var_weights = rep(1, 9)), "one per column of the data \\(5",
               class = "somgpu_input_error")
  d$when <- as.Date("2024-01-01") + seq_len(nrow(d))
  expect_error(train(d, nmax = 3), "not usable: `when` \\(Date\\)", class = "somgpu_input_error")
  d$when <- NULL
  d$id <- sprintf("id%03d", seq_len(nrow(d)))
  expect_error(suppressMessages(train(d, nmax = 3)), "`id` of `y` has 90 levels \\(one per row\\): an identifier",
               class = "somgpu_input_error")
  d$id <- factor(NA, levels = "z")
  expect_error(train(d, nmax = 3), "`id` of `y` has no observed value",
               class = "somgpu_input_error")
})
