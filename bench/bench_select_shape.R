# Benchmark: what groups of any shape (select_size(shape = "auto"), issue 39) change beside
# the Gaussian groups alone (shape = "gaussian", the rule before it), on the data sets of
# the other accuracy benchmarks, in one run: the real labelled and shaped sets of
# bench_select_real.R (sizes 2:20), and the synthetic suites of bench_select_accuracy.R
# (sizes 2:12; the 43 sets and the 25 held-out ones). Per set: the number of groups each
# names, the ARI against the classes (where the set has them), whether "auto" took the
# connected groups (of a fine ring) or the groups apart (of the rows), and the seconds;
# per suite: exact counts, mean ARI, seconds. (The
# field's benchmark suite: bench_clustering_suite.R with a variant, see suite_variant.R.)
#
#   Rscript bench/bench_select_shape.R [real|synthetic|heldout ...] [--save=FILE]
#     (default: all three; --save keeps the table of every set, for a comparison of two
#     builds set by set: R_LIBS=<library> chooses the build)
args <- commandArgs(trailingOnly = TRUE)
save_to <- sub("^--save=", "", grep("^--save=", args, value = TRUE))
args <- grep("^--", args, value = TRUE, invert = TRUE)
script <- sub("^--file=", "", grep("^--file=", commandArgs(), value = TRUE))
here <- if (length(script)) dirname(script) else "bench"
source(file.path(here, "helpers.R"))
source(file.path(here, "select_suite.R"))
source(file.path(here, "real_suite.R"))
source(file.path(here, "select_methods.R"))
select_bench_setup()
which <- if (length(args)) args else c("real", "synthetic", "heldout")
suites <- list(real = function() c(real_suite(), shaped_suite()), synthetic = select_suite,
               heldout = select_suite_heldout)
kmax <- c(real = 20L, synthetic = 12L, heldout = 12L)

cat(machine_line(), "\n")
totals <- list()
all_rows <- list()
for (s in which) {
  rows <- list()
  for (d in suites[[s]]()) {
    row <- data.frame(suite = s, data = d$name, n = nrow(d$x), k = d$k)
    for (shape in c("gaussian", "auto")) {
      t0 <- proc.time()[["elapsed"]]
      sel <- select_size(d$x, sizes = 2:kmax[[s]], seed = 1, threads = 2, progress = FALSE,
                         shape = shape)
      row[[paste0("k_", shape)]] <- sel$groups
      row[[paste0("ari_", shape)]] <- if (is.null(d$groups)) NA_real_ else
        round(ari_of(sel$partition, d$groups), 3)
      row[[paste0("s_", shape)]] <- round(proc.time()[["elapsed"]] - t0, 1)
      if (shape == "auto") { # (a build from before issue 53 has kind, no rule)
        rule <- if (!is.null(sel$grouping$rule)) sel$grouping$rule else
          if (!is.null(sel$grouping$apart)) "apart" else if (!is.null(sel$grouping$dense)) "sparse" else
            if (identical(sel$grouping$kind, "connected")) "connected" else "gaussian"
        row$rule <- rule
        row$connected <- rule == "connected"
        row$apart <- rule == "apart"
      }
    }
    print(row, row.names = FALSE)
    rows[[length(rows) + 1L]] <- row
  }
  tab <- do.call(rbind, rows)
  all_rows[[s]] <- tab
  totals[[s]] <- data.frame(suite = s, sets = nrow(tab),
                            exact_gaussian = sum(tab$k_gaussian == tab$k),
                            exact_auto = sum(tab$k_auto == tab$k),
                            ari_gaussian = round(mean(tab$ari_gaussian, na.rm = TRUE), 3),
                            ari_auto = round(mean(tab$ari_auto, na.rm = TRUE), 3),
                            connected = sum(tab$connected), apart = sum(tab$apart),
                            s_gaussian = sum(tab$s_gaussian), s_auto = sum(tab$s_auto))
  cat(sprintf("\n%s: the sets where the answers differ\n", s))
  diff <- tab[tab$k_gaussian != tab$k_auto | tab$connected | tab$apart, ]
  if (nrow(diff)) print(diff, row.names = FALSE) else cat("(none)\n")
}
if (length(save_to)) saveRDS(all_rows, save_to[1])
cat("\ntotals (exact: the number of groups named is the true one; ARI over the sets with classes)\n")
print(do.call(rbind, totals), row.names = FALSE)
