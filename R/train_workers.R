# What every use of future workers shares (the maps of a family, R/train_future.R; the rows of a
# file, R/train_shards.R; the replicates of select_size(), R/select.R): the plan's name, a
# function of somgpu's run on each piece of work in the worker's own somgpu, each worker's
# threads, and results that carry their errors as values with where they ran.

# The current plan's class, for messages and records.
plan_name <- function() setdiff(class(future::plan()), c("FutureStrategy", "tweaked"))[1L]

# fun(piece, ...) (the name of a function of somgpu's) on every piece of `work`, over the
# future workers, a future per piece, as many at a time as the plan has workers (a wave):
# list(results in order, reruns). A piece whose future fails (its worker died, its job was
# cancelled or killed) runs again, on a live worker, up to future_retries() times: every
# piece is deterministic, so its re-run gives what its first run would have; a message says
# so (`what(i)`: what piece i does, for it). `reruns` has a row per re-run (piece, attempt,
# reason). lost(e, i): what to do when piece i's retries are spent (it raises the caller's
# error). A piece whose body failed (an error returned as a
# value, on_worker()) stops the launching of the pieces still to come. globals: bytes of
# the arguments the futures carry (the data: let future send them whatever their size).
# Leaving early (an error, an interrupt) cancels the jobs of a scheduler still queued or
# running (cancel_futures()).
on_workers <- function(work, fun, ..., globals = 0, label = "somgpu-%d", lost,
                       what = function(i) sprintf("piece %d", i)) {
  old <- options(future.globals.maxSize = max(2 * globals + 50 * 1024^2,
                                              getOption("future.globals.maxSize", 500 * 1024^2)))
  on.exit(options(old), add = TRUE)
  entry <- worker_entry(fun)
  rest <- list(...)
  retries <- future_retries()
  # for the tests and benchmarks, a fault on purpose: list(piece, times, kind, call): the
  # worker of `piece` dies (kind "die", its process killed) or its body fails ("error") the
  # first `times` times it runs, in every call of a fit (a pass of the data-parallel
  # batch), or in its call number `call` only
  fault <- getOption("somgpu.future_fault")
  the_plan$calls <- if (is.null(the_plan$calls)) 1L else the_plan$calls + 1L
  if (!is.null(fault$call) && fault$call != the_plan$calls) fault <- NULL
  main <- Sys.getpid()
  scheduler <- inherits(future::plan(), "batchtools")
  tries <- integer(length(work))
  launch <- function(i) {
    hit <- !is.null(fault) && i == fault$piece && tries[i] < fault$times
    die <- hit && !identical(fault$kind, "error")
    piece <- work[[i]]
    if (hit && identical(fault$kind, "error")) attr(piece, "somgpu_fault") <- "error"
    future::future(quote({
      if (die && Sys.getpid() != main) tools::pskill(Sys.getpid(), tools::SIGKILL)
      do.call(entry, c(list(piece), rest))
    }), substitute = FALSE, packages = "somgpu", label = sprintf(label, i), seed = NULL,
    lazy = TRUE, globals = list(entry = entry, piece = piece, rest = rest, die = die,
                                main = main))
  }
  out <- vector("list", length(work))
  reruns <- list()
  running <- list()
  on.exit(cancel_futures(running), add = TRUE)
  queue <- seq_along(work)
  while (length(queue)) {
    width <- future_workers(length(work)) # (fewer once a lost worker is left out)
    wave <- queue[seq_len(min(width, length(queue)))]
    queue <- queue[-seq_along(wave)]
    running <- vector("list", length(wave))
    started <- vector("list", length(wave)) # the futures (a failed start leaves its node)
    for (j in seq_along(wave)) {
      # Each future is recorded before it starts, so that leaving early cancels a
      # scheduler's job from the moment it is submitted (the workers of other plans finish
      # on their own). An interrupt can land inside a start: once sbatch has answered and
      # the job's id is in its registry, batchtools waits out the scheduler's latency in
      # Sys.sleep(), and R lets an interrupt through a sleep even while interrupts are
      # suspended; future() would then never return its future. The suspension holds an
      # interrupt between sbatch and the registry's record of the job.
      record <- quote({
        running[j] <- list(tryCatch(launch(wave[j]), FutureError = function(e) e))
        started[j] <- running[j]
        if (!inherits(running[[j]], "FutureError")) {
          running[j] <- list(tryCatch({
            future::run(running[[j]])
            running[[j]]
          }, FutureError = function(e) e))
        }
      })
      if (scheduler) suspendInterrupts(eval(record)) else eval(record)
    }
    lost_nodes <- integer(0)
    for (j in seq_along(wave)) {
      i <- wave[j]
      f <- running[[j]]
      v <- if (inherits(f, "FutureError")) f else collect_value(f)
      running[j] <- list(NULL)
      if (!inherits(v, "FutureError")) {
        out[[i]] <- v
        next
      }
      if (tries[i] >= retries) {
        cancel_futures(running)
        running <- list()
        lost(v, i)
      }
      tries[i] <- tries[i] + 1L
      reruns[[length(reruns) + 1L]] <- data.frame(piece = i, attempt = tries[i] + 1L,
                                                  reason = conditionMessage(v))
      inform(sprintf("somgpu: the future worker %s was lost (%s); it runs again on a live worker (attempt %d of %d).",
                     what(i), first_sentence(conditionMessage(v)), tries[i] + 1L, retries + 1L),
             "somgpu_worker_lost")
      queue <- c(i, queue)
      node <- if (inherits(started[[j]], "ClusterFuture")) started[[j]]$node
      lost_nodes <- c(lost_nodes, if (is.numeric(node)) node else NA_integer_)
    }
    running <- list()
    if (length(lost_nodes)) repair_plan(lost_nodes)
    if (length(failed_workers(out[!vapply(out, is.null, TRUE)]))) break # a body failed
  }
  list(results = out, reruns = if (length(reruns)) do.call(rbind, reruns) else
    data.frame(piece = integer(0), attempt = integer(0), reason = character(0)))
}

# A future's value, or the FutureError that says its worker or job was lost. (A lost
# scheduler job's files stay until future.batchtools collects the job, which it prints once
# through try(); removing them here would leave it counted as a busy worker for good.)
collect_value <- function(f) tryCatch(future::value(f), FutureError = function(e) e)

# How many times a lost piece of work runs again: the option somgpu.future_retries (a whole
# number, default 2).
future_retries <- function() {
  r <- getOption("somgpu.future_retries", 2L)
  check_whole(r, "getOption(\"somgpu.future_retries\")", 0, call = NULL)
}

# After workers died (`lost`: their nodes in the plan's cluster, NA where unknown): a plan
# whose workers future started (multisession, cluster of a number or hosts) set again,
# which starts them anew, since future does not replace a dead one and would send the next
# futures to it; a cluster of the user's own (parallelly::makeClusterPSOCK(), srun workers)
# goes on without the lost nodes for the rest of the fit (future cannot start theirs again),
# and keep_user_plan() gives the user's plan back when the fit ends. A scheduler's plan
# (future.batchtools) starts a job per future anyway.
repair_plan <- function(lost) {
  if (!inherits(future::plan(), "cluster")) return(invisible())
  stack <- future::plan("list") # (assigned first: plan() takes its argument unevaluated)
  cl <- formals(stack[[1L]])$workers
  lost <- unique(lost[!is.na(lost)])
  if (!inherits(cl, "cluster") || !length(lost) || length(lost) >= length(cl)) {
    future::plan(stack)
    return(invisible())
  }
  if (identical(the_plan$user, NA)) the_plan$user <- stack # the user's, given back at the end
  inform(sprintf("somgpu: %s of the plan's cluster of %d %s lost: this fit goes on with the other %d; when it ends, your plan is as you set it (start the lost %s anew for the next fit).",
                 if (length(lost) == 1L) sprintf("worker %d", lost) else
                   sprintf("workers %s", paste(lost, collapse = ", ")),
                 length(cl), if (length(lost) == 1L) "is" else "are", length(cl) - length(lost),
                 if (length(lost) == 1L) "worker" else "workers"),
         "somgpu_worker_lost")
  stack[[1L]] <- future::tweak(stack[[1L]], workers = cl[-lost])
  future::plan(stack)
  invisible()
}

# The user's plan, as it was when a fit began, while the fit runs (the_plan$user: NA while a
# fit runs and has not changed the plan, the plan's stack once repair_plan() has, NULL
# otherwise). keep_user_plan(): called by the functions that send a fit's work to the
# workers; the outermost gives the plan back when it returns.
the_plan <- new.env(parent = emptyenv())
keep_user_plan <- function(env = parent.frame()) {
  if (!is.null(the_plan$user)) return(invisible()) # an outer call keeps it
  the_plan$user <- NA
  the_plan$calls <- 0L # on_workers() calls of this fit
  do.call(on.exit, list(quote(somgpu_restore_plan()), add = TRUE), envir = env)
  invisible()
}
somgpu_restore_plan <- function() {
  user <- the_plan$user
  the_plan$user <- NULL
  if (is.list(user)) future::plan(user)
}

# The first sentence of a message (future's errors go on with a post-mortem).
first_sentence <- function(msg) sub("(?s)\\.\\s.*$", "", msg, perl = TRUE)

# The jobs of a scheduler's futures still queued or running, cancelled (a future of a
# plan that keeps its workers runs to its end, its result then dropped).
cancel_futures <- function(futures) {
  for (f in futures) {
    if (!inherits(f, "BatchtoolsFuture") || is.null(f$config$reg)) next
    for (attempt in 1:3) { # a kill that failed (a busy scheduler) is tried again
      left <- tryCatch(nrow(batchtools::findOnSystem(reg = f$config$reg)),
                       error = function(e) 1L)
      if (identical(left, 0L)) break
      try(suppressMessages(batchtools::killJobs(reg = f$config$reg)), silent = TRUE)
    }
  }
}

# What the futures call: `fun` looked up in the worker's own somgpu. Passing the function
# itself would make future copy it and every internal function it calls into each future
# (about 0.25 s per future spent by this process sizing them up).
worker_entry <- function(fun) {
  env <- new.env(parent = baseenv())
  env$fun <- fun
  f <- function(piece, ...) {
    if (identical(attr(piece, "somgpu_fault"), "error")) { # on_workers()' fault on purpose
      ns <- asNamespace("somgpu")
      return(get("on_worker", envir = ns)(function() get("abort", envir = ns)("a fault on purpose")))
    }
    get(fun, envir = asNamespace("somgpu"))(piece, ...)
  }
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

# How many chunks: one per worker of the current plan (a job scheduler's plan has its
# `workers`: 100 by default for future.batchtools), and no more than the maps; a plan that
# reports no limit gets one chunk per map.
future_workers <- function(nmaps) {
  n <- future::nbrOfWorkers()
  if (!is.finite(n)) n <- nmaps
  max(1L, as.integer(min(n, nmaps)))
}

# "every time it ran (3 times)": how often a lost piece was tried.
retried_text <- function() {
  n <- future_retries() + 1L
  if (n == 1L) "(no re-run: options(somgpu.future_retries = 0))" else
    sprintf("every time it ran (%d times; options(somgpu.future_retries) sets how often)", n)
}
