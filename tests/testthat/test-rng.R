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

test_that("the visiting order is a permutation of 0..n-1 for awkward n", {
  for (n in c(2, 3, 4, 5, 7, 8, 9, 63, 64, 65, 1000, 1023, 1024, 1025, 4097)) {
    o <- .Call(somgpu:::C_visit_order, n, 1, 3L, 0L, 1L)
    expect_identical(sort(o), seq_len(n) - 1L, info = paste("n =", n))
  }
})

test_that("the visiting order matches the R reference", {
  cases <- expand.grid(n = c(2, 5, 100, 777), seed = c(0, 42, 2147483647, -5),
                       size = c(2L, 9L), restart = c(0L, 3L), pass = c(1L, 148L))
  for (i in seq_len(nrow(cases))) {
    cs <- cases[i, ]
    got <- .Call(somgpu:::C_visit_order, cs$n, cs$seed, cs$size, cs$restart, cs$pass)
    expect_identical(as.numeric(got),
                     ref_order(cs$n, cs$seed, "order", cs$size, cs$restart, cs$pass),
                     info = paste(unlist(cs), collapse = " "))
  }
})

test_that("each pass, map and seed gets its own order", {
  a <- .Call(somgpu:::C_visit_order, 500, 1, 4L, 0L, 1L)
  expect_false(identical(a, .Call(somgpu:::C_visit_order, 500, 1, 4L, 0L, 2L)))
  expect_false(identical(a, .Call(somgpu:::C_visit_order, 500, 1, 5L, 0L, 1L)))
  expect_false(identical(a, .Call(somgpu:::C_visit_order, 500, 1, 4L, 1L, 1L)))
  expect_false(identical(a, .Call(somgpu:::C_visit_order, 500, 2, 4L, 0L, 1L)))
})

test_that("visiting orders look uniform: first element and pairwise order", {
  n <- 10
  orders <- t(vapply(1:3000, function(t) .Call(somgpu:::C_visit_order, n, 7, 3L, 0L, t),
                     integer(n)))
  # the element visited first is uniform over the n points
  first <- tabulate(orders[, 1] + 1, n)
  expect_gt(chisq.test(first)$p.value, 1e-4)
  # the position of point 0 is uniform over the n positions
  pos <- tabulate(apply(orders, 1, function(o) which(o == 0)), n)
  expect_gt(chisq.test(pos)$p.value, 1e-4)
  # point 0 comes before point 1 about half the time
  before <- mean(apply(orders, 1, function(o) which(o == 0) < which(o == 1)))
  expect_lt(abs(before - 0.5), 0.05)
})
