# The C backend against the slow pure-R reference of the rule (helper-reference.R).

test_that("user-supplied init: weights agree with the R reference to 1e-12", {
  y <- seed_data(60, 3, rng_seed = 1)
  sizes <- c(2L, 3L, 5L, 6L)
  init <- withr::with_seed(2, lapply(sizes, function(N) matrix(rnorm(N * 3), N, 3)))
  fit <- train(y, sizes = sizes, iter_max = 15, init = init, seed = 99, threads = 1)
  for (i in seq_along(sizes)) {
    ref <- ref_train_map(y, init[[i]], iter_max = 15, seed = 99)
    expect_equal(unname(fit$weights[[i]]), ref, tolerance = 1e-12, ignore_attr = TRUE)
    a <- ref_assess(y, ref)
    expect_identical(fit$clusters[[i]], a$clusters)
    expect_equal(fit$quality$qe[i], a$qe, tolerance = 1e-12)
    expect_equal(fit$quality$te[i], a$te, tolerance = 1e-12)
  }
})

test_that("one and six dimensions (generic inner loops) follow the reference", {
  for (m in c(1, 6)) {
    y <- seed_data(45, m, rng_seed = 12 + m)
    fit <- train(y, sizes = c(2, 5), iter_max = 10, seed = m)
    for (N in c(2, 5)) {
      ref <- ref_train_map(y, ref_init_uniform(m, N, 0, m), iter_max = 10, seed = m)
      expect_equal(unname(fit$weights[[paste0("N", N)]]), ref, tolerance = 1e-12,
                   info = paste("m =", m))
    }
  }
})

test_that("user-supplied init with iter_max = 1 returns the init exactly", {
  y <- seed_data(20, 2, rng_seed = 3)
  init <- list(matrix(c(0.1, 0.2, 0.3, 0.4, 0.5, 0.6), 3, 2))
  fit <- train(y, sizes = 3, iter_max = 1, init = init, seed = 1)
  expect_identical(unname(fit$weights$N3), init[[1]])
})

test_that("non-default schedule parameters follow the reference", {
  y <- seed_data(40, 4, rng_seed = 4)
  init <- list(matrix(seq(-1, 1, length.out = 16), 4, 4))
  fit <- train(y, sizes = 4, iter_max = 9, sigma0 = 1.5, eta0 = 0.3, init = init, seed = 5)
  ref <- ref_train_map(y, init[[1]], iter_max = 9, sigma0 = 1.5, eta0 = 0.3, seed = 5)
  expect_equal(unname(fit$weights$N4), ref, tolerance = 1e-12)
})

test_that("rings alone, narrow and in chunks of blocks, follow the reference", {
  # one map alone (above the lanes' 48 neurons, or above their 64 dimensions): up to 8
  # columns a block of neurons at a time (3 and 8), from 9 on eight blocks summed side by
  # side, then the next eight, then the rest (12 columns, 70)
  for (case in list(list(m = 3, sizes = c(50L, 75L)), list(m = 8, sizes = c(50L, 75L)),
                    list(m = 12, sizes = c(50L, 75L)),
                    list(m = 70, sizes = c(2L, 13L, 33L)))) {
    y <- seed_data(30, case$m, rng_seed = 20 + case$m)
    init <- withr::with_seed(3, lapply(case$sizes, function(N) matrix(rnorm(N * case$m), N)))
    fit <- train(y, sizes = case$sizes, iter_max = 4, init = init, seed = 7, threads = 2)
    for (i in seq_along(case$sizes)) {
      ref <- ref_train_map(y, init[[i]], iter_max = 4, seed = 7)
      expect_identical(unname(fit$weights[[i]]), ref, info = paste("size", case$sizes[i]))
    }
  }
})

test_that("the default uniform init is the documented Philox stream", {
  y <- seed_data(30, 3, rng_seed = 5)
  fit <- train(y, sizes = c(2, 7), iter_max = 1, seed = 123, restarts = 2)
  # the kept restart of each size is one of the two reference inits
  for (N in c(2, 7)) {
    got <- unname(fit$weights[[paste0("N", N)]])
    refs <- lapply(0:1, function(r) ref_init_uniform(123, N, r, 3))
    expect_true(any(vapply(refs, function(r) isTRUE(all.equal(got, r, tolerance = 0)),
                           logical(1))))
  }
  expect_true(all(abs(unlist(fit$weights)) <= 0.5))
})

test_that("default init, full default rule: agrees with the R reference", {
  y <- seed_data(50, 3, rng_seed = 6)
  fit <- train(y, sizes = c(3, 4), iter_max = 12, seed = -77)
  for (N in c(3, 4)) {
    ref <- ref_train_map(y, ref_init_uniform(-77, N, 0, 3), iter_max = 12, seed = -77)
    expect_equal(unname(fit$weights[[paste0("N", N)]]), ref, tolerance = 1e-12)
  }
})

test_that("init = 'sample' starts from distinct rows drawn by the sample stream", {
  y <- seed_data(25, 2, rng_seed = 7)
  fit <- train(y, sizes = 6, iter_max = 1, init = "sample", seed = 8)
  rows <- ref_order(25, 8, "sample", 6, 0, 0)[1:6] + 1
  expect_identical(unname(fit$weights$N6), unname(y[rows, ]))
  expect_equal(anyDuplicated(rows), 0L)
  fit2 <- train(y, sizes = 6, iter_max = 10, init = "sample", seed = 8)
  ref <- ref_train_map(y, unname(y[rows, ]), iter_max = 10, seed = 8)
  expect_equal(unname(fit2$weights$N6), ref, tolerance = 1e-12)
})

test_that("restarts: each restart is its own stream and the lowest qe is kept", {
  y <- seed_data(40, 2, rng_seed = 9)
  fit <- train(y, sizes = c(3, 5), iter_max = 8, restarts = 3, seed = 10)
  q <- fit$quality
  expect_identical(nrow(q), 6L)
  expect_identical(q$size, rep(c(3L, 5L), each = 3))
  expect_identical(q$restart, rep(1:3, 2))
  for (N in c(3, 5)) {
    refs <- lapply(0:2, function(r) {
      ref_train_map(y, ref_init_uniform(10, N, r, 2), iter_max = 8, seed = 10, restart = r)
    })
    qe <- vapply(refs, function(w) ref_assess(y, w)$qe, numeric(1))
    expect_equal(q$qe[q$size == N], qe, tolerance = 1e-12)
    best <- which.min(qe)
    expect_identical(which(q$best[q$size == N]), best)
    expect_equal(unname(fit$weights[[paste0("N", N)]]), refs[[best]], tolerance = 1e-12)
    expect_identical(fit$clusters[[paste0("N", N)]], ref_assess(y, refs[[best]])$clusters)
  }
})

test_that("extreme but valid schedules keep the weights finite", {
  y <- seed_data(40, 2, rng_seed = 11)
  tiny <- train(y, sizes = c(2, 5), iter_max = 10, sigma0 = 1e-200, seed = 1)
  expect_true(all(is.finite(unlist(tiny$weights))))
  huge <- train(y, sizes = c(2, 5), iter_max = 10, sigma0 = 1e300, seed = 1)
  expect_true(all(is.finite(unlist(huge$weights))))
  # with a vanishing neighbourhood only the winner moves, as in the reference
  init <- list(matrix(c(0.1, 0.9, 0.2, 0.8), 2, 2))
  fit <- train(y, sizes = 2, iter_max = 6, sigma0 = 1e-200, init = init, seed = 2)
  ref <- ref_train_map(y, init[[1]], iter_max = 6, sigma0 = 1e-200, seed = 2)
  expect_true(all(is.finite(ref)))
  expect_equal(unname(fit$weights$N2), ref, tolerance = 1e-12)
})
