# What every bench script reads first, before helpers.R loads somgpu: its arguments
# (`args`), its folder (`here`), `opt(name, default)` (the last --name=value given), and
# `lib` (--lib=PATH or NULL) put first on the library path, so that a build under test is
# the one loaded (scripts that start fresh R processes hand `lib` on to them).
args <- commandArgs(trailingOnly = TRUE)
script <- sub("^--file=", "", grep("^--file=", commandArgs(), value = TRUE))
here <- normalizePath(if (length(script)) dirname(script) else "bench")
opt <- function(name, default = NULL) {
  v <- sub(paste0("^--", name, "="), "", grep(paste0("^--", name, "="), args, value = TRUE))
  if (length(v)) v[length(v)] else default
}
lib <- opt("lib")
if (!is.null(lib)) .libPaths(c(lib, .libPaths()))
