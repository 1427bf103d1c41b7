# Figures that explain themselves (issue 30): base graphics with a legend for every kind of
# mark and labelled reference lines; the same figures as ggplot objects (autoplot()), whose
# layers and mappings are checked through ggplot_build(); nothing breaks without ggplot2.

figure_fit <- function() {
  train(iris[, 1:4], nmax = 6, scale = TRUE, restarts = 3, iter_max = 30, seed = 1,
        trace = TRUE, backend = "cpu")
}
figure_sel <- function(y = iris[, 1:4], ...) {
  select_size(y, sizes = 2:6, restarts = 2, bootstrap = 4, iter_max = 30, scale = TRUE,
              seed = 1, backend = "cpu", progress = FALSE, ...)
}

# The legends, margin texts and reference lines a base figure draws.
record_base <- function(expr) {
  seen <- new.env()
  seen$legend <- list()
  seen$mtext <- character(0)
  seen$v <- numeric(0)
  suppressMessages({
    trace("legend", where = asNamespace("graphics"), print = FALSE,
          tracer = bquote(assign("legend", c(get("legend", .(seen)), list(legend)), envir = .(seen))))
    trace("mtext", where = asNamespace("graphics"), print = FALSE,
          tracer = bquote(assign("mtext", c(get("mtext", .(seen)), text), envir = .(seen))))
    trace("abline", where = asNamespace("graphics"), print = FALSE,
          tracer = bquote(assign("v", c(get("v", .(seen)), v), envir = .(seen))))
  })
  on.exit(suppressMessages({
    untrace("legend", where = asNamespace("graphics"))
    untrace("mtext", where = asNamespace("graphics"))
    untrace("abline", where = asNamespace("graphics"))
  }))
  grDevices::png(tempfile(fileext = ".png"), 800, 500)
  force(expr)
  grDevices::dev.off()
  as.list(seen)
}

test_that("base figures: a legend for every kind of mark, reference lines labelled", {
  fit <- figure_fit()
  q <- record_base(plot(fit))
  expect_identical(q$legend[[1]], c("kept restart (lowest qe)", "other restarts"))
  expect_equal(q$v, c(2, 2))
  expect_true(all(c("suggested N = 2") %in% q$mtext))
  g <- record_base(plot(fit, "groups"))
  expect_match(g$legend[[1]][1], "^group 1: [0-9]+ rows$")
  expect_match(g$legend[[1]][3], "neuron of the ring of 6")
  cd <- record_base(plot(fit, "codes", size = 3))
  expect_match(cd$legend[[1]][1], "rows, in their neuron's colour")
  sel <- figure_sel()
  s <- record_base(plot(sel))
  expect_identical(s$legend[[1]], c("mean over replicates", "+- 1 SE"))
  expect_true(all(c(sprintf("recommended N = %d", sel$recommended),
                    sprintf("%d groups", sel$groups)) %in% s$mtext))
  sg <- record_base(plot(sel, "groups", data = iris))
  expect_match(sg$legend[[1]][1], "^group 1: [0-9]+ rows, stability [01]\\.[0-9]{2} \\(")
  # no group structure: said in the figure
  u <- withr::with_seed(2, matrix(runif(600), ncol = 3))
  none <- figure_sel(u)
  n <- record_base(plot(none))
  expect_true("no group structure: no size recommended" %in% n$mtext)
  expect_true("1 group" %in% n$mtext)
  # many rows: a share drawn, said in the legend; fainter, smaller points
  big <- withr::with_seed(3, rbind(matrix(rnorm(16000), ncol = 2), matrix(rnorm(16000, 6), ncol = 2)))
  fb <- train(big, nmax = 4, iter_max = 10, seed = 1, algorithm = "batch", backend = "cpu")
  b <- record_base(plot(fb, "groups", max_points = 2000))
  expect_match(b$legend[[1]][1], "^group 1: [0-9]+ rows$")
  expect_identical(sum(as.integer(sub("^group [0-9]+: ([0-9]+) rows$", "\\1", b$legend[[1]][1:2]))), 16000L)
  expect_lt(somgpu:::point_style(16000)$alpha, somgpu:::point_style(150)$alpha)
  expect_lt(somgpu:::point_style(16000)$cex, somgpu:::point_style(150)$cex)
})

test_that("base figures of a selection take graphical parameters and say what they need", {
  sel <- figure_sel()
  png(tempfile(fileext = ".png"))
  on.exit(dev.off())
  expect_silent(plot(sel, main = "iris", col = "red", pch = 2, lwd = 2, xlab = "N"))
  expect_silent(plot(sel, "groups", data = iris, main = "groups", pch = 1, cex = 0.5))
  expect_error(plot(sel, "groups"), "pass the data the selection was made on",
               class = "somgpu_input_error")
  expect_error(plot(sel, "groups", data = iris[1:10, ]), "has 10 rows; the selection was made on 150",
               class = "somgpu_input_error")
  expect_error(plot(sel, "zz"), "`type` must be one of", class = "somgpu_input_error")
  lean <- train(iris[, 1:4], nmax = 3, iter_max = 5, seed = 1, keep_data = FALSE)
  expect_error(plot(lean, "groups"), "needs the fit's data", class = "somgpu_input_error")
  expect_silent(plot(lean, "groups", data = iris))
})

test_that("autoplot(): ggplot objects with the expected layers and mappings", {
  skip_if_not_installed("ggplot2")
  fit <- figure_fit()
  layers <- function(p) vapply(p$layers, function(l) class(l$geom)[1], "")
  mapped <- function(m) sub("^~", "", paste(format(m), collapse = "")) # an aes() column
  q <- ggplot2::autoplot(fit)
  expect_s3_class(q, "ggplot")
  expect_identical(layers(q), c("GeomLine", "GeomPoint", "GeomVline", "GeomLabel"))
  expect_identical(mapped(q$mapping$x), "size")
  b <- ggplot2::ggplot_build(q)
  expect_identical(nlevels(b$layout$layout$PANEL), 2L) # qe and te
  expect_identical(b$data[[3]]$xintercept[1], 2) # the suggested size
  expect_match(b$data[[4]]$label[1], "suggested N = 2")
  expect_setequal(unique(b$plot$data$status), c("kept restart (lowest qe)", "other restarts"))
  tr <- ggplot2::autoplot(fit, "trace")
  expect_identical(layers(tr), "GeomLine")
  expect_identical(length(unique(ggplot2::ggplot_build(tr)$data[[1]]$group)), 5L)
  cd <- ggplot2::autoplot(fit, "codes", size = 4)
  expect_identical(layers(cd), c("GeomPoint", "GeomPath", "GeomPoint", "GeomText"))
  expect_identical(mapped(cd$layers[[1]]$mapping$colour), "cluster_f")
  expect_identical(nrow(ggplot2::ggplot_build(cd)$data[[1]]), 150L)
  gr <- ggplot2::autoplot(fit, "groups")
  expect_identical(mapped(gr$layers[[1]]$mapping$colour), "group_f")
  expect_identical(levels(gr$layers[[1]]$data$group_f)[1], sprintf("group 1: %d rows",
                   sum(summary(fit)$partition == 1)))
  for (t in c("neighbours", "profiles", "counts")) {
    p <- ggplot2::autoplot(fit, t, size = 5)
    expect_s3_class(p, "ggplot")
    expect_no_error(ggplot2::ggplot_build(p))
  }
  expect_identical(layers(ggplot2::autoplot(fit, "counts", size = 5)), "GeomCol")
  expect_identical(sum(ggplot2::ggplot_build(ggplot2::autoplot(fit, "counts", size = 5))$data[[1]]$y), 150)
  # a selection: three panels, its answer marked; the groups view with each group's stability
  sel <- figure_sel()
  cr <- ggplot2::autoplot(sel)
  bc <- ggplot2::ggplot_build(cr)
  expect_identical(nlevels(bc$layout$layout$PANEL), 3L)
  expect_true(any(vapply(bc$data, function(d) "xintercept" %in% names(d) &&
                           sel$recommended %in% d$xintercept, TRUE)))
  sg <- ggplot2::autoplot(sel, "groups", data = iris)
  expect_match(levels(sg$layers[[1]]$data$group_f)[1], "stability")
  # themes and facets combine as with any ggplot
  expect_s3_class(q + ggplot2::theme_minimal(), "ggplot")
  u <- withr::with_seed(2, matrix(runif(600), ncol = 3))
  expect_identical(ggplot2::autoplot(figure_sel(u))$labels$subtitle,
                   "no group structure: no size recommended")
})

test_that("nothing breaks without ggplot2", {
  skip_if_not_installed("processx")
  lib <- withr::local_tempdir()
  for (p in c("somgpu", "cli")) file.symlink(find.package(p), file.path(lib, p))
  code <- paste(
    "stopifnot(!requireNamespace('ggplot2', quietly = TRUE))",
    "library(somgpu)",
    "fit <- train(iris[, 1:4], nmax = 4, iter_max = 10, seed = 1, threads = 1)",
    "grDevices::pdf(NULL); plot(fit); plot(fit, 'groups'); invisible(dev.off())",
    "e <- tryCatch(somgpu:::autoplot.somgpu(fit), error = function(e) e)",
    "cat(class(e)[1], conditionMessage(e), sep = '|')", sep = "\n")
  script <- withr::local_tempfile(fileext = ".R")
  writeLines(code, script)
  # a library of somgpu and cli alone, beside R's own (no site library)
  res <- processx::run(file.path(R.home("bin"), "Rscript"), script, error_on_status = FALSE,
                       env = c("current", R_LIBS = lib, R_LIBS_USER = lib, R_LIBS_SITE = lib))
  expect_identical(res$status, 0L, info = res$stderr)
  expect_match(res$stdout, "^somgpu_package_error\\|autoplot\\(\\) needs the package ggplot2")
})
