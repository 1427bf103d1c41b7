# The field's benchmark suite (Gagolewski's Benchmark Suite for Clustering Algorithms,
# version 1: clustering-benchmarks.gagolewski.com; a copy in ../shared, never shipped) as
# bench/bench_clustering_suite.R reads it: the sets, their "original" preprocessing, the
# published partitions of methods told k, the framework's score, and the methods run here.
# No package is attached and nothing runs when this file is sourced: the fresh processes
# that run one method on one set source it too (a variant of somgpu from another library
# must be the first somgpu they load).

# The batteries of up to 10,000 rows a set (birch1, birch2 and worms_2 have 100,000).
suite_batteries <- c("fcps", "graves", "other", "sipu", "uci", "wut")
suite_too_large <- c("birch1", "birch2", "worms_2")

# The sets of the copy at `root`: a data frame (battery, set, n, d), the sets of the
# batteries asked for, of the names asked for (NULL: every one), of at most max_rows rows.
suite_sets <- function(root, batteries = suite_batteries, sets = NULL, max_rows = 10000) {
  out <- list()
  for (b in batteries) {
    files <- sort(list.files(file.path(root, "data", b), "\\.data\\.gz$"))
    for (f in files) {
      s <- sub("\\.data\\.gz$", "", f)
      if (s %in% suite_too_large || (!is.null(sets) && !s %in% sets)) next
      # rows and columns from the file itself, without parsing the numbers
      lines <- readLines(file.path(root, "data", b, f))
      n <- length(lines)
      if (n > max_rows) next
      out[[length(out) + 1L]] <- data.frame(battery = b, set = s, n = n,
                                            d = length(strsplit(trimws(lines[1]), "[ \t]+")[[1]]))
    }
  }
  if (!length(out)) stop("no set of ", root, " matches the selection")
  do.call(rbind, out)
}

# The framework's "original" preprocessing (clustering-results-v1, original/README.md):
# columns of zero variance dropped; white noise of sd 1e-6 times the overall sd added (so
# that no two distances tie; drawn here from `seed`); centred, and every column divided by
# ONE standard deviation, that of all the values pooled (numpy's X.std(axis = None, ddof =
# 1), taken before centring, about the grand mean): the aspect ratio kept, not
# standardised column by column. how = "centred": no noise, the pooled sd of the centred
# values (the issue 39 figures' preprocessing, the same on every set whose columns have
# like means; not on uci's).
preprocess_original <- function(x, seed = 1, how = "framework") {
  x <- x[, apply(x, 2, stats::var) > 0, drop = FALSE]
  if (how == "centred") {
    x <- sweep(x, 2, colMeans(x))
    return(unname(x / stats::sd(as.vector(x))))
  }
  set.seed(seed)
  x <- x + stats::rnorm(length(x), sd = stats::sd(as.vector(x)) * 1e-6)
  s <- stats::sd(as.vector(x))
  unname(sweep(x, 2, colMeans(x)) / s)
}

# One set: list(battery, set, x preprocessed (preprocess_original(how)), labels: the reference labellings (0 =
# noise), ks: each labelling's number of clusters, k: the first one's).
read_set <- function(root, battery, set, how = "framework") {
  dir <- file.path(root, "data", battery)
  x <- as.matrix(utils::read.table(file.path(dir, paste0(set, ".data.gz"))))
  files <- sort(list.files(dir, paste0("^", set, "\\.labels[0-9]+\\.gz$")))
  files <- files[order(as.integer(sub(".*\\.labels([0-9]+)\\.gz$", "\\1", files)))]
  labels <- lapply(files, function(f) as.integer(scan(file.path(dir, f), quiet = TRUE)))
  ks <- vapply(labels, function(l) length(unique(l[l > 0])), integer(1))
  list(battery = battery, set = set, x = preprocess_original(x, how = how), labels = labels, ks = ks,
       k = ks[1])
}

# The framework's score of one partition: per reference labelling, the ARI over the rows it
# does not call noise (label 0), the best kept. `partition` a vector for every labelling,
# or (for a method told k) a list named by k, each labelling scored against the partition
# into its own number of clusters (labellings without one skipped; NA when none has one).
# Rows a partition leaves out (NA) are left out of its comparison.
framework_ari <- function(partition, labels) {
  s <- vapply(labels, function(l) {
    p <- if (is.list(partition)) partition[[as.character(length(unique(l[l > 0])))]] else partition
    if (is.null(p)) return(NA_real_)
    ari_of(p[l > 0], l[l > 0])
  }, numeric(1))
  if (all(is.na(s))) NA_real_ else max(s, na.rm = TRUE)
}

# The published partitions of a method told k, as the copy holds them (results/<method>/
# <battery>/<set>.result<k>.gz, a CSV column per variant): a list named by k, one partition
# per k of the set's labellings that has a file (an empty list when none has).
published_partitions <- function(root, method, column, battery, set, ks) {
  out <- list()
  for (k in unique(ks)) {
    f <- file.path(root, "results", method, battery, sprintf("%s.result%d.gz", set, k))
    if (!file.exists(f)) next
    out[[as.character(k)]] <- as.integer(utils::read.csv(f, check.names = FALSE)[[column]])
  }
  out
}

# The published methods told k, by their name here: the results folder and the column.
published_methods <- list(
  `Genie g=0.3` = c("Genie", "Genie_G0.3"),
  `Gaussian mixture` = c("sklearn_gm", "sklearn_gm"),
  `k-means` = c("sklearn_kmeans", "sklearn_kmeans"),
  Ward = c("fastcluster_ward", "fastcluster_ward"))

# The largest number of groups a chooser may name: max(20, 1.5 k) rounded up, k the most
# clusters of a reference labelling.
suite_k_max <- function(ks) as.integer(max(20, ceiling(1.5 * max(ks))))

# The methods that choose k, run here each in a fresh process: function(x, k_max, seed)
# returning list(k, partition, object: what the cache keeps beside them, or NULL). `setup`
# loads what a method needs before the clock starts. A method from a file (--method
# name=file.R) defines suite_method() (and may define suite_setup()) the same way.
choosers <- list(
  select_size = list(
    setup = function() suppressPackageStartupMessages(library(somgpu)),
    run = function(x, k_max, seed) {
      sel <- somgpu::select_size(x, sizes = 2:k_max, seed = seed, threads = 2, progress = FALSE)
      list(k = sel$groups, partition = sel$partition, object = sel)
    }),
  mclust = list( # BIC over every covariance model, G = 1..k_max (bench/select_methods.R)
    setup = function() suppressPackageStartupMessages(library(mclust)),
    run = function(x, k_max, seed) {
      r <- alt_methods$mclust(x, k_max)
      list(k = r$k, partition = r$groups, object = NULL)
    }))

# Methods told k run here: function(x, ks, seed) returning a list of partitions named by k.
told_methods <- list(
  select_size_told = list( # select_size(groups = k) for each k of the set's labellings
    setup = function() suppressPackageStartupMessages(library(somgpu)),
    run = function(x, ks, seed) {
      out <- lapply(unique(ks), function(k) {
        somgpu::select_size(x, sizes = 2:suite_k_max(ks), seed = seed, threads = 2,
                            progress = FALSE, groups = k)$partition
      })
      stats::setNames(out, unique(ks))
    }),
  genieclust = list( # Genie, g = 0.3, the framework's reference, from the Debian package
    setup = function() suppressPackageStartupMessages(library(genieclust)),
    run = function(x, ks, seed) {
      out <- lapply(unique(ks), function(k) as.integer(genieclust::genie(x, k, gini_threshold = 0.3)))
      stats::setNames(out, unique(ks))
    }))
