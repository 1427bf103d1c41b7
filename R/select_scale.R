# select_size() at scale. Beyond `select_rows_auto` rows (or the rows the user asks for),
# the rule runs unchanged on a sample of the rows: the replicates, the fit and the groups;
# then every row of the data joins its group (its winner on the grouping map, then the
# groups' mixture), a block of rows at a time, the rows in memory or read from a
# file-backed matrix, so the groups are given for every row whatever the rows.

# The rows select_size() samples by default (bench/bench_select_scale.R measures it), and
# how many rows a block of the all-rows assignment holds (3.2 MB of 16 columns; the option
# somgpu.select_block_rows, for the tests, sets another).
select_rows_auto <- 10000L
select_block_rows <- function() getOption("somgpu.select_block_rows", 25000L)

# The rows select_size() trains on: NULL (all of them), or the sorted row numbers of a
# sample, drawn from the seed apart from the replicates' draws.
select_sample <- function(n, sample_rows, seed, call) {
  k <- if (identical(sample_rows, "auto")) {
    select_rows_auto
  } else if (is.numeric(sample_rows) && length(sample_rows) == 1L && identical(sample_rows, Inf)) {
    Inf
  } else {
    check_whole(sample_rows, "sample_rows", 100, call = call)
  }
  if (k >= n) return(NULL)
  with_private_seed(derived_seed(seed, 104729), sort(sample.int(n, k)))
}

# Rows `idx` (increasing) of the data check_data() gives: a matrix, or a somgpu_file read
# from its backing file (file_rows()).
rows_at <- function(x, idx) {
  if (inherits(x, "somgpu_file")) file_rows(x, idx) else x[idx, , drop = FALSE]
}

# Every row of y its group under `grouping` (fit_grouping() on `fit`'s largest map), a block
# of rows at a time: each row's winner on the grouping map, then the mixture's most
# probable group (predict_groups()); NA for rows the fit leaves out. list(partition, rows:
# each group's rows, noise: the rows with a winner in no group, see noise_grouping()); with
# `to` (clusters_file_matrix()), the groups go to its file and partition is NULL. With a
# `reduction` (R/select_reduce.R), y has the columns it reduces: each block is projected.
groups_of_rows <- function(grouping, fit, y, n, threads, to = NULL, reduction = NULL) {
  fit <- grouping_fit(grouping, fit) # the map the groups live on
  out <- if (is.null(to)) rep(NA_integer_, n)
  rows <- integer(grouping$groups)
  noise <- 0L
  block <- select_block_rows()
  for (lo in seq(1, n, by = block)) {
    idx <- seq.int(lo, min(n, lo + block - 1))
    xb <- rows_at(y, idx)
    if (!is.null(reduction)) xb <- reduce_rows(reduction, xb)
    cl <- stats::predict(fit, xb, sizes = grouping$size, threads = threads)[[1L]]
    g <- predict_groups(grouping, fit, xb, cl)
    rows <- rows + tabulate(g, grouping$groups)
    noise <- noise + sum(is.na(g) & !is.na(cl))
    if (is.null(to)) out[idx] <- g else to$matrix[idx, 1L] <- g
  }
  if (!is.null(to)) bigmemory::flush(to$matrix)
  list(partition = out, rows = rows, noise = noise)
}

# What select_size() did at this size of data, for the result and its print(): list(rows,
# n, sampled, algorithm, dropped, scaled, spread_ratio, components, variance_explained,
# text). dropped: the rows (of the sample) that the fit left out for missing values;
# scaled, whether the maps trained on scaled columns (the fit's scaling, or the
# reduction's); spread_ratio, the columns' spread ratio where scale = "auto" measured it
# (select_scaling(); NA otherwise); components and variance_explained, the principal
# components the maps trained on and their share of the variance (`reduction`,
# R/select_reduce.R; NA without one).
select_strategy <- function(n, sample, algorithm, dropped = 0L, scaling = NULL, scaled = FALSE,
                            reduction = NULL, columns = NA_integer_) {
  k <- if (is.null(sample)) n else length(sample)
  big <- function(v) format(v, big.mark = ",")
  out <- if (dropped > 0L) {
    sprintf(" (%s left out for missing values: no group)", big(dropped))
  } else ""
  if (is.null(scaling)) scaling <- list(scale = FALSE, auto = FALSE, ratio = NA_real_)
  list(rows = k, n = n, sampled = !is.null(sample), algorithm = algorithm,
       dropped = as.integer(dropped), scaled = scaled,
       spread_ratio = scaling$ratio,
       components = if (is.null(reduction)) NA_integer_ else length(reduction$sdev),
       variance_explained = if (is.null(reduction)) NA_real_ else sum(reduction$explained),
       text = paste0(if (is.null(sample) && dropped == 0L) {
         sprintf("all %s rows, %s training", big(n), algorithm)
       } else if (is.null(sample)) {
         sprintf("%s of the %s rows%s, %s training", big(n - dropped), big(n), out, algorithm)
       } else {
         sprintf("a sample of %s of the %s rows%s, %s training; every row then given its group",
                 big(k), big(n), out, algorithm)
       }, scaling_words(scaling), reduction_words(reduction),
       if (isTRUE(columns > k)) sprintf("; more columns (%s) than rows", big(columns)) else ""))
}
