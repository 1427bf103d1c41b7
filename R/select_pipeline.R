# select_size()'s steps after its checks, each one function, in the order it calls them:
# the rows the rules see (select_rows()), the rules and the replicates in rounds
# (select_groups()), and every row's group with the groups' table (select_partition()).
# select_size() (R/select.R) reads top down: checks, these steps, the report.

# The rows the maps and the rules see, from the encoded data (`data`: x, encoding; `file`:
# whether y is file-backed): at scale a sample of them (R/select_scale.R), trained in batch
# unless the call says otherwise; columns in different units standardized
# (R/select_units.R); wide data on its leading principal components (R/select_reduce.R).
# list(x, the rows; sample, their indices among all rows or NULL; scaling,
# select_scaling()'s; reduction, or NULL; dots, train()'s further arguments as the maps
# take them).
select_rows <- function(data, file, sample_rows, scale, components, seed, dots, call) {
  n_all <- nrow(data$x)
  sample <- select_sample(n_all, sample_rows, seed, call)
  x <- if (!is.null(sample)) rows_at(data$x, sample) else
    if (file) rows_at(data$x, seq_len(n_all)) else data$x
  # from "batch_rows" rows, batch training: a pass costs the rows once, not once per
  # neuron update, and at these sizes its groups are as good (R/base_tuning.R)
  if ((!is.null(sample) || nrow(x) >= tuned("batch_rows")) && is.null(dots$algorithm)) dots$algorithm <- "batch"
  scaling <- select_scaling(scale, x, data$encoding, call,
                            wide_auto(components, ncol(x), data$encoding))
  dots$scale <- scaling$scale
  na_max <- if (is.null(dots$na_max)) eval(formals(train)$na_max) else dots$na_max
  reduced <- select_reduction(components, x, data$encoding, scaling, dots$var_weights,
                              na_max, seed, call)
  if (!is.null(reduced$reduction)) {
    x <- reduced$rows
    dots$scale <- FALSE # the components keep their variances
    dots$var_weights <- NULL # (weighed in the reduction)
  }
  list(x = x, sample = sample, scaling = scaling, reduction = reduced$reduction, dots = dots)
}

# The rules (R/rule_table.R) and the replicates on the rows x, beside the fit `full` on
# them: told the number of groups, the rules run first (the replicates then look for those
# groups); else after the first round of replicates, which the rules ask how steady the
# Gaussian groups are. Replicates run in rounds until the groups' stability readings
# settle (readings_settled()); then the step noise. `settings`, the rules' (new_rule_inputs());
# n_out, the rows each replicate holds out. list(decided, run_rules()'s with the step
# noise's decision; table, the groups' stability (NULL without groups); reps, the replicates
# run; reruns, those run again after their worker was lost, or NULL).
select_groups <- function(x, full, settings, bootstrap, n_out, parallel, progress, call) {
  seed <- settings$seed
  top <- full$clusters[[paste0("N", settings$k_max)]]
  gaussian <- if (is.null(settings$told)) fit_grouping(full, x, top)
  inputs_of <- function(reps, work) new_rule_inputs(x, full, top, gaussian, reps, work, settings)
  decided <- if (!is.null(settings$told)) run_rules(inputs_of(NULL, NULL))
  same <- if (is.null(decided)) replicate_spec(gaussian) else replicate_spec(decided$grouping)
  # the replicates' rows, from the seed, leaving the session's generator alone; held out and
  # drawn among the rows the fit trained on (those left out for missing values would be
  # left out again), so that every replicate trains on as many rows and they share one call
  n <- nrow(x)
  usable <- setdiff(seq_len(n), full$dropped)
  if (length(usable) - n_out < 2L) {
    abort_input(sprintf("`holdout` leaves fewer than 2 rows with enough values to train on (%d of the %d rows have them).",
                        length(usable), n), call)
  }
  work <- with_private_seed(seed, lapply(seq_len(bootstrap), function(b) {
    out <- if (n_out > 0L) sort(usable[sample.int(length(usable), n_out)]) else integer(0)
    inside <- setdiff(usable, out)
    list(b = b, train = inside[sample.int(length(inside), length(inside), replace = TRUE)],
         out = out, seed = derived_seed(seed, b), same = same, keep_fit = is.null(decided))
  }))
  rargs <- replicate_args(settings$args, full, parallel)
  reps <- list()
  reruns <- NULL
  for (k in replicate_rounds(bootstrap)) {
    ran <- run_replicates(work[k], x, rargs, parallel, progress, call)
    reps <- c(reps, ran$results)
    if (!is.null(ran$reruns)) { # (future workers) numbered among all the replicates
      ran$reruns$replicate <- k[ran$reruns$replicate]
      reruns <- rbind(reruns, ran$reruns)
    }
    done <- seq_along(reps)
    if (is.null(decided)) {
      decided <- run_rules(inputs_of(reps, work[done]))
      # the replicates look for the answer's Gaussian groups on their own maps (none for
      # groups that are no mixture): the first round's found again where they differ
      spec <- replicate_spec(decided$grouping)
      reps <- regroup_replicates(reps, work[done], x, spec, !identical(spec, same))
      work <- lapply(work, function(w) { w$same <- spec; w$keep_fit <- FALSE; w })
    }
    grouping <- decided$grouping
    table <- if (!is.null(grouping)) grouping_stability(grouping, reps, work[done])
    if (readings_settled(table)) break
  }
  if (!is.null(table)) attr(table, "jaccard") <- NULL
  # rows that belong to no group (with noise = TRUE): NA in the partition, out of the table
  decided <- run_noise(inputs_of(reps, work[done]), decided)
  list(decided = decided, table = table, reps = reps, reruns = reruns)
}

# Every row's group and the groups' table with each group's rows, for the grouping found
# on the rows the rules saw (`table`, its stability per group): the grouping's own
# partition, or, where the rules ran on a sample (`sample`) or the groups go to a file
# (`groups_file`), every row of `x` (all rows, data$x) given its group, a block at a time.
# list(partition, NULL where written to the file; table, its rows those counted (rows in
# no group left out); noise, the rows in no group, NULL unless the step noise ran).
select_partition <- function(grouping, table, full, x, sample, groups_file, threads,
                             reduction, call) {
  if (is.null(grouping)) return(list(partition = NULL, table = table, noise = NULL))
  noise <- if (!is.null(grouping$noise)) grouping$noise$rows
  if (is.null(sample) && is.null(groups_file)) {
    if (!is.null(noise)) table$rows <- tabulate(grouping$partition, grouping$groups)
    return(list(partition = grouping$partition, table = table, noise = noise))
  }
  n_all <- nrow(x)
  to <- clusters_file_matrix(groups_file, n_all, "group", call, "groups_file")
  every <- with_clusters_file(to, groups_of_rows(grouping, full, x, n_all, threads, to, reduction))
  table$rows <- every$rows
  list(partition = every$partition, table = table, noise = every$noise)
}
