#' somgpu: families of ring self-organizing maps
#'
#' Train one-dimensional ring self-organizing maps of many sizes at once with [train()];
#' see [backends()] for what this build can run on.
#'
#' @keywords internal
#' @useDynLib somgpu, .registration = TRUE, .fixes = ""
#' @importFrom cli cli_progress_bar
"_PACKAGE"
