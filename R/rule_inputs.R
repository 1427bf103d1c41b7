# The interface every rule of select_size() shares (R/rule_table.R runs them in order): a rule
# is a function of the same inputs, new_rule_inputs(), and of the grouping found so far,
# and returns rule_result(): a grouping (NULL: the groups so far stand) and its decision,
# one row of the selection's `decisions`. What several rules ask of the inputs (the fit's
# rows in the maps' space, their spanning tree, the Gaussian groups' steadiness) is
# computed once, on first asking, and kept with the inputs.

# x: the rows trained on (data units); fit: the fit on them; top: their winners on its
# largest map; gaussian: the Gaussian groups of that map (fit_grouping(), NULL without
# rows); reps, work: the replicates run so far and their rows (NULL before any);
# settings: list(shape, the shape used; shape_asked, the call's; k_max, the largest size;
# told, the number of groups asked for or NULL; noise, the call's; seed; args, train()'s
# arguments as the selection's maps had them; reduction, the components the rows are
# (R/select_reduce.R) or NULL).
new_rule_inputs <- function(x, fit, top, gaussian, reps, work, settings) {
  list(x = x, fit = fit, top = top, gaussian = gaussian, reps = reps, work = work,
       settings = settings, cache = new.env(parent = emptyenv()))
}

# A value of the inputs' cache, computed by `make` the first time it is asked for.
input_cached <- function(inputs, name, make) {
  if (!exists(name, envir = inputs$cache, inherits = FALSE)) assign(name, make(), envir = inputs$cache)
  get(name, envir = inputs$cache, inherits = FALSE)
}

# The fit's rows in the maps' space with their winners on its largest map (grouping_rows()).
input_rows <- function(inputs) {
  input_cached(inputs, "rows", function() {
    grouping_rows(inputs$fit, inputs$x, max(inputs$fit$params$sizes), inputs$top)
  })
}

# The minimum spanning tree of input_rows() (mst_rows(): n^2, asked only by the rules that
# need it: apart and sparse up to the constant "tree_rows" rows, told at any size).
input_tree <- function(inputs) input_cached(inputs, "tree", function() mst_rows(input_rows(inputs)$x))

# The Gaussian groups' stability over the replicates, weighted by their rows (NA where no
# replicate measured one): how steady they are (the constant "steady").
gaussian_steadiness <- function(inputs) {
  input_cached(inputs, "steadiness", function() {
    weighted_stability(group_stability(inputs$gaussian, inputs$reps, inputs$work))
  })
}

# One row of `decisions`: the rule (or step); its outcome ("accepted": its groups are the
# answer so far; "declined": they are not, the test that said no in `statistic`; "not
# tried": the rule does not apply here, `reason` says why; "applied": a step that is no
# rule, components or noise, changed the rows the rules saw or set rows aside, the rule
# that found the groups unchanged); the statistic it computed, its value,
# the threshold it was compared with and the constant (selection_constants()) that set
# the threshold; a short reason in words.
decision <- function(rule, outcome, reason, statistic = NA_character_, value = NA_real_,
                     threshold = NA_real_, constant = NA_character_) {
  data.frame(rule = rule, outcome = outcome, statistic = statistic, value = as.double(value),
             threshold = as.double(threshold), constant = constant, reason = reason)
}

# What a rule returns: its grouping (NULL unless accepted; a step applied may give one)
# and its decision.
rule_result <- function(decision, grouping = NULL) {
  outcome <- decision$outcome
  check_internal(outcome == "applied" || identical(outcome, "accepted") != is.null(grouping),
                 "a rule accepted without groups or declined with some")
  list(grouping = grouping, decision = decision)
}

# The three outcomes, as rule_result()s.
accepted <- function(rule, grouping, reason, ...) rule_result(decision(rule, "accepted", reason, ...), grouping)
declined <- function(rule, reason, ...) rule_result(decision(rule, "declined", reason, ...))
not_tried <- function(rule, reason) rule_result(decision(rule, "not tried", reason))
applied <- function(step, grouping, reason, ...) rule_result(decision(step, "applied", reason, ...), grouping)

# Figures for a reason, each to 3 significant digits.
figure <- function(v) {
  vapply(v, function(e) format(signif(e, 3), scientific = FALSE, big.mark = ","), "")
}

# Why a rule that needs another shape is not tried: the shape asked for, or shape "auto"
# with categorical columns (whose levels part the rows by gaps that border no group: the
# Gaussian groups with their latent-class terms).
shape_reason <- function(settings) {
  if (settings$shape_asked == "auto" && settings$shape != "auto") {
    return("categorical columns: shape \"auto\" takes the mixture's groups (their levels part the rows by gaps that border no group)")
  }
  sprintf("shape = \"%s\"", settings$shape)
}
