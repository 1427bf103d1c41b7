# R CMD build, then R CMD check --as-cran on the tarball twice: as configure builds it here
# (with OpenCL where it is found) and CPU-only (SOMGPU_NO_OPENCL=1), without the tests
# (--no-tests: tools/run-tests.R runs them on both builds just before). A check passes with no
# ERROR, no WARNING and only the NOTEs explained in cran-comments.md (listed below). The PDF
# manual is built with LaTeX's Times and Courier fonts (R_RD4PDF): R's default Inconsolata
# comes only with Debian's 1.4 GB texlive-fonts-extra. Without pdflatex the manual is
# skipped (--no-manual) and the run says so. Sourced by tools/run-tests.R.

# The headings of the NOTEs cran-comments.md explains.
explained_notes <- c(
  "checking for future file timestamps" # no network to ask for the time
)

# Every "* checking ... NOTE|WARNING|ERROR" heading of a check log.
check_findings <- function(log) {
  i <- grep("^\\* .*\\.\\.\\. *(\\[[^]]*\\] *)?(NOTE|WARNING|ERROR)$", log)
  data.frame(heading = sub(" \\.\\.\\..*$", "", sub("^\\* ", "", log[i])),
             level = sub("^.* ", "", log[i]), stringsAsFactors = FALSE)
}

run_check <- function() {
  dir <- tempfile("check-")
  dir.create(dir)
  r <- file.path(R.home("bin"), "R")
  pkg <- normalizePath(".")
  old <- setwd(dir)
  on.exit(setwd(old))
  Sys.setenv(SOMGPU_NO_OPENCL = "", R_RD4PDF = "times,hyper")
  manual <- nzchar(Sys.which("pdflatex"))
  if (!manual) cat("no pdflatex (Debian: texlive-latex-base): the PDF manual is not checked\n")
  out <- system2(r, c("CMD", "build", shQuote(pkg)), stdout = TRUE, stderr = TRUE)
  tarball <- list.files(dir, "^somgpu_.*\\.tar\\.gz$")
  if (!length(tarball)) {
    cat(out, sep = "\n")
    return(c(passed = 0, failed = 1, skipped = 0))
  }
  counts <- c(passed = 0, failed = 0, skipped = 0)
  for (build in c("default", "cpu-only")) {
    sub_dir <- file.path(dir, build)
    dir.create(sub_dir)
    Sys.setenv(SOMGPU_NO_OPENCL = if (build == "cpu-only") "1" else "")
    started <- proc.time()[["elapsed"]]
    system2(r, c("CMD", "check", "--as-cran", "--no-tests", if (!manual) "--no-manual",
                 "-o", shQuote(sub_dir), shQuote(file.path(dir, tarball))),
            stdout = FALSE, stderr = FALSE)
    log_file <- file.path(sub_dir, "somgpu.Rcheck", "00check.log")
    log <- if (file.exists(log_file)) readLines(log_file, warn = FALSE) else character(0)
    found <- check_findings(log)
    unexplained <- found[!(found$level == "NOTE" & found$heading %in% explained_notes), ]
    status <- grep("^Status: ", log, value = TRUE)
    # the Status line too: a failing test or vignette run puts its ERROR on a line of its own
    ok <- length(status) == 1L && !grepl("ERROR|WARNING", status) && nrow(unexplained) == 0L
    cat(sprintf("%s build: %s (%.0f s)%s\n", build,
                if (length(status)) sub("^Status: ", "", status) else "no check log",
                proc.time()[["elapsed"]] - started,
                if (nrow(found)) paste0("; ", paste(found$level, found$heading,
                                                   sep = ": ", collapse = "; ")) else ""))
    if (!ok) {
      for (h in unexplained$heading) {
        i <- grep(h, log, fixed = TRUE)[1]
        cat(log[i:min(length(log), i + 15L)], sep = "\n")
      }
      if (!length(status)) cat(utils::tail(log, 30), sep = "\n")
    }
    counts <- counts + c(as.numeric(ok), as.numeric(!ok), 0)
  }
  Sys.setenv(SOMGPU_NO_OPENCL = "")
  counts
}
