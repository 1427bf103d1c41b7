# Benchmark: choosing N at scale. Six Gaussian groups in 10 columns (centres N(0, 4^2) per
# coordinate, unit noise, the same for every size), 1e4, 1e5 and 1e6 rows in memory, and
# 1e7 x 16 from a file-backed matrix: select_size(sizes = 2:12, seed = 1) with its
# defaults (at scale: a sample of 10,000 rows, batch training, every row then given its
# group), mclust::Mclust(G = 1:12) and the gap statistic (k-means, B = 50, firstSEmax),
# each in a fresh R process with 10 minutes at most; a method whose previous size took more
# than a tenth of that is not started (its time grows at least in proportion to the rows:
# 10 times the rows would take it past the limit).
# Printed: seconds, the number of groups, the adjusted Rand index (ARI) of the partition
# against the true groups and, for select_size(), against its answer on every row
# (sample_rows = Inf, batch training, where that finishes), the growth of each method's
# time with the rows, and for the file the peak memory beyond the process's start.
#
#   Rscript bench/bench_select_scale.R [--quick | --file]
#   (--quick: 1e4 and 1e5 rows only; --file: the 1e7 x 16 file only)
args <- commandArgs(trailingOnly = TRUE)
script <- sub("^--file=", "", grep("^--file=", commandArgs(), value = TRUE))
here <- if (length(script)) dirname(script) else "bench"
source(file.path(here, "helpers.R"))
for (p in c("mclust", "cluster", "bigmemory")) {
  if (!requireNamespace(p, quietly = TRUE)) stop("bench_select_scale.R needs the package ", p)
}
options(width = 200)
quick <- "--quick" %in% args
limit <- 600
dir <- tempfile("somgpu-scale-")
dir.create(dir)

# the data, made the same way in every process (gaussian_groups(), bench/helpers.R)
data_code <- paste("make_data <-", paste(deparse(gaussian_groups), collapse = "\n"))
eval(parse(text = data_code))

methods <- c(
  select_size = "select_size(x, sizes = 2:12, seed = 1, threads = 2)",
  `select_size, every row` = "select_size(x, sizes = 2:12, seed = 1, threads = 2, sample_rows = Inf, algorithm = 'batch')",
  mclust = "mclust::Mclust(x, G = 1:12, verbose = FALSE)",
  gap = "cluster::clusGap(x, FUNcluster = function(x, k) stats::kmeans(x, k, nstart = 10, iter.max = 50), K.max = 12, B = 50, verbose = FALSE)")
# each method's answer as list(k, groups)
answer_code <- "
answer <- function(name, r, x) {
  if (startsWith(name, 'select_size')) return(list(k = r$groups, groups = r$partition))
  if (name == 'mclust') return(list(k = r$G, groups = as.integer(r$classification)))
  k <- cluster::maxSE(r$Tab[, 'gap'], r$Tab[, 'SE.sim'], method = 'firstSEmax')
  set.seed(1)
  list(k = k, groups = if (k == 1) rep(1L, nrow(x)) else stats::kmeans(x, k, nstart = 10, iter.max = 50)$cluster)
}"

# One method on one size in a fresh process (at most `limit` seconds): list(seconds, k,
# groups, peak_mb), or NULL when it ran out of time or failed.
run_one <- function(name, n, file = NULL) {
  out <- tempfile(fileext = ".rds")
  x_code <- if (is.null(file)) sprintf("x <- make_data(%.0f)$x", n) else
    sprintf("x <- bigmemory::attach.big.matrix(%s)", deparse(file))
  code <- paste(
    "suppressPackageStartupMessages({library(somgpu); library(mclust)})", data_code, answer_code,
    x_code,
    "mb <- function(f) as.numeric(sub('[^0-9]*([0-9]+).*', '\\\\1', grep(f, readLines('/proc/self/status'), value = TRUE))) / 1024",
    "invisible(gc()); writeLines('5', '/proc/self/clear_refs'); before <- mb('VmRSS')",
    sprintf("t0 <- proc.time()[['elapsed']]; r <- %s; s <- proc.time()[['elapsed']] - t0", methods[[name]]),
    "peak <- mb('VmHWM') - before",
    sprintf("a <- answer(%s, r, x); saveRDS(list(seconds = s, k = a$k, groups = a$groups, peak_mb = peak), %s)",
            deparse(name), deparse(out)),
    sep = "\n")
  run_fresh(code, out, limit)
}

cat(machine_line(), "\n")
file_only <- "--file" %in% args
sizes <- if (file_only) numeric(0) else if (quick) c(1e4, 1e5) else c(1e4, 1e5, 1e6)
rows <- list()
last <- list()
for (n in sizes) {
  truth <- make_data(n)$g
  full <- sampled <- NULL
  for (name in names(methods)) {
    prev <- last[[name]]
    if (!is.null(prev) && (is.na(prev) || prev > limit / 10)) {
      rows[[length(rows) + 1L]] <- data.frame(rows = n, method = name, seconds = NA, groups = NA,
                                              ari_truth = NA, ari_every_row = NA,
                                              note = sprintf("not started: %s at a tenth of the rows", if (is.na(prev)) "did not finish" else sprintf("%.0f s", prev)))
      last[[name]] <- NA
      next
    }
    r <- run_one(name, n)
    last[[name]] <- if (is.null(r)) NA else r$seconds
    if (name == "select_size, every row") full <- r
    if (name == "select_size") sampled <- r
    rows[[length(rows) + 1L]] <- data.frame(
      rows = n, method = name, seconds = if (is.null(r)) NA else round(r$seconds, 1),
      groups = if (is.null(r)) NA else r$k,
      ari_truth = if (is.null(r)) NA else round(ari_of(r$groups, truth), 4),
      ari_every_row = NA, note = if (is.null(r)) "did not finish within 10 min" else "")
  }
  # the sampled answer against the answer on every row
  if (!is.null(full) && !is.null(sampled)) {
    i <- which(vapply(rows, function(d) d$rows == n && d$method == "select_size", TRUE))
    rows[[i]]$ari_every_row <- round(ari_of(sampled$groups, full$groups), 4)
  }
}
tab <- do.call(rbind, rows)
if (!file_only) {
print(tab, row.names = FALSE)

cat("\ngrowth of each method's time with the rows (seconds at 10x the rows / seconds):\n")
for (name in names(methods)) {
  s <- tab$seconds[tab$method == name]
  g <- s[-1] / s[-length(s)]
  cat(sprintf("  %-24s %s\n", name,
              paste(ifelse(is.na(g), "- (did not run at both)", sprintf("%.1fx", g)),
                    collapse = ", ")))
}
ss <- tab[tab$rows == 1e5, ]
cat(sprintf("\n1e5 rows: Mclust(G = 1:12) / select_size = %.1fx\n",
            ss$seconds[ss$method == "mclust"] / ss$seconds[ss$method == "select_size"]))
}

if (!quick) {
  # 1e7 x 16 from a file: written in blocks, never whole in memory
  n <- 1e7
  set.seed(1)
  centres <- matrix(rnorm(6 * 16, sd = 4), 6)
  bm <- bigmemory::filebacked.big.matrix(n, 16, type = "double", backingfile = "y.bin",
                                         backingpath = dir, descriptorfile = "y.desc")
  g_all <- integer(n)
  set.seed(2)
  for (lo in seq(1, n, by = 1e6)) {
    idx <- lo:min(n, lo + 1e6 - 1)
    g <- sample.int(6, length(idx), replace = TRUE)
    g_all[idx] <- g
    bm[idx, ] <- centres[g, ] + matrix(rnorm(length(idx) * 16), length(idx))
  }
  bigmemory::flush(bm)
  rm(bm)
  invisible(gc())
  r <- run_one("select_size", n, file = file.path(dir, "y.desc"))
  cat(sprintf("\n1e7 x 16 from a file-backed matrix: select_size %s; groups %s; ARI against the truth %s; peak memory beyond the start %s MB (the partition itself: %.0f MB)\n",
              if (is.null(r)) "did not finish within 10 min" else sprintf("%.1f s", r$seconds),
              if (is.null(r)) NA else r$k, if (is.null(r)) NA else round(ari_of(r$groups, g_all), 4),
              if (is.null(r)) NA else round(r$peak_mb), 4 * n / 2^20))
}
unlink(dir, recursive = TRUE)
