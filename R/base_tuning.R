# The constants select_size()'s rules were tuned with, in one table: every rule reads its
# own by name (tuned()), nowhere else is a tuned one written (what stays in the code are
# numerical guards, as a ridge of 1e-6, and conventions of reporting: the stability
# readings' bands are fpc::clusterboot's, R/rule_stability.R; the replicates' rounds of 10,
# R/select_replicates.R; the default sample of 10,000 rows, R/select_scale.R, which
# "tree_rows" equals but does not follow). `kind` says where a value came
# from: "tuned" (set on a benchmark, the figure in `set_by`; bench/README.md has the
# history), "published" (a method's own default), "convention" (a usual value of its
# kind, not tuned). bench/bench_clustering_suite.R --sensitivity moves each at 0.75 and
# 1.33 times its value (select_size(control = select_control(...)), R/select_control.R) and prints the suite's
# mean ARI for each.
tuning_rows <- function(name, value, domain, kind, rule, what, set_by) {
  data.frame(name = name, value = value, domain = domain, kind = kind, rule = rule,
             what = what, set_by = set_by)
}

# The values a constant may take (`domain`), as select_control() checks them: "share", a
# number from 0 to 1; "count", a whole number from 1; "positive", a number above 0.
tuning_domains <- c(share = "a number from 0 to 1", count = "a whole number from 1",
                    positive = "a number above 0")

tuning_table <- rbind(
  tuning_rows("prior_share", 0.1, "share", "convention", "gaussian",
              "each group's covariance prior: d + 2 pseudo-rows with this share of the data's covariance",
              "keeps a group of a few rows from a degenerate covariance; small beside a group's own scatter"),
  tuning_rows("group_min_share", 0.01, "share", "tuned", "gaussian",
              "a candidate's every group holds at least this share of the rows",
              "the real sets and the first synthetic suite (issue 28; bench_select_real.R)"),
  tuning_rows("group_min_rows", 5, "count", "convention", "gaussian",
              "... and at least this many rows", "a Gaussian in a few columns needs a few rows"),
  tuning_rows("aside_share", 0.05, "share", "tuned", "gaussian",
              "the neurons with too few rows to be a group are set aside, up to this share of the rows",
              "the real sets (issue 28): 0.50 mean ARI with it, robust to a lone outlier"),
  tuning_rows("point_variance", 1e-6, "share", "convention", "gaussian",
              "a group whose variance in a column of few values is under this share of the column's is a point mass: no candidate",
              "uci/ecoli 0.04 -> 0.73, yeast 0.01 -> 0.12; no other suite set moved"),
  tuning_rows("few_values_tied", 0.9, "share", "convention", "gaussian",
              "a column takes few values when this share of its rows tie with another",
              "binary, clipped and rounded columns; wut/mk4's flat disc is not one"),
  tuning_rows("few_values_tie", 1e-5, "share", "convention", "gaussian",
              "two values tie when closer than this share of the data's spread", "rounding, not data"),
  tuning_rows("genie_gini", 0.3, "share", "published", "connected, told, apart, sparse",
              "Genie's linkage: a smallest group joins first while the Gini index of the group sizes exceeds this",
              "Gagolewski, Bartoszuk and Cena 2016; genieclust's default"),
  tuning_rows("fine_rows_per_neuron", 5, "positive", "tuned", "connected",
              "the fine ring has a neuron per this many rows", "the suite (issue 39)"),
  tuning_rows("fine_min_neurons", 20, "count", "convention", "connected", "... and at least this many neurons",
              "a ring finer than the selection's largest"),
  tuning_rows("fine_max_neurons", 200, "count", "convention", "connected", "... and at most this many",
              "its cost"),
  tuning_rows("break_eps", 0.002, "share", "tuned", "connected, sparse",
              "a crossing share's jump is (share(k + 1) + eps) / (share(k) + eps): a few rows between groups make no jump",
              "the suite (issue 39): two rows in a thousand"),
  tuning_rows("connected_times", 20, "positive", "tuned", "connected",
              "connected groups replace Gaussian ones whose crossing share exceeds this many times theirs ...",
              "the suite (issue 39): at 3 times five real sets were lost"),
  tuning_rows("connected_plus", 0.01, "share", "tuned", "connected", "... plus this", "the suite (issue 39)"),
  tuning_rows("connected_boundary_times", 2, "positive", "tuned", "connected",
              "... and per boundary this many times theirs ...",
              "the suite (issues 39, 40): 1.5 to 4 gave the same answers; keeps a2's and a3's blobs"),
  tuning_rows("connected_boundary_plus", 0.001, "share", "tuned", "connected", "... plus this",
              "the suite (issue 40): 0 to 0.001 gave the same answers"),
  tuning_rows("steady", 0.95, "share", "tuned", "connected, sparse",
              "Gaussian groups this steady over the first round of replicates (row-weighted stability) are kept",
              "the suite: 0.97 to 0.99 on blobs, 0.62 to 0.92 where connected groups won"),
  tuning_rows("gap_quantile", 0.9, "share", "tuned", "told, connected",
              "a gap is measured against this quantile of the rows' tree's edges",
              "the suite's 47 sets up to 1,500 rows: 0.75 to 0.95 did as well within 0.03"),
  tuning_rows("gap_times", 1, "positive", "tuned", "told, connected",
              "groups of the rows' tree are taken when their narrowest cut exceeds this many times that quantile",
              "the suite: 0.9 to 1.5 did as well within 0.03 (told k)"),
  tuning_rows("apart_quantile", 0.99, "share", "tuned", "apart",
              "groups apart: the gap over this quantile of the tree's edges within the groups",
              "the suite (issue 39): 0.9 lost sets with one sparse group"),
  tuning_rows("apart_times", 2, "positive", "tuned", "apart", "... must exceed this",
              "the suite: 0.653 -> 0.711 with the rule; 1.5 gave 0.684, 2.5 and 3 0.701"),
  tuning_rows("apart_pieces", 4, "count", "tuned", "apart",
              "groups apart replace Gaussian groups at least this many per group apart",
              "the suite: 3 to 5 the same; 2 lost touching blobs"),
  tuning_rows("apart_alone", 1.5, "positive", "tuned", "apart",
              "the gap that suffices where the Gaussian groups are one (2 or more columns)",
              "data without groups (bench_apart_null.R): none above 0.94"),
  tuning_rows("sparse_neighbours", 10, "count", "convention", "sparse",
              "groups parted by sparse rows: each row's this many nearest rows", "a density's usual value"),
  tuning_rows("sparse_core", 0.9, "share", "convention", "sparse",
              "the dense rows: the densest this share", "5 neighbours and 0.85 took sets that lost"),
  tuning_rows("sparse_cross", 0.001, "share", "tuned", "sparse",
              "the groups' dense neighbours across must stay under this share",
              "the suite: 0.0005 to 0.002 took the same sets"),
  tuning_rows("sparse_gaussian", 0.01, "share", "tuned", "sparse",
              "... and the Gaussian groups' exceed this", "the suite: ratios 5 to 20 took the same sets"),
  tuning_rows("bimodal_z", 3.5, "positive", "tuned", "bimodal",
              "a second group is taken where one was found when the rows' density dips between the two halves by more than this many standard errors",
              "bench_bimodal_null.R: 216 sets without groups (uniform, Gaussian, t, exponential; 30 to 3,000 rows, 1 to 128 columns) at most 2.9; two Gaussians 3 sd apart in 1 or 2 columns 3.9 to 5.2"),
  tuning_rows("noise_neighbours", 5, "count", "convention", "noise",
              "rows in no group: a row's distance to its this-th nearest grouped row ...",
              "HDBSCAN's core distance"),
  tuning_rows("noise_times", 2.5, "positive", "tuned", "noise",
              "... over this many times its group's median: in no group", "the suite's sets with noise rows"),
  tuning_rows("spread_ratio", 10, "positive", "tuned", "scale",
              "scale = \"auto\" standardizes columns whose spreads differ more than this many times",
              "the suite: its sets in one unit stay within 7.3-fold, those in mixed units reach 52"),
  tuning_rows("batch_rows", 5000, "count", "tuned", "training",
              "from this many rows select_size() trains in batch",
              "the suite's 26 sets of 2,000 to 10,000 rows: 0.617 batch, 0.604 online"),
  tuning_rows("replicate_passes", 30, "count", "tuned", "replicates",
              "each replicate trains this many passes (or the fit's, when fewer)",
              "ten suite sets: stability within 0.01 to 0.04 of the fit's recipe"),
  tuning_rows("tree_rows", 10000, "count", "cost", "connected, apart, sparse",
              "the rules that build the rows' tree (n^2) run up to this many rows", "the default sample"),
  tuning_rows("wide_columns", 64, "count", "cost", "components",
              "from this many columns the maps and the rules run on leading principal components",
              "the Gaussian rule's cost grows as the cube of the columns (57 s at 400, issue 66); digits' 64: 51 s, ARI 0.70 on the columns, 3.6 s, 0.75 on components; the suites' widest set has 60"),
  tuning_rows("components_kept", 20, "count", "convention", "components",
              "... at most this many of them: those above the noise (the Marchenko-Pastur edge)",
              "the field's count for wide data (Seurat-style graphs and mclust on 20 components; bench_select_wide.R)"),
  tuning_rows("graph_neighbours", 20, "count", "published", "graph",
              "the rows' shared-neighbour graph joins rows that share some of their this many nearest (each row among its own)",
              "Seurat's FindNeighbors (k.param)"),
  tuning_rows("graph_prune", 1 / 15, "share", "published", "graph",
              "... weighted by the Jaccard overlap of their neighbours, pruned below this",
              "Seurat's FindNeighbors (prune.SNN)"),
  tuning_rows("graph_resolution", 0.8, "positive", "published", "graph",
              "Louvain's communities of the graph at this resolution", "Seurat's FindClusters"),
  tuning_rows("graph_null_ratio", 1.2, "positive", "tuned", "graph",
              "the communities replace the groups found where their modularity exceeds this many times that of Gaussian rows of the components' spreads",
              "wide sets without groups (uniform, skewed, heavy-tailed, a line, on structured noise) reach 1.13; the real expression sets 1.45 to 2.05 (bench_select_wide.R)"),
  tuning_rows("graph_null_draws", 3, "count", "convention", "graph",
              "... the mean over this many draws of such rows", "the null's modularity varies by a few hundredths"))

# The settings in force: select_size() sets `control` (a select_control()) for its call
# and restores the previous on exit (with_control(), R/select_control.R); NULL: the table's.
tuning_state <- new.env(parent = emptyenv())

# A constant's value: the control's in force (select_control(name = value)), else the
# table's. (A name not in the table is an internal error: select_control() checks the
# user's names.)
tuned <- function(name) {
  over <- tuning_state$control$tuning[[name]]
  if (!is.null(over)) return(over)
  at <- match(name, tuning_table$name)
  check_internal(!is.na(at), sprintf("no tuned constant named %s", name))
  tuning_table$value[at]
}

#' The constants the choice of groups was tuned with
#'
#' One row per constant that [select_size()]'s rules read: its value, where it came from
#' and the benchmark figure that set it. Reading the table changes nothing, but the
#' constants decide [select_size()]'s answers: `select_size(control =
#' select_control(name = value))` moves one (an expert's setting, for experiments) and the
#' rules follow it, so results change with it; `selection_constants(control)` shows the
#' values a control sets.
#' `bench/bench_clustering_suite.R --sensitivity` (in the package's sources) moves
#' each constant to 0.75 and 1.33 times its value and reports the benchmark suite's mean
#' adjusted Rand index for each, so that a reader sees which figures stand on a knife's
#' edge.
#'
#' @param control A [select_control()] whose values the table shows (`NULL`: the defaults).
#' @return A data frame: `name`, `value`, `domain` (the values it may take: `"share"`, 0
#'   to 1; `"count"`, a whole number from 1; `"positive"`, above 0), `kind` (`"tuned"` on a benchmark,
#'   `"published"` as its authors publish it, `"convention"` a usual value of its kind,
#'   `"cost"` a limit on time), `rule` (what reads it: the rules of [select_size()]'s
#'   `decisions`, or its training, replicates or scaling), `what` (what it does) and
#'   `set_by` (the figure that set it).
#' @seealso [select_size()], whose `decisions` name the constant each rule compared with.
#' @examples
#' tab <- selection_constants()
#' tab[tab$rule == "apart", c("name", "value", "what")]
#' @export
selection_constants <- function(control = NULL) {
  out <- tuning_table
  if (is.null(control)) return(out)
  if (!inherits(control, "somgpu_control")) {
    abort_input(sprintf("`control` must be made by select_control(), not %s.", describe(control)),
                sys.call())
  }
  set <- match(names(control$tuning), out$name)
  out$value[set] <- unlist(control$tuning, use.names = FALSE)
  out
}
