# Malformed and hostile inputs for train() and predict(), run by test-fuzz.R in a child R
# process (a crash there fails the test instead of killing the suite). Every case must end
# in an error of class somgpu_error or in a valid result (helper-valid.R); nothing else (no
# other error, no warning, no crash) is acceptable.

# A small valid problem every case starts from.
fuzz_base <- function() {
  y <- withr::with_seed(7, matrix(runif(40 * 3), 40, 3,
                                  dimnames = list(NULL, c("a", "b", "c"))))
  list(y = y, nmax = 4, iter_max = 4, seed = 1, progress = FALSE)
}

# Ways to spoil the data (all of them, from the valid data y).
bad_data_list <- function(y) {
  n <- nrow(y)
  list(
    NULL,
    "text",
    matrix(as.character(y), n),
    y > 0.5,
    y + 0i,
    as.list(as.data.frame(y)),
    data.frame(y, f = factor(rep(c("u", "v"), length.out = n))),
    data.frame(y, s = "x"),
    y[0, , drop = FALSE],
    y[1, , drop = FALSE],
    y[1:2, , drop = FALSE],
    y[, 0, drop = FALSE],
    array(y, c(n, 3, 1)),
    array(1, c(2, 2, 2)),
    { z <- y; z[3, 2] <- NA; z },
    { z <- y; z[, 1] <- NaN; z },
    { z <- y; z[5, 3] <- Inf; z },
    { z <- y; z[7, 1] <- -Inf; z },
    { z <- y; z[1, 1] <- 1e308; z },
    { z <- y; z[] <- 1e308; z },
    { z <- y; z[, 2] <- -1e308; z },
    y * 1e150,
    y * 1e-310,
    { z <- y; z[] <- 5e-324; z },
    { z <- y; z[, 2] <- 0; z },
    { z <- y; z[, 1] <- 3; z },
    matrix(0.25, n, 3),
    y[rep(1, n), ],
    y[rep(1:2, length.out = n), ],
    cbind(y, y),
    function(x) x,
    new.env(),
    as.integer(round(y * 10)),
    matrix(as.integer(round(y * 10)), n),
    structure(list(1, 2), class = "weird"),
    { z <- y; dim(z) <- NULL; z },
    { z <- y; rownames(z) <- rep("r", n); z },
    { z <- y; colnames(z) <- NULL; z },
    { z <- y; attr(z, "foo") <- "bar"; z },
    ts(y),
    I(y),
    { z <- y; z[z > 0.5] <- NA; z },
    c(NA, NA, NA),
    numeric(0),
    .Machine$double.xmax * c(1, -1),
    1:3
  )
}
bad_data <- function(y, i) bad_data_list(y)[[i]]
n_bad_data <- length(bad_data_list(fuzz_base()$y))

# Ways to spoil one argument of train().
bad_args <- list(
  nmax = list(0, 1, -3, NA, Inf, 2.5, "5", c(3, 4), 1e6, 1e12, TRUE, list(3)),
  nmin = list(0, -1, NA, 50, "2", 3.5),
  sizes = list(integer(0), c(2, NA), c(0, 3), c(3, 3), 1e9, c(2, 1e7), "N3", list(2, 3),
               -2, 2.5, 1:2000),
  iter_max = list(0, -1, NA, 1e10, "a", 1.5, Inf, c(2, 3)),
  sigma0 = list(0, -1, NA, Inf, "5", 1e308, 1e-308, c(1, 2)),
  eta0 = list(0, 2, -1, NA, Inf, "1", 1e-300),
  restarts = list(0, -1, NA, 1e9, 2.5, "2", 60),
  algorithm = list("x", NA, 1, c("online", "batch"), ""),
  seed = list(NA, -1, 2^40, "a", c(1, 2), Inf, 1.5, TRUE),
  backend = list("gpu", NA, 1, "", c("cpu", "opencl"), "opencl"),
  device = list("no-such-device", -1, 0, 99, NA, list(), "[", 1.5, c(1, 2)),
  precision = list("half", NA, 1, "single", ""),
  threads = list(0, -1, NA, 1000, "2", 2.5, Inf),
  progress = list("yes", NA, 1, c(TRUE, FALSE), NULL),
  trace = list(NA, "yes", c(TRUE, FALSE), 1),
  align = list(NA, c(TRUE, FALSE), "no"),
  keep_data = list("no", NA, 0),
  parallel = list("x", NA, TRUE, "future "),
  init = list("x", NA, 1, list(), list(matrix(0, 2, 3)),
              list(matrix(0, 2, 3), matrix(0, 3, 3), matrix(0, 4, 2)),
              list(matrix(NA_real_, 2, 3), matrix(0, 3, 3), matrix(0, 4, 3)),
              list(matrix("a", 2, 3), matrix(0, 3, 3), matrix(0, 4, 3)),
              list(matrix(1e308, 2, 3), matrix(0, 3, 3), matrix(0, 4, 3)),
              list(matrix(0, 2, 3), matrix(0, 3, 3), matrix(0, 4, 3), matrix(0, 5, 3)),
              c("uniform", "pca"), "pca", "sample")
)

# Options a user might set badly.
bad_options <- list(
  list(somgpu.threads = "x"), list(somgpu.threads = -1), list(somgpu.threads = 1e9),
  list(somgpu.threads = NA), list(somgpu.batch_block = 0), list(somgpu.batch_block = "a"),
  list(somgpu.batch_block = 1), list(somgpu.max_memory = -5), list(somgpu.max_memory = 10),
  list(somgpu.max_memory = "a"), list(somgpu.opencl_kernel = "zzz"),
  list(somgpu.opencl_kernel = 3), list(somgpu.opencl_group_min_size = "abc"),
  list(somgpu.opencl_group_min_size = -4), list(somgpu.opencl_max_alloc = -1),
  list(somgpu.opencl_max_alloc = "x"), list(somgpu.opencl_max_alloc = 64),
  list(somgpu.opencl_launch_seconds = -1), list(somgpu.opencl_launch_seconds = NA),
  list(somgpu.opencl_group_local = "x"), list(somgpu.opencl_stream_data = NA),
  list(somgpu.cpu_round_units = -1), list(somgpu.cpu_round_units = "x"),
  list(somgpu.cpu_round_units = 1e300)
)

# The cases: every spoilt data set and argument on its own, every bad option with a CPU and
# an OpenCL call, then `n_random` random combinations of two or three spoilt parts.
fuzz_cases <- function(n_random, rng_seed = 1) {
  base <- fuzz_base()
  cases <- list()
  add <- function(label, args, options = list()) {
    options <- options[!duplicated(names(options), fromLast = TRUE)] # restorable
    cases[[length(cases) + 1L]] <<- list(label = label, fun = "train", args = args,
                                         options = options)
  }
  for (i in seq_len(n_bad_data)) {
    args <- base
    args["y"] <- list(bad_data(base$y, i))
    add(sprintf("data %d", i), args)
  }
  for (a in names(bad_args)) {
    for (j in seq_along(bad_args[[a]])) {
      args <- base
      args[a] <- list(bad_args[[a]][[j]])
      add(sprintf("%s %d", a, j), args)
    }
  }
  for (j in seq_along(bad_options)) {
    for (be in c("cpu", "opencl")) {
      add(sprintf("option %s %d (%s)", names(bad_options[[j]]), j, be),
          c(base, list(backend = be, algorithm = if (j %% 2) "online" else "batch")),
          bad_options[[j]])
    }
  }
  withr::with_seed(rng_seed, {
    for (k in seq_len(n_random)) {
      args <- base
      options <- list()
      parts <- sample(c("data", "arg", "arg", "option"), sample(2:3, 1), replace = TRUE)
      what <- character(0)
      for (p in parts) {
        if (p == "data") {
          i <- sample(n_bad_data, 1)
          args["y"] <- list(bad_data(base$y, i))
          what <- c(what, sprintf("data %d", i))
        } else if (p == "arg") {
          a <- sample(names(bad_args), 1)
          j <- sample(length(bad_args[[a]]), 1)
          args[a] <- list(bad_args[[a]][[j]])
          what <- c(what, sprintf("%s %d", a, j))
        } else {
          j <- sample(length(bad_options), 1)
          options <- c(options, bad_options[[j]])
          what <- c(what, sprintf("option %d", j))
        }
      }
      if (runif(1) < 0.3) args$algorithm <- "batch"
      add(sprintf("random %d: %s", k, paste(what, collapse = " + ")), args, options)
    }
  })
  # predict() on a valid fit with spoilt new data and sizes
  for (i in seq_len(n_bad_data)) {
    cases[[length(cases) + 1L]] <- list(label = sprintf("predict data %d", i),
                                        fun = "predict", newdata = bad_data(base$y, i),
                                        sizes = NULL)
  }
  for (s in list(0, 99, "N3", NA, c(2, 2), -1, 2.5, list(2), character(0))) {
    cases[[length(cases) + 1L]] <- list(label = paste("predict sizes", deparse1(s)),
                                        fun = "predict", newdata = base$y, sizes = s)
  }
  cases
}

# Run the cases in this process, appending one line per case to `out` as soon as it ends:
# index, "ok" / "error" / "bad", a detail and the seconds it took. A crash leaves the line
# of the case missing.
run_fuzz <- function(cases, out) {
  base <- fuzz_base()
  fit <- do.call(somgpu::train, base)
  con <- file(out, "w")
  on.exit(close(con))
  for (i in seq_along(cases)) {
    cs <- cases[[i]]
    warned <- character(0)
    started <- proc.time()[["elapsed"]]
    res <- withCallingHandlers(
      tryCatch({
        if (cs$fun == "train") {
          withr::with_options(cs$options, {
            r <- do.call(somgpu::train, cs$args)
            bad <- valid_fit(r)
          })
        } else {
          r <- if (is.null(cs$sizes)) predict(fit, cs$newdata) else
            predict(fit, cs$newdata, sizes = cs$sizes)
          bad <- valid_prediction(r, fit, cs$newdata)
        }
        if (is.null(bad)) c("ok", "") else c("bad", bad)
      }, error = function(e) {
        if (inherits(e, "somgpu_error")) c("error", paste(class(e)[1], conditionMessage(e))) else
          c("bad", paste("unclassed error:", paste(class(e), collapse = "/"),
                         conditionMessage(e)))
      }),
      warning = function(w) {
        warned <<- c(warned, conditionMessage(w))
        invokeRestart("muffleWarning")
      })
    if (length(warned)) res <- c("bad", paste("warning:", warned[1]))
    writeLines(paste(i, res[1], gsub("[\t\n]", " ", res[2]),
                     round(proc.time()[["elapsed"]] - started, 3), sep = "\t"), con)
    flush(con)
  }
}
