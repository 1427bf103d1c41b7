# Data beyond memory: file-backed bigmemory matrices read in windows give, bit for bit, what
# the same values give in memory (training, scaling, the assessment, predict), on the CPU,
# on OpenCL and over future workers (data-parallel batch); the clusters can go to a file.

skip_if_not_installed("bigmemory")

# A file-backed copy of x in a new folder under tempdir() (removed after the test).
file_copy <- function(x, type = "double", .env = parent.frame()) {
  dir <- withr::local_tempdir(.local_envir = .env)
  bigmemory::as.big.matrix(x, type = type, backingfile = "x.bin", backingpath = dir,
                           descriptorfile = "x.desc")
}

same_maps <- function(a, b, what) {
  for (f in c("weights", "quality", "stability", "trace", "scaling", "scaled_weights")) {
    expect_identical(b[[f]], a[[f]], label = paste(what, f))
  }
}

# Missing values in the first column (a share of the rows): no row is left out.
gaps <- function(y, share, rng_seed) {
  withr::with_seed(rng_seed, y[sample(nrow(y), round(share * nrow(y))), 1] <- NA)
  y
}

test_that("a file-backed matrix trains the maps of the same values in memory, bit for bit", {
  y <- seed_data(3000, 4, rng_seed = 51)
  yg <- gaps(y, 0.02, 1)
  cases <- list(
    plain = list(y = y, args = list()),
    gaps = list(y = yg, args = list(scale = TRUE, init = "sample", restarts = 2,
                                    trace = TRUE)),
    weights = list(y = yg, args = list(var_weights = c(1, 2, 0.5, 0), scale = TRUE)),
    single = list(y = y, args = list(precision = "single", backend = "cpu")))
  # small blocks: many blocks and several shards (64 blocks each)
  withr::local_options(somgpu.batch_block = 16L)
  for (name in names(cases)) {
    cs <- cases[[name]]
    bm <- file_copy(cs$y)
    run <- function(data) {
      do.call(train, c(list(data, sizes = c(2, 5, 9), iter_max = 6, algorithm = "batch",
                            seed = 7, threads = 2), cs$args))
    }
    a <- run(cs$y)
    b <- run(bm)
    same_maps(a, b, name)
    expect_identical(unname(as.list(b$clusters)), unname(as.list(a$clusters)), label = name)
    expect_null(b$data)
    # its descriptor, and a sub-matrix (offsets into the file) alike
    same_maps(a, run(bigmemory::describe(bm)), paste(name, "descriptor"))
  }
})

test_that("integer matrices and sub-matrices read as R would convert them", {
  y <- matrix(withr::with_seed(3, sample(-50:50, 4000, replace = TRUE)), 1000, 4,
              dimnames = list(NULL, c("a", "b", "c", "d")))
  y[5, 2] <- NA
  bm <- file_copy(y, type = "integer")
  a <- train(y, nmax = 5, iter_max = 5, algorithm = "batch", seed = 1, threads = 2,
             scale = TRUE)
  same_maps(a, train(bm, nmax = 5, iter_max = 5, algorithm = "batch", seed = 1, threads = 2,
                     scale = TRUE), "integer")
  sub <- bigmemory::sub.big.matrix(bm, firstRow = 101, lastRow = 900, firstCol = 2,
                                   lastCol = 4)
  a <- train(y[101:900, 2:4], nmax = 4, iter_max = 5, algorithm = "batch", seed = 1,
             threads = 2)
  b <- train(sub, nmax = 4, iter_max = 5, algorithm = "batch", seed = 1, threads = 2)
  same_maps(a, b, "sub.big.matrix")
  expect_identical(colnames(b$weights$N4), c("b", "c", "d"))
})

test_that("data of more than one window are read window by window, alike", {
  # a window holds about 16 MB: 600000 x 4 doubles (19 MB) take two for every pass
  y <- seed_data(600000, 4, rng_seed = 52)
  bm <- file_copy(y)
  a <- train(y, sizes = 2:4, iter_max = 3, algorithm = "batch", seed = 2, threads = 2,
             scale = TRUE)
  b <- train(bm, sizes = 2:4, iter_max = 3, algorithm = "batch", seed = 2, threads = 2,
             scale = TRUE)
  same_maps(a, b, "two windows")
  expect_identical(unname(as.list(b$clusters)), unname(as.list(a$clusters)))
  expect_identical(predict(a, bm), predict(a, y))
})

test_that("the clusters can go to a new file-backed matrix", {
  y <- gaps(seed_data(2000, 3, rng_seed = 53), 0.01, 2)
  bm <- file_copy(y)
  dir <- withr::local_tempdir()
  path <- file.path(dir, "clusters.bin")
  a <- train(y, nmax = 6, iter_max = 6, algorithm = "batch", seed = 3, threads = 2,
             restarts = 2)
  b <- train(bm, nmax = 6, iter_max = 6, algorithm = "batch", seed = 3, threads = 2,
             restarts = 2, clusters_file = path)
  expect_s3_class(b$clusters, "somgpu_file_clusters")
  expect_true(file.exists(path) && file.exists(paste0(path, ".desc")))
  expect_identical(colnames(b$clusters), names(a$clusters))
  expect_identical(unname(b$clusters[, ]), unname(as.matrix(a$clusters)))
  expect_identical(b$quality, a$quality)
  expect_true(all(is.na(b$stability$stability))) # not measured: the clusters are in the file
  # the fit's methods read its clusters from the file
  expect_identical(summary(b)$table$smallest, summary(a)$table$smallest)
  expect_output(print(b), "cluster sizes")
  # one restart: every map kept, the clusters written in the one assessment
  one <- train(bm, nmax = 6, iter_max = 6, algorithm = "batch", seed = 3, threads = 2,
               clusters_file = file.path(dir, "one.bin"))
  ref <- train(y, nmax = 6, iter_max = 6, algorithm = "batch", seed = 3, threads = 2)
  expect_identical(unname(one$clusters[, ]), unname(as.matrix(ref$clusters)))
  expect_identical(one$quality, ref$quality)
  # never overwritten
  expect_error(train(bm, nmax = 3, iter_max = 3, algorithm = "batch", clusters_file = path),
               class = "somgpu_input_error", regexp = "already exist")
  expect_error(train(y, nmax = 3, clusters_file = file.path(dir, "x.bin")),
               class = "somgpu_input_error", regexp = "file-backed data")
})

test_that("the memory plan counts the windows and, with a clusters file, no clusters in R", {
  fam <- list(n = 1e7, m = 16L, nmaps = 9L, restarts = 1L, size_sum = 54, size_max = 10L,
              passes = 19L, trace = FALSE, batch_block = 4096L, general = FALSE,
              algorithm = "batch", sourced = TRUE, clusters_in_r = FALSE)
  spec <- list(name = "cpu", threads = 2L, round_units = 0, precision = "double", here = TRUE)
  p <- .Call(somgpu:::C_memory_plan, fam, spec)
  expect_false("R: clusters" %in% p$what)
  window <- p$bytes[p$what == "cpu batch: a round's rows, read from the source"]
  expect_true(window > 0 && window <= 16 * 2^20)
  expect_lt(sum(p$bytes), 200e6) # 1e7 x 16 rows (a 1.28 GB file): under 200 MB in all
  fam$clusters_in_r <- TRUE
  p <- .Call(somgpu:::C_memory_plan, fam, spec)
  expect_identical(p$bytes[p$what == "R: clusters"], 1e7 * 4 * 18)
})

test_that("predict reads file-backed rows in windows, columns by name", {
  y <- gaps(seed_data(3000, 3, rng_seed = 54), 0.02, 3)
  y[7, ] <- NA # a row left out: NA clusters
  fit <- train(y, nmax = 5, iter_max = 8, algorithm = "batch", seed = 1, threads = 2,
               scale = TRUE)
  # extra columns, in another order: taken by name
  wide <- cbind(z = 1, y[, c(3, 1, 2)])
  bm <- file_copy(wide)
  p <- predict(fit, bm)
  expect_identical(p, predict(fit, y))
  expect_true(all(is.na(p[7, ])))
  expect_identical(predict(fit, bm, type = "detail"), predict(fit, y, type = "detail"))
  path <- file.path(withr::local_tempdir(), "p.bin")
  pf <- predict(fit, bm, sizes = c(2, 4), clusters_file = path)
  expect_s3_class(pf, "somgpu_file_clusters")
  expect_identical(unname(pf[, ]), unname(as.matrix(predict(fit, y, sizes = c(2, 4)))))
  expect_error(predict(fit, bigmemory::sub.big.matrix(bm, firstCol = 1, lastCol = 2)),
               class = "somgpu_input_error", regexp = "lacks the column")
  # refused before the clusters file is made: the path stays free
  huge <- file_copy(y * 1e200)
  path2 <- file.path(dirname(path), "p2.bin")
  expect_error(predict(fit, huge, clusters_file = path2), class = "somgpu_input_error")
  expect_false(file.exists(path2) || file.exists(paste0(path2, ".desc")))
})

test_that("OpenCL trains from a file-backed matrix as from memory", {
  skip_if_no_opencl()
  y <- gaps(seed_data(3000, 3, rng_seed = 55), 0.01, 4)
  bm <- file_copy(y)
  withr::local_options(somgpu.batch_block = 16L)
  a <- train(y, nmax = 6, iter_max = 5, algorithm = "batch", seed = 4, threads = 2,
             backend = "cpu")
  for (stream in c(FALSE, TRUE)) {
    withr::local_options(somgpu.opencl_stream_data = stream)
    b <- train(bm, nmax = 6, iter_max = 5, algorithm = "batch", seed = 4, threads = 2,
               backend = "opencl")
    expect_identical(b$weights, a$weights, label = paste("stream", stream))
    expect_identical(b$quality, a$quality)
  }
})

test_that("future workers train a file-backed matrix data-parallel, as one process", {
  skip_if_no_future()
  y <- gaps(seed_data(5000, 3, rng_seed = 56), 0.01, 5)
  bm <- file_copy(y)
  withr::local_options(somgpu.batch_block = 8L) # 625 blocks
  a <- train(y, nmax = 6, iter_max = 5, algorithm = "batch", seed = 5, threads = 1,
             restarts = 2, init = "sample", trace = TRUE, scale = TRUE)
  local_plan(future::multisession, workers = 2)
  b <- train(bigmemory::describe(bm), nmax = 6, iter_max = 5, algorithm = "batch", seed = 5,
             threads = 1, restarts = 2, init = "sample", trace = TRUE, scale = TRUE,
             parallel = "future", progress = FALSE)
  same_maps(a, b, "2 workers")
  expect_identical(unname(as.list(b$clusters)), unname(as.list(a$clusters)))
  expect_identical(b$backend$name, "future")
  expect_identical(nrow(b$backend$workers), 2L)
  expect_identical(sum(b$backend$workers$rows), 5000)
  expect_lte(abs(diff(b$backend$workers$rows)), 8) # a fair share: to within a block
  expect_length(unique(b$backend$workers$pid), 2L)
  # three workers cut the blocks elsewhere (208 / 209 / 208, not at powers of two): the
  # same maps, the pairwise sums being the same whatever the cuts
  local_plan(future::multisession, workers = 3)
  c3 <- train(bigmemory::describe(bm), nmax = 6, iter_max = 5, algorithm = "batch", seed = 5,
              threads = 1, restarts = 2, init = "sample", trace = TRUE, scale = TRUE,
              parallel = "future", progress = FALSE)
  same_maps(a, c3, "3 workers")
  expect_identical(c3$backend$workers$rows, c(1664, 1672, 1664))
  expect_error(train(bm, nmax = 3, iter_max = 3, algorithm = "batch", parallel = "future",
                     backend = "opencl"),
               class = "somgpu_input_error", regexp = "CPU backend")
})

test_that("what file-backed data cannot do is refused with what to do", {
  y <- seed_data(200, 3, rng_seed = 57)
  bm <- file_copy(y)
  expect_error(train(bm, nmax = 4), class = "somgpu_input_error", regexp = "batch")
  expect_error(train(bm, nmax = 4, algorithm = "batch", init = "pca"),
               class = "somgpu_input_error", regexp = "in memory")
  expect_error(train(bm, nmax = 4, algorithm = "batch", align = TRUE),
               class = "somgpu_input_error", regexp = "in memory")
  y[3, ] <- NA
  expect_error(train(file_copy(y), nmax = 4, algorithm = "batch"),
               class = "somgpu_input_error", regexp = "the first, row 3: remove such rows")
  expect_error(train(bigmemory::big.matrix(10, 2, init = 0), nmax = 3, algorithm = "batch"),
               class = "somgpu_input_error", regexp = "shared memory")
  expect_error(train(bigmemory::big.matrix(10, 2, init = 0, shared = FALSE), nmax = 3,
                     algorithm = "batch"),
               class = "somgpu_input_error", regexp = "in R's memory")
  short <- bigmemory::filebacked.big.matrix(10, 2, type = "short", init = 1L,
                                            backingfile = "s.bin", descriptorfile = "s.desc",
                                            backingpath = withr::local_tempdir())
  expect_error(train(short, nmax = 3, algorithm = "batch"),
               class = "somgpu_input_error", regexp = "\"short\"")
  fit <- train(bm, nmax = 3, iter_max = 3, algorithm = "batch", threads = 2)
  expect_error(plot(fit, type = "codes"), class = "somgpu_input_error",
               regexp = "file-backed data and keeps none")
  grDevices::pdf(NULL) # the codes view reads the rows it draws from the file (test-figures.R)
  expect_silent(plot(fit, type = "codes", data = bm))
  grDevices::dev.off()
  expect_error(somgpu:::augment.somgpu(fit, data = bm), class = "somgpu_input_error",
               regexp = "clusters_file")
  # (select_size() takes file-backed data: test-select.R, "at scale")
  inf <- seed_data(200, 3, rng_seed = 58)
  inf[9, 2] <- Inf
  expect_error(train(file_copy(inf), nmax = 3, algorithm = "batch"),
               class = "somgpu_input_error", regexp = "row 9")
})

test_that("column statistics in C are base R's", {
  y <- gaps(seed_data(500, 3, rng_seed = 59) * 1000 + 5, 0.1, 6)
  y[which(!is.na(y[, 1]))[1:20], 2] <- NA # no row without an observed value
  y[, 3] <- NA
  s <- somgpu:::column_stats(y, colMeans(y, na.rm = TRUE))
  expect_identical(s$mean, unname(colMeans(y, na.rm = TRUE)))
  expect_identical(s$count, unname(colSums(!is.na(y)) + 0))
  v <- y[!is.na(y[, 1]), 1] - colMeans(y, na.rm = TRUE)[[1]]
  expect_identical(s$ss[1], sum(v^2))
  sc <- scale(y)
  fit <- train(file_copy(y[, 1:2]), nmax = 3, iter_max = 3, algorithm = "batch",
               scale = TRUE, threads = 2, na_max = 1)
  expect_identical(unname(fit$scaling$center), unname(attr(sc, "scaled:center")[1:2]))
  expect_identical(unname(fit$scaling$scale), unname(attr(sc, "scaled:scale")[1:2]))
})
