# The rules that choose select_size()'s groups, in their order: the one list where a rule
# is added, removed or moved. Each is a function of the same inputs (new_rule_inputs())
# and the grouping so far, returning rule_result() (R/rule_inputs.R); a rule's grouping,
# when it gives one, replaces the grouping so far. The decisions, a row per rule in this
# order, are the selection's `decisions`.
#
#   told       the number of groups given: Gaussian groups or the rows' linkage (told.R)
#   gaussian   Gaussian groups of the largest map's cells (groups.R)
#   connected  groups of any shape, a fine ring's prototypes joined (connected.R)
#   apart      the rows' groups parted by gaps (apart.R)
#   sparse     the rows' groups parted by sparse rows (sparse.R)
#   bimodal    two Gaussian groups where one was found but the rows' density dips between
#              them (bimodal.R)
#
# After the replicates have measured the groups' stability, the step "noise" (noise.R,
# with noise = TRUE) sets the rows in no group aside; its decision ends the table.
# (A function, so that the rules' files may load after this one.)
selection_rules <- function() {
  list(told = rule_told, gaussian = rule_gaussian, connected = rule_connected,
       apart = rule_apart, sparse = rule_sparse, bimodal = rule_bimodal)
}

# The rules left out of the pipeline: the control's in force (select_control(skip_rules =
# c("apart", ...)), R/control.R, which checks the names), for the tests that drop each
# rule in turn and for ablations in the benchmarks; none by default.
skipped_rules <- function() {
  skip <- tuning_state$control$skip_rules
  if (is.null(skip)) character(0) else skip
}

# Every rule in order on `inputs`, from no groups: list(grouping, the last one given (NULL
# when none was); decisions, a data frame with a row per rule).
run_rules <- function(inputs, rules = selection_rules(), skip = skipped_rules()) {
  current <- NULL
  rows <- vector("list", length(rules))
  for (i in seq_along(rules)) {
    name <- names(rules)[i]
    res <- if (name %in% skip) {
      not_tried(name, "left out of the pipeline (select_control(skip_rules))")
    } else {
      rules[[i]](inputs, current)
    }
    rows[[i]] <- res$decision
    if (!is.null(res$grouping)) current <- res$grouping
  }
  list(grouping = current, decisions = do.call(rbind, rows))
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
# (connected_stability()) and the rows' groups (linkage_stability()) decided again from
# each replicate's rows.
grouping_stability <- function(grouping, reps, work) {
  switch(grouping$assign, mixture = group_stability(grouping, reps, work),
         neurons = connected_stability(grouping, reps, work),
         rows = linkage_stability(grouping, reps, work))
}

# What a replicate needs to find Gaussian groups as `grouping` has them, its model and
# number; NULL for groups that are no mixture (or no grouping).
replicate_spec <- function(grouping) {
  if (!is.null(grouping) && grouping$assign == "mixture") list(model = grouping$model, G = grouping$groups)
}
