# Benchmark: the neighbourhood schedule that sigma0 = "auto" sets (a ring of N neurons starts
# at sigma0 = N / 8), next to the original script's (sigma0 = 5 at every size), kohonen's
# default radius (two thirds of the largest ring distance, N / 3) and two others (N / 4; a
# fixed 1). On bench/select_suite.R's data sets with groups (k = 2..8; Gaussian at three
# separations, elongated, noise columns, uniform balls, t(5)):
#   1. how often a ring of N = k neurons finds the k groups (adjusted Rand index >= 0.9
#      against the true groups), over 8 seeds per data set, one restart each: the share of
#      maps, and the share of data sets where the best of 4 restarts (lowest qe) does; on
#      the suite and on data drawn as issue 20 drew them (centres without a minimum
#      distance);
#   2. select_size()'s number of groups (sizes 2:12, 10 replicates) on the whole suite;
#   3. on data that lie on a loop (a noisy circle): qe and topographic error at N = 5, 10,
#      20, 40 (a ring that orders itself follows the loop, te near 0; one too narrow twists).
#
#   Rscript bench/bench_schedule.R
script <- sub("^--file=", "", grep("^--file=", commandArgs(), value = TRUE))
here <- if (length(script)) dirname(script) else "bench"
source(file.path(here, "helpers.R"))
source(file.path(here, "select_suite.R"))
options(width = 160)
cat(machine_line(), "\n\n")
rules <- list(`5 (script)` = function(N) rep(5, length(N)),
              `N/3 (kohonen)` = function(N) N / 3, `N/4` = function(N) N / 4,
              `N/8 (auto)` = function(N) N / 8, `1` = function(N) rep(1, length(N)))
ari <- function(a, b) {
  tab <- table(a, b)
  comb <- function(v) sum(v * (v - 1) / 2)
  e <- comb(rowSums(tab)) * comb(colSums(tab)) / comb(sum(tab))
  (comb(tab) - e) / ((comb(rowSums(tab)) + comb(colSums(tab))) / 2 - e)
}
suite <- select_suite()
grouped <- Filter(function(d) d$k > 1 && !is.null(d$groups), suite)

# 1. rings of N = k, on the suite's data with groups and on the recipe of issue 20 (groups
# of 50..300 rows, centres drawn with sd 4 and no minimum distance, spreads 0.4..1, in 2..12
# columns; 40 draws, those whose groups k-means with 50 starts finds, ARI >= 0.9)
recipe <- lapply(1:40, function(i) {
  set.seed(7000 + i)
  k <- 2 + i %% 7
  m <- c(2, 3, 5, 8, 12)[1 + i %% 5]
  centres <- matrix(rnorm(k * m, sd = 4), k)
  ns <- sample(50:300, k, replace = TRUE)
  sds <- runif(k, 0.4, 1)
  x <- do.call(rbind, lapply(seq_len(k), function(j) {
    sweep(matrix(rnorm(ns[j] * m, sd = sds[j]), ns[j]), 2, centres[j, ], "+")
  }))
  list(k = k, x = x, groups = rep(seq_len(k), ns))
})
recipe <- Filter(function(d) {
  set.seed(1)
  ari(stats::kmeans(d$x, d$k, nstart = 50, iter.max = 100)$cluster, d$groups) >= 0.9
}, recipe)
ring_of_k <- function(sets) {
  do.call(rbind, lapply(names(rules), function(r) {
    per <- vapply(sets, function(d) {
      s0 <- rules[[r]](d$k)
      maps <- vapply(1:8, function(seed) {
        f <- train(d$x, sizes = d$k, sigma0 = s0, seed = seed, threads = 2, progress = FALSE)
        ari(f$clusters[[1]], d$groups) >= 0.9
      }, logical(1))
      best <- train(d$x, sizes = d$k, sigma0 = s0, restarts = 4, seed = 99, threads = 2,
                    progress = FALSE)
      c(mean(maps), ari(best$clusters[[1]], d$groups) >= 0.9)
    }, numeric(2))
    data.frame(sigma0 = r, maps_finding_k = sprintf("%.0f%%", 100 * mean(per[1, ])),
               sets_best_of_4 = sprintf("%d of %d", sum(per[2, ]), ncol(per)))
  }))
}
cat("1. a ring of N = k neurons on k groups: maps that find the groups (ARI >= 0.9), 8 seeds\n")
cat(sprintf("   on issue 20's recipe (%d data sets whose groups k-means finds):\n", length(recipe)))
print(ring_of_k(recipe), row.names = FALSE)
cat(sprintf("   on the suite's data with groups (%d data sets):\n", length(grouped)))
print(ring_of_k(grouped), row.names = FALSE)

# 2. select_size's answer per schedule
two <- do.call(rbind, lapply(names(rules), function(r) {
  got <- vapply(suite, function(d) {
    select_size(d$x, sizes = 2:12, sigma0 = rules[[r]](2:12), bootstrap = 10, seed = 1,
                threads = 2, progress = FALSE)$groups
  }, integer(1))
  data.frame(sigma0 = r, exact = sum(got == vapply(suite, `[[`, 0, "k")), of = length(suite))
}))
cat("\n2. select_size(sizes = 2:12, bootstrap = 10): the number of groups found exactly\n")
print(two, row.names = FALSE)

# 3. ordering: a ring should follow data that lie on a loop (a noisy circle of radius 1 in
# 2 columns, and the same loop in 6 columns with 4 of noise); te near 0 when it does
set.seed(0)
a <- runif(2000, 0, 2 * pi)
loop2 <- cbind(cos(a), sin(a)) + matrix(rnorm(4000, sd = 0.05), ncol = 2)
loop6 <- cbind(loop2, matrix(rnorm(8000, sd = 0.05), ncol = 4))
sizes <- c(5, 10, 20, 40)
three <- do.call(rbind, lapply(names(rules), function(r) {
  cells <- lapply(list(loop2, loop6), function(y) {
    f <- train(y, sizes = sizes, sigma0 = rules[[r]](sizes), restarts = 2, seed = 1,
               threads = 2, progress = FALSE)
    q <- f$quality[f$quality$best, ]
    sprintf("%.3f / %.2f", q$qe, q$te)
  })
  data.frame(sigma0 = r, t(setNames(unlist(cells), c(paste0("2 cols N", sizes),
                                                      paste0("6 cols N", sizes)))),
             check.names = FALSE)
}))
cat("\n3. a ring on a loop of data: qe / te (restarts = 2)\n")
print(three, row.names = FALSE)
