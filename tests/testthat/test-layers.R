# The R files in their layer order: a function calls functions of its own file or of files
# below it, never above (the order CONTRIBUTING.md's source map gives). Read from the
# sources beside the tests (the test command's run); R CMD check's copy of the tests has none.

# (A file's prefix names its layer, CONTRIBUTING.md "The layers"; files of S3 methods are
# named by their generic.)
r_layers <- c(
  # the bottom: what C says, words for messages, conditions, the arithmetic of the rules
  "base_constants.R", "base_describe.R", "base_errors.R", "base_tuning.R", "math_agreement.R", "math_pca.R", "math_mixture.R",
  "math_genie.R", "math_graph.R",
  # the data and their checks
  "data_file.R", "data_file_clusters.R", "data_prepare.R", "data_validate.R", "data_encode.R", "data_memory.R",
  # threads and backends
  "backend_threads.R", "backend_cpu.R", "backend_opencl.R", "backend_registry.R", "backend_choice.R",
  # training
  "train_assess.R", "train_fit.R", "train_workers.R", "train_future.R", "train_shards.R", "train_setup.R", "train.R",
  "train_replicates.R",
  # prediction; a grouping's contract, its stability and the rules' shared inputs; the
  # Gaussian groups a map holds
  "predict.R", "rule_grouping.R", "rule_stability.R", "rule_inputs.R", "rule_gaussian.R",
  # selection: the rules, each in its file, then the pipeline that runs them in order
  # (rule_table.R), the replicates, the report, the call; the methods that report
  "print.R", "select_units.R", "select_reduce.R", "select_scale.R", "rule_linkage.R", "rule_told.R", "rule_connected.R",
  "rule_apart.R", "rule_sparse.R", "rule_bimodal.R", "rule_graph.R", "rule_noise.R", "rule_table.R", "select_control.R", "select_replicates.R",
  "select_report.R", "select_args.R", "select_result.R", "select_pipeline.R", "select.R", "summary.R", "tidy.R",
  "kohonen.R",
  # figures
  "plot_data.R", "plot_layout.R", "plot.R", "autoplot.R",
  "somgpu-package.R")

# name -> file of every top-level assignment in the files of `dir`
definitions <- function(dir) {
  owner <- character()
  for (f in list.files(dir, "\\.R$")) {
    for (e in parse(file.path(dir, f), keep.source = FALSE)) {
      if (is.call(e) && identical(e[[1]], as.name("<-")) && is.name(e[[2]])) {
        owner[[as.character(e[[2]])]] <- f
      }
    }
  }
  owner
}

# "from.R: f() calls g() (to.R)" for every call from a file to a file above it
calls_upward <- function(dir, order, ns = asNamespace("somgpu")) {
  owner <- definitions(dir)
  rank <- stats::setNames(seq_along(order), order)
  out <- character()
  for (name in names(owner)) {
    fun <- get0(name, envir = ns, inherits = FALSE)
    if (!is.function(fun)) next
    used <- intersect(codetools::findGlobals(fun), names(owner))
    up <- used[rank[owner[used]] > rank[[owner[[name]]]]]
    out <- c(out, sprintf("%s: %s() calls %s() (%s)", owner[[name]], name, up, owner[up]))
  }
  out
}

test_that("R files call only their own layer's file or the files below", {
  dir <- test_path("..", "..", "R")
  skip_if_not(dir.exists(dir) && file.exists(file.path(dir, "train.R")),
              "no R sources beside the tests (R CMD check's copy of them)")
  skip_if_not_installed("codetools")
  expect_setequal(r_layers, list.files(dir, "\\.R$")) # every file has its place
  expect_identical(calls_upward(dir, r_layers), character(0))
  # a name defined in two files: the later one silently replaces the other
  names <- unlist(lapply(list.files(dir, "\\.R$"), function(f) {
    ex <- parse(file.path(dir, f), keep.source = FALSE)
    unlist(lapply(ex, function(e) {
      if (is.call(e) && identical(e[[1]], as.name("<-")) && is.name(e[[2]])) as.character(e[[2]])
    }))
  }))
  expect_identical(unique(names[duplicated(names)]), character(0))
  # the check sees calls upward: with the order reversed, train()'s calls into the files
  # below it are
  expect_true(any(grepl("^train.R: train\\(\\) calls", calls_upward(dir, rev(r_layers)))))
})

# The C folders in their layers: a folder's files include headers of its own folder or of
# the folders it may see, never one above or beside it (issue 41).
c_sees <- list(core = "core", groups = c("core", "groups"), cpu = c("core", "cpu"),
               opencl = c("core", "opencl"), r = c("core", "groups", "cpu", "opencl", "r"),
               . = c("core", "groups", "cpu", "opencl", "r"))

# "folder/file includes header (folder)" for every include outside what the folder sees;
# `sees` as c_sees. Headers are found by name in src/'s folders (the generated
# som_kernels.h is opencl/'s).
c_includes_outside <- function(src, sees = c_sees) {
  home <- c(som_kernels.h = "opencl")
  for (d in setdiff(names(sees), ".")) {
    for (h in list.files(file.path(src, d), "\\.h$")) home[[h]] <- d
  }
  out <- character()
  for (d in names(sees)) {
    files <- list.files(file.path(src, d), "\\.(c|h)$")
    for (f in files) {
      lines <- readLines(file.path(src, d, f), warn = FALSE)
      inc <- sub("^\\s*#\\s*include\\s+\"([^\"]+)\".*$", "\\1",
                 grep("^\\s*#\\s*include\\s+\"", lines, value = TRUE))
      where <- unname(home[basename(inc)])
      bad <- is.na(where) | !where %in% sees[[d]]
      out <- c(out, sprintf("%s/%s includes %s (%s)", d, f, inc[bad], where[bad]))
    }
  }
  out
}

test_that("an R file's prefix names its layer, and the layers come in order", {
  prefixes <- c("base", "math", "data", "backend", "train", "rule", "select", "plot")
  # the entries and the files of S3 methods, named by their function or generic
  named <- c("train.R", "select.R", "predict.R", "print.R", "summary.R", "tidy.R",
             "kohonen.R", "plot.R", "autoplot.R", "somgpu-package.R")
  prefix <- sub("_.*$", "", r_layers)
  plain <- !grepl("_", r_layers) | r_layers %in% named
  expect_setequal(r_layers[plain], named)
  expect_true(all(prefix[!plain] %in% prefixes))
  # no layer's file below a lower layer's: base, math, data, backend and train files in
  # that order, then the rules' and the selection's, then the figures'
  rank <- match(prefix[!plain], prefixes)
  early <- rank <= match("train", prefixes)
  expect_false(is.unsorted(rank[early]))
  expect_true(max(which(!plain)[early]) < min(which(!plain)[!early]))
  expect_identical(tail(r_layers[!plain], 2), c("plot_data.R", "plot_layout.R"))
})

test_that("the C folders include only their own layer's headers and the ones below", {
  src <- test_path("..", "..", "src")
  skip_if_not(dir.exists(file.path(src, "core")), "no C sources beside the tests")
  # every folder has its place (a new backend's too: it sees core/ and itself)
  expect_setequal(setdiff(names(c_sees), "."), basename(list.dirs(src, recursive = FALSE)))
  expect_identical(c_includes_outside(src), character(0))
  # the check sees a breach: cpu/ seeing nothing but itself
  expect_true(any(grepl("^cpu/.* includes som_engine.h \\(core\\)",
                        c_includes_outside(src, utils::modifyList(c_sees, list(cpu = "cpu"))))))
  # the groups' math apart from the engine: the engine seeing only core/ would be told
  expect_true(any(grepl("^r/r_groups.c includes som_groups.h \\(groups\\)",
                        c_includes_outside(src, utils::modifyList(c_sees, list(r = c("core", "cpu", "opencl", "r")))))))
  # OpenMP through one door: its pragmas only in core/som_omp.h, its API (omp.h) only in
  # core/som_threads.c
  files <- list.files(src, "\\.(c|h)$", recursive = TRUE, full.names = TRUE)
  omp <- vapply(files, function(f) {
    any(grepl("pragma\\s+omp|_Pragma\\(\"omp|PRAGMA\\(omp|<omp\\.h>|\\bomp_[a-z_]+\\(",
              readLines(f, warn = FALSE)))
  }, logical(1))
  expect_setequal(sub(".*src/", "", files[omp]), c("core/som_omp.h", "core/som_threads.c"))
})

# tests/README.md maps every test file, and names none that is gone.
test_that("tests/README.md names every test file and no other", {
  readme <- test_path("..", "README.md")
  skip_if_not(file.exists(readme), "no tests/README.md beside the tests")
  text <- readLines(readme)
  named <- gsub("`", "", unique(unlist(regmatches(
    text, gregexpr("`(test|helper)-[a-z0-9-]+[.]R`", text)))))
  files <- list.files(test_path(), "^(test|helper)-.*[.]R$")
  expect_setequal(named, files)
})
