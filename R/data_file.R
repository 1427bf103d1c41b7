# Data beyond memory: a file-backed bigmemory::big.matrix (or its descriptor) read by the
# compiled code a window of rows at a time (src/core/som_file.c, src/r/r_data.c), never whole in
# R. Here: recognising one, describing its backing file to C (a somgpu_file), the passes
# over data that train() and predict() make in C whatever holds the data (column
# statistics). The clusters written to a file are R/data_file_clusters.R's.

is_file_data <- function(y) inherits(y, c("big.matrix", "big.matrix.descriptor"))

# y (a file-backed big.matrix or its descriptor) as a somgpu_file: the backing file and
# where the matrix lies in it (its first row, the file's column of each of its columns),
# for the compiled code; dim() and dimnames() work on it.
# center and scale (set by prepared_matrix()): the rows are read as (x - center) / scale.
file_data <- function(y, call, min_rows = 2L, name = "y") {
  need_packages("bigmemory", "File-backed data", call)
  if (inherits(y, "big.matrix") && !bigmemory::is.filebacked(y) && !bigmemory::is.shared(y)) {
    abort_input(sprintf(
      "`%s` is a big.matrix in R's memory; somgpu reads file-backed ones. Make it with bigmemory::filebacked.big.matrix() (or pass %s[, ] when it fits in memory).",
      name, name), call)
  }
  d <- (if (inherits(y, "big.matrix")) bigmemory::describe(y) else y)@description
  if (!identical(d$sharedType, "FileBacked")) {
    abort_input(sprintf(
      "`%s` is a big.matrix in shared memory; somgpu reads file-backed ones. Make it with bigmemory::filebacked.big.matrix() (or pass as.matrix(%s) when it fits in memory).",
      name, name), call)
  }
  if (isTRUE(d$separated)) {
    abort_input(sprintf(
      "`%s` keeps its columns in separate files (separated = TRUE); somgpu reads one backing file. Make it with separated = FALSE.",
      name), call)
  }
  if (!d$type %in% c("double", "integer")) {
    abort_input(sprintf(
      "`%s` is a big.matrix of type \"%s\"; somgpu reads \"double\" or \"integer\" ones.",
      name, d$type), call)
  }
  path <- file.path(sub("[/\\\\]+$", "", d$dirname), d$filename)
  if (!file.exists(path)) {
    abort_input(sprintf("The backing file of `%s` is not there: %s.", name, path), call)
  }
  if (inherits(y, "big.matrix")) bigmemory::flush(y) # what R wrote, on disk for C to read
  if (d$ncol < 1) abort_input(sprintf("`%s` has no columns.", name), call)
  if (d$nrow < min_rows) {
    abort_input(sprintf("`%s` has %.0f row%s; at least %d %s needed.", name, d$nrow,
                        if (d$nrow == 1) "" else "s", min_rows,
                        if (min_rows == 1L) "is" else "are"), call)
  }
  if (d$nrow > int_max) {
    abort_input(sprintf("`%s` has %.0f rows; somgpu trains on at most 2^31 - 1.", name,
                        d$nrow), call)
  }
  structure(list(path = normalizePath(path), type = d$type,
                 total_rows = as.double(d$totalRows), row_off = as.double(d$rowOffset[1L]),
                 cols = as.double(d$colOffset[1L] + seq_len(d$ncol) - 1),
                 n = as.double(d$nrow), m = as.integer(d$ncol), center = NULL, scale = NULL,
                 colnames = d$colNames),
            class = "somgpu_file")
}

# Rows `idx` (increasing) of a somgpu_file as a double matrix with its column names, read
# with readBin from the backing file, a run of consecutive rows of a column at a time:
# ordinary reads through the page cache, which (unlike bigmemory's mapping of the file)
# leave this process's resident memory alone.
file_rows <- function(x, idx) {
  size <- if (x$type == "double") 8 else 4
  out <- matrix(NA_real_, length(idx), x$m, dimnames = list(NULL, x$colnames))
  runs <- cumsum(c(TRUE, diff(idx) != 1))
  first <- idx[!duplicated(runs)]
  len <- tabulate(runs)
  at <- c(0L, cumsum(len))
  con <- file(x$path, "rb")
  on.exit(close(con))
  for (j in seq_len(x$m)) {
    base <- x$cols[j] * x$total_rows + x$row_off - 1
    for (r in seq_along(first)) {
      seek(con, (base + first[r]) * size)
      v <- readBin(con, if (size == 8) "double" else "integer", n = len[r], size = size)
      out[at[r] + seq_len(len[r]), j] <- v
    }
  }
  out
}

#' @export
#' @noRd
dim.somgpu_file <- function(x) c(as.integer(x$n), x$m)

#' @export
#' @noRd
dimnames.somgpu_file <- function(x) list(NULL, x$colnames)

#' @export
#' @noRd
print.somgpu_file <- function(x, ...) {
  cat(sprintf("<somgpu_file: %.0f x %d %s, %s>\n", x$n, x$m, x$type, x$path))
  invisible(x)
}

# Per column, over the observed values, in one pass of the compiled code whatever holds the
# data (a matrix or a somgpu_file): count, mean (as colMeans(na.rm = TRUE)), and with
# `center` the sum of squared differences from it (as sum((x - center)^2)).
column_stats <- function(x, center = NULL, call = NULL) {
  call_core("read the data", call, function() {
    .Call(C_column_stats, x, if (!is.null(center)) as.double(center))
  })
}

# The column means over the observed values (NaN where a column has none).
column_means <- function(x, call = NULL) column_stats(x, call = call)$mean

# The columns `names` of a somgpu_file, in that order (all of them must be there).
file_columns <- function(x, names) {
  k <- match(names, x$colnames)
  x$cols <- x$cols[k]
  x$m <- length(k)
  x$colnames <- names
  x
}

# File-backed data: what training them allows (the batch rule; no initial PCA or alignment,
# which need the data in memory; no rows to leave out).
check_file_training <- function(algorithm, init, align, call) {
  if (algorithm != "batch") {
    abort_input(
      "File-backed data train with `algorithm = \"batch\"` (the online rule visits the rows in a random order).",
      call)
  }
  if (identical(init, "pca") || isTRUE(align)) {
    abort_input(sprintf(
      "`%s` needs the data in memory; with file-backed data use `init = \"uniform\"` or `\"sample\"` (and `align = FALSE`).",
      if (isTRUE(align)) "align = TRUE" else "init = \"pca\""), call)
  }
}

# File-backed data: no rows to leave out (the compiled code reads every row of the file).
check_file_rows <- function(rows, row_missing, m, call) {
  bad <- rows$dropped
  if (!length(bad)) return(invisible(NULL))
  # rows with nothing to go by (no value, or values only in columns of weight 0), which
  # na_max cannot let in, and rows over na_max, which it can
  blind <- row_missing[bad] == m | (if (is.null(rows$unseen)) FALSE else rows$unseen[bad])
  part <- function(which, what, fix) {
    if (!any(which)) return(NULL)
    sprintf("%d row%s %s (the first, row %d: %s)", sum(which), if (sum(which) == 1L) "" else "s",
            what, bad[which][1L], fix)
  }
  abort_input(sprintf(
    "The file-backed data have rows that cannot be trained on, and somgpu reads every row of the file: %s.",
    paste(c(part(blind, "with nothing to train on (no observed value, or values only in columns of weight 0)",
                 "remove such rows from the file"),
            part(!blind, sprintf("missing more than na_max = %g of their values", rows$na_max),
                 "remove them from the file, or raise `na_max`")), collapse = "; ")), call)
}
