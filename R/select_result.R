# The result of select_size(): a list of class somgpu_selection with a fixed set of fields,
# built here only (see ?select_size, "Value", for what each holds).
selection_fields <- c("call", "criteria", "groups", "recommended", "reason", "partition",
                      "group_table", "noise_rows", "grouping", "decisions", "strategy",
                      "groups_file", "replicates", "reruns", "fit", "shape", "scale",
                      "reduction", "noise", "control",
                      "seed", "bootstrap", "holdout", "sigma0", "elapsed")

new_selection <- function(call, criteria, groups, recommended, reason, partition, group_table,
                          noise_rows, grouping, decisions, strategy, groups_file, replicates,
                          reruns, fit, shape, scale, reduction, noise, control, seed, bootstrap,
                          holdout, sigma0, elapsed) {
  out <- list(call = call, criteria = criteria, groups = groups, recommended = recommended,
              reason = reason, partition = partition, group_table = group_table,
              noise_rows = noise_rows, grouping = grouping, decisions = decisions,
              strategy = strategy, groups_file = groups_file, replicates = replicates,
              reruns = reruns, fit = fit, shape = shape, scale = scale,
              reduction = reduction, noise = noise, control = control,
              seed = seed, bootstrap = bootstrap, holdout = holdout, sigma0 = sigma0,
              elapsed = elapsed)
  # fields that may be NULL stay, as NULL, so that every selection has every field
  check_fields(out, selection_fields, "selection")
  structure(out, class = "somgpu_selection")
}

# Whether a result has exactly its contract's fields, in order (a bug here if not).
check_fields <- function(out, fields, what) {
  check_internal(identical(names(out), fields), sprintf("a %s with other fields", what))
  invisible(out)
}

# A selection's grouping as its methods read it: NULL (no groups), or one with the
# contract's fields; a selection saved by an earlier version of somgpu (its grouping of
# other fields) is a classed error that says to run select_size() again.
selection_grouping <- function(x, call) {
  g <- x$grouping
  if (!is.null(g) && !identical(names(g), grouping_fields)) {
    abort_input("This selection was made by an earlier version of somgpu, whose groups this one cannot read: run select_size() again.",
                call)
  }
  g
}
