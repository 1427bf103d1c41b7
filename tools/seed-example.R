# The main job: the original script's problem (2000 x 3 uniform points, ring sizes 2..10,
# 149 passes) trained with somgpu on the CPU backend, printed; then the same maps on the
# OpenCL backend (a GPU, or the CPU through PoCL), checked to be the same bits in double
# precision; then what to try next. Status 1 when the two backends disagree. Usage:
# Rscript tools/seed-example.R
library(somgpu)
set.seed(0)
y <- matrix(runif(2000 * 3), ncol = 3, dimnames = list(NULL, c("x1", "x2", "x3")))
stream <- .Random.seed # the seed train() draws follows from it: the same for both backends
fit <- train(y, nmax = 10, backend = "cpu")
print(fit)

avail <- backends()
opencl <- avail[avail$backend == "opencl", ]
cat("\nOpenCL: ")
if (!nrow(opencl) || !opencl$available) {
  cat(strwrap(paste0(
    if (nrow(opencl)) opencl$detail else "not built", ". This installation trains on its ",
    "CPU backend alone; `Rscript tools/setup.R main` (as root) installs what OpenCL needs ",
    "(PoCL, where no OpenCL driver is installed) and builds it."), width = 88, exdent = 2),
    sep = "\n")
} else {
  .Random.seed <- stream
  fit_cl <- train(y, nmax = 10, backend = "opencl")
  same <- identical(fit$weights, fit_cl$weights) && identical(fit$clusters, fit_cl$clusters) &&
    identical(fit$quality, fit_cl$quality)
  cat(strwrap(sprintf(
    "the same problem on %s, double precision: %.3f s (the CPU backend: %.3f s). %s",
    fit_cl$backend$device, fit_cl$elapsed, fit$elapsed,
    if (same) "The maps, clusters and errors are the same bits as the CPU backend's." else
      "The maps DIFFER from the CPU backend's: please report it."), width = 88, exdent = 2),
    sep = "\n")
  if (!same) quit(status = 1)
}

cat("
Next, in R (library(somgpu); the data above: set.seed(0); y <- matrix(runif(6000), ncol = 3)):
  fit <- train(y, nmax = 10)    # these maps again: the seed follows from set.seed(0)
  summary(fit)                  # per size: errors, explained variance, the suggested size
  plot(fit)                     # the errors against N
  select_size(y, sizes = 2:12)  # how many groups the data hold (uniform data: none)
")
# the vignettes where they were installed (tools/setup.R main installs them when it can)
if (nrow(utils::vignette(package = "somgpu")$results)) {
  cat("  browseVignettes(\"somgpu\")     # the tour, choosing the groups, data frames, files\n")
} else {
  cat("The vignettes (the tour, choosing the groups, data frames, data beyond memory) are not
installed: their sources are in vignettes/; Rscript tools/setup.R main installs them where
knitr, rmarkdown and pandoc are.
")
}
