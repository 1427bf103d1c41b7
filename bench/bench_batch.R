# Benchmarks of scale (batch training, big maps), each figure measured in this one run:
#  1. batch vs kohonen: n = 200000, m = 16, sizes 2..20, iter_max = 21 (20 passes), against
#     kohonen's batch and pbatch (cores = 2) modes on the same rings, rlen = 20;
#  2. batch scaling in n: n = 1e4, 1e5, 1e6 (m = 32, sizes 2..20, 10 passes), each in a
#     fresh R process: seconds and peak memory (and the peak beyond the data's own);
#  3. online scaling over map size: one map of N = 10, 100, 1000 neurons, m = 8 and 256
#     (n = 2000 rows, 5 passes), seconds and nanoseconds per row x neuron x dimension.
#
#   Rscript bench/bench_batch.R [reps] [--quick]     (--quick: parts 2 and 3 smaller)
args <- commandArgs(trailingOnly = TRUE)
script <- sub("^--file=", "", grep("^--file=", commandArgs(), value = TRUE))
source(file.path(if (length(script)) dirname(script) else "bench", "helpers.R"))
options(width = 160)
reps <- if (length(num <- suppressWarnings(as.integer(args))) && !is.na(num[1])) num[1] else 3L
quick <- "--quick" %in% args
Sys.setenv(POCL_CACHE_DIR = file.path(tempdir(), "pocl"))
cat(machine_line(), "\n")

# --- 1. batch against kohonen --------------------------------------------------------------
set.seed(1)
y <- matrix(runif(200000 * 16), ncol = 16)
sizes <- 2:20
rows <- list()
for (cfg in somgpu_configs()) {
  s <- time_median(function() do.call(train, c(list(y, sizes = sizes, iter_max = 21,
                                                     algorithm = "batch", seed = 1),
                                                cfg$args)), reps)
  rows[[length(rows) + 1L]] <- data.frame(method = paste(cfg$label, "(batch)"), seconds = s)
}
if (requireNamespace("kohonen", quietly = TRUE)) {
  for (mode in c("batch", "pbatch")) {
    s <- time_median(function() {
      for (N in sizes) {
        g <- kohonen::somgrid(N, 1, "rectangular", toroidal = TRUE)
        if (mode == "batch") kohonen::som(y, grid = g, rlen = 20, mode = "batch")
        else kohonen::som(y, grid = g, rlen = 20, mode = "pbatch", cores = 2)
      }
    }, max(1L, reps - 2L))
    rows[[length(rows) + 1L]] <- data.frame(
      method = sprintf("kohonen %s%s, looped over sizes", mode,
                       if (mode == "pbatch") " (cores = 2)" else ""), seconds = s)
  }
} else {
  message("kohonen is not installed (Debian: r-cran-kohonen): no kohonen figures")
}
tab <- do.call(rbind, rows)
kb <- grep("^kohonen batch", tab$method)
kp <- grep("^kohonen pbatch", tab$method)
tab$vs_kohonen_batch <- if (length(kb)) tab$seconds[kb] / tab$seconds else NA_real_
tab$vs_kohonen_pbatch <- if (length(kp)) tab$seconds[kp] / tab$seconds else NA_real_
cat("\n1. batch: n = 200000, m = 16, sizes 2..20, 20 passes; median of runs\n")
print(format(tab, digits = 3), row.names = FALSE)

# --- 2. batch scaling in n, fresh processes -------------------------------------------------
run_fresh <- function(n, m, args_code) {
  script <- tempfile(fileext = ".R")
  writeLines(c(
    sprintf("Sys.setenv(POCL_CACHE_DIR = %s)", deparse(file.path(tempdir(), "pocl"))),
    "suppressMessages(library(somgpu))",
    "hwm <- function() as.numeric(sub('VmHWM:\\\\s+(\\\\d+) kB', '\\\\1',",
    "  grep('VmHWM', readLines('/proc/self/status'), value = TRUE))) / 1024",
    sprintf("set.seed(1); y <- matrix(runif(%.0f), ncol = %d)", n * m, m),
    "before <- hwm()",
    sprintf("invisible(train(y, sizes = 2:20, iter_max = 3, algorithm = 'batch', seed = 1, %s))",
            args_code),
    "t0 <- proc.time()[['elapsed']]",
    sprintf("fit <- train(y, sizes = 2:20, iter_max = 11, algorithm = 'batch', seed = 1, %s)",
            args_code),
    "cat(proc.time()[['elapsed']] - t0, before, hwm(), '\\n')"), script)
  out <- system2(file.path(R.home("bin"), "Rscript"), script, stdout = TRUE, stderr = TRUE)
  as.numeric(strsplit(trimws(out[length(out)]), " +")[[1]])
}
ns <- if (quick) c(1e4, 1e5) else c(1e4, 1e5, 1e6)
configs <- c(cpu = sprintf("backend = 'cpu', threads = %d", min(2L, somgpu:::build_info()$max_threads)))
if (nrow(devices())) configs <- c(configs, `opencl double` = "backend = 'opencl'")
scal <- do.call(rbind, lapply(names(configs), function(cfg) {
  do.call(rbind, lapply(ns, function(n) {
    r <- run_fresh(n, 32, configs[[cfg]])
    data.frame(backend = cfg, n = format(n, scientific = TRUE), seconds = r[1],
               us_per_row_pass = r[1] / n / 10 * 1e6, data_mb = n * 32 * 8 / 2^20,
               peak_mb = r[3], beyond_data_load_mb = r[3] - r[2])
  }))
}))
cat("\n2. batch scaling: m = 32, sizes 2..20, 10 passes; peak = the process's peak resident",
    "memory (R, the data and its generation included); beyond = peak minus the peak before training\n")
print(format(scal, digits = 3), row.names = FALSE)

# --- 3. online scaling over map size --------------------------------------------------------
set.seed(2)
on_rows <- list()
Ns <- if (quick) c(10, 100) else c(10, 100, 1000)
for (m in c(8, 256)) {
  x <- matrix(runif(2000 * m), ncol = m)
  for (N in Ns) {
    for (cfg in c(list(list(label = "cpu, 1 thread", args = list(backend = "cpu", threads = 1)),
                       list(label = "cpu single, 1 thread",
                            args = list(backend = "cpu", threads = 1, precision = "single"))),
                  if (nrow(devices())) list(list(label = "opencl double",
                                                 args = list(backend = "opencl"))))) {
      fit <- NULL
      s <- time_median(function() fit <<- do.call(train, c(list(x, sizes = N, iter_max = 6,
                                                                 seed = 1), cfg$args)), 3L)
      on_rows[[length(on_rows) + 1L]] <- data.frame(
        backend = cfg$label, N = N, m = m, seconds = s,
        ns_per_row_neuron_dim = s / (2000 * 5 * N * m) * 1e9,
        kernel = if (is.null(fit$backend$kernels)) "" else paste(fit$backend$kernels))
    }
  }
}
cat("\n3. online scaling over map size: one map, n = 2000, 5 passes (medians of 3)\n")
on_tab <- do.call(rbind, on_rows)
# The arithmetic peak of one core for the online rule: per row x neuron x dimension it does
# a subtraction, a product and a sum for the distance and the same for the update, 4 of
# them on the add pipes; with 2 four-double (AVX2) add pipes, as on AMD Zen 4 and Intel
# since Skylake, that is 0.5 cycles (0.25 in single precision: 8 floats a register). The
# clock is /proc/cpuinfo's (the nominal one; turbo makes the real peak higher).
ghz <- if (file.exists("/proc/cpuinfo")) {
  as.numeric(sub(".*: ", "", grep("cpu MHz", readLines("/proc/cpuinfo"), value = TRUE)[1])) / 1000
} else NA_real_
on_tab$peak_ns <- ifelse(grepl("^cpu", on_tab$backend),
                         ifelse(grepl("single", on_tab$backend), 0.25, 0.5) / ghz, NA_real_)
on_tab$share_of_peak <- on_tab$peak_ns / on_tab$ns_per_row_neuron_dim
print(format(on_tab, digits = 3), row.names = FALSE)
cat(sprintf("peak: 4 add-pipe operations per row x neuron x dimension, 2 AVX2 add pipes per core, %.2f GHz (/proc/cpuinfo)\n", ghz))
