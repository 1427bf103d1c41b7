# Helpers of the tests that run R in a new process or on file-backed data.

# A file-backed matrix of x in a folder under tempdir().
file_matrix <- function(x, dir) {
  bigmemory::as.big.matrix(x, type = "double", backingfile = "y.bin", backingpath = dir,
                           descriptorfile = "y.desc")
}

# Run R code in a new process with this build (attached first, unless `attach` is FALSE):
# list(status, stdout, stderr).
run_child <- function(code, attach = TRUE) {
  script <- tempfile(fileext = ".R")
  writeLines(c(sprintf(".libPaths(c(%s, .libPaths()))", deparse(dirname(find.package("somgpu")))),
               sprintf("Sys.setenv(POCL_CACHE_DIR = %s)", deparse(file.path(tempdir(), "pocl"))),
               if (attach) "suppressMessages(library(somgpu))", code), script)
  out <- tempfile()
  err <- tempfile()
  status <- system2(file.path(R.home("bin"), "Rscript"), script, stdout = out, stderr = err)
  list(status = status, stdout = paste(readLines(out), collapse = "\n"),
       stderr = paste(readLines(err), collapse = "\n"))
}
