# Bad input ends in a classed condition (somgpu_input_error, somgpu_error, error) whose
# message names the problem; the data are never modified.

y0 <- seed_data(30, 3, rng_seed = 1)

expect_input_error <- function(expr, regexp) {
  err <- expect_error(expr, regexp, class = "somgpu_input_error")
  expect_s3_class(err, "somgpu_error")
  expect_s3_class(err, "error")
  invisible(err)
}

test_that("numeric containers are unwrapped, other classed objects are named", {
  ts_y <- stats::ts(y0)
  expect_identical(train(ts_y, nmax = 3, iter_max = 3, seed = 1)$weights,
                   train(unclass(y0), nmax = 3, iter_max = 3, seed = 1)$weights)
  tab <- table(rep(1:3, 1:3), rep(1:2, 3))
  expect_s3_class(train(tab, sizes = 2, iter_max = 3), "somgpu")
  expect_s3_class(train(I(y0), nmax = 3, iter_max = 3), "somgpu")
  one_d <- array(y0[, 1], dim = 30)
  expect_identical(dim(train(one_d, sizes = 2, iter_max = 3)$weights$N2), c(2L, 1L))
  expect_input_error(train(Sys.Date() + 1:10), "an object of class Date")
})

test_that("unsupported data types are refused and named", {
  expect_input_error(train(list(1:3, 4:6)), "not a list")
  expect_input_error(train(matrix(letters[1:6], 3)), "not a character matrix")
  expect_input_error(train(letters), "not a character vector")
  expect_input_error(train(factor(1:5)), "not a factor")
  expect_input_error(train(matrix(TRUE, 4, 2)), "not a logical matrix")
  expect_input_error(train(array(1, c(2, 2, 2))), "3 dimensions")
  expect_input_error(train(NULL), "`y` is NULL")
  expect_input_error(train(function(x) x), "not function")
  # factor, character and logical columns are categorical (test-encode.R); other types are
  # refused, each named
  df <- data.frame(a = 1:4, b = letters[1:4], c = factor(1:4), d = c(TRUE, FALSE, TRUE, FALSE),
                   z = 1i * (1:4))
  df$when <- as.Date("2020-01-01") + 0:3
  err <- expect_input_error(suppressMessages(train(df)),
                            "numeric, factor, logical or character columns")
  expect_match(conditionMessage(err), "`z` (complex), `when` (Date)", fixed = TRUE)
  for (nm in c("a", "b", "c", "d")) expect_false(grepl(sprintf("`%s`", nm), conditionMessage(err), fixed = TRUE))
  df2 <- data.frame(a = 1:4)
  df2$m <- matrix(1:8, 4)
  expect_input_error(train(df2), "`m` \\(a matrix column\\)")
  df3 <- data.frame(a = as.Date("2020-01-01") + 0:3, b = 1:4)
  expect_input_error(train(df3), "`a` \\(Date\\)")
})

test_that("a refused type is told what is taken; a sparse matrix, as.matrix() (issue 68)", {
  # what train() takes: numeric matrices and vectors, data frames of numeric, factor,
  # logical and character columns (test-encode.R), file-backed big.matrix (test-filedata.R)
  taken <- "a numeric matrix or vector, a data frame of numeric, factor, logical or character columns, or a bigmemory::big.matrix"
  err <- expect_input_error(train(NULL), "`y` is NULL")
  expect_match(conditionMessage(err), taken, fixed = TRUE)
  err <- expect_input_error(train(list(1:3, 4:6)), "not a list")
  expect_match(conditionMessage(err), taken, fixed = TRUE)
  expect_input_error(select_size(NULL), "`y` is NULL")
  fit <- train(y0, sizes = 2, iter_max = 3, seed = 1)
  expect_input_error(predict(fit, NULL), "`newdata` is NULL")
  skip_if_not_installed("Matrix")
  sp <- Matrix::Matrix(y0, sparse = TRUE)
  err <- expect_input_error(train(sp), "not a sparse matrix \\(class dgCMatrix\\)")
  expect_match(conditionMessage(err), "convert it with as.matrix()", fixed = TRUE)
  expect_input_error(predict(fit, sp), "`newdata` .* as.matrix\\(\\)")
  # as told, it trains as the dense matrix does
  expect_identical(train(as.matrix(sp), sizes = 2, iter_max = 3, seed = 1)$weights, fit$weights)
})

test_that("infinite values are counted and located; missing values are allowed", {
  y <- y0
  y[7, 2] <- NA
  y[5, 3] <- Inf
  y[9, 1] <- -Inf
  err <- expect_input_error(train(y), "2 infinite values \\(Inf or -Inf\\)")
  expect_match(conditionMessage(err), "first is in row 5")
  expect_match(conditionMessage(err), "by NA")
  y <- y0
  y[30, 1] <- -Inf
  expect_input_error(train(y), "1 infinite value .*row 30")
  df <- as.data.frame(y0)
  df$x2[12] <- NA
  df$x1[3] <- NaN
  fit <- train(df, nmax = 3, iter_max = 5, seed = 1, threads = 1, backend = "cpu")
  expect_true(all(!is.na(fit$clusters$N3)))
  expect_identical(fit$dropped, integer(0))
})

test_that("too few rows or no columns are refused", {
  expect_input_error(train(y0[1, , drop = FALSE]), "has 1 row; at least 2")
  expect_input_error(train(y0[0, , drop = FALSE]), "has 0 rows")
  expect_input_error(train(matrix(numeric(0), 5, 0)), "no columns")
  expect_input_error(train(data.frame(row.names = 1:5)), "no columns")
  expect_input_error(train(data.frame(a = numeric(0))), "has 0 rows")
  expect_input_error(train(5), "has 1 row")
})

test_that("bad sizes are refused", {
  expect_input_error(train(y0, sizes = 1), "`sizes` must be whole numbers")
  expect_input_error(train(y0, sizes = c(2, 2.5)), "`sizes` must be whole numbers")
  expect_input_error(train(y0, sizes = c(3, NA)), "`sizes`")
  expect_input_error(train(y0, sizes = "4"), "`sizes`")
  expect_input_error(train(y0, sizes = numeric(0)), "`sizes`")
  expect_input_error(train(y0, sizes = Inf), "`sizes`")
  expect_input_error(train(y0, sizes = 3e9), "`sizes`")
  expect_input_error(train(y0, sizes = c(3, 4, 3)), "repeat a size; 3")
  expect_input_error(train(y0, sizes = 3:4, nmax = 5), "either `sizes` or `nmin`/`nmax`")
})

test_that("bad nmax and nmin are refused", {
  for (bad in list(NA, -1, 1, Inf, 1e10, 2.5, "10", c(5, 6), NULL, NaN)) {
    expect_input_error(train(y0, nmax = bad), "`nmax` must be a single whole number")
  }
  expect_input_error(train(y0, nmin = 0), "`nmin`")
  expect_input_error(train(y0, nmin = 6, nmax = 4), "`nmin` \\(6\\) must not exceed `nmax` \\(4\\)")
})

test_that("bad schedule parameters are refused", {
  for (bad in list(0, -5, NA, 1e12, 2.5, "150", c(10, 20))) {
    expect_input_error(train(y0, iter_max = bad), "`iter_max`")
  }
  for (bad in list(0, -1, NA, Inf, NaN, "5", c(1, 2), TRUE)) {
    expect_input_error(train(y0, sigma0 = bad), "`sigma0` must be \"auto\"")
  }
  for (bad in list(0, -0.5, 1.5, NA, Inf, "1")) {
    expect_input_error(train(y0, eta0 = bad), "`eta0` must be a single number in \\(0, 1\\]")
  }
})

test_that("bad restarts, threads, seed and progress are refused", {
  for (bad in list(0, NA, -1, 1e10, 1.5, "2")) {
    expect_input_error(train(y0, restarts = bad), "`restarts`")
  }
  for (bad in list(0, NA, -1, 1e10, 1.5, "2")) {
    expect_input_error(train(y0, threads = bad), "`threads`")
  }
  for (bad in list(NA, 1.5, 3e9, -3e9, "a", c(1, 2), Inf)) {
    expect_input_error(train(y0, seed = bad), "`seed` must be NULL or a single whole number")
  }
  for (bad in list(NA, "yes", c(TRUE, FALSE), 1)) {
    expect_input_error(train(y0, progress = bad), "`progress` must be TRUE or FALSE")
  }
})

test_that("unknown option values are refused with the valid choices", {
  expect_input_error(train(y0, backend = "gpu"), "\"auto\", \"cpu\", \"opencl\" \\(or a unique start of one\\), not \"gpu\"")
  expect_input_error(train(y0, backend = NA), "`backend`")
  expect_input_error(train(y0, init = "random"), "\"uniform\", \"sample\", \"pca\" \\(or a unique start of one\\), not \"random\"")
  expect_input_error(train(y0, init = 5), "`init` must be \"uniform\", \"sample\", \"pca\", a list")
  for (arg in c("trace", "align", "keep_data")) {
    expect_input_error(do.call(train, setNames(list(y0, NA), c("y", arg))),
                       sprintf("`%s` must be TRUE or FALSE", arg))
  }
})

test_that("user init lists of the wrong length, shape or values are refused", {
  ok <- list(matrix(0, 2, 3), matrix(0, 3, 3))
  expect_input_error(train(y0, sizes = 2:3, init = ok[1]), "has 1 matrix but there are 2 sizes")
  expect_input_error(train(y0, sizes = 2, init = ok), "has 2 matrices but there is 1 size")
  expect_input_error(train(y0, sizes = 2:3, init = list(matrix(0, 2, 3), matrix(0, 3, 2))),
                     "`init\\[\\[2\\]\\]` must be a numeric 3 x 3 matrix .* not a 3 x 2 double matrix")
  expect_input_error(train(y0, sizes = 2:3, init = list(matrix(0, 2, 3), "a")), "`init\\[\\[2\\]\\]`")
  bad <- ok
  bad[[1]][1, 1] <- NA
  expect_input_error(train(y0, sizes = 2:3, init = bad), "`init\\[\\[1\\]\\]` has missing")
  expect_input_error(train(y0, sizes = 31, init = "sample"), "31 neurons needs more rows than the 30")
})

test_that("maps too large to allocate are refused before anything is allocated", {
  err <- expect_input_error(train(y0, nmax = 2e9), "cannot be allocated")
  expect_s3_class(err, "somgpu_memory_error")
  expect_input_error(train(y0, sizes = 2^31 - 1), "cannot be allocated")
  expect_input_error(train(y0, nmax = 10, restarts = 2e9), "cannot be allocated")
  withr::with_options(list(somgpu.max_memory = 1e5), {
    expect_input_error(train(y0, nmax = 1000), "more than the 100 kB available")
  })
})

test_that("allocation failures in compiled code become somgpu_memory_error", {
  err <- expect_error(
    somgpu:::call_core("train the maps", NULL, function() stop("cannot allocate vector of size 9 Gb")),
    "could not train the maps: cannot allocate vector", class = "somgpu_memory_error")
  expect_s3_class(err, "somgpu_error")
  other <- expect_error(
    somgpu:::call_core("train the maps", NULL, function() stop("something else broke")),
    "something else broke", class = "somgpu_internal_error")
  expect_false(inherits(other, "somgpu_memory_error"))
})

test_that("data whose squared distances would overflow or vanish are refused", {
  big <- y0 * 1e200
  expect_input_error(train(big, nmax = 3), "values up to 9.9[0-9]e\\+199 .* would overflow .* Divide `y` by 1e199, or pass scale = TRUE")
  expect_input_error(train(y0, sizes = 2, init = list(matrix(1e300, 2, 3))), "would overflow")
  expect_input_error(train(y0 * 1e-150, nmax = 3), "below 1e-140 .* would underflow")
  # zeros are fine: a constant column, or all-zero data
  expect_s3_class(train(cbind(y0, 0), nmax = 3, iter_max = 3), "somgpu")
  expect_s3_class(train(matrix(0, 10, 2), nmax = 3, iter_max = 3), "somgpu")
  expect_s3_class(train(y0 * 1e100, nmax = 3, iter_max = 3), "somgpu")
})

test_that("the data are never modified", {
  y <- y0
  copy <- y0 + 0
  fit <- train(y, nmax = 4, iter_max = 10, seed = 1)
  expect_identical(y, copy)
  yi <- matrix(1:60, 20, 3)
  copyi <- yi + 0L
  train(yi, nmax = 3, iter_max = 5, seed = 1)
  expect_identical(yi, copyi)
  df <- as.data.frame(y0)
  copydf <- unserialize(serialize(df, NULL))
  train(df, nmax = 3, iter_max = 5, seed = 1, init = "sample")
  expect_identical(df, copydf)
  init <- list(matrix(0.5, 3, 3))
  copyinit <- list(matrix(0.5, 3, 3))
  train(y, sizes = 3, init = init, iter_max = 5, seed = 1)
  expect_identical(init, copyinit)
})

test_that("a method's misspelt argument is an error that names it, not dropped (issue 38)", {
  x <- as.matrix(iris[1:4])
  fit <- train(x, nmax = 3, iter_max = 10, seed = 1, threads = 2)
  sel <- select_size(x, sizes = 2:3, restarts = 1, bootstrap = 2, iter_max = 10, seed = 1,
                     threads = 2, progress = FALSE)
  expect_error(predict(fit, x, threds = 2),
               "`threds` is not an argument of predict\\(\\) \\(did you mean `threads`\\?\\)",
               class = "somgpu_input_error")
  expect_error(predict(sel, x, treads = 1), "did you mean `threads`",
               class = "somgpu_input_error")
  expect_error(generics::tidy(fit, sizes = 3), "`sizes` is not an argument of tidy\\(\\) \\(did you mean `size`\\?\\)",
               class = "somgpu_input_error")
  expect_error(generics::augment(fit, dta = x), "did you mean `data`",
               class = "somgpu_input_error")
  expect_error(generics::augment(sel, newdta = x), "did you mean `newdata`",
               class = "somgpu_input_error")
  expect_error(generics::glance(fit, size = 3), "`size` is not an argument of glance\\(\\)\\.",
               class = "somgpu_input_error")
  expect_error(generics::glance(sel, 3), "glance\\(\\) got an unnamed argument it does not take",
               class = "somgpu_input_error")
  expect_error(generics::tidy(sel, a = 1, b = 2), "`a` and `b` are not arguments of tidy\\(\\)",
               class = "somgpu_input_error")
  # what they take still works
  expect_identical(predict(fit, x, threads = 1), predict(fit, x))
  expect_s3_class(generics::tidy(fit, size = 3), "data.frame")
  expect_identical(predict(sel, x[1:5, ], threads = 1), sel$partition[1:5])
})
