# Benchmark: where select_size()'s time goes (issue 40 item 3). Five Gaussian groups in 10
# columns (gaussian_groups(), bench/helpers.R) at 300, 3,000 and 30,000 rows; one
# select_size() call with its defaults (sizes 2:20, bootstrap 20, restarts 4, seed 1,
# threads = 2) per row count. 30,000 is above sample_rows (10,000): that call runs on a
# sample of 10,000 rows in batch training, and every row then joins its group
# (groups_of_rows()). Timed explicitly, by tracing the package's internal functions with
# trace() (the package itself unchanged): each traced function's inclusive seconds by its
# chain of traced callers, then the phases, disjoint, summing to the call's elapsed time:
# the fit on all rows (train: its training, train_maps(), and the rest: setup and the
# assessment); the replicates (train_replicates(): their training in one call,
# train_views(); their setup and assessment; replicate_fit(): every row predicted per size,
# fit_grouping() on the replicate's map, predict_groups()); the grouping on the full fit
# (fit_grouping(): the agglomeration over six covariance shapes, the EM, the rest);
# selection_criteria() (the stability ARIs of 190 pairs of replicates x 19 sizes) apart
# from cluster_indices(); group_stability(); groups_of_rows(); the rest of select_size().
# R's sampling profiler (Rprof, by function: the installed package carries no source
# references for line profiling) runs over the same call: the functions of most self time.
# In the same run, mclust::Mclust(x, G = 1:20) on the same data in a fresh process (at
# most --mclust-limit seconds, default 1200) for the ratio.
#
# Each call runs with threads = 2 and again with threads = 1 (--threads: the counts, in
# that order): on a shared machine whose other core is busy, two threads can be slower
# than one (every pass of batch training waits at a barrier for a thread not running).
#
#   Rscript bench/bench_select_profile.R [--rows=300,3000,30000] [--threads=2,1] [--lib=PATH]
#                                        [--mclust-limit=S] [--no-mclust]
script <- sub("^--file=", "", grep("^--file=", commandArgs(), value = TRUE))
source(file.path(if (length(script)) dirname(script) else "bench", "args.R"))
source(file.path(here, "helpers.R"))
if (!requireNamespace("mclust", quietly = TRUE)) stop("bench_select_profile.R needs mclust")
options(width = 200)
row_counts <- as.numeric(strsplit(opt("rows", "300,3000,30000"), ",")[[1]])
mclust_limit <- as.numeric(opt("mclust-limit", 1200))
threads <- as.integer(strsplit(opt("threads", "2,1"), ",")[[1]])
k_true <- 5L

# The timer: each traced function pushes its name on entry and, on exit, adds its
# inclusive seconds to the chain of traced names it ran under ("a > b > c").
prof <- new.env()
prof_reset <- function() {
  prof$stack <- character(0)
  prof$start <- numeric(0)
  prof$acc <- list()
}
prof_in <- function(name) {
  prof$stack <- c(prof$stack, name)
  prof$start <- c(prof$start, proc.time()[["elapsed"]])
}
prof_out <- function(name) {
  k <- length(prof$stack)
  key <- paste(prof$stack, collapse = " > ")
  prof$acc[[key]] <- (if (is.null(prof$acc[[key]])) c(0, 0) else prof$acc[[key]]) +
    c(proc.time()[["elapsed"]] - prof$start[k], 1)
  prof$stack <- prof$stack[-k]
  prof$start <- prof$start[-k]
}
traced <- c("train", "train_maps", "train_result", "train_replicates", "train_setup_of",
            "train_views", "replicate_fit", "fit_grouping", "agglomerate_cells", "mixture_em",
            "predict_groups", "selection_criteria", "cluster_indices", "group_stability",
            "groups_of_rows", "run_rules")
ns <- asNamespace("somgpu")
for (f in traced) {
  suppressMessages(trace(f, tracer = bquote(prof_in(.(f))), exit = bquote(prof_out(.(f))),
                         where = ns, print = FALSE))
}

# Seconds and calls of a chain ("train > train_maps"); of every chain ending in a name
# under a chain (at any depth below it).
acc_of <- function(key) if (is.null(prof$acc[[key]])) c(0, 0) else prof$acc[[key]]
under <- function(top, name) {
  keys <- names(prof$acc)
  hit <- startsWith(keys, paste0(top, " > ")) & endsWith(keys, paste0(" > ", name))
  Reduce(`+`, prof$acc[hit], c(0, 0))
}

# The phases, disjoint: list(label, seconds), summing to the call's elapsed time. Lazy
# evaluation puts a promise's time under the function that forces it: train()'s training,
# train_maps(), runs under train_result(), and each replicate's train_result() under its
# replicate_fit(); under() finds them at any depth.
phases_of <- function(total) {
  s <- function(key) acc_of(key)[1]
  u <- function(top, name) under(top, name)[1]
  # the fit's grouping, wherever a promise forced it
  f <- function(tail) {
    keys <- names(prof$acc)
    hit <- (keys == tail | endsWith(keys, paste0(" > ", tail))) & !startsWith(keys, "train_replicates")
    Reduce(`+`, prof$acc[hit], c(0, 0))[1]
  }
  rep_fit <- "train_replicates > replicate_fit"
  rep_result <- u("train_replicates", "train_result")
  out <- c(
    `fit on all rows: training (train_maps)` = u("train", "train_maps"),
    `fit on all rows: setup, assessment (qe, te, clusters)` = s("train") - u("train", "train_maps"),
    `replicates: training, one call (train_views)` = s("train_replicates > train_views"),
    `replicates: setup (train_setup_of)` = s("train_replicates > train_setup_of"),
    `replicates: assessment (train_result)` = rep_result,
    `replicates: predict every row per size, held-out qe` =
      s(rep_fit) - u(rep_fit, "fit_grouping") - u(rep_fit, "predict_groups") - u(rep_fit, "train_result"),
    `replicates: fit_grouping on each map (given shape and G)` = u(rep_fit, "fit_grouping"),
    `replicates: predict_groups` = u(rep_fit, "predict_groups"),
    `replicates: the rest of train_replicates()` = s("train_replicates") -
      s("train_replicates > train_views") - s("train_replicates > train_setup_of") - s(rep_fit) -
      s("train_replicates > train_result"),
    `grouping on the fit: agglomeration, 6 shapes (agglomerate_cells)` = f("fit_grouping > agglomerate_cells"),
    `grouping on the fit: EM (mixture_em)` = f("fit_grouping > mixture_em"),
    `grouping on the fit: the rest (moments, classify)` =
      f("fit_grouping") - f("fit_grouping > agglomerate_cells") - f("fit_grouping > mixture_em"),
    `the rules (run_rules): the finer ring, the rows' linkage, the tests` =
      s("run_rules") - s("run_rules > fit_grouping") - s("run_rules > group_stability"),
    `selection_criteria: stability ARIs over replicate pairs` =
      s("selection_criteria") - s("selection_criteria > cluster_indices"),
    `cluster_indices (Davies-Bouldin, Calinski-Harabasz)` = s("selection_criteria > cluster_indices"),
    `group_stability` = s("group_stability") + s("run_rules > group_stability"),
    `groups_of_rows (every row its group)` = s("groups_of_rows"))
  c(out, `the rest of select_size()` = total - sum(out))
}

load_avg <- function() strsplit(readLines("/proc/loadavg", warn = FALSE), " ")[[1]][1]
cat(machine_line(), "\n")
cat(sprintf("data: 5 Gaussian groups in 10 columns (gaussian_groups(n, 10, 5)); select_size(x, seed = 1, threads = %s), its defaults otherwise\n\n",
            paste(threads, collapse = " and ")))
phase_tab <- NULL
summary_rows <- list()
for (n in row_counts) {
  d <- gaussian_groups(n, 10, k_true)
  totals <- c()
  for (th in threads) {
    prof_reset()
    rp <- tempfile(fileext = ".out")
    load_before <- load_avg()
    utils::Rprof(rp, interval = 0.01)
    t0 <- proc.time()[["elapsed"]]
    sel <- select_size(d$x, seed = 1, threads = th, progress = FALSE)
    total <- proc.time()[["elapsed"]] - t0
    utils::Rprof(NULL)
    totals[as.character(th)] <- total
    cat(sprintf("== %s rows, %d thread%s (load average %s before): %s; %.1f s, %d groups, ARI %.3f against the truth\n",
                format(n, big.mark = ","), th, if (th == 1) "" else "s", load_before, sel$strategy$text,
                total, sel$groups, ari_of(sel$partition, d$g)))
    # every traced chain: calls, inclusive seconds, share of the call
    chains <- data.frame(chain = names(prof$acc), calls = vapply(prof$acc, `[`, 0, 2),
                         seconds = round(vapply(prof$acc, `[`, 0, 1), 2), row.names = NULL)
    chains$share <- sprintf("%.1f%%", 100 * chains$seconds / total)
    print(chains, row.names = FALSE)
    ph <- phases_of(total)
    col <- data.frame(phase = names(ph), sprintf("%.2f (%4.1f%%)", unname(ph), 100 * unname(ph) / total))
    names(col)[2] <- sprintf("%s t%d", format(n, big.mark = ","), th)
    phase_tab <- if (is.null(phase_tab)) col else cbind(phase_tab, col[2])
    rs <- utils::summaryRprof(rp)$by.self
    cat("\nRprof, the functions of most self time (seconds sampled; compiled code counts in the R function that calls it: \"fun\" is call_core()'s closure around .Call, the training and assessment):\n")
    print(utils::head(rs[c("self.time", "self.pct", "total.time")], 12))
    cat("\n")
  }
  # mclust on the same data, in a fresh process
  mc <- NULL
  if (!"--no-mclust" %in% args) {
    out <- tempfile(fileext = ".rds")
    mc <- run_fresh(c(
      if (!is.null(lib)) sprintf(".libPaths(c(%s, .libPaths()))", deparse(lib)),
      sprintf("source(%s)", deparse(file.path(here, "helpers.R"))),
      "suppressPackageStartupMessages(library(mclust))",
      sprintf("d <- gaussian_groups(%.0f, 10, %d)", n, k_true),
      "t0 <- proc.time()[['elapsed']]",
      "m <- Mclust(d$x, G = 1:20, verbose = FALSE)",
      sprintf("saveRDS(list(seconds = proc.time()[['elapsed']] - t0, k = m$G, ari = ari_of(m$classification, d$g)), %s)",
              deparse(out))), out, mclust_limit)
  }
  summary_rows[[length(summary_rows) + 1L]] <- data.frame(
    rows = n, t(stats::setNames(round(totals, 1), paste0("select_size_s_t", names(totals)))),
    mclust_s = if (is.null(mc)) NA else round(mc$seconds, 1), mclust_G = if (is.null(mc)) NA else mc$k,
    mclust_ARI = if (is.null(mc)) NA else round(mc$ari, 3),
    t(stats::setNames(if (is.null(mc)) rep(NA, length(totals)) else round(mc$seconds / totals, 2),
                      paste0("mclust_over_t", names(totals)))))
}
for (f in traced) suppressMessages(untrace(f, where = ns))

cat("phases of one select_size() call: seconds (share of the call), per row count and threads (t2: 2 threads, t1: 1):\n")
print(phase_tab, row.names = FALSE)
cat("\nselect_size() (seconds per thread count) beside Mclust(G = 1:20) on the same data (mclust in a fresh process, one thread; NA: past the limit or not run):\n")
print(do.call(rbind, summary_rows), row.names = FALSE)
