# A newcomer's first hour on a shared machine (issue 22): threads that leave busy
# processors alone, a batch schedule suited to batch, long tables and file outputs that
# print briefly, plots that say what they show.

# A fake /proc: loadavg with `running` tasks, stat with `cpus` processors, this process
# with `own` running threads (and one sleeping).
fake_proc <- function(running, cpus, own = 1L) {
  dir <- withr::local_tempdir(.local_envir = parent.frame())
  writeLines(sprintf("0.50 0.40 0.30 %d/300 12345", running), file.path(dir, "loadavg"))
  writeLines(c("cpu  1 2 3 4", sprintf("cpu%d 1 2 3 4", seq_len(cpus) - 1L), "intr 1"),
             file.path(dir, "stat"))
  for (i in seq_len(own + 1L)) {
    d <- file.path(dir, "self", "task", 100 + i)
    dir.create(d, recursive = TRUE)
    writeLines(sprintf("%d (R) %s 1 2 3", 100 + i, if (i <= own) "R" else "S"),
               file.path(d, "stat"))
  }
  dir
}

test_that("the default thread count leaves the processors other work keeps busy", {
  idle <- function(...) somgpu:::idle_processors(4L, fake_proc(...))
  expect_identical(idle(running = 1, cpus = 4), 4L)        # quiet: every processor
  expect_identical(idle(running = 2, cpus = 4), 3L)        # one busy process beside us
  expect_identical(idle(running = 3, cpus = 4, own = 3), 4L) # our own spinning threads
  expect_identical(idle(running = 9, cpus = 4), 1L)        # overloaded: one thread
  # in a container with 4 of a machine's 64 processors, the machine's load is shared out
  expect_identical(idle(running = 33, cpus = 64), 2L)
  expect_identical(somgpu:::idle_processors(4L, tempfile()), 4L) # no /proc: all of them
  # the option and the environment variable still decide when set
  withr::with_options(list(somgpu.threads = 1L), expect_identical(somgpu_threads(), 1L))
  n <- withr::with_options(list(somgpu.threads = NULL),
                           withr::with_envvar(c(SOMGPU_NUM_THREADS = "1"), somgpu_threads()))
  expect_identical(n, 1L)
})

test_that("batch trains 75 passes by default, online the script's 149", {
  y <- seed_data(300, 3)
  expect_identical(train(y, nmax = 3, algorithm = "batch", seed = 1)$params$iter_max, 76L)
  expect_identical(train(y, nmax = 3, seed = 1)$params$iter_max, 150L)
  expect_identical(train(y, nmax = 3, algorithm = "batch", seed = 1)$weights,
                   train(y, nmax = 3, algorithm = "batch", seed = 1, iter_max = 76)$weights)
  expect_identical(formals(train)$iter_max, NULL)
})

test_that("long clusters print their first rows and a count; they stay a data frame", {
  fit <- train(iris[, 1:4], nmax = 4, iter_max = 5, seed = 1)
  expect_s3_class(fit$clusters, "data.frame")
  out <- capture.output(print(fit$clusters))
  expect_match(out[1], "clusters of 150 rows, 3 sizes \\(N2, N3, N4\\)")
  expect_lt(length(out), 16L)
  expect_match(out[length(out)], "and 140 more rows")
  expect_identical(fit$clusters$N3, unname(fit$clusters[["N3"]]))
  expect_identical(predict(fit, iris[, 1:4]), fit$clusters)
  short <- capture.output(print(predict(fit, iris[1:5, 1:4])))
  expect_length(short, 7L) # the header, the names and five rows
})

test_that("clusters written to a file come back invisibly, with a message naming it", {
  skip_if_not_installed("bigmemory")
  dir <- withr::local_tempdir()
  bm <- bigmemory::as.big.matrix(seed_data(500, 2), backingfile = "y.bin",
                                 backingpath = dir, descriptorfile = "y.desc")
  fit <- train(bm, nmax = 3, iter_max = 3, algorithm = "batch", seed = 1)
  path <- file.path(dir, "p.bin")
  expect_message(res <- withVisible(predict(fit, bm, clusters_file = path)),
                 "the clusters of 500 rows, 2 sizes, went to .*p\\.bin")
  expect_false(res$visible)
  expect_s3_class(res$value, "somgpu_file_clusters")
  expect_identical(dim(res$value), c(500L, 2L))
})

test_that("plots: the suggested size marked, every size in the trace's legend, a colour key", {
  y <- rbind(matrix(rnorm(300, 0, 0.2), ncol = 3), matrix(rnorm(300, 3, 0.2), ncol = 3))
  fit <- withr::with_seed(1, train(y, nmax = 10, iter_max = 20, seed = 1, trace = TRUE))
  seen <- new.env()
  seen$v <- NULL
  seen$legend <- list()
  suppressMessages({
    trace("abline", where = asNamespace("graphics"), print = FALSE,
          tracer = bquote(assign("v", c(get("v", .(seen)), v), envir = .(seen))))
    trace("legend", where = asNamespace("graphics"), print = FALSE,
          tracer = bquote(assign("legend", c(get("legend", .(seen)), list(list(legend = legend, cex = cex))),
                                 envir = .(seen))))
  })
  on.exit(suppressMessages({
    untrace("abline", where = asNamespace("graphics"))
    untrace("legend", where = asNamespace("graphics"))
  }), add = TRUE)
  grDevices::pdf(NULL)
  plot(fit)
  plot(fit, "trace")
  plot(fit, "profiles", size = 4)
  grDevices::dev.off()
  expect_equal(seen$v, c(2, 2)) # summary() suggests 2 (two blobs), on both panels
  expect_identical(seen$legend[[1]]$legend, "kept restart (lowest qe)") # one restart: no others
  expect_identical(seen$legend[[2]]$legend, paste0("N", 2:10))
  expect_gte(seen$legend[[2]]$cex, 0.9)
  expect_identical(seen$legend[[3]]$legend, c("lowest", "middle", "highest"))
})

test_that("the main job runs on CPU and OpenCL and points to the vignettes", {
  skip_if_not_installed("processx")
  root <- test_path("..", "..")
  skip_if_not(file.exists(file.path(root, "tools", "seed-example.R")), "not in a checkout")
  lib <- dirname(find.package("somgpu"))
  res <- processx::run(file.path(R.home("bin"), "Rscript"),
                       file.path(root, "tools", "seed-example.R"),
                       env = c("current", R_LIBS = lib), error_on_status = FALSE)
  expect_identical(res$status, 0L, info = res$stderr)
  expect_match(res$stdout, "<somgpu> 9 ring SOMs (N = 2..10) on 2000 x 3 data", fixed = TRUE)
  expect_match(res$stdout, "backend cpu: ", fixed = TRUE)
  # OpenCL where this build has a device: the same problem, the same bits; else said
  opencl <- backends()[backends()$backend == "opencl", ]
  if (opencl$available) {
    expect_match(res$stdout, "\nOpenCL: the same problem on ")
    expect_match(gsub("\\s+", " ", res$stdout),
                 "are the same bits as the CPU backend's.", fixed = TRUE)
  } else {
    expect_match(res$stdout, paste0("\nOpenCL: ", substr(opencl$detail, 1, 20)), fixed = TRUE)
    expect_match(gsub("\\s+", " ", res$stdout), "trains on its CPU backend alone", fixed = TRUE)
  }
  # built with the vignettes (tools/setup.R main), or as `R CMD INSTALL .` builds it
  if (nrow(utils::vignette(package = "somgpu", lib.loc = lib)$results) > 0) {
    expect_match(res$stdout, "browseVignettes(\"somgpu\")", fixed = TRUE)
  } else {
    expect_match(gsub("\\s+", " ", res$stdout),
                 "their sources are in vignettes/; Rscript tools/setup.R main", fixed = TRUE)
  }
})
