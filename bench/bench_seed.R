# Benchmark: the seed case (2000 x 3 uniform points, ring sizes 2..10, iter_max = 150, i.e.
# 149 passes) with somgpu's CPU backend and, where installed, kohonen's online SOM on the
# same rings (somgrid(N, 1, "rectangular", toroidal = TRUE), rlen = 149).
# Every figure is the median of `reps` runs made in this one process; ratios are against
# kohonen measured in the same run. Usage: Rscript bench/bench_seed.R [reps]
suppressMessages(library(somgpu))

args <- commandArgs(trailingOnly = TRUE)
reps <- if (length(args)) as.integer(args[1]) else 7L
set.seed(0)
y <- matrix(runif(2000 * 3), 2000, 3)
sizes <- 2:10

time_median <- function(f) {
  f() # warm up
  t <- vapply(seq_len(reps), function(i) {
    t0 <- proc.time()[["elapsed"]]
    f()
    proc.time()[["elapsed"]] - t0
  }, numeric(1))
  median(t)
}

qe_of_codes <- function(codes) {
  mean(vapply(codes, function(w) {
    d2 <- vapply(seq_len(nrow(w)), function(j) colSums((t(y) - w[j, ])^2), numeric(nrow(y)))
    mean(sqrt(apply(d2, 1, min)))
  }, numeric(1)))
}

rows <- list()
add <- function(method, seconds, qe) {
  rows[[length(rows) + 1L]] <<- data.frame(method = method, seconds = seconds, mean_qe = qe)
}

for (th in unique(c(1L, min(2L, somgpu_threads())))) {
  fit <- NULL
  s <- time_median(function() fit <<- train(y, sizes = sizes, seed = 1, threads = th))
  add(sprintf("somgpu cpu, %d thread%s", th, if (th == 1) "" else "s"), s,
      mean(fit$quality$qe))
}

if (requireNamespace("kohonen", quietly = TRUE)) {
  for (fct in c("bubble", "gaussian")) {
    codes <- NULL
    s <- time_median(function() {
      codes <<- lapply(sizes, function(N) {
        g <- kohonen::somgrid(N, 1, "rectangular", toroidal = TRUE, neighbourhood.fct = fct)
        kohonen::som(y, grid = g, rlen = 149, mode = "online")$codes[[1]]
      })
    })
    add(sprintf("kohonen online (%s)", fct), s, qe_of_codes(codes))
  }
} else {
  message("kohonen is not installed: install it (Debian: r-cran-kohonen) for the comparison")
}

tab <- do.call(rbind, rows)
ref <- match("kohonen online (bubble)", tab$method)
tab$speedup_vs_kohonen <- if (is.na(ref)) NA_real_ else tab$seconds[ref] / tab$seconds
cat(sprintf("seed case: n = 2000, m = 3, sizes 2..10, 149 passes; median of %d runs\n", reps))
cat(sprintf("machine: %s, %d logical CPUs; R %s\n",
            trimws(sub(".*: ", "", grep("model name", readLines("/proc/cpuinfo"), value = TRUE)[1])),
            parallel::detectCores(), getRversion()))
print(format(tab, digits = 3), row.names = FALSE)
