# Nothing crashes, nothing silent: saved fits whose pointers are gone, bad backing files,
# one error channel, columns without values, rows without information, report tables that
# follow broom, and the small things (issue 21).

# The external pointers an object holds (its own, and those of S4 slots and list elements).
external_pointers <- function(x, where = "x") {
  if (typeof(x) == "externalptr") return(where)
  if (isS4(x)) {
    return(unlist(lapply(methods::slotNames(x), function(s) {
      external_pointers(methods::slot(x, s), sprintf("%s@%s", where, s))
    })))
  }
  if (is.list(x)) {
    nm <- names(x)
    if (is.null(nm)) nm <- seq_along(x)
    return(unlist(lapply(seq_along(x), function(i) {
      external_pointers(x[[i]], sprintf("%s$%s", where, nm[i]))
    })))
  }
  character(0)
}

test_that("fits and selections hold no external pointer, a clusters file's fit included", {
  fit <- train(iris[, 1:4], nmax = 4, iter_max = 10, seed = 1, backend = "cpu")
  expect_identical(external_pointers(fit), character(0))
  sel <- select_size(iris[, 1:4], sizes = 2:3, restarts = 1, bootstrap = 2, iter_max = 5,
                     seed = 1, backend = "cpu", keep_data = TRUE, progress = FALSE)
  expect_identical(external_pointers(sel), character(0))
  skip_if_not_installed("bigmemory")
  dir <- withr::local_tempdir()
  bm <- file_matrix(as.matrix(iris[, 1:4]), dir)
  ff <- train(bm, nmax = 3, iter_max = 3, algorithm = "batch", seed = 1, backend = "cpu",
              clusters_file = file.path(dir, "cl.bin"))
  # the big.matrix only in the clusters' cache, checked before every use (test-fileclusters.R)
  expect_identical(external_pointers(ff), character(0))
  expect_identical(ff$params$clusters_file, normalizePath(file.path(dir, "cl.bin")))
  if (somgpu:::build_info()$opencl && nrow(devices()) > 0L) {
    ocl <- train(iris[, 1:4], nmax = 4, iter_max = 10, seed = 1, backend = "opencl")
    expect_identical(external_pointers(ocl), character(0))
  }
})

test_that("a saved fit with a clusters file works in a new session, and says when it cannot", {
  skip_if_not_installed("bigmemory")
  dir <- withr::local_tempdir()
  bm <- file_matrix(seed_data(1000, 2), dir)
  fit <- train(bm, nmax = 3, algorithm = "batch", iter_max = 3, seed = 2, backend = "cpu",
               clusters_file = file.path(dir, "cl.bin"))
  rds <- file.path(dir, "fit.rds")
  saveRDS(fit, rds)
  sizes <- paste(tabulate(fit$clusters[, "N3"], 3), collapse = " ")
  png <- file.path(dir, "counts.png")
  res <- run_child(sprintf('
    fit <- readRDS(%s)
    print(fit)
    s <- summary(fit)
    cat("SMALLEST", s$table$smallest, "\\n")
    png(%s); plot(fit, type = "counts", size = 3); dev.off()
    cat("DONE\\n")', deparse(rds), deparse(png)))
  expect_identical(res$status, 0L)
  expect_match(res$stdout, "clusters: in a file-backed big.matrix, .*cl\\.bin")
  expect_match(res$stdout, sizes, fixed = TRUE) # re-attached from the descriptor
  expect_match(res$stdout, "DONE")
  expect_true(file.exists(png))
  # the backing file gone: a somgpu_file_error naming it (one slash) and what to do
  file.remove(file.path(dir, "cl.bin"))
  res <- run_child(sprintf('
    e <- tryCatch(summary(readRDS(%s)), error = function(e) e)
    cat("CLASS", class(e)[1], "\\n", conditionMessage(e), "\\n")', deparse(rds)))
  expect_identical(res$status, 0L)
  expect_match(res$stdout, "CLASS somgpu_file_error")
  expect_match(res$stdout, "cannot attach: .*cl\\.bin is gone")
  expect_match(res$stdout, "attach them with bigmemory::attach.big.matrix")
  expect_no_match(res$stdout, "//", fixed = TRUE)
  # the descriptor gone: print says why, summary() and plot() raise a somgpu_file_error
  file.remove(file.path(dir, "cl.bin.desc"))
  res <- run_child(sprintf('
    fit <- readRDS(%s)
    print(fit)
    e <- tryCatch(summary(fit), error = function(e) e)
    cat("CLASS", class(e)[1], "\\n")
    e <- tryCatch(plot(fit, type = "counts", size = 3), error = function(e) e)
    cat("CLASS", class(e)[1], "\\n")
    cat("DONE\\n")', deparse(rds)))
  expect_identical(res$status, 0L) # no crash
  expect_match(res$stdout, "(clusters file not attached)", fixed = TRUE)
  expect_match(res$stdout, "cl.bin.desc and\\s+\\S*cl.bin are gone")
  expect_match(res$stdout, "CLASS somgpu_file_error\\s+CLASS somgpu_file_error")
  expect_match(res$stdout, "DONE")
})

test_that("saved fits and selections of every backend work in a new session", {
  fit <- train(airquality, nmax = 4, iter_max = 10, seed = 1, scale = TRUE, backend = "cpu")
  sel <- select_size(iris[, 1:4], sizes = 2:4, restarts = 1, bootstrap = 3, iter_max = 10,
                     seed = 1, backend = "cpu", progress = FALSE)
  fits <- list(cpu = fit, selection = sel)
  if (somgpu:::build_info()$opencl && nrow(devices()) > 0L) {
    fits$opencl <- train(iris[, 1:4], nmax = 4, iter_max = 10, seed = 1, backend = "opencl")
  }
  rds <- tempfile(fileext = ".rds")
  saveRDS(fits, rds)
  res <- run_child(sprintf('
    fits <- readRDS(%s)
    print(fits$cpu); print(summary(fits$cpu))
    cat("SAME", identical(predict(fits$cpu, airquality), fits$cpu$clusters), "\\n")
    print(fits$selection)
    png(tempfile()); plot(fits$selection); plot(fits$cpu, "codes", size = 3); dev.off()
    if (!is.null(fits$opencl)) {
      print(fits$opencl)
      cat("OCL", identical(predict(fits$opencl, iris[, 1:4]), fits$opencl$clusters), "\\n")
      f2 <- train(iris[, 1:4], nmax = 4, iter_max = 10, seed = 1, backend = "opencl")
      cat("AGAIN", identical(f2$weights, fits$opencl$weights), "\\n")
    }
    cat("DONE\\n")', deparse(rds)))
  expect_identical(res$status, 0L)
  expect_match(res$stdout, "SAME TRUE")
  expect_match(res$stdout, "recommended")
  if (!is.null(fits$opencl)) {
    expect_match(res$stdout, "OCL TRUE")
    expect_match(res$stdout, "AGAIN TRUE")
  }
  expect_match(res$stdout, "DONE")
})

test_that("bad backing files and clusters folders are somgpu errors that name the path", {
  skip_if_not_installed("bigmemory")
  dir <- withr::local_tempdir()
  bm <- file_matrix(seed_data(500, 2), dir)
  desc <- bigmemory::describe(bm)
  bin <- file.path(dir, "y.bin")
  run <- function(...) train(desc, nmax = 3, iter_max = 3, algorithm = "batch", seed = 1,
                             backend = "cpu", ...)
  expect_silent(run())
  full <- readBin(bin, "raw", file.size(bin))
  writeBin(full[1:100], bin) # truncated
  expect_error(run(), "backing file .*y\\.bin is shorter than its matrix",
               class = "somgpu_file_error")
  writeBin(raw(0), bin) # empty
  expect_error(run(), "shorter than its matrix", class = "somgpu_file_error")
  expect_error(predict(train(seed_data(50, 2), nmax = 3, iter_max = 3, seed = 1), desc),
               "shorter than its matrix", class = "somgpu_file_error")
  expect_error(train(desc, nmax = 3, iter_max = 3, algorithm = "batch", scale = TRUE),
               "shorter than its matrix", class = "somgpu_file_error") # the column statistics
  unlink(bin)
  dir.create(bin) # a folder in its place
  expect_error(run(), "y\\.bin is not a file", class = "somgpu_file_error")
  unlink(bin, recursive = TRUE)
  err <- tryCatch(run(), error = function(e) e)
  expect_s3_class(err, "somgpu_input_error")
  expect_match(conditionMessage(err), "not there")
  expect_false(grepl("//", conditionMessage(err), fixed = TRUE)) # one slash between the parts
  writeBin(full, bin)
  if (.Platform$OS.type == "unix") { # unreadable: root reads it anyway
    Sys.chmod(bin, "000")
    if (file.access(bin, 4) != 0 || !isTRUE(tryCatch({readBin(bin, "raw", 1); TRUE},
                                                     error = function(e) FALSE,
                                                     warning = function(w) FALSE))) {
      expect_error(run(), "could not open the backing file .*y\\.bin",
                   class = "somgpu_file_error")
    }
    Sys.chmod(bin, "644")
  }
  # a clusters folder that cannot be written: refused before the first pass, with its path
  if (dir.exists("/proc") && !suppressWarnings(file.create("/proc/somgpu-probe"))) {
    expect_error(run(clusters_file = "/proc/cl.bin"),
                 "cannot write files in the folder /proc", class = "somgpu_input_error")
  }
  # a folder that is missing, or a file where the folder should be
  expect_error(run(clusters_file = file.path(dir, "missing", "c.bin")),
               "missing does not exist; name a path in an existing folder",
               class = "somgpu_input_error")
  writeLines("x", file.path(dir, "plain"))
  expect_error(run(clusters_file = file.path(dir, "plain", "c.bin")),
               "plain is a file, not a folder", class = "somgpu_input_error")
  # only the descriptor exists: that is the file named
  file.create(file.path(dir, "c.bin.desc"))
  expect_error(run(clusters_file = file.path(dir, "c.bin")), "c\\.bin\\.desc already exists",
               class = "somgpu_input_error")
  # rows that cannot be trained: which fix applies to which
  y <- seed_data(500, 3)
  y[7, ] <- NA
  y[9, 2:3] <- NA
  gaps <- file_matrix(y, withr::local_tempdir())
  err <- tryCatch(train(gaps, nmax = 3, iter_max = 3, algorithm = "batch", na_max = 0.5),
                  error = function(e) conditionMessage(e))
  expect_match(err, "1 row with nothing to train on .*row 7: remove such rows from the file")
  expect_match(err, "1 row missing more than na_max = 0.5 .*row 9: remove them from the file, or raise `na_max`")
})

test_that("every error path of the compiled glue reaches R as a somgpu_internal_error", {
  y <- seed_data(40, 2)
  fit <- train(y, sizes = 3, iter_max = 3, seed = 1, backend = "cpu")
  problem <- somgpu:::new_problem(3L, 1L, 3L, 1, 1, list(type = "uniform"), 1L, "online",
                                  64L, FALSE, list(col_w = NULL, missing = FALSE))
  spec <- somgpu:::backend_spec(list(name = "cpu", precision = "double"), 1L,
                                somgpu:::backend_options(NULL), NULL)
  train_with <- function(x = y, p = problem) {
    somgpu:::call_core("train the maps", NULL, function() .Call(somgpu:::C_train, x, p, spec, FALSE))
  }
  expect_type(train_with()$weights, "list") # the well-formed call works
  internal <- function(expr, pattern) {
    expect_error(expr, pattern, class = "somgpu_internal_error")
  }
  internal(train_with(p = within(problem, sigma0 <- c(1, 1))), "`sigma0` must hold 1 doubles")
  internal(train_with(p = within(problem, restart <- 0)), "size and restart must be integer")
  internal(train_with(p = within(problem, rm(eta0))), "no element 'eta0'")
  internal(train_with(p = within(problem, init <- "magic")), "'init' is not one of the choices")
  internal(train_with(p = within(problem, fill <- 1)), "fill must hold a double per column")
  internal(train_with(p = within(problem, { init <- "given"; init_w <- list() })),
           "init_w must hold a matrix per map")
  internal(train_with(p = within(problem, { init <- "given"; init_w <- list(1:3) })),
           "init_w must hold a matrix per map")
  internal(train_with(x = 1:10 + 0), "the data must be a double matrix or a file")
  internal(train_with(p = within(problem, col_w <- 1)), "col_w must hold a double per column")
  internal(train_with(x = list(path = 1)), "a file's path must be a string")
  internal(train_with(x = list(path = "a", type = "double", total_rows = 2, row_off = 0,
                               cols = 1L, n = 2, m = 1L)),
           "a file's columns must be a double per column")
  internal(train_with(x = list(path = "a", type = "double", total_rows = 2, row_off = 0,
                               cols = 0, n = 2, m = 1L, center = 1, scale = "a")),
           "a file's scaling must hold a double per column")
  internal(somgpu:::column_stats(y, center = 1), "center must hold a double per column")
  internal(somgpu:::call_core("read", NULL, function() .Call(somgpu:::C_data_scan, y, TRUE)),
           "counted must hold a logical per column")
  assess <- function(w, clusters) {
    somgpu:::call_core("assess", NULL, function() {
      .Call(somgpu:::C_assess, y, w, list(threads = 1L, round_units = 0, clusters = clusters,
                                         detail = FALSE, clusters_to = NULL, col_w = NULL,
                                         missing = FALSE))
    })
  }
  expect_type(assess(list(fit$weights$N3), TRUE)$qe, "double")
  internal(assess(list(fit$weights$N3), c(TRUE, FALSE)),
           "clusters must say, for each map, whether to keep them")
  internal(assess(list(1:3), TRUE), "the weights must be double matrices")
  internal(assess(list(matrix(0, 3, 5)), TRUE), "the weights must be double matrices")
  # a worker's sums (C_batch_shards) and the rows it holds (C_shard_rows)
  step <- within(problem, {
    algorithm <- "batch"
    init <- "given"
    init_w <- list(fit$weights$N3)
  })
  sums <- function(blocks, held = NULL, p = step) {
    somgpu:::call_core("sum", NULL, function() {
      .Call(somgpu:::C_batch_shards, y, p, spec, blocks, held)
    })
  }
  expect_equal(sums(c(0, 1), list(x = y, first = 0)), sums(c(0, 1))) # held or not: the same
  internal(sums(1), "shards must be two numbers")
  internal(sums(c(1, 0)), "shards must be two numbers")
  internal(sums(c(0, 1), list(x = y[, 1, drop = FALSE], first = 0)),
           "the rows held must be a double matrix of the data's columns")
  internal(sums(c(0, 1), list(x = y, first = 5)), "the rows held lie beyond the data")
  expect_error(sums(c(0, 1), list(x = y[1:5, ], first = 0)),
               "rows beyond the range held in memory", class = "somgpu_error")
  internal(somgpu:::call_core("read", NULL, function() .Call(somgpu:::C_shard_rows, y, 0, 5)),
           "rows beyond the file-backed matrix")
  # the data-parallel batch's side in this process (the "shards" backend): its settings
  # checked, and workers' sums that do not fit the maps stop the run with a status
  shards <- function(ranges, gather) {
    s <- c(spec, list(gather = gather, ranges = ranges))
    s$name <- "shards"
    somgpu:::call_core("train the maps", NULL, function() {
      .Call(somgpu:::C_train, y, within(problem, algorithm <- "batch"), s, FALSE)
    })
  }
  internal(shards(1, function(w, t) 0), "the shards' ranges must be pairs of blocks")
  internal(shards(c(0, 1), "f"), "gather must be a function")
  expect_error(shards(c(0, 1), function(w, t) matrix(0, 1, 1)),
               "the workers' sums do not fit the maps", class = "somgpu_error")
  expect_error(shards(c(0, 2), function(w, t) 0), "ranges do not cover the blocks of a pass",
               class = "somgpu_error")
  expect_error(shards(c(0, 1), function(w, t) stop("the workers are gone")),
               "the workers are gone")
  internal(somgpu:::new_somgpu(list(), list(), NULL, 1, NULL, 2:3, data.frame(), 1, NULL,
                               NULL, 1, NULL, NULL, integer(0), list(), NULL, 0, NULL),
           "new_somgpu\\(\\) was given parts that do not fit together")
})

test_that("errors come on one channel: no bare stop() in R, Rf_error only as internal", {
  rdir <- file.path(find.package("somgpu"), "R")
  src <- if (dir.exists(test_path("../../R"))) test_path("../../R") else NULL
  skip_if(is.null(src), "the package sources are not beside the tests")
  files <- list.files(src, "\\.R$", full.names = TRUE)
  for (f in setdiff(files, file.path(src, "base_errors.R"))) {
    code <- readLines(f)
    code <- code[!grepl("^\\s*#", code)]
    expect_false(any(grepl("\\b(stop|stopifnot|warning)\\(", code)), label = basename(f))
  }
  cdir <- test_path("../../src")
  for (f in list.files(cdir, "\\.[ch]$", full.names = TRUE, recursive = TRUE)) {
    code <- readLines(f)
    hits <- grep("Rf_error\\(", code, value = TRUE)
    expect_true(all(grepl("somgpu: internal error", hits)), label = basename(f))
    layer <- basename(dirname(f))
    # only the R glue (src/r, and src/init.c that registers it) calls R or includes its headers
    if (!layer %in% c("r", "src")) {
      expect_length(hits, 0)
      expect_false(any(grepl("^#include <(R|Rinternals|Rmath)\\.h>|^#include <R_ext/", code)),
                   label = f)
    }
  }
  expect_setequal(list.dirs(cdir, full.names = FALSE, recursive = FALSE),
                  c("core", "groups", "cpu", "opencl", "r"))
})

test_that("a column without any observed value is refused, double or logical", {
  aq <- airquality
  aq$sensor <- NA_real_
  expect_error(train(aq, nmax = 3, iter_max = 5), "`sensor` of `y` has no observed value",
               class = "somgpu_input_error")
  aq$sensor <- NA # what read.csv() gives for an empty column
  expect_error(train(aq, nmax = 3, iter_max = 5), "`sensor` of `y` has no observed value",
               class = "somgpu_input_error")
  aq$sensor <- NULL
  aq$flag <- TRUE # a logical column with values is categorical (one level here)
  expect_identical(train(aq, nmax = 3, iter_max = 5)$encoding$level[7], "TRUE")
  m <- unname(cbind(as.matrix(iris[, 1:4]), NA))
  expect_error(train(m, nmax = 3, iter_max = 5), "column 5 of `y` has no observed value .*y\\[, -5L\\]",
               class = "somgpu_input_error")
  m <- cbind(as.matrix(iris[, 1:4]), NA) # its fifth column without a name: named V5
  expect_error(suppressMessages(train(m, nmax = 3, iter_max = 5)), "`V5` of `y` has no observed value",
               class = "somgpu_input_error")
  # observed only in rows left out (na_max) is no better
  y <- as.matrix(iris[, 1:4])
  y[, 4] <- NA
  y[1, ] <- c(NA, NA, NA, 1)
  expect_error(train(y, nmax = 3, iter_max = 5), "`Petal.Width` of `y` has no observed value in the rows used",
               class = "somgpu_input_error")
  # new rows may have a column without values: they are assigned by the others
  fit <- train(airquality, nmax = 3, iter_max = 5, seed = 1)
  nd <- airquality
  nd$Wind <- NA
  expect_false(anyNA(predict(fit, nd[stats::complete.cases(airquality[-3]), ])$N3))
  # a file-backed column without values, counted in the one pass over the file
  skip_if_not_installed("bigmemory")
  fm <- file_matrix(cbind(seed_data(300, 2), NA), withr::local_tempdir())
  expect_error(train(fm, nmax = 3, iter_max = 3, algorithm = "batch"),
               "column 3 of `y` has no observed value", class = "somgpu_input_error")
})

test_that("rows observed only in columns of weight 0 are left out, in training and predict", {
  y <- as.matrix(iris[, 1:4])
  y[c(2, 5), 1:3] <- NA # only Petal.Width observed, and its weight is 0
  fit <- train(y, nmax = 4, iter_max = 10, seed = 1, var_weights = c(1, 1, 1, 0),
               backend = "cpu")
  expect_identical(fit$dropped, c(2L, 5L))
  expect_true(all(is.na(unlist(fit$clusters[c(2, 5), ]))))
  alone <- train(y[-c(2, 5), ], nmax = 4, iter_max = 10, seed = 1, var_weights = c(1, 1, 1, 0),
                 backend = "cpu")
  expect_identical(fit$weights, alone$weights)
  d <- predict(fit, y[1:5, ], type = "detail")
  expect_true(all(is.na(d$cluster[d$row %in% c(2, 5)])))
  expect_false(anyNA(d$cluster[!d$row %in% c(2, 5)]))
  skip_if_not_installed("bigmemory")
  bm <- file_matrix(y, withr::local_tempdir())
  expect_error(train(bm, nmax = 3, iter_max = 3, algorithm = "batch", var_weights = c(1, 1, 1, 0)),
               "2 rows with nothing to train on \\(no observed value, or values only in columns of weight 0\\)",
               class = "somgpu_input_error")
})

test_that("tidy, glance and augment follow broom's conventions for clustering", {
  skip_if_not_installed("generics")
  y <- iris[, 1:4]
  fit <- train(y, nmax = 5, restarts = 2, iter_max = 20, seed = 1, backend = "cpu")
  td <- generics::tidy(fit, size = 3)
  expect_identical(names(td), c("cluster", names(y), "size", "withinss"))
  expect_identical(td$cluster, factor(1:3))
  expect_equal(unname(as.matrix(td[names(y)])), unname(fit$weights$N3))
  expect_identical(td$size, tabulate(fit$clusters$N3, 3))
  direct <- vapply(1:3, function(j) {
    rows <- as.matrix(y[fit$clusters$N3 == j, ])
    sum(sweep(rows, 2, fit$weights$N3[j, ])^2)
  }, 0)
  expect_equal(td$withinss, direct)
  expect_message(td2 <- generics::tidy(fit), "ring size N = 2, the size summary\\(\\) suggests")
  expect_identical(nrow(td2), 2L)
  q <- generics::tidy(fit, quality = TRUE)
  expect_identical(names(q), c("size", "restart", "qe", "te", "explained_var", "best"))
  expect_identical(q$qe, fit$quality$qe)
  gl <- generics::glance(fit)
  expect_identical(gl$size, 2:5)
  # augment: the data with a .cluster factor, new rows by newdata, every size on request
  au <- generics::augment(fit, iris, size = 4)
  expect_identical(au$.cluster, factor(fit$clusters$N4, levels = 1:4))
  expect_identical(au$Species, iris$Species)
  nd <- iris[c(3, 60, 120), ]
  an <- generics::augment(fit, newdata = nd, size = 4)
  expect_identical(nrow(an), 3L)
  expect_identical(an$.cluster, factor(fit$clusters$N4[c(3, 60, 120)], levels = 1:4))
  expect_identical(an$.rownames, c("3", "60", "120"))
  aa <- generics::augment(fit, size = 3, all_sizes = TRUE)
  expect_identical(aa$.cluster_N5, fit$clusters$N5)
  expect_error(generics::augment(fit, size = 7), "trained sizes", class = "somgpu_input_error")
  if (requireNamespace("tibble", quietly = TRUE)) {
    expect_s3_class(td, "tbl_df")
    expect_s3_class(au, "tbl_df")
  }
})

test_that("as_kohonen(): kohonen's own map() agrees with the fit on scaled, weighted data", {
  skip_if_not_installed("kohonen")
  fit <- train(USArrests, nmax = 5, scale = TRUE, var_weights = c(2, 1, 1, 0.5), seed = 1,
               backend = "cpu")
  k <- as_kohonen(fit, 4)
  expect_identical(kohonen::map(k)$unit.classif, k$unit.classif)
  tr <- attr(k, "somgpu_transform")
  new <- sweep(scale(USArrests, tr$center, tr$scale), 2, tr$multiplier, "*")
  expect_identical(kohonen::map(k, newdata = new)$unit.classif,
                   as.numeric(predict(fit, USArrests)$N4))
  plain <- as_kohonen(train(USArrests, nmax = 4, seed = 1, backend = "cpu"), 4)
  expect_null(attr(plain, "somgpu_transform"))
  expect_identical(kohonen::map(plain)$unit.classif, plain$unit.classif)
})

test_that("options are matched the same way everywhere: a unique start is enough", {
  y <- iris[, 1:4]
  fit <- train(y, nmax = 3, iter_max = 5, seed = 1, algorithm = "bat", backend = "cp")
  expect_identical(fit$params$algorithm, "batch")
  expect_identical(predict(fit, y[1:3, ], type = "det"), predict(fit, y[1:3, ], type = "detail"))
  expect_error(train(y, precision = "half"), "`precision` must be one of .*unique start",
               class = "somgpu_input_error")
})

test_that("the small things: escaped percent signs, long numbers, one group, readable labels", {
  rd <- tools::Rd_db("somgpu")[["select_size.Rd"]]
  txt <- paste(utils::capture.output(tools::Rd2txt(rd, options = list(underline_titles = FALSE))),
               collapse = " ")
  txt <- gsub("\\s+", " ", txt)
  expect_match(txt, "2.5% and 97.5% quantiles", fixed = TRUE)
  expect_match(txt, "at least 1% of the rows (and 5)", fixed = TRUE)
  fit <- train(iris[, 1:4], nmax = 3, iter_max = 5, seed = 1, var_weights = c(1e300, 1, 1, 1))
  out <- c(capture.output(print(fit)), capture.output(print(summary(fit))))
  expect_true(all(nchar(out) < 120))
  expect_true(any(grepl("e\\+1[0-9][0-9]", out)))
  u <- withr::with_seed(1, matrix(runif(300), ncol = 3))
  sel <- select_size(u, sizes = 2:4, restarts = 1, bootstrap = 3, iter_max = 20, seed = 1,
                     progress = FALSE)
  expect_false(grepl("1 groups", sel$reason))
  expect_match(sel$reason, "one Gaussian cloud fits the rows better")
  two <- rbind(u, u + 3)
  r2 <- select_size(two, sizes = 2:4, restarts = 1, bootstrap = 3, iter_max = 20, seed = 1,
                    progress = FALSE)$reason
  expect_match(r2, "The data hold 2 groups: .* 2 Gaussian groups with")
  # the neuron numbers of the codes plot: bold and full size
  seen <- new.env()
  seen$args <- NULL # the first text drawn: the neurons' numbers (the legend's come after)
  suppressMessages(trace("text.default", where = asNamespace("graphics"), print = FALSE,
                         tracer = bquote(if (is.null(get("args", .(seen)))) {
                           assign("args", list(cex = cex, font = font), envir = .(seen))
                         })))
  on.exit(suppressMessages(untrace("text.default", where = asNamespace("graphics"))), add = TRUE)
  grDevices::pdf(NULL)
  plot(fit, "codes", size = 3)
  grDevices::dev.off()
  expect_gte(seen$args$cex, 1)
  expect_identical(seen$args$font, 2)
})
