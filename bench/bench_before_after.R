# Benchmark: two builds of somgpu on one battery, for a change that must keep the bits and
# the speed (a refactoring). Each build runs in its own R process (the same package name),
# the two alternating, each case 3 times (the fastest kept); printed: each case's seconds
# under both builds, their ratio, and whether the results (weights and clusters of every
# map, qe, te) are identical: the values, not the names (a build from before d5a9953 leaves
# the columns of unnamed data unnamed, later ones call them V1, V2, ...).
#
# Short cases (the seed case, many maps) are timed within each process too: with
# --inner=K a process runs its case once untimed and then K times, and gives the median;
# --only=REGEX keeps the cases whose name matches; --runs=R processes per build (3).
#
#   R CMD INSTALL -l /tmp/before <old tree>; R CMD INSTALL -l /tmp/after .
#   Rscript bench/bench_before_after.R /tmp/before /tmp/after [--only=seed] [--inner=9] [--runs=5]
opt <- function(name, default) {
  hit <- grep(sprintf("^--%s=", name), commandArgs(trailingOnly = TRUE), value = TRUE)
  if (length(hit)) sub("^[^=]*=", "", hit[1]) else default
}
args <- grep("^--", commandArgs(trailingOnly = TRUE), value = TRUE, invert = TRUE)
inner <- as.integer(opt("inner", "0"))
runs <- as.integer(opt("runs", "3"))
script <- sub("^--file=", "", grep("^--file=", commandArgs(), value = TRUE))
source(file.path(if (length(script)) dirname(script) else "bench", "helpers.R"))
if (length(args) < 2L) stop("usage: Rscript bench/bench_before_after.R <library before> <library after>")
libs <- c(before = args[1], after = args[2])
options(width = 200)

# the battery: name = code run with somgpu attached, `y`, `yna` and `big` defined; one thread
battery <- c(
  "seed case, 2000 x 3, N = 2..10, 149 passes, 1 thread" =
    "train(seed_y, sizes = 2:10, seed = 1, threads = 1)",
  "seed case, 2000 x 3, N = 2..10, 149 passes, 2 threads" =
    "train(seed_y, sizes = 2:10, seed = 1, threads = 2)",
  "many maps, 5000 x 8, N = 2..30 x 4 restarts, 50 passes, 2 threads" =
    "train(many_y, sizes = 2:30, restarts = 4, iter_max = 51, seed = 1, threads = 2)",
  "online, 2e4 x 8, N = 2..20" =
    "train(y, sizes = 2:20, seed = 1, threads = 1)",
  "online single, 2e4 x 8, N = 2..20" =
    "train(y, sizes = 2:20, seed = 1, threads = 1, precision = 'single')",
  "online small maps in lanes, 2e4 x 4, N = 2..6 x 16 restarts" =
    "train(y[, 1:4], sizes = 2:6, restarts = 16, seed = 1, threads = 1)",
  "online with missing values and weights, 2e4 x 8" =
    "train(yna, sizes = 2:20, seed = 1, threads = 1, var_weights = 1:8)",
  "batch, 2e5 x 16, N = 2..20, 20 passes" =
    "train(big, sizes = 2:20, algorithm = 'batch', iter_max = 21, seed = 1, threads = 1)",
  "batch single, 2e5 x 16, N = 2..20, 20 passes" =
    "train(big, sizes = 2:20, algorithm = 'batch', iter_max = 21, seed = 1, threads = 1, precision = 'single')",
  "data-parallel batch, 2e5 x 16 from a file, 2 multisession workers, N = 2..20, 10 passes (with the workers' start)" =
    "{future::plan(future::multisession, workers = 2); bm <- bigmemory::as.big.matrix(big, backingfile = 'y.bin', backingpath = tempdir(), descriptorfile = 'y.desc'); f <- train(bm, sizes = 2:20, algorithm = 'batch', iter_max = 11, seed = 1, threads = 1, parallel = 'future', progress = FALSE); future::plan('sequential'); f}",
  "OpenCL (PoCL) online, 2e4 x 8, N = 2..10" =
    "if ('opencl' %in% backends()$backend[backends()$available]) train(y, sizes = 2:10, seed = 1, backend = 'opencl', threads = 1)"
)

child <- function(lib, case, out) {
  code <- sprintf(paste(
    "suppressMessages(library(somgpu, lib.loc = %s))",
    "set.seed(1); y <- matrix(runif(2e4 * 8), ncol = 8)",
    "yna <- y; yna[sample(length(yna), 0.05 * length(yna))] <- NA",
    "big <- matrix(rnorm(2e5 * 16), ncol = 16) + rep(rnorm(16 * 8, sd = 3), each = 2e5 / 8)",
    "set.seed(0); seed_y <- matrix(runif(2000 * 3), 2000, 3)",
    "set.seed(1); many_y <- matrix(runif(5000 * 8), 5000, 8)",
    "run <- function() { t0 <- proc.time()[['elapsed']]; fit <<- %s; proc.time()[['elapsed']] - t0 }",
    "s <- run(); if (%d > 0) s <- median(vapply(seq_len(%d), function(i) run(), 0))",
    "saveRDS(list(seconds = s, result = if (!is.null(fit)) list(weights = lapply(fit$weights, unname), clusters = as.list(fit$clusters), qe = fit$quality$qe, te = fit$quality$te)), %s)",
    sep = "; "), deparse(lib), battery[[case]], inner, inner, deparse(out))
  env <- sprintf("POCL_CACHE_DIR=%s", tempdir())
  status <- system2(file.path(R.home("bin"), "Rscript"), c("-e", shQuote(code)), env = env)
  if (status != 0) stop("case '", case, "' failed under ", lib)
  readRDS(out)
}

cat(machine_line(), "\n\n")
rows <- list()
battery <- battery[grepl(opt("only", ""), names(battery))]
cat(sprintf("%d processes per build, alternating%s\n\n", runs, if (inner > 0)
  sprintf("; in each, one untimed run and the median of %d", inner) else ""))
for (case in names(battery)) {
  best <- c(before = Inf, after = Inf)
  res <- list()
  for (rep in seq_len(runs)) {
    for (b in names(libs)) {
      r <- child(libs[[b]], case, tempfile(fileext = ".rds"))
      best[[b]] <- min(best[[b]], r$seconds)
      res[[b]] <- r$result
    }
  }
  if (is.null(res$before)) next # (no OpenCL here)
  rows[[case]] <- data.frame(case = case, before_s = signif(best[["before"]], 4),
                             after_s = signif(best[["after"]], 4),
                             after_over_before = round(best[["after"]] / best[["before"]], 3),
                             same_bits = identical(res$before, res$after))
}
tab <- do.call(rbind, rows)
print(tab, row.names = FALSE)
cat(sprintf("\ngeometric mean of after / before: %.3f; identical results: %d of %d\n",
            exp(mean(log(tab$after_over_before))), sum(tab$same_bits), nrow(tab)))
