# Clusters and groups in a file (R/data_file_clusters.R): what a result holds is a path that
# attaches the big.matrix on first use, never a big.matrix whose pointer dies with
# saveRDS(); bigmemory's own functions on such a pointer crash R (issue 38).

test_that("clusters in a file read like a matrix, in this session", {
  skip_if_not_installed("bigmemory")
  dir <- withr::local_tempdir()
  y <- seed_data(600, 3)
  bm <- file_matrix(y, dir)
  fit <- train(bm, nmax = 4, iter_max = 5, algorithm = "batch", seed = 3, backend = "cpu",
               clusters_file = file.path(dir, "cl.bin"))
  mem <- train(y, nmax = 4, iter_max = 5, algorithm = "batch", seed = 3, backend = "cpu")
  cl <- fit$clusters
  expect_s3_class(cl, "somgpu_file_clusters")
  expect_identical(dim(cl), c(600L, 3L))
  expect_identical(nrow(cl), 600L)
  expect_identical(colnames(cl), c("N2", "N3", "N4"))
  expect_identical(cl$N3, mem$clusters$N3)
  expect_identical(cl[["N4"]], mem$clusters$N4)
  expect_identical(cl[, "N3"], mem$clusters$N3)
  expect_identical(unname(cl[1:3, ]), unname(as.matrix(mem$clusters[1:3, ])))
  expect_identical(cl[2:5, 2], mem$clusters$N3[2:5])
  expect_identical(dim(head(cl)), c(6L, 3L))
  expect_identical(unname(tail(cl, 2)[, "N4"]), mem$clusters$N4[599:600])
  expect_identical(as.data.frame(cl)$N2, mem$clusters$N2)
  expect_identical(dim(as.matrix(cl)), c(600L, 3L))
  expect_equal(nrow(as_big_matrix(fit)), 600)
  expect_error(cl$N9, "no column N9; they have N2, N3, N4", class = "somgpu_input_error")
  expect_error(cl[, "N9"], "no column N9", class = "somgpu_input_error")
  expect_error(cl[3], "indexed by rows and columns", class = "somgpu_input_error")
  expect_output(print(cl), "clusters of 600 rows, 3 columns \\(N2, N3, N4\\), in the file .*cl\\.bin")
  expect_output(print(cl), "and 594 more rows")
  expect_output(str(cl), "somgpu_file_clusters: 600 x 3")
  expect_error(as_big_matrix(mem), "keep their clusters in memory|not a fit|whose clusters went to a file",
               class = "somgpu_input_error")
})

test_that("a saved fit, prediction and selection with files work in a new session with bigmemory loaded", {
  skip_if_not_installed("bigmemory")
  dir <- withr::local_tempdir()
  y <- seed_data(1000, 4)
  bm <- file_matrix(y, dir)
  fit <- train(bm, nmax = 3, algorithm = "batch", iter_max = 5, seed = 1, backend = "cpu",
               clusters_file = file.path(dir, "cl.bin"))
  pred <- suppressMessages(predict(fit, bm, clusters_file = file.path(dir, "p.bin")))
  sel <- select_size(bm, sizes = 2:4, restarts = 1, bootstrap = 3, iter_max = 5, seed = 1,
                     sample_rows = 300, backend = "cpu", progress = FALSE,
                     groups_file = file.path(dir, "g.bin"))
  expect_identical(sel$groups_file, file.path(normalizePath(dir), "g.bin"))
  rds <- file.path(dir, "all.rds")
  saveRDS(list(fit = fit, pred = pred, sel = sel), rds)
  want <- paste(c(fit$clusters[1:3, "N3"], tabulate(fit$clusters$N2, 2),
                  pred[998:1000, "N2"], as_big_matrix(sel)[1:4, 1]), collapse = " ")
  # what a user does first with a fit read back: the ordinary ways of looking at a matrix
  res <- run_child(sprintf('
    library(bigmemory)
    all <- readRDS(%s)
    fit <- all$fit
    cat("NROW", nrow(fit$clusters), "DIM", dim(fit$clusters), "\\n")
    got <- c(fit$clusters[1:3, "N3"], tabulate(fit$clusters$N2, 2), all$pred[998:1000, "N2"],
             as_big_matrix(all$sel)[1:4, 1])
    cat("GOT", got, "\\n")
    print(head(fit$clusters, 2)); print(fit$clusters); str(fit$clusters)
    m <- as.matrix(all$pred); d <- as.data.frame(fit$clusters)
    cat("BIG", class(as_big_matrix(fit)), nrow(as_big_matrix(fit)), "\\n")
    print(fit); s <- summary(fit); print(all$sel)
    png(tempfile()); plot(fit, "counts", size = 3); plot(all$sel); dev.off()
    cat("DONE\\n")', deparse(rds)))
  expect_identical(res$status, 0L)
  expect_match(res$stdout, "NROW 1000 DIM 1000 2")
  expect_match(res$stdout, paste("GOT", want), fixed = TRUE)
  expect_match(res$stdout, "BIG big.matrix 1000")
  expect_match(res$stdout, "DONE")
  expect_no_match(res$stderr, "caught segfault")
})

test_that("clusters whose files are gone: a classed error naming them, no crash", {
  skip_if_not_installed("bigmemory")
  dir <- withr::local_tempdir()
  bm <- file_matrix(seed_data(200, 2), dir)
  fit <- train(bm, nmax = 3, algorithm = "batch", iter_max = 3, seed = 1, backend = "cpu",
               clusters_file = file.path(dir, "cl.bin"))
  rds <- file.path(dir, "fit.rds")
  saveRDS(fit, rds)
  file.remove(file.path(dir, c("cl.bin", "cl.bin.desc")))
  res <- run_child(sprintf('
    library(bigmemory)
    fit <- readRDS(%s)
    for (f in list(function() nrow(fit$clusters), function() fit$clusters[1:3, ],
                   function() fit$clusters$N2, function() as_big_matrix(fit))) {
      e <- tryCatch(f(), error = function(e) e)
      cat("CLASS", class(e)[1], if (inherits(e, "error")) conditionMessage(e), "\\n")
    }
    print(fit$clusters)
    cat("DONE\\n")', deparse(rds)))
  expect_identical(res$status, 0L)
  # nrow() needs only the shape, which the object keeps
  expect_match(res$stdout, "CLASS integer")
  expect_match(res$stdout, "CLASS somgpu_file_error .*cl\\.bin\\.desc and .*cl\\.bin are gone")
  expect_match(res$stdout, "clusters of 200 rows.*are gone")
  expect_match(res$stdout, "DONE")
})

test_that("a selection whose groups went to a file says so when printed", {
  skip_if_not_installed("bigmemory")
  dir <- withr::local_tempdir()
  y <- withr::with_seed(1, rbind(matrix(rnorm(2000), ncol = 4), matrix(rnorm(2000, 6), ncol = 4)))
  bm <- file_matrix(y, dir)
  sel <- select_size(bm, sizes = 2:4, restarts = 1, bootstrap = 3, iter_max = 5, seed = 1,
                     sample_rows = 300, backend = "cpu", progress = FALSE, threads = 2,
                     groups_file = file.path(dir, "g.bin"))
  expect_null(sel$partition)
  expect_equal(sel$groups, 2) # two blobs 6 sd apart
  out <- capture.output(print(sel))
  expect_true(any(grepl("groups (each row's in `groups_file`)", out, fixed = TRUE)))
  expect_false(any(grepl("`partition`", out, fixed = TRUE)))
})

test_that("a clusters or groups file named as a folder is refused; the path kept absolute", {
  skip_if_not_installed("bigmemory")
  dir <- withr::local_tempdir()
  bm <- file_matrix(seed_data(200, 2), dir)
  dir.create(file.path(dir, "sub"))
  withr::local_dir(dir)
  expect_error(train(bm, nmax = 3, algorithm = "batch", iter_max = 3, clusters_file = "sub/"),
               "`clusters_file` names the folder sub/; name a file in it, e.g. sub/clusters.bin",
               class = "somgpu_input_error")
  expect_error(train(bm, nmax = 3, algorithm = "batch", iter_max = 3, clusters_file = "sub"),
               "names the folder sub;", class = "somgpu_input_error")
  expect_error(select_size(bm, sizes = 2:3, bootstrap = 2, sample_rows = 100, groups_file = "sub/"),
               "`groups_file` names the folder sub/; name a file in it, e.g. sub/groups.bin",
               class = "somgpu_input_error")
  expect_false(file.exists("sub.desc"))
  fit <- train(bm, nmax = 3, algorithm = "batch", iter_max = 3, seed = 1, backend = "cpu",
               clusters_file = "sub/cl.bin")
  expect_identical(fit$params$clusters_file, file.path(normalizePath("sub"), "cl.bin"))
  pred <- suppressMessages(predict(fit, bm, clusters_file = "sub/p.bin"))
  expect_identical(.subset2(pred, "path"), file.path(normalizePath("sub"), "p.bin"))
  sel <- select_size(bm, sizes = 2:3, restarts = 1, bootstrap = 2, iter_max = 3, seed = 1,
                     backend = "cpu", progress = FALSE, groups_file = "sub/g.bin")
  expect_identical(sel$groups_file, file.path(normalizePath("sub"), "g.bin"))
  withr::local_dir(tempdir())
  expect_identical(dim(fit$clusters[1:2, ]), c(2L, 2L)) # after setwd(), still found
  expect_identical(pred[1:2, "N2"], fit$clusters[1:2, "N2"])
  expect_identical(nrow(as_big_matrix(sel)), 200)
})

test_that("saved results with files: every ordinary use in a new session, somgpu not attached", {
  skip_if_not_installed("bigmemory")
  skip_if_not_installed("generics")
  skip_if_not_installed("ggplot2")
  skip_if_not_installed("kohonen")
  dir <- withr::local_tempdir()
  y <- withr::with_seed(5, rbind(matrix(rnorm(1200, 0, 0.4), ncol = 3),
                                 matrix(rnorm(1200, 3, 0.4), ncol = 3)))
  colnames(y) <- c("a", "b", "c")
  bm <- file_matrix(y, dir)
  fit <- train(bm, nmax = 4, algorithm = "batch", iter_max = 10, seed = 1, backend = "cpu",
               clusters_file = file.path(dir, "cl.bin"))
  pred <- suppressMessages(predict(fit, bm, clusters_file = file.path(dir, "p.bin")))
  sel <- select_size(bm, sizes = 2:4, restarts = 1, bootstrap = 3, iter_max = 10, seed = 1,
                     backend = "cpu", progress = FALSE, groups_file = file.path(dir, "g.bin"))
  rds <- file.path(dir, "all.rds")
  saveRDS(list(fit = fit, pred = pred, sel = sel), rds)
  # each check prints "CHECK <name> TRUE"; a crash ends the process before "DONE"
  res <- run_child(sprintf('
    all <- readRDS(%s)
    fit <- all$fit; pred <- all$pred; sel <- all$sel
    check <- function(name, ok) cat("CHECK", name, isTRUE(ok), "\\n")
    check("loaded", "somgpu" %%in%% loadedNamespaces())
    cl <- fit$clusters
    check("nrow", identical(nrow(cl), 800L)); check("dim", identical(dim(cl), c(800L, 3L)))
    check("index", identical(unname(cl[1:3, "N2"]), cl$N2[1:3]))
    check("head", identical(dim(head(cl)), c(6L, 3L)))
    check("as.matrix", identical(dim(as.matrix(pred)), c(800L, 3L)))
    check("summary", identical(as.vector(summary(cl)$N2), tabulate(cl$N2, 2)))
    out <- capture.output(print(cl), str(cl), print(fit), print(summary(cl)), print(sel))
    bm <- bigmemory::attach.big.matrix(%s)
    y <- bm[, ]
    check("predict", identical(predict(fit, y[1:5, ])$N3, cl$N3[1:5]))
    check("summary_fit", is.list(summary(fit, data = y)))
    g <- somgpu::as_big_matrix(sel)[, 1]
    check("predict_sel", identical(predict(sel, bm), g))
    n3 <- tabulate(cl$N3, 3)
    check("tidy", identical(generics::tidy(fit, size = 3)$size, n3[n3 > 0]))
    check("augment", identical(as.integer(generics::augment(fit, y, size = 3)$.cluster), cl$N3))
    check("augment_sel", identical(as.integer(generics::augment(sel, y)$.group), g))
    check("tidy_sel", nrow(generics::tidy(sel)) == sel$groups)
    check("glance", nrow(generics::glance(fit)) == 3L && nrow(generics::glance(sel)) == 1L)
    check("kohonen", identical(somgpu::as_kohonen(fit, 3, data = y)$unit.classif, as.numeric(cl$N3)))
    check("kohonen_sel", inherits(somgpu::as_kohonen(sel, data = y), "kohonen"))
    png(tempfile(fileext = ".png"))
    for (type in c("quality", "neighbours", "profiles", "counts")) plot(fit, type, size = 3)
    plot(fit, "codes", size = 3, data = bm); plot(fit, "groups", data = bm)
    plot(sel); plot(sel, "groups", data = bm)
    print(ggplot2::autoplot(fit)); print(ggplot2::autoplot(fit, "codes", size = 3, data = bm))
    print(ggplot2::autoplot(sel)); print(ggplot2::autoplot(sel, "groups", data = bm))
    dev.off()
    cat("DONE\\n")', deparse(rds), deparse(file.path(dir, "y.desc"))), attach = FALSE)
  expect_identical(res$status, 0L, info = res$stderr)
  checks <- regmatches(res$stdout, gregexpr("CHECK \\S+ (TRUE|FALSE)", res$stdout))[[1]]
  expect_length(checks, 17L)
  expect_false(any(grepl("FALSE$", checks)), label = paste(checks, collapse = "; "))
  expect_match(res$stdout, "DONE")
  expect_no_match(res$stderr, "caught segfault")
})
