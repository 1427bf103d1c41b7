# parallel = "future": the same maps as one process, balanced chunks, errors that name the
# sizes, progress through progressr.

same_fit <- function(a, b) {
  for (f in c("weights", "clusters", "quality", "stability", "trace", "seed")) {
    expect_identical(b[[f]], a[[f]], label = paste0("future fit$", f))
  }
}

test_that("chunks cover every map once and balance the cost", {
  size <- rep(2:30, each = 4)
  cost <- size + 1
  for (k in c(1, 2, 3, 5, 16)) {
    ch <- somgpu:::future_chunks(size, k)
    expect_length(ch, k)
    expect_identical(sort(unlist(ch)), seq_along(size))
    expect_false(any(vapply(ch, is.unsorted, logical(1))))
    load <- vapply(ch, function(i) sum(cost[i]), numeric(1))
    expect_lte(max(load) - min(load), max(cost))
    steps <- somgpu:::chunk_steps(ch, size)
    expect_identical(sum(steps), 1000L)
    expect_true(all(steps >= 0))
  }
  expect_length(somgpu:::future_chunks(c(5, 3), 8), 2L)
})

test_that("multisession workers give the maps of one process, online and batch", {
  skip_if_no_future()
  y <- seed_data(600, 3)
  local_plan(future::multisession, workers = 2)
  args <- list(y, nmax = 7, restarts = 2, iter_max = 25, seed = 11, trace = TRUE,
               align = TRUE, init = "sample", backend = "cpu", progress = FALSE)
  one <- do.call(train, c(args, threads = 2))
  fut <- do.call(train, c(args, parallel = "future"))
  same_fit(one, fut)
  w <- fut$backend$workers
  expect_identical(fut$backend$name, "future")
  expect_identical(fut$backend$plan, "multisession")
  expect_identical(nrow(w), 2L)
  expect_identical(length(unique(w$pid)), 2L)
  expect_false(any(w$pid == Sys.getpid()))
  expect_identical(sum(w$maps), 12L)
  expect_identical(w$backend, c("cpu", "cpu"))
  expect_identical(fut$params$parallel, "future")

  args$algorithm <- "batch"
  args$init <- "pca"
  same_fit(do.call(train, c(args, threads = 1)), do.call(train, c(args, parallel = "future")))
})

test_that("a cluster of workers gives the maps of one process, with given initial weights", {
  skip_if_no_future()
  y <- seed_data(400, 2)
  local_plan(future::cluster, workers = rep("localhost", 2))
  init <- lapply(3:6, function(n) matrix(seq_len(2 * n) / (2 * n), n, 2))
  # threads = 1: a cluster worker would take every core (its availableCores())
  args <- list(y, sizes = 3:6, restarts = 3, iter_max = 20, init = init, seed = 4,
               threads = 1, progress = FALSE)
  fut <- do.call(train, c(args, parallel = "future"))
  same_fit(do.call(train, args), fut)
  expect_identical(fut$backend$plan, "cluster")
  expect_match(fut$backend$device, "^2 workers \\(cluster\\)")
})

test_that("select_size() with parallel = \"future\" gives the criteria of one process", {
  skip_if_no_future()
  y <- seed_data(300, 3)
  local_plan(future::multisession, workers = 2)
  args <- list(y, sizes = 2:6, restarts = 2, bootstrap = 3, iter_max = 20, seed = 5,
               backend = "cpu")
  one <- do.call(select_size, c(args, threads = 2))
  fut <- do.call(select_size, c(args, parallel = "future"))
  expect_identical(fut$criteria, one$criteria)
  expect_identical(fut$recommended, one$recommended)
  expect_identical(fut$replicates, one$replicates)
  expect_identical(fut$clusters, one$clusters)
  # the replicates ran on the workers, side by side; the fit on all rows here
  expect_identical(fut$fit$backend$name, "cpu")
})

test_that("a failing worker gives one error naming its sizes, with its own error inside", {
  skip_if_no_future()
  y <- seed_data(200, 2)
  local_plan(future::multisession, workers = 2)
  # the device is resolved on each worker: a name no device has fails there
  err <- expect_error(
    train(y, nmax = 5, iter_max = 5, backend = "opencl", device = "no-such-device",
          parallel = "future", progress = FALSE),
    "future worker 1 of 2 .*training sizes 2, 5, failed: ",
    class = "somgpu_worker_error")
  expect_s3_class(err, "somgpu_error")
  expect_s3_class(err$parent, "somgpu_error")
  expect_identical(err$sizes, c(2L, 5L))
  expect_identical(nrow(err$failures), 2L)
  expect_identical(err$failures$sizes, c("2, 5", "3, 4"))
  expect_match(conditionMessage(err), "1 more worker failed")
  expect_identical(err$weights, vector("list", 4)) # no worker finished
  # what needs no device is checked before anything is shipped
  expect_error(train(y, nmax = 5, backend = "cpu", device = 1, parallel = "future"),
               "cannot be used with backend", class = "somgpu_input_error")
})

test_that("a failed worker's error keeps the maps the other workers finished", {
  sizes <- c(2L, 3L, 4L, 5L)
  chunks <- list(c(1L, 4L), c(2L, 3L))
  w <- lapply(sizes, function(n) matrix(n, n, 2))
  res <- list(list(weights = w[c(1, 4)], record = list()),
              list(error = simpleError("out of device memory"), host = "node7", pid = 42L))
  err <- expect_error(somgpu:::worker_failed(res, chunks, sizes, NULL),
                      "future worker 2 of 2 \\(node7, pid 42\\), training sizes 3, 4, failed: out of device memory",
                      class = "somgpu_worker_error")
  expect_identical(err$weights, list(w[[1]], NULL, NULL, w[[4]]))
  expect_identical(err$failures$worker, 2L)
  expect_identical(err$sizes, c(3L, 4L))
})

test_that("a chunk lost every time it ran names its sizes and how often it ran", {
  chunks <- list(c(1L, 4L), c(2L, 3L))
  lost <- structure(class = c("FutureError", "error", "condition"),
                    list(message = "worker process died", call = NULL))
  withr::local_options(somgpu.future_retries = 2L)
  err <- expect_error(somgpu:::workers_lost(lost, 2L, chunks, c(2, 3, 4, 5), "multisession", NULL),
                      "future worker 2 of 2 \\(plan multisession\\), training sizes 3, 4, failed every time it ran \\(3 times; .*\\): worker process died",
                      class = "somgpu_worker_error")
  expect_identical(err$parent, lost)
  expect_identical(err$sizes, c(3, 4))
})

test_that("a worker that dies mid-run: its work runs again on a live one, same bits", {
  skip_if_no_future()
  y <- seed_data(300, 3)
  here <- train(y, nmax = 8, restarts = 2, seed = 1, threads = 1)
  sel_here <- select_size(y, sizes = 2:5, restarts = 1, bootstrap = 4, iter_max = 20, seed = 1,
                          threads = 1, progress = FALSE)
  local_plan(future::multisession, workers = 2)
  withr::local_options(somgpu.future_fault = list(piece = 2, times = 1))
  got <- lost_said(train(y, nmax = 8, restarts = 2, seed = 1, parallel = "future", threads = 1))
  fit <- got$value
  expect_match(got$said, "^somgpu: the future worker training sizes [0-9, ]+ was lost \\(.*somgpu-2.*\\); it runs again on a live worker \\(attempt 2 of 3\\)\\.$")
  expect_identical(fit$weights, here$weights)
  expect_identical(fit$clusters, here$clusters)
  rr <- fit$backend$reruns
  expect_identical(rr$piece, 2L)
  expect_identical(rr$attempt, 2L)
  expect_identical(rr$sizes, fit$backend$workers$sizes[2])
  expect_match(rr$reason, "somgpu-2")
  # the plan's workers work on afterwards (the dead one replaced)
  again <- lost_said(train(y, nmax = 8, restarts = 2, seed = 1, parallel = "future",
                           threads = 1))$value
  expect_identical(again$weights, here$weights)
  expect_identical(nrow(again$backend$reruns), 1L) # the fault, once more (a new call)
  withr::local_options(somgpu.future_fault = list(piece = 3, times = 1))
  got <- lost_said(select_size(y, sizes = 2:5, restarts = 1, bootstrap = 4, iter_max = 20,
                               seed = 1, threads = 1, progress = FALSE, parallel = "future"))
  sel <- got$value
  expect_match(got$said, "the future worker training replicate 3 was lost", fixed = TRUE)
  expect_identical(sel$criteria, sel_here$criteria)
  expect_identical(sel$partition, sel_here$partition)
  expect_identical(sel$reruns$replicate, 3L)
  # retries spent: a classed error naming what was lost
  withr::local_options(somgpu.future_fault = list(piece = 1, times = 2),
                       somgpu.future_retries = 1L)
  expect_error(lost_said(train(y, nmax = 8, seed = 1, parallel = "future", threads = 1)),
               "future worker 1 of 2 .* failed every time it ran \\(2 times",
               class = "somgpu_worker_error")
  withr::local_options(somgpu.future_retries = -1)
  expect_error(train(y, nmax = 4, seed = 1, parallel = "future"), "somgpu.future_retries",
               class = "somgpu_input_error")
})

test_that("data-parallel rows: a range whose worker dies is summed again, same bits", {
  skip_if_no_future()
  bm <- file_rows(5, 3000, 2)
  withr::local_options(somgpu.batch_block = 256L)
  here <- train(bm, nmax = 4, algorithm = "batch", iter_max = 4, seed = 2, threads = 1)
  local_plan(future::multisession, workers = 2)
  withr::local_options(somgpu.future_fault = list(piece = 1, times = 1))
  got <- lost_said(train(bm, nmax = 4, algorithm = "batch", iter_max = 4, seed = 2,
                         threads = 1, parallel = "future"))
  fit <- got$value
  expect_identical(fit$weights, here$weights)
  # the fault strikes at every pass (each pass's rows are a call of their own), each said
  expect_match(got$said, "the future worker summing blocks 1 to [0-9]+ at pass [1-3] was lost")
  expect_length(got$said, 3L)
  expect_identical(fit$backend$reruns$pass, 1:3)
  expect_identical(fit$backend$reruns$piece, rep(1L, 3))
  expect_match(fit$backend$reruns$blocks, "^blocks 1 to [0-9]+$")
})

test_that("data-parallel rows: persistent workers read their rows once and let them go", {
  skip_if_no_future()
  skip_if_not_installed("bigmemory")
  skip_if_not_installed("parallelly")
  bm <- file_rows(5, 3000, 2)
  withr::local_options(somgpu.batch_block = 256L) # 12 blocks: 4 to each worker
  here <- train(bm, nmax = 4, algorithm = "batch", iter_max = 5, seed = 2, threads = 1)
  cl <- local_cluster(3)
  local_plan(future::cluster, workers = cl)
  fit <- train(bm, nmax = 4, algorithm = "batch", iter_max = 5, seed = 2, threads = 1,
               parallel = "future")
  expect_identical(fit$weights, here$weights)
  expect_identical(fit$quality, here$quality)
  w <- fit$backend$workers
  expect_identical(w$held, rep(TRUE, 3))
  expect_identical(w$reads, rep(1L, 3)) # read once, for the 4 passes
  expect_identical(sum(w$rows), 3000)
  expect_identical(rows_held(cl), rep(0L, 3)) # let go when the fit ended
  # read from the file every pass where the user says so: the same bits
  withr::local_options(somgpu.hold_shards = FALSE)
  every <- train(bm, nmax = 4, algorithm = "batch", iter_max = 5, seed = 2, threads = 1,
                 parallel = "future")
  expect_identical(every$weights, here$weights)
  expect_identical(every$backend$workers$held, rep(FALSE, 3))
  expect_identical(every$backend$workers$reads, rep(4L, 3))
  withr::local_options(somgpu.hold_shards = "yes")
  expect_error(train(bm, nmax = 4, algorithm = "batch", iter_max = 5, seed = 2,
                     threads = 1, parallel = "future"),
               "options(somgpu.hold_shards)` must be TRUE, FALSE or NA", fixed = TRUE,
               class = "somgpu_input_error")
})

test_that("data-parallel rows: a lost worker of the user's cluster, same bits, plan kept", {
  skip_if_no_future()
  skip_if_not_installed("bigmemory")
  skip_if_not_installed("parallelly")
  bm <- file_rows(6, 3000, 2)
  withr::local_options(somgpu.batch_block = 256L)
  here <- train(bm, nmax = 4, algorithm = "batch", iter_max = 5, seed = 2, threads = 1)
  cl <- local_cluster(3)
  local_plan(future::cluster, workers = cl)
  before <- future::plan("list")
  # the worker summing the first range dies at pass 2, once
  withr::local_options(somgpu.future_fault = list(piece = 1, times = 1, call = 2))
  got <- lost_said(train(bm, nmax = 4, algorithm = "batch", iter_max = 5, seed = 2,
                         threads = 1, parallel = "future"))
  fit <- got$value
  expect_identical(fit$weights, here$weights)
  expect_identical(fit$backend$reruns$pass, 2L)
  expect_identical(fit$backend$reruns$piece, 1L)
  expect_length(got$said, 2L)
  expect_match(got$said[1], "the future worker summing blocks 1 to 4 at pass 2 was lost")
  expect_match(got$said[2], "worker 1 of the plan's cluster of 3 is lost: this fit goes on with the other 2; when it ends, your plan is as you set it")
  # the passes after it ran on the two live workers
  expect_identical(length(unique(fit$backend$workers$pid)), 2L)
  expect_identical(future::plan("list"), before) # the user's plan, as it was
  expect_identical(rows_held(cl[2:3]), c(0L, 0L))
})

test_that("data-parallel rows run on the backends C registers for them, others refused", {
  skip_if_no_future()
  skip_if_not_installed("bigmemory")
  expect_identical(somgpu:::constants()$backends, c("cpu", "opencl"))
  expect_identical(somgpu:::constants()$shard_backends, "cpu")
  dir <- withr::local_tempdir()
  bm <- bigmemory::as.big.matrix(matrix(runif(200), ncol = 2), backingfile = "y.bin",
                                 backingpath = dir, descriptorfile = "y.desc")
  local_plan(future::multisession, workers = 2)
  expect_error(train(bm, nmax = 3, algorithm = "batch", iter_max = 3, threads = 1,
                     backend = "opencl", parallel = "future"),
               "runs on the workers' CPU backend; use `backend = \"auto\"` or `\"cpu\"`",
               class = "somgpu_input_error", fixed = FALSE)
})

test_that("an error on one worker stops launching the work still to come", {
  skip_if_no_future()
  local_plan(future::multisession, workers = 2)
  withr::local_options(somgpu.future_fault = list(piece = 1, times = 1, kind = "error"))
  expect_error(select_size(iris[, 1:4], sizes = 2:3, restarts = 1, bootstrap = 10,
                           iter_max = 10, seed = 1, threads = 1, progress = FALSE,
                           parallel = "future"),
               "could not train replicate 1: a fault on purpose",
               class = "somgpu_worker_error")
  # six pieces on two workers: the first wave ran, the other four never started
  ran <- somgpu:::on_workers(rep(list(function() list(ok = TRUE)), 6), "on_worker", lost = stop)
  expect_identical(vapply(ran$results, is.null, TRUE), rep(c(FALSE, TRUE), c(2, 4)))
  expect_s3_class(ran$results[[1]]$error, "error")
  expect_true(ran$results[[2]]$ok)
})

test_that("parallel is checked and its packages are required with a clear error", {
  y <- seed_data(50, 2)
  expect_error(train(y, nmax = 3, parallel = "snow"), "parallel", class = "somgpu_input_error")
  expect_error(somgpu:::need_packages(c("somgpu.not.a.package", "stats"), "this feature", NULL),
               "this feature needs the package somgpu.not.a.package: install.packages\\(\"somgpu.not.a.package\"\\)",
               class = "somgpu_package_error")
})

test_that("progress reaches progressr from the workers, unless progress = FALSE", {
  skip_if_no_future()
  skip_if_not_installed("progressr")
  withr::local_options(progressr.enable = TRUE)
  y <- seed_data(300, 2)
  updates <- function(expr) {
    total <- 0
    withCallingHandlers(expr, progression = function(c) {
      if (identical(c$type, "update")) total <<- total + c$amount
    })
    total
  }
  local_plan(future::sequential)
  expect_identical(updates(train(y, nmax = 6, iter_max = 10, parallel = "future")), 1000)
  expect_identical(updates(train(y, nmax = 6, iter_max = 10, parallel = "future",
                                 progress = FALSE)), 0)
  local_plan(future::multisession, workers = 2)
  expect_identical(updates(train(y, nmax = 6, iter_max = 10, parallel = "future")), 1000)
})

test_that("a progress function that fails is dropped and training goes on", {
  # a run of well over the 0.2 s between calls of a progress function (about 1 s on one
  # thread of a 2-core AMD EPYC)
  y <- seed_data(15000, 3)
  fit <- train(y, nmax = 16, iter_max = 300, seed = 2, threads = 1, progress = FALSE)
  x <- fit$data
  problem <- list(size = 2:16, restart = rep(0L, 15), iter_max = 300L, sigma0 = rep(5, 15), eta0 = 1,
                  init = "uniform", init_w = NULL, fill = NULL, seed = 2,
                  algorithm = "online", batch_block = 4096L, trace = FALSE, col_w = NULL,
                  missing = FALSE)
  calls <- 0
  failing <- function(fraction) {
    calls <<- calls + 1
    stop("a broken progress handler")
  }
  be <- list(name = "cpu", precision = "double")
  run <- function(threads, progress) {
    spec <- somgpu:::backend_spec(be, threads, somgpu:::backend_options(NULL), NULL)
    somgpu:::train_on_backend(x, problem, be, spec, progress, NULL)
  }
  out <- run(1L, failing)
  expect_identical(unname(out$weights[14]), list(unname(fit$weights$N15)))
  expect_identical(calls, 1)
  seen <- numeric(0)
  out <- run(1L, function(f) seen <<- c(seen, f))
  expect_gte(length(seen), 2L)
  expect_true(all(seen >= 0 & seen <= 1) && !is.unsorted(seen))
  # any other jump out of the function (a restart, a handler outside) stops the run, and
  # goes on once the core has released everything
  jumped <- withRestarts(
    run(2L, function(f) invokeRestart("leave")),
    leave = function() "left")
  expect_identical(jumped, "left")
  caught <- tryCatch(
    run(2L, function(f) {
      signalCondition(structure(class = c("somgpu_test_signal", "condition"),
                                list(message = "progress", call = NULL)))
    }),
    somgpu_test_signal = function(c) "caught")
  expect_identical(caught, "caught")
  again <- run(1L, FALSE)
  expect_identical(again$weights, out$weights)
})
