# What every use of future workers shares (the maps of a family, R/future.R; the rows of a
# file, R/shards.R; the replicates of select_size(), R/select.R): the plan's name, a
# function of somgpu's run on each piece of work in the worker's own somgpu, each worker's
# threads, and results that carry their errors as values with where they ran.

# The current plan's class, for messages and records.
plan_name <- function() setdiff(class(future::plan()), c("FutureStrategy", "tweaked"))[1L]

# fun(piece, ...) (the name of a function of somgpu's) on every piece of `work`, over the
# future workers, one piece per future: the results in order. globals: bytes of the
# arguments the futures carry (the data: let future send them whatever their size);
# lost(e): what to do with an error of future itself (a worker that died).
on_workers <- function(work, fun, ..., globals = 0, label = "somgpu-%d", lost) {
  old <- options(future.globals.maxSize = max(2 * globals + 50 * 1024^2,
                                              getOption("future.globals.maxSize", 500 * 1024^2)))
  on.exit(options(old), add = TRUE)
  tryCatch(
    future.apply::future_lapply(work, worker_entry(fun), ..., future.packages = "somgpu",
                                future.scheduling = 1, future.label = label),
    error = lost)
}

# What the futures call: `fun` looked up in the worker's own somgpu. Passing the function
# itself would make future copy it and every internal function it calls into each future
# (about 0.25 s per future spent by this process sizing them up).
worker_entry <- function(fun) {
  env <- new.env(parent = baseenv())
  env$fun <- fun
  f <- function(piece, ...) get(fun, envir = asNamespace("somgpu"))(piece, ...)
  environment(f) <- env
  f
}

# body() on a worker: its value (a list) with where it ran (host, pid) and its seconds; or
# its error as a value, so that every worker finishes and the main process can say which
# failed and keep what the others did.
on_worker <- function(body) {
  started <- proc.time()[["elapsed"]]
  where <- list(host = Sys.info()[["nodename"]], pid = Sys.getpid())
  tryCatch(c(body(), where, seconds = proc.time()[["elapsed"]] - started),
           error = function(e) c(list(error = e), where))
}

# An error of future itself (a worker that died, a plan that cannot start), as somgpu's.
plan_failed <- function(e, plan, call) {
  abort(sprintf("somgpu: the future workers (plan %s) failed: %s", plan, conditionMessage(e)),
        "somgpu_worker_error", call, parent = e)
}

# The workers whose results are errors.
failed_workers <- function(res) which(vapply(res, function(r) !is.null(r$error), logical(1)))

# A worker's threads: as given, else the smaller of its own default and the cores future
# grants it.
worker_threads <- function(threads) {
  if (is.null(threads)) min(somgpu_threads(), worker_cores()) else resolve_threads(threads, NULL)
}

# The cores future grants this worker (1 for multisession workers sharing a machine, which
# keeps them from oversubscribing it); any number without parallelly.
worker_cores <- function() {
  if (requireNamespace("parallelly", quietly = TRUE)) {
    as.integer(parallelly::availableCores())
  } else {
    .Machine$integer.max
  }
}
