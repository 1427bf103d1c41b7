#' Choose the ring size: how many groups the data hold, and which rows are in each
#'
#' Trains the family of ring sizes on all rows and on `bootstrap` replicates of them,
#' finds the groups the data hold, gives every row its group, and recommends the size
#' whose ring has one neuron per group; with it, per size the held-out error and the
#' stability of the clusterings from one replicate to the next, and each group's bootstrap
#' stability. How the groups were found is kept, rule by rule, in `decisions`.
#'
#' @section How the groups are chosen: A chain of rules, tried in this order; each may
#'   replace the groups found so far, and `decisions` records what each one measured and
#'   why it took its groups or not.
#'   \describe{
#'   \item{`told`}{With `groups = k`: exactly k groups. Two candidates, the Gaussian groups
#'     below cut into k, and the rows joined by Genie's linkage (Gagolewski, Bartoszuk and
#'     Cena 2016) on their minimum spanning tree, cut into k; the rows' groups are taken
#'     when every cut they make is a gap (the narrowest edge between two groups longer than
#'     the tree's usual links), else the Gaussian ones. The other rules are not tried.}
#'   \item{`gaussian`}{The largest ring orders the data finely; its neurons' cells (the
#'     rows each neuron wins) are joined greedily, for six covariance models (mclust's
#'     `"VVV"`, `"EEE"`, `"VVI"`, `"EEI"`, `"VII"`, `"EII"`), and every partition on the
#'     way whose groups hold at least 1% of the rows (and 5) is scored by the BIC of its
#'     classification likelihood; the best gives the number of groups K and their model.
#'     This criterion penalises groups that overlap, as the ICL does: one group, "no group
#'     structure", is a possible answer. Then the best partition of each count up to K is
#'     fitted by EM over the rows, and the count whose mixture has the highest BIC (mclust's
#'     criterion) is kept: a class of wide spread that the classification cut into pieces is
#'     one group again (`grouping$detail$merged` has both criteria per count). A data
#'     frame's categorical columns add a latent-class term per group.}
#'   \item{`connected`}{Groups of any shape: a finer ring (a neuron per 5 rows) traces
#'     curved, chained or nested groups; its prototypes are joined by Genie's linkage, and
#'     the number of groups is where the share of rows whose two nearest prototypes fall in
#'     different groups jumps. Taken over Gaussian groups that cut through clearly denser
#'     data and are not found again by the replicates, where a gap in the rows parts the
#'     connected groups (not measured beyond 10,000 rows, nor where every column takes few
#'     values: there the tests before it decide).}
#'   \item{`apart`}{The rows joined by Genie's linkage; a number of groups is "apart" when
#'     its narrowest cut is at least twice the longest links within the groups. Taken over
#'     Gaussian groups that tile the groups apart (four or more pieces each), or where no
#'     Gaussian structure was found.}
#'   \item{`sparse`}{Noisy shapes: where the Gaussian groups are not steady over the
#'     replicates and cut through dense rows, the rows' linkage cut where its cuts stop
#'     running through sparse rows.}
#'   \item{`bimodal`}{Where one group was found: the best partition into two Gaussian
#'     groups of a shared covariance is taken when the rows' density dips between them
#'     (projected on the line that separates them, fitted on half the rows and measured on
#'     the other half: fewer rows near the dip than near the lower peak by more than 3.5
#'     standard errors). Two Gaussian groups 3 standard deviations apart are two groups;
#'     a Gaussian cloud, a uniform box or a skewed cloud stays one.}
#'   \item{`graph`}{Wide data whose leading components show no noise floor (every one of
#'     the 20 computed stands above it, as in real expression tables; see "Wide data"):
#'     the communities of the rows' shared-neighbour graph, as Seurat finds them (each
#'     row's 20 nearest on the components, joined by the Jaccard overlap of their
#'     neighbours, Louvain at resolution 0.8), replace the groups found when the graph's
#'     modularity exceeds 1.2 times that of Gaussian rows of the components' spreads.
#'     On such spectra the Gaussian groups split the classes into their refinements or
#'     find none; rows without groups (uniform, skewed or heavy-tailed clouds, a line)
#'     stay under 1.13. Between 41 rows and 10,000.}
#'   }
#'   After the replicates, with `noise = TRUE`, the step `noise` sets aside the rows far
#'   from their group's dense part (see "Rows in no group"). The rules that build the
#'   rows' tree (`connected`'s gap, `apart`, `sparse`) and `graph` run up to 10,000 rows, the default
#'   sample (`told` builds it whatever the rows: a tenth of a second for 10,000 rows in two
#'   columns). `shape = "gaussian"` tries the Gaussian rules alone (`gaussian`, `bimodal`;
#'   told, the Gaussian candidate, or the rows' linkage where EM loses a group);
#'   `shape = "connected"` takes rule `connected`'s groups whatever its tests (told, the
#'   rows' linkage), `gaussian`'s standing only where the fine ring has fewer than 3 cells
#'   with rows, and tries neither `apart`, `sparse` nor `bimodal`; with categorical
#'   columns `"auto"` means `"gaussian"` (their levels part the rows by gaps that border no
#'   group). Every threshold is a constant of [selection_constants()], where its value,
#'   origin and the benchmark figure that set it are listed (`control =
#'   select_control(name = value)` moves one, for an experiment; the result keeps it);
#'   `bench/README.md` (in the package's sources) holds the measurements behind each rule.
#'
#' @section Reading the decisions: `decisions` is a data frame with a row per rule in the
#'   order above, then `noise` (and, for wide data run on principal components, a first
#'   row `components`: how many, and the variance they explain; see "Wide data"):
#'   `rule`; `outcome`, `"accepted"` (its groups are the answer so far), `"declined"`
#'   (the test in `statistic` said no), `"not tried"` (the rule does not apply here:
#'   `reason` says why) or, for the steps `components` and `noise`, which are no rules,
#'   `"applied"` (the rules ran on the components; rows were set aside); `statistic`, `value` and `threshold`, what
#'   the rule measured and the figure it was compared with; `constant`, the name of that
#'   threshold in [selection_constants()]; `reason`, in words. The groups are those of the
#'   last rule accepted (`grouping$rule`). `summary()` prints the table a rule per line,
#'   `print()` says it in one sentence, `plot()` titles its third panel with the rule, and
#'   `generics::glance()` has a `rule` column. See the examples.
#'
#' @section Rows in no group: With `noise = TRUE`, rows far from their group's dense part
#'   belong to no group: `NA` in `partition`, counted in no row of `group_table` (its
#'   stability is that of the groups before they were set aside) and in `noise_rows`, and
#'   `NA` from [predict.somgpu_selection()] for new rows like them. A row is set aside
#'   when its distance to its 5th nearest other grouped row (HDBSCAN's core distance)
#'   exceeds 2.5 times the median of its group's rows'. The decision `noise` reports the
#'   largest such ratio (`value`) against 2.5 (`threshold`), and counts the rows set aside
#'   in `reason`. The groups themselves are found as without the option.
#'
#' @section Replicates and stability: Each replicate leaves out a random share `holdout`
#'   of the rows and trains on a bootstrap resample of the others, one map per size on a
#'   shorter schedule (30 passes, or the fit's when fewer). Per size it records the
#'   training and held-out quantization error (qe), and the clusters of every row: the
#'   stability of a size is the adjusted Rand index between two replicates' clusterings,
#'   averaged over pairs of replicates, with its 2.5% and 97.5% quantiles. `group_table`
#'   gives each group its bootstrap stability as `fpc::clusterboot` reports it: the mean
#'   Jaccard similarity with its best match among each replicate's groups (found on the
#'   replicate's own map for Gaussian groups, by the rule again on its rows for the
#'   others). The usual reading: below 0.6 doubtful, 0.6 to 0.75 a pattern, 0.75 and over
#'   stable, 0.85 and over highly stable. The replicates run in rounds of 10 until more
#'   could not change a group's reading; `bootstrap` in the result says how many ran.
#'   Replicate `b`'s rows and seed are the same whatever the rounds: the result is
#'   reproducible from `seed`.
#'
#' @section Recommendation: The recommended size is the number of groups when it is among
#'   `sizes`, else the smallest larger size. One group means no group structure, and
#'   `recommended` is `NA`. When each cell of the largest map is a group of its own, the
#'   reason says whether a wider range of sizes could show more.
#'
#' @section Columns in different units: With `scale = "auto"` the columns are
#'   standardized (as [train()]'s `scale = TRUE`) when their standard deviations differ
#'   more than 10-fold, as columns in different units do, and always for a data frame with
#'   categorical columns; otherwise the data keep their units. `strategy$scaled`,
#'   `strategy$spread_ratio` and `scale` in the result say what was done.
#'
#' @section Large data: From 5,000 rows `select_size()` trains in batch unless `...` names
#'   the algorithm. Beyond `sample_rows` (10,000 by default) the rules run on a random
#'   sample of that many rows, then every row joins its group a block at a time; `y` may be
#'   a file-backed `bigmemory::big.matrix`, never read whole. `strategy` says what was
#'   done.
#'
#' @section Wide data: From 64 columns (the constant `"wide_columns"`) the maps, the rules
#'   and the replicates run on the data's leading principal components, those that stand
#'   above the noise (whose variance exceeds the Marchenko-Pastur edge of columns of pure
#'   noise), at most 20 (`"components_kept"`), as the field groups gene expression and
#'   other wide tables (Seurat-style graphs, mclust on the components): covariances of
#'   thousands of columns cannot be estimated from hundreds of rows, the columns that
#'   carry no group only add noise to every distance, and the Gaussian rule's cost grows
#'   as the cube of the columns. The columns are centred (and with `scale = TRUE`
#'   standardized; `scale = "auto"` keeps a wide table's units, its columns measuring
#'   one kind of thing) and projected by a truncated SVD (exact up to 600 rows or
#'   columns, randomized from `seed` beyond); a missing value counts as its column's
#'   mean, and a row missing more than `na_max` of its values is left out. `reduction`
#'   in the result holds the projection, the first row of `decisions` and `print()` say
#'   how many components and the share of the variance they keep; [predict()] and `augment()`
#'   project new rows on them. `fit` is then trained on the components (columns `PC1`,
#'   `PC2`, ...). `components = FALSE` keeps every column, `components = k` takes k
#'   components at any width. Where all 20 components stand above the noise (a spectrum
#'   without a floor: real expression tables, pixels), the rule `graph` groups the rows
#'   as the field's graph clustering does, when its communities are more modular than
#'   Gaussian rows give; `reduction$computed` says how many components were computed.
#'
#' @section Time: About twice one [train()] call with the same arguments, and the groups:
#'   under a second for a few hundred rows, a few seconds for a few thousand, on 2 threads.
#'   Wide data add their truncated SVD, linear in the columns: 200 x 20,000 takes about a
#'   second, 2,000 x 2,000 about three (`bench/bench_select_wide.R`); where the rule
#'   `graph` runs, its graphs (4, and one per replicate) add about a second (2,000 x 300:
#'   4.2 s against 3.3 s without it; 10,000 x 300: 18.3 s against 16.5 s).
#'   With `parallel = "future"` the replicates run side by side on the workers of the
#'   current [future::plan()]. By default the maps train with the ring-scaled schedule,
#'   `sigma0 = "auto"`; `sigma0 = 5` gives the original script's.
#'
#' @param y The data, as for [train()]: a data frame's categorical columns too.
#' @param sizes Ring sizes to compare (at least two); or give `nmin` and `nmax` in `...`.
#' @param restarts Maps per size of `fit`, the fit on all rows (the kept one has the
#'   lowest qe); the replicates train one per size.
#' @param bootstrap The most replicates (at least 2); they stop once the groups'
#'   stability readings settle.
#' @param holdout Share of the rows each replicate leaves out, from 0 to 0.9.
#' @param seed `NULL` (draw one from R's generator) or a whole number: the replicates' rows
#'   and the maps' streams derive from it.
#' @param sigma0 The neighbourhood's starting width, as for [train()]; `"auto"` (the
#'   default here) scales it to each ring.
#' @param progress Show one progress bar over the replicates (cli's; with
#'   `parallel = "future"`, progressr's signals).
#' @param parallel `"none"` (replicates one after the other, each on `threads`) or
#'   `"future"` (replicates side by side on the future workers).
#' @param sample_rows `"auto"` (the default: all rows up to 10,000, else a sample of
#'   10,000), a whole number of rows to sample (at least 100), or `Inf` (every row, also
#'   of a file-backed matrix, which is then read into memory). See "Large data".
#' @param groups_file `NULL`, or for file-backed `y` a path where no file is yet: every
#'   row's group is written there (a file-backed integer `big.matrix` with one column,
#'   `group`, its descriptor beside it), `partition` is `NULL`, `groups_file` holds the
#'   absolute path, and [as_big_matrix()] attaches the matrix in any session.
#' @param shape `"auto"` (every rule), `"gaussian"` (Gaussian groups only) or
#'   `"connected"` (the fine ring's connected groups, or told the rows' linkage): see "How
#'   the groups are chosen".
#' @param groups `NULL` (the default: choose the number of groups), or the number of groups
#'   to find, a whole number from 1 to the largest size compared (rule `told`).
#' @param noise `TRUE` to leave the rows far from any group's dense part in no group (`NA`
#'   in `partition`): see "Rows in no group".
#' @param scale `"auto"` (the default): standardize the columns when their standard
#'   deviations differ more than 10-fold or when `y` has categorical columns; else keep the
#'   data's units. Or as for [train()]: `TRUE`, `FALSE`, or a list of centres and scales.
#' @param components `"auto"` (the default: from 64 columns on, the leading principal
#'   components above the noise, at most 20; else the columns), `FALSE` (always the
#'   columns) or a whole number of components to run on: see "Wide data".
#' @param control The rules' settings, from [select_control()] (`NULL`, the default: the
#'   values of [selection_constants()], every rule in the pipeline); kept in the result.
#'   (`options(somgpu.tuning)` and `options(somgpu.skip_rules)`, read when `control` is
#'   `NULL`, are deprecated.)
#' @param ... For `select_size()`, further arguments to [train()] (`iter_max`, `algorithm`,
#'   `var_weights`, `backend`, `threads`, `nmin`, `nmax`, `keep_data` (for `fit`),
#'   ...); for `plot()`, graphical parameters (`main`, a title over the three panels; `col`,
#'   `pch`, `cex`, `lwd`, `lty`, `xlab`, ...); for `print()`, ignored.
#' @param x A `somgpu_selection` (for print and plot).
#' @return A list of class `somgpu_selection` with these fields, in this order: `call`
#'   (the call, as [match.call()] gives it); `criteria`, a data frame with one row per
#'   size (`size`, `train_qe`, `heldout_qe`, `heldout_qe_se`, `te`, `explained_var`,
#'   `stability`, `stability_lo`, `stability_hi`, `occupied` (neurons with rows in `fit`),
#'   `davies_bouldin`, `calinski_harabasz`); `groups`, the number of groups (1: none; `NA`
#'   when no rule gave groups); `recommended`, a size or `NA`; `reason`, in words (with a
#'   word of caution where the groups' stability weighted by their rows is under 0.75);
#'   `partition`, each row's group (`NA` for rows left out, and with `noise = TRUE` for
#'   rows in no group); `group_table`, a row per group (`group`, `rows`, `stability`,
#'   `reading`; one group is not rated: stability `NA`, reading `"not rated"`);
#'   `noise_rows`, with `noise = TRUE` the number of rows in no group, else `NULL`;
#'   `grouping`, the groups' contract: `rule`, the rule that found them; `groups`;
#'   `model`, Gaussian groups' covariance model (else `NA`); `criterion`; `scores`, every
#'   Gaussian candidate's criterion by model and number of groups; `par`, the groups'
#'   proportions and means (and covariances) in the space the maps trained in; `size`, the
#'   ring they live on; `neurons`, each neuron's group; `partition`; `rows`; `occupied`;
#'   `cells`; `assign`, how a new row joins them (`"mixture"`, `"neurons"` or `"rows"`);
#'   `fine`, `ref`, `ref_group` (what that needs); `told`; `noise`; `detail`, the rule's
#'   own figures per number of groups (its `partition` covers the rows the rules ran on:
#'   the sample, where the rows were sampled); `decisions` (see "Reading the decisions");
#'   `strategy` (`rows`, `n`, `sampled`, `algorithm`, `dropped`, `scaled`, `spread_ratio`,
#'   `components`, `variance_explained`, `text`); `groups_file`; `replicates`, one row
#'   per replicate and size (`size`, `replicate`, `train_qe`, `heldout_qe`,
#'   `stability`); `reruns`, with
#'   `parallel = "future"`, the replicates run again after their worker was lost; `fit`,
#'   the fit on all rows (or on the sample: a [train()] result); `shape`, the shape used;
#'   `scale`, the scaling used (`TRUE`, `FALSE` or a list); `reduction`, for wide data
#'   the principal components the maps ran on (`centre`, `scale`, `rotation`, `sdev`,
#'   `explained`, each component's share of the variance, `computed`, the components
#'   computed before those under the noise were dropped, ...; see "Wide data"), else
#'   `NULL`; `noise`, as asked; `control`, the [select_control()] it ran under; `seed`; `bootstrap`, the replicates run; `holdout`;
#'   `sigma0`; `elapsed`, seconds.
#' @seealso [train()], [summary.somgpu_selection()], [tidy.somgpu_selection()],
#'   [selection_constants()], [select_control()]
#' @examples
#' set.seed(1)
#' centres <- matrix(c(0, 0, 0, 4, 0, 0, 0, 4, 0, 4, 4, 0), ncol = 3, byrow = TRUE)
#' y <- centres[rep(1:4, each = 50), ] + matrix(rnorm(600, sd = 0.5), ncol = 3)
#' sel <- select_size(y, sizes = 2:7, restarts = 2, bootstrap = 6, iter_max = 30,
#'                    seed = 1, threads = 2)
#' sel
#' plot(sel)
#'
#' # how the groups were chosen: the rule that decided, and what every rule measured
#' sel$grouping$rule
#' sel$decisions[, c("rule", "outcome", "statistic", "value", "threshold")]
#' summary(sel)
#'
#' # two overlapping Gaussian groups (centres 3 standard deviations apart): the Gaussian
#' # rule finds one cloud, the bimodal rule the dip between the two
#' two <- matrix(rnorm(2000), ncol = 1) + rep(c(0, 3), each = 1000)
#' sel2 <- select_size(two, sizes = 2:6, restarts = 2, bootstrap = 4, seed = 1, threads = 2)
#' sel2$decisions[sel2$decisions$rule %in% c("gaussian", "bimodal"), c("rule", "outcome", "value")]
#' @export
select_size <- function(y, sizes = 2:20, restarts = 4, bootstrap = 20, holdout = 0.2,
                        seed = NULL, sigma0 = "auto", progress = interactive(),
                        parallel = "none", sample_rows = "auto", groups_file = NULL, ...,
                        shape = "auto", groups = NULL, noise = FALSE, scale = "auto",
                        components = "auto", control = NULL) {
  call <- compact_call(sys.call(), "select_size")
  started <- proc.time()[["elapsed"]]
  # the rules' settings (R/select_control.R): in force for this call, kept in the result
  control <- resolve_control(control, call)
  previous <- set_control(control)
  on.exit(set_control(previous), add = TRUE)
  matched <- match.call()
  file <- is_file_data(y)
  data <- encoded_data(y, call) # a data frame's categorical columns (data_encode.R)
  data$x <- encoded_matrix(data$x, data$encoding) # its rows train as the frame's would
  n_all <- nrow(data$x)
  dots <- select_args(list(...), call)
  sizes <- select_sizes(sizes, !missing(sizes), dots, call)
  dots$nmin <- dots$nmax <- NULL
  bootstrap <- check_whole(bootstrap, "bootstrap", 2, call = call)
  holdout <- check_number(holdout, "holdout", 0, 0.9, call = call)
  restarts <- check_whole(restarts, "restarts", 1, call = call)
  sigma0 <- check_sigma0(sigma0, length(sizes), call)
  seed <- check_seed(seed, call)
  groups_file <- check_clusters_file(groups_file, file, call, "groups_file", "the groups")
  shape_asked <- check_choice(shape, "shape", rule_shapes, call)
  # categorical columns: their levels part the rows by gaps that border no group (the
  # rules that need shape "auto" record it in `decisions`)
  shape <- if (shape_asked == "auto" && !is.null(data$encoding)) "gaussian" else shape_asked
  if (!is.null(groups)) groups <- check_groups(groups, max(sizes), call)
  noise <- check_flag(noise, "noise", call)
  # the rows the rules see (R/select_pipeline.R): a sample at scale, columns in different
  # units standardized, wide data's leading principal components
  seen <- select_rows(data, file, sample_rows, scale, components, seed, dots, call)
  x <- seen$x
  dots <- seen$dots
  reduction <- seen$reduction
  progress <- check_flag(progress, "progress", call)
  parallel <- check_choice(parallel, "parallel", c("none", "future"), call)
  if (parallel == "future") {
    need_packages(c("future", "future.apply"), "parallel = \"future\"", call)
  }
  n <- nrow(x)
  n_out <- floor(holdout * n)
  if (n - n_out < 2L) abort_input("`holdout` leaves fewer than 2 rows to train on.", call)
  keep_data <- if (is.null(dots$keep_data)) FALSE else dots$keep_data
  dots$keep_data <- NULL
  args <- c(list(sizes = sizes, restarts = restarts, sigma0 = sigma0, keep_data = FALSE,
                 progress = FALSE), dots)
  # the fit on all rows first: its largest map gives the Gaussian groups (fit_grouping()),
  # whose model and count the first round of replicates looks for too
  full <- do.call(train, c(list(x, seed = seed),
                          utils::modifyList(args, list(keep_data = keep_data))))
  strategy <- select_strategy(n_all, seen$sample, full$params$algorithm, length(full$dropped),
                              seen$scaling, !is.null(full$scaling) || !is.null(reduction$scale),
                              reduction, ncol(data$x))
  settings <- list(shape = shape, shape_asked = shape_asked, k_max = max(sizes), told = groups,
                   noise = noise, seed = seed, args = args, reduction = reduction)
  # the rules and the replicates, in rounds until the groups' readings settle; then the
  # rows in no group
  found <- select_groups(x, full, settings, bootstrap, n_out, parallel, progress, call)
  grouping <- found$decided$grouping
  criteria <- selection_criteria(found$reps, full, x)
  pick <- recommend_size(grouping, criteria$criteria$size, decisions = found$decided$decisions,
                         rows = x, dropped_all = length(full$dropped) == n)
  pick$reason <- paste0(pick$reason, weak_groups_words(found$table))
  # every row's group (to the groups file when asked), and each group's rows among them
  every <- select_partition(grouping, found$table, full, data$x, seen$sample, groups_file,
                            dots$threads, reduction, call)
  new_selection(call = matched, criteria = criteria$criteria, groups = pick$groups,
                recommended = pick$size, reason = pick$reason, partition = every$partition,
                group_table = every$table,
                noise_rows = if (noise && !is.null(grouping)) every$noise,
                grouping = grouping,
                decisions = rbind(reduction_decision(reduction, n), found$decided$decisions),
                strategy = strategy,
                groups_file = if (!is.null(grouping)) groups_file,
                replicates = criteria$replicates, reruns = found$reruns, fit = full,
                shape = shape, scale = seen$scaling$scale, reduction = reduction, noise = noise,
                control = control, seed = seed,
                bootstrap = length(found$reps), holdout = holdout, sigma0 = sigma0,
                elapsed = proc.time()[["elapsed"]] - started)
}

#' Groups of new rows
#'
#' Gives each row of `newdata` its group among those [select_size()] found, as the
#' selection's own rows got theirs: its winner on the grouping map (the selection's
#' largest ring, or the fine ring of rule connected), then as the groups were found
#' (`grouping$assign`; see [select_size()], "How the groups are chosen"): the group of
#' highest posterior under the groups' Gaussian mixture (rules gaussian, bimodal, told),
#' its winner's group (rule connected) or its nearest grouped row's (rules apart, sparse,
#' told); with `noise = TRUE`, `NA` for a row far from its group's dense part ("Rows in no
#' group"). File-backed rows are read a block at a time.
#'
#' @param object A `somgpu_selection` from [select_size()].
#' @param newdata The rows, as for [predict.somgpu()]: a data frame, a matrix, a named
#'   numeric vector, or a file-backed `bigmemory::big.matrix`; columns taken by name.
#'   Omitted: the selection's own rows, whose groups are its `partition`.
#' @param threads Number of CPU threads; `NULL` uses [somgpu_threads()].
#' @param ... Not used: an argument these methods do not take is an error that names it
#'   (and the nearest argument they do take).
#' @return An integer vector, a group (1, 2, ...) per row of `newdata` (named by its row
#'   names where it has them, as [predict.somgpu()]'s rows are); `NA` for rows
#'   left out for missing values, for rows in no group (a selection with `noise = TRUE`),
#'   and for every row when the selection found no groups (no map had rows).
#' @seealso [select_size()], [augment.somgpu_selection()]
#' @examples
#' sel <- select_size(iris[1:4], sizes = 2:5, restarts = 1, bootstrap = 3, iter_max = 20,
#'                    scale = TRUE, seed = 1, threads = 2)
#' predict(sel, iris[c(1, 51, 101), ])
#' @export
predict.somgpu_selection <- function(object, newdata, threads = NULL, ...) {
  call <- compact_call(sys.call(), "predict")
  check_dots_used(list(...), predict.somgpu_selection, "predict()", call)
  # its own rows: their groups, as found (predict() of a fit gives its rows' clusters)
  if (missing(newdata)) return(object$partition)
  fit <- object$fit
  # a selection on principal components takes the columns it reduced (R/select_reduce.R)
  x <- newdata_matrix(newdata, if (is.null(object$reduction)) fit else object$reduction$source, call)
  g <- selection_grouping(object, call)
  out <- if (is.null(g) || nrow(x) == 0L) rep(NA_integer_, nrow(x)) else
    groups_of_rows(g, fit, x, nrow(x), threads, reduction = object$reduction)$partition
  names(out) <- rownames(x) # newdata's row names, as predict() of the fit keeps them
  out
}
