# What a valid result looks like (used by the fuzz test's child process, which sources
# this file, and by test-hard-data.R): NULL when valid, else what is wrong.

# Is `fit` a valid somgpu fit (weights finite and of their shape, clusters in range, qe and
# te finite)?
valid_fit <- function(fit) {
  if (!inherits(fit, "somgpu")) return("not a somgpu object")
  m <- fit$params$m
  sizes <- fit$params$sizes
  if (length(fit$weights) != length(sizes)) return("weights and sizes differ in length")
  for (k in seq_along(sizes)) {
    w <- fit$weights[[k]]
    if (!is.matrix(w) || !is.double(w) || !identical(dim(w), c(sizes[k], m))) {
      return(sprintf("weights of size %d have the wrong shape", sizes[k]))
    }
    if (!all(is.finite(w))) return(sprintf("weights of size %d are not finite", sizes[k]))
    cl <- fit$clusters[[k]]
    # NA exactly for the rows left out for missing values
    if (!is.integer(cl) || length(cl) != fit$params$n ||
        !identical(which(is.na(cl)), as.integer(fit$dropped)) ||
        any(cl < 1L | cl > sizes[k], na.rm = TRUE)) {
      return(sprintf("clusters of size %d are not in 1..%d", sizes[k], sizes[k]))
    }
  }
  q <- fit$quality
  if (!all(is.finite(q$qe)) || any(q$qe < 0)) return("qe not finite and >= 0")
  if (!all(is.finite(q$te)) || any(q$te < 0 | q$te > 1)) return("te not in [0, 1]")
  NULL
}

# Is `p` a valid prediction of `newdata` by `fit`: a row per row (a vector of the fit's
# columns is one row), clusters in range, NA only where a row has missing values?
valid_prediction <- function(p, fit, newdata) {
  m <- fit$params$m
  one_row <- is.null(dim(newdata)) && !is.list(newdata) && length(newdata) == m && m > 1L
  n <- if (one_row) 1L else NROW(newdata)
  if (!is.data.frame(p) || nrow(p) != n) return("not a data frame with a row per new row")
  complete <- if (one_row) !anyNA(newdata) else
    stats::complete.cases(if (inherits(newdata, "AsIs")) unclass(newdata) else newdata)
  for (nm in names(p)) {
    size <- as.integer(sub("^N", "", nm))
    v <- p[[nm]]
    if (!is.integer(v) || any(is.na(v) & complete) || any(v < 1L | v > size, na.rm = TRUE)) {
      return(sprintf("prediction %s is not in 1..%d", nm, size))
    }
  }
  NULL
}
