test_that("set.seed() makes runs reproducible and the seed is recorded", {
  y <- seed_data(200, 3, rng_seed = 1)
  a <- withr::with_seed(42, train(y, nmax = 5, iter_max = 20))
  b <- withr::with_seed(42, train(y, nmax = 5, iter_max = 20))
  expect_identical(a$weights, b$weights)
  expect_identical(a$clusters, b$clusters)
  expect_identical(a$seed, b$seed)
  c <- withr::with_seed(43, train(y, nmax = 5, iter_max = 20))
  expect_false(identical(a$weights, c$weights))
  again <- train(y, nmax = 5, iter_max = 20, seed = a$seed)
  expect_identical(again$weights, a$weights)
})

test_that("an explicit seed gives the same result and does not need set.seed()", {
  y <- seed_data(200, 3, rng_seed = 2)
  a <- train(y, nmax = 4, iter_max = 20, seed = 7)
  runif(1)
  b <- train(y, nmax = 4, iter_max = 20, seed = 7)
  expect_identical(a$weights, b$weights)
  expect_identical(a$seed, 7L)
})

test_that("an explicit seed leaves R's random number stream alone", {
  y <- seed_data(50, 2, rng_seed = 3)
  set.seed(5)
  before <- .Random.seed
  train(y, nmax = 3, iter_max = 5, seed = 1)
  expect_identical(.Random.seed, before)
})

test_that("threads = 1 and threads = 2 give identical results", {
  skip_if(somgpu:::build_info()$max_threads < 2, "this build or machine runs one thread")
  y <- seed_data(500, 3, rng_seed = 4)
  a <- train(y, nmax = 12, iter_max = 30, restarts = 2, seed = 11, threads = 1)
  b <- train(y, nmax = 12, iter_max = 30, restarts = 2, seed = 11, threads = 2)
  expect_identical(a$weights, b$weights)
  expect_identical(a$clusters, b$clusters)
  expect_identical(a$quality, b$quality)
  expect_identical(a$backend$threads, 1L)
  expect_identical(b$backend$threads, min(2L, somgpu:::build_info()$max_threads))
})

test_that("a map does not depend on the other maps trained in the same call", {
  y <- seed_data(300, 3, rng_seed = 5)
  family <- train(y, nmax = 10, iter_max = 25, seed = 3)
  alone <- train(y, sizes = 7, iter_max = 25, seed = 3)
  expect_identical(alone$weights$N7, family$weights$N7)
  expect_identical(alone$clusters$N7, family$clusters$N7)
  reordered <- train(y, sizes = c(9, 2, 7), iter_max = 25, seed = 3)
  expect_identical(reordered$weights$N7, family$weights$N7)
  expect_identical(names(reordered$weights), c("N9", "N2", "N7"))
})

test_that("work cut into tiny rounds (passes split mid-way) gives the same result", {
  y <- seed_data(3000, 2, rng_seed = 6)
  a <- train(y, sizes = c(2, 5, 9), iter_max = 4, restarts = 2, seed = 1, threads = 2)
  b <- withr::with_options(list(somgpu.cpu_round_units = 50),
                           train(y, sizes = c(2, 5, 9), iter_max = 4, restarts = 2, seed = 1,
                                 threads = 2))
  expect_identical(a$weights, b$weights)
  expect_identical(a$clusters, b$clusters)
  expect_identical(a$quality, b$quality)
})
