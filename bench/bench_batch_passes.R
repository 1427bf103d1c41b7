# Benchmark: how many passes batch training needs. For four data sets (the seed case's 2000 x
# 3 uniform points, 50000 x 8 uniform points, and two of bench/select_suite.R's: 5 Gaussian
# groups in 12 columns, 6 elongated groups in 8), the batch rule with the script's schedule
# (sigma0 = 5), N = 2..20, 2 restarts, for iter_max = 6 .. 150: the kept maps' qe against
# iter_max = 150 (mean and largest excess over the sizes, in %) and the seconds. train()'s
# default for batch, iter_max = 76 (75 passes), comes from this table.
#
#   Rscript bench/bench_batch_passes.R
script <- sub("^--file=", "", grep("^--file=", commandArgs(), value = TRUE))
here <- if (length(script)) dirname(script) else "bench"
source(file.path(here, "helpers.R"))
source(file.path(here, "select_suite.R"))
options(width = 160)
set.seed(0)
suite <- select_suite()
sets <- list(`seed case 2000 x 3` = matrix(runif(2000 * 3), ncol = 3),
             `uniform 50000 x 8` = matrix(runif(5e4 * 8), ncol = 8),
             `5 groups, 12 columns` = suite[[10]]$x, `6 elongated groups, 8 columns` = suite[[25]]$x)
its <- c(6, 11, 21, 31, 51, 76, 150)
rows <- list()
for (nm in names(sets)) {
  y <- sets[[nm]]
  fits <- lapply(its, function(it) {
    t0 <- proc.time()[["elapsed"]]
    f <- train(y, nmax = 20, algorithm = "batch", iter_max = it, seed = 1, restarts = 2,
               threads = 2, progress = FALSE)
    list(qe = f$quality$qe[f$quality$best], seconds = proc.time()[["elapsed"]] - t0)
  })
  ref <- fits[[length(its)]]$qe
  for (i in seq_along(its)) {
    excess <- 100 * (fits[[i]]$qe / ref - 1)
    rows[[length(rows) + 1L]] <- data.frame(data = nm, iter_max = its[i],
                                            mean_excess_pct = mean(excess),
                                            max_excess_pct = max(excess),
                                            seconds = fits[[i]]$seconds)
  }
}
cat(machine_line(), "\n")
cat("batch, sigma0 = 5, N = 2..20, 2 restarts: the kept maps' qe over iter_max = 150's\n")
print(format(do.call(rbind, rows), digits = 3), row.names = FALSE)
