# Clusters and groups in a file (R/fileclusters.R): what a result holds is a path that
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
  withr::local_dir(tempdir())
  expect_identical(dim(fit$clusters[1:2, ]), c(2L, 2L)) # after setwd(), still found
})
