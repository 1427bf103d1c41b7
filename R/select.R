#' Choose the ring size: how many groups the data hold, and which rows are in each
#'
#' Trains the family of ring sizes on all rows and on `bootstrap` replicates of them,
#' finds the groups the data hold on the largest ring's map, gives every row its group, and
#' recommends the size whose ring has one neuron per group; with it, the held-out error and
#' the stability of the clusterings from one replicate to the next per size, and each
#' group's bootstrap stability.
#'
#' @section Groups: The largest ring orders the data finely: its neurons' cells (the rows
#'   each neuron wins) are the building blocks of the groups. For each of six covariance
#'   shapes (mclust's `"VVV"`, `"EEE"`, `"VVI"`, `"EEI"`, `"VII"`, `"EII"`: a full,
#'   diagonal or spherical covariance, each group its own or one shared), the cells are
#'   joined greedily, at each step the two groups whose union keeps the classification
#'   log-likelihood highest, from one group per neuron down to one group (the neurons with
#'   fewer than 1% of the rows and 5, the smallest first and up to 5% of the rows in all,
#'   are set aside: an outlier's neuron or one between groups; their rows count in no
#'   candidate and join their most probable group at the end). Every partition
#'   on the way whose groups all hold at least 1% of the rows (and 5) is a candidate,
#'   scored by the BIC of its classification log-likelihood (each row counted in its own
#'   group's Gaussian, the group's share of the rows its proportion; higher is better).
#'   On hard partitions this criterion penalises groups that overlap, as the ICL does:
#'   splitting one Gaussian or uniform cloud never pays, so one group, "no group
#'   structure", is a possible answer. The best candidate gives the number of groups and
#'   their shape; EM over the rows, started from it, fits the Gaussian mixture, and every
#'   row joins its most probable group (`partition`; a group may span an arc of
#'   neighbouring neurons, or cells the ring passed twice). The covariances carry a weak
#'   prior, `d + 2` pseudo-rows with a tenth of the data's covariance (`d` columns), so that
#'   a group of a few rows has a proper one. A column that takes few values (nine rows
#'   in ten or more tie with another, within 1e-5 of the data's spread: a binary, clipped
#'   or rounded column) makes a group of its rows that tie a point mass whose likelihood
#'   grows without bound: a candidate with a group whose own variance in such a column
#'   is under 1e-6 of the column's (`"VVV"`, `"VVI"`; under `"VII"`, the columns' mean: a
#'   group that is one point) is no candidate for that shape, as mclust gives such a fit
#'   no BIC (a group lying flat in a column that varies elsewhere is one; the shapes that
#'   share a covariance are not asked). On the field's suite this took `uci/ecoli`
#'   (ARI 0.04 -> 0.73: the 10 rows of its binary `lip` column were a group) and `yeast`
#'   (0.01 -> 0.12) and changed no other set. Rows with missing values take their winner's
#'   weights in the missing columns. A data frame's categorical columns (see [train()],
#'   "Data frames with categorical columns") are no Gaussian's: the Gaussian part is taken
#'   over the numeric columns (none: only the first shape is tried), and each group adds a
#'   latent-class term, its levels' probabilities per categorical column (a multinomial;
#'   a row counts the log-probability of its level, or its winner's shares of the levels
#'   where it misses the column), estimated from the group's counts with one pseudo-row,
#'   half spread as the rows spread and half evenly, so that no level has probability 0;
#'   the criterion counts its parameters, the levels less one per column and group. Rows
#'   then join their most probable group under both parts. On ten mixed real data sets
#'   (`bench/bench_mixed.R`) beside FAMD + HCPC, mclust and k-prototypes: see the README. Measured on 24 real labelled data sets and 12 shaped
#'   ones (`bench/bench_select_real.R`) and on 68 data sets with a known number of groups
#'   (`bench/bench_select_accuracy.R`), beside mclust, the gap statistic and prediction
#'   strength run on the same data: see the README.
#'
#' @section Groups of any shape: Gaussian groups cut a curved, chained or nested group
#'   (two rings, a spiral, a long band) into pieces. With `shape = "auto"` (the default)
#'   a finer ring is trained as well, one neuron per 5 rows (20 to 200 neurons, 2
#'   restarts, `sigma0 = "auto"`, the other arguments as for the selection's maps), whose
#'   prototypes trace such groups. Its prototypes are joined by Genie's linkage
#'   (Gagolewski, Bartoszuk and Cena 2016: single linkage on their minimum spanning tree,
#'   but while the Gini index of the group sizes exceeds 0.3, a smallest group joins
#'   first). For each number of groups k, the crossing share is the share of rows whose
#'   nearest and second nearest prototypes lie in different groups (Tasdemir and
#'   Merenyi's connectivity, counted per row): near 0 while the groups follow gaps in the
#'   data, it jumps once a cut runs through dense data. The number of groups is the k from
#'   2 to `max(sizes)` with the largest jump, `(share(k + 1) + 0.002) / (share(k) +
#'   0.002)`. These connected groups replace the Gaussian ones when the Gaussian groups'
#'   crossing share (each prototype in the Gaussian group of most of its rows) exceeds 20
#'   times theirs plus 0.01, and per boundary (the share over the number of groups less
#'   one) 2 times theirs plus 0.001: the Gaussian groups then cut through dense data where
#'   the connected ones follow gaps. (Many Gaussian groups each cut off by a shallow
#'   valley, as the 35 and 50 of the suite's a2 and a3, cross more rows in all than a few
#'   groups apart, but not more per boundary.) Touching Gaussian blobs can pass both
#'   tests where the fine ring jumps from blob to blob (d31's 31 blobs in 2 groups, a2's
#'   35 in 4), so the Gaussian groups also stay when the first round of replicates (up to 10,
#'   which find Gaussian groups of the same shape and number on their own maps) finds them
#'   again: their stability, weighted by their rows (`grouping$gaussian_steadiness`), at
#'   least 0.95. A ring's or a band's
#'   Gaussian pieces shift from replicate to replicate (0.62 to 0.92 where the connected
#'   groups won on the suite), blobs do not (0.97 to 0.99 on d31 and a2; zigzag's 5
#'   straight segments, 0.98, stay as well: ARI 0.96 against its 5-group labelling, 1
#'   for its 3 connected groups). Last, the connected groups must part the rows
#'   themselves where a gap does (as for groups told their number: the shortest edge of the
#'   rows' minimum spanning tree between two of them longer than the tree's 90% quantile of
#'   edge lengths; `grouping$connected_gap`; not asked beyond 10,000 rows, nor where
#'   every column takes few values, rows on a grid whose tree has the grid's steps only):
#'   the fine ring's connectivity can break where the rows' does not (a blob beside
#'   touching ones, as the suite's `fuzzyx`; rows in many columns, as `ionosphere`'s 33),
#'   and the Gaussian groups then stay (on the suite the connected groups won by 0.07 to
#'   0.87 of ARI with gaps of 1.2 to 69 and lost 0.37 and 0.48 on the two sets without
#'   one, 0.23 and 0.95). One Gaussian group (no group structure) is
#'   kept as it is. Every row then joins its nearest prototype's group, and `grouping$kind` is
#'   `"connected"` (`grouping$size` the fine ring, `grouping$fine` its fit); each group's
#'   stability is measured on the replicates' rows, which decide the number of groups
#'   again from their own crossing shares (the prototypes stay those of the fit on all
#'   rows). The constants: a neuron per 5 rows gives each prototype a cell of a few rows,
#'   fine enough to trace a ring or a chain and coarse enough for its winner and runner-up
#'   to be neighbours along the data; 0.3 is Genie's published threshold (genieclust's
#'   default, the suite's reference); 0.002 (two rows in a thousand crossing) keeps the
#'   jump from a share of zero finite, so that a few rows between two groups do not make
#'   it; 20 times and 0.01 ask the Gaussian groups to cut through clearly denser data
#'   than the connected ones before these are taken, since on Gaussian data both shares
#'   are small and the Gaussian groups are the better ones; per boundary, 2 times and
#'   0.001 lie in the middle of the range that keeps the Gaussian groups of a2 and a3 and
#'   changes no other answer on the suites (1.5 to 4 times, 0 to 0.001). They were set on
#'   the field's benchmark suite (`bench/bench_clustering_suite.R`; at 3 times instead of
#'   20, five real sets were lost) and checked on the real and synthetic suites; `shape = "gaussian"` gives the
#'   Gaussian groups alone, `"connected"` these alone.
#'
#' @section Groups apart: Last, with `shape = "auto"`, the rows themselves are joined by
#'   Genie's linkage (as in "Groups told their number": on the rows' own minimum spanning
#'   tree, in the space the maps trained in), giving a partition for each number of groups
#'   k up to `max(sizes)`. A partition's narrowest gap is its shortest tree edge between
#'   two of its groups over the 99% quantile of the tree's edges within its groups (the
#'   links that hold each group together); k groups are apart when that ratio exceeds 2
#'   (1.5 where no Gaussian groups are; below) and every group holds at least 1% of the
#'   rows (and 5): each cut runs through empty space. The largest such k replaces the
#'   groups found so far when the Gaussian groups
#'   are one group (no group structure: a spiral's arms, which no Gaussian grouping of the
#'   cells separates) or at least 4 per group apart (the Gaussian rule tiling long, curved
#'   or uniform groups with pieces). Fewer, as 7 touching blobs in 3 groups apart, are
#'   kept: there the Gaussian groups are the finer answer. Where connected groups were
#'   taken over the Gaussian ones, the same count decides, and the groups apart replace
#'   them unless the connected groups are as many (more: a ring or a ball the fine ring
#'   broke where no row crosses, or a few outliers set off as a group of their own; fewer:
#'   groups a gap parts, joined). Where the
#'   Gaussian groups are one, the answer the groups apart compete with is no groups at
#'   all, and with at least 2 columns a ratio above 1.5 suffices: data drawn without
#'   groups (uniform, Gaussian, t and exponential rows, 30 to 3,000 rows in 2 to 10
#'   columns) showed none above 0.94; in one column (links are spacings) they reached
#'   1.87, and the widest of n spacings grows as log(n), so there 2 is asked up to 100
#'   rows and `1 + log(n) / log(100)` beyond (2.5 at 1,000 rows, 3 at 10,000: uniform rows
#'   passed 2 in 25% of sets of 3,000 rows and 67.5% of 10,000, the new threshold in none;
#'   `bench/bench_apart_null.R --one-column`). The result's
#'   `grouping$kind` is then `"rows"`, `grouping$apart` holds each k's narrowest gap
#'   (`gaps`), the Gaussian groups' number (`pieces`), and the kind and number of the
#'   groups replaced (`found`, `replaced`); new rows join their nearest grouped row's group, and
#'   each group's stability is measured as for connected groups told their number. The
#'   quantile, the ratio 2 and the 4 pieces (`apart_rule`) were set on the field's
#'   benchmark suite, where the first version of the rule raised the mean ARI of
#'   `select_size()` choosing k from 0.653 to 0.711 on its 73 sets and lost none (there
#'   1.5 times everywhere gave 0.684, 2.5 and 3 times 0.701; 3 to 5 pieces the same, 2
#'   pieces lost two sets of touching blobs; the 90% quantile at best 0.699); with the
#'   connected groups and one-group cases above it reaches 0.732. The 1.5 where no
#'   Gaussian groups are was set on data without groups, not on the suite. All were
#'   checked on the real and synthetic suites (see the README). The tree
#'   costs time of order `n^2`, so the rule is asked only when the rows trained on number
#'   at most 10,000 (the default sample's size): with a larger `sample_rows` the groups are
#'   those of the rules above.
#'
#' @section Groups parted by sparse rows: Noisy shapes (curved groups with rows scattered
#'   among them, as the suite's `chameleon_*` sets with 15% noise) leave no gap and draw
#'   the fine ring's prototypes into the noise, and the Gaussian rule tiles each group with
#'   pieces that the replicates do not find again. So where, after the rules above,
#'   Gaussian groups remain (2 or more) and their row-weighted stability over the first
#'   round of replicates is under 0.95 (as in "Groups of any shape"), the rows are joined
#'   by Genie's linkage (as for the groups apart) into 1 to `max(sizes) + 1` groups, and the
#'   dense rows count their neighbours: each row's 10 nearest rows, the dense rows those
#'   whose 10th nearest row is no farther than for 90% of the rows (the densest 90%; each
#'   group at least 1% of the rows, and 5, as for the groups apart). The share of dense rows'
#'   neighbours in another group stays near 0 while the cuts run through sparse rows and
#'   jumps once a cut runs through a dense group; the number of groups is where it jumps
#'   most, as for the connected groups. These groups replace the Gaussian ones when their
#'   share is under 0.1% and the Gaussian groups' over 1% (`dense_rule`): the Gaussian cuts
#'   run through dense rows, these through sparse ones. `grouping$kind` is then `"rows"`
#'   and `grouping$dense` holds the share per number of groups (`crossing`) and the
#'   Gaussian groups' share, stability and number (`gaussian_crossing`,
#'   `gaussian_steadiness`, `gaussian_groups`); new rows join their nearest grouped row's
#'   group. On the field's benchmark suite this took `chameleon_t4`, `t5` and `t7` (ARI
#'   0.37 to 0.63 -> 0.74 to 1) and `wingnut` (0.86 -> 1) with seed 1, and no set lost on
#'   three seeds; no real, shaped or synthetic set of the other suites was taken (any
#'   ratio of the shares from 5 to 20, floor from 0.05% to 0.2% and stability from 0.9 to
#'   0.95 took the same sets; 10 neighbours and 90% are a density's usual values, 5 and
#'   85% took sets that lost: `bench/README.md`, "Groups parted by sparse rows"). Asked
#'   only with `shape = "auto"` and at most 10,000 rows, as the groups apart.
#'
#' @section Groups told their number: With `groups = k` the rows are partitioned into
#'   exactly k groups from the same maps, and `groups` in the result is k. Two candidates:
#'   the Gaussian groups (as in "Groups": on the largest map's cells, of the covariance
#'   shape whose partition into k groups on the way of its agglomeration has the highest
#'   criterion, whatever the groups' sizes; EM from it), and the connected groups of the
#'   rows: Genie's linkage (as in "Groups of any shape", Gini threshold 0.3) on the rows'
#'   own minimum spanning tree (in the space the maps trained in), cut into k groups. On
#'   the field's suite, the linkage on the rows did better told k than on a fine ring's
#'   prototypes (mean ARI 0.80 against 0.67 on the 47 sets up to 1,500 rows), and needs no
#'   further ring. With `shape = "auto"` the connected groups are taken when every cut
#'   they make is a gap in the data: the shortest edge of the tree between two of their
#'   groups longer than the 90% quantile of the tree's edge lengths (`told_gap`; the
#'   reason gives the ratio, and `plot()` that of each cut into 2..k + 1 groups:
#'   `grouping$told$gaps`). Otherwise their cuts run where no gap separates the groups
#'   (overlapping Gaussian groups, where a linkage splits off a few outlying rows instead)
#'   and the Gaussian groups are taken. The crossing share of "Groups of any shape" chose
#'   worse here (0.77 against 0.84 of mean ARI on those 47 sets). `shape = "gaussian"` or
#'   `"connected"` takes that candidate alone. New rows ([predict.somgpu_selection()],
#'   the rows beyond a sample) join the Gaussian group of highest posterior, or the
#'   connected group of their nearest grouped row. Each connected group's stability is
#'   measured by the linkage on each replicate's distinct rows, cut into k groups. The
#'   tree costs time of order `n^2` (the rows, at most `sample_rows`; in C): about a
#'   tenth of a second for 10,000 rows in two columns, for the fit and for each replicate.
#'   `k` must not exceed the largest size compared.
#'
#' @section Rows in no group: With `noise = TRUE`, rows far from their group's dense part
#'   belong to no group: `NA` in `partition`, counted in no row of `group_table` (its
#'   stability is that of the groups before they were set aside) and in `noise`, and `NA`
#'   from [predict.somgpu_selection()] for new rows like them. A row's core distance is its
#'   distance to its 5th nearest other grouped row (in the space the maps trained in;
#'   HDBSCAN's core distance with 5 neighbours); a row whose core distance exceeds 2.5
#'   times the median of its group's rows' is in no group (`noise_rule`). Each group sets
#'   its own limit, so a sparse group keeps its rows while an outlier, or the thin
#'   background between dense groups, is set aside. The groups themselves are found as
#'   without the option. Measured on the field's suite's sets with noise rows: see
#'   `bench/README.md`. The default is `FALSE`: every row in a group.
#'
#' @section Schedule: By default the maps train with the ring-scaled schedule,
#'   `sigma0 = "auto"` (each ring's neighbourhood starts at an eighth of its size; see
#'   [train()], "Neighbourhood schedule"). Pass `sigma0 = 5` for the script's schedule.
#'
#' @section Replicates: Each replicate leaves out a random share `holdout` of the rows and
#'   trains on a bootstrap resample (rows drawn with replacement) of the others, every
#'   size at once. The replicates measure stability; the answer comes from `fit`. So they
#'   train one map per size (not `restarts`), with `fit`'s algorithm and schedule but
#'   shortened to 30 passes (`iter_max = 31`, or `fit`'s when shorter): about a twentieth
#'   of the training `fit`'s recipe would take, for sizes' stabilities within 0.01 to 0.04
#'   of it on average (measured on the field's benchmark suite; see the README). In this
#'   process (`parallel = "none"`) the maps of a round of replicates train as one family,
#'   in one call of the compiled code (10 replicates x sizes maps, each on its replicate's
#'   rows with its seed: 190 maps with the defaults); each replicate's maps are bit for bit
#'   those of a [train()] call on its rows with those arguments.
#'   `options(somgpu.replicates_one_call = FALSE)` trains a call per replicate instead.
#'   The replicates run in rounds of 10, up to `bootstrap`: after a round, when every
#'   group's stability (see "Group stability") is known well enough that more replicates
#'   would not change its reading (its mean plus and minus two standard errors within one
#'   reading), the rest are not run, and `bootstrap` in the result says how many were.
#'   With the defaults, well separated groups settle after 10 replicates, doubtful ones
#'   take 20. Replicate `b`'s rows and seed are the same whatever the rounds, so the
#'   result is reproducible from `seed`. Per size and
#'   replicate it records the kept restart's training quantization error (qe), its qe on the
#'   rows left out (`heldout_qe`; `NA` with `holdout = 0`), its topographic error and
#'   explained variance, and the cluster of every row of `y`; and the groups of its largest
#'   map, found with the shape and number of the Gaussian groups of the fit on all rows
#'   (`fit`), for every row of `y`: in the first round, and in later ones where those
#'   groups are the answer (see "Groups of any shape"; with `bootstrap` under 10 the first
#'   round is all of them, and the steadiness read there the less certain). The Davies-Bouldin (lower is better) and Calinski-Harabasz (higher is
#'   better) indices of `fit`'s kept maps are reported too.
#'
#' @section Recommendation: The recommended size is the number of groups when it is among
#'   `sizes` (else the smallest larger size, whose map holds the groups with neurons to
#'   spare). One group means no group structure, and `recommended` is `NA` (the maps still
#'   summarise the data, no size better than another). When no two cells of the largest
#'   map were joined (each a group of its own), the data may hold more groups than the map
#'   shows: the reason suggests a wider range when every neuron held enough rows to be a
#'   group and the rows allow more such neurons, and otherwise says that the rows are the
#'   limit. The stability of a size is the adjusted Rand
#'   index between the clusterings of two replicates, on the same rows, averaged over
#'   pairs of replicates (every pair up to 50 replicates, else each with the next), with the
#'   2.5% and 97.5% quantiles over the pairs as an interval. With Gaussian groups,
#'   [summary.somgpu()] gives the same groups on a fit trained as `fit` is.
#'
#' @section Group stability: `group_table` gives each group its bootstrap stability as
#'   `fpc::clusterboot` reports it: the mean, over the replicates, of the Jaccard
#'   similarity between the group and its best match among the replicate's groups, both
#'   restricted to the rows the replicate trained on. The usual reading: below 0.6
#'   doubtful, 0.6 to 0.75 a pattern, 0.75 and over stable, 0.85 and over highly stable.
#'
#' @section Time: About twice one [train()] call with the same arguments (the fit, and the
#'   replicates' shorter training), and the groups: under a second for a few hundred rows,
#'   a few seconds for a few thousand, on 2 threads with the defaults.
#'   Replicates run one after the other, each on all threads; with `parallel = "future"`,
#'   side by side on the workers of the current [future::plan()], each on its own threads.
#'
#' @section Columns in different units: The maps measure rows by Euclidean distance, so a
#'   column whose spread is a thousand times another's decides them alone. With
#'   `scale = "auto"` (the default) the columns are standardized (centred, divided by
#'   their standard deviations, as [train()]'s `scale = TRUE`) when their standard
#'   deviations (columns without spread, or whose spread is rounding beside their mean,
#'   left out; `var_weights` not counted) differ more than 10-fold, an order of
#'   magnitude, as columns measured in different units do, and always for a data frame
#'   with categorical columns (their weight assumes standardized numeric columns);
#'   otherwise the data keep their units, in which the groups' geometry is the data's own.
#'   `strategy$scaled` and `strategy$spread_ratio` say what was done, and `print()` says
#'   so where "auto" standardized. On the field's benchmark suite the sets in one unit (its 2- and 3-column sets)
#'   stay within 7.3-fold and those in mixed units reach 52 to 213,920-fold; standardizing
#'   every set instead changed the geometric ones as another seed would, losing as often
#'   as winning (`bench/README.md`, "Columns in different units"). `scale = FALSE` keeps
#'   the units, `TRUE` always standardizes.
#'
#' @section Large data: From 5,000 rows (of those it trains on) `select_size()` trains
#'   with `algorithm = "batch"` unless `...` names the algorithm: a batch pass costs each
#'   row once, and at these sizes its groups are as good as the online rule's (on the
#'   field's benchmark suite: see the README). With more rows than `sample_rows` (10,000
#'   by default), the rule runs on a random sample of that many rows (drawn from `seed`):
#'   the replicates, `fit` and the groups, trained in batch; then
#'   every row of `y` joins its group (its winner on the grouping map, then the groups'
#'   most probable one), a block of rows at a time, so that `partition` covers every row
#'   and `group_table` counts them. `y` may be a file-backed `bigmemory::big.matrix` (or
#'   its descriptor): the sample is read from the file and the rows are assigned block by
#'   block, never all in memory. `strategy` in the result says what was done. Measured
#'   beside mclust and the gap statistic from 1e4 to 1e6 rows, and 1e7 from a file
#'   (`bench/bench_select_scale.R`; see the README).
#'
#' @param y The data, as for [train()]: a data frame's categorical columns too (see
#'   "Groups").
#' @param sizes Ring sizes to compare (at least two); or give `nmin` and `nmax` in `...`.
#' @param restarts Maps per size of `fit`, the fit on all rows (the kept one has the
#'   lowest qe); the replicates train one per size (see "Replicates").
#' @param bootstrap The most replicates (at least 2); they stop once the groups'
#'   stability readings settle (see "Replicates").
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
#' @param shape `"auto"` (Gaussian groups, or groups of any shape where those fit the data
#'   better: see "Groups of any shape", "Groups apart" and "Groups told their number"; for data with
#'   categorical columns the Gaussian groups with their latent-class terms, as the levels of
#'   a categorical column part the rows by gaps that border no group), `"gaussian"` or
#'   `"connected"`.
#' @param groups `NULL` (the default: choose the number of groups), or the number of groups
#'   to find, a whole number from 1 to the largest size compared: see "Groups told their
#'   number".
#' @param noise `TRUE` to leave the rows far from any group's dense part in no group (`NA`
#'   in `partition`): see "Rows in no group".
#' @param scale `"auto"` (the default): standardize the columns (as [train()]'s
#'   `scale = TRUE`) when their standard deviations differ more than 10-fold, as columns in
#'   different units do, or when `y` has categorical columns; else keep the data's units.
#'   Or as for [train()]: `TRUE`, `FALSE` (the data as they are), or a list of centres and
#'   scales. See "Columns in different units".
#' @param ... For `select_size()`, further arguments to [train()] (`iter_max`, `algorithm`,
#'   `var_weights`, `backend`, `threads`, `nmin`, `nmax`, `keep_data` (for `fit`),
#'   ...); for `plot()`, graphical parameters (`main`, a title over the three panels; `col`,
#'   `pch`, `cex`, `lwd`, `lty`, `xlab`, ...); for `print()`, ignored.
#' @param x A `somgpu_selection` (for print and plot).
#' @return A list of class `somgpu_selection`: `criteria`, a data frame with one row per
#'   size (`size`, `train_qe`, `heldout_qe`, `heldout_qe_se`, `te`, `explained_var` (means
#'   over the replicates), `stability`, `stability_lo`, `stability_hi`, `occupied`
#'   (neurons with rows in `fit`), `davies_bouldin`, `calinski_harabasz`); `groups`, the
#'   number of groups in the data (1: none; k when told `groups = k`); `recommended`, a size or `NA`; `reason`, what
#'   was found, in words (ending, where the groups' stability weighted by their rows is
#'   under 0.75, where fpc::clusterboot's groups read as stable, with a word that they may
#'   be pieces of rows holding no such groups: a Gaussian mixture cuts a flat density
#'   into pieces); `partition`, each row's group (`NA` for rows left out, and with
#'   `noise = TRUE` for rows in no group); `noise`, with `noise = TRUE`, the rows in no
#'   group (else `NULL`);
#'   `group_table`, a data frame with a row per group (`group`, `rows`, `stability`,
#'   `reading`); `grouping`, how the groups were found (`kind`: absent for Gaussian
#'   groups, `"connected"` or `"rows"`; `size`, the map; `family`, the
#'   shape; `criterion`; `scores`, the criterion of every candidate by shape and number of
#'   groups; `neurons`, each neuron's group; `par`, the mixture's proportions, means and
#'   covariances in the space the maps trained in; `occupied`; where the fine ring was
#'   trained, `crossing` (its crossing share per number of groups), `gaussian_crossing`
#'   and `gaussian_steadiness` (the Gaussian groups' share and, where the shares would
#'   switch, their row-weighted stability; else `NA`), `connected_gap` (where the shares
#'   and the stability would switch, the connected groups' narrowest cut in the rows' tree;
#'   else `NA`); for groups apart `apart`, for groups
#'   parted by sparse rows `dense`,
#'   told their number `told`; see the sections above); `replicates`, a data frame
#'   with one row per replicate and size (`size`, `replicate`, `train_qe`, `heldout_qe`,
#'   `stability`); `reruns`, with `parallel = "future"`, the replicates run again after
#'   their worker was lost (`replicate`, `attempt`, `reason`; see [train()], "Parallel
#'   computing with future"); `fit`, the fit on all rows (on the sample, when the rows were
#'   sampled: a [train()] result); `strategy` (`rows`, the rows trained on; `n`; `sampled`;
#'   `algorithm`; `dropped`, the rows of those left out for missing values; `scaled`,
#'   whether the columns were standardized; `spread_ratio`, their spreads' ratio where
#'   `scale = "auto"` read it, else `NA`; `text`); `groups_file` (the path the groups went
#'   to, or `NULL`); `seed`,
#'   `bootstrap` (the replicates run), `holdout`, `sigma0`, `elapsed` (seconds).
#' @seealso [train()], [summary.somgpu()], [tidy.somgpu_selection()]
#' @examples
#' set.seed(1)
#' centres <- matrix(c(0, 0, 0, 4, 0, 0, 0, 4, 0, 4, 4, 0), ncol = 3, byrow = TRUE)
#' y <- centres[rep(1:4, each = 50), ] + matrix(rnorm(600, sd = 0.5), ncol = 3)
#' sel <- select_size(y, sizes = 2:7, restarts = 2, bootstrap = 6, iter_max = 30,
#'                    seed = 1, threads = 2)
#' sel
#' plot(sel)
#' @export
select_size <- function(y, sizes = 2:20, restarts = 4, bootstrap = 20, holdout = 0.2,
                        seed = NULL, sigma0 = "auto", progress = interactive(),
                        parallel = "none", sample_rows = "auto", groups_file = NULL, ...,
                        shape = "auto", groups = NULL, noise = FALSE, scale = "auto") {
  call <- compact_call(sys.call(), "select_size")
  started <- proc.time()[["elapsed"]]
  matched <- match.call()
  file <- is_file_data(y)
  data <- encoded_data(y, call) # a data frame's categorical columns (encode.R)
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
  shape_asked <- check_choice(shape, "shape", c("auto", "gaussian", "connected"), call)
  # categorical columns: their levels part the rows by gaps that border no group (the
  # rules that need shape "auto" record it in `decisions`)
  shape <- if (shape_asked == "auto" && !is.null(data$encoding)) "gaussian" else shape_asked
  if (!is.null(groups)) groups <- check_groups(groups, max(sizes), call)
  noise <- check_flag(noise, "noise", call)
  # at scale, the rule on a sample of the rows (R/select_scale.R), trained in batch unless
  # the call says otherwise; every row given its group at the end
  sample <- select_sample(n_all, sample_rows, seed, call)
  x <- if (!is.null(sample)) rows_at(data$x, sample) else
    if (file) rows_at(data$x, seq_len(n_all)) else data$x
  n <- nrow(x)
  # from "batch_rows" rows, batch training: a pass costs the rows once, not once per
  # neuron update, and at these sizes its groups are as good (R/tuning.R)
  if ((!is.null(sample) || n >= tuned("batch_rows")) && is.null(dots$algorithm)) dots$algorithm <- "batch"
  # columns in different units standardized (R/select_units.R)
  scaling <- select_scaling(scale, x, data$encoding, call)
  dots$scale <- scaling$scale
  progress <- check_flag(progress, "progress", call)
  parallel <- check_choice(parallel, "parallel", c("none", "future"), call)
  if (parallel == "future") {
    need_packages(c("future", "future.apply"), "parallel = \"future\"", call)
  }
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
  strategy <- select_strategy(n_all, sample, full$params$algorithm, length(full$dropped),
                              scaling, !is.null(full$scaling))
  top <- full$clusters[[paste0("N", max(sizes))]]
  settings <- list(shape = shape, shape_asked = shape_asked, k_max = max(sizes), told = groups,
                   noise = noise, seed = seed, args = args)
  gaussian <- if (is.null(groups)) fit_grouping(full, x, top)
  inputs_of <- function(reps, work) new_rule_inputs(x, full, top, gaussian, reps, work, settings)
  # the rules (R/rules.R): told the number of groups, now (the replicates then look for
  # those groups); else after the first round of replicates, which the rules ask how steady
  # the Gaussian groups are
  decided <- if (!is.null(groups)) run_rules(inputs_of(NULL, NULL))
  same <- if (is.null(decided)) replicate_spec(gaussian) else replicate_spec(decided$grouping)
  # the replicates' rows, from the seed, leaving the session's generator alone; held out and
  # drawn among the rows the fit trained on (those left out for missing values would be
  # left out again), so that every replicate trains on as many rows and they share one call
  usable <- setdiff(seq_len(n), full$dropped)
  if (length(usable) - n_out < 2L) {
    abort_input(sprintf("`holdout` leaves fewer than 2 rows with enough values to train on (%d of the %d rows have them).",
                        length(usable), n), call)
  }
  work <- with_private_seed(seed, lapply(seq_len(bootstrap), function(b) {
    out <- if (n_out > 0L) sort(usable[sample.int(length(usable), n_out)]) else integer(0)
    inside <- setdiff(usable, out)
    list(b = b, train = inside[sample.int(length(inside), length(inside), replace = TRUE)],
         out = out, seed = (seed + b) %% int_max, same = same, keep_fit = is.null(decided))
  }))
  # the replicates in rounds, until the groups' stability readings settle (readings_settled())
  rargs <- replicate_args(args, full, parallel)
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
  found <- selection_criteria(reps, full, x)
  # rows that belong to no group (with noise = TRUE): NA in the partition, out of the table
  decided <- run_noise(inputs_of(reps, work[done]), decided)
  grouping <- decided$grouping
  pick <- recommend_size(grouping, found$criteria$size, decisions = decided$decisions,
                         dropped_all = length(full$dropped) == n)
  pick$reason <- paste0(pick$reason, weak_groups_words(table))
  noise_count <- if (!is.null(grouping$noise)) grouping$noise$rows
  if (!is.null(noise_count)) table$rows <- tabulate(grouping$partition, grouping$groups)
  partition <- if (!is.null(grouping)) grouping$partition
  if (!is.null(grouping) && (!is.null(sample) || !is.null(groups_file))) {
    # every row (to the groups file when asked), and each group's rows among them
    to <- clusters_file_matrix(groups_file, n_all, "group", call, "groups_file")
    every <- with_clusters_file(to, groups_of_rows(grouping, full, data$x, n_all,
                                                   dots$threads, to))
    partition <- every$partition
    table$rows <- every$rows
    noise_count <- every$noise
  }
  new_selection(call = matched, criteria = found$criteria, groups = pick$groups,
                recommended = pick$size, reason = pick$reason, partition = partition,
                group_table = table, noise_rows = if (noise && !is.null(grouping)) noise_count,
                grouping = grouping, decisions = decided$decisions, strategy = strategy,
                groups_file = if (!is.null(grouping)) groups_file,
                replicates = found$replicates, reruns = reruns, fit = full,
                shape = shape, scale = scaling$scale, noise = noise, seed = seed,
                bootstrap = length(reps), holdout = holdout, sigma0 = sigma0,
                elapsed = proc.time()[["elapsed"]] - started)
}

#' Groups of new rows
#'
#' Gives each row of `newdata` its group among those [select_size()] found, as the
#' selection's own rows got theirs: its winner on the grouping map (the selection's
#' largest ring, or the fine ring of connected groups), then the group of highest
#' posterior under the groups' Gaussian mixture (see [select_size()], "Groups"), its
#' winner's group (connected groups, "Groups of any shape") or its nearest grouped row's
#' (connected groups told their number); with `noise = TRUE`, `NA` for a row far from its
#' group's dense part ("Rows in no group"). File-backed rows are read a block at a time.
#'
#' @param object A `somgpu_selection` from [select_size()].
#' @param newdata The rows, as for [predict.somgpu()]: a data frame, a matrix, a named
#'   numeric vector, or a file-backed `bigmemory::big.matrix`; columns taken by name.
#' @param threads Number of CPU threads; `NULL` uses [somgpu_threads()].
#' @param ... Not used: an argument these methods do not take is an error that names it
#'   (and the nearest argument they do take).
#' @return An integer vector, a group (1, 2, ...) per row of `newdata`; `NA` for rows
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
  if (missing(newdata)) {
    abort_input("predict() of a selection needs `newdata`, the rows to give groups to (its own rows' groups are in `partition`).", call)
  }
  fit <- object$fit
  x <- newdata_matrix(newdata, fit, call)
  if (is.null(object$grouping) || nrow(x) == 0L) return(rep(NA_integer_, nrow(x)))
  groups_of_rows(object$grouping, fit, x, nrow(x), threads)$partition
}
