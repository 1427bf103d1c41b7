# Rule "graph" (issue 66): the rows' shared-neighbour graph and Louvain's communities
# (src/groups/som_graph.c), checked against a pure-R graph and modularity and against
# igraph; the rule against the truth on wide data whose spectrum has no floor.

# The shared-neighbour graph in plain R, as Seurat builds it: each row's k nearest (itself
# among them), the Jaccard overlap s / (2k - s) of two rows' sets, pruned below `prune`.
snn_reference <- function(x, k, prune) {
  d2 <- as.matrix(stats::dist(x))
  nn <- t(apply(d2, 1, function(r) order(r)[seq_len(k)]))
  n <- nrow(x)
  a <- matrix(0, n, n)
  a[cbind(rep(seq_len(n), k), as.vector(nn))] <- 1
  s <- tcrossprod(a)
  jac <- s / (2 * k - s)
  jac[jac < prune] <- 0
  diag(jac) <- 0
  jac
}

# Modularity at resolution gamma of the membership g on the weighted adjacency a.
modularity_reference <- function(a, g, gamma) {
  deg <- rowSums(a)
  m2 <- sum(deg)
  same <- outer(g, g, "==")
  sum((a - gamma * outer(deg, deg) / m2)[same]) / m2
}

# Structured wide data: k groups in an r-dimensional latent space beside q programs of
# decaying variance that part no group, read through m columns, plus unit noise: its
# spectrum has no floor (as real expression tables'). k = 1: a cloud without groups.
structured_wide <- function(n, m, k, r = 4, sep = 3, q = 30, seed = 1) {
  withr::with_seed(seed, {
    g <- rep(seq_len(k), length.out = n)
    z <- matrix(rnorm(k * r, sd = sep), k)[g, , drop = FALSE] + matrix(rnorm(n * r), n)
    if (k == 1L) z <- matrix(rnorm(n * r), n)
    f <- matrix(rnorm(n * q), n) %*% diag(3 / sqrt(seq_len(q)))
    x <- z %*% (matrix(rnorm(r * m), r) / sqrt(r)) + f %*% (matrix(rnorm(q * m), q) / sqrt(q)) +
      matrix(rnorm(n * m), n)
  })
  list(x = x, g = g)
}

graph_of <- function(x, seed = 1) somgpu:::graph_seeded(x, seed)

test_that("the graph is Seurat's and the modularity is that of the communities found", {
  x <- withr::with_seed(3, rbind(matrix(rnorm(120), 60), matrix(rnorm(120, 8), 60),
                                  matrix(rnorm(100, -8), 50)))
  got <- graph_of(x)
  ref <- snn_reference(x, 20, 1 / 15)
  expect_equal(got$edges, sum(ref > 0) / 2)
  expect_equal(got$modularity, modularity_reference(ref, got$membership, 0.8), tolerance = 1e-12)
  # the three clouds, numbered by first appearance
  expect_identical(got$membership, rep(1:3, c(60, 60, 50)))
  # the communities' weights: from one to another, the graph's every entry once
  expect_equal(got$between, unname(rowsum(t(rowsum(ref, got$membership)), got$membership)),
               tolerance = 1e-12, ignore_attr = TRUE)
  # the join path: one group's modularity is 1 - resolution, the last Louvain's own, and a
  # join loses modularity here (three clouds apart)
  path <- somgpu:::graph_join_path(got$between)
  expect_equal(path[1], 1 - 0.8)
  expect_equal(path[3], got$modularity, tolerance = 1e-12)
  expect_true(all(diff(path) > 0))
  # the knn is the rows' own nearest, each row first among its own (no ties here)
  expect_identical(got$knn[, 1], seq_len(nrow(x)))
})

test_that("Louvain's communities match igraph's on the same graph", {
  skip_if_not_installed("igraph")
  d <- structured_wide(240, 300, 4, seed = 5)
  z <- prcomp(d$x, rank. = 12)$x
  got <- graph_of(z)
  gr <- igraph::graph_from_adjacency_matrix(snn_reference(z, 20, 1 / 15), mode = "undirected",
                                            weighted = TRUE)
  ig <- withr::with_seed(1, igraph::cluster_louvain(gr, resolution = 0.8))
  expect_equal(got$modularity, igraph::modularity(gr, got$membership, weights = igraph::E(gr)$weight,
                                                  resolution = 0.8),
               tolerance = 1e-12)
  # the same local optimum up to a few rows: modularity within 1%, partitions agreeing
  expect_equal(got$modularity, igraph::modularity(ig), tolerance = 0.01)
  expect_gt(somgpu:::ari(got$membership, igraph::membership(ig)), 0.95)
})

test_that("a graph without edges and tiny communities are handled", {
  # every row alone: no shared neighbour reaches the prune with one neighbour of its own
  got <- withr::with_seed(1, .Call(somgpu:::C_graph_communities,
                                   matrix(1:30, 1), 0.5, 0.8, sample.int(30)))
  expect_identical(got$membership, 1:30)
  expect_identical(got$modularity, 0)
  # communities under `least` rows join their nearest row's group
  x <- rbind(matrix(0, 10, 2), matrix(5, 10, 2), c(0.4, 0.4))
  g <- somgpu:::graph_groups(x, c(rep(1L, 10), rep(2L, 10), 3L), least = 5)
  expect_identical(g, c(rep(1L, 10), rep(2L, 10), 1L))
  expect_null(somgpu:::graph_groups(x, seq_len(21), least = 5))
})

test_that("rule graph finds groups on data whose spectrum has no floor, and none in a cloud", {
  d <- structured_wide(200, 400, 4, seed = 7)
  before <- withr::with_seed(11, { stats::runif(1); .Random.seed })
  sel <- withr::with_seed(11, {
    stats::runif(1)
    s <- select_size(d$x, sizes = 2:8, restarts = 2, bootstrap = 6, seed = 1, backend = "cpu",
                     threads = 2, progress = FALSE)
    expect_identical(.Random.seed, before) # the session's generator left alone
    s
  })
  expect_equal(sel$reduction$computed, length(sel$reduction$sdev)) # no floor
  dec <- sel$decisions[sel$decisions$rule == "graph", ]
  expect_identical(dec$outcome, "accepted")
  expect_identical(dec$constant, "graph_null_ratio")
  expect_gt(dec$value, dec$threshold)
  expect_identical(sel$grouping$rule, "graph")
  expect_identical(sel$groups, 4L)
  expect_gt(somgpu:::ari(sel$partition, d$g), 0.95)
  # its groups' stability from the replicates' own graphs
  expect_true(all(sel$group_table$stability > 0.8))
  # new rows join their nearest grouped row's group: the rows themselves keep theirs
  expect_identical(unname(predict(sel, d$x[1:30, ])), sel$partition[1:30])
  expect_match(sel$reason, "shared-neighbour graph")

  cloud <- structured_wide(200, 400, 1, seed = 8)
  sel0 <- select_size(cloud$x, sizes = 2:8, restarts = 2, bootstrap = 6, seed = 1,
                      backend = "cpu", threads = 2, progress = FALSE)
  dec0 <- sel0$decisions[sel0$decisions$rule == "graph", ]
  expect_identical(dec0$outcome, "declined")
  expect_lt(dec0$value, dec0$threshold)
  expect_identical(sel0$groups, 1L)

  # left out of the pipeline, the Gaussian rule's answer stands
  sel_skip <- select_size(d$x, sizes = 2:8, restarts = 2, bootstrap = 6, seed = 1,
                          backend = "cpu", threads = 2, progress = FALSE,
                          control = select_control(skip_rules = "graph"))
  expect_identical(sel_skip$decisions$outcome[sel_skip$decisions$rule == "graph"], "not tried")
  expect_false(identical(sel_skip$grouping$rule, "graph"))
})

test_that("rule graph leaves groups in a few directions above white noise to the others", {
  d <- withr::with_seed(9, {
    g <- rep(1:3, each = 50)
    centres <- matrix(0, 3, 300)
    centres[, 1:20] <- rnorm(60, sd = 3)
    list(x = centres[g, ] + matrix(rnorm(150 * 300), 150), g = g)
  })
  sel <- select_size(d$x, sizes = 2:8, restarts = 2, bootstrap = 6, seed = 1, backend = "cpu",
                     threads = 2, progress = FALSE)
  expect_lt(length(sel$reduction$sdev), sel$reduction$computed) # a floor
  dec <- sel$decisions[sel$decisions$rule == "graph", ]
  expect_identical(dec$outcome, "not tried")
  expect_match(dec$reason, "stand above the noise")
  # components asked for: not the rule's case either
  sel5 <- select_size(d$x, sizes = 2:8, restarts = 2, bootstrap = 6, seed = 1, backend = "cpu",
                      threads = 2, progress = FALSE, components = 5)
  expect_identical(sel5$decisions$outcome[sel5$decisions$rule == "graph"], "not tried")
})
