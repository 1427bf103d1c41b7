# The random streams: Philox4x32-10 against the published Random123 known answers, and the
# visiting order against the pure-R reference in helper-reference.R.

philox_kat <- list(
  list(ctr = c("00000000", "00000000", "00000000", "00000000"), key = c("00000000", "00000000"),
       out = c("6627e8d5", "e169c58d", "bc57ac4c", "9b00dbd8")),
  list(ctr = rep("ffffffff", 4), key = rep("ffffffff", 2),
       out = c("408f276d", "41c83b0e", "a20bc7c6", "6d5451fd")),
  list(ctr = c("243f6a88", "85a308d3", "13198a2e", "03707344"), key = c("a4093822", "299f31d0"),
       out = c("d16cfe09", "94fdcceb", "5001e420", "24126ea1"))
)

test_that("the C Philox4x32-10 gives the Random123 known answers", {
  for (k in philox_kat) {
    got <- .Call(somgpu:::C_philox, hex_value(k$ctr), hex_value(k$key))
    expect_identical(words_hex(got), k$out)
  }
})

test_that("the R reference Philox gives the Random123 known answers", {
  for (k in philox_kat) {
    expect_identical(words_hex(ref_philox(hex_value(k$ctr), hex_value(k$key))), k$out)
  }
})

# xoshiro128** known answers: the state and outputs of the xoshiro-6502 project's test data,
# generated with the C reference implementation (prng.di.unimi.it/xoshiro128starstar.c).
xoshiro_kat <- list(state = c("964d4a0c", "d40ab895", "ad7fdecb", "3006f0f0"),
                    out = c("f1391922", "6fe53806", "a5be2840", "f510ee70"))

xoshiro_draws <- function(state, k, count) {
  .Call(somgpu:::C_xoshiro_draws, list(state = state, k = k, count = count))
}

test_that("the C and R xoshiro128** give the published outputs", {
  state <- hex_value(xoshiro_kat$state)
  got <- xoshiro_draws(state, 0, 4L)
  expect_identical(words_hex(got), xoshiro_kat$out)
  gen <- ref_xoshiro(state)
  expect_identical(words_hex(vapply(1:4, function(i) gen(), numeric(1))), xoshiro_kat$out)
  gen <- ref_xoshiro(state)
  expect_identical(xoshiro_draws(state, 0, 500L),
                   vapply(1:500, function(i) gen(), numeric(1)))
})

test_that("bounded draws are exact, the rejection branch included", {
  state <- hex_value(xoshiro_kat$state)
  for (k in c(1, 2, 7, 1000, 2^31 + 1, 2^32 - 1)) {
    got <- xoshiro_draws(state, k, 300L)
    gen <- ref_xoshiro(state)
    expect_identical(got, vapply(1:300, function(i) ref_below(gen, k), numeric(1)),
                     info = paste("k =", k))
    expect_true(all(got >= 0 & got < k))
  }
  # k = 2^31 + 1 rejects about half the products: the draws stay uniform on both halves
  got <- xoshiro_draws(state, 2^31 + 1, 4000L)
  expect_lt(abs(mean(got < 2^30) - 0.5), 0.05)
})

visit_order <- function(n, seed, size, restart, pass, sample = FALSE) {
  .Call(somgpu:::C_visit_order,
        list(n = n, seed = seed, size = as.integer(size), restart = as.integer(restart),
             pass = as.integer(pass), sample = sample))
}

test_that("the visiting order is a permutation of 0..n-1 for awkward n", {
  for (n in c(2, 3, 4, 5, 7, 8, 9, 63, 64, 65, 1000, 1023, 1024, 1025, 4097)) {
    o <- visit_order(n, 1, 3, 0, 1)
    expect_identical(sort(o), seq_len(n) - 1L, info = paste("n =", n))
  }
})

test_that("the visiting order matches the R reference", {
  cases <- expand.grid(n = c(2, 3, 100, 777), seed = c(0, 42, 2147483647, -5),
                       size = c(2L, 9L), restart = c(0L, 3L), pass = c(1L, 148L))
  for (i in seq_len(nrow(cases))) {
    cs <- cases[i, ]
    got <- visit_order(cs$n, cs$seed, cs$size, cs$restart, cs$pass)
    expect_identical(as.numeric(got),
                     ref_order(cs$n, cs$seed, "order", cs$size, cs$restart, cs$pass),
                     info = paste(unlist(cs), collapse = " "))
  }
  expect_identical(as.numeric(visit_order(50, 8, 6, 1, 0, sample = TRUE)),
                   ref_order(50, 8, "sample", 6, 1, 0))
})

test_that("each pass, map, seed and stream gets its own order", {
  a <- visit_order(500, 1, 4, 0, 1)
  expect_false(identical(a, visit_order(500, 1, 4, 0, 2)))
  expect_false(identical(a, visit_order(500, 1, 5, 0, 1)))
  expect_false(identical(a, visit_order(500, 1, 4, 1, 1)))
  expect_false(identical(a, visit_order(500, 2, 4, 0, 1)))
  expect_false(identical(a, visit_order(500, 1, 4, 0, 1, sample = TRUE)))
})

test_that("visiting orders of small n are uniform over all n! permutations", {
  for (n in 3:5) {
    draws <- 120 * factorial(n)
    key <- vapply(seq_len(draws), function(t) {
      paste(visit_order(n, 7, 3, 0, t), collapse = "")
    }, character(1))
    counts <- table(key)
    expect_identical(length(counts), as.integer(factorial(n)), info = paste("n =", n))
    expect_gt(chisq.test(as.vector(counts))$p.value, 1e-4)
  }
})

test_that("visiting orders look uniform: first element, positions and pairs", {
  for (n in c(6, 7, 9, 33)) {
    orders <- t(vapply(1:4000, function(t) visit_order(n, 11, 5, 2, t), integer(n)))
    first <- tabulate(orders[, 1] + 1, n)
    expect_gt(chisq.test(first)$p.value, 1e-4)
    pos <- tabulate(apply(orders, 1, function(o) which(o == 0)), n)
    expect_gt(chisq.test(pos)$p.value, 1e-4)
    before <- mean(apply(orders, 1, function(o) which(o == 0) < which(o == 1)))
    expect_lt(abs(before - 0.5), 0.04)
  }
})
