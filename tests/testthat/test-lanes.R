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
