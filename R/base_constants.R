# What the compiled code says about itself (what was built, its constants) and the limits
# every layer shares: asked of C once, never written again in R.

build_info <- function() .Call(C_build_info)

# The compiled code's constants: status codes, default block sizes, kernel kinds.
constants <- function() .Call(C_constants)

int_max <- .Machine$integer.max
