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
    y8 <- matrix(rnorm(400 * 8), ncol = 8) + rep(c(0, 5), each = 200)
    y8na <- y8; y8na[sample(length(y8na), 200)] <- NA
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
                          threads = 1),
      # 8 columns: AVX-512 takes packs of 8 maps (som_cpu_online_w.c), the others of 4
      packs8 = train(y8, sizes = 2:12, iter_max = 5, seed = 7, threads = 1),
      packs8_threads = train(y8, sizes = 2:17, restarts = 4, iter_max = 3, seed = 8,
                             threads = 2),
      packs8_gappy = train(y8na, sizes = 2:12, iter_max = 5, seed = 9, threads = 1,
                           var_weights = 8:1))
    # the engine a family of 8 columns takes here, by the names of its buffers
    fam <- list(n = 400, m = 8L, nmaps = 11L, restarts = 1L, size_sum = 77, size_max = 12L,
                passes = 4L, trace = FALSE, batch_block = 4096L, general = FALSE,
                algorithm = "online")
    plan <- .Call(somgpu:::C_memory_plan, fam, list(name = "cpu", threads = 1L,
                  round_units = 0, precision = "double", here = TRUE))
    saveRDS(list(isa = somgpu:::build_info()$simd, fits = lapply(fits, strip),
                 plan = plan$what), %s)',
    deparse(cap), deparse(out)))
  expect_identical(res$status, 0L, info = res$stderr)
  readRDS(out)
}

test_that("every instruction set's kernels give the same bits", {
  best <- isa_fits("")
  expect_true(best$isa %in% c("baseline", "avx2", "avx512"))
  # 8 columns take the wide packs with AVX-512 alone
  expect_identical("cpu online: wide packs of small maps" %in% best$plan, best$isa == "avx512")
  portable <- isa_fits("portable")
  expect_identical(portable$isa, "baseline")
  expect_true("cpu online: packs of small maps" %in% portable$plan)
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
