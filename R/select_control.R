# select_size()'s settings as an argument (issue 68): select_control() validates them,
# select_size() runs under them (with_control(): tuned() reads them) and keeps them in the
# result (`control`), as glm.control() and mclust's emControl() do. The replicates take
# what the settings decide (their passes) as arguments, so a future worker needs no
# setting of its own. options(somgpu.tuning) and options(somgpu.skip_rules), how these
# were set before, are read by select_size() alone, validated, with a deprecation warning.

# A control: `tuning`, a named list of the constants it moves (names of tuning_table,
# R/base_tuning.R); `skip_rules`, the rules (and the step "noise") left out of the pipeline.
# new_control() checks the fields, not the values: select_control() is the user's door,
# the tests' own values (a threshold out of its domain, to turn a rule's test off) come
# in here.
control_fields <- c("tuning", "skip_rules")

new_control <- function(tuning = list(), skip_rules = character(0)) {
  check_internal(is.list(tuning) && (!length(tuning) || all(names(tuning) %in% tuning_table$name)),
                 "a control moving a constant the table has not")
  check_internal(is.character(skip_rules), "a control whose skip_rules are no names")
  out <- structure(list(tuning = tuning[order(match(names(tuning), tuning_table$name))],
                        skip_rules = unique(skip_rules)), class = "somgpu_control")
  check_internal(identical(names(unclass(out)), control_fields), "a control with other fields")
  out
}

# The pipeline's steps a control may leave out: the rules (rule_table()) and the step noise.
control_steps <- function() c(names(rule_table()), "noise")

#' Settings of select_size()'s rules
#'
#' Moves the constants the rules of [select_size()] compare their statistics with (the
#' rows of [selection_constants()]) and leaves rules out of the pipeline: an expert's
#' setting, for experiments and ablations. The defaults are the values the benchmarks set;
#' every value is checked, and the selection keeps the control it ran under
#' (`sel$control`), so that a result says how it was made.
#'
#' @param ... Constants to move, as `name = value`: the names of
#'   `selection_constants()$name`, each value in its `domain` (`"share"`: 0 to 1;
#'   `"count"`: a whole number from 1; `"positive"`: above 0).
#' @param skip_rules Names of rules to leave out (`"told"`, `"gaussian"`, `"connected"`,
#'   `"apart"`, `"sparse"`, `"bimodal"`, `"graph"`), or `"noise"` (the step that sets rows in no
#'   group); each is recorded as "not tried" in the selection's `decisions`.
#' @return A `somgpu_control`: `tuning` (a named list of the constants moved) and
#'   `skip_rules`.
#' @seealso [select_size()], [selection_constants()].
#' @examples
#' ctl <- select_control(bimodal_z = 4, skip_rules = "sparse")
#' ctl
#' selection_constants(ctl)[c("bimodal_z", "apart_times"), c("name", "value")]
#' @export
select_control <- function(..., skip_rules = character(0)) {
  call <- sys.call()
  dots <- list(...)
  if (length(dots) && (is.null(names(dots)) || !all(nzchar(names(dots))))) {
    abort_input("select_control() takes constants by name (name = value): see selection_constants()$name.", call)
  }
  unknown <- setdiff(names(dots), tuning_table$name)
  if (length(unknown)) {
    abort_unknown_names(unknown, tuning_table$name, "constants of selection_constants()", call)
  }
  if (anyDuplicated(names(dots))) {
    abort_input(sprintf("`%s` is given twice to select_control().", names(dots)[anyDuplicated(names(dots))]), call)
  }
  for (name in names(dots)) dots[[name]] <- check_constant(name, dots[[name]], call)
  if (!is.character(skip_rules) || anyNA(skip_rules)) {
    abort_input(sprintf("`skip_rules` must be names of rules (%s), not %s.",
                        paste(control_steps(), collapse = ", "), describe(skip_rules)), call)
  }
  unknown <- setdiff(skip_rules, control_steps())
  if (length(unknown)) abort_unknown_names(unknown, control_steps(), "rules of select_size()", call)
  new_control(dots, skip_rules)
}

# A constant's value as select_control() takes it (a double), or an input error naming
# the constant, its domain and its default.
check_constant <- function(name, value, call) {
  row <- tuning_table[tuning_table$name == name, ]
  ok <- is.numeric(value) && length(value) == 1L && !is.na(value) && is.finite(value) &&
    switch(row$domain, share = value >= 0 && value <= 1, count = value >= 1 && value == round(value),
           positive = value > 0)
  if (!isTRUE(ok)) {
    abort_input(sprintf("`%s` must be %s (its default: %s), not %s.", name, tuning_domains[[row$domain]],
                        format(row$value), describe(value)), call)
  }
  as.double(value)
}

# The control select_size() runs under: `control` (NULL: the defaults, or the deprecated
# options when set), checked.
resolve_control <- function(control, call) {
  if (!is.null(control)) {
    if (!inherits(control, "somgpu_control")) {
      abort_input(sprintf("`control` must be made by select_control() (e.g. select_control(bimodal_z = 4)), not %s.",
                          describe(control)), call)
    }
    return(control)
  }
  tuning <- getOption("somgpu.tuning")
  skip <- getOption("somgpu.skip_rules")
  if (is.null(tuning) && is.null(skip)) return(new_control())
  warn_deprecated("options(somgpu.tuning) and options(somgpu.skip_rules) are deprecated: use select_size(control = select_control(...)).",
                  call)
  if (!is.null(tuning) && !is.list(tuning)) {
    abort_input(sprintf("options(somgpu.tuning) must be a named list of constants (name = value), not %s; better, select_control().",
                        describe(tuning)), call)
  }
  args <- c(if (is.null(tuning)) list() else tuning, list(skip_rules = if (is.null(skip)) character(0) else skip))
  tryCatch(do.call(select_control, args), somgpu_input_error = function(e) {
    abort_input(paste("In options(somgpu.tuning) or options(somgpu.skip_rules):", conditionMessage(e)), call)
  })
}

# Puts `control` in force (tuned() and the pipeline read it; NULL: the defaults) and
# returns the one it replaces, for the caller to restore on exit.
set_control <- function(control) {
  old <- tuning_state$control
  tuning_state$control <- control
  old
}

# `code` evaluated under `control`, the previous control restored after.
with_control <- function(control, code) {
  old <- set_control(control)
  on.exit(set_control(old), add = TRUE)
  code
}

# A control's constants moved ("bimodal_z = 4, steady = 0.9") and rules left out, in
# words (each "" when none).
control_moved <- function(control) {
  if (!length(control$tuning)) return("")
  paste(sprintf("%s = %s", names(control$tuning), vapply(control$tuning, format, "")), collapse = ", ")
}
control_skipped <- function(control) paste(control$skip_rules, collapse = ", ")

# What a selection's print says of its control: "" for the defaults (and for a selection
# saved before controls were kept).
control_words <- function(control) {
  parts <- c(if (nzchar(control_moved(control))) paste("constants moved:", control_moved(control)),
             if (nzchar(control_skipped(control))) paste("rules left out:", control_skipped(control)))
  if (!length(parts)) "" else sprintf("settings (select_control()): %s\n", paste(parts, collapse = "; "))
}

#' @export
print.somgpu_control <- function(x, ...) {
  none <- function(words, empty) if (nzchar(words)) words else empty
  cat("select_size() settings\n  constants moved: ", none(control_moved(x), "none (the defaults)"),
      "\n  rules left out:  ", none(control_skipped(x), "none"), "\n", sep = "")
  invisible(x)
}
