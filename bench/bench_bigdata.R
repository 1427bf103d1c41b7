# Data beyond memory: batch training on n x 16 rows (8 Gaussian groups), sizes 2..10,
# 5 passes (iter_max = 6), 2 threads, for n = 1e6 and 1e7 (and 1e8 with --big, about 13 GB of
# disk), each mode in a fresh R process:
#   memory        the data as an R matrix (read from the file first; its 8n x 16 bytes count)
#   file          a file-backed bigmemory matrix, read in windows; clusters in R
#   file+cfile    the same, the clusters to a file-backed matrix (clusters_file)
#   future x2     data-parallel over 2 multisession workers (1 thread each), clusters_file
# Figures: seconds of train(), the main process's peak resident memory beyond what it held
# before the data were read (R and somgpu loaded, the big.matrix attached: the in-memory
# mode's copy of the data counts), and the clusters' share of it.
# Peaks come from /proc/self/status (VmHWM, reset through /proc/self/clear_refs).
#
#   Rscript bench/bench_bigdata.R [--big] [--quick]   (--quick: 1e5 and 1e6 rows)
args <- commandArgs(trailingOnly = TRUE)
script <- sub("^--file=", "", grep("^--file=", commandArgs(), value = TRUE))
source(file.path(if (length(script)) dirname(script) else "bench", "helpers.R"))
options(width = 160)
suppressMessages(library(bigmemory))
ns <- if ("--quick" %in% args) c(1e5, 1e6) else c(1e6, 1e7, if ("--big" %in% args) 1e8)
m <- 16L
dir <- tempfile("somgpu-bigdata-")
dir.create(dir)
on.exit(unlink(dir, recursive = TRUE), add = TRUE)
cat(machine_line(), "\n")

# n rows of 8 Gaussian groups in m columns, written 1e6 rows at a time (never whole in R).
make_file <- function(n) {
  name <- sprintf("y%.0e", n)
  bm <- filebacked.big.matrix(n, m, type = "double", backingfile = paste0(name, ".bin"),
                              backingpath = dir, descriptorfile = paste0(name, ".desc"),
                              dimnames = list(NULL, paste0("v", seq_len(m))))
  centres <- withr::with_seed(1, matrix(rnorm(8 * m, sd = 3), 8, m))
  for (lo in seq(1, n, by = 1e6)) {
    hi <- min(n, lo + 1e6 - 1)
    g <- withr::with_seed(lo, sample(8, hi - lo + 1, replace = TRUE))
    bm[lo:hi, ] <- centres[g, ] + withr::with_seed(lo + 1, rnorm((hi - lo + 1) * m))
  }
  flush(bm)
  file.path(dir, paste0(name, ".desc"))
}

# One mode on one file, in a fresh R process: c(seconds, peak beyond the start (MB), the
# clusters' bytes held in R (MB)).
run_mode <- function(desc, mode) {
  out <- tempfile(fileext = ".rds")
  code <- c(
    "suppressMessages({library(somgpu); library(bigmemory)})",
    "mb <- function(f) as.numeric(sub(sprintf('%s:\\\\s+(\\\\d+) kB', f), '\\\\1',",
    "  grep(paste0('^', f), readLines('/proc/self/status'), value = TRUE))) / 1024",
    sprintf("bm <- attach.big.matrix(%s)", deparse(desc)),
    sprintf("mode <- %s", deparse(mode)),
    "invisible(gc()); writeLines('5', '/proc/self/clear_refs'); before <- mb('VmRSS')",
    "y <- if (mode == 'memory') bm[, ] else bm",
    "if (mode == 'future x2') { library(future); plan(multisession, workers = 2) }",
    sprintf("cf <- if (grepl('file\\\\+cfile|future', mode)) tempfile(tmpdir = %s)", deparse(dir)),
    "t0 <- proc.time()[['elapsed']]",
    "fit <- train(y, nmax = 10, iter_max = 6, algorithm = 'batch', seed = 1,",
    "             threads = if (mode == 'future x2') 1L else 2L, backend = 'cpu',",
    "             parallel = if (mode == 'future x2') 'future' else 'none',",
    "             clusters_file = cf, progress = FALSE)",
    "secs <- proc.time()[['elapsed']] - t0",
    "peak <- mb('VmHWM') - before",
    "cl <- if (is.data.frame(fit$clusters)) as.numeric(object.size(fit$clusters)) / 2^20 else 0",
    sprintf("saveRDS(c(secs, peak, cl, fit$quality$qe[9]), %s)", deparse(out)))
  f <- tempfile(fileext = ".R")
  writeLines(code, f)
  status <- system2(file.path(R.home("bin"), "Rscript"), f, stdout = FALSE, stderr = "")
  if (status != 0 || !file.exists(out)) return(rep(NA_real_, 4))
  readRDS(out)
}

rows <- list()
for (n in ns) {
  t0 <- proc.time()[["elapsed"]]
  desc <- make_file(n)
  made <- proc.time()[["elapsed"]] - t0
  gb <- n * m * 8 / 1e9
  for (mode in c(if (n <= 1e7) "memory", "file", "file+cfile", "future x2")) {
    r <- run_mode(desc, mode)
    rows[[length(rows) + 1L]] <- data.frame(
      rows = format(n, scientific = TRUE), data_gb = round(gb, 2), mode = mode,
      seconds = round(r[1], 2), peak_mb = round(r[2], 0), clusters_mb = round(r[3], 0),
      peak_less_clusters_mb = round(r[2] - r[3], 0), qe_N10 = signif(r[4], 6))
  }
  cat(sprintf("(n = %.0e: the file of %.2f GB written in %.1f s)\n", n, gb, made))
  unlink(list.files(dir, full.names = TRUE)) # disk for the next size
}
tab <- do.call(rbind, rows)
tab$vs_memory <- NA_real_
for (n in unique(tab$rows)) {
  i <- tab$rows == n
  mem <- tab$seconds[i & tab$mode == "memory"]
  if (length(mem)) tab$vs_memory[i] <- round(tab$seconds[i] / mem, 2)
}
cat("\nbatch, n x 16, sizes 2..10, 5 passes, 2 threads (future: 2 workers x 1 thread);",
    "peak = the main process's peak resident memory beyond its start (MB);",
    "vs_memory = seconds / the in-memory run's; equal qe_N10 = the same maps\n")
print(tab, row.names = FALSE)
