# R/data_memory.R and the compiled code's contracts seen from R: the memory plan comes from C,
# buffer by buffer, with the sizes the buffers have; the constants R uses come from C.

plan_of <- function(n, m, sizes, restarts = 1L, algorithm = "online", trace = FALSE,
                    spec = list(name = "cpu", threads = 1L, round_units = 0,
                                precision = "double", here = TRUE),
                    passes = 9L) {
  fam <- list(n = n, m = m, nmaps = length(sizes) * restarts, restarts = restarts,
              size_sum = sum(sizes) * restarts, size_max = max(sizes), passes = passes,
              trace = trace, batch_block = 4096L, general = FALSE, algorithm = algorithm)
  p <- .Call(somgpu:::C_memory_plan, fam, spec)
  data.frame(what = p$what, bytes = p$bytes, where = p$where, stringsAsFactors = FALSE)
}

bytes_of <- function(plan, what) plan$bytes[plan$what == what]

test_that("the CPU plan lists its buffers with their sizes", {
  p <- plan_of(5000, 8, 2:30, restarts = 4L)
  expect_true(all(p$bytes > 0) && all(p$where == "host"))
  # buffers whose size follows from the shape alone
  expect_identical(bytes_of(p, "cpu online: the data, row-major"), 8 * 5000 * 8)
  expect_identical(bytes_of(p, "cpu online: visiting orders"), 4 * 116 * 5008)
  expect_identical(bytes_of(p, "R: weights of every map"), 8 * 8 * sum(2:30) * 4 + 256 * 116)
  expect_identical(bytes_of(p, "assessment: block sums"), ceiling(5000 / 1024) * 116 * 3 * 8)
  # a trace adds the driver's copy of the weights and R's matrix
  q <- plan_of(5000, 8, 2:30, restarts = 4L, trace = TRUE)
  expect_identical(bytes_of(q, "R: trace"), 8 * 9 * 116)
  expect_gt(sum(q$bytes), sum(p$bytes))
  # batch plans its round of blocks instead of the visiting orders
  b <- plan_of(200000, 16, 2:20, algorithm = "batch")
  expect_true(any(grepl("^cpu batch", b$what)) && !any(grepl("^cpu online", b$what)))
  expect_gt(bytes_of(b, "cpu batch: a round's block sums"), 0)
})

test_that("without a backend (future workers train) the plan is R's and the assessment's", {
  p <- plan_of(1000, 3, 2:10,
               spec = list(name = "cpu", threads = 1L, round_units = 0,
                           precision = "double", here = FALSE))
  expect_false(any(grepl("^cpu", p$what)))
  expect_true(all(c("R: weights of every map", "assessment: block sums") %in% p$what))
})

test_that("the OpenCL plan lists device buffers", {
  skip_if_no_opencl()
  d <- devices()
  spec <- c(list(name = "opencl", threads = 1L, here = TRUE,
                 context = somgpu:::opencl_context(1L, if (d$fp64[1]) "double" else "single",
                                                   NULL)),
            somgpu:::opencl_options())
  p <- plan_of(2000, 3, 2:10, spec = spec)
  rs <- if (d$fp64[1]) 8 else 4
  expect_identical(bytes_of(p, "opencl: the data"), rs * 2000 * 3)
  expect_identical(bytes_of(p, "opencl: visiting orders"), 4 * 9 * 2000)
  expect_true(all(p$where[grepl("^opencl: (the data|weights|visiting)$", p$what)] == "device"))
  b <- plan_of(2000, 3, 2:10, algorithm = "batch", spec = spec)
  expect_true(any(b$where == "device") && any(grepl("winners", b$what)))
})

test_that("the memory check refuses what the plan's host share cannot fit", {
  y <- matrix(runif(300), ncol = 3)
  p <- plan_of(100, 3, 2:6, spec = list(name = "cpu", threads = 1L, round_units = 0,
                                       precision = "double", here = TRUE), passes = 19L)
  need <- sum(p$bytes[p$where == "host"])
  withr::with_options(list(somgpu.max_memory = need * 0.99), {
    expect_error(train(y, nmax = 6, iter_max = 20, backend = "cpu", threads = 1),
                 "cannot be allocated", class = "somgpu_memory_error")
  })
  withr::with_options(list(somgpu.max_memory = need * 1.01), {
    expect_s3_class(train(y, nmax = 6, iter_max = 20, backend = "cpu", threads = 1), "somgpu")
  })
})

test_that("constants come from the compiled code", {
  k <- somgpu:::constants()
  expect_identical(k$batch_block, 4096L)
  expect_identical(k$assess_block, 1024L)
  expect_identical(unname(k$status[c("ok", "interrupted")]), c(0L, 3L))
  expect_identical(k$kernels, c("work-item", "work-group (local memory)",
                                "work-group (global memory)", "batch"))
})

test_that("the OpenCL kernels reported by a fit are the compiled code's names", {
  skip_if_no_opencl()
  y <- matrix(runif(300), ncol = 3)
  fit <- train(y, nmax = 4, iter_max = 5, backend = "opencl", seed = 1,
               precision = if (devices()$fp64[1]) "double" else "single")
  expect_identical(fit$backend$kernels, "work-item")
  fit <- train(y, nmax = 4, iter_max = 5, backend = "opencl", seed = 1, algorithm = "batch",
               precision = if (devices()$fp64[1]) "double" else "single")
  expect_identical(fit$backend$kernels, "batch")
})

test_that("the family R plans before the maps exist is the one C computes from them", {
  y <- seed_data(300, 3)
  y[5, 2] <- NA
  cases <- list(list(sizes = 2:9, restarts = 3L, sigma0 = "auto", algorithm = "online"),
                list(sizes = c(4L, 7L, 12L), restarts = 1L, sigma0 = c(2, 2, 3),
                     algorithm = "batch"))
  for (case in cases) {
    spec <- somgpu:::check_sizes(NULL, NULL, case$sizes,
                                 c(sizes = TRUE, nmin = FALSE, nmax = FALSE), NULL)
    sigma0 <- somgpu:::sigma0_sizes(case$sigma0, case$sizes)
    dist <- list(col_w = NULL, missing = TRUE)
    r <- somgpu:::family_dims(spec, nrow(y), ncol(y), case$restarts, 11L, TRUE,
                               case$algorithm, 512L, TRUE,
                               schedules = length(unique(sigma0)))
    problem <- somgpu:::new_problem(case$sizes, case$restarts, 11L, sigma0, 1,
                                    list(type = "uniform"), 1L, case$algorithm, 512L, TRUE,
                                    dist)
    c_fam <- .Call(somgpu:::C_family_of, y, problem)
    for (field in c("n", "m", "nmaps", "restarts", "size_sum", "size_max", "passes", "trace",
                    "batch_block", "general", "schedules")) {
      expect_equal(as.numeric(c_fam[[field]]), as.numeric(r[[field]]), label = field)
    }
  }
})
