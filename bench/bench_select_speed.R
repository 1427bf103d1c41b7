# Benchmark: select_size() beside mclust, on every set and at every size (issue 40).
#
# 1. The field's suite (../shared/clustering-benchmarks-v1, read as bench_clustering_suite.R
#    reads it: the framework's preprocessing), every set of at most --max-rows rows
#    (default 1,500: 47 sets): select_size(x, sizes = 2:K, seed = 1, threads = 2) and
#    mclust::Mclust(x, G = 1:K), K = max(20, 1.5 k), one after the other in this process
#    (so that both see the same load), elapsed and CPU seconds (user + system) of each,
#    the ratio mclust / select_size, and the totals. The two answers' ARI against the
#    reference labellings, as the framework scores them.
# 2. The suite's largest set of groups, sipu/a3 (7,500 rows, 50 groups, sizes 2:75).
# 3. Growth: select_size() on 1e3, 1e4, 1e5 and 1e6 rows x 10 columns (six Gaussian
#    groups, gaussian_groups() of bench/helpers.R), each in a fresh process: never less
#    time for more rows.
#
#   Rscript bench/bench_select_speed.R [--suite=PATH] [--max-rows=1500] [--lib=PATH]
#                                      [--parts=suite,a3,growth] [--growth=1e3,1e4,1e5,1e6]
#                                      [--threads=2]
script <- sub("^--file=", "", grep("^--file=", commandArgs(), value = TRUE))
source(file.path(if (length(script)) dirname(script) else "bench", "args.R"))
source(file.path(here, "helpers.R"))
source(file.path(here, "clustering_suite.R"))
if (!requireNamespace("mclust", quietly = TRUE)) stop("bench_select_speed.R needs mclust")
suppressMessages(library(mclust)) # Mclust() looks up mclustBIC() on the search path
options(width = 200)
root <- normalizePath(opt("suite", file.path(here, "..", "..", "shared",
                                             "clustering-benchmarks-v1")))
parts <- strsplit(opt("parts", "suite,a3,growth"), ",")[[1]]
threads <- as.integer(opt("threads", 2))
cat(machine_line(), "\n")
cat(sprintf("started %s, load average %s\n", format(Sys.time()),
            paste(utils::head(strsplit(readLines("/proc/loadavg"), " ")[[1]], 3), collapse = " ")))

# Elapsed and CPU (user + system, every thread) seconds of expr, and its value.
timed <- function(expr) {
  t0 <- proc.time()
  value <- force(expr)
  t <- proc.time() - t0
  list(value = value, elapsed = t[["elapsed"]], cpu = t[["user.self"]] + t[["sys.self"]])
}

select_on <- function(x, K) {
  suppressMessages(somgpu::select_size(x, sizes = 2:K, seed = 1, threads = threads))
}

if ("suite" %in% parts) {
  sets <- suite_sets(root, max_rows = as.numeric(opt("max-rows", 1500)))
  rows <- vector("list", nrow(sets))
  for (i in seq_len(nrow(sets))) {
    d <- read_set(root, sets$battery[i], sets$set[i])
    K <- max(20L, as.integer(ceiling(1.5 * max(d$ks))))
    s <- timed(select_on(d$x, K))
    m <- timed(Mclust(d$x, G = 1:K, verbose = FALSE))
    rows[[i]] <- data.frame(
      battery = d$battery, set = d$set, n = nrow(d$x), d = ncol(d$x), K = K,
      select_s = s$elapsed, select_cpu = s$cpu, replicates = s$value$bootstrap,
      mclust_s = m$elapsed, mclust_cpu = m$cpu,
      ratio = m$elapsed / s$elapsed, cpu_ratio = m$cpu / s$cpu,
      select_k = s$value$groups, mclust_k = m$value$G,
      select_ari = framework_ari(s$value$partition, d$labels),
      mclust_ari = framework_ari(m$value$classification, d$labels))
    cat(sprintf("%-7s %-16s %5d x %2d: select_size %6.2f s (cpu %6.2f, %2d replicates) mclust %7.2f s (cpu %7.2f): %5.1fx\n",
                d$battery, d$set, nrow(d$x), ncol(d$x), s$elapsed, s$cpu, s$value$bootstrap,
                m$elapsed, m$cpu, m$elapsed / s$elapsed))
  }
  tab <- do.call(rbind, rows)
  cat("\n== the suite's sets of at most", opt("max-rows", 1500), "rows: select_size() beside Mclust(G = 1:K)\n")
  print(transform(tab, select_s = round(select_s, 2), select_cpu = round(select_cpu, 2),
                  mclust_s = round(mclust_s, 2), mclust_cpu = round(mclust_cpu, 2),
                  ratio = round(ratio, 1), cpu_ratio = round(cpu_ratio, 1),
                  select_ari = round(select_ari, 3), mclust_ari = round(mclust_ari, 3)),
        row.names = FALSE)
  cat(sprintf("\n%d sets: select_size %.1f s (cpu %.1f), mclust %.1f s (cpu %.1f): %.1fx elapsed, %.1fx cpu; median per set %.1fx; select_size slower on %d sets (elapsed), %d (cpu); mean ARI select_size %.3f, mclust %.3f\n",
              nrow(tab), sum(tab$select_s), sum(tab$select_cpu), sum(tab$mclust_s),
              sum(tab$mclust_cpu), sum(tab$mclust_s) / sum(tab$select_s),
              sum(tab$mclust_cpu) / sum(tab$select_cpu), stats::median(tab$ratio),
              sum(tab$ratio < 1), sum(tab$cpu_ratio < 1), mean(tab$select_ari),
              mean(tab$mclust_ari)))
}

if ("a3" %in% parts) {
  d <- read_set(root, "sipu", "a3")
  s <- timed(select_on(d$x, 75L))
  cat(sprintf("\n== sipu/a3 (7,500 x 2, 50 groups, sizes 2:75): select_size %.1f s (cpu %.1f), %d groups, ARI %.3f, %d replicates\n",
              s$elapsed, s$cpu, s$value$groups, framework_ari(s$value$partition, d$labels),
              s$value$bootstrap))
}

if ("growth" %in% parts) {
  counts <- as.numeric(strsplit(opt("growth", "1e3,1e4,1e5,1e6"), ",")[[1]])
  lib_line <- if (!is.null(lib)) sprintf(".libPaths(c(%s, .libPaths()))", deparse(lib)) else ""
  rows <- lapply(counts, function(n) {
    out <- tempfile(fileext = ".rds")
    code <- c(lib_line, sprintf("source(%s)", deparse(file.path(here, "helpers.R"))),
              sprintf("d <- gaussian_groups(%.0f)", n),
              "t0 <- proc.time()",
              sprintf("sel <- suppressMessages(somgpu::select_size(d$x, seed = 1, threads = %d))", threads),
              "t <- proc.time() - t0",
              sprintf("saveRDS(list(s = t[['elapsed']], cpu = t[['user.self']] + t[['sys.self']], groups = sel$groups, ari = ari_of(sel$partition, d$g), strategy = sel$strategy$text), %s)", deparse(out)))
    r <- run_fresh(code, out, 3600)
    if (is.null(r)) return(data.frame(rows = n, seconds = NA, cpu = NA, groups = NA, ari = NA, strategy = "failed"))
    data.frame(rows = n, seconds = round(r$s, 2), cpu = round(r$cpu, 2), groups = r$groups,
               ari = round(r$ari, 3), strategy = r$strategy)
  })
  tab <- do.call(rbind, rows)
  cat("\n== growth: select_size() with its defaults on n x 10 (six Gaussian groups), a fresh process each\n")
  print(tab, row.names = FALSE)
  cat(sprintf("never less time for more rows: %s\n", all(diff(tab$seconds) > 0, na.rm = TRUE)))
}
