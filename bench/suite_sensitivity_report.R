# bench_clustering_suite.R --sensitivity: run by that script, with its options read (root,
# sets, how, limit, seeds, cache, reuse, lib, here, work). Per set, a fresh process runs
# sensitivity_run() (bench/suite_sensitivity.R); then the tables.

run_sensitivity <- function(data_file) {
  out <- tempfile(fileext = ".rds", tmpdir = work)
  log <- tempfile(fileext = ".log", tmpdir = work)
  code <- c(
    if (!is.null(lib)) sprintf(".libPaths(c(%s, .libPaths()))", deparse(lib)),
    sprintf("source(%s)", deparse(file.path(here, "helpers.R"))),
    sprintf("source(%s)", deparse(file.path(here, "clustering_suite.R"))),
    sprintf("source(%s)", deparse(file.path(here, "suite_sensitivity.R"))),
    sprintf("d <- readRDS(%s)", deparse(data_file)),
    sprintf("saveRDS(sensitivity_run(d, %s), %s)", deparse(seeds), deparse(out)))
  r <- run_fresh(code, out, limit, log)
  if (is.null(r)) {
    err <- if (file.exists(log)) grep("Error", readLines(log), value = TRUE) else character(0)
    return(paste("failed or past the limit:", if (length(err)) substr(err[1], 1, 80) else "no message"))
  }
  r
}

cat(machine_line(), "\n")
cat(sprintf("sensitivity: %s; %d sets; preprocessing %s; seeds %s (variants with seed %d); limit %.0f s a set\n\n",
            root, nrow(sets), how, paste(seeds, collapse = ", "), seeds[1], limit))
all <- list()
notes <- character(0)
started <- proc.time()[["elapsed"]]
for (i in seq_len(nrow(sets))) {
  d <- read_set(root, sets$battery[i], sets$set[i], how)
  d$k_max <- suite_k_max(d$ks)
  file <- if (!is.null(cache)) cache_file("sensitivity", d)
  r <- if (reuse && !is.null(file) && file.exists(file)) readRDS(file)
  if (is.null(r) || !all(seeds %in% r$seed)) {
    data_file <- file.path(work, "data.rds")
    saveRDS(d, data_file)
    r <- run_sensitivity(data_file)
    if (is.character(r)) {
      notes <- c(notes, sprintf("%s/%s: %s", d$battery, d$set, r))
      next
    }
    if (!is.null(file)) {
      dir.create(dirname(file), recursive = TRUE, showWarnings = FALSE)
      saveRDS(r, file)
    }
  }
  r$battery <- d$battery
  r$set <- d$set
  all[[length(all) + 1L]] <- r
  base <- r[r$constant == "(as tuned)", ]
  moved <- r[r$constant != "(as tuned)", ]
  cat(sprintf("%-7s %-18s ARI %s; variants %.3f to %.3f; %.0f s\n", d$battery, d$set,
              paste(sprintf("%.3f (seed %d)", base$ari, base$seed), collapse = ", "),
              min(moved$ari), max(moved$ari), sum(r$seconds)))
}
res <- do.call(rbind, all)
n_sets <- length(unique(paste(res$battery, res$set)))
base1 <- res[res$constant == "(as tuned)" & res$seed == seeds[1], ]
mean1 <- mean(base1$ari)

cat(sprintf("\nthe constants as tuned: mean ARI choosing k over the %d sets\n", n_sets))
per_seed <- vapply(seeds, function(s) mean(res$ari[res$constant == "(as tuned)" & res$seed == s]), 0)
print(data.frame(seed = c(as.character(seeds), "mean of the seeds"),
                 mean_ARI = round(c(per_seed, mean(per_seed)), 3)), row.names = FALSE)

tab <- somgpu::selection_constants()
variants <- res[res$constant != "(as tuned)", ]
rows <- lapply(split(variants, factor(variants$constant, unique(variants$constant))), function(v) {
  at <- function(f) v[v$factor == f, ]
  lo <- at(0.75)
  hi <- at(1.33)
  changed <- function(w) {
    m <- merge(w[c("battery", "set", "ari")], base1[c("battery", "set", "ari")], by = c("battery", "set"))
    moved <- m[abs(m$ari.x - m$ari.y) > 0.01, ]
    if (!nrow(moved)) return("")
    paste(sprintf("%s %+.2f", moved$set, moved$ari.x - moved$ari.y), collapse = ", ")
  }
  data.frame(constant = v$constant[1], value = tab$value[tab$name == v$constant[1]],
             kind = tab$kind[tab$name == v$constant[1]],
             at_0.75 = lo$value[1], ARI_0.75 = round(mean(lo$ari), 3),
             change_0.75 = round(mean(lo$ari) - mean1, 3),
             at_1.33 = hi$value[1], ARI_1.33 = round(mean(hi$ari), 3),
             change_1.33 = round(mean(hi$ari) - mean1, 3),
             sets_moved_0.75 = changed(lo), sets_moved_1.33 = changed(hi))
})
sens <- do.call(rbind, rows)
cat(sprintf("\neach constant at 0.75 and 1.33 times its value (seed %d): the mean ARI choosing k over the %d sets (as tuned: %.3f), its change, and the sets it moved by more than 0.01\n",
            seeds[1], n_sets, mean1))
print(sens, row.names = FALSE, right = FALSE)
edge <- sens[pmax(abs(sens$change_0.75), abs(sens$change_1.33)) > 0.02, ]
cat(sprintf("\nconstants whose change moves the mean by more than 0.02: %s\n",
            if (nrow(edge)) paste(edge$constant, collapse = ", ") else "none"))
cat(sprintf("seconds in all: %.0f (select_size() calls: %.0f)\n",
            proc.time()[["elapsed"]] - started, sum(res$seconds)))
if (length(notes)) cat("\nnot answered:\n", paste0("  ", notes, "\n"), sep = "")
