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
  # a fit's groups are summary()'s, not select_size()'s answer: the title says so
  expect_match(somgpu:::fit_groups_view(fit, NULL, 5000L, NULL)$title, "(rule gaussian, this fit alone)",
               fixed = TRUE)
  expect_match(g$legend[[1]][3], "neuron of the ring of 6")
  cd <- record_base(plot(fit, "codes", size = 3))
  expect_match(cd$legend[[1]][1], "rows, in their neuron's colour")
  sel <- figure_sel()
  s <- record_base(plot(sel))
  expect_identical(s$legend[[1]], c("mean over replicates", "+- 1 SE; 95% of replicate pairs"))
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

test_that("the groups view names the rows in no group, in base graphics and ggplot2", {
  b <- blobs(2, 150, spread = 8, seed = 2)
  far <- withr::with_seed(5, cbind(runif(6, -30, 40), c(-25, -20, 35, 40, 30, -30)))
  y <- rbind(b, far)
  sel <- select_size(y, sizes = 2:6, bootstrap = 3, iter_max = 40, seed = 1,
                     progress = FALSE, noise = TRUE)
  k <- sum(is.na(sel$partition))
  expect_gte(k, 6L) # the six far rows at least
  said <- sprintf("in no group: %d rows", k)
  g <- record_base(plot(sel, "groups", data = y))$legend[[1]]
  expect_length(g, sel$groups + 2L)
  expect_identical(g[sel$groups + 1L], said)
  expect_match(g[sel$groups + 2L], "^neuron of the ring of")
  # without rows in no group, no such line
  plain <- select_size(y, sizes = 2:6, bootstrap = 3, iter_max = 40, seed = 1,
                       progress = FALSE)
  expect_false(any(grepl("in no group", record_base(plot(plain, "groups", data = y))$legend[[1]])))
  skip_if_not_installed("ggplot2")
  gg <- ggplot2::autoplot(sel, "groups", data = y)
  pts <- gg$layers[[1]]$data
  expect_identical(levels(pts$group_f)[sel$groups + 1L], said)
  expect_identical(as.character(pts$group_f[is.na(pts$group)]), rep(said, sum(is.na(pts$group))))
  expect_false(anyNA(pts$group_f))
  colours <- ggplot2::ggplot_build(gg)$data[[1]]$colour
  expect_identical(unique(colours[is.na(pts$group)]), "grey70")
  expect_false("grey70" %in% colours[!is.na(pts$group)])
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
  expect_match(gsub("\\s+", " ", gr$labels$title), "(rule gaussian, this fit alone)", fixed = TRUE)
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

figure_fit30 <- function() {
  train(mtcars, nmax = 30, scale = TRUE, restarts = 1, iter_max = 30, seed = 1,
        backend = "cpu")
}

test_that("base figures at 480 x 480 and 7 x 5 in: titles fit, nothing cut, legends off the panels", {
  fit <- figure_fit()
  fit30 <- figure_fit30()
  sel <- figure_sel()
  u <- withr::with_seed(2, matrix(runif(600), ncol = 3))
  none <- figure_sel(u)
  figures <- list(
    quality = function() plot(fit), trace = function() plot(fit, "trace"),
    codes = function() plot(fit, "codes", size = 4), groups = function() plot(fit, "groups"),
    codes30 = function() plot(fit30, "codes", size = 30), quality30 = function() plot(fit30),
    neighbours = function() plot(fit30, "neighbours", size = 30),
    profiles = function() plot(fit30, "profiles", size = 30),
    profiles4 = function() plot(fit30, "profiles", size = 4),
    counts = function() plot(fit30, "counts", size = 30),
    criteria = function() plot(sel), none = function() plot(none, main = "uniform data"),
    sel_groups = function() plot(sel, "groups", data = iris))
  for (s in names(figure_sizes)) for (f in names(figures)) {
    r <- record_fit(figures[[f]](), figure_sizes[[s]])
    where <- paste(f, "at", s)
    expect_gt(length(r$titles), 0)
    for (t in r$titles) {
      expect_lte(t$width, t$room, label = sprintf("%s: the title \"%s\" (%.2f in)", where,
                                                  t$text, t$width))
    }
    for (t in r$tops) { # marks' labels and texts over the panels: within their figure
      expect_true(t$left >= t$room[1] - 1e-6 && t$right <= t$room[2] + 1e-6,
                  label = sprintf("%s: \"%s\" within its figure", where, t$text))
    }
    # no legend over a panel's plot region (where the data are)
    for (l in r$legends) for (p in r$panels) {
      apart <- l[2] <= p[1] + 1e-6 || l[1] >= p[2] - 1e-6 || l[4] <= p[3] + 1e-6 ||
        l[3] >= p[4] - 1e-6
      expect_true(apart, label = sprintf("%s: a legend apart from the panels", where))
    }
    if (f %in% c("quality", "trace", "codes", "groups", "criteria", "profiles")) {
      expect_gt(length(r$legends), 0)
    }
    # no label written over another (the neurons' numbers, the cells' values)
    tx <- do.call(rbind, c(list(data.frame(x = 0, y = 0, w = 0, h = 0)[0, ]), r$texts))
    clash <- outer(seq_len(nrow(tx)), seq_len(nrow(tx)), function(i, j) {
      i < j & abs(tx$x[i] - tx$x[j]) < (tx$w[i] + tx$w[j]) / 2 &
        abs(tx$y[i] - tx$y[j]) < (tx$h[i] + tx$h[j]) / 2
    })
    expect_false(any(clash), label = sprintf("%s: labels written over each other", where))
    # an axis of many sizes: the smallest and round numbers labelled, not every size
    for (a in Filter(function(a) a$side == 1 && !isFALSE(a$labels), r$axes)) {
      expect_lte(length(a$at), 12L)
    }
  }
  # the selection's panels in a row on a wide device, two by two on a square one
  wide <- record_fit(plot(sel), figure_sizes[["7 x 5 in"]])
  square <- record_fit(plot(sel), figure_sizes[["480 x 480"]])
  expect_length(unique(vapply(wide$panels, function(p) round(p[3], 3), 0)), 1L)
  expect_length(unique(vapply(square$panels, function(p) round(p[3], 3), 0)), 2L)
  # the fitting itself: a title too wide for its room wraps, shrinks or says less
  grDevices::png(tempfile(fileext = ".png"))
  on.exit(grDevices::dev.off())
  ft <- somgpu:::fit_text("stability (95% of replicate pairs)", 1.2, cex = 1, font = 2,
                          shorter = "stability")
  expect_lte(max(strwidth(strsplit(ft$text, "\n")[[1]], "inches", cex = ft$cex, font = 2)), 1.2)
  expect_identical(somgpu:::fit_text("short", 3)$text, "short")
})

test_that("integer axes (sizes, passes, rows) have whole-number ticks, base and ggplot", {
  fit30 <- figure_fit30()
  # six rows on rings of up to 8: at most two rows per neuron
  small <- train(iris[c(1, 26, 51, 76, 101, 126), 1:4], nmax = 8, iter_max = 10, seed = 1,
                 trace = TRUE, backend = "cpu")
  sel <- figure_sel()
  whole <- function(b) all(abs(b - round(b)) < 1e-9)
  # base: the counts' y axis, the selection's x axes, the trace's passes
  for (s in names(figure_sizes)) {
    r <- record_fit(plot(small, "counts", size = 8), figure_sizes[[s]])
    y <- Filter(function(a) a$side == 2, r$axes)
    expect_length(y, 1L)
    expect_true(whole(y[[1]]$at), label = paste("counts' y ticks at", s))
    r <- record_fit(plot(sel), figure_sizes[[s]])
    for (a in Filter(function(a) a$side == 1, r$axes)) expect_true(whole(a$at))
    r <- record_fit(plot(small, "trace"), figure_sizes[[s]])
    for (a in Filter(function(a) a$side == 1, r$axes)) expect_true(whole(a$at))
  }
  skip_if_not_installed("ggplot2")
  breaks <- function(p, axis) {
    b <- ggplot2::ggplot_build(p)
    lapply(b$layout$panel_params, function(pp) {
      v <- pp[[axis]]$breaks
      v[!is.na(v)]
    })
  }
  for (b in breaks(ggplot2::autoplot(sel), "x")) expect_true(whole(b), label = "criteria x")
  for (b in breaks(ggplot2::autoplot(fit30), "x")) expect_true(whole(b), label = "quality x")
  for (b in breaks(ggplot2::autoplot(small, "counts", size = 8), "y")) {
    expect_true(whole(b), label = "counts y")
  }
  for (b in breaks(ggplot2::autoplot(small, "trace"), "x")) expect_true(whole(b), label = "passes")
  tr <- ggplot2::ggplot_build(ggplot2::autoplot(small, "trace"))
  expect_true(whole(tr$plot$scales$get_scales("colour")$get_breaks()), label = "trace sizes")
  # a ring of 30: the labels along it thinned (1, 5, 10, ...), not 30 of them
  nb <- ggplot2::ggplot_build(ggplot2::autoplot(fit30, "neighbours", size = 30))
  expect_lte(length(nb$layout$panel_params[[1]]$x$get_labels()), 10L)
})

test_that("ggplot labels of the marked sizes sit in room above the data, never on a point", {
  skip_if_not_installed("ggplot2")
  fit <- figure_fit()
  sel <- figure_sel()
  for (p in list(ggplot2::autoplot(fit), ggplot2::autoplot(sel))) {
    b <- ggplot2::ggplot_build(p)
    is_label <- vapply(p$layers, function(l) inherits(l$geom, "GeomLabel"), TRUE)
    expect_true(any(is_label))
    labels <- do.call(rbind, lapply(b$data[is_label], function(d) d[, c("PANEL", "y")]))
    expect_true(all(is.infinite(labels$y) & labels$y > 0)) # at the top of the panel
    for (panel in unique(as.character(labels$PANEL))) {
      top <- max(unlist(lapply(b$data[!is_label], function(d) {
        d <- d[as.character(d$PANEL) == panel, , drop = FALSE]
        unlist(d[intersect(c("y", "ymax"), names(d))])
      })), na.rm = TRUE)
      top <- top[is.finite(top)]
      yr <- b$layout$panel_params[[as.integer(panel)]]$y.range
      # a fifth of the panel above the highest point or bar, for the label
      expect_gte((yr[2] - max(top)) / diff(yr), 0.2)
    }
    # labels run into the panel from their line (left third: rightwards, ...)
    expect_true(all(unlist(lapply(b$data[is_label], `[[`, "hjust")) %in% c(0, 0.5, 1)))
  }
})

test_that("profiles: the variables in the same order, values written as they read, dropped when cells are small", {
  fit30 <- figure_fit30()
  # base: the variables from the top down
  r <- record_fit(plot(fit30, "profiles", size = 5), figure_sizes[["480 x 480"]])
  y <- Filter(function(a) a$side == 2, r$axes)[[1]]
  base_order <- y$labels[order(y$at, decreasing = TRUE)]
  expect_identical(base_order, names(mtcars))
  # near-zero weights among 0 and 1 read 0; the decimals follow each column's range, the
  # same for every value of a column, less those zero in all
  w <- cbind(am = c(1.55e-15, 1, 0.25, -2e-16), disp = c(71.1, 472, 230.6, 160.04),
             wt = c(2.44, 2.7, 3.44, 1), vs = c(1e-17, 1, 1, 0), drat = c(3.9, 4.1, 3.5, 3.7))
  expect_identical(somgpu:::cell_labels(w),
                   c("0.00", "1.00", "0.25", "0.00", "71", "472", "231", "160",
                     "2.44", "2.70", "3.44", "1.00", "0", "1", "1", "0",
                     "3.9", "4.1", "3.5", "3.7"))
  skip_if_not_installed("ggplot2")
  p <- ggplot2::autoplot(fit30, "profiles", size = 5)
  gg_order <- rev(ggplot2::ggplot_build(p)$layout$panel_params[[1]]$y$get_labels())
  expect_identical(gg_order, base_order)
  expect_true("GeomText" %in% vapply(p$layers, function(l) class(l$geom)[1], ""))
  expect_false(any(grepl("e-", ggplot2::ggplot_build(p)$data[[2]]$label)))
  # a ring of 30: the cells too small for their values (which would overprint)
  p30 <- ggplot2::autoplot(fit30, "profiles", size = 30)
  expect_false("GeomText" %in% vapply(p30$layers, function(l) class(l$geom)[1], ""))
})

test_that("the groups view and the codes view draw a file-backed big.matrix", {
  skip_if_not_installed("bigmemory")
  skip_if_not_installed("ggplot2")
  m <- withr::with_seed(4, rbind(matrix(rnorm(1000, 0, 0.3), ncol = 2),
                                 matrix(rnorm(1000, 2, 0.3), ncol = 2)))
  colnames(m) <- c("a", "b")
  dir <- withr::local_tempdir()
  bm <- bigmemory::as.big.matrix(m, backingfile = "m.bin", backingpath = dir,
                                 descriptorfile = "m.desc")
  sel <- select_size(bm, sizes = 2:5, bootstrap = 3, restarts = 1, sample_rows = 200,
                     threads = 2, seed = 1, progress = FALSE)
  png(tempfile(fileext = ".png"))
  on.exit(dev.off())
  expect_silent(plot(sel, "groups", data = bm))
  expect_silent(plot(sel$fit, "codes", data = bm))
  expect_silent(plot(sel$fit, "groups", data = bm))
  pts <- function(p) p$layers[[1]]$data
  # every row drawn: as from the rows in memory, point for point
  on_file <- ggplot2::autoplot(sel, "groups", data = bm)
  in_memory <- ggplot2::autoplot(sel, "groups", data = m)
  expect_identical(nrow(pts(on_file)), 1000L)
  expect_equal(pts(on_file)[c("PC1", "PC2", "row", "group")],
               pts(in_memory)[c("PC1", "PC2", "row", "group")])
  expect_identical(levels(pts(on_file)$group_f), levels(pts(in_memory)$group_f))
  # a sample drawn: the same rows, each in the selection's group
  few <- pts(ggplot2::autoplot(sel, "groups", data = bm, max_points = 300))
  expect_identical(nrow(few), 300L)
  expect_identical(few$row, pts(ggplot2::autoplot(sel, "groups", data = m, max_points = 300))$row)
  expect_identical(few$group, sel$partition[few$row])
  # the fit's views of the file: as of the rows in memory
  expect_identical(levels(pts(ggplot2::autoplot(sel$fit, "groups", data = bm))$group_f),
                   levels(pts(ggplot2::autoplot(sel$fit, "groups", data = m))$group_f))
  expect_equal(pts(ggplot2::autoplot(sel$fit, "codes", data = bm))[c("PC1", "PC2", "cluster")],
               pts(ggplot2::autoplot(sel$fit, "codes", data = m))[c("PC1", "PC2", "cluster")])
  # groups written to a file (groups_file): read back for the rows drawn
  to <- file.path(dir, "groups.bin")
  sf <- select_size(bm, sizes = 2:5, bootstrap = 3, restarts = 1, sample_rows = 200,
                    threads = 2, seed = 1, progress = FALSE, groups_file = to)
  expect_null(sf$partition)
  g <- pts(ggplot2::autoplot(sf, "groups", data = bm, max_points = 300))
  expect_identical(g$group, bigmemory::attach.big.matrix(paste0(to, ".desc"))[g$row, 1])
  expect_error(plot(sel, "groups", data = bm[1:10, ]), "has 10 rows; the selection was made on 1000",
               class = "somgpu_input_error")
})

test_that("the criterion panel shows the rule that chose the groups, border rows for any shape", {
  sel <- figure_sel(mtcars, shape = "connected")
  expect_identical(sel$grouping$rule, "connected")
  sd <- somgpu:::selection_data(sel)
  p3 <- sd$long[sd$long$panel == sd$panels[3], ]
  expect_identical(sd$panels[3], "rule connected: border rows per number of groups")
  # the share of rows on a border per number of groups, the answer among them
  expect_equal(p3$y, 100 * sel$grouping$detail$crossing)
  expect_identical(p3$x, seq_along(sel$grouping$detail$crossing))
  expect_true(sel$groups %in% p3$x)
  expect_identical(sd$ylab, "rows on a border (%)")
  gauss <- figure_sel(mtcars, shape = "gaussian")
  gd <- somgpu:::selection_data(gauss)
  expect_identical(gd$ylab, "BIC of the classification")
  expect_true(gauss$groups %in% gd$long$x[gd$long$panel == gd$panels[3]])
  skip_if_not_installed("ggplot2")
  b <- ggplot2::ggplot_build(ggplot2::autoplot(sel))
  pts <- b$data[[which(vapply(b$plot$layers, function(l) inherits(l$geom, "GeomPoint"), TRUE))]]
  expect_equal(pts$y[pts$PANEL == 3], 100 * sel$grouping$detail$crossing)
  label <- b$data[[which(vapply(b$plot$layers, function(l) inherits(l$geom, "GeomLabel"), TRUE))]]
  at <- label$x[label$PANEL == 3]
  expect_identical(at, as.numeric(sel$groups))
  expect_true(at >= min(pts$x[pts$PANEL == 3]) && at <= max(pts$x[pts$PANEL == 3]))
  expect_match(as.character(b$layout$layout$panel[3]), "^rule connected: border rows")
})

test_that("ggplot figures of one size or one pass draw without ggplot2's complaints", {
  skip_if_not_installed("ggplot2")
  one <- train(iris[, 1:4], sizes = 4, iter_max = 10, seed = 1, backend = "cpu")
  pass <- train(iris[, 1:4], nmax = 4, iter_max = 2, trace = TRUE, seed = 1, backend = "cpu")
  grDevices::png(tempfile(fileext = ".png"))
  on.exit(grDevices::dev.off())
  expect_silent(print(ggplot2::autoplot(one)))
  expect_silent(print(ggplot2::autoplot(pass, "trace")))
})

test_that("ggplot's codes view numbers every neuron, the numbers apart", {
  skip_if_not_installed("ggplot2")
  fit30 <- figure_fit30()
  numbers <- function(p) {
    p$layers[[which(vapply(p$layers, function(l) inherits(l$geom, "GeomText"), TRUE))]]$data
  }
  d <- ggplot2::ggplot_build(ggplot2::autoplot(fit30, "codes", size = 30))$data
  pc <- do.call(rbind, lapply(d, function(l) l[, c("x", "y")]))
  span <- max(diff(range(pc$x)), diff(range(pc$y)))
  n <- numbers(ggplot2::autoplot(fit30, "codes", size = 30))
  # neurons on top of each other: each numbered, beside its circle (issue 68; the first
  # alone before)
  expect_identical(nrow(n), 30L)
  apart <- outer(seq_len(nrow(n)), seq_len(nrow(n)), function(i, j) {
    i >= j | abs(n$PC1[i] - n$PC1[j]) >= 0.04 * span | abs(n$PC2[i] - n$PC2[j]) >= 0.03 * span
  })
  expect_true(all(apart))
  # a ring whose neurons stand apart: every one numbered
  expect_identical(nrow(numbers(ggplot2::autoplot(figure_fit(), "codes", size = 3))), 3L)
})

test_that("profiles of a data frame's categorical columns: bars of level shares, keys off the panel", {
  d <- withr::with_seed(5, {
    g <- sample(1:3, 150, TRUE)
    data.frame(a = rnorm(150, g), kind = factor(c("x", "y", "z")[g]), flag = g == 2,
               b = rnorm(150))
  })
  fit <- train(d, nmax = 6, iter_max = 20, scale = TRUE, seed = 1, backend = "cpu")
  only <- train(d[c("kind", "flag")], nmax = 6, iter_max = 20, seed = 1, backend = "cpu")
  pd <- somgpu:::profiles_data(fit$weights$N5, fit$encoding)
  expect_identical(pd$vars, names(d)) # a row per column of the data frame, in its order
  # a bar per neuron and categorical column: its levels' shares, stacked to 1
  tops <- tapply(pd$segments$top, pd$segments[c("neuron", "row")], max)
  expect_equal(as.vector(tops), rep(1, 10), tolerance = 1e-12)
  kind <- pd$segments[pd$segments$row == 2, ]
  w <- fit$weights$N5[, c("kind=x", "kind=y", "kind=z")]
  w[w < 0] <- 0
  expect_equal(kind$share, as.vector(w / rowSums(w)), tolerance = 1e-12)
  for (s in names(figure_sizes)) for (f in list(fit, only)) {
    r <- record_fit(plot(f, "profiles", size = 5), figure_sizes[[s]])
    for (t in r$titles) expect_lte(t$width, t$room)
    expect_gte(length(r$legends), 2L) # the levels' key lines
    for (l in r$legends) for (p in r$panels) {
      expect_true(l[2] <= p[1] + 1e-6 || l[1] >= p[2] - 1e-6 || l[4] <= p[3] + 1e-6 ||
                    l[3] >= p[4] - 1e-6, label = sprintf("profiles at %s: a key off the panel", s))
    }
  }
  skip_if_not_installed("ggplot2")
  p <- ggplot2::autoplot(fit, "profiles", size = 5)
  expect_true("GeomRect" %in% vapply(p$layers, function(l) class(l$geom)[1], ""))
  b <- ggplot2::ggplot_build(p)
  expect_identical(rev(b$layout$panel_params[[1]]$y$get_labels()), rev(names(d)))
  labels <- b$plot$scales$get_scales("fill")$get_labels()
  expect_true(all(c("lowest", "highest", "x, FALSE", "y, TRUE") %in% labels))
})

# Issue 68: at 480 x 480 autoplot() clipped the strip titles ("ule gaussian: criterio"),
# titles and legend keys, and the base groups view's legend touched the x axis label.
test_that("autoplot wraps strips, titles and keys to the device: nothing wider than its room", {
  skip_if_not_installed("ggplot2")
  sel <- figure_sel()
  # the longest words a selection's figure says: rule sparse's panel and key
  sparse <- sel
  sparse$grouping$rule <- "sparse"
  sparse$grouping$detail$crossing <- c(0, 0.005, 0.02, 0.04)
  inches <- function(text, points) { # the widest line, measured by grid on the open device
    lines <- unlist(strsplit(text, "\n", fixed = TRUE))
    max(vapply(lines, function(l) grid::convertWidth(grid::grobWidth(grid::textGrob(
      l, gp = grid::gpar(fontsize = points))), "inches", valueOnly = TRUE), 0))
  }
  strip_lines <- list()
  for (s in c("480 x 480", "900 x 600")) {
    do.call(grDevices::png, c(list(filename = tempfile(fileext = ".png")), figure_sizes[[s]]))
    width <- grDevices::dev.size("in")[1]
    p <- ggplot2::autoplot(sparse)
    g <- ggplot2::ggplotGrob(p)
    # a panel's width: the device's less the fixed columns, shared by the null ones
    w <- g$widths
    null <- grid::unitType(w) == "null"
    panel <- (width - sum(grid::convertWidth(w[!null], "inches", valueOnly = TRUE))) / sum(null)
    strips <- p$facet$params$labeller(data.frame(panel = levels(p$data$panel)))[[1]]
    expect_match(strips[3], "^rule sparse: dense")
    for (t in strips) expect_lte(inches(t, 8.8), panel, label = sprintf("strip \"%s\" at %s", t, s))
    expect_match(strips[1], "(+- 1 SE)", fixed = TRUE) # never broken inside
    # the marks' labels (recommended N, the groups and the rule's note) within two thirds
    # of their panel: a label starts up to a third into it
    sd <- somgpu:::selection_data(sparse)
    sd$marks$label[3] <- "2 groups (mixture BIC; the longest a rule's note may read)"
    marks <- Filter(function(l) inherits(l$geom, "GeomLabel"),
                    somgpu:::gg_criteria(sd)$layers)[[1]]$data$label
    expect_match(marks[1], "^recommended\nN = [0-9]+$")
    for (t in marks) expect_lte(inches(t, 9.1), 2 / 3 * panel, label = sprintf("mark \"%s\" at %s", t, s))
    strip_lines[[s]] <- sum(lengths(strsplit(strips, "\n", fixed = TRUE)))
    box <- g$grobs[[which(g$layout$name == "guide-box")]]
    expect_lte(grid::convertWidth(sum(box$widths), "inches", valueOnly = TRUE), width,
               label = sprintf("the legend at %s", s))
    keys <- ggplot2::ggplot_build(p)$plot$scales$get_scales("shape")$get_labels()
    expect_match(gsub("\n", " ", keys), "dense neighbours across")
    gr <- ggplot2::autoplot(sel, "groups", data = iris)
    for (t in c(gr$labels$title, gr$labels$caption, gr$labels$colour)) {
      expect_lte(inches(t, 13.2), width - 0.2, label = sprintf("\"%s\" at %s", t, s))
    }
    grDevices::dev.off()
  }
  # the strips wrap as the device is narrow: more lines at 480 than at 900 pixels
  expect_gt(strip_lines[["480 x 480"]], strip_lines[["900 x 600"]])
})

test_that("the base groups view's legend below the panel clears the x axis label", {
  sels <- list(iris = figure_sel(), USArrests = figure_sel(USArrests))
  for (s in c("480 x 480", "900 x 600", "7 x 5 in")) for (d in names(sels)) {
    r <- record_fit(plot(sels[[d]], "groups", data = get(d)), figure_sizes[[s]])
    do.call(grDevices::png, c(list(filename = tempfile(fileext = ".png")), figure_sizes[[s]]))
    line <- graphics::par("csi") # a margin line, inches
    room <- graphics::par("mgp")[1] + 1 # the x axis label's line and its height
    height <- grDevices::dev.size("in")[2]
    grDevices::dev.off()
    below <- Filter(function(l) l[4] < r$panels[[1]][3], r$legends)
    if (!length(below)) next # a legend at the right
    gap <- (r$panels[[1]][3] - below[[1]][4]) * height / line - room
    expect_gte(gap, 0.25, label = sprintf("lines between PC1 and the legend of %s at %s", d, s))
  }
})

test_that("every neuron of a ring of 12 is numbered, no number over another", {
  # label_places(): two neurons on one point both numbered, the second beside its circle
  at <- somgpu:::label_places(c(0, 0, 1), c(0, 0, 0), w = 0.2, h = 0.15, r = 0.1)
  expect_false(anyNA(at$x))
  expect_identical(at$moved, c(FALSE, TRUE, FALSE))
  expect_gte(max(abs(at$x[2]) - 0.1, abs(at$y[2]) - 0.075), 0.1) # its box off the circle
  fit <- train(faithful, sizes = 12, seed = 1, backend = "cpu") # neuron 11 beside 2 and 12
  apart <- function(x, y, w, h) {
    clash <- outer(seq_along(x), seq_along(x), function(i, j) {
      i < j & abs(x[i] - x[j]) < (w[i] + w[j]) / 2 & abs(y[i] - y[j]) < (h[i] + h[j]) / 2
    })
    !any(clash)
  }
  for (s in c("480 x 480", "900 x 600")) {
    tx <- do.call(rbind, record_fit(plot(fit, "codes", size = 12), figure_sizes[[s]])$texts)
    expect_identical(nrow(tx), 12L, label = sprintf("numbers drawn at %s", s))
    expect_true(apart(tx$x, tx$y, tx$w, tx$h), label = sprintf("numbers apart at %s", s))
  }
  skip_if_not_installed("ggplot2")
  p <- ggplot2::autoplot(fit, "codes", size = 12)
  n <- p$layers[[which(vapply(p$layers, function(l) inherits(l$geom, "GeomText"), TRUE))]]$data
  expect_setequal(n$neuron, 1:12)
  span <- max(diff(range(p$layers[[3]]$data$PC1)), diff(range(p$layers[[3]]$data$PC2)))
  expect_true(apart(n$PC1, n$PC2, rep(0.04 * span, 12), rep(0.03 * span, 12)))
})
