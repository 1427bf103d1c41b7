# Benchmark: the seed case (2000 x 3 uniform points, ring sizes 2..10, iter_max = 150, i.e.
# 149 passes) with somgpu's backends, kohonen's online SOM on the same rings
# (somgrid(N, 1, "rectangular", toroidal = TRUE), rlen = 149) where installed, and the
# original NumPy loop (../shared/bench/seed_ring_som.py, with Debian's python3 and numpy)
# where available. Every figure is measured in this one run: medians of `reps` runs, the
# NumPy loop once. Also the cold first call in a fresh R session (kernel build included).
#
#   Rscript bench/bench_seed.R [reps] [--no-numpy]
args <- commandArgs(trailingOnly = TRUE)
script <- sub("^--file=", "", grep("^--file=", commandArgs(), value = TRUE))
source(file.path(if (length(script)) dirname(script) else "bench", "helpers.R"))
options(width = 160)
reps <- if (length(num <- suppressWarnings(as.integer(args))) && !is.na(num[1])) num[1] else 7L
Sys.setenv(POCL_CACHE_DIR = file.path(tempdir(), "pocl"))

set.seed(0)
y <- matrix(runif(2000 * 3), 2000, 3)
sizes <- 2:10
rows <- list()
add <- function(method, seconds, qe) {
  rows[[length(rows) + 1L]] <<- data.frame(method = method, seconds = seconds, mean_qe = qe)
}

for (cfg in somgpu_configs()) {
  fit <- NULL
  s <- time_median(function() fit <<- do.call(train, c(list(y, sizes = sizes, seed = 1),
                                                        cfg$args)), reps)
  add(cfg$label, s, mean(fit$quality$qe))
}

qe_of_codes <- function(codes) {
  mean(vapply(codes, function(w) {
    d2 <- vapply(seq_len(nrow(w)), function(j) colSums((t(y) - w[j, ])^2), numeric(nrow(y)))
    mean(sqrt(apply(d2, 1, min)))
  }, numeric(1)))
}
if (requireNamespace("kohonen", quietly = TRUE)) {
  for (fct in c("bubble", "gaussian")) {
    codes <- NULL
    s <- time_median(function() {
      codes <<- lapply(sizes, function(N) {
        g <- kohonen::somgrid(N, 1, "rectangular", toroidal = TRUE, neighbourhood.fct = fct)
        kohonen::som(y, grid = g, rlen = 149, mode = "online")$codes[[1]]
      })
    }, reps)
    add(sprintf("kohonen online (%s)", fct), s, qe_of_codes(codes))
  }
} else {
  message("kohonen is not installed (Debian: r-cran-kohonen): no kohonen figures")
}

# The original script, ported to Python 3 (../shared/bench), run once.
numpy_script <- normalizePath(file.path("..", "shared", "bench", "seed_ring_som.py"),
                              mustWork = FALSE)
python <- if (file.exists("/usr/bin/python3")) "/usr/bin/python3" else Sys.which("python3")
has_numpy <- nzchar(python) && file.exists(numpy_script) &&
  system2(python, c("-c", shQuote("import numpy")), stdout = FALSE, stderr = FALSE) == 0
if (!"--no-numpy" %in% args && has_numpy) {
  out <- system2(python, c(numpy_script, "3", "2000", "150", "10"), stdout = TRUE)
  secs <- as.numeric(sub("seconds ", "", grep("^seconds", out, value = TRUE)))
  qes <- as.numeric(sub(".*:", "", strsplit(sub("^qe ", "", grep("^qe", out, value = TRUE)),
                                             " ")[[1]]))
  add("NumPy seed script (once)", secs, mean(qes))
} else {
  message("NumPy loop not run (", if ("--no-numpy" %in% args) "--no-numpy" else
    "needs ../shared/bench/seed_ring_som.py, python3 and numpy", "); its figure on this class ",
    "of machine is about 75 s")
}

tab <- do.call(rbind, rows)
ref <- match("kohonen online (bubble)", tab$method)
np <- grep("^NumPy", tab$method)
tab$vs_kohonen <- if (is.na(ref)) NA_real_ else tab$seconds[ref] / tab$seconds
tab$vs_numpy <- if (!length(np)) NA_real_ else tab$seconds[np] / tab$seconds
cat(sprintf("seed case: n = 2000, m = 3, sizes 2..10, 149 passes; median of %d runs\n", reps))
cat(machine_line(), "\n")
print(format(tab, digits = 3), row.names = FALSE)
best <- which.min(tab$seconds[startsWith(tab$method, "somgpu")])
cat(sprintf("\nfastest somgpu: %s, %.1fx kohonen, %.0fx NumPy\n", tab$method[best],
            tab$vs_kohonen[best], tab$vs_numpy[best]))

cat("\ncold first call in a fresh R session (library(somgpu) + data + train):\n")
y_code <- "set.seed(0); y <- matrix(runif(6000), 2000, 3)"
cold <- data.frame(call = "train(y, nmax = 10, backend = \"cpu\")",
                   seconds = cold_call(y_code, "nmax = 10, backend = 'cpu'"))
if (nrow(devices())) {
  cold <- rbind(cold, data.frame(
    call = "train(y, nmax = 10, backend = \"opencl\") (kernel build included)",
    seconds = cold_call(y_code, "nmax = 10, backend = 'opencl'")))
}
print(format(cold, digits = 3), row.names = FALSE)
