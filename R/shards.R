# parallel = "future" with file-backed data and the batch rule: data-parallel training.
# The rows are cut into blocks of the batch sums and the blocks into one contiguous range
# per worker, of equal length to within a block. Each pass, every worker reads its rows from
# the shared backing file and returns, for every map, the sums of the aligned nodes of the
# pairwise sums its range holds (C_batch_shards; src/core/som_math.h); this process, through
# the one driver with the "shards" engine, pushes every worker's nodes in block order and ends
# the pass, as one process adds its blocks, so the maps do not depend on the number of
# workers or where the rows were cut.

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
  precision <- args$precision
  block_rows <- min(problem$batch_block, x$n)
  nblocks <- ceiling(x$n / block_rows)
  ranges <- shard_ranges(nblocks, future_workers(nblocks))
  plan <- plan_name()
  step <- problem
  step$init <- "given"
  step$trace <- FALSE
  # what the passes leave: the last pass's results per worker, their seconds, the re-runs,
  # the bytes moved
  ran <- new.env(parent = emptyenv())
  ran$res <- NULL
  ran$seconds <- numeric(length(ranges))
  ran$reruns <- list()
  ran$moved <- NULL
  gather <- function(weights, t) {
    step$init_w <- weights
    # the file travels as its description; the weights are small
    out <- on_workers(ranges, "shard_sums", x = x, problem = step, threads = threads,
                      options = options, precision = precision,
                      globals = as.numeric(utils::object.size(step)),
                      lost = function(e, k) shards_lost(e, k, ranges, t, plan, call))
    res <- out$results
    if (nrow(out$reruns)) ran$reruns[[length(ran$reruns) + 1L]] <- cbind(pass = t, out$reruns)
    failed <- failed_workers(res)
    if (length(failed)) shards_failed(res, ranges, failed, call)
    ran$res <- res
    ran$seconds <- ran$seconds + vapply(res, function(r) r$seconds, numeric(1))
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
  record <- shards_record(ran$res, ranges, ran$seconds, block_rows, x$n, problem$size,
                          precision, plan)
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
# weights: the range's nodes of the pairwise sums), on this worker's CPU threads.
shard_sums <- function(range, x, problem, threads, options, precision) {
  on_worker(function() {
    nth <- worker_threads(threads)
    spec <- backend_spec(list(name = "cpu", precision = precision), nth, options, NULL)
    sums <- call_core("sum the rows", NULL, function() {
      .Call(C_batch_shards, x, problem, spec, as.double(range))
    })
    list(sums = sums, threads = nth, device = cpu_device_name(nth))
  })
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
shards_record <- function(res, ranges, seconds, block_rows, n, size, precision, plan) {
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
    seconds = seconds, stringsAsFactors = FALSE)
  list(name = "future",
       device = sprintf("%d worker%s (%s), data-parallel batch: %s", nrow(workers),
                        if (nrow(workers) == 1L) "" else "s", plan,
                        paste(unique(workers$device), collapse = "; ")),
       precision = precision, threads = sum(workers$threads), plan = plan,
       workers = workers)
}
