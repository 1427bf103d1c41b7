# A fit analysed: explained variance, the trace, predict, summary, plots, kohonen
# conversion, clustree-style tables (stability: test-agreement.R; alignment and PCA
# initialization: test-pca.R).

test_that("explained variance is 1 - the squared distances to the winners / total", {
  y <- two_blobs()
  fit <- train(y, nmax = 5, iter_max = 15, restarts = 2, seed = 1)
  q <- fit$quality
  expect_identical(names(q), c("size", "restart", "qe", "te", "explained_var", "best"))
  tss <- sum(sweep(y, 2, colMeans(y))^2)
  for (N in 2:5) {
    w <- fit$weights[[paste0("N", N)]]
    sse <- sum((y - w[fit$clusters[[paste0("N", N)]], ])^2)
    expect_equal(q$explained_var[q$size == N & q$best], 1 - sse / tss, tolerance = 1e-10)
  }
  expect_true(all(q$explained_var > 0 & q$explained_var <= 1))
  expect_true(all(q$explained_var[q$best] > 0.5))
})

test_that("trace: qe after every pass, its last row the fit's qe, any thread count", {
  y <- two_blobs(seed = 3)
  for (algorithm in c("online", "batch")) {
    a <- train(y, nmax = 5, iter_max = 12, restarts = 2, seed = 2, trace = TRUE,
               algorithm = algorithm, threads = 1)
    b <- train(y, nmax = 5, iter_max = 12, restarts = 2, seed = 2, trace = TRUE,
               algorithm = algorithm, threads = 2)
    expect_identical(dim(a$trace), c(11L, 8L))
    expect_identical(colnames(a$trace)[1:3], c("N2.1", "N2.2", "N3.1"))
    expect_identical(unname(a$trace[11, ]), a$quality$qe)
    expect_identical(a$trace, b$trace)
    expect_true(all(is.finite(a$trace)))
    # the same maps as without a trace
    plain <- train(y, nmax = 5, iter_max = 12, restarts = 2, seed = 2, algorithm = algorithm)
    expect_identical(plain$weights, a$weights)
    expect_null(plain$trace)
  }
  # row t is the qe of the weights after t passes: the R reference stopped there
  y <- two_blobs(n = 40, m = 3, seed = 3)
  init <- list(matrix(c(0.1, 0.2, 0.3, 1.9, 2.1, 2.0), 2, 3, byrow = TRUE))
  tr <- train(y, sizes = 2, iter_max = 6, init = init, seed = 9, trace = TRUE)$trace
  for (t in c(1, 3, 5)) {
    w <- ref_train_map(y, init[[1]], iter_max = 6, seed = 9, passes = t)
    expect_equal(unname(tr[t, 1]), ref_assess(y, w)$qe, tolerance = 1e-12)
  }
})

test_that("predict assigns new rows like the training rows, columns matched by name", {
  y <- two_blobs(seed = 6)
  fit <- train(y, nmax = 5, iter_max = 15, seed = 1)
  expect_identical(predict(fit, y), fit$clusters)
  shuffled <- data.frame(extra = 1, c = y[, "c"], a = y[, "a"], b = y[, "b"])
  expect_identical(predict(fit, shuffled, sizes = c(3, 5)), fit$clusters[c("N3", "N5")])
  one <- predict(fit, y[7, , drop = FALSE])
  expect_identical(nrow(one), 1L)
  expect_identical(one$N4, fit$clusters$N4[7])
  expect_error(predict(fit, y[, 1:2]), "lacks the column `c`", class = "somgpu_input_error")
  expect_error(predict(fit, unname(y[, 1:2])), "has 2 columns; the maps were trained on 3",
               class = "somgpu_input_error")
  bad <- y
  bad[2, 2] <- Inf
  expect_error(predict(fit, bad), "1 infinite value", class = "somgpu_input_error")
  expect_error(predict(fit, y, sizes = 9), "trained sizes of this fit",
               class = "somgpu_input_error")
})

test_that("predict() without newdata gives the training rows'; row names kept (issue 68)", {
  # as R's predict() methods: the training rows' clusters, those train() assigned
  d <- as.data.frame(two_blobs(seed = 6))
  rownames(d) <- sprintf("r%03d", seq_len(nrow(d)))
  fit <- train(d, nmax = 5, iter_max = 15, seed = 1)
  expect_identical(predict(fit), predict(fit, d))
  expect_identical(rownames(predict(fit)), rownames(d))
  expect_identical(predict(fit, sizes = 3), predict(fit, d, sizes = 3))
  expect_identical(predict(fit, type = "detail"), predict(fit, d, type = "detail"))
  lean <- train(d, nmax = 5, iter_max = 15, seed = 1, keep_data = FALSE)
  expect_identical(predict(lean), predict(fit))
  expect_error(predict(lean, type = "detail"), "does not keep \\(keep_data = FALSE\\): pass them as `newdata`",
               class = "somgpu_input_error")
  # a selection's groups of a data frame's rows carry its row names, as the fit's clusters
  sel <- select_size(d, sizes = 2:4, bootstrap = 3, seed = 1, threads = 1, progress = FALSE)
  got <- predict(sel, d[c(5, 200), ])
  expect_identical(names(got), c("r005", "r200"))
  expect_identical(unname(got), sel$partition[c(5, 200)])
  expect_null(names(predict(sel, unname(as.matrix(d))[1:3, ]))) # no row names, none made
})

test_that("summary: a table per size, the groups and the elbow of qe", {
  y <- two_blobs(seed = 7)
  fit <- train(y, nmax = 7, iter_max = 20, restarts = 2, seed = 3)
  s <- summary(fit)
  expect_s3_class(s, "summary.somgpu")
  expect_identical(names(s$table), c("size", "qe", "te", "explained_var", "stability",
                                     "smallest", "largest"))
  expect_identical(s$table$size, 2:7)
  expect_identical(s$table$smallest[1] + s$table$largest[1], 300L)
  expect_identical(s$suggested, 2L) # two blobs
  out <- capture.output(print(s))
  expect_true(any(grepl("suggested size \\(groups in the data\\): 2", out)))
  lean <- summary(train(y, nmax = 7, iter_max = 20, seed = 3, keep_data = FALSE))
  expect_match(paste(capture.output(print(lean)), collapse = " "),
               "suggested size \\(elbow of qe\\): [0-9]+")
  # the elbow rule on known curves
  expect_identical(somgpu:::elbow(2:8, c(10, 3, 2.5, 2.2, 2, 1.9, 1.8)), 3L)
  expect_identical(somgpu:::elbow(2:6, c(5, 4, 3, 2, 1)), 2L) # a straight line: the first
  expect_identical(somgpu:::elbow(2:3, c(2, 1)), NA_integer_)
})

test_that("plots draw for every type, and say what they need", {
  y <- two_blobs(seed = 8)
  fit <- train(y, nmax = 5, iter_max = 10, restarts = 2, seed = 1, trace = TRUE)
  grDevices::pdf(NULL)
  on.exit(grDevices::dev.off())
  expect_identical(plot(fit), fit)
  expect_identical(plot(fit, type = "codes", size = 3), fit)
  expect_identical(plot(fit, type = "codes"), fit)
  expect_identical(plot(fit, type = "trace"), fit)
  bare <- train(y, nmax = 3, iter_max = 5, seed = 1, keep_data = FALSE)
  expect_null(bare$data)
  expect_error(plot(bare, type = "codes"), "keep_data = FALSE", class = "somgpu_input_error")
  expect_identical(plot(bare, type = "codes", data = y), bare)
  expect_error(plot(bare, type = "trace"), "trace = TRUE", class = "somgpu_input_error")
  expect_error(plot(fit, type = "heat"), "`type` must be one of", class = "somgpu_input_error")
})

test_that("as_kohonen gives an object kohonen's own tools accept", {
  skip_if_not_installed("kohonen")
  y <- two_blobs(seed = 9)
  fit <- train(y, nmax = 5, iter_max = 15, seed = 1)
  k <- as_kohonen(fit, 4)
  expect_s3_class(k, "kohonen")
  expect_identical(as.integer(k$unit.classif), fit$clusters$N4)
  w <- fit$weights$N4
  expect_equal(k$distances, rowSums((y - w[fit$clusters$N4, ])^2), tolerance = 1e-12)
  expect_equal(unname(kohonen::getCodes(k)), unname(w))
  expect_identical(as.integer(kohonen::map(k, y)$unit.classif), fit$clusters$N4)
  expect_equal(k$grid$xdim, 4)
  expect_true(k$grid$toroidal)
  pdf(NULL)
  on.exit(dev.off())
  expect_silent(plot(k, type = "counts"))
  bare <- train(y, nmax = 4, iter_max = 5, seed = 1, keep_data = FALSE)
  expect_error(as_kohonen(bare, 3), "keep_data = FALSE", class = "somgpu_input_error")
  expect_s3_class(as_kohonen(bare, 3, data = y), "kohonen")
  expect_error(as_kohonen(fit, 9), "trained sizes", class = "somgpu_input_error")
  # no size: the one summary() suggests, said in a message, as tidy() and augment() do
  s <- summary(fit)$suggested
  expect_message(k0 <- as_kohonen(fit), sprintf("as_kohonen\\(\\): ring size N = %d, the size summary\\(\\) suggests", s))
  expect_equal(k0$grid$xdim, s)
  expect_message(kb <- as_kohonen(bare, data = y), "ring size N = ")
  expect_s3_class(kb, "kohonen")
})

test_that("as_kohonen fills changes from the trace, for kohonen's changes plot", {
  skip_if_not_installed("kohonen")
  y <- two_blobs(seed = 9)
  fit <- train(y, nmax = 5, iter_max = 15, restarts = 3, trace = TRUE, seed = 2)
  k <- as_kohonen(fit, 4)
  kept <- fit$quality[fit$quality$size == 4 & fit$quality$best, ]
  expect_identical(dim(k$changes), c(14L, 1L))
  # the kept restart's own stream, trained alone (streams are keyed by size and restart)
  alone <- train(y, sizes = 4, iter_max = 15, restarts = kept$restart, trace = TRUE, seed = 2)
  expect_identical(k$changes[, 1], unname(alone$trace[, kept$restart]))
  # after the last pass the trace is the kept map's qe
  expect_equal(k$changes[14, 1], kept$qe, tolerance = 1e-12)
  pdf(NULL)
  on.exit(dev.off())
  expect_silent(plot(k, type = "changes"))
  expect_null(as_kohonen(train(y, sizes = 4, iter_max = 5, seed = 1), 4)$changes)
})

test_that("the clusters work as a clustree-style table: prefix N, then the size", {
  y <- two_blobs(seed = 10)
  fit <- train(y, nmax = 4, iter_max = 5, seed = 1)
  sizes <- as.integer(sub("^N", "", names(fit$clusters)))
  expect_identical(sizes, fit$params$sizes)
  expect_true(all(vapply(fit$clusters, is.integer, logical(1))))
})
