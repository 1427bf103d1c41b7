# OpenCL devices and the per-session cache of built programs.

# Session state: built OpenCL contexts by "index precision".
.state <- new.env(parent = emptyenv())
.state$contexts <- list()

# Every device with all it reports, or zero rows. Internal: devices() shows a subset. In a
# child forked after this process used OpenCL, there are none to use (see choose_device()).
device_table <- function(call = NULL) {
  cols <- if (build_info()$opencl_forked) {
    list(platform = character(0), name = character(0), type = character(0),
         version = character(0), compute_units = integer(0), global_mem = numeric(0),
         max_alloc = numeric(0), local_mem = numeric(0), max_group = numeric(0),
         fp64 = logical(0))
  } else {
    call_core("list the OpenCL devices", call, function() .Call(C_ocl_devices))
  }
  n <- length(cols$name)
  data.frame(index = seq_len(n), platform = cols$platform, name = cols$name,
             type = cols$type, version = cols$version, compute_units = cols$compute_units,
             global_mem = cols$global_mem, max_alloc = cols$max_alloc,
             local_mem = cols$local_mem, max_group = cols$max_group, fp64 = cols$fp64,
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

# Options of the OpenCL run (mostly for tests and tuning; see ?train, "Options"):
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
       group_min_size = opt("group_min_size", 0L, function(v, name) {
         check_whole(v, name, 0, call = call)
       }),
       max_alloc = opt("max_alloc", 0, function(v, name) check_number(v, name, 0, call = call)),
       launch_seconds = opt("launch_seconds", 0, function(v, name) {
         check_positive(v, name, max = 3600, call = call)
       }),
       group_local = opt("group_local", TRUE, function(v, name) check_flag(v, name, call)),
       stream_data = opt("stream_data", FALSE, function(v, name) check_flag(v, name, call)),
       local_mem = opt("local_mem", 0, function(v, name) check_number(v, name, 0, call = call)))
}
