# The rules as one pipeline (R/rule_table.R, R/rule_inputs.R, R/rule_grouping.R): a grouping with a
# written contract, every rule's decision recorded in order, a rule left out recorded as
# not tried, and the selection's own fixed fields.

rule_names <- c("told", "gaussian", "connected", "apart", "sparse", "bimodal", "graph")
decision_columns <- c("rule", "outcome", "statistic", "value", "threshold", "constant", "reason")

# The decisions' invariants on a selection: a row per rule in the pipeline's order and the
# step "noise" last; the rule that found the groups is the last rule accepted.
expect_decisions <- function(sel) {
  d <- sel$decisions
  expect_identical(names(d), decision_columns)
  expect_identical(d$rule, c(rule_names, "noise"))
  expect_true(all(d$outcome[d$rule != "noise"] %in% c("accepted", "declined", "not tried")))
  # the step noise is no rule: applied or not tried, never accepted
  expect_true(d$outcome[d$rule == "noise"] %in% c("applied", "not tried"))
  expect_true(all(nzchar(d$reason)))
  # a figure compared has a statistic; a constant named is one of the table's
  expect_true(all(is.na(d$value) | !is.na(d$statistic)))
  expect_true(all(is.na(d$constant) | d$constant %in% selection_constants()$name))
  took <- d$rule[d$outcome == "accepted"]
  if (is.null(sel$grouping)) {
    expect_length(took, 0L)
  } else {
    expect_identical(sel$grouping$rule, utils::tail(took, 1L))
  }
}

test_that("a grouping has a fixed set of fields and a rule, never NULL", {
  y <- random_blobs(3, seed = 5)
  fit <- train(y, sizes = 6L, restarts = 2, seed = 1, sigma0 = "auto", progress = FALSE)
  g <- somgpu:::fit_grouping(fit, y, fit$clusters$N6)
  expect_identical(names(g), somgpu:::grouping_fields)
  expect_identical(g$rule, "gaussian")
  expect_identical(g$assign, "mixture")
  expect_identical(g$told, NA_integer_)
  # built again, never changed in place: the old one stays as it was
  h <- somgpu:::update_grouping(g, rule = "told", told = 3L)
  expect_identical(c(h$rule, g$rule), c("told", "gaussian"))
  expect_identical(h[setdiff(names(h), c("rule", "told"))], g[setdiff(names(g), c("rule", "told"))])
  # the contract's invariants are checked: a bug, on the one channel
  bad <- function(...) {
    expect_error(somgpu:::update_grouping(g, ...), class = "somgpu_internal_error")
  }
  bad(rule = NA_character_) # (a rule outside rule_table(): the runner's check, below)
  bad(rule = NULL)
  bad(assign = "nearest")
  bad(groups = 0L)
  bad(neurons = 1:5)
  bad(partition = c(g$partition[-1], 4L))
  bad(assign = "neurons") # neurons of no ring
  bad(assign = "rows") # no grouped rows to join
  expect_error(do.call(somgpu:::new_grouping, c(g[-1], list(extra = 1))))
})

test_that("every selection records each rule's decision in the pipeline's order", {
  blobs <- random_blobs(3, seed = 7)
  sel <- select_size(blobs, sizes = 2:6, bootstrap = 3, seed = 1, progress = FALSE)
  expect_decisions(sel)
  d <- sel$decisions
  expect_identical(d$outcome[d$rule == "told"], "not tried")
  expect_identical(d$outcome[d$rule == "gaussian"], "accepted")
  expect_identical(d$statistic[d$rule == "gaussian"], "criterion (BIC of the classification)")
  expect_equal(d$value[d$rule == "gaussian"], sel$grouping$criterion)
  # told the number: the told rule decides, the others are not tried
  told <- select_size(blobs, sizes = 2:6, bootstrap = 3, seed = 1, progress = FALSE, groups = 2)
  expect_decisions(told)
  expect_identical(told$decisions$outcome, c("accepted", rep("not tried", length(rule_names))))
  expect_identical(told$grouping$told, 2L)
  # data without groups: the Gaussian rule's one group, the bimodal rule declines
  flat <- withr::with_seed(2, matrix(runif(900), ncol = 3))
  none <- select_size(flat, sizes = 2:5, bootstrap = 3, seed = 1, progress = FALSE)
  expect_decisions(none)
  expect_identical(none$groups, 1L)
  b <- none$decisions[none$decisions$rule == "bimodal", ]
  expect_identical(b$outcome, "declined")
  expect_lte(b$value, b$threshold)
  expect_identical(b$constant, "bimodal_z")
  expect_match(none$reason, "does not dip between its two halves")
})

test_that("each rule can be left out: the pipeline still runs and records it as not tried", {
  y <- withr::with_seed(3, rbind(matrix(rnorm(200, 0, 0.3), ncol = 2),
                                 matrix(rnorm(200, 3, 0.3), ncol = 2)))
  for (rule in c(rule_names, "noise")) {
    sel <- select_size(y, sizes = 2:4, bootstrap = 2, seed = 1, progress = FALSE,
                       groups = if (rule == "told") 2L, noise = rule == "noise",
                       control = select_control(skip_rules = rule))
    expect_identical(sel$control$skip_rules, rule)
    expect_decisions(sel)
    d <- sel$decisions[sel$decisions$rule == rule, ]
    expect_identical(d$outcome, "not tried", label = rule)
    expect_match(d$reason, "left out of the pipeline", label = rule)
    # without the rules that give groups the selection says so and stays whole
    if (rule %in% c("told", "gaussian")) {
      expect_null(sel$grouping)
      expect_identical(sel$groups, NA_integer_)
      expect_match(sel$reason, "No rule of the pipeline gave groups")
      expect_identical(sel$recommended, NA_integer_)
      expect_match(capture.output(print(summary(sel)))[1], "^NA groups \\(no rule gave groups")
      expect_output(print(sel), "No rule of the pipeline gave groups")
    } else {
      expect_identical(sel$groups, 2L, label = rule)
    }
  }
  expect_error(select_control(skip_rules = "kmeans"), "`kmeans` is none of the rules",
               class = "somgpu_input_error")
})

test_that("the order of the rules is one list, and the runner follows it", {
  rules <- somgpu:::rule_table()
  expect_identical(names(rules), rule_names)
  expect_identical(unname(vapply(rules, `[[`, "", "name")), rule_names)
  # a pipeline in another order, a rule added: the decisions follow the list given
  y <- random_blobs(3, seed = 8)
  fit <- train(y, sizes = 2:6, seed = 1, sigma0 = "auto", progress = FALSE)
  g <- somgpu:::fit_grouping(fit, y, fit$clusters$N6)
  inputs <- test_rule_inputs(fit, y, 6L, g)
  always <- somgpu:::new_rule("always", function(inputs, current) {
    somgpu:::accepted("always", somgpu:::update_grouping(current, rule = "bimodal"), "a test rule")
  }, shapes = "auto", found = function(grouping, on) "", kind = function(gaussian) "")
  got <- somgpu:::run_rules(inputs, c(rev(rules[c("gaussian", "apart")]), list(always = always)),
                            skip = character(0))
  expect_identical(got$decisions$rule, c("apart", "gaussian", "always"))
  expect_identical(got$decisions$outcome[1], "not tried") # no groups yet to compare with
  expect_identical(got$grouping$rule, "bimodal")
  # the entry says when a rule runs: under another shape, or told the number, not tried
  only_connected <- always
  only_connected$shapes <- "connected"
  got <- somgpu:::run_rules(inputs, list(gaussian = rules$gaussian, only = only_connected),
                            skip = character(0))
  expect_identical(got$decisions$outcome, c("accepted", "not tried"))
  expect_identical(got$decisions$reason[2], "shape = \"auto\"")
  told <- test_rule_inputs(fit, y, 6L, g, told = 3L)
  got <- somgpu:::run_rules(told, rules, skip = character(0))
  expect_identical(got$decisions$outcome[-1], rep("not tried", length(rules) - 1L))
  expect_true(all(got$decisions$reason[-1] == "the number of groups was told (rule told)"))
  expect_identical(somgpu:::run_rule(rules$told, inputs, NULL)$decision$reason,
                   "the number of groups is chosen (groups = NULL)")
  # an entry of other fields, or groups that name no rule, are bugs, said as such
  expect_error(somgpu:::new_rule("odd", identity, asked = "sometimes", shapes = "auto",
                                 found = identity, kind = identity), class = "somgpu_internal_error")
  stray <- always
  stray$run <- function(inputs, current) {
    somgpu:::accepted("stray", somgpu:::update_grouping(current, rule = "stray"), "groups of no rule")
  }
  expect_error(somgpu:::run_rules(inputs, list(gaussian = rules$gaussian, stray = stray),
                                  skip = character(0)), class = "somgpu_internal_error")
  # a rule that breaks its contract is a bug, said as one
  liar <- function(inputs, current) list(grouping = NULL, decision = somgpu:::decision("liar", "accepted", "no groups"))
  expect_error(somgpu:::rule_result(somgpu:::decision("liar", "accepted", "no groups")),
               class = "somgpu_internal_error")
  expect_error(somgpu:::rule_result(somgpu:::decision("liar", "declined", "groups"), g),
               class = "somgpu_internal_error")
})

test_that("a selection has fixed fields: the call, and the shape, scale and noise it used", {
  sel <- select_size(iris[1:4], sizes = 2:4, bootstrap = 2, seed = 1, progress = FALSE)
  expect_identical(names(sel), somgpu:::selection_fields)
  expect_true(is.call(sel$call))
  expect_identical(sel$call[[1]], as.name("select_size"))
  expect_identical(sel$call$sizes, quote(2:4))
  expect_identical(sel$shape, "auto")
  expect_false(sel$scale) # iris's spreads differ under 10-fold: its units kept
  expect_false(sel$noise)
  expect_null(sel$noise_rows)
  # a data frame with a categorical column: shape "auto" used the Gaussian groups, and the
  # rules that need another shape say why they were not tried
  pen <- data.frame(a = c(iris$Sepal.Length), s = iris$Species)
  mixed <- select_size(pen, sizes = 2:4, bootstrap = 2, seed = 1, progress = FALSE)
  expect_identical(mixed$shape, "gaussian")
  expect_identical(mixed$scale, TRUE)
  d <- mixed$decisions
  expect_true(all(grepl("categorical columns", d$reason[d$rule %in% c("connected", "apart", "sparse")])))
  # saved and read back, the selection prints, summarises and keeps its decisions
  f <- tempfile(fileext = ".rds")
  saveRDS(mixed, f)
  back <- readRDS(f)
  expect_identical(back$decisions, mixed$decisions)
  expect_output(print(summary(back)), "how the groups were chosen")
  # a selection saved by an earlier version (its grouping of other fields): a classed error
  # that says what to do, not a crash
  old <- sel
  old$grouping <- c(old$grouping[setdiff(names(old$grouping), c("rule", "assign"))],
                    list(kind = "rows"))
  for (f in list(function() predict(old, iris[1:3, 1:4]), function() summary(old),
                 function() generics::glance(old), function() generics::tidy(old))) {
    expect_error(f(), "earlier version of somgpu.*run select_size\\(\\) again",
                 class = "somgpu_input_error")
  }
})

test_that("rule gaussian says where the mixture's BIC merged the classification's groups", {
  # a skewed group beside a Gaussian one (as in test-select.R's reference case): the
  # classification's criterion prefers 4 groups, the mixture's BIC 3
  y <- withr::with_seed(2, rbind(matrix(rnorm(600), ncol = 2),
                                 exp(matrix(rnorm(200, sd = 0.6), ncol = 2)) * 2 + 4))
  fit <- train(y, sizes = 8L, restarts = 2, seed = 6, sigma0 = "auto", backend = "cpu",
               progress = FALSE)
  g <- somgpu:::fit_grouping(fit, y, fit$clusters$N8)
  m <- g$detail$merged
  expect_identical(m$groups, 1:4)
  expect_identical(g$groups, m$groups[which.max(m$mixture_bic)])
  expect_identical(g$groups, 3L)
  # the criterion's own best is the largest count weighed; the kept one is below it
  best <- g$scores[which.max(g$scores$criterion), ]
  expect_identical(best$groups, max(m$groups))
  expect_equal(g$criterion, m$criterion[m$groups == 3L])
  d <- apply_rule("gaussian", test_rule_inputs(fit, y, 8L, gaussian = g), NULL)$decision
  expect_identical(d$outcome, "accepted")
  expect_match(d$reason, "3 Gaussian groups \\(VII\\): 4 fit the classification best, 3 the mixture's BIC")
  # a grouping the classification chose alone says nothing of a merge
  one <- somgpu:::fit_grouping(fit, y, fit$clusters$N8, G = 3L)
  expect_identical(one$detail, list())
})

test_that("a new rule is one entry: the pipeline, the reason, print, summary and the figure use it", {
  ns <- asNamespace("somgpu")
  original <- get("rule_table", envir = ns)
  replace_table <- function(f) {
    unlockBinding("rule_table", ns)
    assign("rule_table", f, envir = ns)
    lockBinding("rule_table", ns)
  }
  # a toy rule that takes the groups so far as its own, with its own words and panel
  toy <- somgpu:::new_rule("toy", function(inputs, current) {
    if (is.null(current)) return(somgpu:::declined("toy", "no groups so far"))
    somgpu:::accepted("toy", somgpu:::update_grouping(current, rule = "toy"),
                      "the toy takes the groups so far", "toy figure", 2, 1)
  }, shapes = c("auto", "gaussian"),
  found = function(grouping, on) sprintf("A toy's %d groups, from %s", grouping$groups, on),
  kind = function(gaussian) "the toy's groups",
  panel = function(g) list(values = c(`1` = 3, `2` = 1), title = "toy per number of groups",
                           ylab = "toy", shorter = c("toy", "toy"), key = "toy key"),
  note = function(g) " (toy)")
  replace_table(function() c(original(), list(toy = toy)))
  withr::defer(replace_table(original))
  y <- random_blobs(3, seed = 8)
  sel <- select_size(y, sizes = 2:6, bootstrap = 2, seed = 1, progress = FALSE, threads = 2)
  expect_identical(tail(sel$decisions$rule, 2), c("toy", "noise"))
  expect_identical(sel$grouping$rule, "toy")
  expect_match(sel$reason, "^A toy's 3 groups, from the cells of the N = 6 map")
  expect_output(print(summary(sel)), "rule toy: the toy's groups")
  expect_output(print(sel), "toy accepted \\(toy figure 2, threshold 1\\)")
  panel <- somgpu:::criterion_panel(sel$grouping)
  expect_identical(panel$title, "rule toy: toy per number of groups")
  expect_identical(panel$note, " (toy)")
  grDevices::pdf(NULL)
  withr::defer(grDevices::dev.off())
  expect_silent(plot(sel))
  # settings know it: it can be left out, and under a shape it does not take it is not tried
  left <- select_size(y, sizes = 2:6, bootstrap = 2, seed = 1, progress = FALSE, threads = 2,
                      control = select_control(skip_rules = "toy"))
  expect_identical(left$grouping$rule, "gaussian")
  conn <- select_size(y, sizes = 2:6, bootstrap = 2, seed = 1, progress = FALSE, threads = 2,
                      shape = "connected")
  expect_identical(conn$decisions$outcome[conn$decisions$rule == "toy"], "not tried")
})
