# Memory planning: a call's dimensions (family_dims()), the compiled code's plan of every buffer
# it will allocate (C_memory_plan) and the refusal of a call the machine cannot hold,
# before anything is allocated.

# The dimensions of a family for the memory plan (C_memory_plan): rows, columns, maps, neurons;
# general: the data need the general distance (variable weights, missing values). This is
# the family before its maps exist (sizes as their count, sum and largest, so that a call
# for more maps than memory or an R list holds is refused before anything is built, counts
# beyond an integer included); once they exist C computes the same shape from the problem
# (som_family_of() in src/core/som_plan.c), which test-memory.R checks against this one.
family_dims <- function(sizes, n, m, restarts, iter_max, trace, algorithm, batch_block,
                         general, sourced = FALSE, clusters_in_r = TRUE, schedules = 1L) {
  list(n = as.double(n), m = m, nmaps = sizes$count * restarts,
       restarts = restarts, size_sum = sizes$sum * restarts, size_max = sizes$max,
       passes = iter_max - 1L, trace = trace, batch_block = batch_block, general = general,
       algorithm = algorithm, sourced = sourced, clusters_in_r = clusters_in_r,
       schedules = as.integer(min(schedules, int_max)))
}

# The sizes of a family from check_sizes()' spec, built once check_memory() has let the
# call through.
family_sizes <- function(spec) {
  if (is.null(spec$sizes)) seq.int(spec$range[1L], spec$range[2L]) else spec$sizes
}

# Refuse jobs that could not be allocated, before any allocation: the compiled code plans
# every buffer a call makes (R's results, the training buffers of the backend `spec` (none
# when future workers train: spec$here is FALSE), the assessment's), next to the code that
# allocates them; the host's share must fit the machine's memory (see memory_limit()).
check_memory <- function(family, spec, call) {
  nsizes <- family$nmaps / family$restarts
  refuse <- function(bytes, limit) {
    abort(sprintf(
      "These maps cannot be allocated: they need about %s of memory, more than the %s available (%d size%s x %d restart%s, %d columns). Use fewer or smaller sizes, or fewer restarts.",
      format_bytes(bytes), format_bytes(limit), as.integer(min(nsizes, int_max)),
      if (nsizes == 1) "" else "s", family$restarts,
      if (family$restarts == 1L) "" else "s", family$m),
      c("somgpu_memory_error", "somgpu_input_error"), call)
  }
  limit <- memory_limit(call)
  # beyond what the plan can count: more maps than an R list holds, a matrix beyond 2^52
  if (family$nmaps > int_max || as.double(family$size_max) * family$m > 2^52) {
    refuse(8 * family$size_sum * family$m, limit)
  }
  family$nmaps <- as.integer(family$nmaps)
  plan <- call_core("plan the memory", call, function() .Call(C_memory_plan, family, spec))
  bytes <- sum(plan$bytes[plan$where == "host"])
  if (bytes > limit) refuse(bytes, limit)
  invisible(plan)
}

# Bytes a call may plan to use: the option `somgpu.max_memory`, else the machine's physical
# memory where it can be read, else 2^52.
memory_limit <- function(call = NULL) {
  opt <- option_value("somgpu.max_memory", NULL,
                      function(v, name) check_positive(v, name, call = call))
  if (!is.null(opt)) return(opt)
  phys <- physical_memory()
  if (is.finite(phys) && phys > 0) phys else 2^52
}

physical_memory <- function() {
  if (!is.null(memory_cache$physical)) return(memory_cache$physical)
  memory_cache$physical <- read_physical_memory()
  memory_cache$physical
}
memory_cache <- new.env(parent = emptyenv()) # the machine's memory, read once a session

read_physical_memory <- function() {
  if (file.exists("/proc/meminfo")) {
    line <- grep("^MemTotal:", readLines("/proc/meminfo", warn = FALSE), value = TRUE)
    kb <- suppressWarnings(as.double(gsub("[^0-9]", "", line[1L])))
    if (length(kb) == 1L && !is.na(kb)) return(kb * 1024)
  }
  if (Sys.info()[["sysname"]] == "Darwin") {
    out <- tryCatch(suppressWarnings(system2("sysctl", c("-n", "hw.memsize"), stdout = TRUE,
                                             stderr = FALSE)),
                    error = function(e) NA_character_)
    b <- suppressWarnings(as.double(out[1L]))
    if (length(b) == 1L && !is.na(b)) return(b)
  }
  NA_real_
}

# Bytes free for new data now: the smaller of the option somgpu.max_memory and what the
# system has available (MemAvailable on Linux; elsewhere the physical memory), Inf where
# neither can be read.
available_memory <- function() {
  avail <- NA_real_
  if (file.exists("/proc/meminfo")) {
    line <- grep("^MemAvailable:", readLines("/proc/meminfo", warn = FALSE), value = TRUE)
    kb <- suppressWarnings(as.double(gsub("[^0-9]", "", line[1L])))
    if (length(kb) == 1L && !is.na(kb)) avail <- kb * 1024
  }
  if (is.na(avail)) avail <- physical_memory()
  opt <- getOption("somgpu.max_memory")
  min(if (is.na(avail)) Inf else avail, if (is.numeric(opt) && length(opt) == 1L) opt else Inf)
}

format_bytes <- function(b) {
  units <- c("B", "kB", "MB", "GB", "TB", "PB", "EB", "ZB", "YB")
  i <- max(1L, min(length(units), floor(log(max(b, 1), 1000)) + 1L))
  sprintf("%.3g %s", b / 1000^(i - 1L), units[i])
}
