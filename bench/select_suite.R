# The data sets of bench/bench_select_accuracy.R: each list(name, kind, k, x, groups), where k
# is the number of groups the data hold (1: no group structure) and groups, for the
# generated groups, each row's. Generated from fixed seeds, so that
# every run and every method sees the same data.

# k Gaussian-like groups in m columns: unequal sizes (n_lo..n_hi rows each), spreads sd_lo..
# sd_hi, centres drawn with sd 4 (rejected until every two centres are at least `sep` times
# the sum of their groups' largest spreads apart: 3 easy, 2.5 clear, 2 touching). shape:
# "round" (Gaussian), "long" (Gaussian, a random rotation, one axis `ratio` times the
# others in sd), "ball" (uniform in a ball), "t5" (t with 5 degrees of freedom). noise: columns of
# pure noise added (N(0, the data's median column sd)).
make_groups <- function(k, m, seed, sep = 3, shape = "round", noise = 0, ratio = 3,
                        n_lo = 40, n_hi = 300, sd_lo = 0.4, sd_hi = 1) {
  set.seed(seed)
  sds <- stats::runif(k, sd_lo, sd_hi)
  reach <- if (shape == "long") sds * ratio else sds # largest spread of a group
  for (try in seq_len(10000)) {
    centres <- matrix(stats::rnorm(k * m, sd = 4), k)
    d <- as.matrix(stats::dist(centres))
    need <- sep * outer(reach, reach, "+")
    if (k == 1 || all(d[upper.tri(d)] >= need[upper.tri(need)])) break
    if (try %% 100 == 0) centres <- centres * 1.05 # room, if the draws keep failing
  }
  ns <- sample(n_lo:n_hi, k, replace = TRUE)
  one <- function(i) {
    n <- ns[i]
    z <- switch(shape,
      round = matrix(stats::rnorm(n * m), n),
      long = {
        z <- matrix(stats::rnorm(n * m), n)
        z[, 1] <- z[, 1] * ratio
        q <- qr.Q(qr(matrix(stats::rnorm(m * m), m)))
        z %*% q
      },
      ball = {
        z <- matrix(stats::rnorm(n * m), n)
        z <- z / sqrt(rowSums(z^2)) * stats::runif(n)^(1 / m) * sqrt(m + 2)
        z
      },
      t5 = matrix(stats::rt(n * m, df = 5), n) * sqrt(3 / 5))
    sweep(z * sds[i], 2, centres[i, ], "+")
  }
  x <- do.call(rbind, lapply(seq_len(k), one))
  if (noise > 0) {
    s <- stats::median(apply(x, 2, stats::sd))
    x <- cbind(x, matrix(stats::rnorm(nrow(x) * noise, sd = s), nrow(x)))
  }
  o <- sample.int(nrow(x)) # rows in a random order, each row's group as an attribute
  structure(x[o, , drop = FALSE], groups = rep(seq_len(k), ns)[o])
}

# No group structure: uniform in a box with sides 1..`ratio`, or one Gaussian with axis
# sds 1..ratio (rotated).
make_none <- function(m, seed, shape = "uniform", n = 800, ratio = 1) {
  set.seed(seed)
  sides <- seq(1, ratio, length.out = m)
  z <- if (shape == "uniform") matrix(stats::runif(n * m), n) else matrix(stats::rnorm(n * m), n)
  z <- sweep(z, 2, sides, "*")
  q <- qr.Q(qr(matrix(stats::rnorm(m * m), m)))
  z %*% q
}

# A list of data sets, each list(name, kind, k, x, groups): add() one (x a matrix, its
# rows' groups, if any, in attr(x, "groups")), all() the list.
suite_list <- function() {
  out <- list()
  list(add = function(name, kind, k, x) {
    groups <- attr(x, "groups")
    x <- as.matrix(x)
    attributes(x) <- list(dim = dim(x))
    out[[length(out) + 1L]] <<- list(name = name, kind = kind, k = k, x = x, groups = groups)
  }, all = function() out)
}

select_suite <- function(shift = 0) {
  sets <- suite_list()
  add <- sets$add
  # round Gaussian groups, k = 2..8, three separations, columns 2..20
  cols <- c(2, 3, 5, 8, 12, 20)
  seps <- c(easy = 3, clear = 2.5, touching = 2)
  i <- 0
  for (k in 2:8) for (s in names(seps)) {
    i <- i + 1
    m <- cols[(i %% length(cols)) + 1]
    add(sprintf("gauss k%d m%d %s", k, m, s), paste("gaussian", s), k,
        make_groups(k, m, seed = shift + 100 + i, sep = seps[[s]]))
  }
  # elongated groups (3:1 in sd), noise columns, other shapes
  for (j in 1:4) {
    k <- c(3, 4, 5, 6)[j]; m <- c(2, 3, 5, 8)[j]
    add(sprintf("long k%d m%d", k, m), "elongated", k,
        make_groups(k, m, seed = shift + 200 + j, sep = 2.5, shape = "long"))
  }
  for (j in 1:4) {
    k <- c(3, 4, 5, 7)[j]; m <- c(2, 4, 6, 10)[j]
    add(sprintf("noise k%d m%d+%d", k, m, 1 + (j > 2)), "noise column", k,
        make_groups(k, m, seed = shift + 300 + j, sep = 3, noise = 1 + (j > 2)))
  }
  for (j in 1:4) {
    k <- c(3, 5, 4, 6)[j]; m <- c(3, 4, 6, 8)[j]
    shape <- c("ball", "ball", "t5", "t5")[j]
    add(sprintf("%s k%d m%d", shape, k, m), if (shape == "ball") "uniform balls" else "t(5)",
        k, make_groups(k, m, seed = shift + 400 + j, sep = 2.5, shape = shape))
  }
  # no groups
  add("none uniform m2", "no groups", 1, make_none(2, shift + 501))
  add("none uniform m5 (sides 1..3)", "no groups", 1, make_none(5, shift + 502, ratio = 3))
  add("none gauss m3", "no groups", 1, make_none(3, shift + 503, "gauss"))
  add("none gauss m8 (sds 1..4)", "no groups", 1, make_none(8, shift + 504, "gauss", ratio = 4))
  add("none gauss m20", "no groups", 1, make_none(20, shift + 505, "gauss", n = 1000))
  # real data with labelled, well separated groups
  if (requireNamespace("cluster", quietly = TRUE)) {
    add("ruspini", "real", 4, get(utils::data("ruspini", package = "cluster", envir = environment())))
  }
  add("faithful (scaled)", "real", 2, scale(datasets::faithful))
  if (requireNamespace("kohonen", quietly = TRUE)) {
    e <- new.env()
    utils::data("wines", package = "kohonen", envir = e)
    add("wines (scaled)", "real", 3, scale(e$wines))
  }
  if (requireNamespace("mclust", quietly = TRUE)) {
    e <- new.env()
    utils::data("banknote", package = "mclust", envir = e)
    add("banknote (scaled)", "real", 2, scale(e$banknote[, -1]))
  }
  add("iris petals (scaled)", "real", 2, scale(datasets::iris[, 3:4])) # setosa vs the rest
  sets$all()
}

# A second suite of designs that select_size()'s rule was never tuned on (the first one
# was used to choose its constants): more groups than the first suite holds (9, 10), wider
# spreads of group sizes and widths, other elongations and shapes in more columns, groups
# of very different widths side by side, other data without groups, and a real data set
# not used before (cluster::xclara: 3 groups of 3000 points in 2 columns).
select_suite_heldout <- function(shift = 0) {
  sets <- suite_list()
  add <- sets$add
  s <- shift + 7000
  for (j in 1:4) { # many groups
    k <- c(9, 10, 9, 10)[j]; m <- c(4, 6, 10, 16)[j]
    add(sprintf("many k%d m%d", k, m), "many groups", k,
        make_groups(k, m, seed = s + j, sep = 2.5, n_lo = 40, n_hi = 200))
  }
  for (j in 1:6) { # group sizes 20..600, widths 0.2..1.5
    k <- c(2, 3, 4, 5, 6, 7)[j]; m <- c(3, 6, 9, 4, 7, 14)[j]
    add(sprintf("uneven k%d m%d", k, m), "uneven sizes and widths", k,
        make_groups(k, m, seed = s + 10 + j, sep = 2.5, n_lo = 20, n_hi = 600,
                    sd_lo = 0.2, sd_hi = 1.5))
  }
  for (j in 1:4) { # elongation 2:1 and 5:1
    k <- c(3, 4, 5, 6)[j]; m <- c(4, 6, 3, 10)[j]
    ratio <- c(2, 5, 2, 5)[j]
    add(sprintf("long%d k%d m%d", ratio, k, m), "elongated", k,
        make_groups(k, m, seed = s + 20 + j, sep = 2.5, shape = "long", ratio = ratio))
  }
  for (j in 1:4) { # t(5) and balls in more columns, touching
    k <- c(4, 6, 5, 7)[j]; m <- c(15, 12, 5, 9)[j]
    shape <- c("t5", "t5", "ball", "ball")[j]
    add(sprintf("%s k%d m%d touching", shape, k, m), paste(shape, "touching"), k,
        make_groups(k, m, seed = s + 30 + j, sep = 2.2, shape = shape))
  }
  for (j in 1:3) { # two noise columns among few
    k <- c(2, 4, 6)[j]; m <- c(3, 5, 8)[j]
    add(sprintf("noise k%d m%d+2", k, m), "noise columns", k,
        make_groups(k, m, seed = s + 40 + j, sep = 3, noise = 2))
  }
  add("none uniform m10", "no groups", 1, make_none(10, s + 51))
  add("none gauss m4 (sds 1..2)", "no groups", 1, make_none(4, s + 52, "gauss", ratio = 2))
  add("none uniform m3 (sides 1..5)", "no groups", 1, make_none(3, s + 53, ratio = 5, n = 1500))
  if (requireNamespace("cluster", quietly = TRUE)) {
    add("xclara", "real", 3, get(utils::data("xclara", package = "cluster", envir = environment())))
  }
  sets$all()
}
