# parallel = "future" with file-backed data and the batch rule: data-parallel training.
# The rows are cut into blocks of the batch sums and the blocks into one contiguous range
# per worker, of equal length to within a block. Each pass, every worker returns, for every
# map, the sums of the aligned nodes of the pairwise sums its range holds (C_batch_shards;
# src/core/som_math.h), from its rows read from the shared backing file once and held in
# its memory where the workers persist (cluster, multisession), else read every pass; this
# process, through the one driver with the "shards" engine, pushes every worker's nodes in
# block order and ends the pass, as one process adds its blocks, so the maps do not depend
# on the number of workers, where the rows were cut or where they were read from.

# Train the maps of `problem` on file-backed x over the future workers: list(weights,
# trace, record) as train_future() gives. `args`: the user's backend arguments (workers
# run the CPU backend); `threads`: the user's count or NULL (each worker's own);
# `main_threads`: this process's (the trace); `progress`: the driver's bar over the passes.
# The passes are the one driver's (C_train with the "shards" backend: schedule, trace,
# progress, interrupts); each pass it calls gather() below for the workers' sums.
train_shards <- function(x, problem, args, threads, options, main_threads, progress, call) {
  # the backends that run the data-parallel batch (src/r/r_backend.c's registry)
  able <- constants()$shard_backends
  if (!args$backend %in% c("auto", able)) {
    abort_input(sprintf(
      "Data-parallel batch training (`parallel = \"future\"` with file-backed data) runs on the workers' %s backend; use `backend = \"auto\"` or %s.",
      paste(toupper(able), collapse = " or "),
      paste0("`\"", able, "\"`", collapse = " or ")), call)
  }
  keep_user_plan()
  precision <- args$precision
  block_rows <- min(problem$batch_block, x$n)
  nblocks <- ceiling(x$n / block_rows)
  ranges <- shard_ranges(nblocks, future_workers(nblocks))
  plan <- plan_name()
  hold <- shard_hold(block_rows, call)
  # (first: on the workers the fit ran on, before keep_user_plan() gives the plan back)
  if (!is.null(hold)) on.exit(release_shards(hold$token), add = TRUE, after = FALSE)
  step <- problem
  step$init <- "given"
  step$trace <- FALSE
  # what the passes leave: the last pass's results per worker, their seconds, the re-runs,
  # the bytes moved
  ran <- new.env(parent = emptyenv())
  ran$res <- NULL
  ran$seconds <- numeric(length(ranges))
  ran$reads <- integer(length(ranges)) # how often each range's rows were read from the file
  ran$reruns <- list()
  ran$moved <- NULL
  gather <- function(weights, t) {
    step$init_w <- weights
    # the file travels as its description; the weights are small
    out <- on_workers(ranges, "shard_sums", x = x, problem = step, threads = threads,
                      options = options, precision = precision, hold = hold, pass = t,
                      globals = as.numeric(utils::object.size(step)),
                      lost = function(e, k) shards_lost(e, k, ranges, t, plan, call),
                      what = function(k) sprintf("summing %s at pass %d",
                                                 blocks_text(ranges[[k]]), t))
    res <- out$results
    if (nrow(out$reruns)) ran$reruns[[length(ran$reruns) + 1L]] <- cbind(pass = t, out$reruns)
    failed <- failed_workers(res)
    if (length(failed)) shards_failed(res, ranges, failed, call)
    ran$res <- res
    ran$seconds <- ran$seconds + vapply(res, function(r) r$seconds, numeric(1))
    ran$reads <- ran$reads + vapply(res, function(r) r$read, integer(1))
    sums <- do.call(cbind, lapply(res, function(r) r$sums))
    ran$moved <- c(out = as.numeric(utils::object.size(step)) * length(ranges),
                   back = as.numeric(utils::object.size(sums)))
    sums
  }
  spec <- backend_spec(list(name = able[1L], precision = precision), main_threads, options,
                       call)
  spec$name <- "shards"
  spec$gather <- gather
  spec$ranges <- as.double(unlist(ranges))
  out <- call_core("train the maps", call, function() {
    .Call(C_train, x, problem, spec, progress)
  })
  reruns <- if (length(ran$reruns)) do.call(rbind, ran$reruns) else
    data.frame(pass = integer(0), piece = integer(0), attempt = integer(0), reason = character(0))
  reruns$blocks <- vapply(ranges[reruns$piece], blocks_text, "")
  record <- shards_record(ran$res, ranges, ran$seconds, ran$reads, block_rows, x$n,
                          problem$size, precision, plan)
  record$reruns <- reruns
  record$bytes_per_pass <- ran$moved # what a pass sends to the workers and gets back
  list(weights = out$weights, trace = out$trace, record = record)
}

# "blocks 1 to 40": a range of blocks, numbered from 1.
blocks_text <- function(range) sprintf("blocks %d to %d", range[1L] + 1L, range[2L])

# Blocks 0 .. nblocks - 1 as k contiguous ranges c(first, end) of equal length to within a
# block.
shard_ranges <- function(nblocks, k) {
  k <- max(1L, min(k, nblocks))
  cuts <- round(seq(0, nblocks, length.out = k + 1L))
  lapply(seq_len(k), function(i) c(cuts[i], cuts[i + 1L]))
}

# One future: the sums of the blocks in `range` for every map of `problem` (at this pass's
# weights: the range's nodes of the pairwise sums), on this worker's CPU threads, from the
# rows it holds (hold: shard_hold(), NULL for none) or read from the file; `read`: 1 where
# this call read the file.
shard_sums <- function(range, x, problem, threads, options, precision, hold, pass) {
  on_worker(function() {
    nth <- worker_threads(threads)
    spec <- backend_spec(list(name = "cpu", precision = precision), nth, options, NULL)
    held <- if (!is.null(hold)) shard_held(x, range, hold, pass)
    sums <- call_core("sum the rows", NULL, function() {
      .Call(C_batch_shards, x, problem, spec, as.double(range), held$rows)
    })
    list(sums = sums, threads = nth, device = cpu_device_name(nth),
         held = !is.null(held), read = if (is.null(held) || held$read) 1L else 0L)
  })
}

# The rows a worker holds, in its own somgpu's namespace, for the one fit that last asked
# (shard_held()): each list(rows = list(x, first), token, pass).
the_shards <- new.env(parent = emptyenv())

# Where the workers persist (a cluster or multisession plan), how they hold their rows:
# list(token: this fit, block_rows, always: hold whatever the room), or NULL (each pass
# reads the file). The option somgpu.hold_shards: NA (default: where a worker has the
# room), TRUE or FALSE.
shard_hold <- function(block_rows, call) {
  opt <- option_value("somgpu.hold_shards", NA, function(v, name) {
    if (!is.logical(v) || length(v) != 1L) {
      abort_input(sprintf("`%s` must be TRUE, FALSE or NA, not %s.", name, describe(v)), call)
    }
    v
  })
  if (isFALSE(opt) || !inherits(future::plan(), "cluster")) return(NULL)
  the_shards$fits <- (if (is.null(the_shards$fits)) 0 else the_shards$fits) + 1
  list(token = sprintf("%s:%d:%.0f", Sys.info()[["nodename"]], Sys.getpid(), the_shards$fits),
       block_rows = block_rows, always = isTRUE(opt))
}

# On a worker: the rows of blocks range[1] .. range[2] - 1 held in memory, read from the
# file the first time: list(rows = list(x, first), read), or NULL where they do not fit
# (half the memory available, unless hold$always). The rows of another fit, and those this
# worker did not sum in this pass or the one before (after a worker was lost, ranges move),
# are let go first.
shard_held <- function(x, range, hold, pass) {
  for (key in ls(the_shards, pattern = ":")) {
    s <- the_shards[[key]]
    if (s$token != hold$token || s$pass < pass - 1L) rm(list = key, envir = the_shards)
  }
  key <- sprintf("%s:%.0f-%.0f", hold$token, range[1L], range[2L])
  s <- the_shards[[key]]
  read <- is.null(s)
  if (read) {
    first <- range[1L] * hold$block_rows
    rows <- min(range[2L] * hold$block_rows, x$n) - first
    if (!hold$always && 8 * rows * x$m > available_memory() / 2) return(NULL)
    s <- list(rows = list(x = call_core("read the rows", NULL, function() {
      .Call(C_shard_rows, x, first, rows)
    }), first = first), token = hold$token)
  }
  s$pass <- pass
  assign(key, s, envir = the_shards)
  list(rows = s$rows, read = read)
}

# On a worker: the rows it holds for the fit `token` let go (the end of the fit); how many
# it still holds.
drop_shards <- function(token) {
  keys <- ls(the_shards, pattern = ":")
  mine <- vapply(keys, function(k) identical(the_shards[[k]]$token, token), logical(1))
  rm(list = keys[mine], envir = the_shards)
  list(held = length(ls(the_shards, pattern = ":")), pid = Sys.getpid())
}

# The end of a fit whose workers held rows (also after an error or an interrupt): a future
# per worker of the plan lets go of the fit's rows, each on a worker of its own (future gives
# a future the first free worker, and none of these is collected before all are sent).
release_shards <- function(token) {
  entry <- worker_entry("drop_shards")
  futures <- lapply(seq_len(future::nbrOfWorkers()), function(i) {
    tryCatch(future::future(quote(entry(token)), substitute = FALSE, packages = "somgpu",
                            globals = list(entry = entry, token = token), seed = NULL,
                            label = "somgpu-release"),
             error = function(e) NULL)
  })
  for (f in futures) if (!is.null(f)) tryCatch(future::value(f), error = function(e) NULL)
  invisible()
}

shards_failed <- function(res, ranges, bad, call) {
  k <- bad[1L]
  abort(sprintf("somgpu: future worker %d of %d (%s, pid %d), summing %s, failed: %s",
                k, length(ranges), res[[k]]$host, res[[k]]$pid, blocks_text(ranges[[k]]),
                conditionMessage(res[[k]]$error)),
        "somgpu_worker_error", call, parent = res[[k]]$error, worker = k)
}

# A range of rows whose future failed every time it ran (on_workers()), at pass t.
shards_lost <- function(e, k, ranges, t, plan, call) {
  abort(sprintf("somgpu: future worker %d of %d (plan %s), summing %s at pass %d, failed %s: %s",
                k, length(ranges), plan, blocks_text(ranges[[k]]), t, retried_text(),
                conditionMessage(e)),
        "somgpu_worker_error", call, parent = e, worker = k)
}

# fit$backend for a data-parallel run: a row per worker (its rows and seconds over all
# passes), and a summary.
shards_record <- function(res, ranges, seconds, reads, block_rows, n, size, precision, plan) {
  rows <- vapply(ranges, function(r) min(r[2L] * block_rows, n) - r[1L] * block_rows,
                 numeric(1))
  workers <- data.frame(
    worker = seq_along(ranges),
    host = vapply(res, function(r) r$host, character(1)),
    pid = vapply(res, function(r) r$pid, integer(1)),
    backend = "cpu",
    device = vapply(res, function(r) r$device, character(1)),
    precision = precision,
    threads = vapply(res, function(r) as.integer(r$threads), integer(1)),
    maps = length(size), sizes = sizes_text(size, seq_along(size)), rows = rows,
    held = vapply(res, function(r) r$held, logical(1)), reads = reads,
    seconds = seconds, stringsAsFactors = FALSE)
  list(name = "future",
       device = sprintf("%d worker%s (%s), data-parallel batch: %s", nrow(workers),
                        if (nrow(workers) == 1L) "" else "s", plan,
                        paste(unique(workers$device), collapse = "; ")),
       precision = precision, threads = sum(workers$threads), plan = plan,
       workers = workers)
}
