# The tuned constants in one table (R/base_tuning.R): every constant a rule reads is in it, every
# one in it is read, and the value read is the table's (or the sensitivity benchmark's).

test_that("selection_constants() is one table of named, documented constants", {
  tab <- selection_constants()
  expect_identical(names(tab), c("name", "value", "domain", "kind", "rule", "what", "set_by"))
  expect_true(all(tab$domain %in% c("share", "count", "positive")))
  expect_false(anyDuplicated(tab$name) > 0)
  expect_true(all(tab$kind %in% c("tuned", "published", "convention", "cost")))
  expect_true(all(is.finite(tab$value)))
  expect_true(all(nzchar(tab$what) & nzchar(tab$set_by)))
  for (i in seq_len(nrow(tab))) expect_identical(somgpu:::tuned(tab$name[i]), tab$value[i])
  # `rule` names what reads the constant: registered rules, the decisions' steps
  # (components, noise) or, as ?selection_constants says, training, replicates, scaling
  readers <- unlist(strsplit(tab$rule, ", ", fixed = TRUE))
  expect_true(all(readers %in% c(names(somgpu:::rule_table()), "components", "noise",
                                 "training", "replicates", "scale")),
              label = paste(setdiff(readers, names(somgpu:::rule_table())), collapse = ", "))
  expect_error(somgpu:::tuned("no_such_constant"), class = "somgpu_internal_error")
})

test_that("the rules read every constant of the table by name, and no other", {
  src <- test_path("..", "..", "R")
  skip_if_not(dir.exists(src), "no R sources beside the tests")
  code <- unlist(lapply(list.files(src, "\\.R$", full.names = TRUE), readLines))
  code <- code[!grepl("^\\s*#", code)]
  read <- unique(unlist(regmatches(code, gregexpr("tuned\\(\"[a-z_]+\"\\)", code))))
  read <- sub("^tuned\\(\"([a-z_]+)\"\\)$", "\\1", read)
  expect_setequal(read, selection_constants()$name)
})

test_that("?selection_constants says the constants change results (issue 68)", {
  rd <- tools::Rd_db("somgpu")[["selection_constants.Rd"]]
  txt <- gsub("\\s+", " ", paste(utils::capture.output(tools::Rd2txt(rd)), collapse = " "))
  expect_no_match(txt, "Nothing here changes a result")
  expect_match(txt, "the rules follow it, so results change with it", fixed = TRUE)
})

test_that("a control moves a constant, and the rules follow it", {
  ctl <- select_control(apart_pieces = 99, spread_ratio = 2)
  tab <- selection_constants(ctl)
  expect_identical(tab$value[tab$name == "apart_pieces"], 99)
  expect_identical(tab$value[tab$name == "apart_times"], 2) # the others stay
  expect_identical(selection_constants()$value[tab$name == "apart_pieces"], 4)
  somgpu:::with_control(ctl, {
    expect_identical(somgpu:::tuned("spread_ratio"), 2)
    expect_identical(somgpu:::tuned("apart_times"), 2)
  })
  expect_identical(somgpu:::tuned("spread_ratio"), 10) # restored after
  expect_error(somgpu:::tuned("stedy"), "no tuned constant named stedy", class = "somgpu_internal_error")
  # the columns' spreads differ 3-fold: standardized under the moved constant only
  x <- cbind(rnorm(50), rnorm(50, sd = 3))
  expect_true(somgpu:::with_control(ctl, somgpu:::select_scaling("auto", x, NULL, NULL)$scale))
  expect_false(somgpu:::select_scaling("auto", x, NULL, NULL)$scale)
})
