# Shared by the benchmark scripts: timing, the machine line, and the somgpu backends to time.
suppressMessages(library(somgpu))

# Median elapsed seconds of `reps` runs of f(), after one warm-up run (which also builds
# and caches OpenCL kernels).
time_median <- function(f, reps) {
  f()
  t <- vapply(seq_len(reps), function(i) {
    t0 <- proc.time()[["elapsed"]]
    f()
    proc.time()[["elapsed"]] - t0
  }, numeric(1))
  median(t)
}

# expr's value and the elapsed seconds it took: list(value, seconds).
timed <- function(expr) {
  t0 <- proc.time()[["elapsed"]]
  value <- expr
  list(value = value, seconds = proc.time()[["elapsed"]] - t0)
}

machine_line <- function() {
  cpu <- if (file.exists("/proc/cpuinfo")) {
    trimws(sub(".*: ", "", grep("model name", readLines("/proc/cpuinfo"), value = TRUE)[1]))
  } else {
    Sys.info()[["machine"]]
  }
  sprintf("machine: %s, %d logical CPUs; %s; somgpu %s", cpu, parallel::detectCores(),
          R.version.string, utils::packageVersion("somgpu"))
}

# The somgpu configurations worth timing here: the CPU backend with 1 thread and with
# every thread (at most 2 in the figures we publish), in single precision with every
# thread, and each OpenCL device in double (where it has fp64) and single precision.
somgpu_configs <- function() {
  # fixed counts (not the load-aware default): 1, and every processor up to 2
  th <- unique(c(1L, min(2L, somgpu:::build_info()$max_threads)))
  cfg <- lapply(th, function(t) {
    list(label = sprintf("somgpu cpu, %d thread%s", t, if (t == 1) "" else "s"),
         args = list(backend = "cpu", threads = t))
  })
  t <- max(th)
  cfg[[length(cfg) + 1L]] <- list(
    label = sprintf("somgpu cpu single, %d thread%s", t, if (t == 1) "" else "s"),
    args = list(backend = "cpu", threads = t, precision = "single"))
  d <- devices()
  for (i in seq_len(nrow(d))) {
    for (prec in c(if (d$fp64[i]) "double", "single")) {
      cfg[[length(cfg) + 1L]] <- list(
        label = sprintf("somgpu opencl %s, %s (%s)", prec, d$type[i], substr(d$name[i], 1, 24)),
        args = list(backend = "opencl", device = i, precision = prec))
    }
  }
  cfg
}

# Seconds of train(y, ...) in a fresh R process: the cold first call, kernel build included
# when OpenCL runs (with an empty PoCL cache).
cold_call <- function(y_code, args_code) {
  cache <- tempfile("pocl-cold-")
  dir.create(cache)
  script <- tempfile(fileext = ".R")
  writeLines(c(
    sprintf("Sys.setenv(POCL_CACHE_DIR = %s)", deparse(cache)),
    "t0 <- proc.time()[['elapsed']]",
    "suppressMessages(library(somgpu))",
    y_code,
    sprintf("fit <- train(y, %s)", args_code),
    "cat(proc.time()[['elapsed']] - t0, '\\n')"), script)
  out <- system2(file.path(R.home("bin"), "Rscript"), script, stdout = TRUE, stderr = TRUE)
  as.numeric(out[length(out)])
}

# R code run in a fresh Rscript process for at most `limit` seconds, which saves its result
# to the file `out`: that result, or NULL when it ran out of time or failed. `log`: a file
# for the process's output (FALSE: none kept).
run_fresh <- function(code, out, limit, log = FALSE) {
  src <- tempfile(fileext = ".R")
  writeLines(code, src)
  status <- system2("timeout", c(limit, file.path(R.home("bin"), "Rscript"), src),
                    stdout = log, stderr = log)
  if (status != 0 || !file.exists(out)) return(NULL)
  readRDS(out)
}

# The adjusted Rand index of two partitions over the rows both assign (NA: a row left out).
ari_of <- function(a, b) {
  ok <- !is.na(a) & !is.na(b)
  mclust::adjustedRandIndex(a[ok], b[ok])
}

# k Gaussian groups in d columns, the same groups at every n: centres N(0, 4^2) per
# coordinate (seed 1), each row's group drawn uniformly (seed 2), unit noise. list(x, g:
# each row's group). The data of bench_select_scale.R (6 groups) and bench_select_profile.R.
gaussian_groups <- function(n, d = 10, k = 6) {
  set.seed(1)
  centres <- matrix(rnorm(k * d, sd = 4), k)
  set.seed(2)
  g <- sample.int(k, n, replace = TRUE)
  list(x = centres[g, , drop = FALSE] + matrix(rnorm(n * d), n), g = g)
}
