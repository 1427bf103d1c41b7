# The fit's constructors: the somgpu object (new_somgpu) and its clusters data frame.

# A somgpu fit from its parts (see ?train for the fields): `weights` (in the scaled space the
# maps trained in) and `clusters` (of the rows used, `keep`; NULL: all n) one per size in
# the order of `sizes`, `stability` one value per size, `trace` a passes x maps matrix or
# NULL. Names the sizes (N2, N3, ...) and the maps of the trace (N2.1, ...); reports the
# weights in the data's units, and keeps the trained ones for predict() when scaled.
# `encoding`: NULL, or the encoding of a data frame's categorical columns (data_encode.R's
# new_encoding()), which predict() and the reports read.
new_somgpu <- function(weights, clusters, keep, n, rownames, sizes, quality, stability, trace,
                       backend, seed, scaling, var_weights, dropped, params, data, elapsed,
                       call, encoding = NULL) {
  check_internal(is.list(weights) && length(weights) == length(sizes) &&
                   (inherits(clusters, "somgpu_file_clusters") ||
                      (is.list(clusters) && length(clusters) == length(sizes))) &&
                   is.data.frame(quality) && length(stability) == length(sizes) &&
                   (is.null(keep) || is.integer(keep)),
                 "new_somgpu() was given parts that do not fit together")
  labels <- paste0("N", sizes)
  names(weights) <- labels
  if (!is.null(keep)) { # rows left out have no cluster
    clusters <- lapply(clusters, function(cl) {
      all <- rep(NA_integer_, n)
      all[keep] <- cl
      all
    })
  }
  if (!inherits(clusters, "somgpu_file_clusters")) { # else clusters in a file, their columns named already
    names(clusters) <- labels
    clusters <- new_clusters(list2DF(clusters), rownames)
  }
  if (!is.null(trace)) {
    dimnames(trace) <- list(NULL, sprintf("N%d.%d", quality$size, quality$restart))
  }
  structure(list(
    weights = lapply(weights, unscale_weights, scaling),
    clusters = clusters,
    quality = quality,
    stability = data.frame(size = sizes, stability = stability),
    trace = trace,
    backend = backend,
    seed = seed,
    scaling = scaling,
    scaled_weights = if (!is.null(scaling)) weights,
    var_weights = var_weights,
    dropped = dropped,
    params = params,
    data = data,
    elapsed = elapsed,
    call = call,
    encoding = encoding
  ), class = "somgpu")
}

# Clusters as a data frame (one integer column per size) that prints its first rows and a
# count when long, as a tibble does, and is a data frame for everything else.
new_clusters <- function(df, rownames = NULL) {
  if (!is.null(rownames)) row.names(df) <- rownames
  class(df) <- c("somgpu_clusters", "data.frame")
  df
}

#' @export
#' @noRd
print.somgpu_clusters <- function(x, n = 10L, ...) {
  rows <- nrow(x)
  shown <- as.data.frame(x)[seq_len(min(rows, if (rows > 20L) n else rows)), , drop = FALSE]
  cat(sprintf("clusters of %d row%s, %d size%s (%s)\n", rows, if (rows == 1L) "" else "s",
              ncol(x), if (ncol(x) == 1L) "" else "s", paste(names(x), collapse = ", ")))
  if (rows > 0L) print(shown, ...)
  if (rows > nrow(shown)) cat(sprintf("# ... and %d more rows (head(x, n), as.data.frame(x))\n",
                                      rows - nrow(shown)))
  invisible(x)
}

