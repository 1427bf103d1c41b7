# Backends: what this build offers (backends()) and which one a call uses (resolve_backend(),
# choose_device(); "auto" weighs the work).

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
  info <- build_info()
  nth <- somgpu_threads()
  ocl <- if (!info$opencl) {
    "not built: reinstall with the OpenCL headers and ICD loader (Debian: opencl-headers, ocl-icd-opencl-dev)"
  } else {
    d <- device_table()
    if (nrow(d) == 0L) "built, but no OpenCL device found (install a driver, e.g. Debian's pocl-opencl-icd)"
    else paste(sprintf("%d: %s (%s)", d$index, d$name, d$type), collapse = "; ")
  }
  data.frame(
    backend = c("cpu", "opencl"),
    available = c(TRUE, info$opencl && !startsWith(ocl, "built, but")),
    detail = c(sprintf("C, %s, up to %d thread%s, %s vectors",
                       if (info$openmp) "OpenMP" else "serial (no OpenMP)", nth,
                       if (nth == 1L) "" else "s", info$simd),
               ocl),
    stringsAsFactors = FALSE
  )
}

# Device preference when none is named: GPUs, then accelerators, then CPUs.
type_rank <- function(type) match(type, c("GPU", "ACCELERATOR", "CPU", "OTHER"))

# Where a call runs, from the checked arguments of check_backend_args(): list(name = "cpu"
# | "opencl", precision, and for OpenCL the device row).
# work: the job's size for "auto" (auto_work()), or NULL (large enough for any device).
resolve_backend <- function(args, call, work = NULL) {
  if (args$backend == "cpu") return(list(name = "cpu", precision = args$precision))
  built <- build_info()$opencl
  table <- if (built) device_table(call) else NULL
  choose_device(table, built, args$backend, args$device, args$precision, call, work)
}

# What "auto" weighs: the CPU backend's estimated seconds for a family (family_shape()) on
# `threads` threads (the compiled code's work units, as it cuts its slices, at
# SOM_CPU_UNITS_PER_SECOND per thread), and the number of maps.
auto_work <- function(family, threads) {
  k <- constants()
  units <- family$passes * family$n *
    (family$size_sum * (family$m + 1) + k$point_units * family$nmaps)
  list(seconds = units / (k$cpu_units_per_second * threads), maps = family$nmaps,
       algorithm = family$algorithm)
}

# Whether a job is big enough for a GPU (see ?train, backend): the CPU backend would take
# at least somgpu.auto_gpu_seconds, and online training has at least somgpu.auto_gpu_maps
# maps (a GPU trains the maps of an online family side by side, each map's points in order:
# a few maps leave it idle).
gpu_pays_off <- function(work, call = NULL) {
  if (is.null(work)) return(TRUE)
  secs <- option_value("somgpu.auto_gpu_seconds", 1, function(v, name) {
    check_number(v, name, 0, Inf, call = call)
  })
  maps <- option_value("somgpu.auto_gpu_maps", 32, function(v, name) {
    check_whole(v, name, 1, call = call)
  })
  work$seconds >= secs && (work$algorithm == "batch" || work$maps >= maps)
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
  if (backend == "cpu") {
    if (!is.null(device)) {
      abort_input("`device` selects an OpenCL device; it cannot be used with backend = \"cpu\".", call)
    }
  }
  list(backend = backend, device = device, precision = precision)
}

# The pure part of resolve_backend(): pick from a device table (as device_table() returns).
# "auto" without a device takes a GPU or accelerator that supports the precision when the
# job is big enough for it (gpu_pays_off(work)), else the CPU backend: an OpenCL CPU device
# (PoCL) does the CPU backend's work, more slowly, after a kernel build, so "auto" leaves it
# to backend = "opencl".
choose_device <- function(table, built, backend, device, precision, call, work = NULL) {
  if (backend == "auto" && is.null(device)) {
    fast <- !is.null(table) && nrow(table) > 0L
    if (fast) {
      usable <- table[table$type %in% c("GPU", "ACCELERATOR") &
                        (precision == "single" | table$fp64), , drop = FALSE]
      fast <- nrow(usable) > 0L && gpu_pays_off(work, call)
    }
    if (!fast) return(list(name = "cpu", precision = precision))
    dev <- usable[order(type_rank(usable$type), usable$index)[1L], ]
    return(list(name = "opencl", precision = precision, device = dev))
  }
  if (built && build_info()$opencl_forked) {
    abort(paste0(
      "OpenCL cannot be used in a process forked after its parent used OpenCL ",
      "(parallel::mclapply): use a socket cluster (parallel::makeCluster), or ",
      "backend = \"cpu\" in forked children."),
      "somgpu_backend_error", call)
  }
  if (!built) {
    abort(paste0(
      "The OpenCL backend is not available: this build of somgpu has no OpenCL support. ",
      "Reinstall with the OpenCL headers and ICD loader (Debian: opencl-headers, ",
      "ocl-icd-opencl-dev) or use backend = \"cpu\"; see backends()."),
      "somgpu_backend_error", call)
  }
  if (is.null(table) || nrow(table) == 0L) {
    abort(paste0(
      "The OpenCL backend is not available: no OpenCL device was found. Install a driver ",
      "(for the CPU, Debian's pocl-opencl-icd) or use backend = \"cpu\"; see devices()."),
      "somgpu_backend_error", call)
  }
  dev <- if (is.null(device)) {
    table[order(type_rank(table$type), table$index)[1L], ]
  } else if (is.numeric(device)) {
    if (device > nrow(table)) {
      abort_input(sprintf("`device` = %d, but there %s only %d OpenCL device%s; see devices().",
                          as.integer(device), if (nrow(table) == 1L) "is" else "are",
                          nrow(table), if (nrow(table) == 1L) "" else "s"), call)
    }
    table[device, ]
  } else {
    # a name that is not a valid regular expression is matched literally, without warnings
    hit <- tryCatch(suppressWarnings(grep(device, table$name, ignore.case = TRUE)),
                    error = function(e) grep(device, table$name, fixed = TRUE))
    if (!length(hit)) {
      abort_input(sprintf("No OpenCL device name matches \"%s\"; the devices are: %s.",
                          device, paste(sprintf("%d: %s", table$index, table$name),
                                        collapse = "; ")), call)
    }
    table[hit[1L], ]
  }
  if (precision == "double" && !dev$fp64) {
    abort(sprintf(
      "Device %d (%s) has no double precision (fp64). Use precision = \"single\", or another device.",
      dev$index, dev$name), c("somgpu_backend_error", "somgpu_input_error"), call)
  }
  list(name = "opencl", precision = precision, device = dev)
}

