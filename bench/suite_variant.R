# A chooser for bench/bench_clustering_suite.R's --method option: select_size() of a variant
# of somgpu installed in the library named by the environment variable SOMGPU_VARIANT_LIB,
# called as the suite calls the installed one (choosers$select_size in
# bench/clustering_suite.R), so that the two compare on the same sets in the same run:
#
#   R CMD INSTALL --library=/tmp/lib-variant /path/to/variant
#   SOMGPU_VARIANT_LIB=/tmp/lib-variant Rscript bench/bench_clustering_suite.R \
#     --lib=/tmp/lib-d --method=variant=bench/suite_variant.R
suite_setup <- function() {
  lib <- Sys.getenv("SOMGPU_VARIANT_LIB")
  if (!nzchar(lib)) stop("set SOMGPU_VARIANT_LIB to the library of the variant of somgpu")
  suppressPackageStartupMessages(library(somgpu, lib.loc = lib))
}
suite_method <- choosers$select_size$run
