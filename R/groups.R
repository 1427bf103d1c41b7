# The groups a ring's map holds: how select_size() and summary() count the groups in the
# data. Neurons are the nodes of a graph; two neurons whose cells touch (some row has one as
# its winner and the other as its runner-up) are joined unless the rows of the two cells
# show a valley between them: projected on the segment from one neuron to the other
# (0 at the first, 1 at the second), the rows within `band` of the middle (the cells'
# border) are fewer than `tau` times those within `band` of the emptier end. The groups are
# the connected parts of the graph over the neurons that hold at least `min_rows` rows (a
# neuron between two groups, or on a few outliers, is no group of its own). A unimodal
# cloud cut by two neurons has more rows at the border than at the neurons (no valley);
# two groups, each under a neuron, have fewer. The constants were set on the data sets of
# bench/select_suite.R (a second draw of them, shift = 1000, to check).
group_band <- 0.15
group_tau <- 0.5
group_min_side <- 5L # fewer rows than this at an end: too few to see a valley (joined)

# Rows a neuron needs to count towards a group: 1% of the rows, at least 5.
group_min_rows <- function(n) max(5, 0.01 * n)

# The groups of one map. x: the rows in the space the map trained in (scaled, columns
# multiplied by the square root of their weights; missing values allowed), w: the map's
# weights in that space (size x m), cluster / runner_up: each row's winner and runner-up
# (NA for rows left out). Returns list(count, group: per neuron its group, NA for neurons
# with too few rows).
map_groups <- function(x, w, cluster, runner_up) {
  N <- nrow(w)
  ok <- !is.na(cluster)
  x <- x[ok, , drop = FALSE]
  c1 <- cluster[ok]
  c2 <- runner_up[ok]
  if (anyNA(x)) { # a missing value counts as the winner's: it moves the row along no segment
    miss <- which(is.na(x), arr.ind = TRUE)
    x[miss] <- w[cbind(c1[miss[, 1]], miss[, 2])]
  }
  rows <- tabulate(c1, N)
  used <- which(rows >= group_min_rows(length(c1)))
  if (!length(used)) return(list(count = NA_integer_, group = rep(NA_integer_, N)))
  touch <- matrix(tabulate((c1 - 1L) * N + c2, N * N), N)
  touch <- touch + t(touch) > 0
  joined <- matrix(FALSE, N, N)
  proj <- x %*% t(w) # row . neuron, for every projection at once
  w2 <- rowSums(w^2)
  cells <- split(seq_along(c1), factor(c1, levels = seq_len(N)))
  for (i in used) for (j in used[used > i]) {
    if (!touch[i, j]) next
    r <- c(cells[[i]], cells[[j]])
    t <- (proj[r, j] - proj[r, i] - sum(w[i, ] * w[j, ]) + w2[i]) / sum((w[j, ] - w[i, ])^2)
    ends <- min(sum(abs(t) < group_band), sum(abs(t - 1) < group_band))
    border <- sum(abs(t - 0.5) < group_band)
    if (ends < group_min_side || border >= group_tau * ends) joined[i, j] <- joined[j, i] <- TRUE
  }
  group <- rep(NA_integer_, N)
  count <- 0L
  for (i in used) {
    if (!is.na(group[i])) next
    count <- count + 1L
    todo <- i
    while (length(todo)) { # the connected part of i
      u <- todo[1L]
      todo <- todo[-1L]
      if (!is.na(group[u])) next
      group[u] <- count
      todo <- c(todo, which(joined[u, ] & is.na(group)))
    }
  }
  list(count = count, group = group)
}

# The fit's maps and x (its rows, in data units) in the space the maps trained in: scaled as
# the fit scales them, each column multiplied by the square root of its weight.
training_space <- function(fit, x) {
  x <- prepared_matrix(x, NULL, fit$scaling)
  w <- if (is.null(fit$scaling)) fit$weights else fit$scaled_weights
  if (!is.null(fit$var_weights)) {
    v <- sqrt(fit$var_weights)
    x <- sweep(x, 2, v, "*")
    w <- lapply(w, function(m) sweep(m, 2, v, "*"))
  }
  list(x = unname(x), weights = lapply(w, unname))
}

# Per size of the fit, the groups its map holds on the rows x (data units; the fit's
# training rows or rows like them), with detail the fit's prediction of x (predict(type =
# "detail")): an integer vector by size.
fit_groups <- function(fit, x, detail) {
  sp <- training_space(fit, x)
  vapply(seq_along(fit$params$sizes), function(i) {
    s <- fit$params$sizes[i]
    d <- detail[detail$size == s, , drop = FALSE]
    map_groups(sp$x, sp$weights[[i]], d$cluster, d$runner_up)$count
  }, integer(1))
}

# The most frequent count (ties to the larger: a size too small for the groups shows fewer
# than there are, never more).
count_mode <- function(counts) {
  counts <- counts[!is.na(counts)]
  if (!length(counts)) return(NA_integer_)
  tab <- tabulate(counts)
  max(which(tab == max(tab)))
}
