# select_size(): the groups the data hold (counted on every replicate's maps), the
# recommended size, held-out error and bootstrap stability per ring size, the clusters'
# stability; and summary()'s suggestion by the same rule on one fit.

# k groups of n_per rows around the vertices of a regular simplex in 5 dimensions (every
# two centres `sep` apart), unit spread
simplex_blobs <- function(k, sep = 8, n_per = 50, seed = 1) {
  withr::with_seed(seed, {
    basis <- qr.Q(qr(cbind(1, diag(6)[, 1:5])))[, 2:6] # orthonormal, orthogonal to (1, ..., 1)
    centres <- (diag(6) %*% basis)[seq_len(k), ] * sep / sqrt(2)
    centres[rep(seq_len(k), each = n_per), ] + matrix(rnorm(k * n_per * 5), ncol = 5)
  })
}

# k groups of unequal sizes around random centres at least min_sep apart, spreads 0.4..1
random_blobs <- function(k, m = 5, min_sep = 8, seed = 1) {
  withr::with_seed(seed, {
    repeat {
      centres <- matrix(stats::runif(k * m, -8, 8), k)
      if (min(stats::dist(centres)) >= min_sep) break
    }
    ns <- sample(30:120, k, replace = TRUE)
    sds <- runif(k, 0.4, 1)
    do.call(rbind, lapply(seq_len(k), function(i) {
      sweep(matrix(rnorm(ns[i] * m, sd = sds[i]), ns[i]), 2, centres[i, ], "+")
    }))
  })
}

quick <- function(y, ...) {
  select_size(y, ..., restarts = 2, bootstrap = 8, seed = 1, backend = "cpu", threads = 2,
              progress = FALSE)
}

test_that("on k separated groups it counts k groups and recommends k", {
  for (k in 3:6) {
    sel <- quick(simplex_blobs(k, seed = k), sizes = 2:9)
    expect_identical(sel$groups, as.integer(k), label = sprintf("simplex, k = %d", k))
    expect_identical(sel$recommended, as.integer(k))
    expect_match(sel$reason, sprintf("The data hold %d groups", k))
    y <- random_blobs(k, m = c(2, 3, 8, 12)[k - 2], seed = 10 + k)
    sel <- quick(y, sizes = 2:10)
    expect_identical(sel$groups, as.integer(k), label = sprintf("unequal groups, k = %d", k))
    expect_identical(sel$recommended, as.integer(k))
    # the recommended map's clusters are the groups, each highly stable
    expect_identical(sum(sel$clusters$rows), nrow(y))
    expect_identical(nrow(sel$clusters), as.integer(k))
    expect_true(all(sel$clusters$stability > 0.9))
    expect_true(all(sel$clusters$reading == "highly stable"))
  }
})

test_that("data without groups: one group, no recommended size, said plainly", {
  u <- withr::with_seed(2, matrix(runif(600 * 3), ncol = 3))
  g <- withr::with_seed(3, matrix(rnorm(500 * 4), ncol = 4) %*% diag(c(3, 1, 1, 0.5)))
  for (y in list(u, g)) {
    sel <- quick(y, sizes = 2:8)
    expect_identical(sel$groups, 1L)
    expect_identical(sel$recommended, NA_integer_)
    expect_null(sel$clusters)
    expect_match(sel$reason, "^No group structure")
    out <- capture.output(print(sel))
    expect_true(any(grepl("recommended: none", out)))
  }
})

test_that("more groups than the largest size: it says so and suggests a wider range", {
  sel <- quick(simplex_blobs(6, seed = 2), sizes = 2:4)
  expect_identical(sel$groups, 4L)
  expect_identical(sel$recommended, 4L)
  expect_match(sel$reason, "largest size compared: the data may hold more groups; compare a wider range \\(e.g. sizes = 2:8\\)")
  # fewer groups than the smallest size: the smallest size, with neurons to spare
  sel <- quick(simplex_blobs(2, seed = 3), sizes = c(3, 5, 6))
  expect_identical(sel$groups, 2L)
  expect_identical(sel$recommended, 3L)
  expect_match(sel$reason, "smaller sizes were not compared")
})

# The documented rule, written out with loops (an independent reference of map_groups):
# touching cells from each row's two nearest neurons; the band counts on the segment; the
# groups as the connected parts over the neurons with enough rows.
ref_groups <- function(x, w) {
  n <- nrow(x)
  N <- nrow(w)
  first <- second <- integer(n)
  for (r in seq_len(n)) {
    d <- vapply(seq_len(N), function(j) sum((x[r, ] - w[j, ])^2), 0)
    o <- order(d)
    first[r] <- o[1]
    second[r] <- o[2]
  }
  big <- which(tabulate(first, N) >= max(5, 0.01 * n))
  parent <- seq_len(N)
  root <- function(i) { while (parent[i] != i) i <- parent[i]; i }
  for (i in big) for (j in big) {
    if (i >= j) next
    touch <- any((first == i & second == j) | (first == j & second == i))
    if (!touch) next
    rows <- which(first == i | first == j)
    t <- vapply(rows, function(r) sum((x[r, ] - w[i, ]) * (w[j, ] - w[i, ])), 0) /
      sum((w[j, ] - w[i, ])^2)
    ends <- min(sum(abs(t) < 0.15), sum(abs(t - 1) < 0.15))
    if (ends < 5 || sum(abs(t - 0.5) < 0.15) >= 0.5 * ends) parent[root(j)] <- root(i)
  }
  length(unique(vapply(big, root, 0)))
}

test_that("the groups of a map follow the documented rule", {
  set.seed(5)
  # two clouds, four neurons in each: two groups; the neurons of one cloud: one group
  a <- matrix(rnorm(400, sd = 0.5), ncol = 2)
  b <- sweep(matrix(rnorm(400, sd = 0.5), ncol = 2), 2, c(6, 0), "+")
  x <- rbind(a, b)
  w <- rbind(kmeans(a, 4, nstart = 5)$centers, kmeans(b, 4, nstart = 5)$centers)
  d <- as.matrix(dist(rbind(w, x)))[-(1:8), 1:8]
  c1 <- max.col(-d, "first")
  d2 <- d
  d2[cbind(seq_len(nrow(d)), c1)] <- Inf
  got <- somgpu:::map_groups(x, w, c1, max.col(-d2, "first"))
  expect_identical(got$count, 2L)
  expect_identical(length(unique(got$group[1:4])), 1L)
  expect_false(got$group[1] == got$group[5])
  expect_identical(got$count, as.integer(ref_groups(x, w)))
  # a neuron with too few rows belongs to no group; a missing value counts as the winner's
  w3 <- rbind(w, c(3, 40))
  xa <- rbind(x, c(3, 39))
  xa[1, 2] <- NA
  d <- as.matrix(dist(rbind(w3, replace(xa, is.na(xa), 0))))[-(1:9), 1:9]
  c1 <- max.col(-d, "first")
  c1[1] <- 1L
  d[cbind(seq_len(nrow(d)), c1)] <- Inf
  got <- somgpu:::map_groups(xa, w3, c1, max.col(-d, "first"))
  expect_identical(got$count, 2L)
  expect_true(is.na(got$group[9]))
  # on fitted maps of random data, the reference's count for every size
  for (seed in 1:3) {
    y <- random_blobs(3 + seed, m = 2 + seed, seed = 20 + seed)
    fit <- train(y, sizes = c(2, 4, 7, 11), sigma0 = "auto", restarts = 2, seed = seed,
                 backend = "cpu")
    got <- somgpu:::fit_groups(fit, y, predict(fit, y, type = "detail"))
    want <- vapply(fit$weights, function(w) as.integer(ref_groups(y, unname(w))), 0L)
    expect_identical(got, unname(want))
  }
})

test_that("the criteria and the number of groups follow from the replicates", {
  y <- random_blobs(4, seed = 3)
  sel <- select_size(y, sizes = c(6, 2, 4, 3, 5), restarts = 2, bootstrap = 7, seed = 2,
                     iter_max = 60, backend = "cpu", threads = 2)
  cr <- sel$criteria
  rp <- sel$replicates
  expect_s3_class(sel, "somgpu_selection")
  expect_identical(cr$size, 2:6)
  expect_identical(nrow(rp), 7L * 5L)
  by_size <- split(rp, rp$size)
  mode_larger <- function(v) {
    tab <- table(v)
    max(as.integer(names(tab)[tab == max(tab)]))
  }
  expect_identical(cr$groups, unname(vapply(by_size, function(d) mode_larger(d$groups), 1L)))
  expect_identical(sel$groups, mode_larger(rp$groups))
  expect_equal(cr$heldout_qe, unname(vapply(by_size, function(d) mean(d$heldout_qe), 1)))
  expect_equal(cr$train_qe, unname(vapply(by_size, function(d) mean(d$train_qe), 1)))
  expect_true(all(cr$stability_lo <= cr$stability + 1e-12 & cr$stability <= cr$stability_hi + 1e-12))
  expect_identical(sel$recommended, sel$groups)
  # the fit on all rows is train()'s with the same arguments, the ring-scaled schedule
  direct <- train(y, sizes = c(6, 2, 4, 3, 5), restarts = 2, iter_max = 60, seed = 2,
                  sigma0 = "auto", backend = "cpu", threads = 2, keep_data = FALSE,
                  progress = FALSE)
  expect_identical(sel$fit$weights, direct$weights)
  expect_identical(sel$fit$clusters, direct$clusters)
  expect_identical(sel$sigma0, "auto")
  # the script's schedule on request
  s5 <- select_size(y, sizes = 2:4, restarts = 1, bootstrap = 2, seed = 2, iter_max = 20,
                    sigma0 = 5, backend = "cpu", threads = 2)
  expect_identical(s5$fit$params$sigma0, 5)
  expect_match(capture.output(print(s5))[1], "sigma0 = 5;")
})

test_that("each cluster's stability is its mean best Jaccard over the replicates", {
  # two replicates' clusterings of 10 rows, of which each trained on some rows
  fit <- list(params = list(sizes = c(2L, 3L)),
              clusters = list(N2 = c(1, 1, 2, 2, 2, 1, 1, 2, 2, 2),
                              N3 = c(1, 1, 1, 2, 2, 2, 3, 3, 3, 3)))
  reps <- list(list(clusters = list(NULL, c(2, 2, 1, 1, 1, 1, 3, 3, 3, NA))),
               list(clusters = list(NULL, c(3, 3, 3, 3, 2, 2, 1, 1, 1, 1))))
  work <- list(list(train = c(1, 2, 2, 3, 4, 5, 6, 7, 8, 9, 10)),
               list(train = c(1, 3, 5, 7, 9, 9)))
  got <- somgpu:::cluster_stability(fit, reps, work, 3L)
  jaccard <- function(a, b) length(intersect(a, b)) / length(union(a, b))
  want <- vapply(1:3, function(j) mean(vapply(1:2, function(b) {
    rows <- unique(work[[b]]$train)
    r <- reps[[b]]$clusters[[2]]
    rows <- rows[!is.na(r[rows])]
    mine <- rows[fit$clusters$N3[rows] == j]
    max(vapply(unique(r[rows]), function(c) jaccard(mine, rows[r[rows] == c]), 0))
  }, 0)), 0)
  expect_equal(got$stability, want)
  expect_identical(got$rows, c(3L, 3L, 4L))
  expect_identical(got$reading, as.character(cut(want, c(-Inf, 0.6, 0.75, 0.85, Inf),
                                                 c("doubtful", "a pattern", "stable",
                                                   "highly stable"), right = FALSE)))
})

test_that("Davies-Bouldin and Calinski-Harabasz match a direct computation", {
  y <- random_blobs(3, seed = 5)
  sel <- select_size(y, sizes = 2:5, restarts = 2, bootstrap = 3, seed = 1, iter_max = 40,
                     backend = "cpu", threads = 2)
  for (s in 2:5) {
    cl <- sel$fit$clusters[[paste0("N", s)]]
    groups <- split(as.data.frame(y), cl)
    cent <- t(sapply(groups, colMeans))
    n <- nrow(y)
    k <- length(groups)
    within <- sum(sapply(seq_len(k), function(i) {
      sum((as.matrix(groups[[i]]) - matrix(cent[i, ], nrow(groups[[i]]), 5, byrow = TRUE))^2)
    }))
    between <- sum(sapply(seq_len(k), function(i) {
      nrow(groups[[i]]) * sum((cent[i, ] - colMeans(y))^2)
    }))
    ch <- (between / (k - 1)) / (within / (n - k))
    scatter <- sapply(seq_len(k), function(i) {
      g <- as.matrix(groups[[i]])
      mean(sqrt(rowSums((g - matrix(cent[i, ], nrow(g), 5, byrow = TRUE))^2)))
    })
    d <- as.matrix(dist(cent))
    db <- mean(sapply(seq_len(k), function(i) max((scatter[i] + scatter[-i]) / d[i, -i])))
    row <- sel$criteria$size == s
    expect_equal(sel$criteria$calinski_harabasz[row], ch)
    expect_equal(sel$criteria$davies_bouldin[row], db)
  }
})

test_that("it is reproducible, leaves R's generator alone and handles real data", {
  aq_args <- list(airquality, sizes = 2:5, restarts = 2, bootstrap = 4, iter_max = 30,
                  scale = TRUE, seed = 7, backend = "cpu", threads = 2)
  set.seed(42)
  before <- .Random.seed
  a <- do.call(select_size, aq_args)
  expect_identical(.Random.seed, before)
  b <- do.call(select_size, aq_args)
  expect_identical(a$criteria, b$criteria)
  expect_identical(a$recommended, b$recommended)
  expect_true(all(is.finite(a$criteria$heldout_qe)))
  expect_identical(nrow(a$fit$clusters), nrow(airquality))
  # seed = NULL: drawn from R's generator, stored
  set.seed(3)
  c1 <- select_size(iris[1:4], sizes = 2:4, restarts = 1, bootstrap = 3, iter_max = 20,
                    backend = "cpu", threads = 2)
  set.seed(3)
  c2 <- select_size(iris[1:4], sizes = 2:4, restarts = 1, bootstrap = 3, iter_max = 20,
                    backend = "cpu", threads = 2)
  expect_identical(c1$criteria, c2$criteria)
  expect_identical(c1$seed, c2$seed)
  # holdout = 0: the training qe stands in for the held-out one
  h0 <- select_size(iris[1:4], sizes = 2:4, restarts = 1, bootstrap = 3, holdout = 0,
                    iter_max = 20, seed = 1, backend = "cpu", threads = 2)
  expect_identical(h0$criteria$heldout_qe, h0$criteria$train_qe)
})

test_that("replicates on future workers give the same selection", {
  skip_if_no_future()
  local_plan(future::sequential)
  y <- simplex_blobs(3, seed = 4)
  args <- list(y, sizes = 2:5, restarts = 2, bootstrap = 4, iter_max = 30, seed = 3,
               backend = "cpu", threads = 2, progress = FALSE)
  a <- do.call(select_size, args)
  b <- do.call(select_size, c(args, parallel = "future"))
  expect_identical(b$criteria, a$criteria)
  expect_identical(b$replicates, a$replicates)
  expect_identical(b$clusters, a$clusters)
})

test_that("print and plot show the selection and take graphical parameters", {
  sel <- quick(simplex_blobs(3, seed = 6), sizes = 2:5)
  out <- capture.output(print(sel))
  expect_match(out[1], "8 replicates .* sigma0 = \"auto\" \\(ring-scaled; the original script's: sigma0 = 5\\)")
  expect_true(any(grepl("recommended: N = 3", out)))
  expect_true(any(grepl("<-", out)))
  expect_true(any(grepl("clusters of N = 3, bootstrap stability", out)))
  expect_true(any(grepl("highly stable", out)))
  png(tempfile(fileext = ".png"))
  on.exit(dev.off())
  expect_silent(plot(sel))
  expect_silent(plot(sel, main = "three groups", col = "red", pch = 2, xlab = "N", lwd = 2))
})

test_that("arguments: train()'s pass through, typos and conflicts are classed errors", {
  y <- iris[1:4]
  err <- function(expr, pattern) {
    expect_error(expr, pattern, class = "somgpu_input_error")
  }
  err(select_size(iris), "numeric columns only")
  err(select_size(y, sizes = 3), "at least two ring sizes")
  err(select_size(y, bootstrap = 1), "`bootstrap`")
  err(select_size(y, holdout = 0.95), "`holdout`")
  err(select_size(y, restarts = 0), "`restarts`")
  err(select_size(y, seed = "a"), "`seed`")
  err(select_size(y, sigma0 = "ring"), "`sigma0`")
  err(select_size(y, itermax = 30), "`itermax` is not an argument of select_size\\(\\) or train\\(\\) \\(did you mean `iter_max`\\?\\)")
  err(select_size(y, 2:4, 2, 3, 0.2, 1, "auto", FALSE, "none", 30), "must be named")
  err(select_size(y, sizes = 2:4, nmax = 5), "either `sizes` or `nmin`/`nmax`")
  err(select_size(y, sizes = 2:3, bootstrap = 2, iter_max = -1), "`iter_max`")
  err(select_size(y[1:2, ], sizes = 2:3, holdout = 0.5), "fewer than 2 rows")
  err(select_size(y, sizes = 2:3, parallel = "fork"), "`parallel`")
  # nmin / nmax, progress, keep_data
  sel <- select_size(y, nmin = 2, nmax = 4, restarts = 1, bootstrap = 2, iter_max = 10,
                     seed = 1, progress = FALSE, keep_data = TRUE, threads = 2)
  expect_identical(sel$criteria$size, 2:4)
  expect_false(is.null(sel$fit$data))
})

test_that("summary() suggests the number of groups from its own maps", {
  y <- random_blobs(4, seed = 31)
  fit <- train(y, nmax = 9, restarts = 2, seed = 1, threads = 2)
  s <- summary(fit)
  expect_identical(s$groups, 4L)
  expect_identical(s$suggested, 4L)
  expect_identical(s$rule, "groups")
  expect_identical(s$table$groups,
                   somgpu:::fit_groups(fit, y, predict(fit, y, type = "detail")))
  out <- capture.output(print(s))
  expect_true(any(grepl("suggested size \\(groups in the data\\): 4", out)))
  # without the data: the elbow of qe, said to be a rough guide
  lean <- train(y, nmax = 9, restarts = 2, seed = 1, threads = 2, keep_data = FALSE)
  s2 <- summary(lean)
  expect_identical(s2$rule, "elbow")
  expect_identical(s2$suggested, somgpu:::elbow(2:9, s2$table$qe))
  expect_match(s2$reason, "rough guide")
  expect_identical(summary(lean, data = y)$suggested, 4L)
  # no groups: no suggestion
  u <- withr::with_seed(2, matrix(runif(900), ncol = 3))
  su <- summary(train(u, nmax = 6, seed = 1, threads = 2))
  expect_identical(su$groups, 1L)
  expect_identical(su$suggested, NA_integer_)
})
