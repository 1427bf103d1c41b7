test_that("the result has the documented shape and R types", {
  y <- seed_data(300, 3, rng_seed = 1)
  fit <- train(y, nmax = 10, iter_max = 20, seed = 5)
  expect_s3_class(fit, "somgpu")
  expect_named(fit, c("weights", "clusters", "quality", "stability", "trace", "backend",
                      "seed", "scaling", "scaled_weights", "var_weights", "dropped", "params",
                      "data", "elapsed", "call", "encoding"))
  expect_null(fit$encoding) # numbers only: no categorical column (test-encode.R)
  expect_null(fit$scaling)
  expect_null(fit$scaled_weights)
  expect_null(fit$var_weights)
  expect_identical(fit$dropped, integer(0))
  expect_identical(names(fit$weights), paste0("N", 2:10))
  for (N in 2:10) {
    w <- fit$weights[[paste0("N", N)]]
    expect_true(is.double(w) && is.matrix(w))
    expect_identical(dim(w), c(N, 3L))
    expect_identical(colnames(w), colnames(y))
    expect_true(all(is.finite(w)))
  }
  cl <- fit$clusters
  expect_s3_class(cl, "data.frame")
  expect_identical(names(cl), paste0("N", 2:10))
  expect_identical(nrow(cl), 300L)
  for (N in 2:10) {
    v <- cl[[paste0("N", N)]]
    expect_type(v, "integer")
    expect_true(all(v >= 1L & v <= N))
  }
  q <- fit$quality
  expect_identical(names(q), c("size", "restart", "qe", "te", "explained_var", "best"))
  expect_identical(q$size, 2:10)
  expect_true(all(q$best))
  expect_true(all(q$te >= 0 & q$te <= 1))
  expect_identical(q$te[q$size <= 3], c(0, 0)) # every pair of neurons is adjacent
  expect_identical(fit$backend$name, "cpu")
  expect_identical(fit$backend$precision, "double")
  expect_type(fit$backend$device, "character")
  expect_type(fit$backend$threads, "integer")
  expect_identical(fit$seed, 5L)
  expect_identical(fit$params$iter_max, 20L)
  expect_identical(fit$params$sizes, 2:10)
  expect_true(is.numeric(fit$elapsed) && fit$elapsed >= 0)
  expect_true(is.call(fit$call))
})

test_that("clusters are the nearest neuron of the returned weights", {
  y <- seed_data(200, 2, rng_seed = 2)
  fit <- train(y, nmax = 6, iter_max = 15, seed = 6)
  for (N in 2:6) {
    a <- ref_assess(y, fit$weights[[paste0("N", N)]])
    expect_identical(fit$clusters[[paste0("N", N)]], a$clusters)
    expect_equal(fit$quality$qe[N - 1], a$qe, tolerance = 1e-12)
    expect_equal(fit$quality$te[N - 1], a$te, tolerance = 1e-12)
  }
})

test_that("data frames, tibbles, integer matrices and vectors are accepted", {
  y <- seed_data(100, 3, rng_seed = 3)
  ref <- train(y, nmax = 4, iter_max = 10, seed = 2)
  df <- as.data.frame(y)
  expect_identical(train(df, nmax = 4, iter_max = 10, seed = 2)$weights, ref$weights)
  tb <- tibble::as_tibble(df)
  expect_identical(train(tb, nmax = 4, iter_max = 10, seed = 2)$weights, ref$weights)
  yi <- matrix(c(1:50, 50:1), 50, 2)
  yd <- yi + 0
  storage.mode(yd) <- "double"
  expect_identical(train(yi, nmax = 3, iter_max = 5, seed = 1)$weights,
                   train(yd, nmax = 3, iter_max = 5, seed = 1)$weights)
  v <- as.numeric(y[, 1])
  fv <- train(v, nmax = 3, iter_max = 10, seed = 1)
  expect_identical(dim(fv$weights$N3), c(3L, 1L))
  expect_identical(fv$weights, train(matrix(v), nmax = 3, iter_max = 10, seed = 1)$weights)
})

test_that("unique row names carry over; duplicated or missing ones are dropped", {
  df <- data.frame(a = 1:20 + 0, b = (1:20)^2)[5:20, ]
  fit <- train(df, sizes = 2, iter_max = 3, seed = 1)
  expect_identical(row.names(fit$clusters), as.character(5:20))
  m <- as.matrix(data.frame(a = 1:6 + 0, b = 6:1 + 0))
  rownames(m) <- c("a", "b", "a", "c", "d", "e")
  fit <- train(m, sizes = 2, iter_max = 3, seed = 1)
  expect_identical(.row_names_info(fit$clusters), -6L)
  rownames(m) <- c("a", "b", NA, "c", "d", "e")
  expect_identical(.row_names_info(train(m, sizes = 2, iter_max = 3)$clusters), -6L)
  rownames(m) <- letters[1:6]
  expect_identical(row.names(train(m, sizes = 2, iter_max = 3)$clusters), letters[1:6])
})

test_that("row names of the data carry over to the clusters", {
  df <- data.frame(a = c(1, 2, 3, 10, 11), b = c(1, 1, 2, 9, 9),
                   row.names = c("p", "q", "r", "s", "t"))
  fit <- train(df, sizes = 2, iter_max = 20, seed = 1)
  expect_identical(row.names(fit$clusters), c("p", "q", "r", "s", "t"))
  expect_identical(fit$clusters$N2[1:3], rep(fit$clusters$N2[1], 3))
  expect_false(fit$clusters$N2[4] == fit$clusters$N2[1])
})

test_that("more neurons than points and duplicated points still give valid results", {
  y <- matrix(c(0, 0, 1, 1, 0, 0), 3, 2, byrow = TRUE)
  fit <- train(y, sizes = c(2, 8), iter_max = 30, seed = 1)
  expect_true(all(is.finite(unlist(fit$weights))))
  expect_true(all(fit$clusters$N8 %in% 1:8))
  expect_identical(fit$clusters$N8[1], fit$clusters$N8[3])
})

test_that("print shows one line per size with qe, te and cluster sizes", {
  y <- seed_data(120, 2, rng_seed = 4)
  fit <- train(y, nmax = 5, iter_max = 10, seed = 9, threads = 1)
  out <- capture.output(res <- print(fit))
  expect_identical(res, fit)
  expect_match(out[1], "4 ring SOMs \\(N = 2..5\\) on 120 x 2 data, 1 restart each")
  expect_match(out[2], "backend cpu: CPU .*1 thread.*double precision; online, 9 passes, init \"uniform\", seed 9")
  header <- grep("^ *size +qe +te +cluster sizes", out)
  expect_length(header, 1L)
  rows <- out[(header + 1):length(out)]
  expect_length(rows, 4L)
  sizes5 <- as.integer(strsplit(trimws(sub("^ *5 +[0-9.]+ +[0-9.]+ +", "", rows[4])), " +")[[1]])
  expect_identical(sizes5, tabulate(fit$clusters$N5, 5))
  expect_match(rows[1], sprintf("^ *2 +%.4f +%.4f", fit$quality$qe[1], fit$quality$te[1]))
})

test_that("progress = TRUE shows cli's bar and leaves the result unchanged", {
  y <- seed_data(10000, 3, rng_seed = 5)
  msgs <- withr::with_options(list(cli.progress_show_after = 0), {
    capture.output(fit <- train(y, nmax = 8, iter_max = 30, seed = 1, progress = TRUE),
                   type = "message")
  })
  expect_true(any(grepl("training ring SOMs", msgs)))
  expect_identical(fit$weights, train(y, nmax = 8, iter_max = 30, seed = 1)$weights)
  quiet <- capture.output(invisible(train(y, nmax = 3, iter_max = 5, seed = 1, progress = FALSE)),
                          type = "message")
  expect_length(quiet, 0L)
})
