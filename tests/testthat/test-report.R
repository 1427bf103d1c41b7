# Output for reports: plots that take graphical parameters, tidy tables, saved and
# continued fits.

report_fit <- function(...) {
  train(iris[, 1:4], sizes = c(8, 3, 5), iter_max = 15, restarts = 2, seed = 1,
        trace = TRUE, backend = "cpu", ...)
}

test_that("every plot type takes main, labels and marks from ..., without a warning", {
  fit <- report_fit()
  all <- list(main = "a title", xlab = "x", ylab = "y", col = "red", pch = 2, cex = 1.2,
              lwd = 2, lty = 2)
  png(tempfile(fileext = ".png"))
  on.exit(dev.off())
  for (type in c("quality", "trace", "codes", "groups", "neighbours", "profiles", "counts")) {
    size <- if (type %in% c("quality", "trace", "groups")) NULL else 5
    expect_silent(do.call(plot, c(list(fit, type = type, size = size), all)))
    expect_silent(plot(fit, type = type, size = size))
    for (one in names(all)) {
      expect_silent(do.call(plot, c(list(fit, type = type, size = size), all[one])))
    }
  }
})

test_that("quality joins the kept restarts in order of size; trace stays compact", {
  fit <- report_fit()
  png(tempfile(fileext = ".png"))
  on.exit(dev.off())
  kept <- somgpu:::plot_quality(fit, list())
  expect_identical(kept$size, c(3L, 5L, 8L))
  big <- train(iris[, 1:4], sizes = 2:31, iter_max = 4, seed = 1, trace = TRUE,
               backend = "cpu")
  expect_silent(plot(big, type = "trace"))
})

test_that("types match partially; size is one trained size", {
  fit <- report_fit()
  png(tempfile(fileext = ".png"))
  on.exit(dev.off())
  expect_silent(plot(fit, "cod", size = 3))
  expect_silent(plot(fit, type = "prof", size = 8))
  expect_error(plot(fit, "zz"), "`type` must be one of", class = "somgpu_input_error")
  expect_error(plot(fit, "c"), "`type` must be one of", class = "somgpu_input_error") # codes or counts
  expect_error(plot(fit, "codes", size = c(3, 5)), "`size` must be one trained size",
               class = "somgpu_input_error")
  expect_error(plot(fit, "counts", size = 4), "`size` must be one trained size",
               class = "somgpu_input_error")
})

test_that("the ring's neighbour distances are the distances between adjacent neurons", {
  fit <- train(iris[, 1:4], sizes = 6, iter_max = 10, seed = 2, backend = "cpu",
               var_weights = c(1, 2, 1, 0.5))
  w <- fit$weights$N6
  nxt <- c(2:6, 1)
  ref <- sqrt(rowSums(sweep((w - w[nxt, ])^2, 2, c(1, 2, 1, 0.5), "*")))
  expect_equal(unname(somgpu:::ring_gaps(fit, 6)), unname(ref), tolerance = 1e-12)
})

test_that("tidy, glance and augment give report-ready data frames", {
  skip_if_not_installed("generics")
  fit <- report_fit()
  td <- generics::tidy(fit, quality = TRUE)
  expect_identical(names(td), c("size", "restart", "qe", "te", "explained_var", "best"))
  expect_identical(nrow(td), 6L)
  expect_identical(td$qe, fit$quality$qe)
  gl <- generics::glance(fit)
  expect_identical(names(gl), c("size", "qe", "te", "explained_var", "stability", "rows"))
  expect_identical(gl$size, c(8L, 3L, 5L))
  expect_identical(gl$stability, fit$stability$stability)
  expect_identical(gl$rows, rep(150L, 3))
  au <- generics::augment(fit, iris, size = 5, all_sizes = TRUE)
  expect_identical(names(au), c(names(iris), ".cluster", ".group", ".cluster_N8",
                                ".cluster_N3", ".cluster_N5"))
  expect_identical(au$.cluster_N5, fit$clusters$N5)
  # .group: summary()'s groups of the fit's own rows (iris here)
  expect_identical(as.integer(au$.group), summary(fit)$partition)
  expect_identical(au$Species, iris$Species)
  expect_identical(generics::augment(fit, size = 3)$.cluster, factor(fit$clusters$N3, levels = 1:3))
  skip_if_not_installed("knitr")
  expect_true(any(grepl("explained_var", knitr::kable(td))))
})

test_that("glance() of a selection: one row that says what it found", {
  skip_if_not_installed("generics")
  sel <- select_size(iris[1:4], sizes = 2:4, restarts = 1, bootstrap = 3, iter_max = 10,
                     scale = TRUE, seed = 1, progress = FALSE)
  gl <- generics::glance(sel)
  expect_identical(names(gl), c("groups", "recommended", "rule", "model", "criterion",
                                "stability", "rows", "n", "sampled", "components", "bootstrap",
                                "elapsed"))
  expect_identical(nrow(gl), 1L)
  expect_identical(gl$groups, sel$groups)
  expect_identical(gl$recommended, sel$recommended)
  expect_identical(gl$rule, sel$grouping$rule)
  # the rule is the last in `decisions` that was accepted (the step "noise" is applied)
  d <- sel$decisions
  expect_identical(gl$rule, utils::tail(d$rule[d$outcome == "accepted"], 1))
  expect_identical(gl$model, sel$grouping$model)
  expect_identical(gl$criterion, sel$grouping$criterion)
  expect_identical(gl$stability, mean(sel$group_table$stability))
  expect_identical(c(gl$rows, gl$n), c(150L, 150L))
  expect_false(gl$sampled)
})

test_that("one group is not rated: NA stability in every report (issue 68)", {
  # one round cloud: one group, whose "stability" (its Jaccard with the replicates' one
  # group, 1 by construction) measures nothing; glance() says NA, and so do the rest
  x <- withr::with_seed(1, matrix(rnorm(400), ncol = 2, dimnames = list(NULL, c("a", "b"))))
  for (groups in list(NULL, 1L)) {
    sel <- select_size(x, groups = groups, seed = 1, threads = 1, progress = FALSE)
    expect_identical(sel$groups, 1L)
    expect_identical(sel$group_table$stability, NA_real_)
    expect_identical(sel$group_table$reading, "not rated")
    expect_identical(generics::tidy(sel)$stability, NA_real_)
    expect_identical(generics::tidy(sel)$reading, "not rated")
    expect_identical(generics::glance(sel)$stability, NA_real_)
    expect_no_match(paste(capture.output(print(sel), print(summary(sel))), collapse = " "),
                    "stable")
  }
  # two groups are rated as before
  sel <- select_size(two_blobs(), sizes = 2:4, seed = 1, threads = 1, progress = FALSE)
  expect_identical(sel$group_table$reading, rep("highly stable", 2))
})

test_that("a saved fit predicts and plots in a new R session", {
  skip_if_not_installed("processx")
  fit <- train(airquality, nmax = 4, iter_max = 15, seed = 1, scale = TRUE, backend = "cpu")
  file <- tempfile(fileext = ".rds")
  saveRDS(fit, file)
  png <- tempfile(fileext = ".png")
  code <- sprintf('
    .libPaths(c(%s, .libPaths()))
    library(somgpu)
    fit <- readRDS(%s)
    p <- predict(fit, airquality)
    cat("SAME", identical(p, fit$clusters), "\\n")
    png(%s); plot(fit); plot(fit, "codes", size = 3); dev.off()
    cat("PLOTTED\\n")
  ', deparse(dirname(find.package("somgpu"))), deparse(file), deparse(png))
  res <- processx::run(file.path(R.home("bin"), "Rscript"), c("-e", code), error_on_status = FALSE)
  expect_identical(res$status, 0L)
  expect_match(res$stdout, "SAME TRUE")
  expect_match(res$stdout, "PLOTTED")
  expect_true(file.exists(png))
})

test_that("init = fit continues from the fit's weights for the sizes it has", {
  y <- as.matrix(iris[, 1:4])
  first <- train(y, nmax = 5, iter_max = 20, seed = 1, backend = "cpu")
  # no pass: the weights a continued run starts from
  start <- train(y, sizes = 3:7, init = first, iter_max = 1, seed = 4, backend = "cpu")
  expect_identical(start$weights[c("N3", "N4", "N5")], first$weights[c("N3", "N4", "N5")])
  fresh <- train(y, sizes = 6:7, iter_max = 1, seed = 4, backend = "cpu")
  expect_identical(start$weights[c("N6", "N7")], fresh$weights)
  expect_identical(start$params$init, "fit")
  # columns by name; scaled data continue in the data's units
  shuffled <- train(y[, 4:1], sizes = 3, init = first, iter_max = 1, backend = "cpu")
  expect_identical(shuffled$weights$N3, first$weights$N3[, 4:1])
  scaled <- train(y, sizes = 3, init = first, iter_max = 1, scale = TRUE, backend = "cpu")
  expect_equal(scaled$weights$N3, first$weights$N3, tolerance = 1e-14)
  # fine-tuning: a small neighbourhood and learning rate keep the map and lower its qe
  tuned <- train(y, sizes = 2:5, init = first, iter_max = 10, sigma0 = 0.5, eta0 = 0.05,
                 seed = 2, backend = "cpu")
  expect_true(all(tuned$quality$qe <= first$quality$qe * 1.01))
  expect_error(train(y[, 1:3], init = first), "`init` is a fit of 4 columns",
               class = "somgpu_input_error")
})

test_that("help pages show methods as methods in their usage (issue 38)", {
  man <- test_path("..", "..", "man")
  skip_if_not(dir.exists(man), "no help sources beside the tests (R CMD check's copy)")
  methods <- grep("^S3method\\(", readLines(test_path("..", "..", "NAMESPACE")), value = TRUE)
  fun <- sub("^S3method\\((?:[a-zA-Z0-9.]+::)?\"?([^\",]+)\"?, *([^)]+)\\)$", "\\1.\\2", methods)
  for (rd in list.files(man, "[.]Rd$", full.names = TRUE)) {
    usage <- readLines(rd)
    at <- grep("^\\\\usage\\{", usage)
    if (!length(at)) next
    lines <- usage[at:length(usage)]
    lines <- lines[seq_len(match("}", lines))]
    plain <- vapply(fun, function(f) any(startsWith(lines, paste0(f, "("))), logical(1))
    expect_false(any(plain), label = sprintf("%s writes %s as a function", basename(rd),
                                             paste(fun[plain], collapse = ", ")))
  }
})

test_that("print() of a selection counts the rows it left out; no pass is said", {
  y <- iris[1:4]
  y[c(3, 40), ] <- NA
  sel <- select_size(y, sizes = 2:3, restarts = 1, bootstrap = 2, iter_max = 5, seed = 1,
                     progress = FALSE)
  expect_identical(sel$strategy$dropped, 2L)
  expect_output(print(sel), "trained on 148 of the 150 rows \\(2 left out for missing values: no group\\), online training")
  expect_true(all(is.na(sel$partition[c(3, 40)])))
  full <- select_size(iris[1:4], sizes = 2:3, restarts = 1, bootstrap = 2, iter_max = 5,
                      seed = 1, progress = FALSE)
  expect_output(print(full), "trained on all 150 rows, online training")
  expect_message(train(iris[1:4], nmax = 3, iter_max = 1, seed = 1),
                 "iter_max = 1 trains no pass .*the maps are their initial weights")
})

test_that("a selection's reports: as_kohonen at its recommended size, augment says what it needs", {
  skip_if_not_installed("kohonen")
  skip_if_not_installed("generics")
  y <- iris[, 1:4]
  sel <- select_size(y, sizes = 2:4, restarts = 1, bootstrap = 3, iter_max = 10, scale = TRUE,
                     seed = 1, progress = FALSE)
  expect_message(k <- as_kohonen(sel, data = y),
                 sprintf("ring size N = %d, the size the selection recommends", sel$recommended))
  expect_identical(nrow(k$codes[[1]]), sel$recommended)
  expect_identical(k$unit.classif,
                   as.numeric(predict(sel$fit, y, sizes = sel$recommended)[[1]]))
  expect_identical(nrow(as_kohonen(sel, size = 4, data = y)$codes[[1]]), 4L)
  expect_error(as_kohonen(structure(list(centers = 1), class = "kmeans")),
               "from train\\(\\) or a selection from select_size\\(\\), not an object of class kmeans",
               class = "somgpu_input_error")
  # rows the selection does not keep: where they come from, and where its groups are
  expect_error(generics::augment(sel),
               "The selection keeps no data \\(select_size\\(keep_data = TRUE\\) keeps it\\): pass the rows it was made on as `data`. Every row's group is in `partition`.",
               class = "somgpu_input_error")
  expect_identical(as.integer(generics::augment(sel, y)$.group), sel$partition)
})

test_that("the reason says where the groups are weak over the replicates", {
  tab <- function(rows, stability) data.frame(group = seq_along(rows), rows = rows, stability = stability)
  # weighted by rows: (10 * 0.9 + 30 * 0.5) / 40 = 0.6, under "stable"'s 0.75
  expect_match(somgpu:::weak_groups_words(tab(c(10, 30), c(0.9, 0.5))),
               "^ Their bootstrap stability is low \\(0.60 weighted by rows, under the 0.75")
  expect_identical(somgpu:::weak_groups_words(tab(c(10, 30), c(0.9, 0.7))), "") # 0.75
  expect_identical(somgpu:::weak_groups_words(tab(c(10, 30), c(NA, 0.8))), "")
  expect_match(somgpu:::weak_groups_words(tab(c(10, 30), c(NA, 0.5))), "\\(0.50 weighted")
  expect_identical(somgpu:::weak_groups_words(tab(40, 0.2)), "") # one group: none to doubt
  expect_identical(somgpu:::weak_groups_words(tab(c(10, 30), c(NA, NA))), "")
  expect_identical(somgpu:::weak_groups_words(NULL), "")
  # rows drawn without groups (uniform in a square): Gaussian pieces, weak, and said so
  u <- withr::with_seed(1, matrix(runif(3000), ncol = 2))
  sel <- select_size(u, sizes = 2:10, bootstrap = 10, seed = 1, threads = 2, progress = FALSE)
  expect_gt(sel$groups, 1L)
  t <- sel$group_table
  expect_lt(sum(t$rows * t$stability) / sum(t$rows), 0.75)
  expect_match(sel$reason, "stability is low .* they may be pieces of rows that hold no such groups")
  # two clear blobs: stable groups, no such words
  b <- withr::with_seed(2, rbind(matrix(rnorm(400), 200), matrix(rnorm(400, 6), 200)))
  sb <- select_size(b, sizes = 2:6, bootstrap = 10, seed = 1, threads = 2, progress = FALSE)
  expect_identical(sb$groups, 2L)
  expect_no_match(sb$reason, "stability is low")
})
