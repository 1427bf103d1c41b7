# Small maps train side by side in the lanes of a vector (src/cpu/som_cpu_lanes_t.h): each map's
# bits must be those of the map trained alone and of the pure-R rule, whatever the other
# maps of its pack (different sizes leave padded neurons; a short pack leaves empty lanes).

test_that("maps trained in packs are the bits of each map trained alone", {
  sizes <- c(2:9, 20:23, 46:50) # mixed sizes in a pack, a short pack, maps too big for packs
  for (m in c(1, 3, 7, 9)) {    # unrolled and generic dimensions
    y <- seed_data(80, m, rng_seed = 3)
    fit <- train(y, sizes = sizes, iter_max = 4, seed = 7, threads = 2)
    for (N in sizes) {
      alone <- train(y, sizes = N, iter_max = 4, seed = 7, threads = 1)
      expect_identical(fit$weights[[paste0("N", N)]], alone$weights[[1]],
                       info = sprintf("m = %d, N = %d", m, N))
    }
    for (N in c(2, 5, 9)) {
      ref <- ref_train_map(y, ref_init_uniform(7, N, 0, m), iter_max = 4, seed = 7)
      expect_identical(unname(fit$weights[[paste0("N", N)]]), ref,
                       info = sprintf("reference, m = %d, N = %d", m, N))
    }
  }
})

test_that("restarts of one size share packs and keep their own streams", {
  y <- seed_data(60, 2, rng_seed = 5)
  fit <- train(y, sizes = c(3, 4), restarts = 5, iter_max = 6, seed = 11, threads = 2)
  for (N in c(3, 4)) {
    refs <- lapply(0:4, function(r) {
      ref_train_map(y, ref_init_uniform(11, N, r, 2), iter_max = 6, seed = 11, restart = r)
    })
    qe <- vapply(refs, function(w) ref_assess(y, w)$qe, numeric(1))
    expect_equal(fit$quality$qe[fit$quality$size == N], qe, tolerance = 1e-14)
    expect_identical(unname(fit$weights[[paste0("N", N)]]), refs[[which.min(qe)]])
  }
})

test_that("packs give the same bits with one thread and two, and sliced finely", {
  y <- seed_data(70, 4, rng_seed = 8)
  a <- train(y, sizes = 2:12, restarts = 2, iter_max = 5, seed = 3, threads = 1)
  b <- train(y, sizes = 2:12, restarts = 2, iter_max = 5, seed = 3, threads = 2)
  c <- withr::with_options(list(somgpu.cpu_round_units = 500), # slices end mid-pass
                           train(y, sizes = 2:12, restarts = 2, iter_max = 5, seed = 3,
                                 threads = 2))
  expect_identical(a$weights, b$weights)
  expect_identical(a$weights, c$weights)
  expect_identical(a$quality, c$quality)
})

test_that("batch winners with points in lanes follow the reference to the bit", {
  # blocks of 8, 4 and 1 neurons; unrolled (3, 16) and generic (5) dimensions; m = 1 takes
  # the scalar search
  for (m in c(1, 3, 5, 16)) {
    y <- seed_data(90, m, rng_seed = 4)
    sizes <- c(3, 7, 13, 21)
    fit <- train(y, sizes = sizes, iter_max = 5, seed = 2, algorithm = "batch", threads = 2)
    for (N in sizes) {
      ref <- ref_batch_map(y, ref_init_uniform(2, N, 0, m), iter_max = 5)
      expect_identical(unname(fit$weights[[paste0("N", N)]]), ref,
                       info = sprintf("m = %d, N = %d", m, N))
    }
  }
})

test_that("packs with missing values, column weights and wide rows keep each map's bits", {
  # the general kernel (lanes_train_general): a lane's missing values add nothing and move
  # nothing; mixed sizes pad a pack; beyond 64 dimensions only rings up to 8 share packs
  # (9 and 13 train alone, and so does a last map left over)
  sizes <- c(13, 9, 6, 5, 4, 3, 2)
  for (case in list(list(m = 5, share = 0.2), list(m = 70, share = 0.1),
                    list(m = 70, share = 0))) {
    m <- case$m
    y <- withr::with_seed(m, {
      y <- matrix(rnorm(50 * m), 50, m)
      y[sample(length(y), round(case$share * length(y)))] <- NA
      y[1:3, ] <- rnorm(3 * m) # complete rows too
      y
    })
    init <- withr::with_seed(1, lapply(sizes, function(N) matrix(rnorm(N * m), N)))
    for (v in list(NULL, withr::with_seed(2, runif(m, 0.5, 2)))) {
      what <- sprintf("m = %d, missing %.1f, weights %s", m, case$share, !is.null(v))
      fit <- train(y, sizes = sizes, init = init, iter_max = 4, seed = 5, var_weights = v,
                   na_max = 1, threads = 2)
      for (i in seq_along(sizes)) {
        alone <- train(y, sizes = sizes[i], init = init[i], iter_max = 4, seed = 5,
                       var_weights = v, na_max = 1, threads = 1)
        expect_identical(fit$weights[[i]], alone$weights[[1]], info = paste(what, sizes[i]))
      }
      if (m == 5) { # single precision: 8 lanes, its own kernel's bits
        one <- train(y, sizes = sizes, init = init, iter_max = 4, seed = 5, var_weights = v,
                     na_max = 1, threads = 2, precision = "single", backend = "cpu")
        for (i in seq_along(sizes)) {
          alone <- train(y, sizes = sizes[i], init = init[i], iter_max = 4, seed = 5,
                         var_weights = v, na_max = 1, threads = 1, precision = "single",
                         backend = "cpu")
          expect_identical(one$weights[[i]], alone$weights[[1]],
                           info = paste(what, "single", sizes[i]))
        }
      }
      for (i in c(4, 6)) {
        ref <- ref_train_map_general(y, init[[i]], if (is.null(v)) rep(1, m) else v,
                                     iter_max = 4, seed = 5)
        expect_identical(unname(fit$weights[[i]]), ref, info = paste(what, "reference", sizes[i]))
      }
    }
  }
})
