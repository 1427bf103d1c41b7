# A train setup: what train_setup() (R/train.R) makes of a train() call and every later
# step reads (train_maps(), train_result(), train_replicates() and train_views()), a fixed
# set of fields (train_setup_fields). Built only by new_train_setup(); a field read that is
# not in the set is an internal error, never a silent NULL.

# The fields, by what they hold:
#   call              the call, for messages (compact_call())
#   the data
#     x               the data as checked: a double matrix, or a file (somgpu_file)
#     xt              the rows the maps train on: x's rows used, scaled (prepared_matrix())
#     rows            data_rows(): keep and dropped rows, missing, used, dist (the distance
#                     C reads: distance_spec())
#     scaling         NULL or list(center, scale); var_weights: NULL or the weights
#     sourced         x is file-backed; na_max: the share of missing values a row may have
#     basis           the principal components (pca_basis()) for init "pca" or align; NULL
#     encoding        NULL, or a data frame's categorical columns as indicators (data_encode.R)
#   the maps
#     problem         what C_train reads (new_problem()); dims: its family for memory
#                     plans (family_dims())
#     sizes, restarts, iter_max, eta0, algorithm, seed, align: as checked
#     sigma0          as checked ("auto" or numbers); sigma_sizes: the width per size
#     init            check_init(): list(type, weights)
#   where they train
#     parallel        "none" or "future"; backend_args: check_backend_args()
#     be, spec        the resolved backend and its settings for C (NULL with future workers)
#     threads         this process's; worker_threads: as given, for future workers
#     options         backend_options(), shipped to future workers
#   what the caller sees
#     progress, progress_supplied (whether the call wrote it), keep_data, clusters_file
train_setup_fields <- c(
  "call", "x", "xt", "rows", "scaling", "var_weights", "sourced", "basis", "na_max", "encoding",
  "problem", "dims", "sizes", "restarts", "sigma0", "sigma_sizes", "iter_max", "eta0",
  "init", "algorithm", "seed", "align", "parallel", "backend_args", "be", "spec", "threads",
  "worker_threads", "options", "progress", "progress_supplied", "keep_data", "clusters_file")

# A train setup from its fields, a named list with exactly train_setup_fields in their order.
new_train_setup <- function(fields) {
  check_internal(identical(names(fields), train_setup_fields) && is.list(fields$rows) &&
                   is.list(fields$problem) && is.list(fields$init) &&
                   fields$parallel %in% c("none", "future") &&
                   (fields$parallel == "future" || !is.null(fields$be)),
                 "new_train_setup() was given fields that are not a train setup's")
  structure(fields, class = "somgpu_train_setup")
}

# A setup's field by name; one outside the set is a broken promise between somgpu's own
# functions (a renamed field read under its old name), not NULL.
#' @export
`$.somgpu_train_setup` <- function(x, name) {
  check_internal(name %in% names(x), sprintf("a train setup has no field `%s`", name))
  .subset2(x, name)
}

# What the compiled code trains: the maps in size-major order, (size 1, restart 0..R-1),
# (size 2, ...), ..., with their initial weights and the schedule (sigma0: per size; the
# `problem` list of C_train, read by name, with sigma0 per map).
new_problem <- function(sizes, restarts, iter_max, sigma0, eta0, init, seed, algorithm,
                        batch_block, trace, dist, fill = NULL) {
  given <- init$type %in% c("user", "pca", "fit")
  c(list(size = rep(sizes, each = restarts),
         restart = rep(seq_len(restarts) - 1L, times = length(sizes)),
         iter_max = iter_max, sigma0 = rep(as.double(sigma0), each = restarts), eta0 = eta0,
         init = if (given) "given" else init$type,
         init_w = if (given) rep(init$weights, each = restarts), fill = fill,
         seed = as.double(seed), algorithm = algorithm, batch_block = batch_block,
         trace = trace),
    dist)
}

