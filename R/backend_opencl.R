# The OpenCL backend: its devices, the per-session cache of built programs, and its entry in
# the registry of backends (R/backend_registry.R): the options it runs with, its settings for C,
# its record in a fit, what backends() says of it, the device a call uses (named, or for
# "auto" a GPU when the job is big enough for it), and what a failed run leaves.

# Session state: built OpenCL contexts by "index precision".
.state <- new.env(parent = emptyenv())
.state$contexts <- list()

# Every device with all it reports, or zero rows. Internal: devices() shows a subset. In a
# child forked after this process used OpenCL, there are none to use (see opencl_device()).
device_table <- function(call = NULL) {
  cols <- if (build_info()$opencl_forked) {
    list(platform = character(0), name = character(0), type = character(0),
         version = character(0), compute_units = integer(0), global_mem = numeric(0),
         max_alloc = numeric(0), local_mem = numeric(0), max_wg = numeric(0),
         fp64 = logical(0))
  } else {
    call_core("list the OpenCL devices", call, function() .Call(C_ocl_devices))
  }
  n <- length(cols$name)
  data.frame(index = seq_len(n), platform = cols$platform, name = cols$name,
             type = cols$type, version = cols$version, compute_units = cols$compute_units,
             global_mem = cols$global_mem, max_alloc = cols$max_alloc,
             local_mem = cols$local_mem, max_wg = cols$max_wg, fp64 = cols$fp64,
             stringsAsFactors = FALSE)
}

#' OpenCL devices
#'
#' Lists the OpenCL devices this build of somgpu can train on: GPUs, accelerators, and CPUs
#' through an OpenCL implementation such as PoCL. The `index` (or a pattern matching the
#' `name`) selects a device in [train()]'s `device` argument.
#'
#' @return A data frame with one row per device and columns `index`, `platform`, `name`,
#'   `type` (`"GPU"`, `"CPU"`, `"ACCELERATOR"` or `"OTHER"`), `version`, `compute_units`,
#'   `global_mem_gb` (global memory in GiB), `max_alloc_gb` (largest single buffer, GiB) and
#'   `fp64` (double precision support). Zero rows, not an error, when the build has no
#'   OpenCL support or the machine has no OpenCL platform.
#' @seealso [backends()], [train()]
#' @examples
#' devices()
#' @export
devices <- function() {
  d <- device_table(sys.call())
  data.frame(index = d$index, platform = d$platform, name = d$name, type = d$type,
             version = d$version, compute_units = d$compute_units,
             global_mem_gb = d$global_mem / 2^30, max_alloc_gb = d$max_alloc / 2^30,
             fp64 = d$fp64, stringsAsFactors = FALSE)
}

# The built context for a device and precision, built on first use and kept for the session.
opencl_context <- function(index, precision, call) {
  key <- paste(index, precision)
  ctx <- .state$contexts[[key]]
  if (is.null(ctx) || !.Call(C_ocl_valid, ctx)) {
    ctx <- call_core("build the OpenCL kernels", call, function() {
      .Call(C_ocl_open, list(index = index, precision = precision, source = NULL))
    })
    .state$contexts[[key]] <- ctx
  }
  ctx
}

# Forget a context after an OpenCL failure during training: it may be broken (a lost
# device, a watchdog kill), and the next call builds a fresh one.
opencl_forget <- function(index, precision) {
  key <- paste(index, precision)
  ctx <- .state$contexts[[key]]
  if (!is.null(ctx)) .Call(C_ocl_close, ctx)
  .state$contexts[[key]] <- NULL
  invisible(NULL)
}

# Release every cached context (the next OpenCL call builds again).
opencl_release <- function() {
  for (ctx in .state$contexts) .Call(C_ocl_close, ctx)
  .state$contexts <- list()
  invisible(NULL)
}

# Options of the OpenCL run (mostly for tests and tuning; see ?train, "Options"), as the
# list C reads (src/r/r_backend.c); in the options' names users write, "group" is the
# work-group (wg in the list):
#   somgpu.opencl_kernel          "auto", "item" (a work-item per map) or "group"
#   somgpu.opencl_group_min_size  with "auto", maps of at least this size use "group"
#                                 (0: 32 on GPUs, 512 on CPU devices)
#   somgpu.opencl_group_local     FALSE keeps the work-group kernel's weights in global memory
#   somgpu.opencl_max_alloc       bytes: a cap below the device's largest buffer
#   somgpu.opencl_launch_seconds  target length of one kernel launch (interrupt latency; 0,
#                                 unset: the compiled default, 0.2 s)
#   somgpu.opencl_stream_data     TRUE: batch uploads the data chunk by chunk every pass, as
#                                 it does when they do not fit on the device
#   somgpu.opencl_local_mem       bytes of local memory the kernels may use, below the
#                                 device's (1: none, the paths without local memory; 0, unset:
#                                 the device's)
opencl_options <- function(call = NULL) {
  opt <- function(name, default, check) option_value(paste0("somgpu.opencl_", name), default, check)
  kernel <- opt("kernel", "auto", function(v, name) {
    check_choice(v, name, c("auto", "item", "group"), call)
  })
  list(kernel = kernel,
       wg_min_size = opt("group_min_size", 0L, function(v, name) {
         check_whole(v, name, 0, call = call)
       }),
       max_alloc = opt("max_alloc", 0, function(v, name) check_number(v, name, 0, call = call)),
       launch_seconds = opt("launch_seconds", 0, function(v, name) {
         check_positive(v, name, max = 3600, call = call)
       }),
       wg_local = opt("group_local", TRUE, function(v, name) check_flag(v, name, call)),
       stream_data = opt("stream_data", FALSE, function(v, name) check_flag(v, name, call)),
       local_mem = opt("local_mem", 0, function(v, name) check_number(v, name, 0, call = call)))
}

# Its settings as C reads them (src/r/r_backend.c, read_ocl): the device's context (built
# here on first use) and the options (opencl_options()).
opencl_spec <- function(be, options, call) {
  c(list(context = opencl_context(be$device$index, be$precision, call)), options)
}

# What ran, for fit$backend (after its name).
opencl_record <- function(be, threads, kernels) {
  list(device = sprintf("%s (%s, %s)", be$device$name, be$device$platform, be$device$type),
       precision = be$precision, threads = threads, index = be$device$index,
       kernels = kernels)
}

# Its row of backends(): available when built and a device was found; the devices.
opencl_offer <- function() {
  built <- build_info()$opencl
  detail <- if (!built) {
    "not built: reinstall with the OpenCL headers and ICD loader (Debian: opencl-headers, ocl-icd-opencl-dev)"
  } else {
    d <- device_table()
    if (nrow(d) == 0L) "built, but no OpenCL device found (install a driver, e.g. Debian's pocl-opencl-icd)"
    else paste(sprintf("%d: %s (%s)", d$index, d$name, d$type), collapse = "; ")
  }
  list(available = built && !startsWith(detail, "built, but"), detail = detail)
}

# After a failed run: an OpenCL failure may leave the context broken (a lost device, a
# watchdog kill), so the next call builds a fresh one.
opencl_failed <- function(be, e) {
  if (inherits(e, "somgpu_opencl_error")) opencl_forget(be$device$index, be$precision)
}

# The devices this process can use: none without OpenCL (NULL).
opencl_devices <- function(call) if (build_info()$opencl) device_table(call)

# The OpenCL backend for checked backend arguments (check_backend_args()), named (or "auto"
# with a device): the device asked for (opencl_device()).
opencl_resolve <- function(args, call) {
  opencl_device(opencl_devices(call), build_info()$opencl, args$device, args$precision, call)
}

# "auto" without a device: a GPU or accelerator when the job is big enough for it
# (opencl_gpu()), else NULL (the next backend in rank).
opencl_auto <- function(args, call, work = NULL) {
  opencl_gpu(opencl_devices(call), args$precision, work, call)
}

# Device preference when none is named: GPUs, then accelerators, then CPUs.
type_rank <- function(type) match(type, c("GPU", "ACCELERATOR", "CPU", "OTHER"))

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

# The pure part of opencl_auto(): from a device table (as device_table() returns), a GPU
# or accelerator that supports the precision when the job is big enough for it
# (gpu_pays_off(work)), else NULL. An OpenCL CPU device (PoCL) does the CPU backend's work,
# more slowly, after a kernel build, so "auto" leaves it to backend = "opencl".
opencl_gpu <- function(table, precision, work = NULL, call = NULL) {
  if (is.null(table) || nrow(table) == 0L) return(NULL)
  usable <- table[table$type %in% c("GPU", "ACCELERATOR") &
                    (precision == "single" | table$fp64), , drop = FALSE]
  if (nrow(usable) == 0L || !gpu_pays_off(work, call)) return(NULL)
  dev <- usable[order(type_rank(usable$type), usable$index)[1L], ]
  list(name = "opencl", precision = precision, device = dev)
}

# The pure part of opencl_resolve(): the device asked for (NULL: the first by type_rank(),
# an index, or a pattern matching a name) from a device table, or an error that says why
# there is none.
opencl_device <- function(table, built, device, precision, call) {
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
