# select_size()'s replicates: each trains the family on a bootstrap resample of the rows
# (in rounds, in one call or on future workers), and gives its clusters, held-out error and
# the groups by the full fit's rule, which the sizes' and the groups' stability are read from.

# The replicates run in rounds of replicate_round (one round when `bootstrap` is no more),
# the next only while more replicates could change a group's stability reading.
replicate_round <- 10L
replicate_rounds <- function(bootstrap) {
  split(seq_len(bootstrap), (seq_len(bootstrap) - 1L) %/% replicate_round)
}

# The replicates measure how stable each size's clusters and each group are; the answer
# comes from `fit`. So they train one map per size (not `restarts`) on a shorter schedule
# than the fit's, with its algorithm and backend: "replicate_passes" passes (R/base_tuning.R),
# or the fit's when fewer.
replicate_args <- function(args, fit, parallel) {
  params <- fit$params
  # in this process, the fit's backend and device, resolved once ("auto" weighs the fit's
  # work); future workers resolve their own
  be <- if (parallel == "none") {
    list(backend = fit$backend$name, device = if (fit$backend$name == "opencl") fit$backend$index)
  }
  utils::modifyList(args, c(list(restarts = 1L, algorithm = params$algorithm,
                                 iter_max = min(params$iter_max, tuned("replicate_passes") + 1L)), be))
}

# Every replicate (see replicate_fit()), one after the other with a progress bar, or on the
# future workers side by side: list(results, reruns), the replicates run again after
# their worker was lost (NULL in this process).
run_replicates <- function(work, x, args, parallel, progress, call) {
  if (parallel == "none") { # every replicate's maps in one call (train_replicates())
    one_call <- option_value("somgpu.replicates_one_call", TRUE,
                             function(v, name) check_flag(v, name, call))
    out <- train_replicates(x, lapply(work, `[[`, "train"),
                            vapply(work, `[[`, numeric(1), "seed"), args,
                            function(b, fit) replicate_fit(work[[b]], x, args, fit),
                            one_call, progress)
    return(list(results = out, reruns = NULL))
  }
  p <- if (progress && requireNamespace("progressr", quietly = TRUE)) {
    progressr::progressor(steps = length(work))
  }
  threads <- args$threads
  args$threads <- NULL
  keep_user_plan()
  plan <- plan_name()
  ran <- on_workers(work, "replicate_worker", x = x, args = args, threads = threads,
                    progress = p, globals = as.numeric(utils::object.size(x)),
                    label = "somgpu-select-%d",
                    what = function(k) sprintf("training replicate %d", k),
                    lost = function(e, k) {
                      abort(sprintf("somgpu: the future worker (plan %s) of replicate %d failed %s: %s",
                                    plan, k, retried_text(), conditionMessage(e)),
                            "somgpu_worker_error", call, parent = e, worker = k)
                    })
  res <- ran$results
  failed <- failed_workers(res)
  if (length(failed)) {
    k <- failed[1L]
    abort(sprintf("somgpu: a future worker (%s, pid %d) could not train replicate %d: %s",
                  res[[k]]$host, res[[k]]$pid, k, conditionMessage(res[[k]]$error)),
          "somgpu_worker_error", call, parent = res[[k]]$error, worker = k)
  }
  names(ran$reruns)[names(ran$reruns) == "piece"] <- "replicate"
  ran
}

# One replicate on a future worker, on its own threads (the cores future grants it).
replicate_worker <- function(work, x, args, threads, progress) {
  on_worker(function() {
    args$threads <- worker_threads(threads)
    out <- replicate_fit(work, x, args)
    if (is.function(progress)) progress()
    out
  })
}

# One replicate: train on its rows (work$train; `fit`, when given, is that training), then
# every row of x to its nearest neuron per size: the clusters and the held-out error; and
# the groups of the answer (work$same: their covariance model and number,
# replicate_spec()) found on the replicate's largest map from its own rows
# (replicate_groups()). With work$keep_fit (the first round, before the rules have
# chosen), the fit too, to find other groups on its map afterwards.
replicate_fit <- function(work, x, args, fit = NULL) {
  if (is.null(fit)) {
    fit <- do.call(train, c(list(x[work$train, , drop = FALSE], seed = work$seed), args))
  }
  kept <- fit$quality[fit$quality$best, , drop = FALSE]
  sizes <- fit$params$sizes
  d <- predict_rows(fit, newdata_matrix(x, fit, NULL), sizes,
                    resolve_threads(args$threads, NULL), TRUE, NULL)
  out <- work$out
  held <- if (length(out)) {
    vapply(d$distance, function(v) mean(v[out], na.rm = TRUE), numeric(1))
  } else {
    rep(NA_real_, length(sizes))
  }
  clusters <- d$clusters
  list(qe = kept$qe, heldout = held, te = kept$te, explained = kept$explained_var,
       clusters = clusters, groups = replicate_groups(fit, work, x, clusters, work$same),
       fit = if (isTRUE(work$keep_fit)) fit)
}

# The Gaussian groups of `spec` (replicate_spec(): model and number; NULL: none) on a
# replicate's largest map (its fit, its rows work$train of x, every row's winners in
# `clusters`), found from its own rows: every row of x its group.
replicate_groups <- function(fit, work, x, clusters, spec) {
  if (is.null(spec)) return(NULL)
  top <- clusters[[which.max(fit$params$sizes)]]
  g <- fit_grouping(fit, x[work$train, , drop = FALSE], top[work$train], spec$model, spec$G)
  if (!is.null(g)) predict_groups(g, fit, x, top)
}

# The replicates reps (their rows work, of x), their fits let go, and with `again` their
# groups found again for `spec` on the maps they kept (work$keep_fit): the rules chose
# Gaussian groups other than those the first round looked for.
regroup_replicates <- function(reps, work, x, spec, again) {
  lapply(seq_along(reps), function(b) {
    r <- reps[[b]]
    if (again && !is.null(r$fit)) r$groups <- replicate_groups(r$fit, work[[b]], x, r$clusters, spec)
    r["fit"] <- list(NULL)
    r
  })
}
