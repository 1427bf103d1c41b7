# Backends: what this build offers (backends()) and which one a call uses (resolve_backend();
# "auto" weighs the work), over the registry (R/backend_registry.R).

#' Backends available in this build of somgpu
#'
#' Lists the training backends, whether each can be used here, and details: the number of
#' threads of the CPU backend, the OpenCL devices found.
#'
#' @return A data frame with one row per backend and columns `backend`, `available`
#'   (logical) and `detail`.
#' @seealso [devices()], [train()], [somgpu_threads()]
#' @examples
#' backends()
#' @export
backends <- function() {
  offers <- lapply(backend_table(), function(e) e$offer())
  data.frame(backend = names(offers),
             available = unname(vapply(offers, function(o) o$available, logical(1))),
             detail = unname(vapply(offers, function(o) o$detail, character(1))),
             stringsAsFactors = FALSE)
}

# Where a call runs, from the checked arguments of check_backend_args(): list(name, precision,
# and for a backend with devices the device row). "auto" asks the backends in their rank
# (auto_backend()); "auto" with a device, or a backend named, is that backend's resolve().
# work: the job's size for "auto" (auto_work()), or NULL (large enough for any device).
resolve_backend <- function(args, call, work = NULL) {
  table <- backend_table()
  if (args$backend == "auto" && is.null(args$device)) return(auto_backend(table, args, call, work))
  name <- if (args$backend == "auto") device_backend(table) else args$backend
  table[[name]]$resolve(args, call)
}

# backend = "auto" without a device: the first backend of `table` (the registry's entries)
# in rank that takes the job.
auto_backend <- function(table, args, call, work = NULL) {
  for (entry in table[order(vapply(table, function(e) e$rank, numeric(1)))]) {
    be <- entry$auto(args, call, work)
    if (!is.null(be)) return(be)
  }
  check_internal(FALSE, "no backend takes the job")
}

# The backend whose devices train()'s `device` selects.
device_backend <- function(table) names(table)[vapply(table, function(e) e$devices, logical(1))][1L]

# What "auto" weighs: the CPU backend's estimated seconds for a family (family_dims()) on
# `threads` threads (the compiled code's work units, as it cuts its slices, at
# SOM_CPU_UNITS_PER_SECOND per thread), and the number of maps.
auto_work <- function(family, threads) {
  k <- constants()
  units <- family$passes * family$n *
    (family$size_sum * (family$m + 1) + k$point_units * family$nmaps)
  list(seconds = units / (k$cpu_units_per_second * threads), maps = family$nmaps,
       algorithm = family$algorithm)
}

# The checks of backend, device and precision that need no device: train() makes them
# before shipping a call to future workers, which resolve the backend on their own machines.
check_backend_args <- function(backend, device, precision, call) {
  backend <- check_choice(backend, "backend", c("auto", constants()$backends), call)
  precision <- check_choice(precision, "precision", c("double", "single"), call)
  if (!is.null(device)) {
    ok <- (is.numeric(device) && !is.object(device) && length(device) == 1L &&
             !is.na(device) && is.finite(device) && device == round(device) && device >= 1) ||
      (is.character(device) && length(device) == 1L && !is.na(device) && nzchar(device))
    if (!ok) {
      abort_input(sprintf(
        "`device` must be NULL, a device index or a pattern matching a device name (see devices()), not %s.",
        describe(device)), call)
    }
  }
  table <- backend_table()
  if (!is.null(device) && backend != "auto" && !table[[backend]]$devices) {
    abort_input(sprintf("`device` selects an %s device; it cannot be used with backend = \"%s\".",
                        table[[device_backend(table)]]$label, backend), call)
  }
  list(backend = backend, device = device, precision = precision)
}
