# select_size()'s arguments: those it passes to train(), and the ring sizes it compares.

# The train() arguments in `...`: every one train() takes but those select_size() sets
# (nmin and nmax stand for `sizes`); a name train() does not know is an error that suggests
# the nearest one.
select_args <- function(dots, call) {
  nm <- names(dots)
  if (length(dots) && (is.null(nm) || any(!nzchar(nm)))) {
    abort_input("Arguments in `...` go to train() and must be named (e.g. `iter_max = 50`).",
                call)
  }
  own <- c("sizes", "restarts", "bootstrap", "holdout", "seed", "sigma0", "progress",
           "parallel", "sample_rows", "groups_file", "shape", "groups", "noise", "scale")
  known <- setdiff(names(formals(train)), c("y", "...", own))
  bad <- setdiff(nm, known)
  if (length(bad)) abort_unknown_args(bad, c(known, own), "select_size() or train()", call)
  dots
}

# The sizes to compare: `sizes` (its default 2:20 unless `nmin` or `nmax` is given), or
# nmin:nmax from `...` (not both; nmin 2 and nmax 20 when one is left out).
select_sizes <- function(sizes, given, dots, call) {
  ends <- c(nmin = !is.null(dots$nmin), nmax = !is.null(dots$nmax))
  spec <- check_sizes(if (ends[["nmin"]]) dots$nmin else 2, if (ends[["nmax"]]) dots$nmax else 20,
                      sizes, c(ends, sizes = given || !any(ends)), call)
  sizes <- family_sizes(spec)
  if (length(sizes) < 2L) {
    abort_input(sprintf("select_size() compares at least two ring sizes, not %s.",
                        describe(sizes)), call)
  }
  sizes
}
