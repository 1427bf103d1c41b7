# Backends and threads: what this build offers and which one a call uses.

build_info <- function() .Call(C_build_info)

#' Backends available in this build of somgpu
#'
#' Lists the training backends, whether each can be used here, and details such as the
#' number of threads the CPU backend may use.
#'
#' @return A data frame with one row per backend and columns `backend`, `available`
#'   (logical) and `detail`.
#' @seealso [train()], [somgpu_threads()]
#' @examples
#' backends()
#' @export
backends <- function() {
  info <- build_info()
  data.frame(
    backend = c("cpu", "opencl"),
    available = c(TRUE, FALSE),
    detail = c(
      sprintf("C, %s, up to %d thread%s", if (info$openmp) "OpenMP" else "serial (no OpenMP)",
              somgpu_threads(), if (somgpu_threads() == 1L) "" else "s"),
      "not built: this version has no OpenCL support yet"
    ),
    stringsAsFactors = FALSE
  )
}

#' Number of threads the CPU backend uses
#'
#' The default for `train(threads = NULL)`: the option `somgpu.threads`, else the
#' environment variable `SOMGPU_NUM_THREADS`, else every processor OpenMP offers (which
#' honours `OMP_NUM_THREADS` and `OMP_THREAD_LIMIT`). Under `R CMD check` with
#' `_R_CHECK_LIMIT_CORES_` set, at most 2. Never more than OpenMP offers; 1 in a build
#' without OpenMP.
#'
#' @return A single integer.
#' @examples
#' somgpu_threads()
#' @export
somgpu_threads <- function() {
  max <- build_info()$max_threads
  n <- getOption("somgpu.threads")
  if (is.null(n)) {
    env <- Sys.getenv("SOMGPU_NUM_THREADS")
    if (nzchar(env)) n <- suppressWarnings(as.integer(env))
  }
  if (is.null(n) || length(n) != 1L || is.na(n) || n < 1) n <- max
  limit <- Sys.getenv("_R_CHECK_LIMIT_CORES_")
  if (nzchar(limit) && !identical(toupper(limit), "FALSE")) n <- min(n, 2L)
  as.integer(min(n, max))
}

resolve_threads <- function(threads, call) {
  if (is.null(threads)) return(somgpu_threads())
  threads <- check_whole(threads, "threads", 1, call = call)
  min(threads, build_info()$max_threads)
}

# The backend a call runs on. OpenCL is not part of this build yet.
resolve_backend <- function(backend, call) {
  backend <- check_choice(backend, "backend", c("auto", "cpu", "opencl"), call)
  if (backend == "opencl") {
    abort(paste0(
      "backend = \"opencl\" is not available: this build of somgpu has no OpenCL support. ",
      "Use backend = \"cpu\" (or \"auto\"); see backends()."),
      "somgpu_backend_error", call)
  }
  "cpu"
}
