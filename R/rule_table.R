# The rules that choose select_size()'s groups, in their order: the one table where a rule
# is added, removed or moved, each an entry of new_rule() that declares all the package
# needs of it (as backend_table(), R/backend_registry.R, does for the backends: nothing
# outside a rule's file and this table names a rule). A rule's grouping, when it gives one, replaces
# the grouping so far. The decisions, a row per rule in this order, are the selection's
# `decisions`.
#
#   told       the number of groups given: Gaussian groups or the rows' linkage (rule_told.R)
#   gaussian   Gaussian groups of the largest map's cells (rule_gaussian.R)
#   connected  groups of any shape, a fine ring's prototypes joined (rule_connected.R)
#   apart      the rows' groups parted by gaps (rule_apart.R)
#   sparse     the rows' groups parted by sparse rows (rule_sparse.R)
#   bimodal    two Gaussian groups where one was found but the rows' density dips between
#              them (rule_bimodal.R)
#   graph      wide data whose components show no noise floor: the communities of the
#              rows' shared-neighbour graph (rule_graph.R)
#
# After the replicates have measured the groups' stability, the step "noise" (rule_noise.R,
# with noise = TRUE) sets the rows in no group aside; its decision ends the table.
# (A function, so that the rules' files may load after this one.)
rule_table <- function() {
  list(told = new_rule("told", rule_told, asked = "told", shapes = rule_shapes,
                       found = told_found, kind = told_kind, panel = told_panel),
       gaussian = new_rule("gaussian", rule_gaussian, shapes = rule_shapes,
                           found = gaussian_found, kind = gaussian_kind, note = gaussian_note),
       connected = new_rule("connected", rule_connected, shapes = c("auto", "connected"),
                            found = connected_found, kind = connected_kind,
                            panel = connected_panel),
       apart = new_rule("apart", rule_apart, shapes = "auto", found = apart_found,
                        kind = apart_kind, panel = apart_panel),
       sparse = new_rule("sparse", rule_sparse, shapes = "auto", found = sparse_found,
                         kind = sparse_kind, panel = sparse_panel),
       bimodal = new_rule("bimodal", rule_bimodal, shapes = c("auto", "gaussian"),
                          found = bimodal_found, kind = bimodal_kind, note = bimodal_note,
                          no_groups = bimodal_no_groups),
       graph = new_rule("graph", rule_graph, shapes = "auto", found = graph_found,
                        kind = graph_kind, panel = graph_panel, note = graph_note))
}

# The shapes select_size() takes (its `shape`).
rule_shapes <- c("auto", "gaussian", "connected")

# A rule's entry, with a fixed set of fields. name; run(inputs, current), the rule itself
# (R/rule_inputs.R: a rule_result()); asked, "chosen" (it runs when select_size() chooses
# the number of groups) or "told" (when the call tells it); shapes, the `shape` settings
# it runs under (run_rule() says why it was not tried otherwise); found(grouping, on), the
# reason's words for its groups (on: the map's cells, in words; recommend_size()); kind(
# gaussian), its groups' kind in a few words (gaussian: the mixture's words, or NULL for
# groups that are no mixture; rule_words()); panel(grouping), the third panel of the
# selection's figures (criterion_panel(); NULL: the Gaussian criterion's); note(grouping),
# what the answer's mark on that panel adds ("" for nothing); no_groups(decision), where
# no groups were found, what its decision adds to the reason ("" for nothing).
rule_fields <- c("name", "run", "asked", "shapes", "found", "kind", "panel", "note", "no_groups")

new_rule <- function(name, run, asked = "chosen", shapes, found, kind, panel = nothing,
                     note = no_words, no_groups = no_words) {
  out <- list(name = name, run = run, asked = asked, shapes = shapes, found = found,
              kind = kind, panel = panel, note = note, no_groups = no_groups)
  functions <- c("run", "found", "kind", "panel", "note", "no_groups")
  check_internal(identical(names(out), rule_fields) && all(vapply(out[functions], is.function, TRUE)),
                 "a rule entry with other fields")
  check_internal(asked %in% c("chosen", "told") && all(shapes %in% rule_shapes),
                 sprintf("rule %s asked %s under shapes %s", name, describe(asked), describe(shapes)))
  out
}
# An entry's defaults: no panel of its own (the Gaussian criterion's), no words to add.
nothing <- function(...) NULL
no_words <- function(...) ""

# The entry of the rule `name` (a grouping's rule).
rule_entry <- function(name) {
  entry <- rule_table()[[name]]
  check_internal(!is.null(entry), sprintf("no rule %s", describe(name)))
  entry
}

# The rules left out of the pipeline: the control's in force (select_control(skip_rules =
# c("apart", ...)), R/select_control.R, which checks the names), for the tests that drop each
# rule in turn and for ablations in the benchmarks; none by default.
skipped_rules <- function() {
  skip <- tuning_state$control$skip_rules
  if (is.null(skip)) character(0) else skip
}

# Every rule of `rules` (entries of new_rule()) in order on `inputs`, from no groups:
# list(grouping, the last one given (NULL when none was); decisions, a data frame with a
# row per rule).
run_rules <- function(inputs, rules = rule_table(), skip = skipped_rules()) {
  current <- NULL
  rows <- vector("list", length(rules))
  known <- names(rule_table())
  for (i in seq_along(rules)) {
    res <- run_rule(rules[[i]], inputs, current, skip, known)
    rows[[i]] <- res$decision
    if (!is.null(res$grouping)) current <- res$grouping
  }
  list(grouping = current, decisions = do.call(rbind, rows))
}

# One rule's result on `inputs` beside the grouping so far: not tried where it is left out
# (`skip`), where the number of groups was told or chosen as it is not asked, or under a
# shape it does not run under; else the rule's own, whose groups must name a rule of
# `known` (the registry's names).
run_rule <- function(entry, inputs, current, skip = character(0), known = names(rule_table())) {
  st <- inputs$settings
  name <- entry$name
  if (name %in% skip) return(not_tried(name, "left out of the pipeline (select_control(skip_rules))"))
  told <- !is.null(st$told)
  if (told && entry$asked == "chosen") return(not_tried(name, "the number of groups was told (rule told)"))
  if (!told && entry$asked == "told") return(not_tried(name, "the number of groups is chosen (groups = NULL)"))
  if (!st$shape %in% entry$shapes) return(not_tried(name, shape_reason(st)))
  res <- entry$run(inputs, current)
  check_internal(is.null(res$grouping) || isTRUE(res$grouping$rule %in% known),
                 sprintf("rule %s gave groups of no rule", name))
  res
}

# The step "noise" after the rules, its decision added to `decisions`.
run_noise <- function(inputs, decided) {
  res <- if ("noise" %in% skipped_rules()) {
    not_tried("noise", "left out of the pipeline (select_control(skip_rules))")
  } else {
    rule_noise(inputs, decided$grouping)
  }
  list(grouping = if (is.null(res$grouping)) decided$grouping else res$grouping,
       decisions = rbind(decided$decisions, res$decision))
}

# Each group's bootstrap stability (stability_table()) over the replicates reps (their rows
# work), as the groups were made: Gaussian groups (assign "mixture") against the Gaussian
# groups the replicates found on their own maps; a fine ring's connected groups
# (connected_stability()) and the rows' groups (linkage_stability(); the graph's,
# graph_stability()) decided again from each replicate's rows.
grouping_stability <- function(grouping, reps, work) {
  switch(grouping$assign, mixture = group_stability(grouping, reps, work),
         neurons = connected_stability(grouping, reps, work),
         rows = if (grouping$rule == "graph") graph_stability(grouping, reps, work) else
           linkage_stability(grouping, reps, work))
}

# What a replicate needs to find Gaussian groups as `grouping` has them, its model and
# number; NULL for groups that are no mixture (or no grouping).
replicate_spec <- function(grouping) {
  if (!is.null(grouping) && grouping$assign == "mixture") list(model = grouping$model, G = grouping$groups)
}
