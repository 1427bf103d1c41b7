# The sensitivity of select_size() choosing k to the constants its rules were tuned with
# (somgpu::selection_constants()), on one set of the field's suite, in the process that
# sources this file (bench_clustering_suite.R --sensitivity runs one per set). Every
# constant but the cost limits and those of noise = TRUE (not read choosing k) is moved to
# 0.75 and 1.33 times its value (whole numbers of 5 and more rounded; for a quantile or
# share between 0.5 and 1, its distance to 1), one at a time through
# select_size(control = select_control(...)), and select_size() is run as the suite runs it. The training does
# not depend on most constants: it is kept in memory and given again where the call is the
# same (the data, the problem: rows, sizes, schedule, seeds), so that a constant read by the
# rules alone costs the rules, not the maps; one that changes the training (the replicates'
# passes, the batch threshold, the fine ring, the columns' scaling) trains again. The same
# bits either way: the training is a function of the call.

# The variants: the constants as tuned, then each one moved.
sensitivity_variants <- function(tab) {
  keep <- tab$kind != "cost" & !grepl("^noise_", tab$name)
  out <- list(list(constant = "(as tuned)", factor = 1, value = NA_real_))
  for (i in which(keep)) {
    for (f in c(0.75, 1.33)) {
      v <- tab$value[i] * f
      if (tab$value[i] >= 5 && tab$value[i] == round(tab$value[i])) v <- round(v)
      # a count stays whole, as select_control() takes it (apart_pieces 4: 3 and 5)
      if (tab$domain[i] == "count") v <- round(v)
      # a quantile or share near 1 (0.9, 0.95, 0.99): its distance to 1 moved
      if (tab$value[i] > 0.5 && tab$value[i] < 1) v <- 1 - (1 - tab$value[i]) * f
      out[[length(out) + 1L]] <- list(constant = tab$name[i], factor = f, value = v)
    }
  }
  out
}

# Keep every training in memory, keyed by its data and problem (train_maps() and
# train_views(), the two doors to the compiled training).
memoise_training <- function() {
  ns <- asNamespace("somgpu")
  memo <- new.env(parent = emptyenv())
  key <- function(setups) digest::digest(lapply(setups, function(s) list(s$xt, s$problem)))
  once <- function(k, make) {
    if (is.null(memo[[k]])) memo[[k]] <- make()
    memo[[k]]
  }
  maps <- ns$train_maps
  views <- ns$train_views
  utils::assignInNamespace("train_maps", function(s) once(key(list(s)), function() maps(s)), ns)
  utils::assignInNamespace("train_views", function(setups, progress) {
    once(key(setups), function() views(setups, progress))
  }, ns)
  invisible(memo)
}

# One set (read_set()'s, with k_max): a data frame with a row per variant and seed: the
# constant moved, its factor and value, the seed, the k named, the ARI and the seconds.
# `seeds`: the constants as tuned are run with each; the variants with the first.
sensitivity_run <- function(d, seeds) {
  memoise_training()
  variants <- sensitivity_variants(somgpu::selection_constants())
  one <- function(v, seed) {
    control <- if (is.na(v$value)) NULL else do.call(somgpu::select_control, stats::setNames(list(v$value), v$constant))
    t0 <- proc.time()[["elapsed"]]
    sel <- somgpu::select_size(d$x, sizes = 2:d$k_max, seed = seed, threads = 2, progress = FALSE,
                               control = control)
    data.frame(constant = v$constant, factor = v$factor, value = v$value, seed = seed,
               k = sel$groups, ari = framework_ari(sel$partition, d$labels),
               seconds = proc.time()[["elapsed"]] - t0)
  }
  rows <- lapply(variants, one, seed = seeds[1])
  rows <- c(rows, lapply(seeds[-1], function(s) one(variants[[1]], s)))
  do.call(rbind, rows)
}
