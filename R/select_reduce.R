# Wide data: select_size() on the leading principal components. The Gaussian rule fits a
# covariance per cell and group, d x d, and its joins cost O(N^2 d^3): 57 s at 400 columns,
# no answer in 10 minutes at 2,308 (issue 66); and covariances of thousands of columns
# cannot be estimated from hundreds of rows. The field looks for groups in a few leading
# components (Seurat and scanpy: a truncated SVD, then a graph; mclust users fit the
# components). So from "wide_columns" columns (R/base_tuning.R) select_size() centres (and
# scales, as `scale` says) the columns, keeps the leading components of a truncated SVD
# that stand above the noise (above_noise(); at most "components_kept"), and the maps, the
# rules and the replicates all run on those: after the SVD nothing costs more with the
# columns. New rows (predict(), augment(), the rows beyond
# a sample) are projected on the same components. bench/bench_select_wide.R measures it.

# A reduction: the columns it reads (`source`, as newdata_matrix() wants a fit: params
# with colnames, m, named), their centres and scales (NULL: none), the rotation (columns x
# components), each component's standard deviation, the share of the total variance each
# explains, na_max (rows missing more than this share of their values have no
# components: NA, left out as train() leaves them out), `auto` (whether
# components = "auto" decided) and `computed` (the components the SVD gave, of which
# "auto" kept those above the noise: all of them where the spectrum shows no floor).
reduction_fields <- c("source", "centre", "scale", "rotation", "sdev", "explained",
                      "na_max", "auto", "computed")

new_reduction <- function(source, centre, scale, rotation, sdev, explained, na_max, auto,
                          computed = length(sdev)) {
  out <- list(source = source, centre = as.double(centre),
              scale = if (!is.null(scale)) as.double(scale), rotation = rotation,
              sdev = as.double(sdev), explained = as.double(explained),
              na_max = as.double(na_max), auto = isTRUE(auto), computed = as.integer(computed))
  check_internal(identical(names(out), reduction_fields), "a reduction with other fields")
  check_internal(nrow(rotation) == length(centre) && ncol(rotation) == length(sdev),
                 "a reduction whose rotation does not fit its columns")
  out
}

# The reduction select_size() runs on and the rows x as its components (list(reduction,
# rows)), or NULL: `components` ("auto": from "wide_columns"
# columns on, the leading components above the noise, at most "components_kept"; FALSE:
# none; a whole number: that many), for the rows x (a plain double matrix; `encoding`, a data frame's categorical
# columns, keeps the columns: their latent-class terms need them), `scaling`
# (select_scaling()'s), the columns' `var_weights` (or NULL), train()'s `na_max`.
select_reduction <- function(components, x, encoding, scaling, var_weights, na_max, seed, call) {
  auto <- identical(components, "auto")
  if (isFALSE(components)) return(NULL)
  if (!auto) {
    if (!is.numeric(components) || length(components) != 1L) {
      abort_input(sprintf("`components` must be \"auto\", FALSE or a whole number of principal components, not %s.",
                          describe(components)), call)
    }
    components <- check_whole(components, "components", 1, call = call)
  }
  m <- ncol(x)
  if (auto && !wide_auto(components, m, encoding)) return(NULL)
  if (!is.null(encoding)) {
    abort_input("`components` needs numeric columns: a data frame with categorical columns is grouped on its columns (components = FALSE).", call)
  }
  if (inherits(x, "somgpu_file")) x <- file_rows(x, seq_len(nrow(x)))
  x <- plain_matrix(x)
  k <- if (auto) tuned("components_kept") else components
  k <- min(k, m, nrow(x) - 1L)
  if (k < 1L) abort_input("`components` needs at least 2 rows.", call)
  given <- if (is.list(scaling$scale)) scaling$scale$center
  centre <- if (!is.null(given)) as.double(given) else colMeans(x, na.rm = TRUE)
  if (length(centre) != m || anyNA(centre)) {
    abort_input(sprintf("`scale$center` must hold %d numbers, a centre per column.", m), call)
  }
  centre[!is.finite(centre)] <- 0
  sc <- reduction_scales(scaling$scale, x, m, call)
  if (!is.null(var_weights)) sc <- (if (is.null(sc)) rep(1, m) else sc) / sqrt(var_weights)
  source <- list(params = list(colnames = colnames(x), m = m, named = !is.null(colnames(x))))
  xc <- centred_columns(x, centre, sc)
  total <- sum(xc^2)
  s <- truncated_svd(xc, k, seed)
  computed <- length(s$d)
  if (auto) { # the components above the noise
    keep <- seq_len(above_noise(s$d, total, nrow(x), m))
    s <- list(v = s$v[, keep, drop = FALSE], d = s$d[keep])
  }
  explained <- if (total > 0) s$d^2 / total else rep(0, length(s$d))
  reduction <- new_reduction(source, centre, sc, s$v, s$d / sqrt(max(1, nrow(x) - 1)),
                             explained, na_max, auto, computed)
  # the rows' own components, from their centred columns already made
  list(reduction = reduction, rows = projected(reduction, xc, x))
}

# How many of the leading singular values d (of n rows by m centred columns, whose squares
# sum to `total`) stand above noise (at least 1): those whose variance exceeds the largest
# that columns of pure noise give, the Marchenko-Pastur edge sigma^2 (1 + sqrt(m / n))^2,
# sigma^2 the variance per column left beside the components kept (fixed point of a few
# rounds). Where only a few directions carry the groups, the rest only add noise to every
# distance and covariance: three groups apart in 30 of 2,000 columns, 300 rows, gave one
# group on 20 components, three (ARI 0.85) on the 2 above the noise (bench_select_wide.R).
above_noise <- function(d, total, n, m) {
  lambda <- d^2
  rank <- min(n - 1L, m)
  k <- length(d)
  for (round in 1:5) {
    rest <- max(0, total - sum(lambda[seq_len(k)])) / max(1, rank - k) * rank / m
    edge <- rest * (1 + sqrt(m / (n - 1)))^2
    k_new <- max(1L, sum(lambda > edge))
    if (k_new == k) break
    k <- k_new
  }
  k
}

# The columns' scales (NULL: none) for train()'s `scale`: TRUE, their standard deviations
# (a constant column's 1); a list, its `scale`.
reduction_scales <- function(scale, x, m, call) {
  if (isTRUE(scale)) {
    s <- column_spreads(x)$spread
    s[!is.finite(s) | s <= 0] <- 1
    return(s)
  }
  if (is.list(scale)) {
    s <- scale$scale
    if (is.null(s)) return(NULL)
    if (!is.numeric(s) || length(s) != m || anyNA(s) || any(s <= 0)) {
      abort_input(sprintf("`scale$scale` must hold %d positive numbers, a scale per column.", m), call)
    }
    return(as.double(s))
  }
  NULL
}

# Whether m columns (of numeric data: `encoding` NULL) are a wide table the components
# stand for (components not FALSE, from "wide_columns" columns on). Such a table's columns
# measure one kind of thing (genes, pixels, a spectrum's bins), so scale = "auto" keeps
# their units (select_scaling()): standardized, the thousands of quiet columns would weigh
# as much as the few that part the groups (dslabs' tissue expression: ARI 0.79 in its
# units, 0.27 standardized).
wide_auto <- function(components, m, encoding) {
  !isFALSE(components) && is.null(encoding) && m >= tuned("wide_columns")
}

# x centred (and divided by `scale`), missing values at the centre (0: they move a row
# along no component).
# A block of columns at a time, so that beside x and the result only a block is held (a
# sweep() of the whole holds two more copies of x).
centred_columns <- function(x, centre, scale) {
  xc <- x + 0 # a copy, made once
  for (cols in split(seq_len(ncol(x)), (seq_len(ncol(x)) - 1L) %/% 1024L)) {
    b <- sweep(x[, cols, drop = FALSE], 2, centre[cols])
    if (!is.null(scale)) b <- sweep(b, 2, scale[cols], "/")
    b[is.na(b)] <- 0
    xc[, cols] <- b
  }
  xc
}

# The k leading right singular vectors and values of xc: exact (LAPACK) when the smaller
# side is small; up to 600, from the eigenvectors of the smaller side's Gram matrix
# (O(min(n, m)^2 max(n, m)): 200 x 20,000 in 0.3 s, where the randomized way took 2 s);
# else randomized subspace iteration (Halko, Martinsson and Tropp 2011:
# 2k + 10 directions, 6 power iterations, each a product with xc: O(n m k)), from a
# Gaussian start drawn from `seed` apart from the session's generator: the directions
# apart from the rest to near machine precision, those inside the noise's bulk to about 1%.
# Each direction with its largest loading positive, so that the basis does not depend on
# the solver.
truncated_svd <- function(xc, k, seed) {
  n <- nrow(xc)
  m <- ncol(xc)
  p <- 2L * k + 10L
  s <- if (min(n, m) <= 2L * p) svd(xc, nu = 0L, nv = k) else if (min(n, m) <= 600L) {
    gram_svd(xc, k)
  } else {
    omega <- with_private_seed(derived_seed(seed, 7919), matrix(stats::rnorm(m * p), m))
    q <- qr.Q(qr(xc %*% omega))
    for (i in 1:6) {
      q <- qr.Q(qr(crossprod(xc, q)))
      q <- qr.Q(qr(xc %*% q))
    }
    svd(crossprod(q, xc), nu = 0L, nv = k) # the sketch's: the same right vectors
  }
  v <- s$v[, seq_len(k), drop = FALSE]
  flip <- apply(v, 2, function(e) if (e[which.max(abs(e))] < 0) -1 else 1)
  list(v = sweep(v, 2, flip, "*"), d = s$d[seq_len(k)])
}

# The k leading right singular vectors and values of xc from the eigenvectors of its
# smaller side's Gram matrix (the right vectors of a wide xc as xc' u / d).
gram_svd <- function(xc, k) {
  if (nrow(xc) >= ncol(xc)) {
    e <- eigen(crossprod(xc), symmetric = TRUE)
    return(list(v = e$vectors[, seq_len(k), drop = FALSE], d = sqrt(pmax(e$values[seq_len(k)], 0))))
  }
  e <- eigen(tcrossprod(xc), symmetric = TRUE)
  d <- sqrt(pmax(e$values[seq_len(k)], 0))
  v <- crossprod(xc, e$vectors[, seq_len(k), drop = FALSE])
  list(v = sweep(v, 2, ifelse(d > 0, d, 1), "/"), d = d)
}

# Rows x (a matrix or data frame of the reduction's columns, as newdata_matrix() gives
# them) as their components: a matrix with columns PC1, PC2, ...; NA for the rows missing
# more than na_max of their values.
reduce_rows <- function(reduction, x) {
  x <- plain_matrix(x)
  projected(reduction, centred_columns(x, reduction$centre, reduction$scale), x)
}

# The components of rows x whose centred columns are xc (centred_columns()).
projected <- function(reduction, xc, x) {
  z <- xc %*% reduction$rotation
  if (anyNA(x)) z[rowMeans(is.na(x)) > reduction$na_max, ] <- NA_real_
  dimnames(z) <- list(rownames(x), paste0("PC", seq_len(ncol(z))))
  z
}

# What print() and the strategy say of a reduction ("" without one).
reduction_words <- function(reduction) {
  if (is.null(reduction)) return("")
  sprintf("; the %s columns reduced to their %d leading principal components (%s%% of the variance)",
          format(length(reduction$centre), big.mark = ","), length(reduction$sdev),
          format(round(100 * sum(reduction$explained), 1), nsmall = 1))
}

# The decision that says the rules ran on components (NULL without a reduction): a first
# row of `decisions`.
reduction_decision <- function(reduction, n) {
  if (is.null(reduction)) return(NULL)
  m <- length(reduction$centre)
  k <- length(reduction$sdev)
  why <- if (reduction$auto) sprintf("%s columns, at least \"wide_columns\"", format(m, big.mark = ","))
    else sprintf("components = %d", k)
  wide <- if (m > n) sprintf("; the columns outnumber the rows (%s)", format(n, big.mark = ",")) else ""
  decision("components", "applied",
           sprintf("the maps and the rules ran on the %d leading principal components of the %s columns (%s%s)",
                   k, format(m, big.mark = ","), why, wide),
           statistic = "variance explained", value = sum(reduction$explained),
           constant = if (reduction$auto) "wide_columns" else NA_character_)
}
