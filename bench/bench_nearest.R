# Benchmark: the rows' nearest rows (R/genie.R's nearest_rows(), a scan in C since issue
# 39's merge) beside the R it replaced (a block of squared distances by their expansion,
# the nearest by max.col(), the m-th nearest by a sort per row: written out below), on the
# sizes select_size() meets: a sample of 10,000 grouped rows as the reference, 20,000 new
# rows (the rest of 30,000), m = 1 (a new row's connected group) and m = 6 (a core distance,
# the rows in no group); the seconds, the ratio and whether the answers agree (the same
# nearest row; the m-th distance within 1e-9 relative). Then one select_size(groups = 2,
# noise = TRUE) on 30,000 rows of two rings, its seconds.
#
#   Rscript bench/bench_nearest.R [--lib=PATH] [--select-only]
script <- sub("^--file=", "", grep("^--file=", commandArgs(), value = TRUE))
source(file.path(if (length(script)) dirname(script) else "bench", "args.R"))
source(file.path(here, "helpers.R"))
cat(machine_line(), "\n")

# The R of before, as it was.
nearest_rows_r <- function(x, ref, m = 1L) {
  m <- min(m, nrow(ref))
  n <- nrow(x)
  centre <- colMeans(ref)
  x <- sweep(x, 2L, centre)
  ref <- sweep(ref, 2L, centre)
  nearest <- integer(n)
  mth <- numeric(n)
  r2 <- rowSums(ref^2)
  block <- max(1L, floor(2e7 / nrow(ref)))
  for (lo in seq(1L, n, by = block)) {
    idx <- seq.int(lo, min(n, lo + block - 1L))
    xb <- x[idx, , drop = FALSE]
    d2 <- outer(rowSums(xb^2), r2, "+") - 2 * tcrossprod(xb, ref)
    d2[d2 < 0] <- 0
    nearest[idx] <- max.col(-d2, ties.method = "first")
    mth[idx] <- if (m == 1L) d2[cbind(seq_along(idx), nearest[idx])] else
      apply(d2, 1L, function(r) sort.int(r, partial = m)[m])
  }
  list(nearest = nearest, mth = sqrt(mth))
}

rings <- function(n, seed) {
  set.seed(seed)
  th <- runif(n, 0, 2 * pi)
  r <- sample(c(1, 3), n, TRUE)
  cbind(r * cos(th), r * sin(th)) + matrix(rnorm(2 * n, sd = 0.1), ncol = 2)
}
elapsed <- function(expr) {
  t0 <- proc.time()[["elapsed"]]
  value <- force(expr)
  list(value = value, s = proc.time()[["elapsed"]] - t0)
}
rows <- list()
for (d in if ("--select-only" %in% args) integer(0) else c(2L, 10L)) {
  set.seed(d)
  x <- if (d == 2L) rings(30000, 1) else matrix(rnorm(30000 * d), ncol = d)
  ref <- x[1:10000, , drop = FALSE]
  new <- x[10001:30000, , drop = FALSE]
  for (m in c(1L, 6L)) {
    a <- elapsed(somgpu:::nearest_rows(new, ref, m))
    b <- elapsed(nearest_rows_r(new, ref, m))
    rows[[length(rows) + 1L]] <- data.frame(
      columns = d, m = m, c_scan_s = round(a$s, 2), r_before_s = round(b$s, 2),
      ratio = round(b$s / a$s, 1), same_nearest = mean(a$value$nearest == b$value$nearest),
      mth_rel_diff = signif(max(abs(a$value$mth - b$value$mth) / pmax(b$value$mth, 1e-300)), 2))
    print(rows[[length(rows)]], row.names = FALSE)
  }
}
if (length(rows)) {
  cat("\n20,000 rows against 10,000:\n")
  print(do.call(rbind, rows), row.names = FALSE)
}
x <- rings(30000, 2)
s <- elapsed(suppressMessages(somgpu::select_size(x, sizes = 2:8, seed = 1, threads = 2,
                                                  groups = 2, noise = TRUE)))
cat(sprintf("\nselect_size(groups = 2, noise = TRUE), two rings, 30,000 x 2: %.1f s, %d rows in no group, %s\n",
            s$s, s$value$noise, s$value$strategy$text))
