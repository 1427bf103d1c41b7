# R/train.R and R/train_setup.R: train() in three steps over a train setup, a constructed object
# with a fixed set of fields that train(), train_replicates() and select_size() share.

setup_fields <- c("call", "x", "xt", "rows", "scaling", "var_weights", "sourced", "basis",
                  "na_max", "encoding", "problem", "dims", "sizes", "restarts", "sigma0", "sigma_sizes",
                  "iter_max", "eta0", "init", "algorithm", "seed", "align", "parallel",
                  "backend_args", "be", "spec", "threads", "worker_threads", "options",
                  "progress", "progress_supplied", "keep_data", "clusters_file")

# The setup train() makes for its arguments (caught where train_maps() receives it).
setup_of_train <- function(...) {
  box <- new.env()
  ns <- asNamespace("somgpu")
  suppressMessages(trace("train_maps", tracer = bquote(assign("s", s, envir = .(box))),
                         print = FALSE, where = ns))
  on.exit(suppressMessages(untrace("train_maps", where = ns)))
  train(...)
  box$s
}

test_that("a setup has the documented fields, and a field outside them is an error", {
  y <- seed_data(60, 3, rng_seed = 2)
  s <- somgpu:::train_setup_of(list(y = y, seed = 1, sizes = 2:4, threads = 1))
  expect_s3_class(s, "somgpu_train_setup")
  expect_identical(names(s), setup_fields)
  expect_identical(s$sizes, 2:4)
  expect_error(s$missing, "no field `missing`", class = "somgpu_internal_error")
  expect_error(s$size, "no field `size`", class = "somgpu_internal_error") # no partial match
  # the constructor takes exactly the fields: one left out, renamed or added is an error
  parts <- unclass(s)
  bad <- "fields that are not a train setup's"
  expect_error(somgpu:::new_train_setup(parts[-2L]), bad, class = "somgpu_internal_error")
  renamed <- stats::setNames(parts, sub("^xt$", "x_t", names(parts)))
  expect_error(somgpu:::new_train_setup(renamed), bad, class = "somgpu_internal_error")
  expect_error(somgpu:::new_train_setup(c(parts, list(extra = 1))), bad,
               class = "somgpu_internal_error")
  expect_identical(somgpu:::new_train_setup(parts), s)
})

test_that("train_setup_of() sets up as train() does with the same arguments", {
  y <- seed_data(80, 3, rng_seed = 3)
  y[5, 2] <- NA
  args <- list(sizes = c(2, 5), iter_max = 6, threads = 1, scale = TRUE, var_weights = 3:1,
               init = "sample", restarts = 2, progress = FALSE, backend = "cpu")
  of <- somgpu:::train_setup_of(c(list(y = y, seed = 7), args))
  direct <- do.call(setup_of_train, c(list(y, seed = 7), args))
  expect_identical(unclass(of)[-1L], unclass(direct)[-1L]) # all but the call
  # nmin and nmax (sizes left to them), and progress left to its default
  of <- somgpu:::train_setup_of(list(y = y, seed = 1, nmin = 3, nmax = 5, threads = 1))
  direct <- setup_of_train(y, seed = 1, nmin = 3, nmax = 5, threads = 1)
  expect_identical(unclass(of)[-1L], unclass(direct)[-1L])
  expect_identical(of$sizes, 3:5)
  expect_false(of$progress_supplied)
})

test_that("train()'s defaults are read from its signature", {
  d <- somgpu:::train_defaults()
  f <- formals(train)
  expect_setequal(names(d), setdiff(names(f), c("y", "sizes", "...")))
  expect_identical(d$nmax, 10)
  expect_identical(d$init, "uniform")
  expect_null(d$iter_max)
  expect_identical(d$progress, interactive())
})

test_that("train() and predict() share the row pipeline: rows, matrix, magnitudes", {
  y <- seed_data(120, 3, rng_seed = 4)
  y[c(3, 9), 1] <- NA
  y[7, ] <- NA # a row with nothing observed: left out
  fit <- train(y, sizes = 2:4, iter_max = 8, seed = 2, scale = TRUE, var_weights = c(2, 1, 1),
               threads = 1)
  # the training rows assigned as training assigned them, the row left out NA
  expect_identical(predict(fit, y), fit$clusters)
  scan <- somgpu:::scan_data(y, NULL)
  rows <- somgpu:::data_rows(y, scan, 0.5, c(a = 2, b = 1, c = 1), NULL)
  expect_identical(rows$used, setdiff(seq_len(120), 7L))
  expect_true(rows$missing)
  expect_identical(rows$dist, list(col_w = c(2, 1, 1), missing = TRUE))
  # all rows with read_all (a file's), the distance the same
  all <- somgpu:::data_rows(y, scan, 0.5, NULL, NULL, read_all = TRUE)
  expect_null(all$used)
  expect_identical(all$dist, list(col_w = NULL, missing = TRUE))
  # magnitudes: refused for the precision, with the data's name
  big <- y * 1e200
  expect_error(train(big, sizes = 2, iter_max = 2, seed = 1), "would overflow",
               class = "somgpu_input_error")
  expect_error(predict(fit, big), "`newdata`.*would overflow", class = "somgpu_input_error")
})
