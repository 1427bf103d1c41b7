# Scaling and variable weights kept by the fit, and predict() as users call it.

test_that("scale = TRUE trains on scale(y) and reports the weights in the data's units", {
  y <- as.matrix(iris[, 1:4])
  fit <- train(y, nmax = 5, iter_max = 20, seed = 3, scale = TRUE, backend = "cpu")
  s <- scale(y)
  expect_identical(fit$scaling$center, attr(s, "scaled:center"))
  expect_identical(fit$scaling$scale, attr(s, "scaled:scale"))
  plain <- train(s, nmax = 5, iter_max = 20, seed = 3, backend = "cpu")
  expect_identical(fit$scaled_weights, plain$weights)
  expect_identical(fit$clusters, plain$clusters)
  for (N in 2:5) {
    w <- fit$scaled_weights[[N - 1]]
    back <- sweep(sweep(w, 2, fit$scaling$scale, "*"), 2, fit$scaling$center, "+")
    expect_equal(unname(fit$weights[[N - 1]]), unname(back), tolerance = 1e-14)
    expect_identical(colnames(fit$weights[[N - 1]]), colnames(y))
  }
  expect_identical(predict(fit, y), fit$clusters)
  expect_identical(predict(fit, iris), fit$clusters) # Species ignored
})

test_that("scale as a list, by name or in column order; bad scales are refused", {
  y <- as.matrix(iris[, 1:4])
  sc <- list(center = colMeans(y), scale = apply(y, 2, sd))
  a <- train(y, nmax = 3, iter_max = 10, seed = 1, scale = sc, backend = "cpu")
  b <- train(y, nmax = 3, iter_max = 10, seed = 1, backend = "cpu",
             scale = list(scale = rev(sc$scale), center = unname(sc$center)))
  expect_identical(a$weights, b$weights)
  expect_error(train(y, scale = list(center = 1:3, scale = rep(1, 4))), "`scale\\$center`",
               class = "somgpu_input_error")
  expect_error(train(y, scale = list(center = rep(0, 4), scale = c(1, 0, 1, 1))),
               "`scale\\$scale` must be positive", class = "somgpu_input_error")
  expect_error(train(y, scale = "yes"), "`scale` must be TRUE, FALSE or a list",
               class = "somgpu_input_error")
  expect_error(train(y, scale = list(center = c(Sepal.Length = 1), scale = rep(1, 4))),
               "no value for the columns", class = "somgpu_input_error")
})

test_that("user initial weights are in the data's units", {
  y <- as.matrix(iris[, 1:4])
  init <- list(y[c(1, 51, 101), ])
  fit <- train(y, sizes = 3, iter_max = 1, init = init, scale = TRUE, backend = "cpu")
  expect_equal(unname(fit$weights$N3), unname(init[[1]]), tolerance = 1e-14)
})

test_that("variable weights: by name or order, stored, used by predict; bad ones refused", {
  y <- as.matrix(iris[, 1:4])
  v <- c(Petal.Width = 2, Sepal.Length = 1, Sepal.Width = 0, Petal.Length = 1)
  fit <- train(y, nmax = 4, iter_max = 10, seed = 2, var_weights = v, backend = "cpu")
  expect_identical(fit$var_weights, v[colnames(y)])
  expect_identical(predict(fit, y), fit$clusters)
  # a column of weight 0 does not count: changing it changes no cluster
  y2 <- y
  y2[, "Sepal.Width"] <- 100
  expect_identical(predict(fit, y2), fit$clusters)
  expect_output(print(fit), "variable weights")
  expect_error(train(y, var_weights = c(1, 1, -1, 1)), "non-negative",
               class = "somgpu_input_error")
  expect_error(train(y, var_weights = c(1, 1)), "one per column",
               class = "somgpu_input_error")
  expect_error(train(y, var_weights = rep(0, 4)), "not all be 0",
               class = "somgpu_input_error")
})

test_that("predict takes the fit's columns by name and ignores everything else", {
  aq <- airquality
  fit <- train(aq[, c("Wind", "Temp")], nmax = 4, iter_max = 10, seed = 1, backend = "cpu")
  p <- predict(fit, aq) # Ozone and Solar.R have NA: not used, not looked at
  expect_identical(p, predict(fit, aq[, c("Temp", "Wind")]))
  expect_false(anyNA(unlist(p)))
  expect_error(predict(fit, aq[, c("Wind", "Ozone")]), "lacks the column `Temp`",
               class = "somgpu_input_error")
})

test_that("a named vector is one row, zero rows an empty result", {
  y <- as.matrix(iris[, 1:4])
  fit <- train(y, nmax = 4, iter_max = 10, seed = 1, backend = "cpu")
  one <- predict(fit, y[10, ])
  expect_identical(nrow(one), 1L)
  expect_identical(unlist(one), unlist(fit$clusters[10, ]))
  expect_identical(predict(fit, rev(y[10, ])), one) # by name
  none <- predict(fit, iris[0, ])
  expect_identical(dim(none), c(0L, 3L))
  expect_identical(names(none), c("N2", "N3", "N4"))
  d0 <- predict(fit, y[0, ], type = "detail")
  expect_identical(nrow(d0), 0L)
})

test_that("type = 'detail': winner, runner-up and margin for every row and size", {
  y <- as.matrix(iris[, 1:4])
  fit <- train(y, nmax = 5, iter_max = 10, seed = 1, backend = "cpu")
  d <- predict(fit, y[1:20, ], sizes = c(3, 5), type = "detail")
  expect_identical(names(d), c("row", "size", "cluster", "distance", "runner_up", "margin"))
  expect_identical(nrow(d), 40L)
  expect_identical(d$cluster[d$size == 5], fit$clusters$N5[1:20])
  expect_true(all(d$runner_up != d$cluster) && all(d$margin >= 0))
  # distances from an independent computation
  w <- fit$weights$N3
  for (i in 1:20) {
    d2 <- colSums((t(w) - y[i, ])^2)
    r <- d[d$size == 3 & d$row == i, ]
    expect_equal(r$distance, sqrt(min(d2)), tolerance = 1e-12)
    expect_equal(r$margin, sqrt(sort(d2)[2]) - sqrt(min(d2)), tolerance = 1e-12)
  }
  # with missing values: the distance over the observed columns, rescaled
  x <- y[1, ]
  x[2] <- NA
  r <- predict(fit, x, sizes = 3, type = "detail")
  d2 <- colSums((t(w[, -2]) - x[-2])^2)
  expect_equal(r$distance, sqrt(4 / 3 * min(d2)), tolerance = 1e-12)
  expect_identical(r$cluster, which.min(d2))
  # a row missing more than na_max gets NA
  x[c(1, 3)] <- NA
  expect_true(is.na(predict(fit, x)$N3))
})

test_that("columns are scaled in C with R's arithmetic, attributes kept", {
  x <- withr::with_seed(3, matrix(rnorm(60, 5, 3), 12, 5, dimnames = list(NULL, letters[1:5])))
  x[c(2, 17, 40)] <- NA
  center <- c(a = 1.1, b = -0.3, c = 5, d = 0, e = 1e-3)
  scale <- c(0.7, 3, 1 / 3, 1, 0)
  want <- x
  want[] <- (x - rep(unname(center), each = 12)) / rep(scale, each = 12)
  got <- somgpu:::scaled_columns(x, center, scale)
  expect_identical(got, want) # NA, Inf from a scale of 0 and every bit of the others
  enc <- structure(x, somgpu_encoding = list(1), class = "somgpu_encoded")
  expect_identical(unclass(somgpu:::scaled_columns(enc, center, scale)),
                   unclass(structure(want, somgpu_encoding = list(1))))
  xi <- matrix(1:6, 3) # not double: R's arithmetic, a double result
  expect_identical(somgpu:::scaled_columns(xi, c(1, 2), c(2, 4)),
                   matrix((1:6 - rep(c(1, 2), each = 3)) / rep(c(2, 4), each = 3), 3))
})
