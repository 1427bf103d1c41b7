# Clusters (or groups) written to a file: a new file-backed integer bigmemory::big.matrix,
# its descriptor beside it (path + ".desc"), and the object a fit or predict() returns for
# it. A big.matrix holds an external pointer that does not survive saveRDS()/readRDS() (its
# methods then crash R), so users never get one inside a result: they get a
# somgpu_file_clusters, which keeps the path and attaches the matrix again from the
# descriptor on first use, in whatever session it is used.

# clusters_file (or groups_file): NULL, or (for file-backed data) the path of a file to
# make, returned absolute (a relative path would break after setwd()).
check_clusters_file <- function(path, sourced, call, name = "clusters_file",
                                what = "the clusters") {
  if (is.null(path)) return(NULL)
  if (!is.character(path) || length(path) != 1L || is.na(path) || !nzchar(path)) {
    abort_input(sprintf("`%s` must be NULL or a file path, not %s.", name, describe(path)),
                call)
  }
  if (!sourced) {
    abort_input(sprintf("`%s` is for file-backed data (a bigmemory big.matrix); %s of data in memory come back in R.",
                        name, what), call)
  }
  path <- path.expand(path)
  if (grepl("[/\\\\]$", path) || dir.exists(path)) {
    abort_input(sprintf(
      "`%s` names the folder %s; name a file in it, e.g. %s.", name, path,
      file.path(sub("[/\\\\]+$", "", path), if (name == "groups_file") "groups.bin" else "clusters.bin")),
      call)
  }
  there <- c(path, paste0(path, ".desc"))
  there <- there[file.exists(there)]
  if (length(there)) {
    abort_input(sprintf(
      "`%s`: %s already %s; somgpu does not overwrite files. Remove %s or name another path.",
      name, paste(there, collapse = " and "), if (length(there) == 1L) "exists" else "exist",
      if (length(there) == 1L) "it" else "them"), call)
  }
  dir <- dirname(path)
  if (!dir.exists(dir)) {
    abort_input(sprintf("`%s`: %s %s; name a path in an existing folder.", name, dir,
                        if (file.exists(dir)) "is a file, not a folder" else "does not exist"),
                call)
  }
  # a file made and removed now, rather than bigmemory's failure after the training
  probe <- tempfile(".somgpu-probe-", tmpdir = dir)
  made <- suppressWarnings(file.create(probe))
  if (!made) {
    abort_input(sprintf(
      "`%s`: somgpu cannot write files in the folder %s (no permission, or a read-only file system); name a path in a folder you can write to.",
      name, dir), call)
  }
  unlink(probe)
  file.path(normalizePath(dir), basename(path))
}

# Clusters of n rows for `labels` (N2, N3, ...) to a new file-backed integer big.matrix at
# `path` (checked by check_clusters_file()): list(matrix, the big.matrix to write to;
# file, the somgpu_file C writes to; clusters, what the result holds).
clusters_file_matrix <- function(path, n, labels, call, name = "clusters_file") {
  if (is.null(path)) return(NULL) # the clusters come back in R
  need_packages("bigmemory", sprintf("`%s`", name), call)
  bm <- tryCatch(bigmemory::filebacked.big.matrix(
    nrow = n, ncol = length(labels), type = "integer", backingfile = basename(path),
    backingpath = dirname(path), descriptorfile = paste0(basename(path), ".desc"),
    dimnames = list(NULL, labels)), error = function(e) {
      unlink(c(path, paste0(path, ".desc")))
      abort(sprintf("`%s`: bigmemory could not make the file-backed matrix %s (%s): check the space left on that disk and that the folder can be written.",
                    name, path, conditionMessage(e)), "somgpu_file_error", call)
    })
  list(matrix = bm, file = file_data(bm, call, min_rows = 1L, name = name),
       clusters = new_file_clusters(path, n, labels, bm))
}

# The value of expr; if it fails, the clusters file `to` (from clusters_file_matrix(), or
# NULL) is removed with its descriptor, so that the same path can be used again.
with_clusters_file <- function(to, expr) {
  if (is.null(to)) return(expr)
  done <- FALSE
  on.exit(if (!done) unlink(c(to$file$path, paste0(to$file$path, ".desc"))), add = TRUE)
  value <- expr
  done <- TRUE
  value
}

# The clusters in a file, as results hold them: the path (absolute), n rows, the column
# labels, and `cache`, an environment holding the big.matrix attached in this session
# (after readRDS() its pointer is nil, and file_clusters_matrix() attaches it again).
# Fields are read with .subset2(): `$` and `[[` give the columns by name. The cache's
# parent is somgpu's namespace, which saveRDS() records by name: readRDS() loads somgpu, so
# that the methods below (nrow(), x[i, j], ...) work in a session that has not attached it.
new_file_clusters <- function(path, n, labels, matrix = NULL) {
  cache <- new.env(parent = topenv())
  cache$matrix <- matrix
  structure(list(path = path, n = as.double(n), labels = labels, cache = cache),
            class = "somgpu_file_clusters")
}

# The big.matrix of a somgpu_file_clusters, usable in this session: the one attached
# already, or attached from the descriptor (a classed error when that cannot be done).
file_clusters_matrix <- function(x, call = NULL) {
  need_packages("bigmemory", "Clusters in a file", call)
  cache <- .subset2(x, "cache")
  m <- cache$matrix
  if (!is.null(m) && !bigmemory::is.nil(m@address)) return(m)
  path <- .subset2(x, "path")
  desc <- paste0(path, ".desc")
  gone <- c(desc, path)[!file.exists(c(desc, path))]
  if (length(gone)) {
    abort(sprintf(
      "The clusters are in a file-backed big.matrix that this session cannot attach: %s %s gone. If the files moved, attach them with bigmemory::attach.big.matrix(); else make the clusters anew with predict(fit, data, clusters_file = ...).",
      paste(gone, collapse = " and "), if (length(gone) == 1L) "is" else "are"),
      "somgpu_file_error", call)
  }
  m <- tryCatch(bigmemory::attach.big.matrix(desc), error = function(e) {
    # bigmemory joins the folder and file with a doubled slash
    abort(sprintf("The clusters could not be attached from %s: %s. Put the file back beside its descriptor, or make the clusters anew with predict(fit, data, clusters_file = ...).",
                  desc, sub("[.]$", "", gsub("//+", "/", conditionMessage(e)))),
          "somgpu_file_error", call)
  })
  if (!isTRUE(all(dim(m) == c(.subset2(x, "n"), length(.subset2(x, "labels")))))) {
    abort(sprintf("The file %s holds a %.0f x %d matrix, not these clusters (%.0f rows, %d columns): it was replaced since.",
                  path, nrow(m), ncol(m), .subset2(x, "n"), length(.subset2(x, "labels"))),
          "somgpu_file_error", call)
  }
  cache$matrix <- m
  m
}

# A fit's clusters: the data frame, or when they went to a file the big.matrix, attached
# in this session (file_clusters_matrix()).
fit_clusters <- function(fit, call = NULL) {
  cl <- fit$clusters
  if (inherits(cl, "somgpu_file_clusters")) file_clusters_matrix(cl, call) else cl
}

# The clusters of one size of a fit (position or name N<size>), whatever holds them: a
# column of the data frame, or of the file-backed big.matrix (read whole). cl: the fit's
# clusters as fit_clusters() gives them, for callers that take several sizes (attached
# once).
size_clusters <- function(fit, i, call = NULL, cl = fit_clusters(fit, call)) {
  if (inherits(cl, "big.matrix")) cl[, i] else cl[[i]]
}

#' Clusters in a file, as a big.matrix
#'
#' A fit trained with `clusters_file`, the result of `predict(..., clusters_file = )` and a
#' selection made with `groups_file` keep their clusters in a file-backed
#' `bigmemory::big.matrix`. The result holds the file's path, not the matrix: a
#' big.matrix does not survive [saveRDS()] (its pointer is lost, and bigmemory's
#' functions then crash R), while the path does. The clusters object itself reads like a
#' matrix (`dim()`, `x[i, j]`, `x$N3`, `head()`, `as.matrix()`, `as.data.frame()`),
#' attaching the file on first use; `as_big_matrix()` gives the big.matrix, attached in
#' this session, for bigmemory's own tools.
#'
#' @param x A [train()] fit, the clusters object of one (`fit$clusters`) or of
#'   [predict.somgpu()], or a [select_size()] result made with `groups_file`.
#' @return A `bigmemory::big.matrix`, attached from the descriptor beside the file (the
#'   path plus `".desc"`). A classed error (`somgpu_file_error`) when the files are gone,
#'   and an input error when `x` keeps its clusters in memory.
#' @examples
#' if (requireNamespace("bigmemory", quietly = TRUE)) {
#'   d <- tempfile("somgpu-")
#'   dir.create(d)
#'   bm <- bigmemory::as.big.matrix(matrix(runif(300), ncol = 3), backingfile = "y.bin",
#'                                  backingpath = d, descriptorfile = "y.bin.desc")
#'   fit <- train(bm, nmax = 3, iter_max = 10, algorithm = "batch", seed = 1, threads = 1,
#'                clusters_file = file.path(d, "clusters.bin"))
#'   f <- file.path(d, "fit.rds")
#'   saveRDS(fit, f)
#'   again <- readRDS(f) # in this session or another
#'   dim(again$clusters)
#'   head(again$clusters, 3)
#'   table(again$clusters$N3)
#'   as_big_matrix(again)
#' }
#' @export
as_big_matrix <- function(x) {
  call <- compact_call(sys.call(), "as_big_matrix")
  if (inherits(x, "somgpu")) x <- x$clusters
  if (inherits(x, "somgpu_selection")) {
    if (is.null(x$groups_file)) {
      abort_input("This selection keeps its groups in memory (`partition`); `groups_file` puts them in a file.", call)
    }
    x <- new_file_clusters(x$groups_file, x$strategy$n, "group")
  }
  if (!inherits(x, "somgpu_file_clusters")) {
    abort_input(sprintf("as_big_matrix() takes a fit, clusters or a selection whose clusters went to a file (`clusters_file`, `groups_file`), not %s.",
                        describe(x)), call)
  }
  file_clusters_matrix(x, call)
}

#' @export
#' @noRd
dim.somgpu_file_clusters <- function(x) {
  as.integer(c(.subset2(x, "n"), length(.subset2(x, "labels"))))
}

#' @export
#' @noRd
dimnames.somgpu_file_clusters <- function(x) list(NULL, .subset2(x, "labels"))

#' @export
#' @noRd
`[.somgpu_file_clusters` <- function(x, i, j, ..., drop = TRUE) {
  if (nargs() - (!missing(drop)) < 3L) {
    abort_input("Clusters in a file are indexed by rows and columns: x[i, j] (x[, \"N3\"], x[1:5, ]).")
  }
  m <- file_clusters_matrix(x)
  labels <- .subset2(x, "labels")
  if (is.character(if (!missing(j)) j) && !all(j %in% labels)) {
    abort_input(file_column_text(x, setdiff(j, labels)))
  }
  # bigmemory's methods take every index given (a missing one: all of them)
  if (missing(i)) i <- seq_len(nrow(m))
  if (missing(j)) j <- seq_along(labels)
  m[i, j, drop = drop]
}

# By name, a column (as a data frame's `$` and `[[` give one) or a field; by number, the
# field (list code that walks the object by position sees a list).
#' @export
#' @noRd
`[[.somgpu_file_clusters` <- function(x, i, ...) {
  labels <- .subset2(x, "labels")
  if (length(i) == 1L && is.character(i) && i %in% labels) {
    return(file_clusters_matrix(x)[, i])
  }
  if (is.character(i) && !(length(i) == 1L && i %in% names(unclass(x)))) {
    abort_input(file_column_text(x, i))
  }
  .subset2(x, i)
}

#' @export
#' @noRd
`$.somgpu_file_clusters` <- function(x, name) x[[name]]

file_column_text <- function(x, bad) {
  sprintf("The clusters have no column %s; they have %s.",
          paste(format(bad), collapse = ", "), paste(.subset2(x, "labels"), collapse = ", "))
}

#' @export
#' @noRd
as.matrix.somgpu_file_clusters <- function(x, ...) x[, , drop = FALSE]

#' @export
#' @noRd
as.data.frame.somgpu_file_clusters <- function(x, ...) {
  as.data.frame(as.matrix(x), optional = TRUE)
}

#' @rawNamespace S3method(utils::head, somgpu_file_clusters)
#' @noRd
head.somgpu_file_clusters <- function(x, n = 6L, ...) {
  x[seq_len(min(n, nrow(x))), , drop = FALSE]
}

#' @rawNamespace S3method(utils::tail, somgpu_file_clusters)
#' @noRd
tail.somgpu_file_clusters <- function(x, n = 6L, ...) {
  rows <- seq.int(to = nrow(x), length.out = min(n, nrow(x)))
  out <- x[rows, , drop = FALSE]
  rownames(out) <- rows
  out
}

#' @rawNamespace S3method(utils::str, somgpu_file_clusters)
#' @noRd
str.somgpu_file_clusters <- function(object, ...) {
  cat(sprintf(" somgpu_file_clusters: %.0f x %d, %s\n", .subset2(object, "n"),
              length(.subset2(object, "labels")), .subset2(object, "path")))
  invisible(NULL)
}

# summary(): the rows in each cluster of every column (read from the file a column at a
# time), as summary() of clusters in memory would tell of them what matters.
#' @export
#' @noRd
summary.somgpu_file_clusters <- function(object, ...) {
  m <- file_clusters_matrix(object)
  labels <- .subset2(object, "labels")
  rows <- lapply(seq_along(labels), function(j) table(m[, j], useNA = "ifany", dnn = NULL))
  structure(stats::setNames(rows, labels), path = .subset2(object, "path"),
            class = "summary.somgpu_file_clusters")
}

#' @export
#' @noRd
print.summary.somgpu_file_clusters <- function(x, ...) {
  cat(sprintf("rows per cluster, in the file %s\n", attr(x, "path")))
  for (j in names(x)) {
    t <- x[[j]]
    cat(sprintf("%s: %s\n", j, paste0(ifelse(is.na(names(t)), "NA", names(t)), ": ",
                                       as.vector(t), collapse = "  ")))
  }
  invisible(x)
}

#' @export
#' @noRd
print.somgpu_file_clusters <- function(x, n = 6L, ...) {
  labels <- .subset2(x, "labels")
  cat(sprintf("clusters of %.0f rows, %d column%s (%s), in the file %s\n", .subset2(x, "n"),
              length(labels), if (length(labels) == 1L) "" else "s",
              paste(labels, collapse = ", "), .subset2(x, "path")))
  shown <- tryCatch(utils::head(x, n), somgpu_error = function(e) {
    cat("", strwrap(conditionMessage(e), width = getOption("width")), sep = "\n")
    NULL
  })
  if (!is.null(shown)) {
    print(shown)
    if (nrow(x) > nrow(shown)) {
      cat(sprintf("# ... and %.0f more rows (x[i, j], as.matrix(x), as_big_matrix(x))\n",
                  .subset2(x, "n") - nrow(shown)))
    }
  }
  invisible(x)
}
