# Errors that name the bad element and advice that works (issue 29): every message below is
# asserted to name the element or value at fault, and the advice it gives is followed.

expect_input_error <- function(expr, pattern) {
  expect_error(expr, pattern, class = "somgpu_input_error")
}

test_that("tiny or huge values: scale = TRUE trains them, the advice without it works", {
  y <- withr::with_seed(1, matrix(rnorm(60), 20))
  plain <- train(y, nmax = 3, scale = TRUE, seed = 1)
  for (f in c(1e-300, 1e300)) {
    fit <- train(y * f, nmax = 3, scale = TRUE, seed = 1)
    expect_identical(fit$clusters, plain$clusters)
  }
  expect_input_error(train(y * 1e-300, nmax = 3, seed = 1),
                     "underflow .* Multiply `y` by 1e300, or pass scale = TRUE")
  expect_input_error(train(y * 1e300, nmax = 3, seed = 1),
                     "overflow .* Divide `y` by 1e300, or pass scale = TRUE")
  # following the advice trains
  expect_s3_class(train(y * 1e-300 * 1e300, nmax = 3, seed = 1), "somgpu")
  expect_s3_class(train(y * 1e300 / 1e300, nmax = 3, seed = 1), "somgpu")
})

test_that("a vector argument's message names its bad element and value", {
  ua <- USArrests
  expect_input_error(train(ua, nmax = 3, var_weights = c(1, NA, 1, 1)),
                     "not a double vector of length 4 with NA \\(element 2\\)\\.")
  expect_input_error(train(ua, nmax = 3, var_weights = c(1, 1, -2, 1)),
                     "non-negative finite numbers.* with -2 \\(element 3\\)")
  expect_input_error(train(ua, nmax = 3, scale = list(center = colMeans(ua), scale = c(1, 0, 1, 1))),
                     "`scale\\$scale` must be positive finite numbers.* with 0 \\(element 2\\)")
  expect_input_error(train(ua, nmax = 3, var_weights = 1:3),
                     "not an integer vector of length 3 \\(the data have 4 columns\\)")
  d3 <- data.frame(a = rnorm(60), b = rnorm(60), c = runif(60))
  expect_input_error(train(d3, nmax = 4, sigma0 = c(1, NA, 2)),
                     "not a double vector of length 3 with NA \\(element 2\\)")
  expect_input_error(train(ua, sizes = c(3, 1.5, 4)), "with 1.5 \\(element 2\\)")
  fit <- train(ua, nmax = 3, seed = 1)
  expect_input_error(predict(fit, ua, sizes = c(2, 9)), "with 9 \\(element 2\\)")
  # no doubled spaces, "an integer"
  msg <- tryCatch(train(ua, nmax = 3, scale = list(center = c(1, NA, 1, 1), scale = rep(1, 4))),
                  error = conditionMessage)
  expect_false(grepl("  ", msg))
  expect_match(msg, "must be finite numbers")
})

test_that("R's time limit passes through as R's error, and R stays usable", {
  y <- seed_data(4000, 3)
  res <- local({
    setTimeLimit(elapsed = 0.5, transient = TRUE)
    on.exit(setTimeLimit(elapsed = Inf))
    tryCatch(train(y, nmax = 60, restarts = 8, iter_max = 400, seed = 1, threads = 2),
             error = function(e) e)
  })
  expect_s3_class(res, "error")
  expect_false(inherits(res, "somgpu_error"))
  expect_match(conditionMessage(res), "time limit")
  expect_s3_class(train(y, nmax = 3, iter_max = 5, seed = 1), "somgpu")
})

test_that("select_size(): its own arguments' typos, and a reason never wrapped inside N = k", {
  y <- iris[1:4]
  expect_input_error(select_size(y, bootstrp = 3), "did you mean `bootstrap`")
  expect_input_error(select_size(y, hold_out = 0.1), "did you mean `holdout`")
  sel <- select_size(y, sizes = 2:3, restarts = 1, bootstrap = 2, iter_max = 10, seed = 1,
                     progress = FALSE)
  sel$reason <- paste(rep("A long reason about N = 12 and sizes = 2:40 said again.", 6),
                      collapse = " ")
  for (w in c(30, 41, 52)) {
    out <- withr::with_options(list(width = w), capture.output(print(sel)))
    expect_false(any(grepl("(N|sizes)$", out)), label = sprintf("width %d", w))
    expect_false(any(grepl("^= ", out)), label = sprintf("width %d", w))
  }
})

test_that("integer64: one rule for a column and a vector", {
  v <- structure(c(1, 2, 3, 4, 5, 6), class = "integer64") # the shape of a bit64 vector
  df <- data.frame(a = c(0.1, 0.2, 0.5, 0.7, 0.9, 1.1))
  df$b <- v
  if (requireNamespace("bit64", quietly = TRUE)) {
    real <- bit64::as.integer64(1:6)
    df$b <- real
    expect_s3_class(train(df, nmax = 2, iter_max = 5, seed = 1), "somgpu")
    expect_s3_class(train(real, nmax = 2, iter_max = 5, seed = 1), "somgpu")
  } else {
    expect_input_error(train(df, nmax = 2), "`y`'s column `b` is integer64 .* install bit64")
    expect_input_error(train(v, nmax = 2), "`y` is integer64 .* install bit64")
  }
})

test_that("columns without a name or with a repeated one are named once, for every step", {
  a <- iris$Sepal.Length
  b <- iris$Sepal.Width
  y <- cbind(a, b)
  colnames(y) <- c("x4", "")
  expect_message(fit <- train(y, nmax = 4, seed = 1), "\"\" -> V2")
  expect_identical(colnames(fit$weights$N4), c("x4", "V2"))
  expect_identical(predict(fit, y)$N4, fit$clusters$N4)
  expect_identical(predict(fit, data.frame(V2 = b, x4 = a))$N4, fit$clusters$N4)
  msgs <- character(0)
  sel <- withCallingHandlers(
    select_size(y, sizes = 2:4, restarts = 1, bootstrap = 2, iter_max = 10, seed = 1,
                progress = FALSE),
    message = function(m) {
      msgs <<- c(msgs, conditionMessage(m))
      invokeRestart("muffleMessage")
    })
  expect_identical(sum(grepl("-> V2", msgs)), 1L) # said once
  expect_s3_class(sel, "somgpu_selection")
  skip_if_not_installed("generics")
  aug <- suppressMessages(generics::augment(fit, y, size = 4))
  expect_identical(names(aug)[1:2], c("x4", "V2"))
  dup <- cbind(a = a, a = b)
  expect_message(f2 <- train(dup, nmax = 3, seed = 1), "\"a\" -> a.1")
  expect_identical(colnames(f2$weights$N3), c("a", "a.1"))
  expect_identical(predict(f2, dup)$N3, f2$clusters$N3)
})

test_that("train()'s own typos are named with the nearest argument (issue 38)", {
  y <- iris[1:4]
  expect_input_error(train(y, algoritm = "batch"),
                     "`algoritm` is not an argument of train\\(\\) \\(did you mean `algorithm`\\?\\)")
  expect_input_error(train(y, nmax = 3, sigm0 = 1, restrats = 2),
                     "`sigm0` \\(did you mean `sigma0`\\?\\) and `restrats` \\(did you mean `restarts`\\?\\) are not arguments of train\\(\\)\\.$")
  expect_input_error(train(y, nmax = 3, sigm0 = 1, zzzzzz = 2, restrats = 2),
                     "^`sigm0` \\(did you mean `sigma0`\\?\\), `zzzzzz` and `restrats` \\(did you mean `restarts`\\?\\) are not")
  expect_input_error(train(y, nmax = 3, zzzzzz = 1), "`zzzzzz` is not an argument of train\\(\\)\\.$")
  expect_input_error(train(y, 10, 2, 2:10, NULL, 5, 1, "uniform", 1, "online", 1, "auto", NULL,
                           "double", 2, FALSE, FALSE, FALSE, TRUE, "none", 0.5, FALSE, NULL,
                           NULL, 7), "train\\(\\) takes 24 arguments; the call has 1 more, unnamed")
})

test_that("a matrix without column names: V1, V2, ... said once, never matched by position against other names", {
  y <- unname(as.matrix(iris[1:4]))
  rm(list = ls(envir = somgpu:::.said), envir = somgpu:::.said)
  expect_message(fu <- train(y, nmax = 4, iter_max = 5, seed = 1), "have no names; the fit calls them V1, V2")
  expect_silent(train(y, nmax = 4, iter_max = 5, seed = 1)) # once per session
  expect_identical(colnames(fu$weights$N3), paste0("V", 1:4))
  expect_false(fu$params$named)
  skip_if_not_installed("generics")
  expect_identical(names(generics::tidy(fu, size = 3))[2:5], paste0("V", 1:4))
  expect_identical(names(generics::augment(fu, size = 3))[1:4], paste0("V", 1:4))
  # new rows: by position without names, by the V names, refused with other names
  expect_identical(predict(fu, y[1:5, ])$N4, fu$clusters$N4[1:5])
  expect_identical(predict(fu, as.data.frame(y[1:5, ]))$N4, fu$clusters$N4[1:5])
  expect_input_error(predict(fu, iris[1:3, 4:1]),
                     "trained on columns without names \\(V1, V2, V3, V4, taken by position\\); `newdata` has named columns \\(Petal.Width, Petal.Length, Sepal.Width, Sepal.Length\\)")
  sel <- select_size(y, sizes = 2:3, restarts = 1, bootstrap = 2, iter_max = 5, seed = 1,
                     progress = FALSE)
  expect_identical(names(generics::tidy(sel))[5:8], paste0("V", 1:4))
  expect_input_error(predict(sel, iris[1:3, 1:4]), "trained on columns without names")
})
