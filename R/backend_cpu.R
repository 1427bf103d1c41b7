# The CPU backend's entry in the registry of backends (R/backend_registry.R): the options it runs
# with, its settings for C, its record in a fit, what backends() says of it, and "auto"'s
# last resort.

# The CPU backend's work per round between interrupt checks (0 = the default; tests make it
# tiny).
cpu_round_units <- function(call = NULL) {
  option_value("somgpu.cpu_round_units", 0, function(v, name) {
    check_number(v, name, 0, 1e15, call = call)
  })
}

# The somgpu.* options the CPU backend runs with, checked.
cpu_options <- function(call) list(round_units = cpu_round_units(call))

# Its settings as C reads them (src/r/r_backend.c, read_cpu); `options` from cpu_options().
cpu_spec <- function(be, options, call) {
  list(round_units = options$round_units,
       precision = if (is.null(be$precision)) "double" else be$precision)
}

cpu_device_name <- function(threads) {
  sprintf("CPU (%s, %d thread%s)", if (build_info()$openmp) "OpenMP" else "serial", threads,
          if (threads == 1L) "" else "s")
}

# What ran, for fit$backend (after its name).
cpu_record <- function(be, threads, kernels) {
  list(device = cpu_device_name(threads), precision = be$precision, threads = threads)
}

# Its row of backends(): always available.
cpu_offer <- function() {
  info <- build_info()
  nth <- somgpu_threads()
  list(available = TRUE,
       detail = sprintf("C, %s, up to %d thread%s, %s vectors",
                        if (info$openmp) "OpenMP" else "serial (no OpenMP)", nth,
                        if (nth == 1L) "" else "s", info$simd))
}

# The CPU backend for checked backend arguments (check_backend_args()): named, or as "auto"'s
# last resort, any job.
cpu_resolve <- function(args, call, work = NULL) list(name = "cpu", precision = args$precision)
