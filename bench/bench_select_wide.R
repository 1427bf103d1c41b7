# Benchmark: select_size() on wide data (issue 66), beside the methods the field runs on
# such tables, in the same run: k-means told the true k (on every column, 10 starts), a
# Seurat-style graph clustering choosing k (20 shared nearest neighbours on 20 principal
# components, Louvain at resolution 0.8; igraph) and mclust's BIC on the 20 components
# (irlba's truncated SVD), every method on the same data (bench/wide_suite.R: centred,
# in their units). select_size() runs with its defaults (sizes 2:20, seed 1, 2 threads).
#
#   Rscript bench/bench_select_wide.R [groups] [cost] [sensitivity] [--components=K]
#     groups: per labelled set (real, synthetic and structured), each method's k, ARI and
#             seconds
#     sensitivity: rule graph's constants (graph_*) each moved to 0.75 and 1.33 times its
#             value (bench/suite_sensitivity.R's variants), select_size()'s mean ARI on
#             the real and structured sets (where the rule runs; the narrow suites never
#             reach it)
#     cost:   seconds and peak memory (the process's VmHWM, in fresh processes) of
#             select_size() over columns 10 to 20,000 and rows 100 to 10,000, beside the
#             graph clustering and mclust on the components (with their SVD)
#     --components=K: select_size(components = K) instead of "auto" (FALSE: the columns)
#     --select-only: in groups, select_size() alone (no other method)
args <- commandArgs(trailingOnly = TRUE)
script <- sub("^--file=", "", grep("^--file=", commandArgs(), value = TRUE))
here <- normalizePath(if (length(script)) dirname(script) else "bench")
source(file.path(here, "helpers.R"))
source(file.path(here, "wide_suite.R"))
for (p in c("mclust", "irlba", "igraph")) {
  if (!requireNamespace(p, quietly = TRUE)) stop("this benchmark needs the package ", p)
}
suppressPackageStartupMessages(library(mclust))
options(width = 200)
parts <- intersect(args, c("groups", "cost", "sensitivity"))
if (!length(parts)) parts <- c("groups", "cost")
comp <- sub("^--components=", "", grep("^--components=", args, value = TRUE))
components <- if (length(comp)) { if (comp == "FALSE") FALSE else as.integer(comp) } else "auto"
cat(machine_line(), "\n\n")

if ("groups" %in% parts) {
  sets <- c(wide_real_sets(), wide_synthetic_sets(), wide_structured_sets())
  rows <- list()
  for (s in sets) {
    xp <- wide_prepared(s$x)
    pcs <- timed(wide_components(xp, 20))
    sel <- timed(select_size(s$x, seed = 1, threads = 2, progress = FALSE, components = components))
    row <- data.frame(data = s$name, n = nrow(s$x), m = ncol(s$x), k = s$k,
                      `select_size` = sprintf("%s (%.2f) %.1fs", sel$value$groups,
                                              ari_of(sel$value$partition, s$groups), sel$seconds),
                      rule = sel$value$grouping$rule, check.names = FALSE)
    for (nm in if ("--select-only" %in% args) character(0) else names(wide_methods)) {
      r <- timed(wide_methods[[nm]](xp, pcs$value, s$k))
      extra <- if (nm == "k-means told k") 0 else pcs$seconds # the components' SVD counts
      row[[nm]] <- sprintf("%s (%.2f) %.1fs", r$value$k, ari_of(r$value$groups, s$groups),
                           r$seconds + extra)
      row[[paste("ARI", nm)]] <- ari_of(r$value$groups, s$groups)
    }
    row[["ARI select_size"]] <- ari_of(sel$value$partition, s$groups)
    rows[[length(rows) + 1L]] <- row
    print(row[, intersect(names(row), c("data", "n", "m", "k", "select_size", "rule", names(wide_methods)))],
          row.names = FALSE)
  }
  tab <- do.call(rbind, rows)
  cat("\nper set: groups (ARI) seconds\n")
  print(tab[, intersect(names(tab), c("data", "n", "m", "k", "select_size", "rule", names(wide_methods)))],
        row.names = FALSE)
  cat("\nmean ARI:\n")
  ari_cols <- grep("^ARI ", names(tab), value = TRUE)
  for (kind in c("real", "synthetic", "structured")) {
    at <- vapply(sets, `[[`, "", "kind") == kind
    cat(sprintf("  %-9s %s\n", kind, paste(sprintf("%s %.3f", sub("^ARI ", "", ari_cols),
                                                   colMeans(tab[at, ari_cols, drop = FALSE])), collapse = "; ")))
  }
  cat(sprintf("  %-9s %s\n", "all", paste(sprintf("%s %.3f", sub("^ARI ", "", ari_cols),
                                                  colMeans(tab[, ari_cols, drop = FALSE])), collapse = "; ")))
}

if ("cost" %in% parts) {
  # one method on one shape of data in a fresh process: its seconds and the process's peak
  # resident memory (VmHWM) before and after, in MB
  peak_code <- 'as.numeric(sub("[^0-9]*([0-9]+).*", "\\\\1", grep("VmHWM", readLines("/proc/self/status"), value = TRUE))) / 1024'
  cost_of <- function(n, m, method, limit = 120) {
    out <- tempfile(fileext = ".rds")
    code <- c(sprintf("source(%s); source(%s)", deparse(file.path(here, "helpers.R")),
                      deparse(file.path(here, "wide_suite.R"))),
              "suppressPackageStartupMessages(library(mclust))",
              sprintf("d <- wide_gaussian(%d, %d, 4, sep = 1, informative = min(%d, 50), seed = 1)", n, m, m),
              "x <- d$x; for (p in c('igraph', 'irlba')) loadNamespace(p); invisible(gc())",
              sprintf("before <- %s", peak_code),
              "t0 <- proc.time()[['elapsed']]",
              switch(method,
                     select_size = sprintf("g <- select_size(x, seed = 1, threads = 2, progress = FALSE, components = %s)$partition", deparse(components)),
                     louvain = "g <- snn_louvain(wide_components(wide_prepared(x), 20))",
                     mclust = "g <- Mclust(wide_components(wide_prepared(x), 20), G = 1:20, verbose = FALSE)$classification"),
              "secs <- proc.time()[['elapsed']] - t0",
              sprintf("saveRDS(list(seconds = secs, before = before, peak = %s, ari = ari_of(g, d$g)), %s)",
                      peak_code, deparse(out)))
    run_fresh(code, out, limit)
  }
  shapes <- rbind(data.frame(n = 200, m = c(10, 100, 1000, 5000, 20000)),
                  data.frame(n = c(100, 500, 2000, 10000), m = 2000))
  cat("\ncost: 4 groups (centres N(0, 1) in 50 columns at most, unit noise), seconds and the process's peak memory",
      "(MB; in brackets, above its peak before the call, with the data and packages loaded; the data alone: n x m x 8 bytes)\n")
  for (i in seq_len(nrow(shapes))) {
    n <- shapes$n[i]
    m <- shapes$m[i]
    line <- sprintf("%6d x %6d (data %6.1f MB):", n, m, n * m * 8 / 2^20)
    for (method in c("select_size", "louvain", "mclust")) {
      if (method == "mclust" && n > 2000) { line <- paste(line, sprintf("%s -", method)); next }
      r <- cost_of(n, m, method)
      line <- paste(line, if (is.null(r)) sprintf("%s over the limit |", method) else
        sprintf("%s %.1f s, peak %.0f MB (+%.0f) (ARI %.2f) |", method, r$seconds, r$peak,
                r$peak - r$before, r$ari))
    }
    cat(line, "\n")
  }
}

if ("sensitivity" %in% parts) {
  source(file.path(here, "suite_sensitivity.R"))
  tab <- somgpu::selection_constants()
  variants <- Filter(function(v) v$constant == "(as tuned)" || startsWith(v$constant, "graph_"),
                     sensitivity_variants(tab))
  sets <- Filter(function(s) s$kind %in% c("real", "structured"),
                 c(wide_real_sets(), wide_structured_sets()))
  cat("\nsensitivity: rule graph's constants, select_size()'s ARI per set (real, then structured)\n")
  for (v in variants) {
    control <- if (is.na(v$value)) NULL else do.call(somgpu::select_control, stats::setNames(list(v$value), v$constant))
    aris <- vapply(sets, function(s) {
      sel <- select_size(s$x, seed = 1, threads = 2, progress = FALSE, control = control)
      ari_of(sel$partition, s$groups)
    }, 0)
    real <- vapply(sets, `[[`, "", "kind") == "real"
    cat(sprintf("%-18s %-5s %-8s real %.3f structured %.3f | %s\n", v$constant,
                if (is.na(v$value)) "" else format(v$factor), if (is.na(v$value)) "" else format(signif(v$value, 3)),
                mean(aris[real]), mean(aris[!real]), paste(sprintf("%.2f", aris), collapse = " ")))
  }
}
