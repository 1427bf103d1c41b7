# Benchmark: the same groups before and after a change that must not move them (a
# refactoring, a fix of reports only). select_size(sizes = 2:20, seed = 1, threads = 2) on
# every narrow benchmark set: the real and shaped suites (real_suite.R), the synthetic and
# held-out suites (select_suite.R), the ten mixed data frames (bench_mixed.R's
# mixed_suite(), where their packages are installed) and the field's suite of 73 sets up
# to 10,000 rows (clustering_suite.R; ../shared/clustering-benchmarks-v1): 186 sets, about
# 5 minutes a build on 2 threads. Each build runs in its own process; then the answers
# (groups, partition, rule) and their words (reason, decisions, the summary's first line,
# the figure's third panel) are compared set by set.
#
#   R CMD INSTALL -l /tmp/before <old tree>; R CMD INSTALL -l /tmp/after .
#   Rscript bench/bench_select_same.R run /tmp/before /tmp/before.rds
#   Rscript bench/bench_select_same.R run /tmp/after /tmp/after.rds   ("-": R's own library)
#   Rscript bench/bench_select_same.R compare /tmp/before.rds /tmp/after.rds
args <- commandArgs(trailingOnly = TRUE)
script <- sub("^--file=", "", grep("^--file=", commandArgs(), value = TRUE))
here <- normalizePath(if (length(script)) dirname(script) else "bench")
if (length(args) != 3L || !args[1] %in% c("run", "compare")) {
  stop("usage: Rscript bench/bench_select_same.R run <library or -> <out.rds> | compare <a.rds> <b.rds>")
}

if (args[1] == "compare") {
  a <- readRDS(args[2])
  b <- readRDS(args[3])
  if (!identical(names(a), names(b))) stop("the two runs hold other sets")
  answer <- function(r) if (is.list(r)) r[c("groups", "partition", "rule")] else r
  same <- mapply(function(x, y) identical(answer(x), answer(y)), a, b)
  cat(sum(same), "of", length(same), "sets identical (groups, partition, rule)\n")
  if (any(!same)) print(names(a)[!same])
  worded <- vapply(a, function(r) is.list(r) && !is.null(r$words), TRUE) &
    vapply(b, function(r) is.list(r) && !is.null(r$words), TRUE)
  if (any(worded)) {
    said <- mapply(function(x, y) identical(x$words, y$words), a[worded], b[worded])
    cat(sum(said), "of", length(said), "sets said the same (reason, decisions, summary's first line, figure's panel)\n")
    if (any(!said)) print(names(a)[worded][!said])
    same <- c(same, said)
  }
  cat("errors:", sum(vapply(b, is.character, TRUE)), "; widest set:",
      max(vapply(b, function(r) if (is.list(r)) r$ncol else NA_real_, 0), na.rm = TRUE), "columns\n")
  quit(status = if (all(same)) 0L else 1L)
}

if (args[2] != "-") .libPaths(c(args[2], .libPaths()))
suppressMessages(library(somgpu))
cat("somgpu from", find.package("somgpu"), "\n")
source(file.path(here, "real_suite.R"))
source(file.path(here, "select_suite.R"))
source(file.path(here, "clustering_suite.R"))
# bench_mixed.R's mixed_suite() alone (the script runs its benchmark when sourced)
mixed <- new.env()
for (e in parse(file.path(here, "bench_mixed.R"))) {
  if (is.call(e) && identical(e[[1]], as.name("<-")) && identical(as.character(e[[2]]), "mixed_suite")) eval(e, mixed)
}
sets <- list()
add <- function(name, x) sets[[name]] <<- x
for (d in real_suite()) add(paste("real", d$name), d$x)
for (d in shaped_suite()) add(paste("shaped", d$name), d$x)
for (d in select_suite()) add(paste("synthetic", d$name), d$x)
for (d in select_suite_heldout()) add(paste("heldout", d$name), d$x)
for (d in tryCatch(mixed$mixed_suite(), error = function(e) { message("mixed: ", conditionMessage(e)); list() })) {
  add(paste("mixed", d$name), d$x)
}
root <- file.path(here, "..", "..", "shared", "clustering-benchmarks-v1")
ss <- suite_sets(root)
for (i in seq_len(nrow(ss))) { d <- read_set(root, ss$battery[i], ss$set[i]); add(paste("suite", d$set), d$x) }
cat(length(sets), "sets\n")
t0 <- proc.time()[["elapsed"]]
res <- lapply(sets, function(x) {
  r <- tryCatch(select_size(x, sizes = 2:20, seed = 1, threads = 2, progress = FALSE),
                error = function(e) conditionMessage(e))
  if (is.character(r)) return(r)
  # the answer, then its words: the reason, the decisions, the summary's first line and
  # the figure's third panel
  list(groups = r$groups, partition = r$partition, rule = r$grouping$rule, ncol = ncol(x),
       words = list(reason = r$reason, decisions = r$decisions,
                    summary = utils::capture.output(print(summary(r)))[1],
                    panel = somgpu:::criterion_panel(r$grouping)))
})
cat("seconds", proc.time()[["elapsed"]] - t0, "\n")
saveRDS(res, args[3])
