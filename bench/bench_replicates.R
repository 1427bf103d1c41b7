# A replicate set's maps as one family (issue 33, item 4): select_size()'s bootstrap
# replicates trained in one call of the compiled code (every replicate x size x restart:
# 20 x 19 x 4 = 1520 maps) against a train() call per replicate (as before), on the CPU and
# on OpenCL (PoCL here), with each replicate's fit compared bit for bit.
#
#   Rscript bench/bench_replicates.R            # the table below
#   Rscript bench/bench_replicates.R --quick    # smaller rows, fewer passes (a smoke run)
#
# Columns: seconds for the replicates trained and assessed (train_replicates(), each fit
# then dropped), a call per replicate and one call, their ratio, and whether every
# replicate's weights, clusters and quality are identical both ways. The last rows time a
# whole select_size() both ways.
suppressPackageStartupMessages(library(somgpu))

args <- commandArgs(TRUE)
quick <- "--quick" %in% args
threads <- 2L

cpu_model <- function() {
  m <- grep("^model name", readLines("/proc/cpuinfo", warn = FALSE), value = TRUE)
  if (length(m)) sub("^model name\\s*:\\s*", "", m[1L]) else "unknown CPU"
}

groups6 <- function(n, m, seed) {
  set.seed(seed)
  centres <- matrix(rnorm(6 * m, sd = 4), 6)
  g <- sample.int(6, n, replace = TRUE)
  centres[g, ] + matrix(rnorm(n * m), n)
}

# select_size()'s replicates: a bootstrap of the rows left after a 20% holdout, seeds 2..21
replicate_rows <- function(n, nrep, seed) {
  set.seed(seed)
  lapply(seq_len(nrep), function(b) {
    inside <- setdiff(seq_len(n), sample.int(n, floor(0.2 * n)))
    inside[sample.int(length(inside), length(inside), replace = TRUE)]
  })
}

time_replicates <- function(x, rows, args, one_call) {
  keep <- function(b, fit) fit[c("weights", "clusters", "quality")]
  gc()
  t <- system.time(out <- somgpu:::train_replicates(x, rows, 1 + seq_along(rows), args, keep,
                                                     one_call))[["elapsed"]]
  list(seconds = t, fits = out)
}

has_ocl <- somgpu:::build_info()$opencl && nrow(devices()) > 0L
backends <- c("cpu", if (has_ocl) "opencl")
nrep <- 20L
cases <- list(
  list(label = "online", n = if (quick) 300L else 1000L, algorithm = "online",
       iter_max = if (quick) 20L else 150L),
  list(label = "batch", n = if (quick) 500L else 2000L, algorithm = "batch",
       iter_max = if (quick) 10L else 76L)
)
rows_out <- list()
for (case in cases) {
  x <- groups6(case$n, 10L, 1)
  rows <- replicate_rows(case$n, nrep, 2)
  for (be in backends) {
    args <- list(sizes = 2:20, restarts = 4, sigma0 = "auto", keep_data = FALSE,
                 progress = FALSE, algorithm = case$algorithm, iter_max = case$iter_max,
                 backend = be, threads = threads)
    if (be == "opencl") invisible(train(x[1:50, ], nmax = 3, iter_max = 2, backend = "opencl",
                                        algorithm = case$algorithm, progress = FALSE))
    each <- time_replicates(x, rows, args, FALSE)
    one <- time_replicates(x, rows, args, TRUE)
    rows_out[[length(rows_out) + 1L]] <- data.frame(
      case = sprintf("%s, %d x 10, %d passes", case$label, case$n, case$iter_max - 1L),
      backend = be, maps = nrep * 19L * 4L,
      per_replicate_s = round(each$seconds, 2), one_call_s = round(one$seconds, 2),
      ratio = round(each$seconds / one$seconds, 2),
      same_bits = identical(each$fits, one$fits))
  }
}
# a whole select_size() both ways (the defaults: 20 replicates, sizes 2:20, 4 restarts)
x <- groups6(if (quick) 300L else 1000L, 10L, 1)
for (be in backends) {
  run <- function(one_call) {
    options(somgpu.replicates_one_call = one_call)
    t <- system.time(sel <- select_size(x, seed = 1, progress = FALSE, threads = threads,
                                        backend = be,
                                        iter_max = if (quick) 20L else NULL))[["elapsed"]]
    sel$elapsed <- NULL
    sel$fit$elapsed <- NULL
    list(seconds = t, sel = sel)
  }
  each <- run(FALSE)
  one <- run(TRUE)
  rows_out[[length(rows_out) + 1L]] <- data.frame(
    case = sprintf("select_size(), %d x 10 (groups: %s)", nrow(x),
                   format(one$sel$recommended)), backend = be, maps = nrep * 19L * 4L,
    per_replicate_s = round(each$seconds, 2), one_call_s = round(one$seconds, 2),
    ratio = round(each$seconds / one$seconds, 2), same_bits = identical(each$sel, one$sel))
}
options(somgpu.replicates_one_call = NULL)
tab <- do.call(rbind, rows_out)
cat(sprintf("Replicates as one family (%s, %d threads, R %s%s)\n", cpu_model(), threads,
            getRversion(), if (has_ocl) paste0("; OpenCL: ", devices()$name[1L]) else ""))
print(tab, row.names = FALSE)
cat(sprintf("every replicate the same bits both ways: %s\n", all(tab$same_bits)))
