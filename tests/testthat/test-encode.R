# Data frames as they come (issue 42): categorical columns as indicator columns, against a
# hand-built indicator matrix; predict(), the reports and select_size() read them back.

# A small mixed frame: two numeric columns (one with gaps), a factor with a missing value
# and an unused level, a logical and a character column.
mixed_frame <- function(n = 90, rng_seed = 1) {
  withr::with_seed(rng_seed, {
    g <- sample(1:3, n, replace = TRUE)
    a <- c(0, 3, 6)[g] + rnorm(n)
    b <- rnorm(n)
    b[c(4, 30)] <- NA
    f <- factor(c("lo", "mid", "hi")[g], levels = c("lo", "mid", "hi", "unused"))
    f[c(7, 50)] <- NA
    data.frame(a = a, f = f, b = b, ok = g == 2 | (runif(n) < 0.1),
               h = c("x", "y")[1 + (runif(n) < 0.3)], stringsAsFactors = FALSE)
  })
}

# The frame's indicator matrix built by hand: the factor's observed levels in their order,
# the logical's FALSE, TRUE, the character's sorted; 1/0, NA where missing.
hand_indicators <- function(d) {
  ind <- function(v, levels) {
    m <- vapply(levels, function(l) as.numeric(v == l), numeric(length(v)))
    m[is.na(v), ] <- NA
    m
  }
  x <- cbind(a = d$a, ind(as.character(d$f), c("lo", "mid", "hi")), b = d$b,
             ind(as.character(d$ok), c("FALSE", "TRUE")), ind(d$h, c("x", "y")))
  colnames(x) <- c("a", "f=lo", "f=mid", "f=hi", "b", "ok=FALSE", "ok=TRUE", "h=x", "h=y")
  x
}

test_that("a mixed frame trains as its hand-built indicator matrix", {
  d <- mixed_frame()
  x <- hand_indicators(d)
  rm(list = intersect("character", ls(envir = somgpu:::.said)), envir = somgpu:::.said)
  expect_message(fit <- train(d, nmax = 4, iter_max = 20, seed = 3),
                 "character column `h` taken as factor", fixed = TRUE)
  expect_identical(fit$data, x) # the encoding: names, order, NA rows, the unused level gone
  ref <- train(x, nmax = 4, iter_max = 20, seed = 3) # the same maps, bit for bit
  expect_identical(fit$weights, ref$weights)
  expect_identical(fit$clusters, ref$clusters)
  expect_identical(fit$quality, ref$quality)
  expect_identical(fit$dropped, ref$dropped)
  # scale = TRUE standardizes the numeric columns only (the indicators stay 0/1): the maps
  # of the hand-built matrix so scaled; the weights on the indicators read as level shares
  fs <- train(d, nmax = 4, iter_max = 20, seed = 3, algorithm = "batch", scale = TRUE)
  center <- c(mean(d$a), rep(0, 3), mean(d$b, na.rm = TRUE), rep(0, 4))
  spread <- c(sd(d$a), rep(1, 3), sd(d$b, na.rm = TRUE), rep(1, 4))
  expect_equal(unname(fs$scaling$center), center, tolerance = 1e-14)
  expect_equal(unname(fs$scaling$scale), spread, tolerance = 1e-14)
  rs <- train(x, nmax = 4, iter_max = 20, seed = 3, algorithm = "batch", scale = fs$scaling)
  expect_identical(fs$weights, rs$weights)
  w <- fs$weights$N4
  expect_identical(colnames(w), colnames(x))
  expect_equal(unname(rowSums(w[, c("f=lo", "f=mid", "f=hi")])), rep(1, 4), tolerance = 1e-12)
  expect_true(all(w[, -c(1, 5)] > -1e-12 & w[, -c(1, 5)] < 1 + 1e-12))
  # the user's data are not modified; numeric-only frames keep the path they had (no encoding)
  expect_identical(d, mixed_frame())
  expect_null(train(d[c("a", "b")], nmax = 3, iter_max = 5, seed = 1)$encoding)
})

test_that("predict() takes the user's columns, refuses a level it has not seen", {
  d <- suppressMessages(mixed_frame())
  fit <- suppressMessages(train(d, nmax = 4, iter_max = 20, seed = 3))
  expect_identical(predict(fit, d), fit$clusters)
  # by name, in any order, other columns ignored; a factor's labels as character or factor
  nd <- d[c(5, 1, 3), c("h", "b", "ok", "f", "a")]
  nd$f <- as.character(nd$f)
  nd$h <- factor(nd$h)
  nd$note <- "extra"
  expect_identical(unname(as.matrix(predict(fit, nd))),
                   unname(as.matrix(fit$clusters[c(5, 1, 3), ])))
  # a missing level: NA in every indicator, the row placed by its other columns
  x <- hand_indicators(d)
  one <- d[9, ]
  one$f <- NA
  xr <- x[9, , drop = FALSE]
  xr[, c("f=lo", "f=mid", "f=hi")] <- NA
  expect_identical(predict(fit, one, type = "detail"), predict(fit, xr, type = "detail"))
  one$f <- "new"
  err <- expect_error(predict(fit, one), class = "somgpu_unseen_level")
  expect_s3_class(err, "somgpu_input_error")
  expect_match(conditionMessage(err), "`f` of `newdata` has the level \"new\"", fixed = TRUE)
  expect_identical(err$column, "f")
  one$f <- "lo"
  one$a <- "3" # text where the fit had numbers
  expect_error(predict(fit, one), "`a` of `newdata` is character, but the fit trained it as a numeric",
               class = "somgpu_input_error")
  expect_error(predict(fit, d[c("a", "b")]), "lacks the columns `f`, `ok`, `h`",
               class = "somgpu_input_error")
})

test_that("a numeric column as text or factor in newdata: told it was numeric (issue 68)", {
  # a fit of numeric columns only (no encoding) says what a mixed fit says: the column was
  # numeric in training, with the conversion to make
  fit <- train(iris[1:4], nmax = 3, iter_max = 10, seed = 1, threads = 1)
  nd <- iris[1:3, ]
  nd$Sepal.Length <- as.character(nd$Sepal.Length)
  err <- expect_error(predict(fit, nd), class = "somgpu_input_error")
  expect_match(conditionMessage(err),
               "`Sepal.Length` of `newdata` is character, but the fit trained it as a numeric column",
               fixed = TRUE)
  expect_match(conditionMessage(err), "as.numeric()", fixed = TRUE)
  nd$Petal.Width <- factor(nd$Petal.Width)
  expect_error(predict(fit, nd), paste("`Sepal.Length`, `Petal.Width` of `newdata` are character",
                                       "and factor, but the fit trained them as numeric columns"),
               class = "somgpu_input_error")
  # a column the fit does not read stays ignored, whatever its type
  expect_identical(unname(as.matrix(predict(fit, iris[1:3, ]))),
                   unname(as.matrix(fit$clusters[1:3, ])))
})

test_that("?train states the identifier rule the code applies (issue 68)", {
  help_text <- function(topic) {
    rd <- tools::Rd_db("somgpu")[[paste0(topic, ".Rd")]]
    gsub("\\s+", " ", paste(utils::capture.output(tools::Rd2txt(rd)), collapse = " "))
  }
  txt <- help_text("train")
  expect_no_match(txt, "one per row, is refused")
  expect_match(txt, "more than 100 levels, or more than 20 that are all different", fixed = TRUE)
  expect_match(txt, "15 identifiers in 15 rows, are taken as levels", fixed = TRUE)
  # the rule itself: 15 unique ids are 15 indicators; 21 are refused, and so are 101 levels
  # among repeated values
  ids <- function(k, n = k) {
    data.frame(x = seq_len(n), id = sprintf("id%03d", rep_len(seq_len(k), n)))
  }
  fit <- suppressMessages(train(ids(15), sizes = 2, iter_max = 2, seed = 1))
  expect_identical(sum(fit$encoding$column == 2L), 15L)
  expect_error(suppressMessages(train(ids(21), sizes = 2)), "21 levels \\(one per row\\)",
               class = "somgpu_input_error")
  expect_s3_class(suppressMessages(train(ids(21, 42), sizes = 2, iter_max = 2)), "somgpu")
  expect_error(suppressMessages(train(ids(101, 202), sizes = 2)), "101 levels \\(at most 100\\)",
               class = "somgpu_input_error")
})

test_that("var_weights stay per user column; refusals name the column", {
  d <- suppressMessages(mixed_frame())
  fit <- suppressMessages(train(d, nmax = 3, iter_max = 10, seed = 1,
                                var_weights = c(a = 1, f = 2, b = 1, ok = 0.5, h = 1)))
  expect_identical(unname(fit$var_weights), c(1, 2, 2, 2, 1, 0.5, 0.5, 1, 1))
  expect_error(train(d, nmax = 3, var_weights = rep(1, 9)), "one per column of the data \\(5",
               class = "somgpu_input_error")
  d$when <- as.Date("2024-01-01") + seq_len(nrow(d))
  expect_error(train(d, nmax = 3), "not usable: `when` \\(Date\\)", class = "somgpu_input_error")
  d$when <- NULL
  d$id <- sprintf("id%03d", seq_len(nrow(d)))
  expect_error(suppressMessages(train(d, nmax = 3)), "`id` of `y` has 90 levels \\(one per row\\): an identifier",
               class = "somgpu_input_error")
  d$id <- factor(NA, levels = "z")
  expect_error(train(d, nmax = 3), "`id` of `y` has no observed value",
               class = "somgpu_input_error")
})

test_that("the groups of mixed data follow the documented rule (a slow reference)", {
  # two numeric columns and two categorical ones, three groups; then categorical only
  d <- withr::with_seed(7, {
    g <- rep(1:3, each = 40)
    data.frame(u = rnorm(120, c(0, 2, 4)[g]), v = rnorm(120),
               f = factor(ifelse(runif(120) < 0.85, c("a", "b", "c")[g], "a")),
               e = runif(120) < c(0.9, 0.1, 0.5)[g])
  })
  for (case in 1:2) {
    y <- if (case == 1) d else d[c("f", "e")]
    fit <- train(y, sizes = 6, restarts = 2, seed = case, sigma0 = "auto", scale = TRUE)
    cl <- fit$clusters[[1L]]
    x <- unname(somgpu:::training_space(fit, fit$data)$x)
    blocks <- somgpu:::encoding_blocks(fit)
    expect_length(blocks, 2L)
    got <- somgpu:::map_grouping(x, cl, 6L, blocks = blocks)
    want <- ref_grouping(x, cl, 6L, blocks)
    expect_identical(got$model, want$family, label = sprintf("case %d model", case))
    expect_identical(got$groups, want$groups, label = sprintf("case %d groups", case))
    expect_equal(got$criterion, want$criterion, tolerance = 1e-8)
    expect_equal(got$scores, stats::setNames(want$scores, c("model", "groups", "criterion")),
                 tolerance = 1e-8)
    # the mixture's merge: the same BIC per count up to the classification's choice
    expect_equal(got$merged[c("groups", "mixture_bic")], want$merged, tolerance = 1e-8)
    expect_identical(somgpu:::ari(got$labels, want$labels), 1)
  }
  # categorical columns alone: three latent classes (each item's level mostly its class's)
  lc <- withr::with_seed(8, {
    g <- rep(1:3, each = 60)
    as.data.frame(lapply(1:5, function(k) {
      factor(ifelse(runif(180) < 0.8, c("p", "q", "r")[g], sample(c("p", "q", "r"), 180, TRUE)))
    }))
  })
  s <- summary(train(lc, sizes = 2:8, restarts = 2, seed = 1, sigma0 = "auto"))
  expect_identical(s$groups, 3L)
  expect_gt(somgpu:::ari(s$partition, rep(1:3, each = 60)), 0.8)
})

test_that("categorical columns alone: no warning, and every report says latent classes", {
  # issue 68: the Gaussian rule's check of columns of few values ran on the empty numeric
  # block and warned 22 times; the decision and glance() said "Gaussian groups (VVV)"
  lc <- withr::with_seed(8, {
    g <- rep(1:3, each = 60)
    as.data.frame(lapply(1:5, function(k) {
      factor(ifelse(runif(180) < 0.8, c("p", "q", "r")[g], sample(c("p", "q", "r"), 180, TRUE)))
    }))
  })
  warned <- character(0)
  sel <- withCallingHandlers(select_size(lc, seed = 1, threads = 1, progress = FALSE),
                             warning = function(w) {
                               warned <<- c(warned, conditionMessage(w))
                               invokeRestart("muffleWarning")
                             })
  expect_identical(warned, character(0))
  expect_identical(sel$groups, 3L)
  expect_match(sel$reason, "3 latent classes")
  said <- sel$decisions$reason[sel$decisions$rule == "gaussian"]
  expect_match(said, "^3 latent classes fit best")
  expect_no_match(paste(sel$decisions$reason, collapse = " "), "Gaussian|VVV")
  expect_identical(generics::glance(sel)$model, NA_character_) # no covariance: no model
  s <- summary(sel)
  expect_identical(s$model, NA_character_)
  expect_output(print(s), "^3 groups \\(rule gaussian: latent classes\\)")
  expect_no_match(paste(capture.output(print(sel)), collapse = " "), "Gaussian|VVV")
  # with a numeric column beside them, the groups are Gaussian and the model named
  mixed <- cbind(lc, x = withr::with_seed(9, rnorm(180, rep(c(0, 4, 8), each = 60))))
  sel <- select_size(mixed, seed = 1, threads = 1, progress = FALSE)
  expect_identical(generics::glance(sel)$model, sel$grouping$model)
  expect_match(sel$decisions$reason[2], sprintf("Gaussian groups \\(%s\\)", sel$grouping$model))
})

test_that("CPU and OpenCL give the same bits on the indicator columns, gaps included", {
  skip_if_no_opencl()
  d <- suppressMessages(mixed_frame(120, 5))
  for (algorithm in c("online", "batch")) {
    cpu <- suppressMessages(train(d, nmax = 6, iter_max = 15, seed = 2, scale = TRUE,
                                  algorithm = algorithm, backend = "cpu"))
    ocl <- suppressMessages(train(d, nmax = 6, iter_max = 15, seed = 2, scale = TRUE,
                                  algorithm = algorithm, backend = "opencl"))
    expect_identical(ocl$weights, cpu$weights, label = algorithm)
    expect_identical(ocl$clusters, cpu$clusters, label = algorithm)
    expect_identical(predict(ocl, d), predict(cpu, d))
  }
})

test_that("the penguins as they come: select_size(), its groups and reports", {
  skip_if_not_installed("palmerpenguins")
  p <- palmerpenguins::penguins
  sel <- select_size(p, sizes = 2:8, restarts = 1, bootstrap = 3, iter_max = 30,
                     scale = TRUE, seed = 1, keep_data = TRUE, progress = FALSE)
  expect_length(sel$partition, nrow(p))
  # rows 4 and 272 miss their measurements and sex: 6 of their 13 encoded values, kept
  # (na_max 0.5) and placed by species, island and year
  expect_identical(sel$fit$dropped, integer(0))
  expect_false(anyNA(sel$partition))
  expect_gte(sel$groups, 2L)
  expect_match(sel$reason, "categorical column")
  # new rows (the same ones) get the groups the selection gave them
  expect_identical(predict(sel, p), sel$partition)
  # the groups' means speak the user's columns: a share per level, summing to 1
  td <- generics::tidy(sel)
  expect_true(all(c("island=Biscoe", "island=Dream", "island=Torgersen", "sex=male") %in% names(td)))
  expect_equal(rowSums(td[c("island=Biscoe", "island=Dream", "island=Torgersen")]),
               rep(1, nrow(td)), tolerance = 1e-12)
  # augment() gives the user's columns back, factors as they were
  au <- generics::augment(sel)
  expect_identical(au$island, p$island)
  expect_identical(au$sex, p$sex)
  expect_identical(as.integer(au$.group), sel$partition)
})

test_that("the reports speak the user's columns: tidy, augment, print, as_kohonen's layers", {
  d <- suppressMessages(mixed_frame())
  fit <- suppressMessages(train(d, nmax = 4, iter_max = 20, seed = 3, scale = TRUE))
  td <- generics::tidy(fit, size = 4)
  expect_identical(names(td)[2:10], fit$encoding$names)
  expect_equal(as.matrix(td[2:10]), unname(fit$weights$N4)[td$cluster, ], ignore_attr = TRUE)
  au <- generics::augment(fit, size = 4)
  expect_identical(au$f, droplevels(d$f)) # the unused level was never seen
  expect_identical(au$ok, d$ok)
  expect_identical(as.character(au$h), d$h) # character comes back as a factor
  expect_identical(au$b, d$b)
  expect_output(print(fit), "3 categorical columns \\(f, ok, h\\) as 7 indicator columns; numeric columns centred and scaled")
  skip_if_not_installed("kohonen")
  k <- as_kohonen(fit, 4)
  expect_identical(names(k$data), c("numeric", "f", "ok", "h"))
  expect_identical(colnames(k$codes$f), c("lo", "mid", "hi"))
  expect_identical(k$dist.fcts, rep("sumofsquares", 4))
  # kohonen's own distance, summed over the layers, is the fit's: the same units (rows
  # missing a whole layer kohonen leaves out)
  m <- kohonen::map(k, newdata = k$data)
  whole <- !is.na(m$unit.classif)
  expect_gt(sum(whole), 80)
  expect_identical(m$unit.classif[whole], k$unit.classif[whole])
})
