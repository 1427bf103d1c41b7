# select_size()'s settings as an argument (R/select_control.R): select_control() checks every
# setting, select_size() runs under it and keeps it, the deprecated options go the same way.

test_that("select_control() refuses what is not a setting, naming it and the way out", {
  expect_error(select_control(bimodal_zz = 4), "`bimodal_zz` \\(did you mean `bimodal_z`\\?\\) is none of the constants",
               class = "somgpu_input_error")
  expect_error(select_control(stedy = 0.9, gap_tims = 2), "`stedy` \\(did you mean `steady`\\?\\), `gap_tims` \\(did you mean `gap_times`\\?\\) are none",
               class = "somgpu_input_error")
  expect_error(select_control(4), "takes constants by name", class = "somgpu_input_error")
  expect_error(select_control(bimodal_z = "high"), "`bimodal_z` must be a number above 0 \\(its default: 3.5\\), not",
               class = "somgpu_input_error")
  expect_error(select_control(group_min_share = -1), "`group_min_share` must be a number from 0 to 1",
               class = "somgpu_input_error")
  expect_error(select_control(group_min_share = 1.5), "from 0 to 1", class = "somgpu_input_error")
  expect_error(select_control(group_min_rows = 2.5), "`group_min_rows` must be a whole number from 1",
               class = "somgpu_input_error")
  expect_error(select_control(bimodal_z = NA_real_), "bimodal_z", class = "somgpu_input_error")
  expect_error(select_control(bimodal_z = Inf), "bimodal_z", class = "somgpu_input_error")
  expect_error(select_control(bimodal_z = c(3, 4)), "bimodal_z", class = "somgpu_input_error")
  expect_error(select_control(bimodal_z = 3, bimodal_z = 4), "given twice", class = "somgpu_input_error")
  expect_error(select_control(skip_rules = "gausian"), "`gausian` \\(did you mean `gaussian`\\?\\) is none of the rules",
               class = "somgpu_input_error")
  expect_error(select_control(skip_rules = 1), "`skip_rules` must be names of rules", class = "somgpu_input_error")
  # every constant of the table is taken at its own default (each default in its domain)
  tab <- selection_constants()
  for (i in seq_len(nrow(tab))) {
    ctl <- do.call(select_control, stats::setNames(list(tab$value[i]), tab$name[i]))
    expect_identical(ctl$tuning[[tab$name[i]]], tab$value[i], label = tab$name[i])
  }
  expect_setequal(unique(tab$domain), c("share", "count", "positive"))
})

test_that("a control is a fixed set of fields, printed, and shown by selection_constants()", {
  ctl <- select_control(steady = 0.9, bimodal_z = 4L, skip_rules = c("sparse", "noise"))
  expect_s3_class(ctl, "somgpu_control")
  expect_named(unclass(ctl), c("tuning", "skip_rules"))
  expect_identical(ctl$tuning, list(steady = 0.9, bimodal_z = 4)) # the table's order, doubles
  out <- capture.output(print(ctl))
  expect_match(out[2], "constants moved: steady = 0.9, bimodal_z = 4")
  expect_match(out[3], "rules left out: +sparse, noise")
  expect_match(capture.output(print(select_control()))[2], "none \\(the defaults\\)")
  tab <- selection_constants(ctl)
  expect_identical(tab$value[tab$name == "bimodal_z"], 4)
  expect_identical(tab$value[tab$name == "gap_times"], selection_constants()$value[tab$name == "gap_times"])
  expect_error(selection_constants(list(bimodal_z = 4)), "made by select_control", class = "somgpu_input_error")
})

test_that("select_size() runs under its control, keeps it, and restores the defaults", {
  # two Gaussian groups 3 sd apart in one column (test-bimodal.R's): the density's dip
  # (rule bimodal) names two
  y <- withr::with_seed(1, matrix(rnorm(2048) + rep(c(0, 3), each = 1024), ncol = 1))
  base <- select_size(y, bootstrap = 2, seed = 1, threads = 2, progress = FALSE)
  expect_identical(base$groups, 2L)
  expect_identical(base$grouping$rule, "bimodal")
  expect_identical(base$control, select_control())
  # the dip's threshold past its z: one group, the threshold recorded in the decision
  z <- base$decisions$value[base$decisions$rule == "bimodal"]
  high <- select_control(bimodal_z = ceiling(z) + 1)
  sel <- select_size(y, bootstrap = 2, seed = 1, threads = 2, progress = FALSE, control = high)
  expect_identical(sel$groups, 1L)
  expect_identical(sel$control, high)
  d <- sel$decisions[sel$decisions$rule == "bimodal", ]
  expect_identical(d$threshold, ceiling(z) + 1)
  expect_identical(d$outcome, "declined")
  expect_output(print(sel), sprintf("settings \\(select_control\\(\\)\\): constants moved: bimodal_z = %d", ceiling(z) + 1))
  expect_false(any(grepl("settings \\(select_control", capture.output(print(base)))))
  # the defaults are back after the call (and after a call that failed)
  expect_identical(somgpu:::tuned("bimodal_z"), 3.5)
  expect_error(select_size(y, sizes = 2:6, bootstrap = 1, control = high), class = "somgpu_input_error")
  expect_identical(somgpu:::tuned("bimodal_z"), 3.5)
  # kept through saveRDS()
  f <- tempfile(fileext = ".rds")
  saveRDS(sel, f)
  expect_identical(readRDS(f)$control, high)
  # not a control
  expect_error(select_size(y, control = list(bimodal_z = 9)), "`control` must be made by select_control\\(\\)",
               class = "somgpu_input_error")
})

test_that("the old options are read once, checked, and deprecated", {
  y <- withr::with_seed(1, matrix(rnorm(2048) + rep(c(0, 3), each = 1024), ncol = 1))
  withr::local_options(somgpu.tuning = list(bimodal_z = 50))
  expect_warning(sel <- select_size(y, bootstrap = 2, seed = 1, threads = 2, progress = FALSE),
                 "deprecated", class = "somgpu_deprecated")
  expect_identical(sel$control, select_control(bimodal_z = 50))
  expect_identical(sel$groups, 1L)
  withr::local_options(somgpu.tuning = 3)
  expect_error(suppressWarnings(select_size(y, sizes = 2:6, bootstrap = 2)), "options\\(somgpu.tuning\\) must be a named list",
               class = "somgpu_input_error")
  withr::local_options(somgpu.tuning = list(bimodal_z = "high"))
  expect_error(suppressWarnings(select_size(y, sizes = 2:6, bootstrap = 2)), "In options\\(somgpu.tuning\\).*`bimodal_z` must be",
               class = "somgpu_input_error")
  withr::local_options(somgpu.tuning = NULL, somgpu.skip_rules = "gausian")
  expect_error(suppressWarnings(select_size(y, sizes = 2:6, bootstrap = 2)), "did you mean `gaussian`",
               class = "somgpu_input_error")
})
