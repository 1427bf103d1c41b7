# The main job: the original script's problem (2000 x 3 uniform points, ring sizes 2..10,
# 149 passes) trained with somgpu, printed, and what to try next. Usage:
# Rscript tools/seed-example.R
set.seed(0)
y <- matrix(runif(2000 * 3), ncol = 3, dimnames = list(NULL, c("x1", "x2", "x3")))
fit <- somgpu::train(y, nmax = 10)
print(fit)
cat("
Next, in R (library(somgpu); the data above: set.seed(0); y <- matrix(runif(6000), ncol = 3)):
  fit <- train(y, nmax = 10)    # these maps again: the seed follows from set.seed(0)
  summary(fit)                  # per size: errors, explained variance, the suggested size
  plot(fit)                     # the errors against N
  select_size(y, sizes = 2:12)  # how many groups the data hold (uniform data: none)
")
# the vignette where it was installed (tools/setup.R main installs it when it can build it)
if (nrow(utils::vignette(package = "somgpu")$results)) {
  cat("  vignette(\"somgpu\")            # the tour, choosing N, predicting, the plots\n")
} else {
  cat("The vignette (the tour, choosing N, predicting, the plots) is not installed: its source is
vignettes/somgpu.Rmd; Rscript tools/setup.R main installs it where knitr, rmarkdown and pandoc are.
")
}
