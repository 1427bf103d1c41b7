# Benchmark: choosing N on real labelled data beyond sample_rows (issue 33's rule at scale,
# checked on real data, not only on the synthetic design of bench_select_scale.R). Two
# data sets from mlbench, standardized: LetterRecognition (20,000 x 16, 26 letters) and
# Shuttle (58,000 x 9, 7 classes, 78% of the rows in one). Per set, each in a fresh R
# process with 10 minutes at most: select_size() with its defaults (sizes 2:20; above
# 10,000 rows a sample of 10,000 in batch training, every row then given its group), the
# same on every row (sample_rows = Inf, batch: the answer the sample stands for), again
# with seed 2, and mclust::Mclust(G = 1:20). Printed: seconds, the number of groups, the adjusted Rand index
# (ARI) of the partition against the classes and, for the sampled select_size() and for
# every row with another seed (the agreement the rule reaches from run to run), against its
# answer on every row (seed 1). The gap statistic is not run: at 10,000 rows and K.max = 12 it
# took 490 s (bench_select_scale.R), at these sizes and K.max = 20 past 10 minutes.
#
#   Rscript bench/bench_select_real_large.R
script <- sub("^--file=", "", grep("^--file=", commandArgs(), value = TRUE))
here <- if (length(script)) dirname(script) else "bench"
source(file.path(here, "helpers.R"))
for (p in c("mclust", "mlbench")) {
  if (!requireNamespace(p, quietly = TRUE)) stop("bench_select_real_large.R needs ", p)
}
options(width = 200)
limit <- 600

# the data, made the same way in every process: list(x standardized, classes)
data_code <- "
real_data <- function(name) {
  e <- new.env()
  utils::data(list = name, package = 'mlbench', envir = e)
  d <- get(name, e)
  cls <- if (name == 'LetterRecognition') d$lettr else d$Class
  x <- as.matrix(d[, vapply(d, is.numeric, logical(1))])
  list(x = scale(x), classes = as.integer(cls))
}"
eval(parse(text = data_code))

methods <- c(
  select_size = "select_size(x, seed = 1, threads = 2)",
  `select_size, every row` = "select_size(x, seed = 1, threads = 2, sample_rows = Inf, algorithm = 'batch')",
  `select_size, every row, seed 2` = "select_size(x, seed = 2, threads = 2, sample_rows = Inf, algorithm = 'batch')",
  mclust = "mclust::Mclust(x, G = 1:20, verbose = FALSE)")
answer_code <- "
answer <- function(name, r) {
  if (startsWith(name, 'select_size')) return(list(k = r$groups, groups = r$partition))
  list(k = r$G, groups = as.integer(r$classification))
}"

# One method on one set in a fresh process (at most `limit` seconds): list(seconds, k,
# groups), or NULL when it ran out of time or failed.
run_one <- function(name, set) {
  out <- tempfile(fileext = ".rds")
  code <- paste(
    "suppressPackageStartupMessages({library(somgpu); library(mclust)})", data_code,
    answer_code, sprintf("x <- real_data(%s)$x", deparse(set)),
    sprintf("t0 <- proc.time()[['elapsed']]; r <- %s; s <- proc.time()[['elapsed']] - t0",
            methods[[name]]),
    sprintf("a <- answer(%s, r); saveRDS(list(seconds = s, k = a$k, groups = a$groups), %s)",
            deparse(name), deparse(out)),
    sep = "\n")
  run_fresh(code, out, limit)
}

cat(machine_line(), "\n")
rows <- list()
for (set in c("LetterRecognition", "Shuttle")) {
  d <- real_data(set)
  got <- list()
  for (name in names(methods)) {
    r <- run_one(name, set)
    got[[name]] <- r
    rows[[length(rows) + 1L]] <- data.frame(
      data = set, n = nrow(d$x), m = ncol(d$x), classes = length(unique(d$classes)),
      method = name, seconds = if (is.null(r)) NA else round(r$seconds, 1),
      groups = if (is.null(r)) NA else r$k,
      ari_classes = if (is.null(r)) NA else round(ari_of(r$groups, d$classes), 3),
      ari_every_row = NA_real_,
      note = if (is.null(r)) sprintf("did not finish within %d s", limit) else "")
  }
  # against the answer on every row: the sample's, and another seed's (what agreement
  # the rule itself reaches on these data from run to run)
  e <- got[["select_size, every row"]]
  for (other in c("select_size", "select_size, every row, seed 2")) {
    o <- got[[other]]
    if (!is.null(o) && !is.null(e)) {
      i <- length(rows) - length(methods) + match(other, names(methods))
      rows[[i]]$ari_every_row <- round(ari_of(o$groups, e$groups), 3)
    }
  }
}
tab <- do.call(rbind, rows)
print(tab, row.names = FALSE)
