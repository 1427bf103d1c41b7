#' Print a family of trained ring SOMs
#'
#' One line per size: quantization error (`qe`), topographic error (`te`) and cluster sizes
#' of the kept restart, after a header with the data, schedule, backend and time.
#'
#' @param x A `somgpu` object from [train()].
#' @param ... Ignored.
#' @return `x`, invisibly.
#' @examples
#' fit <- train(matrix(runif(300), ncol = 3), nmax = 4, iter_max = 20, seed = 1, threads = 1)
#' print(fit)
#' @export
print.somgpu <- function(x, ...) {
  p <- x$params
  sizes <- p$sizes
  span <- if (length(sizes) > 1L && identical(sizes, seq.int(min(sizes), max(sizes)))) {
    sprintf("N = %d..%d", min(sizes), max(sizes))
  } else {
    sprintf("N = %s", paste(sizes, collapse = ", "))
  }
  cat(sprintf("<somgpu> %d ring SOM%s (%s) on %d x %d data, %d restart%s each\n",
              length(sizes), if (length(sizes) == 1L) "" else "s", span, p$n, p$m,
              p$restarts, if (p$restarts == 1L) "" else "s"))
  notes <- c(
    if (length(x$dropped)) {
      sprintf("%d row%s left out (more than %g%% of %s values missing)", length(x$dropped),
              if (length(x$dropped) == 1L) "" else "s", 100 * p$na_max,
              if (length(x$dropped) == 1L) "its" else "their")
    },
    encoding_note(x$encoding, x$scaling),
    if (!is.null(x$scaling) && is.null(x$encoding)) "columns centred and scaled",
    if (!is.null(x$var_weights)) "variable weights")
  if (length(notes)) cat("data: ", paste(notes, collapse = "; "), "\n", sep = "")
  if (!is.null(p$clusters_file)) {
    cat(sprintf("clusters: in a file-backed big.matrix, %s (descriptor %s.desc)\n",
                p$clusters_file, basename(p$clusters_file)))
  }
  cat(sprintf("backend %s: %s, %s precision; %s, %d passes, init \"%s\", seed %d, %s\n",
              x$backend$name, x$backend$device, x$backend$precision,
              if (is.null(p$algorithm)) "online" else p$algorithm, p$iter_max - 1L, p$init,
              x$seed, format_seconds(x$elapsed)))
  kept <- x$quality[x$quality$best, , drop = FALSE]
  # clusters in a file that cannot be attached any more: the table without them, and why
  gone <- NULL
  cl <- tryCatch(fit_clusters(x), somgpu_file_error = function(e) {
    gone <<- conditionMessage(e)
    NULL
  })
  counts <- vapply(seq_along(sizes), function(i) {
    if (!is.null(gone)) return("(clusters file not attached)")
    tab <- tabulate(size_clusters(x, i, cl = cl), nbins = sizes[i])
    txt <- paste(tab, collapse = " ")
    if (nchar(txt) > 48L) txt <- paste0(substr(txt, 1L, 45L), "...")
    txt
  }, character(1))
  cat(sprintf("\n%5s %7s %7s  %s\n", "size", "qe", "te", "cluster sizes"))
  cat(sprintf("%5d %7s %7.4f  %s\n", kept$size, format_figure(kept$qe), kept$te, counts), sep = "")
  if (!is.null(gone)) cat("", strwrap(gone, width = getOption("width")), sep = "\n")
  invisible(x)
}

# A figure with 4 decimals when that reads well, else 4 significant digits (1.234e+150).
format_figure <- function(x) {
  plain <- is.na(x) | x == 0 | (abs(x) >= 1e-3 & abs(x) < 1e5)
  ifelse(is.na(x), "NA", ifelse(plain, sprintf("%.4f", x), sprintf("%.4g", x)))
}

format_seconds <- function(s) {
  if (s < 1) sprintf("%.0f ms", s * 1000) else sprintf("%.2f s", s)
}

