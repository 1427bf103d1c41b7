# The main job: the original script's problem (2000 x 3 uniform points, ring sizes 2..10,
# 149 passes) trained with somgpu, printed. Usage: Rscript tools/seed-example.R
set.seed(0)
y <- matrix(runif(2000 * 3), ncol = 3, dimnames = list(NULL, c("x1", "x2", "x3")))
fit <- somgpu::train(y, nmax = 10)
print(fit)
