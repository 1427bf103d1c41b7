# The documentation site (pkgdown): home (README.md), the reference grouped by task
# (_pkgdown.yml), the articles (vignettes/) and NEWS. Usage, from the repository root:
#
#   Rscript tools/site.R [DIR]    build it into DIR (default docs/); open DIR/index.html
#   Rscript tools/site.R --installed [DIR]
#                                 the same from the somgpu R finds (R_LIBS), not installing
#                                 this checkout (the tests: their build is installed already)
#
# pkgdown installs somgpu into a temporary library, runs the examples and renders the
# articles. The run then checks what it built: every warning of the build is printed, and
# every internal link and image (href and src of each page that point into the site) must
# name a file of the site, and no page may load a script or style sheet from the network
# (the site reads offline). Status 1 when a warning was given or a link is broken; the
# last line says which. tools/run-tests.R (the target site) runs this and loads pages in Chromium.
args <- commandArgs(trailingOnly = TRUE)
installed <- "--installed" %in% args
args <- setdiff(args, "--installed")
if (!file.exists("_pkgdown.yml") || length(args) > 1L) {
  cat("usage, from the repository root: Rscript tools/site.R [--installed] [DIR]\n")
  quit(status = 2)
}
for (p in c("pkgdown", "xml2")) {
  if (!requireNamespace(p, quietly = TRUE)) {
    cat(sprintf("site: the R package %s is needed (Debian: apt-get install r-cran-%s)\n", p, p))
    quit(status = 1)
  }
}
dest <- normalizePath(if (length(args)) args[1] else "docs", mustWork = FALSE)
# the site is built offline: pkgdown's lookup of the package on CRAN and Bioconductor (for
# a sidebar link) is skipped, so the build does not depend on the network
options(somgpu.threads = 2, pkgdown.internet = FALSE)
Sys.setenv(POCL_CACHE_DIR = file.path(tempdir(), "pocl"))

warned <- character(0)
started <- proc.time()[["elapsed"]]
withCallingHandlers(
  pkgdown::build_site(".", override = list(destination = dest), preview = FALSE,
                      new_process = FALSE, install = !installed),
  warning = function(w) {
    warned <<- c(warned, conditionMessage(w))
    invokeRestart("muffleWarning")
  })
seconds <- proc.time()[["elapsed"]] - started

# The links of a page that point into the site: relative, or absolute to a file; the
# fragment and query dropped. Each must name a file (a folder: its index.html).
broken_links <- function(page) {
  doc <- xml2::read_html(page)
  refs <- c(xml2::xml_attr(xml2::xml_find_all(doc, "//a[@href]"), "href"),
            xml2::xml_attr(xml2::xml_find_all(doc, "//img[@src] | //script[@src]"), "src"),
            xml2::xml_attr(xml2::xml_find_all(doc, "//link[@href]"), "href"))
  refs <- unique(sub("[?#].*$", "", refs))
  refs <- refs[nzchar(refs) & !grepl("^[a-zA-Z][a-zA-Z0-9+.-]*:|^//", refs)]
  target <- file.path(dirname(page), utils::URLdecode(refs))
  target <- ifelse(dir.exists(target), file.path(target, "index.html"), target)
  loads <- c(xml2::xml_attr(xml2::xml_find_all(doc, "//script[@src]"), "src"),
             xml2::xml_attr(xml2::xml_find_all(doc, "//link[@rel='stylesheet']"), "href"))
  remote <- grep("^[a-z]+:|^//", loads, value = TRUE)
  c(refs[!file.exists(target)], if (length(remote)) paste("loads", remote))
}
pages <- list.files(dest, "[.]html$", recursive = TRUE, full.names = TRUE)
broken <- unlist(lapply(pages, function(p) {
  b <- broken_links(p)
  if (length(b)) paste0(sub(paste0(dest, "/"), "", p, fixed = TRUE), ": ", b)
}))

if (length(warned)) cat("site: warning:", unique(warned), sep = "\n  ")
if (length(broken)) cat("site: broken link:", broken, sep = "\n  ")
cat(sprintf("site: %d pages in %s (%.0f s), %d warnings, %d broken internal links\n",
            length(pages), dest, seconds, length(warned), length(broken)))
quit(status = as.integer(length(warned) > 0 || length(broken) > 0))
