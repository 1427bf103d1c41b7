# Groups of any shape (R/rule_connected.R, issue 39): Genie's linkage on a fine ring's prototypes,
# the number of groups where the rows' connectivity breaks, chosen over the Gaussian groups
# where those cut through dense data.

two_rings <- function(n = 600, seed = 1) {
  withr::with_seed(seed, {
    th <- runif(n, 0, 2 * pi)
    r <- rep(c(1, 3), n / 2)
    structure(cbind(r * cos(th), r * sin(th)) + matrix(rnorm(2 * n, sd = 0.1), ncol = 2),
              groups = rep(1:2, n / 2))
  })
}

test_that("the number of groups is where the crossing share breaks", {
  expect_identical(somgpu:::share_breaks(c(0, 0, 0.08, 0.1, 0.12)), 2L)
  expect_identical(somgpu:::share_breaks(c(0, 0, 0, 0.001, 0.3, 0.31)), 4L)
  expect_identical(somgpu:::share_breaks(c(0, 0.5)), 1L) # no k from 2 to compare
  expect_identical(somgpu:::crossing_share(c(1, 1, 2), c(1, 2, 3, NA), c(2, 3, 1, 1)), 2 / 3)
})

test_that("the switch asks the Gaussian groups to cross more in all and per boundary", {
  said <- function(...) somgpu:::connected_crossing_test(...)
  expect_null(said(0.074, 18L, 0, 2L)) # two rings cut in 18 arcs against 2 whole rings
  no <- said(0.015, 2L, 0.001, 2L) # two blobs: both small
  expect_identical(no[c("outcome", "statistic", "constant")],
                   data.frame(outcome = "declined", statistic = "Gaussian crossing share",
                              constant = "connected_times"))
  expect_equal(no$threshold, 20 * 0.001 + 0.01)
  # the suite's a2: 35 Gaussian groups cross 5.7% of the rows, 4 connected ones 0.17%;
  # per boundary 0.17% against 0.06%: the Gaussian groups are kept
  no <- said(0.0568, 35L, 0.00171, 4L)
  expect_identical(no$statistic, "Gaussian crossing share per boundary")
  expect_equal(c(no$value, no$threshold), c(0.0568 / 34, 2 * 0.00171 / 3 + 0.001))
  expect_identical(said(NA_real_, 3L, 0, 2L)$outcome, "declined")
})

test_that("the Gaussian groups' steadiness is their row-weighted stability", {
  # 6 rows, groups of 4 and 2; one replicate finds them again, one moves a row across
  # (Jaccard 3/4 and 2/3), one found no groups (not counted)
  gaussian <- list(groups = 2L, partition = c(1L, 1L, 1L, 1L, 2L, 2L))
  reps <- list(list(groups = gaussian$partition), list(groups = c(1L, 1L, 1L, 2L, 2L, 2L)),
               list(groups = NULL))
  work <- rep(list(list(train = 1:6)), 3)
  steadiness <- function(reps, work) {
    somgpu:::gaussian_steadiness(somgpu:::new_rule_inputs(NULL, NULL, NULL, gaussian, reps, work, list()))
  }
  expect_equal(steadiness(reps, work), (4 * (1 + 3 / 4) / 2 + 2 * (1 + 2 / 3) / 2) / 6)
  expect_identical(steadiness(reps[3], work[3]), NA_real_)
})

test_that("steady Gaussian groups stay where the crossing shares would switch", {
  y <- two_rings(400)
  args <- list(sizes = 2:12, iter_max = 40, threads = 2L)
  fit <- do.call(train, c(list(y, seed = 1, progress = FALSE), args))
  x <- unclass(y)[, 1:2]
  gaussian <- somgpu:::fit_grouping(fit, x, fit$clusters$N12)
  expect_gt(gaussian$groups, 2L)
  work <- rep(list(list(train = seq_len(nrow(x)))), 2)
  # replicates that find the arcs again (steadiness 1) keep them; arcs that move do not
  again <- rep(list(list(groups = gaussian$partition)), 2)
  rule <- function(reps) {
    apply_rule("connected", test_rule_inputs(fit, x, 12L, gaussian, reps = reps, work = work,
                                             args = args), gaussian)
  }
  kept <- rule(again)
  expect_null(kept$grouping)
  expect_identical(kept$decision[c("outcome", "statistic", "value", "threshold", "constant")],
                   data.frame(outcome = "declined", statistic = "Gaussian steadiness", value = 1,
                              threshold = 0.95, constant = "steady"))
  moved <- lapply(1:2, function(b) list(groups = (gaussian$partition + b - 1L) %% 2L + 1L))
  taken <- rule(moved)
  expect_identical(taken$grouping$rule, "connected")
  expect_identical(taken$grouping$assign, "neurons")
  # the last test passed: the rings' cut is a gap in the rows' tree
  expect_identical(taken$decision$outcome, "accepted")
  expect_identical(taken$decision$statistic, "narrowest gap / link quantile")
  expect_gt(taken$decision$value, 1)
})

# The lightest edge of the rows' minimum spanning tree between two groups (by the cut
# property: the closest pair of rows across the groups) over the tree's 90% quantile of
# edge lengths, the tree by Prim's algorithm on all pairwise distances.
ref_two_group_gap <- function(x, labels) {
  D <- as.matrix(stats::dist(x))
  n <- nrow(x)
  inside <- c(TRUE, rep(FALSE, n - 1))
  best <- D[1, ]
  edges <- numeric(0)
  for (step in seq_len(n - 1)) {
    j <- which(!inside)[which.min(best[!inside])]
    edges <- c(edges, best[j])
    inside[j] <- TRUE
    best <- pmin(best, D[j, ])
  }
  min(D[labels == 1, labels == 2]) / stats::quantile(edges, 0.9, names = FALSE)
}

test_that("the connected groups' cut is measured in the rows' own tree", {
  x <- withr::with_seed(5, rbind(matrix(rnorm(300), ncol = 2), matrix(rnorm(300), ncol = 2) + 7))
  fit <- train(x, sizes = 30L, seed = 1, sigma0 = "auto", backend = "cpu", threads = 2L,
               progress = FALSE)
  cl <- fit$clusters[[1L]]
  apart <- rep(1:2, each = 150) # two blobs: a gap
  expect_equal(somgpu:::connected_gap(fit, x, cl, apart), ref_two_group_gap(x, apart))
  expect_gt(somgpu:::connected_gap(fit, x, cl, apart), 3)
  halves <- ifelse(x[, 1] < mean(x[, 1]) & seq_len(300) <= 150, 1L, 2L) # a blob cut: none
  expect_equal(somgpu:::connected_gap(fit, x, cl, halves), ref_two_group_gap(x, halves))
  expect_identical(somgpu:::connected_gap(fit, x, cl, rep(1L, 300)), NA_real_)
  # rows on a grid of a few values (scores from 1 to 10): not asked
  grid <- withr::with_seed(6, matrix(sample(1:10, 600, TRUE), ncol = 2))
  fit <- train(grid, sizes = 30L, seed = 1, sigma0 = "auto", backend = "cpu", threads = 2L,
               progress = FALSE)
  expect_identical(somgpu:::connected_gap(fit, grid, fit$clusters[[1L]], rep(1:2, each = 150)),
                   NA_real_)
  expect_false(is.na(somgpu:::connected_gap(fit, grid + withr::with_seed(7, runif(600, -0.3, 0.3)),
                                            fit$clusters[[1L]], rep(1:2, each = 150))))
})

test_that("connected groups that no gap parts do not replace the Gaussian groups", {
  # touching blobs, the switch made to ask nothing and replicates that never find the
  # Gaussian groups again: only the rows' tree keeps them
  # (values out of the constants' domains: new_control(), which select_control() refuses)
  previous <- somgpu:::set_control(somgpu:::new_control(list(
    connected_times = 0, connected_plus = -1, connected_boundary_times = 0,
    connected_boundary_plus = -1, steady = 2)))
  withr::defer(somgpu:::set_control(previous))
  g <- rep(1:3, each = 120)
  y <- withr::with_seed(8, cbind(c(0, 4, 8)[g], 0) + matrix(rnorm(720), ncol = 2))
  args <- list(sizes = 2:10, iter_max = 40, threads = 2L)
  fit <- do.call(train, c(list(y, seed = 1, progress = FALSE), args))
  gaussian <- somgpu:::fit_grouping(fit, y, fit$clusters$N10)
  expect_gte(gaussian$groups, 2L)
  work <- rep(list(list(train = seq_len(nrow(y)))), 2)
  moved <- lapply(1:2, function(b) list(groups = (gaussian$partition + b - 1L) %% gaussian$groups + 1L))
  rule <- function(shape) {
    apply_rule("connected", test_rule_inputs(fit, y, 10L, gaussian, shape, reps = moved,
                                             work = work, args = args), gaussian)
  }
  kept <- rule("auto")
  expect_null(kept$grouping)
  expect_identical(kept$decision$statistic, "narrowest gap / link quantile")
  expect_lte(kept$decision$value, 1)
  # "connected" asks no gap
  forced <- rule("connected")
  expect_identical(forced$grouping$rule, "connected")
  expect_identical(forced$decision$outcome, "accepted")
})

test_that("two rings give 2 groups, every row in its ring; the Gaussian rule cuts them", {
  y <- two_rings()
  sel <- select_size(y, bootstrap = 4, seed = 1, progress = FALSE)
  expect_identical(sel$grouping$rule, "connected")
  expect_identical(sel$groups, 2L)
  expect_identical(sel$recommended, 2L)
  expect_identical(somgpu:::ari(sel$partition, attr(y, "groups"), 2L, 2L), 1)
  expect_match(sel$reason, "2 groups of any shape")
  expect_identical(predict(sel, y), sel$partition)
  expect_true(all(sel$group_table$stability > 0.85))
  # the first round of replicates found the Gaussian arcs too: they shift, not steady
  d <- sel$decisions
  expect_identical(d$outcome[d$rule == "connected"], "accepted")
  expect_lt(sel$grouping$detail$gaussian_steadiness, 0.95)
  gauss <- select_size(y, bootstrap = 4, seed = 1, progress = FALSE, shape = "gaussian")
  expect_gt(gauss$groups, 4L)
  expect_identical(gauss$grouping$rule, "gaussian")
  expect_identical(gauss$decisions$outcome[gauss$decisions$rule == "connected"], "not tried")
})

test_that("a chain of two linked rings gives 2 groups", {
  y <- withr::with_seed(2, {
    th <- runif(800, 0, 2 * pi)
    ring <- rep(1:2, 400)
    # fcps' chainlink: two unit rings through each other, at right angles
    a <- cbind(cos(th), sin(th), 0)
    b <- cbind(1 + cos(th), 0, sin(th))
    xyz <- ifelse(ring == 1, 1, 0) * a + ifelse(ring == 2, 1, 0) * b
    structure(xyz + matrix(rnorm(2400, sd = 0.05), ncol = 3), groups = ring)
  })
  sel <- select_size(y, bootstrap = 4, seed = 1, progress = FALSE)
  expect_identical(sel$groups, 2L)
  expect_identical(somgpu:::ari(sel$partition, attr(y, "groups"), 2L, 2L), 1)
})

test_that("Gaussian blobs keep the Gaussian groups and their count", {
  for (k in c(3L, 5L)) {
    centres <- withr::with_seed(k, matrix(rnorm(k * 4, sd = 6), k))
    g <- rep(seq_len(k), each = 80)
    y <- withr::with_seed(k + 10, centres[g, ] + matrix(rnorm(length(g) * 4), ncol = 4))
    sel <- select_size(y, bootstrap = 4, seed = 1, progress = FALSE)
    expect_identical(sel$groups, k)
    expect_identical(sel$grouping$rule, "gaussian")
    expect_gte(somgpu:::ari(sel$partition, g, k, k), 0.95)
  }
  # no group structure stays none: the connected rule is not asked
  u <- withr::with_seed(3, matrix(runif(1200), ncol = 3))
  expect_identical(select_size(u, bootstrap = 4, seed = 1, progress = FALSE)$groups, 1L)
})

test_that("shape is checked, and \"connected\" forces the connected groups", {
  expect_error(select_size(iris[1:4], shape = "round"), "`shape` must be one of",
               class = "somgpu_input_error")
  sel <- select_size(iris[1:4], sizes = 2:6, bootstrap = 3, seed = 1, progress = FALSE,
                     shape = "connected", scale = TRUE)
  expect_identical(sel$grouping$rule, "connected")
  expect_length(sel$partition, 150L)
  expect_false(anyNA(sel$partition))
  # the connected groups carry the Gaussian groups' number (rule apart compares it)
  gauss <- select_size(iris[1:4], sizes = 2:6, bootstrap = 3, seed = 1, progress = FALSE,
                       shape = "gaussian", scale = TRUE)
  expect_identical(sel$grouping$detail$gaussian_groups, gauss$groups)
  expect_identical(sel$decisions$outcome[sel$decisions$rule == "connected"], "accepted")
  expect_identical(sel$decisions$reason[sel$decisions$rule == "apart"], "shape = \"connected\"")
})

# Genie's linkage on the rows, the groups told their number, the rows in no group (R/math_genie.R,
# R/rule_told.R, R/rule_noise.R).

test_that("told k, select_size() gives k groups: connected on rings, Gaussian on blobs", {
  y <- two_rings(400)
  sel <- select_size(y, sizes = 2:8, bootstrap = 3, iter_max = 40, seed = 1,
                     progress = FALSE, groups = 2)
  expect_identical(sel$groups, 2L)
  expect_identical(sel$grouping$rule, "told")
  expect_identical(sel$grouping$assign, "rows")
  expect_identical(sel$grouping$told, 2L)
  expect_gt(sel$grouping$detail$gap, 1)
  expect_identical(sel$decisions$value[sel$decisions$rule == "told"], sel$grouping$detail$gap)
  # the figure's gaps: every cut into 1..k + 1 groups, the told one's as the rule read it;
  # asking them leaves the cut into k as it was
  gaps <- sel$grouping$detail$gaps
  expect_length(gaps, 3L)
  expect_true(is.na(gaps[1]))
  expect_identical(gaps[2], sel$grouping$detail$gap)
  expect_lt(gaps[3], gaps[2]) # a third group cuts a ring: a narrower gap
  xs <- unname(as.matrix(y))
  expect_identical(somgpu:::linkage_cut(xs, 2L, every = TRUE)$labels, somgpu:::linkage_cut(xs, 2L)$labels)
  expect_null(somgpu:::linkage_cut(xs, 2L)$gaps)
  third <- somgpu:::selection_data(sel)$long
  third <- third[third$panel == "rule told: narrowest gap per number of groups", ]
  expect_identical(third$x, 2:3)
  expect_identical(third$y, gaps[2:3])
  expect_identical(somgpu:::ari(sel$partition, attr(y, "groups"), 2L, 2L), 1)
  expect_match(sel$reason, "Told 2 groups")
  expect_identical(sel$recommended, 2L)
  expect_identical(predict(sel, y), sel$partition)
  expect_identical(sum(sel$group_table$rows), 400L)
  expect_true(all(sel$group_table$stability > 0.85))
  # Gaussian blobs that touch: the linkage's cuts are no gaps, the Gaussian groups are kept
  b <- blobs(3, 80, spread = 3.5, seed = 3)
  told <- lapply(3:4, function(k) {
    select_size(b, sizes = 2:6, bootstrap = 3, iter_max = 40, seed = 1, progress = FALSE,
                groups = k)
  })
  for (s in told) {
    k <- s$groups
    expect_identical(nrow(s$group_table), k)
    expect_identical(length(unique(s$partition)), k)
    expect_identical(predict(s, b), s$partition)
    expect_identical(s$grouping$rule, "told")
    expect_identical(s$grouping$assign, "mixture")
    expect_length(s$grouping$detail$gaps, k + 1L)
    expect_lte(s$grouping$detail$gaps[k], 1) # no gap: the Gaussian groups taken
  }
  expect_identical(vapply(told, `[[`, 1L, "groups"), 3:4)
  expect_gte(somgpu:::ari(told[[1]]$partition, attr(b, "groups"), 3L, 3L), 0.75)
  # shape = "connected" takes the linkage's groups whatever their cuts
  sc <- select_size(b, sizes = 2:6, bootstrap = 3, iter_max = 40, seed = 1,
                    progress = FALSE, groups = 3, shape = "connected")
  expect_identical(sc$grouping$assign, "rows")
  expect_identical(sc$groups, 3L)
  grDevices::pdf(NULL)
  on.exit(grDevices::dev.off(), add = TRUE)
  expect_warning(plot(sc), NA)
  expect_warning(plot(told[[2]]), NA)
})

test_that("`groups` is checked", {
  y <- blobs(2, 30)
  expect_error(select_size(y, sizes = 2:5, groups = 6), "at least 6 neurons",
               class = "somgpu_input_error")
  expect_error(select_size(y, sizes = 2:5, groups = 1.5), "`groups` must be NULL",
               class = "somgpu_input_error")
  expect_error(select_size(y, sizes = 2:5, groups = "2"), "`groups` must be NULL",
               class = "somgpu_input_error")
  expect_error(select_size(y, sizes = 2:5, noise = NA), "`noise` must be TRUE or FALSE",
               class = "somgpu_input_error")
})

test_that("noise = TRUE leaves outliers in no group, consistently in predict() and the table", {
  b <- blobs(2, 150, spread = 8, seed = 2)
  far <- withr::with_seed(5, cbind(runif(6, -30, 40), c(-25, -20, 35, 40, 30, -30)))
  y <- rbind(b, far)
  out <- 301:306
  plain <- select_size(y, sizes = 2:6, bootstrap = 3, iter_max = 40, seed = 1,
                       progress = FALSE)
  expect_false(anyNA(plain$partition))
  expect_null(plain$noise_rows)
  expect_false(plain$noise)
  expect_identical(plain$decisions$outcome[plain$decisions$rule == "noise"], "not tried")
  sel <- select_size(y, sizes = 2:6, bootstrap = 3, iter_max = 40, seed = 1,
                     progress = FALSE, noise = TRUE)
  expect_true(all(is.na(sel$partition[out])))
  expect_lt(sum(is.na(sel$partition[-out])), 0.05 * 300)
  expect_true(sel$noise)
  expect_identical(sel$noise_rows, sum(is.na(sel$partition)))
  expect_identical(sum(sel$group_table$rows) + sel$noise_rows, nrow(y))
  nd <- sel$decisions[sel$decisions$rule == "noise", ]
  expect_identical(nd$outcome, "applied")
  # the statistic is what the step compares with its threshold "noise_times" (a ratio): the
  # largest 5th-nearest-row distance over its group's median, by brute force (no scaling
  # here, and a ratio is the same in any units), above the threshold as rows are set aside
  core <- apply(as.matrix(dist(y)), 1L, function(r) sort(r)[6L])
  expect_equal(nd$value, max(core / stats::ave(core, plain$partition, FUN = stats::median)),
               tolerance = 1e-9)
  constants <- selection_constants()
  expect_identical(nd$threshold, constants$value[constants$name == "noise_times"])
  expect_true(nd$value > nd$threshold)
  expect_match(nd$statistic, "/ group median")
  expect_match(nd$reason, sprintf("^%d rows in no group: farther from their 5th nearest grouped row than 2.5 times their group's median",
                                  sel$noise_rows))
  # one row: its own words
  # (two square grids, whose rows' 5th nearest rows are all about as near, and a far row)
  grid <- as.matrix(expand.grid(1:10, 1:10))
  one <- select_size(rbind(grid, grid + 30, c(100, 100)), sizes = 2:6, bootstrap = 3,
                     iter_max = 40, seed = 1, progress = FALSE, noise = TRUE)
  expect_identical(one$noise_rows, 1L)
  expect_match(one$decisions$reason[one$decisions$rule == "noise"],
               "^1 row in no group: farther from its 5th nearest grouped row than 2.5 times its group's median")
  # print() and summary() say the same figures, and the count of rows in the reason
  said <- function(x) gsub("\\s+", " ", paste(capture.output(print(x)), collapse = " "))
  expect_match(said(sel),
               sprintf("noise applied \\(largest 5th nearest distance / group median %s, threshold 2.5\\)",
                       signif(nd$value, 3)))
  expect_match(said(summary(sel)),
               sprintf("%d rows in no group: .*\\[largest 5th nearest distance / group median",
                       sel$noise_rows))
  expect_identical(sel$decisions$rule, c("told", "gaussian", "connected", "apart", "sparse",
                                         "bimodal", "graph", "noise"))
  expect_identical(predict(sel, y), sel$partition)
  expect_identical(predict(sel, rbind(c(100, 100), colMeans(b)))[1], NA_integer_)
  # the groups themselves are those found without the option
  expect_identical(sel$partition[!is.na(sel$partition)], plain$partition[!is.na(sel$partition)])
  # told k as well
  told <- select_size(y, sizes = 2:6, bootstrap = 3, iter_max = 40, seed = 1,
                      progress = FALSE, groups = 2, noise = TRUE)
  expect_true(all(is.na(told$partition[out])))
  expect_identical(told$groups, 2L)
  expect_identical(predict(told, y), told$partition)
  expect_match(paste(capture.output(print(told)), collapse = "\n"), "in no group")
})

