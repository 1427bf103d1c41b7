# A set of replicates trained as one family: the fits of train(x[rows[[b]], ], seed =
# seeds[b], ...) for every b, bit for bit, with every replicate's maps (sizes x restarts)
# trained in one call of the compiled code (som_problem's views: each map with its
# replicate's rows and seed), the shape a GPU needs (20 replicates x 19 sizes x 4 restarts:
# 1520 maps in one launch). OpenCL's online engine trains the views side by side; the driver
# gives the other engines one view at a time (see som_engine.views in
# src/core/som_engine.h).

# train() on each replicate's rows with its seed and the arguments `args` (a named list of
# train()'s, without y and seed), each fit given to each(b, fit) as it is made: the list of
# what each() returns. one_call = FALSE, or replicates that cannot share a call (see
# views_joinable()), train one call each. progress: a cli bar over the replicates, and with
# one call the training's own bar first.
train_replicates <- function(x, rows, seeds, args, each, one_call = TRUE, progress = FALSE) {
  setups <- lapply(seq_along(rows), function(b) {
    train_setup_of(c(list(y = x[rows[[b]], , drop = FALSE], seed = seeds[[b]]), args))
  })
  started <- proc.time()[["elapsed"]]
  trained <- if (one_call && views_joinable(setups)) train_views(setups, progress)
  share <- (proc.time()[["elapsed"]] - started) / length(setups) # each fit's part of the call
  if (progress) cli::cli_progress_bar("select_size: bootstrap replicates", total = length(rows))
  out <- vector("list", length(setups))
  for (b in seq_along(setups)) {
    s <- setups[[b]]
    begun <- proc.time()[["elapsed"]] - share
    tr <- if (is.null(trained)) train_maps(s) else trained[[b]]
    out[[b]] <- each(b, train_result(s, tr, begun))
    setups[b] <- list(NULL) # each replicate's data let go once used
    if (!is.null(trained)) trained[b] <- list(NULL)
    if (progress) cli::cli_progress_update()
  }
  out
}

# train_setup() for a named list of train()'s arguments (y and seed among them), those left
# out taking train()'s defaults (train_defaults()), as train() with those arguments sets up.
train_setup_of <- function(args) {
  all <- train_defaults()
  all[names(args)] <- args
  train_setup(all, names(args), quote(train()))
}

# Replicates may share a call: trained in this process from memory, on one backend, with the
# same problem but for the seed and the initial weights (the same sizes, schedule, rows,
# distance and fill), and the same shape of data.
views_joinable <- function(setups) {
  s1 <- setups[[1L]]
  plain <- function(p) {
    p$seed <- NULL
    p$init_w <- NULL
    p
  }
  all(vapply(setups, function(s) {
    s$parallel == "none" && !s$sourced && is.null(s$clusters_file) &&
      identical(dim(s$xt), dim(s1$xt)) && identical(plain(s$problem), plain(s1$problem)) &&
      identical(s$be, s1$be) && identical(s$spec, s1$spec)
  }, logical(1)))
}

# Every replicate's maps trained in one call: the problem's maps repeated per replicate, each
# with its replicate's view (0-based) and initial weights, a seed per view; what
# train_maps() gives for each replicate.
train_views <- function(setups, progress) {
  s1 <- setups[[1L]]
  nv <- length(setups)
  p <- s1$problem
  k <- length(p$size)
  p$size <- rep(p$size, nv)
  p$restart <- rep(p$restart, nv)
  p$sigma0 <- rep(p$sigma0, nv)
  if (!is.null(p$init_w)) p$init_w <- do.call(c, lapply(setups, function(s) s$problem$init_w))
  p$view <- rep(seq_len(nv) - 1L, each = k)
  p$seeds <- vapply(setups, function(s) s$problem$seed, numeric(1))
  dims <- s1$dims
  dims$nmaps <- dims$nmaps * nv
  dims$size_sum <- dims$size_sum * nv
  dims$views <- nv
  check_memory(dims, s1$spec, s1$call)
  out <- train_on_backend(lapply(setups, `[[`, "xt"), p, s1$be, s1$spec,
                          progress || s1$progress, s1$call)
  record <- backend_record(s1$be, s1$threads, out$kernels)
  lapply(seq_len(nv), function(b) {
    maps <- (b - 1L) * k + seq_len(k)
    list(weights = out$weights[maps], trace = if (!is.null(out$trace)) out$trace[, maps, drop = FALSE],
         record = record)
  })
}
