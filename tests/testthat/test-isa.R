# The kernels' versions (som_host.h's SOM_VERSIONS, som_isa.c): AVX-512, AVX2 and the
# portable baseline give the same bits. The version is capped by SOMGPU_ISA when the
# library loads, so each cap runs in a process of its own.

isa_fits <- function(cap) {
  out <- tempfile(fileext = ".rds")
  res <- run_child(attach = FALSE, sprintf('
    Sys.setenv(SOMGPU_ISA = %s)
    suppressMessages(library(somgpu))
    set.seed(3)
    y <- matrix(rnorm(1500 * 5), ncol = 5) + rep(c(0, 4, 8), each = 500)
    wide <- matrix(runif(300 * 12), ncol = 12)
    gappy <- y; gappy[sample(length(gappy), 300)] <- NA
    strip <- function(f) list(w = lapply(f$weights, unname), c = as.list(f$clusters),
                              q = f$quality)
    fits <- list(
      packs = train(y, sizes = 2:9, iter_max = 6, seed = 1, threads = 2),
      alone = train(y, sizes = 60, iter_max = 3, seed = 2, threads = 1),
      wide = train(wide, sizes = c(3, 50), iter_max = 4, seed = 3, threads = 1),
      gappy = train(gappy, sizes = 2:6, iter_max = 5, seed = 4, threads = 1,
                    var_weights = 1:5),
      single = train(y, sizes = 2:9, iter_max = 6, seed = 1, threads = 1,
                     precision = "single"),
      batch = train(y, sizes = 2:20, algorithm = "batch", iter_max = 6, seed = 5,
                    threads = 2),
      batch_single = train(y, sizes = c(3, 11, 25), algorithm = "batch", iter_max = 6,
                           seed = 5, threads = 1, precision = "single"),
      batch_gappy = train(gappy, sizes = 2:7, algorithm = "batch", iter_max = 6, seed = 6,
                          threads = 1))
    saveRDS(list(isa = somgpu:::build_info()$simd, fits = lapply(fits, strip)), %s)',
    deparse(cap), deparse(out)))
  expect_identical(res$status, 0L, info = res$stderr)
  readRDS(out)
}

test_that("every instruction set's kernels give the same bits", {
  best <- isa_fits("")
  expect_true(best$isa %in% c("baseline", "avx2", "avx512"))
  portable <- isa_fits("portable")
  expect_identical(portable$isa, "baseline")
  for (set in names(best$fits))
    expect_identical(portable$fits[[set]], best$fits[[set]], info = set)
  if (best$isa == "avx512") { # the middle version too, where there is one above it
    avx2 <- isa_fits("avx2")
    expect_identical(avx2$isa, "avx2")
    for (set in names(best$fits))
      expect_identical(avx2$fits[[set]], best$fits[[set]], info = set)
  }
  # a cap this does not know is no cap
  expect_identical(isa_fits("sse9")$isa, best$isa)
})
