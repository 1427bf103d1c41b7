# Slow pure-R references of R/math_genie.R's compiled steps, as the package wrote them in R
# before they went to C (src/groups/som_genie.c): Prim's minimum spanning tree and Genie's
# merges. test-connected.R checks the compiled ones give exactly these.

mst_reference <- function(X) {
  n <- nrow(X)
  if (n < 2L) return(list(from = integer(0), to = integer(0), weight = numeric(0)))
  cols <- lapply(seq_len(ncol(X)), function(k) X[, k])
  out <- seq_len(n)[-1L] # the points not yet joined
  best <- rep(Inf, n - 1L) # each one's squared distance to the tree, and to which point
  near <- rep(1L, n - 1L)
  from <- to <- integer(n - 1L)
  weight <- numeric(n - 1L)
  cur <- 1L
  for (e in seq_len(n - 1L)) {
    d2 <- 0
    for (col in cols) d2 <- d2 + (col[out] - col[cur])^2
    closer <- d2 < best
    best[closer] <- d2[closer]
    near[closer] <- cur
    j <- which.min(best)
    from[e] <- near[j]
    to[e] <- out[j]
    weight[e] <- best[j]
    cur <- out[j]
    out <- out[-j]
    best <- best[-j]
    near <- near[-j]
  }
  ord <- order(weight, seq_along(weight))
  list(from = from[ord], to = to[ord], weight = sqrt(weight[ord]))
}

genie_reference <- function(mst, p, k_max, gini = 0.3) {
  k_max <- min(k_max, p)
  out <- vector("list", k_max)
  if (p <= k_max) out[[p]] <- seq_len(p)
  group <- seq_len(p)
  size <- rep(1, p)
  live <- rep(TRUE, p)
  spread <- 0 # sum_{i<j} |s_i - s_j| over the live groups
  u <- mst$from
  v <- mst$to
  open <- rep(TRUE, length(u))
  lightest <- 1L
  K <- p
  while (K > 1L) {
    if (spread / ((K - 1) * p) > gini) { # the lightest edge that touches a smallest group
      smallest <- min(size[live])
      cand <- which(open)
      touches <- size[group[u[cand]]] == smallest | size[group[v[cand]]] == smallest
      pick <- cand[which(touches)[1L]]
    } else {
      while (!open[lightest]) lightest <- lightest + 1L
      pick <- lightest
    }
    open[pick] <- FALSE
    a <- group[u[pick]]
    b <- group[v[pick]]
    sizes <- size[live]
    spread <- spread - sum(abs(sizes - size[a])) - sum(abs(sizes - size[b])) +
      abs(size[a] - size[b])
    live[b] <- FALSE
    size[a] <- size[a] + size[b]
    spread <- spread + sum(abs(size[live] - size[a]))
    group[group == b] <- a
    K <- K - 1L
    if (K <= k_max) out[[K]] <- match(group, unique(group))
  }
  out
}
