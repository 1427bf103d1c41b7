# Benchmark: the field's benchmark suite (Gagolewski's Benchmark Suite for Clustering
# Algorithms, version 1; bench/clustering_suite.R reads it) as a benchmark of select_size().
# The 73 sets of up to 10,000 rows of the batteries fcps, graves, other, sipu, uci and wut,
# in the framework's "original" preprocessing (zero-variance columns dropped, centred, every
# column divided by one pooled standard deviation), each method scored the framework's way
# (rows labelled 0 left out, the ARI against each reference labelling, the best kept).
# Methods that choose k, each in a fresh R process with a time limit: select_size(x, sizes
# = 2:K, seed = 1, threads = 2), K = max(20, 1.5 k) rounded up (k the most clusters of a
# reference labelling); mclust::Mclust(G = 1:K) on the sets up to 1,500 rows (all of them
# with --mclust-rows=Inf); any method given in a file. Told k: select_size(..., groups =
# k) (select_size_told: the same call told each k of the set's labellings) and
# genieclust's Genie (g = 0.3) run here, and the published partitions of the copy (Genie
# g = 0.3, the editor's reference; sklearn's Gaussian mixture; k-means; Ward). Printed: per set, the k each
# chooser names, every method's ARI and the seconds of those run here; per battery and
# overall, mean and median ARI, exact k, seconds; on the sets mclust ran, select_size's
# time beside mclust's; the sets where select_size loses most to Genie told k.
#
#   Rscript bench/bench_clustering_suite.R [options]
#     --data=PATH        the copy (default ../shared/clustering-benchmarks-v1 from the repo root)
#     --battery=a,b      only these batteries;  --set=a,b  only these sets
#     --max-rows=N       only sets up to N rows (default 10000)
#     --methods=a,b      the built-in methods run here (default select_size, mclust,
#                        select_size_told, genieclust)
#     --method=NAME=FILE another chooser: FILE defines suite_method(x, k_max, seed) returning
#                        list(k, partition[, object]) and may define suite_setup() (run before
#                        the clock starts; e.g. .libPaths() and library() of a variant of
#                        somgpu). Repeatable; compared on the same sets in the same run.
#     --limit=S          seconds per method and set (default 1200), each in a fresh process
#     --mclust-rows=N    mclust on sets up to N rows (default 1500; Inf: every set)
#     --cache=DIR        keep every answer: DIR/<method>/<battery>/<set>.rds (see below)
#     --reuse            take an answer from the cache where it has one made the same way
#                        (preprocessing, k_max, seed), not run it again
#     --lib=PATH         a library put first in every process (e.g. /tmp/lib-d)
#     --seed=N           the choosers' seed (default 1)
#     --csv=FILE         also write FILE: one row per set and method (battery, set, n, d, k:
#                        the first reference labelling's, method, k_chosen: NA for methods
#                        told k, ari, seconds: NA for the published partitions)
#     --preprocess=HOW   framework (default: the framework's "original", as the published
#                        partitions were made) or centred (no noise; the pooled sd of the
#                        centred values: the preprocessing of issue 39's figures)
#     --sensitivity      instead of the methods: select_size() choosing k with each tuned
#                        constant (selection_constants()) at 0.75 and 1.33 times its value,
#                        one at a time (bench/suite_sensitivity.R; a fresh process per set,
#                        the training kept between the variants); printed: per constant the
#                        mean ARI of each, its change, the sets it moved; those whose change
#                        moves the mean by more than 0.02. With --cache, per set in
#                        DIR/sensitivity/ (--reuse takes them)
#     --seeds=1,2,3      with --sensitivity: the constants as tuned also with these seeds
#                        (the variants with the first); printed: each seed's mean and theirs
#
# The cache: one RDS per method and set, list(battery, set, x (the preprocessed data, as the
# method saw it), labels (the reference labellings, 0 = noise), ks, k_max, seed, preprocess, method, k,
# partition (told methods: partitions, a list named by k), seconds, ari, object). For
# select_size, object is the whole selection: $fit (the fit on all rows, with the largest
# map, sizes 2:k_max), $grouping, $criteria, ...; a new grouping rule can be tried on the
# stored maps without training again (fit_grouping(sel$fit, x, sel$fit$clusters[[
# paste0("N", k_max)]])).
args <- commandArgs(trailingOnly = TRUE)
script <- sub("^--file=", "", grep("^--file=", commandArgs(), value = TRUE))
here <- normalizePath(if (length(script)) dirname(script) else "bench")
# --name=value or --name value; repeatable options collect every value
opt_all <- function(name) {
  out <- character(0)
  for (i in seq_along(args)) {
    a <- args[i]
    if (startsWith(a, paste0("--", name, "="))) out <- c(out, sub(paste0("^--", name, "="), "", a))
    if (a == paste0("--", name) && i < length(args)) out <- c(out, args[i + 1L])
  }
  out
}
opt <- function(name, default = NULL) {
  v <- opt_all(name)
  if (length(v)) v[length(v)] else default
}
split_opt <- function(name) {
  v <- opt(name)
  if (is.null(v)) NULL else strsplit(v, ",")[[1]]
}
lib <- opt("lib")
if (!is.null(lib)) .libPaths(c(lib, .libPaths()))
source(file.path(here, "helpers.R"))
source(file.path(here, "clustering_suite.R"))
for (p in c("mclust", "genieclust")) {
  if (!requireNamespace(p, quietly = TRUE)) stop("bench_clustering_suite.R needs the package ", p)
}
options(width = 250)

root <- normalizePath(opt("data", file.path(dirname(here), "..", "shared", "clustering-benchmarks-v1")),
                      mustWork = TRUE)
limit <- as.numeric(opt("limit", 1200))
mclust_rows <- as.numeric(opt("mclust-rows", 1500))
seed <- as.integer(opt("seed", 1))
cache <- opt("cache")
csv <- opt("csv")
reuse <- "--reuse" %in% args
how <- opt("preprocess", "framework")
if (!how %in% c("framework", "centred")) stop("--preprocess is framework or centred")
builtin <- split_opt("methods")
if (is.null(builtin)) builtin <- c("select_size", "mclust", "select_size_told", "genieclust")
bad <- setdiff(builtin, c(names(choosers), names(told_methods)))
if (length(bad)) stop("unknown method: ", paste(bad, collapse = ", "))
files <- opt_all("method") # NAME=FILE
from_file <- stats::setNames(normalizePath(sub("^[^=]*=", "", files), mustWork = TRUE),
                             sub("=.*$", "", files))
chooser_names <- c(intersect(builtin, names(choosers)), names(from_file))
told_names <- intersect(builtin, names(told_methods))
sets <- suite_sets(root, if (is.null(split_opt("battery"))) suite_batteries else split_opt("battery"),
                   split_opt("set"), as.numeric(opt("max-rows", 10000)))
work <- tempfile("suite-")
dir.create(work)

# One method on one set in a fresh process, at most `limit` seconds: what it saved (list(k,
# partition, seconds, object), or for a told method list(partitions, seconds)), or a
# character note when it ran out of time or failed.
run_method <- function(name, data_file) {
  out <- tempfile(fileext = ".rds", tmpdir = work)
  log <- tempfile(fileext = ".log", tmpdir = work)
  told <- name %in% told_names
  m <- if (name %in% names(from_file)) {
    c(sprintf("source(%s)", deparse(from_file[[name]])),
      "m <- list(setup = if (exists('suite_setup')) suite_setup else function() NULL, run = suite_method)")
  } else {
    sprintf("m <- %s[[%s]]", if (told) "told_methods" else "choosers", deparse(name))
  }
  code <- c(
    if (!is.null(lib)) sprintf(".libPaths(c(%s, .libPaths()))", deparse(lib)),
    sprintf("source(%s)", deparse(file.path(here, "clustering_suite.R"))),
    sprintf("source(%s)", deparse(file.path(here, "select_methods.R"))),
    m, sprintf("d <- readRDS(%s)", deparse(data_file)), "m$setup()",
    "t0 <- proc.time()[['elapsed']]",
    if (told) "r <- m$run(d$x, d$ks, d$seed)" else "r <- m$run(d$x, d$k_max, d$seed)",
    "s <- proc.time()[['elapsed']] - t0",
    if (told) {
      sprintf("saveRDS(list(partitions = lapply(r, as.integer), seconds = s), %s)", deparse(out))
    } else {
      sprintf("saveRDS(list(k = as.integer(r$k), partition = as.integer(r$partition), seconds = s, object = r$object), %s)",
              deparse(out))
    })
  t0 <- proc.time()[["elapsed"]]
  r <- run_fresh(code, out, limit, log)
  if (!is.null(r)) return(r)
  if (proc.time()[["elapsed"]] - t0 >= limit - 1) return(sprintf("past the %.0f s limit", limit))
  err <- if (file.exists(log)) grep("Error", readLines(log), value = TRUE) else character(0)
  paste("failed:", if (length(err)) substr(err[1], 1, 80) else "no message")
}

cache_file <- function(name, d) file.path(cache, name, d$battery, paste0(d$set, ".rds"))

if ("--sensitivity" %in% args) { # a mode of its own: the tuned constants moved (above)
  seeds <- as.integer(strsplit(opt("seeds", as.character(seed)), ",")[[1]])
  limit <- as.numeric(opt("limit", 7200))
  source(file.path(here, "suite_sensitivity_report.R"))
  quit(save = "no")
}

cat(machine_line(), "\n")
cat(sprintf("suite: %s; %d sets; preprocessing %s; limit %.0f s a method and set; mclust on sets up to %s rows; seed %d\n\n",
            root, nrow(sets), how, limit, format(mclust_rows), seed))
rows <- list()
long <- list() # --csv: one row per set and method
notes <- character(0)
for (i in seq_len(nrow(sets))) {
  d <- read_set(root, sets$battery[i], sets$set[i], how)
  d$k_max <- suite_k_max(d$ks)
  d$seed <- seed
  d$preprocess <- how
  data_file <- file.path(work, "data.rds")
  saveRDS(d, data_file)
  row <- data.frame(battery = d$battery, set = d$set, n = nrow(d$x), d = ncol(d$x),
                    k = paste(unique(d$ks), collapse = ","), K = d$k_max)
  for (name in c(chooser_names, told_names)) {
    told <- name %in% told_names
    kept <- if (reuse && !is.null(cache) && file.exists(cache_file(name, d))) readRDS(cache_file(name, d))
    if (name == "mclust" && nrow(d$x) > mclust_rows) {
      r <- NULL
    } else if (!is.null(kept) && identical(kept$preprocess, how) && identical(kept$k_max, d$k_max) &&
               identical(kept$seed, seed)) {
      r <- kept # the cached answer, made the same way
    } else {
      r <- run_method(name, data_file)
      if (is.character(r)) {
        notes <- c(notes, sprintf("%s/%s %s: %s", d$battery, d$set, name, r))
        r <- NULL
      } else if (!is.null(cache)) {
        dir.create(dirname(cache_file(name, d)), recursive = TRUE, showWarnings = FALSE)
        keep <- c(d[c("battery", "set", "x", "labels", "ks", "k_max", "seed", "preprocess")], list(method = name), r,
                  list(ari = framework_ari(if (told) r$partitions else r$partition, d$labels)))
        saveRDS(keep, cache_file(name, d))
      }
    }
    if (!told) row[[paste("k", name)]] <- if (is.null(r)) NA else r$k
    row[[paste("ARI", name)]] <- if (is.null(r)) NA else
      round(framework_ari(if (told) r$partitions else r$partition, d$labels), 3)
    row[[paste("s", name)]] <- if (is.null(r)) NA else round(r$seconds, 1)
    long[[length(long) + 1L]] <- data.frame(
      battery = d$battery, set = d$set, n = nrow(d$x), d = ncol(d$x), k = d$k, method = name,
      k_chosen = if (told || is.null(r)) NA_integer_ else as.integer(r$k),
      ari = row[[paste("ARI", name)]], seconds = if (is.null(r)) NA_real_ else round(r$seconds, 2))
  }
  for (pm in names(published_methods)) {
    p <- published_partitions(root, published_methods[[pm]][1], published_methods[[pm]][2],
                              d$battery, d$set, d$ks)
    row[[paste("ARI", pm)]] <- if (length(p)) round(framework_ari(p, d$labels), 3) else NA
    long[[length(long) + 1L]] <- data.frame(
      battery = d$battery, set = d$set, n = nrow(d$x), d = ncol(d$x), k = d$k, method = pm,
      k_chosen = NA_integer_, ari = row[[paste("ARI", pm)]], seconds = NA_real_)
  }
  rows[[i]] <- row
  print(row, row.names = FALSE)
}
tab <- do.call(rbind, rows)
if (!is.null(csv)) utils::write.csv(do.call(rbind, long), csv, row.names = FALSE, na = "NA")
answers <- c(chooser_names, told_names, names(published_methods))
cat("\nper set: the k each chooser names (k: the reference labellings' k; K: the largest k it may name), every method's ARI, the seconds of those run here\n")
print(tab, row.names = FALSE)

# per method: sets with an answer, mean and median ARI, k exact (the k of a reference
# labelling; of the first one), seconds
totals <- function(t, label) {
  ks <- lapply(strsplit(t$k, ","), as.integer)
  do.call(rbind, lapply(answers, function(m) {
    a <- t[[paste("ARI", m)]]
    k <- t[[paste("k", m)]]
    s <- t[[paste("s", m)]]
    data.frame(battery = label, method = m, sets = sum(!is.na(a)),
               mean_ARI = round(mean(a, na.rm = TRUE), 3), median_ARI = round(stats::median(a, na.rm = TRUE), 3),
               exact_k = if (is.null(k)) NA else sum(mapply(function(x, r) !is.na(x) && x %in% r, k, ks)),
               exact_k_first = if (is.null(k)) NA else sum(mapply(function(x, r) !is.na(x) && x == r[1], k, ks)),
               seconds = if (is.null(s)) NA else round(sum(s, na.rm = TRUE), 1))
  }))
}
cat("\nper battery and overall: sets with an answer, mean and median ARI, k exact (that of any reference labelling; of the first), total seconds\n")
by_battery <- split(tab, factor(tab$battery, unique(tab$battery)))
summ <- do.call(rbind, c(lapply(names(by_battery), function(b) totals(by_battery[[b]], b)),
                         list(totals(tab, "all"))))
print(summ, row.names = FALSE)
cat("\nmean ARI by battery (columns: methods)\n")
wide <- stats::reshape(summ[c("battery", "method", "mean_ARI")], idvar = "battery", timevar = "method",
                       direction = "wide")
names(wide) <- sub("^mean_ARI\\.", "", names(wide))
print(wide, row.names = FALSE)

if ("mclust" %in% chooser_names) {
  on <- !is.na(tab[["s mclust"]])
  cat(sprintf("\non the %d sets mclust ran (up to %s rows), beside mclust:\n", sum(on), format(mclust_rows)))
  for (m in setdiff(c(chooser_names, told_names), "mclust")) {
    s <- tab[[paste("s", m)]][on]
    sm <- tab[["s mclust"]][on]
    both <- !is.na(s)
    cat(sprintf("  %-14s mean ARI %.3f (mclust %.3f); %.1f s vs mclust %.1f s: %.2fx mclust's time; slower than mclust on %d of %d sets\n",
                m, mean(tab[[paste("ARI", m)]][on][both]), mean(tab[["ARI mclust"]][on][both]),
                sum(s[both]), sum(sm[both]), sum(s[both]) / sum(sm[both]), sum(s[both] > sm[both]), sum(both)))
  }
}

cat("\nwhere each chooser loses most to Genie g = 0.3 told k (published): the 12 largest gaps\n")
for (m in setdiff(chooser_names, "mclust")) {
  gap <- tab[["ARI Genie g=0.3"]] - tab[[paste("ARI", m)]]
  o <- order(-gap)[seq_len(min(12, sum(!is.na(gap))))]
  print(data.frame(method = m, tab[o, c("battery", "set", "n", "d", "k")], named = tab[[paste("k", m)]][o],
                   ARI = tab[[paste("ARI", m)]][o], Genie = tab[["ARI Genie g=0.3"]][o], gap = round(gap[o], 3)),
        row.names = FALSE)
}
if (length(notes)) cat("\nnot answered:\n", paste0("  ", notes, "\n"), sep = "")
if (!is.null(cache)) cat(sprintf("\ncache: %s/<method>/<battery>/<set>.rds\n", normalizePath(cache)))
