# Threads: how many a call uses (somgpu_threads(), the idle processors, the user's count).

#' Number of threads the CPU backend uses
#'
#' The default for `train(threads = NULL)`: the option `somgpu.threads`, else the
#' environment variable `SOMGPU_NUM_THREADS`, else every processor OpenMP offers (which
#' honours `OMP_NUM_THREADS` and `OMP_THREAD_LIMIT`) less those busy with other work when
#' the call starts (on Linux, the tasks that `/proc/loadavg` counts as running, besides
#' this R session; at least 1). On a shared machine more threads than idle processors
#' make a run much slower, not faster: each round of work waits for its slowest thread, and
#' a thread that shares a processor with another program is slow (`bench/bench_load.R`:
#' the seed case with a trace took 17 times as long on 2 threads as on 1 beside one busy
#' process, on 2 cores). Under `R CMD check` with `_R_CHECK_LIMIT_CORES_` set, at most 2.
#' Never more than OpenMP offers; 1 in a build without OpenMP.
#'
#' @return A single integer.
#' @examples
#' somgpu_threads()
#' @export
somgpu_threads <- function() {
  call <- sys.call()
  max <- build_info()$max_threads
  n <- option_value("somgpu.threads", NULL,
                    function(v, name) check_whole(v, name, 1, call = call))
  if (is.null(n)) {
    env <- Sys.getenv("SOMGPU_NUM_THREADS")
    if (nzchar(env)) {
      n <- suppressWarnings(as.numeric(env))
      if (is.na(n)) n <- env
      n <- check_whole(n, "Sys.getenv(\"SOMGPU_NUM_THREADS\")", 1, call = sys.call())
    }
  }
  if (is.null(n)) n <- min(max, idle_processors(build_info()$processors))
  limit <- Sys.getenv("_R_CHECK_LIMIT_CORES_")
  if (nzchar(limit) && !identical(toupper(limit), "FALSE")) n <- min(n, 2L)
  as.integer(min(n, max))
}

# Processors not busy with other work now (at least 1; all of them where it cannot be
# told): on Linux, the processors less the tasks /proc/loadavg counts as running besides
# this one. In a container limited to some of the machine's processors, /proc/loadavg
# counts the whole machine: its running tasks are shared out over all its processors
# (those /proc/stat lists), and this process's processors get their share.
idle_processors <- function(all, proc = "/proc") {
  read <- function(f) tryCatch(readLines(f, warn = FALSE), error = function(e) NULL,
                               warning = function(w) NULL)
  load <- read(file.path(proc, "loadavg"))
  if (!length(load)) return(all)
  running <- suppressWarnings(as.integer(sub("/.*", "", strsplit(load[1L], " ")[[1]][4L])))
  if (is.na(running)) return(all)
  # this process's own running threads (the R thread, OpenMP workers still spinning after
  # an earlier call) are not other work
  own <- sum(vapply(list.files(file.path(proc, "self", "task"), full.names = TRUE), function(t) {
    st <- read(file.path(t, "stat"))
    length(st) > 0L && grepl("^[0-9]+ \\(.*\\) R ", st[1L])
  }, logical(1)))
  machine <- length(grep("^cpu[0-9]", read(file.path(proc, "stat"))))
  others <- max(0, running - max(1L, own)) * all / max(all, machine)
  max(1L, as.integer(all - round(others)))
}

resolve_threads <- function(threads, call) {
  if (is.null(threads)) return(somgpu_threads())
  threads <- check_whole(threads, "threads", 1, call = call)
  min(threads, build_info()$max_threads)
}
