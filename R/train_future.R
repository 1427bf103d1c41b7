# parallel = "future": the (size, restart) maps of a train() call split into balanced chunks,
# one per future worker, trained by future.apply under the user's future::plan(). Every map
# has its own random streams, so the maps do not depend on the chunking: the main process
# assesses them exactly as it does maps trained in one call.

# Chunks of map indices, at most `k`, balanced by cost: a map's training costs about its
# neurons (+1 for the work per row that does not grow with N). Largest first, each to the
# lightest chunk so far (ties to the first); every chunk keeps its maps in their order.
future_chunks <- function(size, k) {
  k <- min(k, length(size))
  cost <- size + 1
  load <- numeric(k)
  chunk <- integer(length(size))
  for (i in order(-cost, seq_along(cost))) {
    j <- which.min(load)
    chunk[i] <- j
    load[j] <- load[j] + cost[i]
  }
  unname(split(seq_along(size), factor(chunk, levels = seq_len(k))))
}

# Progress steps of each chunk (summing to 1000), in proportion to its cost.
chunk_steps <- function(chunks, size) {
  cost <- vapply(chunks, function(i) sum(size[i] + 1), numeric(1))
  diff(c(0L, as.integer(round(1000 * cumsum(cost) / sum(cost)))))
}

# Train the maps of `problem` (see new_problem()) on future workers: list(weights, trace,
# record) as train_on_backend() plus backend_record() give for one process. `args`:
# backend, device and precision as the user gave them (checked); `threads`: the user's
# count or NULL (each worker's own); `options`: this session's backend options
# (backend_options()); `progress`: signal progressr updates (when progressr is installed).
train_future <- function(x, problem, args, threads, options, progress, call) {
  keep_user_plan()
  nmaps <- length(problem$size)
  sizes <- problem$size
  chunks <- future_chunks(sizes, future_workers(nmaps))
  steps <- chunk_steps(chunks, sizes)
  p <- if (progress && requireNamespace("progressr", quietly = TRUE)) {
    progressr::progressor(steps = sum(steps))
  }
  # each future gets its chunk's maps: their sizes, restarts and initial weights
  work <- lapply(seq_along(chunks), function(k) {
    i <- chunks[[k]]
    list(k = k, size = problem$size[i], restart = problem$restart[i],
         sigma0 = problem$sigma0[i], init_w = problem$init_w[i], steps = steps[k])
  })
  problem$size <- problem$restart <- problem$sigma0 <- problem$init_w <- NULL
  plan <- plan_name()
  # shipping the data is the point: let future send them whatever their size
  ran <- on_workers(work, "train_chunk", x = x, problem = problem, args = args,
                    threads = threads, options = options, progress = p,
                    globals = as.numeric(utils::object.size(x)) +
                      as.numeric(utils::object.size(work)),
                    lost = function(e, k) workers_lost(e, k, chunks, sizes, plan, call),
                    what = function(k) sprintf("training sizes %s", sizes_text(sizes, chunks[[k]])))
  res <- ran$results
  if (length(failed_workers(res))) worker_failed(res, chunks, sizes, call)
  weights <- vector("list", nmaps)
  trace <- if (problem$trace) matrix(NA_real_, max(problem$iter_max - 1L, 0L), nmaps)
  for (k in seq_along(chunks)) {
    weights[chunks[[k]]] <- res[[k]]$weights
    if (problem$trace) trace[, chunks[[k]]] <- res[[k]]$trace
  }
  ran$reruns$sizes <- vapply(chunks[ran$reruns$piece], function(i) sizes_text(sizes, i), "")
  list(weights = weights, trace = trace,
       record = future_record(res, chunks, sizes, plan, ran$reruns))
}

# One future: train the maps of `work` (one chunk: k, size, restart, sigma0, init_w, steps) on
# this worker's best backend for `args` and report what ran and where. Errors come back as
# values, so that every worker finishes and the main process can name the sizes of the
# ones that failed and keep the maps of the others.
train_chunk <- function(work, x, problem, args, threads, options, progress) {
  on_worker(function() {
    nth <- worker_threads(threads)
    # "auto" weighs this worker's share of the maps, on its own threads
    be <- resolve_backend(args, NULL, auto_work(list(
      passes = problem$iter_max - 1L, n = nrow(x), m = ncol(x), nmaps = length(work$size),
      size_sum = sum(work$size), algorithm = problem$algorithm), nth))
    report <- if (is.function(progress)) chunk_progress(progress, work$steps) else FALSE
    problem[c("size", "restart", "sigma0", "init_w")] <- work[c("size", "restart", "sigma0",
                                                              "init_w")]
    out <- train_on_backend(x, problem, be, backend_spec(be, nth, options, NULL), report, NULL)
    if (is.function(report)) report(1)
    out$record <- backend_record(be, nth, out$kernels)
    out
  })
}

# A function of the share done that passes the new steps of a chunk to progressor p. A
# progressor that fails is not called again (progress is never worth a chunk's maps).
chunk_progress <- function(p, steps) {
  done <- 0L
  broken <- FALSE
  function(fraction) {
    now <- as.integer(floor(fraction * steps))
    if (now > done && !broken) {
      tryCatch(p(amount = now - done), error = function(e) broken <<- TRUE)
      done <<- now
    }
  }
}

# What the chunks that finished trained: a list with a matrix per map, NULL for the maps of
# the chunks that did not (for the error, so that nothing finished is lost).
finished_maps <- function(res, chunks) {
  weights <- vector("list", sum(lengths(chunks)))
  for (k in seq_along(res)) {
    if (!is.null(res[[k]]$weights)) weights[chunks[[k]]] <- res[[k]]$weights
  }
  weights
}

# "future worker k of n (where), training sizes ...,"
worker_text <- function(k, chunks, sizes, where) {
  sprintf("future worker %d of %d (%s), training sizes %s,", k, length(chunks), where,
          sizes_text(sizes, chunks[[k]]))
}

# Workers that returned an error: one error for the first, naming the sizes it held, with
# the worker's own condition as `parent`, every failure in `failures`, and the maps the
# other workers finished in `weights` (in the order of fit$quality; NULL where not trained).
worker_failed <- function(res, chunks, sizes, call) {
  bad <- failed_workers(res)
  failures <- data.frame(
    worker = bad,
    host = vapply(res[bad], function(r) r$host, character(1)),
    pid = vapply(res[bad], function(r) r$pid, integer(1)),
    sizes = vapply(chunks[bad], function(i) sizes_text(sizes, i), character(1)),
    message = vapply(res[bad], function(r) conditionMessage(r$error), character(1)),
    stringsAsFactors = FALSE)
  k <- bad[1L]
  msg <- sprintf("somgpu: %s failed: %s",
                 worker_text(k, chunks, sizes, sprintf("%s, pid %d", failures$host[1L],
                                                       failures$pid[1L])),
                 failures$message[1L])
  if (length(bad) > 1L) {
    msg <- sprintf("%s\n%d more worker%s failed (workers %s); see the error's `failures`.",
                   msg, length(bad) - 1L, if (length(bad) > 2L) "s" else "",
                   paste(bad[-1L], collapse = ", "))
  }
  abort(msg, "somgpu_worker_error", call, parent = res[[k]]$error, worker = k,
        sizes = sort(unique(sizes[chunks[[k]]])), failures = failures,
        weights = finished_maps(res, chunks))
}

# An error future itself raised for chunk k (its worker died, its job failed, a package
# missing on a worker, data future would not send), its retries spent (on_workers()). No
# maps come with it: the chunks not yet finished never ran.
workers_lost <- function(e, k, chunks, sizes, plan, call) {
  abort(sprintf("somgpu: %s failed %s: %s",
                worker_text(k, chunks, sizes, sprintf("plan %s", plan)), retried_text(),
                conditionMessage(e)),
        "somgpu_worker_error", call, parent = e, worker = k,
        sizes = sort(unique(sizes[chunks[[k]]])))
}

# fit$backend for a future run: a row per worker (what ran there), the pieces of work run
# again after their worker was lost (`reruns`: piece, attempt, reason, sizes), and a
# summary.
future_record <- function(res, chunks, sizes, plan, reruns) {
  rec <- lapply(res, function(r) r$record)
  workers <- data.frame(
    worker = seq_along(rec),
    host = vapply(res, function(r) r$host, character(1)),
    pid = vapply(res, function(r) r$pid, integer(1)),
    backend = vapply(rec, function(r) r$name, character(1)),
    device = vapply(rec, function(r) r$device, character(1)),
    precision = vapply(rec, function(r) r$precision, character(1)),
    threads = vapply(rec, function(r) as.integer(r$threads), integer(1)),
    maps = lengths(chunks),
    sizes = vapply(chunks, function(i) sizes_text(sizes, i), character(1)),
    seconds = vapply(res, function(r) r$seconds, numeric(1)),
    stringsAsFactors = FALSE)
  where <- table(sprintf("%s on %s", workers$device, workers$host))
  list(name = "future",
       device = sprintf("%d worker%s (%s): %s", nrow(workers),
                        if (nrow(workers) == 1L) "" else "s", plan,
                        paste(sprintf("%d x %s", as.integer(where), names(where)),
                              collapse = "; ")),
       precision = paste(unique(workers$precision), collapse = "/"),
       threads = sum(workers$threads), plan = plan, workers = workers, reruns = reruns)
}
