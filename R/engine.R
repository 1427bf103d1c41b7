# A resolved backend run in this process: the settings C reads (backend_spec()), its record
# in the fit, and a family trained on it (train_on_backend()).

# The settings of a resolved backend as C_train and C_memory_plan read them: threads, the
# CPU's work per round between interrupt checks, or the OpenCL context (built here on
# first use) and the OpenCL options; `options` from backend_options(). here: the maps train
# in this process (FALSE: on future workers; for memory plans).
backend_spec <- function(be, threads, options, call, here = TRUE) {
  if (be$name == "cpu") {
    return(list(name = "cpu", threads = threads, round_units = options$round_units,
                precision = if (is.null(be$precision)) "double" else be$precision,
                here = here))
  }
  c(list(name = "opencl", threads = threads, here = here,
         context = opencl_context(be$device$index, be$precision, call)),
    options$opencl)
}

# The somgpu.* options the backends run with, checked: the CPU's round units and the
# OpenCL options.
backend_options <- function(call) {
  list(round_units = cpu_round_units(call), opencl = opencl_options(call))
}

# What ran, for fit$backend.
backend_record <- function(be, threads, kernels) {
  if (be$name == "cpu") {
    return(list(name = "cpu", device = cpu_device_name(threads), precision = be$precision,
                threads = threads))
  }
  list(name = "opencl",
       device = sprintf("%s (%s, %s)", be$device$name, be$device$platform, be$device$type),
       precision = be$precision, threads = threads, index = be$device$index,
       kernels = kernels)
}

# The CPU backend's work per round between interrupt checks (0 = the default; tests make it
# tiny).
cpu_round_units <- function(call = NULL) {
  option_value("somgpu.cpu_round_units", 0, function(v, name) {
    check_number(v, name, 0, 1e15, call = call)
  })
}

# Rows per block of the batch sums (option somgpu.batch_block; the default comes from the
# compiled code): the sums of each block are taken in row order and the blocks added
# pairwise in block order (src/core/som_math.h), so it is part of what defines a batch result;
# tests make it small to exercise many blocks.
batch_block_size <- function(call) {
  option_value("somgpu.batch_block", constants()$batch_block,
               function(v, name) check_whole(v, name, 1, call = call))
}

cpu_device_name <- function(threads) {
  sprintf("CPU (%s, %d thread%s)", if (build_info()$openmp) "OpenMP" else "serial", threads,
          if (threads == 1L) "" else "s")
}

# Train the maps of `problem` on the resolved backend `be` (its C settings in `spec`, from
# backend_spec()): list(weights, one matrix per map; trace, passes x maps or NULL; kernels,
# the names of the OpenCL kernels that ran). `progress`: TRUE / FALSE (cli's bar) or a
# function of the share done.
train_on_backend <- function(x, problem, be, spec, progress, call) {
  withCallingHandlers(
    call_core("train the maps", call, function() .Call(C_train, x, problem, spec, progress)),
    somgpu_opencl_error = function(e) opencl_forget(be$device$index, be$precision))
}
