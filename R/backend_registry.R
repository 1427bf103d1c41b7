# The registry of backends, R's side of C's (src/r/r_backend.c): an entry per backend that
# users choose, keyed by the names C gives (constants()$backends), and what every caller
# asks of a resolved backend through it: the settings C reads (backend_spec()), its record
# in a fit (backend_record()), a family trained on it in this process (train_on_backend()).
# Nothing here or above names a backend; a new one is an entry (see CONTRIBUTING.md, "Where a
# change goes").

# The entries, in the order of constants()$backends. Each is a list of
#   label    the backend's name in messages
#   devices  TRUE when train()'s `device` selects one of its devices
#   rank     the order in which backend = "auto" asks the backends (lowest first)
#   options  function(call): the somgpu.* options it runs with, checked
#   spec     function(be, options, call): its settings for C (after name, threads, here)
#   record   function(be, threads, kernels): what ran, for fit$backend (after its name)
#   offer    function(): list(available, detail), its row of backends()
#   resolve  function(args, call): the backend for checked arguments that name it
#   auto     function(args, call, work): the backend when "auto" asks it and it takes the
#            job, else NULL (the last in rank takes any)
#   failed   function(be, e): after a run failed with e (NULL: nothing to do)
backend_table <- function() {
  table <- list(
    cpu = list(label = "CPU", devices = FALSE, rank = 2, options = cpu_options,
               spec = cpu_spec, record = cpu_record, offer = cpu_offer,
               resolve = cpu_resolve, auto = cpu_resolve, failed = NULL),
    opencl = list(label = "OpenCL", devices = TRUE, rank = 1, options = opencl_options,
                  spec = opencl_spec, record = opencl_record, offer = opencl_offer,
                  resolve = opencl_resolve, auto = opencl_auto, failed = opencl_failed))
  table[constants()$backends]
}

# The entry of a backend by name.
backend_entry <- function(name) {
  entry <- backend_table()[[name]]
  check_internal(!is.null(entry), sprintf("no backend named '%s' in the registry", name))
  entry
}

# The settings of a resolved backend as C_train and C_memory_plan read them: its name, the
# threads, whether the maps train in this process (here; FALSE: on future workers, for
# memory plans), then its own (the entry's spec(), from its options in `options`, as
# backend_options() gives them).
backend_spec <- function(be, threads, options, call, here = TRUE) {
  c(list(name = be$name, threads = threads, here = here),
    backend_entry(be$name)$spec(be, options[[be$name]], call))
}

# The somgpu.* options every backend runs with, checked: a list by backend name.
backend_options <- function(call) lapply(backend_table(), function(e) e$options(call))

# What ran, for fit$backend.
backend_record <- function(be, threads, kernels) {
  c(list(name = be$name), backend_entry(be$name)$record(be, threads, kernels))
}

# Rows per block of the batch sums (option somgpu.batch_block; the default comes from the
# compiled code): the sums of each block are taken in row order and the blocks added
# pairwise in block order (src/core/som_math.h), so it is part of what defines a batch result;
# tests make it small to exercise many blocks.
batch_block_size <- function(call) {
  option_value("somgpu.batch_block", constants()$batch_block,
               function(v, name) check_whole(v, name, 1, call = call))
}

# Train the maps of `problem` on the resolved backend `be` (its C settings in `spec`, from
# backend_spec()): list(weights, one matrix per map; trace, passes x maps or NULL; kernels,
# the names of the OpenCL kernels that ran). `progress`: TRUE / FALSE (cli's bar) or a
# function of the share done. A failure goes to the backend's entry first (failed()).
train_on_backend <- function(x, problem, be, spec, progress, call) {
  failed <- backend_entry(be$name)$failed
  withCallingHandlers(
    call_core("train the maps", call, function() .Call(C_train, x, problem, spec, progress)),
    somgpu_error = function(e) if (!is.null(failed)) failed(be, e))
}
