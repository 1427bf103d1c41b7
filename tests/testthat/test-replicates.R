# A set of replicates trained as one family (R/train_replicates.R, som_problem's views): every
# replicate's fit is that of its own train() call, bit for bit, on every backend and path.

# Each replicate's fit from train_replicates() and from its own train() call.
replicate_pair <- function(x, rows, seeds, args, one_call = TRUE) {
  keep <- function(b, fit) fit
  list(one = somgpu:::train_replicates(x, rows, seeds, args, keep, one_call),
       own = lapply(seq_along(rows), function(b) {
         do.call(train, c(list(x[rows[[b]], , drop = FALSE], seed = seeds[[b]]), args))
       }))
}

expect_same_fits <- function(pair, label) {
  expect_length(pair$one, length(pair$own))
  for (b in seq_along(pair$own)) {
    one <- pair$one[[b]]
    own <- pair$own[[b]]
    for (part in c("weights", "clusters", "quality", "stability", "trace", "seed", "params")) {
      expect_identical(one[[part]], own[[part]], label = sprintf("%s, replicate %d: %s", label, b, part))
    }
  }
}

boot_rows <- function(n, nrep, size = n) {
  lapply(seq_len(nrep), function(b) sample.int(n, size, replace = TRUE))
}

test_that("one call trains every replicate's maps as its own call does, bit for bit", {
  set.seed(11)
  x <- rbind(matrix(rnorm(240), ncol = 4), matrix(rnorm(240, 3), ncol = 4))
  rows <- boot_rows(nrow(x), 4, 90)
  seeds <- c(7, 8, 1e6, 42)
  cases <- list(
    online = list(algorithm = "online"),
    batch = list(algorithm = "batch"),
    restarts_auto = list(restarts = 3, sigma0 = "auto", init = "sample"),
    trace = list(trace = TRUE, iter_max = 6),
    single = list(precision = "single"),
    weighted = list(var_weights = c(1, 2, 0.5, 1), scale = TRUE)
  )
  for (nm in names(cases)) {
    args <- utils::modifyList(list(sizes = c(2, 3, 5, 9), iter_max = 12, threads = 2,
                                   progress = FALSE, backend = "cpu"), cases[[nm]])
    expect_same_fits(replicate_pair(x, rows, seeds, args), nm)
  }
  # the one call was made: a problem with views reaches the compiled code once
  calls <- 0L
  ns <- asNamespace("somgpu")
  suppressMessages(trace("train_on_backend", tracer = function() calls <<- calls + 1L,
                         print = FALSE, where = ns))
  on.exit(suppressMessages(untrace("train_on_backend", where = ns)), add = TRUE)
  somgpu:::train_replicates(x, rows, seeds, list(sizes = 2:4, iter_max = 5, threads = 1,
                                                 progress = FALSE, backend = "cpu"),
                            function(b, fit) NULL)
  expect_identical(calls, 1L)
})

test_that("missing values: replicates of the general path share a call", {
  set.seed(12)
  x <- matrix(rnorm(600), ncol = 5)
  x[sample(length(x), 40)] <- NA
  rows <- boot_rows(nrow(x), 3)
  args <- list(sizes = 2:6, iter_max = 10, threads = 2, progress = FALSE, backend = "cpu")
  expect_same_fits(replicate_pair(x, rows, c(1, 2, 3), args), "missing")
})

test_that("replicates that cannot share a call train one call each, with the same fits", {
  set.seed(13)
  x <- matrix(rnorm(400), ncol = 4)
  x[1, 2] <- NA
  # the first replicate holds the row with a gap (the general path), the others do not
  rows <- list(c(1, 2:60), 2:61, 3:62)
  setups <- lapply(rows, function(r) somgpu:::train_setup_of(list(y = x[r, ], seed = 1,
                                                                 sizes = 2:4, threads = 1)))
  expect_false(somgpu:::views_joinable(setups))
  expect_true(somgpu:::views_joinable(setups[2:3]))
  args <- list(sizes = 2:4, iter_max = 8, threads = 1, progress = FALSE, backend = "cpu")
  expect_same_fits(replicate_pair(x, rows, c(5, 6, 7), args), "mixed")
  # different numbers of rows
  expect_false(somgpu:::views_joinable(list(setups[[2]], somgpu:::train_setup_of(
    list(y = x[1:30, ], seed = 1, sizes = 2:4, threads = 1)))))
})

test_that("on OpenCL, both online kernels and batch give each replicate its own bits", {
  skip_if_no_opencl()
  set.seed(14)
  x <- rbind(matrix(rnorm(300), ncol = 3), matrix(rnorm(300, 4), ncol = 3))
  rows <- boot_rows(nrow(x), 3, 150)
  seeds <- c(3, 9, 27)
  base <- list(sizes = c(2, 5, 12), restarts = 2, iter_max = 10, threads = 1,
               progress = FALSE, backend = "opencl")
  for (kernel in c("item", "group")) {
    withr::local_options(somgpu.opencl_kernel = kernel)
    expect_same_fits(replicate_pair(x, rows, seeds, base), paste("opencl", kernel))
  }
  expect_same_fits(replicate_pair(x, rows, seeds, c(base, algorithm = "batch")),
                   "opencl batch")
  # and the CPU's bits (double precision): one call on each backend
  keep <- function(b, fit) fit
  cpu <- somgpu:::train_replicates(x, rows, seeds, utils::modifyList(base, list(backend = "cpu")),
                                   keep)
  ocl <- somgpu:::train_replicates(x, rows, seeds, base, keep)
  for (b in seq_along(rows)) expect_identical(ocl[[b]]$weights, cpu[[b]]$weights)
})

test_that("select_size gives the same selection with one call or a call per replicate", {
  set.seed(15)
  x <- rbind(matrix(rnorm(300, 0), ncol = 3), matrix(rnorm(300, 5), ncol = 3))
  run <- function(one_call) {
    withr::local_options(somgpu.replicates_one_call = one_call)
    sel <- select_size(x, sizes = 2:6, restarts = 2, bootstrap = 4, seed = 3,
                       progress = FALSE, threads = 2, iter_max = 20)
    sel$elapsed <- NULL
    sel$fit$elapsed <- NULL
    sel
  }
  expect_identical(run(TRUE), run(FALSE))
  # rows left out for missing values: the replicates draw among the others, so that they
  # train on as many rows and share one call (counted), with the same selection
  x[c(2, 50, 130), 1:2] <- NA
  calls <- new.env()
  calls$n <- 0
  count <- bquote(assign("n", get("n", .(calls)) + 1, envir = .(calls)))
  suppressMessages(trace("train_views", count, print = FALSE, where = asNamespace("somgpu")))
  on.exit(suppressMessages(untrace("train_views", where = asNamespace("somgpu"))), add = TRUE)
  one <- run(TRUE)
  expect_identical(calls$n, 1)
  expect_identical(length(one$fit$dropped), 3L)
  expect_identical(one, run(FALSE))
  withr::local_options(somgpu.replicates_one_call = "yes")
  expect_error(select_size(x, sizes = 2:3, bootstrap = 2, progress = FALSE, threads = 1),
               class = "somgpu_input_error")
})

test_that("the core refuses views that are not of one shape or out of order", {
  x <- matrix(as.double(1:40), ncol = 2)
  problem <- somgpu:::new_problem(2:3, 1L, 5L, c(1, 1), 1, list(type = "uniform"), 1,
                                  "online", 512L, FALSE, list(col_w = NULL, missing = FALSE))
  spec <- somgpu:::backend_spec(list(name = "cpu", precision = "double"), 1L,
                                somgpu:::backend_options(NULL), NULL)
  run <- function(data, view, seeds) {
    p <- problem
    p$size <- rep(p$size, length(view) / 2)
    p$restart <- rep(p$restart, length(view) / 2)
    p$sigma0 <- rep(p$sigma0, length(view) / 2)
    p$view <- as.integer(view)
    p$seeds <- seeds
    .Call(somgpu:::C_train, data, p, spec, FALSE)
  }
  ok <- run(list(x, x + 1), c(0, 0, 1, 1), c(1, 2))
  expect_length(ok$weights, 4L)
  expect_s3_class(run(list(x, x[1:10, ]), c(0, 0, 1, 1), c(1, 2)), "somgpu_status")
  expect_s3_class(run(list(x, x), c(1, 1, 0, 0), c(1, 2)), "somgpu_status")
  expect_match(run(list(x, x), c(0, 0, 2, 2), c(1, 2))$message, "view")
})
