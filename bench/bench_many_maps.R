# Benchmark: many maps. 5000 x 8 uniform points, ring sizes 2..30, restarts = 4 (116 maps),
# iter_max = 51 (50 passes), with somgpu's backends, against looping kohonen's online SOM
# over the same 116 maps (somgrid(N, 1, "rectangular", toroidal = TRUE), rlen = 50).
# Medians of `reps` runs, all measured in this one run.
#
#   Rscript bench/bench_many_maps.R [reps]
args <- commandArgs(trailingOnly = TRUE)
script <- sub("^--file=", "", grep("^--file=", commandArgs(), value = TRUE))
source(file.path(if (length(script)) dirname(script) else "bench", "helpers.R"))
options(width = 160)
reps <- if (length(args)) as.integer(args[1]) else 3L
Sys.setenv(POCL_CACHE_DIR = file.path(tempdir(), "pocl"))

set.seed(1)
y <- matrix(runif(5000 * 8), 5000, 8)
sizes <- 2:30
restarts <- 4L
rows <- list()
add <- function(method, seconds) {
  rows[[length(rows) + 1L]] <<- data.frame(method = method, seconds = seconds)
}

for (cfg in somgpu_configs()) {
  s <- time_median(function() do.call(train, c(list(y, sizes = sizes, restarts = restarts,
                                                     iter_max = 51, seed = 1), cfg$args)),
                   reps)
  add(cfg$label, s)
}
if (requireNamespace("kohonen", quietly = TRUE)) {
  s <- time_median(function() {
    for (N in sizes) for (r in seq_len(restarts)) {
      kohonen::som(y, grid = kohonen::somgrid(N, 1, "rectangular", toroidal = TRUE),
                   rlen = 50, mode = "online")
    }
  }, reps)
  add("kohonen online, looped over the 116 maps", s)
} else {
  message("kohonen is not installed (Debian: r-cran-kohonen): no kohonen figure")
}

tab <- do.call(rbind, rows)
ref <- grep("^kohonen", tab$method)
tab$vs_kohonen <- if (!length(ref)) NA_real_ else tab$seconds[ref] / tab$seconds
cat(sprintf("many maps: n = 5000, m = 8, sizes 2..30 x %d restarts (116 maps), 50 passes; median of %d runs\n",
            restarts, reps))
cat(machine_line(), "\n")
print(format(tab, digits = 3), row.names = FALSE)
