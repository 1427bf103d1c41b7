# Input validation: the arguments and the data. Each check returns the cleaned value or
# raises a somgpu_input_error that names the argument, says what was wrong and what is
# expected. Nothing here modifies the caller's objects. (What the checked values make, the
# prepared data, is data_prepare.R's; a family's sizes data_memory.R's.)

check_flag <- function(x, name, call) {
  if (!is.logical(x) || length(x) != 1L || is.na(x)) {
    abort_input(sprintf("`%s` must be TRUE or FALSE, not %s.", name, describe(x)), call)
  }
  x
}

check_whole <- function(x, name, min, max = int_max, call) {
  ok <- is.numeric(x) && !is.object(x) && length(x) == 1L && !is.na(x) && is.finite(x) &&
    x == round(x) && x >= min && x <= max
  if (!ok) {
    abort_input(sprintf("`%s` must be a single whole number from %s to %s, not %s.",
                        name, format(min), format(max, big.mark = ","), describe(x)), call)
  }
  as.integer(x)
}

# select_size()'s `groups`: the number of groups it is told, a whole number from 1 to the
# largest ring size (a ring holds a group per neuron at most).
check_groups <- function(x, largest, call) {
  ok <- is.numeric(x) && !is.object(x) && length(x) == 1L && !is.na(x) && is.finite(x) &&
    x == round(x) && x >= 1
  if (!ok) {
    abort_input(sprintf("`groups` must be NULL (choose the number of groups) or a single whole number of groups, not %s.",
                        describe(x)), call)
  }
  if (x > largest) {
    abort_input(sprintf("`groups = %d` needs a ring of at least %d neurons; the largest size compared is %d: give `sizes` up to %d or more.",
                        as.integer(x), as.integer(x), largest, as.integer(x)), call)
  }
  as.integer(x)
}

# A positive, finite number no larger than `max`.
check_positive <- function(x, name, max = Inf, call) {
  ok <- is.numeric(x) && !is.object(x) && length(x) == 1L && !is.na(x) && is.finite(x) &&
    x > 0 && x <= max
  if (!ok) {
    range <- if (is.finite(max)) sprintf("in (0, %s]", format(max)) else "finite and > 0"
    abort_input(sprintf("`%s` must be a single number %s, not %s.", name, range, describe(x)),
                call)
  }
  as.double(x)
}

# sigma0: "auto" (each ring's own, sigma0_auto()), one number for every size, or one per
# size (count sizes); checked before the sizes exist, matched to them by sigma0_sizes().
check_sigma0 <- function(x, count, call) {
  if (identical(x, "auto")) return(x)
  shape <- is.numeric(x) && !is.object(x) && length(x) %in% unique(c(1, count))
  good <- if (shape) is.finite(x) & x > 0
  if (!shape || !all(good)) {
    abort_input(sprintf(
      "`sigma0` must be \"auto\" (a width scaled to each ring), a single number that is finite and > 0, or one such number per size (%d), not %s.",
      as.integer(min(count, int_max)),
      if (shape) describe_bad(x, good) else describe(x)), call)
  }
  as.double(x)
}

# Per size, the starting width of the neighbourhood: sigma0 as checked (check_sigma0).
sigma0_sizes <- function(sigma0, sizes) {
  if (identical(sigma0, "auto")) return(sigma0_auto(sizes))
  rep_len(sigma0, length(sizes))
}

# The ring-scaled schedule (sigma0 = "auto"): the share of a ring's neurons its starting
# width spans (the compiled code's constant; see ?train, "Neighbourhood schedule").
sigma0_auto <- function(sizes) sizes * constants()$sigma0_ring_share

# A finite number from `min` to `max` (inclusive), as a double.
check_number <- function(x, name, min, max = Inf, call) {
  ok <- is.numeric(x) && !is.object(x) && length(x) == 1L && !is.na(x) && is.finite(x) &&
    x >= min && x <= max
  if (!ok) {
    abort_input(sprintf("`%s` must be a single number from %s to %s, not %s.", name,
                        format(min), format(max), describe(x)), call)
  }
  as.double(x)
}

# The value of option `name` (default when unset), checked by check(value, label).
option_value <- function(name, default, check) {
  value <- getOption(name)
  if (is.null(value)) default else check(value, sprintf("options(%s)", name))
}

# One of `choices`, or a unique start of one (as match.arg() takes them), as the full choice;
# every argument that names an option is matched this way.
check_choice <- function(x, name, choices, call) {
  i <- if (is.character(x) && length(x) == 1L && !is.na(x) && nzchar(x)) pmatch(x, choices)
  if (is.null(i) || is.na(i)) {
    abort_input(sprintf("`%s` must be one of %s (or a unique start of one), not %s.", name,
                        paste0("\"", choices, "\"", collapse = ", "), describe(x)), call)
  }
  choices[i]
}

# y as a checked double matrix with n >= 2 rows and m >= 1 columns, no infinite values
# (missing ones are NA or NaN), scanned once: list(x, max_abs, missing, row_missing) (see
# as_data_matrix() and scan_data()).
check_data <- function(y, call, min_rows = 2L, name = "y") {
  x <- if (is_file_data(y)) file_data(y, call, min_rows, name) else
    as_data_matrix(y, call, min_rows, name)
  c(list(x = x), scan_data(x, call, name))
}

# The error of data `y` of a type no function takes: what they take, what `y` is, and for a
# Matrix package's matrix (sparse or not) the conversion.
abort_data_type <- function(y, name, call) {
  taken <- "a numeric matrix or vector, a data frame of numeric, factor, logical or character columns, or a bigmemory::big.matrix"
  if (is.null(y)) abort_input(sprintf("`%s` is NULL: give the rows as %s.", name, taken), call)
  if (inherits(y, "Matrix")) {
    abort_input(sprintf(
      "`%s` must be %s, not a %s matrix (class %s) of the Matrix package: convert it with as.matrix(), a dense copy of its %s x %s values.",
      name, taken, if (inherits(y, "sparseMatrix")) "sparse" else "dense", class(y)[1L],
      format(nrow(y), big.mark = ","), format(ncol(y), big.mark = ",")), call)
  }
  type <- if (is.matrix(y)) sprintf("a %s matrix", typeof(y))
    else if (is.array(y)) sprintf("an array with %d dimensions", length(dim(y)))
    else if (is.factor(y)) "a factor"
    else if (is.list(y)) "a list"
    else if (is.character(y)) "a character vector"
    else if (is.object(y)) sprintf("an object of class %s", class(y)[1L])
    else class(y)[1L]
  abort_input(sprintf("`%s` must be %s, not %s.", name, taken, type), call)
}

# y as a double matrix with at least min_rows rows and one column; a data frame (tibbles
# included) must have numeric columns only (its categorical ones encoded before: data_encode.R); a plain numeric vector is one column. Numeric
# containers (ts, AsIs, table, 1-d arrays) are unwrapped. Unique row names are kept. The
# values are not looked at: see scan_data().
as_data_matrix <- function(y, call, min_rows = 2L, name = "y") {
  if (inherits(y, c("ts", "AsIs", "table")) && is.numeric(unclass(y))) {
    y <- unclass(y)
    attr(y, "tsp") <- NULL
  }
  if (inherits(y, "integer64") && is.null(dim(y))) y <- int64_double(y, sprintf("`%s`", name), call)
  if (is.numeric(y) && !is.object(y) && length(dim(y)) == 1L) y <- as.vector(y)
  if (is.data.frame(y)) {
    cols <- as.list(y)
    # an all-NA logical column is an empty numeric one (what read.csv() gives for a column
    # without values): accepted here, then refused as a column without observed values
    bad <- !vapply(cols, function(col) {
      (is.numeric(col) || (is.logical(col) && all(is.na(col)))) && is.null(dim(col)) &&
        !is.factor(col)
    }, logical(1))
    if (any(bad)) {
      what <- vapply(cols[bad], function(col) {
        if (!is.null(dim(col))) "a matrix column" else class(col)[1L]
      }, character(1))
      nm <- names(y)[bad]
      listed <- paste0("`", nm, "` (", what, ")")
      if (length(listed) > 5L) listed <- c(listed[1:5], sprintf("and %d more", length(listed) - 5L))
      abort_input(sprintf(
        "`%s` must have numeric, factor, logical or character columns; not usable: %s. Drop or convert them, e.g. with as.numeric().",
        name, paste(listed, collapse = ", ")), call)
    }
    n <- nrow(y)
    cols <- lapply(seq_along(cols), function(k) {
      if (inherits(cols[[k]], "integer64")) {
        int64_double(cols[[k]], sprintf("`%s`'s column `%s`", name, names(y)[k]), call)
      } else {
        cols[[k]]
      }
    })
    x <- matrix(as.double(unlist(lapply(cols, as.double), use.names = FALSE)), nrow = n,
                ncol = length(cols))
    rn <- if (.row_names_info(y) > 0L) row.names(y) else NULL
    dimnames(x) <- list(rn, names(y))
  } else if (is.numeric(y) && !is.object(y) && (is.null(dim(y)) || length(dim(y)) == 2L)) {
    x <- if (is.null(dim(y))) matrix(as.double(y), ncol = 1L) else y
    if (!is.double(x)) storage.mode(x) <- "double"
    rn <- rownames(x)
    if (!is.null(rn) && (anyNA(rn) || anyDuplicated(rn))) rownames(x) <- NULL
  } else {
    abort_data_type(y, name, call)
  }
  n <- nrow(x)
  if (ncol(x) < 1L) abort_input(sprintf("`%s` has no columns.", name), call)
  fixed <- usable_names(colnames(x))
  if (is.null(fixed) && name == "y" && is.null(.said$unnamed)) {
    .said$unnamed <- TRUE
    message("somgpu: the columns of `y` have no names; the fit calls them V1, V2, ... (as as.data.frame() does) and predict() takes new rows' columns by position, or by those names. (Said once per session.)")
  }
  if (!identical(fixed, colnames(x))) {
    if (name == "y") {
      was <- colnames(x)[fixed != colnames(x) | is.na(colnames(x))]
      message(sprintf("somgpu: columns of `y` without a name or with a repeated one are named as data.frame() names them, so that predict() finds them by name: %s.",
                      paste(sprintf("\"%s\" -> %s", ifelse(is.na(was), "NA", was),
                                    fixed[fixed != colnames(x) | is.na(colnames(x))]),
                            collapse = ", ")))
    }
    colnames(x) <- fixed
  }
  if (n < min_rows) {
    abort_input(sprintf("`%s` has %d row%s; at least %d %s needed.", name, n,
                        if (n == 1L) "" else "s", min_rows,
                        if (min_rows == 1L) "is" else "are"), call)
  }
  x
}

# The names of x's columns as a fit reports them: its own, or for a matrix without column
# names V1, V2, ... (as as.data.frame() names them; predict() then matches by position).
column_names <- function(x) {
  nm <- colnames(x)
  if (is.null(nm)) paste0("V", seq_len(ncol(x))) else nm
}

# What this session was told once (messages shown once per session).
.said <- new.env(parent = emptyenv())

# Column names by which predict() can find a column: a missing or empty name becomes V<k>
# (as data.frame() names column k), a repeated one gets .1, .2, ... (make.unique()).
usable_names <- function(nm) {
  if (is.null(nm)) return(NULL)
  blank <- is.na(nm) | !nzchar(nm)
  nm[blank] <- paste0("V", seq_along(nm))[blank]
  make.unique(nm)
}

# A bit64 integer64 vector as doubles, through bit64's own conversion (a plain as.double()
# without bit64 would read its bits as doubles); without bit64, an error saying what to do.
int64_double <- function(v, what, call) {
  if (!requireNamespace("bit64", quietly = TRUE)) {
    abort_input(sprintf("%s is integer64 (from bit64, which is not installed): install bit64 or convert it to double first.",
                        what), call)
  }
  attr(v, "dim") <- NULL
  as.double(v) # bit64's method, registered with its namespace
}

# init = a fit from train(): its weights (in the data's units, columns matched by name)
# for the sizes it has, NULL (that map's uniform initial weights) for the others.
fit_init <- function(fit, sizes, x, call, scaling) {
  names <- fit$params$colnames
  same <- fit$params$m == ncol(x) &&
    (is.null(names) || is.null(colnames(x)) || setequal(names, colnames(x)))
  if (!same) {
    abort_input(sprintf(
      "`init` is a fit of %d column%s (%s); `y` has %d (%s). Continue a fit on data with its columns.",
      fit$params$m, if (fit$params$m == 1L) "" else "s",
      paste(if (is.null(names)) "unnamed" else names, collapse = ", "), ncol(x),
      paste(if (is.null(colnames(x))) "unnamed" else colnames(x), collapse = ", ")), call)
  }
  weights <- lapply(sizes, function(N) {
    w <- fit$weights[[paste0("N", N)]]
    if (is.null(w)) return(NULL)
    if (!is.null(names) && !is.null(colnames(x))) w <- w[, colnames(x), drop = FALSE]
    w <- scale_weights(unname(w), scaling)
    storage.mode(w) <- "double"
    w
  })
  list(type = "fit", weights = weights)
}

# Squared distances must neither overflow nor vanish in the working precision: refuse data
# (largest absolute value data_max, from scan_data()) and weights (user initial weights; a
# trained model's, for predict) whose magnitude is out of range, with the fix. m: what a
# squared difference is multiplied by at most, summed over the columns (the number of
# columns; with variable weights their sum; times the columns again with missing values).
check_magnitude <- function(data_max, m, weights, precision, call, name = "y",
                            trained = FALSE) {
  w_max <- max(0, vapply(Filter(Negate(is.null), weights), function(w) max(abs(w)),
                         numeric(1)))
  # before training, weights start within +-0.5 unless given; a trained model's weights are
  # what the rows are compared with
  scale <- max(data_max, w_max, if (!trained) 0.5)
  tiny <- if (trained) max(data_max, w_max) else data_max
  if (precision == "double") {
    hi <- sqrt(.Machine$double.xmax / (4 * m))
    lo <- 1e-140
  } else {
    hi <- sqrt(3.4e38 / (4 * m))
    lo <- 1e-15
  }
  # advice that works: a power of ten brings the values near 1 (scale() itself would over- or
  # underflow on such values), or train()'s own scaling, which guards against that
  fix <- function(op, power) {
    sprintf("%s `%s` by 1e%d%s", op, name, power,
            if (trained) " (and train on data so rescaled)" else ", or pass scale = TRUE")
  }
  if (scale > hi) {
    abort_input(sprintf(
      "`%s` (or %s) has values up to %.3g in absolute value: squared distances would overflow in %s precision. %s%s.",
      name, if (trained) "the weights" else "`init`", scale, precision,
      fix("Divide", floor(log10(scale))),
      if (precision == "single") ", or use precision = \"double\"" else ""),
      call)
  }
  if (tiny > 0 && tiny < lo) {
    abort_input(sprintf(
      "All values of `%s` are below %.3g in absolute value: squared distances would underflow in %s precision. %s.",
      name, lo, precision, fix("Multiply", -floor(log10(tiny)))), call)
  }
  invisible(scale)
}

# 3. of the row pipeline (data_rows(), prepared_matrix(): data_prepare.R): the prepared rows xt
# and the weights they meet (check_magnitude()), their largest absolute value the scan's
# when neither scaling nor rows left out changed them, else another scan's.
check_prepared <- function(xt, scan, rows, scaling, var_weights, weights, precision, call,
                           name = "y", trained = FALSE) {
  max_abs <- if (is.null(scaling) && is.null(rows$used)) scan$max_abs else
    scan_data(xt, call, name)$max_abs
  check_magnitude(max_abs, distance_factor(var_weights, ncol(xt), rows$missing), weights,
                  precision, call, name = name, trained = trained)
}

# scale = FALSE (none), TRUE (column_scaling(): each column centred on its mean and divided
# by its standard deviation), or list(center, scale) (one value per column, by name or in
# column order). NULL or list(center, scale), named by the columns.
check_scale <- function(scale, x, call) {
  if (isFALSE(scale)) return(NULL)
  m <- ncol(x)
  if (isTRUE(scale)) return(column_scaling(x, call))
  if (is.list(scale) && !is.data.frame(scale) && length(scale) == 2L &&
      setequal(names(scale), c("center", "scale"))) {
    center <- column_values(scale$center, "scale$center", x, call)
    spread <- column_values(scale$scale, "scale$scale", x, call, positive = TRUE)
    return(list(center = center, scale = spread))
  }
  abort_scale(scale, call)
}

# The error for a `scale` that is none of its forms (select_size()'s takes "auto" too).
abort_scale <- function(scale, call, auto = FALSE) {
  abort_input(sprintf(
    "`scale` must be %sTRUE, FALSE or a list with `center` and `scale` (one value per column), not %s.",
    if (auto) "\"auto\", " else "", describe(scale)), call)
}

# var_weights: NULL (every column 1), or one non-negative weight per column, by name or in
# column order, not all 0. NULL or the weights, named by the columns.
check_var_weights <- function(var_weights, x, call) {
  if (is.null(var_weights)) return(NULL)
  w <- column_values(var_weights, "var_weights", x, call, nonnegative = TRUE)
  if (!any(w > 0)) abort_input("`var_weights` must not all be 0.", call)
  w
}

# One finite value per column of x: a numeric vector named by x's columns (any order; all
# of them) or of length ncol(x) in column order.
column_values <- function(v, name, x, call, positive = FALSE, nonnegative = FALSE) {
  m <- ncol(x)
  kind <- if (positive) "positive finite" else if (nonnegative) "non-negative finite" else "finite"
  numeric <- is.numeric(v) && !is.object(v) && is.null(dim(v))
  ok <- numeric && !anyNA(v) && all(is.finite(v))
  if (ok && !is.null(names(v)) && !is.null(colnames(x))) {
    missing <- setdiff(colnames(x), names(v))
    if (length(missing)) {
      abort_input(sprintf("`%s` has no value for the column%s %s.", name,
                          if (length(missing) == 1L) "" else "s",
                          paste0("`", missing, "`", collapse = ", ")), call)
    }
    v <- v[colnames(x)]
  }
  good <- if (numeric) is.finite(v) & (!positive | v > 0) & (!nonnegative | v >= 0)
  if (!numeric || length(v) != m || !all(good)) {
    what <- if (!numeric) describe(v) else if (length(v) != m) {
      sprintf("%s (the data have %d column%s)", describe(v), m, if (m == 1L) "" else "s")
    } else {
      describe_bad(stats::setNames(v, NULL), good)
    }
    abort_input(sprintf(
      "`%s` must be %s number%s, one per column of the data (%d, by name or in column order), not %s.",
      name, kind, if (m == 1L) "" else "s", m, what), call)
  }
  stats::setNames(as.double(v), colnames(x))
}

# The ring sizes from nmin/nmax or an explicit `sizes`, as list(count, sum, max, sizes):
# the vector `sizes` only once family_sizes() is called, so that a range too large to
# allocate is refused (check_memory()) before it is built.
check_sizes <- function(nmin, nmax, sizes, supplied, call) {
  if (supplied[["sizes"]]) {
    if (supplied[["nmin"]] || supplied[["nmax"]]) {
      abort_input("Give either `sizes` or `nmin`/`nmax`, not both.", call)
    }
    ok <- is.numeric(sizes) && !is.object(sizes) && length(sizes) >= 1L &&
      !anyNA(sizes) && all(is.finite(sizes))
    if (ok) ok <- all(sizes == round(sizes)) && all(sizes >= 2) && all(sizes <= int_max)
    if (!ok) {
      what <- if (is.numeric(sizes)) {
        describe_bad(sizes, is.finite(sizes) & sizes == round(sizes) & sizes >= 2 & sizes <= int_max)
      } else {
        describe(sizes)
      }
      abort_input(sprintf(
        "`sizes` must be whole numbers of neurons from 2 to %s, not %s.",
        format(int_max, big.mark = ","), what), call)
    }
    if (anyDuplicated(sizes)) {
      abort_input(sprintf("`sizes` must not repeat a size; %s appears more than once.",
                          format(sizes[anyDuplicated(sizes)])), call)
    }
    return(list(count = length(sizes), sum = sum(as.double(sizes)), max = max(sizes),
                sizes = as.integer(sizes)))
  }
  nmax <- check_whole(nmax, "nmax", 2, call = call)
  nmin <- check_whole(nmin, "nmin", 2, call = call)
  if (nmin > nmax) {
    abort_input(sprintf("`nmin` (%d) must not exceed `nmax` (%d).", nmin, nmax), call)
  }
  count <- as.double(nmax) - nmin + 1
  list(count = count, sum = (as.double(nmin) + nmax) * count / 2, max = nmax,
       range = c(nmin, nmax))
}

# The initial weights: "uniform", "sample", "pca", or a list of matrices, one per size, in
# the data's units (scaled by `scaling` for the training data x).
check_init <- function(init, sizes, x, call, basis = NULL, scaling = NULL) {
  if (is.character(init)) {
    init <- check_choice(init, "init", c("uniform", "sample", "pca"), call)
    if (init == "pca") {
      return(list(type = "pca", weights = pca_ring_init(x, sizes, basis)))
    }
    if (init == "sample" && max(sizes) > nrow(x)) {
      abort_input(sprintf(
        "init = \"sample\" draws distinct rows of `y`, but the ring of %d neurons needs more rows than the %d there are. Use init = \"uniform\" or smaller sizes.",
        max(sizes), nrow(x)), call)
    }
    return(list(type = init, weights = NULL))
  }
  if (inherits(init, "somgpu")) return(fit_init(init, sizes, x, call, scaling))
  if (!is.list(init) || is.data.frame(init)) {
    abort_input(sprintf(
      "`init` must be \"uniform\", \"sample\", \"pca\", a list of matrices (one per size) or a fit from train(), not %s.",
      describe(init)), call)
  }
  if (length(init) != length(sizes)) {
    abort_input(sprintf(
      "`init` has %d matri%s but there %s %d size%s; give one matrix per size, in the order of `sizes`.",
      length(init), if (length(init) == 1L) "x" else "ces",
      if (length(sizes) == 1L) "is" else "are", length(sizes),
      if (length(sizes) == 1L) "" else "s"), call)
  }
  m <- ncol(x)
  weights <- lapply(seq_along(init), function(i) {
    w <- init[[i]]
    if (is.data.frame(w)) w <- as.matrix(w)
    if (!is.matrix(w) || !is.numeric(w) || nrow(w) != sizes[i] || ncol(w) != m) {
      shape <- if (is.matrix(w)) sprintf("a %d x %d %s matrix", nrow(w), ncol(w), typeof(w))
        else describe(w)
      abort_input(sprintf(
        "`init[[%d]]` must be a numeric %d x %d matrix (size %d, %d columns of y), not %s.",
        i, sizes[i], m, sizes[i], m, shape), call)
    }
    if (!all(is.finite(w))) {
      abort_input(sprintf("`init[[%d]]` has missing or infinite values.", i), call)
    }
    storage.mode(w) <- "double"
    dimnames(w) <- NULL
    scale_weights(w, scaling)
  })
  list(type = "user", weights = weights)
}

check_seed <- function(seed, call) {
  if (is.null(seed)) return(sample.int(int_max, 1L))
  ok <- is.numeric(seed) && !is.object(seed) && length(seed) == 1L && !is.na(seed) &&
    is.finite(seed) && seed == round(seed) && abs(seed) <= int_max
  if (!ok) {
    abort_input(sprintf(
      "`seed` must be NULL or a single whole number of at most %s in absolute value, not %s.",
      format(int_max, big.mark = ","), describe(seed)), call)
  }
  as.integer(seed)
}

# A seed derived from `seed` (a checked one, check_seed()'s) and an offset, within R's
# integers: in double arithmetic, so that a seed near .Machine$integer.max does not
# overflow (it did: select_size(seed = .Machine$integer.max) stopped with NA).
derived_seed <- function(seed, offset) as.integer((as.double(seed) + offset) %% int_max)

# expr evaluated with R's generator seeded by `seed`, the session's generator as it was
# afterwards.
with_private_seed <- function(seed, expr) {
  if (exists(".Random.seed", envir = globalenv())) {
    old <- get(".Random.seed", envir = globalenv())
    on.exit(assign(".Random.seed", old, envir = globalenv()))
  } else {
    on.exit(rm(".Random.seed", envir = globalenv()))
  }
  set.seed(seed)
  expr
}
