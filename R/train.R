#' Train a family of ring self-organizing maps
#'
#' Trains one-dimensional ring self-organizing maps (SOMs) of every requested size on the
#' same data and returns, for each size, the trained weights and the cluster of every row.
#' The maps are independent and are trained in parallel.
#'
#' The defaults reproduce the original online algorithm: for each size N the weights start
#' as `U(0, 1) - 0.5`; each of the `iter_max - 1` passes `t = 1, ..., iter_max - 1` (the
#' original script's pass counter `iterCount`) visits the rows in a fresh random
#' order with `sigma_t = sigma0 - sigma0 / (iter_max + 1) * t` and
#' `eta_t = eta0 - eta0 / (iter_max + 1) * t`; for every row `x` the winner is
#' `c = argmin_j ||x - W_j||^2` (ties go to the lowest neuron) and every neuron moves
#' `W_j <- W_j + eta_t * exp(-d_j^2 / (2 sigma_t^2)) * (x - W_j)`, where `d_j` is the ring
#' distance between `c` and `j`. Each row's cluster is its winner with the final weights.
#'
#' @section Neighbourhood schedule: `sigma_t` falls linearly from `sigma0` to nearly 0 over
#'   the passes. The original script starts every ring at `sigma0 = 5`, the default: for a
#'   ring of a few neurons the neighbourhood then spans the whole ring for most of the
#'   passes, the ring unfolds late, and on k separated groups a ring of k neurons often ends
#'   with a neuron between two groups and a group split. `sigma0 = "auto"` starts a ring of
#'   N neurons at `N / 8`: the neighbourhood falls to `exp(-2)` (0.14) a quarter of the
#'   ring away from the winner, whatever N, so small rings settle on the groups while large
#'   rings still order themselves (kohonen's default radius, two thirds of the largest
#'   distance, is `N / 3` on a ring). On 35 data sets of k = 2 to 8 Gaussian groups
#'   (`bench/bench_schedule.R`), rings of N = k neurons found the k groups in 92% of the
#'   maps with `"auto"`, against 79% with `sigma0 = 5` and 85% with `N / 3`; on data
#'   along a loop, rings of 5 to 40 neurons follow it (topographic error 0) as with
#'   `sigma0 = 5`, where a fixed `sigma0 = 1` twists the ring of 40. Maps of equal width
#'   share their factors; every backend, algorithm and precision gives the same bits for a
#'   schedule as for the same widths given one size at a time.
#'
#' @section Missing values, scaling and variable weights: Missing values (`NA`, `NaN`) are
#'   allowed; infinite ones are not. A row's distance to a neuron is taken over its observed
#'   columns and rescaled to all of them,
#'   `d(x, W_j) = (m / m_obs(x)) * sum over observed k of v_k (x_k - W_jk)^2` (`m` columns,
#'   `m_obs(x)` of them observed in `x`, `v` the variable weights, 1 by default); the winner
#'   is the nearest neuron as usual (the rescaling does not change it) and the online rule
#'   moves only the observed columns, `W_jk <- W_jk + eta_t h (x_k - W_jk)`. The batch rule
#'   takes its sums and denominators column by column over the rows where the column is
#'   observed (a neuron's column with a zero denominator keeps its value). A row's qe is
#'   `sqrt(d(x, W_c))`; the explained variance is taken over the observed cells. Rows
#'   missing more than `na_max` of their values, and rows with no observed value, are left
#'   out of training: their clusters are `NA` and their row numbers are in `fit$dropped`.
#'   `init = "sample"` fills a drawn row's missing values with the column means over the
#'   observed values; `init = "pca"` and `align = TRUE` use the principal components of the
#'   observed values' pairwise covariances. Data without missing values take exactly the
#'   path they took before missing values were allowed: the same results, bit for bit.
#'
#'   `scale = TRUE` centres each column on its mean and divides it by its standard deviation
#'   (over the observed values, as [scale()] computes them; a column without spread is
#'   divided by 1); a list gives the centres and scales. The maps train on the scaled data;
#'   `fit$weights` are reported in the data's own units, `fit$scaling` keeps the centres and
#'   scales, and [predict.somgpu()], [plot.somgpu()] and [as_kohonen()] apply them.
#'   `var_weights` multiply each column's term of the distance in training, in the quality
#'   figures and in [predict.somgpu()]: a weight of 4 on a column gives the maps that
#'   doubling that column (and its initial weights) gives.
#'
#' @section Reproducibility: All random numbers (initial weights, rows drawn by
#'   `init = "sample"`, the visiting order of every pass) come from counter-based streams
#'   (Philox4x32-10) keyed by `(seed, size, restart)`. A map therefore does not depend on the
#'   other maps trained in the same call, on `threads`, or on scheduling:
#'   `train(y, sizes = 7, seed = 3)$weights$N7` equals `train(y, nmax = 10, seed = 3)$weights$N7`.
#'   With `seed = NULL` the seed is drawn from R's generator, so [set.seed()] makes runs
#'   reproducible; the seed used is stored in the result.
#'
#' @section Interrupting: A long run stops within about a second of an interrupt (Ctrl-C or
#'   the Stop button), releases everything it held (OpenCL buffers included), signals a
#'   condition of class `somgpu_interrupt` and `interrupt`, and returns to the top level as
#'   an interrupt does. R's own interrupts and limits outside a run, and a time limit set
#'   with [setTimeLimit()], pass through unchanged, as R's conditions (not
#'   `somgpu_error`s): the limit stops a run within about a second, releasing everything.
#'
#' @section Backends: `backend = "cpu"` trains on the CPU with `threads` threads (OpenMP:
#'   online, the maps in parallel, largest first, rings of up to 48 neurons (8 beyond 64
#'   columns) side by side in the lanes of a vector register; batch, the rows in parallel,
#'   each block of rows read once for all maps), in double or single precision. `backend = "opencl"` trains every
#'   map at once on
#'   an OpenCL device: small maps with one work-item each, large maps (from 32 neurons on a
#'   GPU, 512 on a CPU device) with a work-group each. The first OpenCL call of a session
#'   builds the kernels for the device and precision (about a second or two with PoCL); later
#'   calls reuse them. Batch training keeps the data on the device, in chunks that each fit
#'   one buffer, or uploads them chunk by chunk when they do not fit. In double precision the
#'   OpenCL results equal the CPU backend's. In single precision (either backend) the maps
#'   are the same as in double up to rounding and the ring's arbitrary labelling: the online
#'   rule is sensitive to rounding early on (even a 1e-15 change of the data can rotate or
#'   mirror a ring's labels), so compare quality, not labels, across precisions.
#'
#' @section Options: `somgpu.threads` (see [somgpu_threads()]); for the OpenCL backend
#'   `somgpu.opencl_kernel` (`"auto"`, `"item"` or `"group"`),
#'   `somgpu.opencl_group_min_size` (the size from which `"auto"` uses a work-group per map),
#'   `somgpu.opencl_group_local` (`FALSE` keeps the work-group kernel's weights in global
#'   memory), `somgpu.opencl_max_alloc` (bytes: a cap on any single device buffer) and
#'   `somgpu.opencl_launch_seconds` (target length of one kernel launch, 0.2),
#'   `somgpu.opencl_stream_data` (`TRUE`: batch training uploads the data chunk by chunk
#'   every pass, as it does when they do not fit on the device), `somgpu.opencl_local_mem`
#'   (bytes of local memory the kernels may use, below the device's; 1: none, so the
#'   work-group kernel and the batch winner search keep weights in global memory; what
#'   `tools/device-check.sh` times both ways); and `somgpu.max_memory`
#'   (bytes a call may plan to use; default: the machine's memory). None of them changes the
#'   results. `somgpu.batch_block` (rows per block of the batch sums, 4096) does, in the last
#'   bits: it fixes the order in which the batch algorithm adds rows, on every backend.
#'   The CPU backend's kernels are compiled for AVX-512, AVX2 and the portable baseline,
#'   and run the widest the processor has (`backends()` names it); the environment variable
#'   `SOMGPU_ISA` (`"avx2"` or `"portable"`), read when the package loads, caps it. Every
#'   version gives the same bits.
#'
#' @section Parallel computing with future: With `parallel = "future"` the maps (one per
#'   size and restart) are split into one chunk per worker of the current [future::plan()],
#'   balanced by size (a map costs about its number of neurons), and trained as a future
#'   each, as many at a time as the plan has workers: `plan(multisession)` on this machine,
#'   `plan(cluster, workers = c("host1", "host2"))` on several hosts, or a job scheduler
#'   through future.batchtools (one chunk per worker of the plan: for
#'   `batchtools_slurm`, its `workers`, 100 by default, each chunk one job). Each future
#'   receives the data and its own maps' initial weights (`future.globals.maxSize` is raised
#'   for the call to let them travel). somgpu must be installed on the workers. Each worker
#'   resolves `backend`, `device` and `precision` on its own machine (`"auto"` takes a
#'   worker's GPU when it has one) and uses `threads` threads; by default the smaller of the
#'   worker's own [somgpu_threads()] and what [parallelly::availableCores()] grants it (one
#'   for multisession workers sharing a machine; all of a host's cores for a cluster
#'   worker). The maps are the ones `parallel = "none"` gives with the same seed, whatever
#'   the plan and the chunking (in double precision); the main process then assesses them.
#'   `fit$backend$workers` lists what ran where. A worker that fails gives one
#'   `somgpu_worker_error` naming the sizes it held, with the worker's own error as
#'   `parent`, every failure in `failures` and the maps the other workers finished in
#'   `weights` (a list in the order of `fit$quality`, `NULL` for maps not trained), and no
#'   chunk not yet started starts. A chunk whose worker is lost (a process that died, a
#'   scheduler's job cancelled or killed) runs again on a live worker, up to
#'   `getOption("somgpu.future_retries", 2)` times (a multisession or cluster plan's
#'   workers are started anew first: future does not replace a dead one); every map has its
#'   own random streams, so the maps are the same bits, and `fit$backend$reruns` lists what
#'   ran again (piece, attempt, reason, sizes). When the retries are spent, a
#'   `somgpu_worker_error` names the sizes lost. Leaving early (an error, an interrupt)
#'   cancels a scheduler's jobs still queued or running (future.batchtools); a
#'   multisession worker finishes its chunk, whose result is dropped. Progress is
#'   signalled through progressr (when it is installed; shown where progressr's handlers
#'   are enabled, e.g. by [progressr::with_progress()]) unless `progress = FALSE`.
#'
#' @section Data frames with categorical columns: A data frame's factor, ordered, logical
#'   and character columns are categorical (a character column is taken as a factor, its
#'   levels sorted as [factor()] sorts them, said once per session; an ordered factor's
#'   order is not used; a logical column without any observed value stays an empty numeric
#'   one). The maps see numbers only: a categorical column with L levels (those observed;
#'   unused levels are dropped; more than 100 levels, or more than 20 that are all
#'   different, a level per observed value, is refused as an identifier or free text,
#'   while up to 20 unique values, as 15 identifiers in 15 rows, are taken as levels)
#'   becomes L indicator columns named `column=level`, 1 where the row has the level and 0
#'   elsewhere, and a missing value is missing in all L of them (the rule of "Missing
#'   values", which counts the L columns, in `na_max` as in the distance's rescaling).
#'   The weighting rule: a mismatch costs 2 in the squared distance, what two rows drawn
#'   at random differ by on average on a numeric column of unit variance, so that where two
#'   rows differ a categorical column weighs as much as one standardized numeric column
#'   (between rows drawn at random it weighs `1 - sum(p^2)` of one, `p` its levels' shares).
#'   The rule assumes standardized numeric columns: pass `scale = TRUE` (it never changes
#'   the indicators; as a list it gives the numeric columns' centres and scales, by name).
#'   `var_weights` give one weight per column of the data frame, by name or in order; a
#'   categorical column's weighs each of its indicators. The fit keeps the encoding
#'   (`encoding`): `weights` have for each categorical column a column per level,
#'   `column=level`, each neuron's share of that level (its weight on the indicator: a
#'   weighted mean of 0s and 1s, in \[0, 1\] and summing to 1 over the levels, up to
#'   traces of the initial weights); `data` holds the indicator columns;
#'   [predict.somgpu()] takes new rows as a data frame with the user's columns (a level the
#'   fit has not seen is an error); [tidy.somgpu()] and [augment.somgpu()] speak the user's
#'   columns, `plot(fit, "profiles")` draws each categorical column's level shares as bars,
#'   [as_kohonen()] gives it a layer of its own, and [select_size()]'s groups give each
#'   group its levels' probabilities. Data without categorical columns take exactly the
#'   path they took before: the same results, bit for bit.
#'
#' @section Data: Row names of `y` (unique ones) carry over to `clusters`. Values must be
#'   finite and of a magnitude whose squared distances neither overflow nor vanish (between
#'   about 1e-140 and 1e150 in absolute value; in single precision about 1e-15 to 1e18):
#'   rescale the data otherwise, e.g. with [scale()].
#'
#' @param y A numeric matrix, a data frame (or tibble) of numeric, factor, logical or
#'   character columns (see "Data frames with categorical columns"), or a numeric vector
#'   (one column). Rows are points. Missing values (`NA`, `NaN`) are allowed, infinite
#'   values are not, nor a column without any observed value (drop it); it is never
#'   modified. Columns without a name, or with a name repeated, are named as
#'   [data.frame()] would (`V2`; `a.1`), with a message, so that [predict.somgpu()] finds
#'   them by name. A matrix without column names has its columns called `V1`, `V2`, ...
#'   in the fit (weights, [tidy.somgpu()], [augment.somgpu()]; a message once per
#'   session), and [predict.somgpu()] takes new rows' columns by position, or by those
#'   names; new rows with other names are refused, never matched by position. `integer64` columns (bit64) are taken as doubles when bit64 is
#'   installed. For data beyond memory, a file-backed
#'   `bigmemory::big.matrix` (or its descriptor) of type `"double"` or `"integer"`: see the
#'   section "Data beyond memory".
#' @param nmax,nmin The largest and smallest ring size: sizes `nmin:nmax` are trained.
#' @param sizes Ring sizes (numbers of neurons, each at least 2) to train, instead of
#'   `nmin:nmax`. Results keep this order.
#' @param iter_max The schedule length: `iter_max - 1` passes over the data (`1`: none, the
#'   initial weights, said in a message). `NULL` (the
#'   default): 150 online (the original script's 149 passes), 76 batch (75 passes, half the
#'   time: the batch rule moves every neuron to the mean of its neighbourhood each pass, and
#'   with the same schedule its maps end within 0.2% to 1.4% of 149 passes' quantization
#'   error on average over the sizes of four data sets, 8% at worst for one size;
#'   `bench/bench_batch_passes.R`).
#' @param sigma0 Initial width of the Gaussian neighbourhood: one positive number for every
#'   size (the original script's 5 by default), one per size (in the order of `sizes`), or
#'   `"auto"`, a width scaled to each ring: `N / 8` for a ring of N neurons (see
#'   "Neighbourhood schedule"; [select_size()]'s default).
#' @param eta0 Initial learning rate, in (0, 1].
#' @param init Initial weights: `"uniform"` (`U(0, 1) - 0.5`, the original script's),
#'   `"sample"` (distinct random rows of `y`), `"pca"` (each ring on the ellipse of the data's
#'   first two principal components, one standard deviation along each; deterministic), a
#'   list of matrices, one per size in the order of `sizes`, each `size x ncol(y)` in the
#'   data's units (scaled like the data with `scale`), used exactly; or a fit from
#'   `train()`: training continues from its weights for the sizes it has (the other sizes
#'   start from `"uniform"`). To fine-tune a fit on new or more data, continue it with a
#'   small neighbourhood and learning rate, e.g.
#'   `train(y, sizes = fit$params$sizes, init = fit, sigma0 = 0.5, eta0 = 0.05)`.
#' @param restarts Number of maps per size, each with its own random streams. `weights` and
#'   `clusters` keep, per size, the restart with the lowest quantization error. With a
#'   user-supplied `init` all restarts of a size start from the same matrix and differ only
#'   in their visiting orders.
#' @param algorithm `"online"` (the original script's rule, point after point) or `"batch"`
#'   (each pass assigns every row to its winner with the current weights, then sets
#'   `W_j = sum_i h_t(d(c_i, j)) x_i / sum_i h_t(d(c_i, j))` with
#'   `h_t(d) = exp(-d^2 / (2 sigma_t^2))`, the same `sigma_t` schedule and no learning rate;
#'   a neuron whose denominator is zero keeps its weights). Batch is parallel over rows: the
#'   algorithm of choice for large data. `eta0` does not apply to it. Its sums are taken in
#'   blocks of rows (each in row order) and the blocks added pairwise, as a binary tree in
#'   block order, so the maps are the same whatever the threads, backend (in double
#'   precision) or future workers.
#' @param seed `NULL` (draw one from R's random number generator) or a whole number.
#' @param backend `"auto"`, `"cpu"` or `"opencl"`. `"auto"` uses an OpenCL GPU or accelerator
#'   that supports `precision` when there is one and the job is big enough for it, else the
#'   CPU backend (an OpenCL CPU device, such as PoCL's, is slower than the CPU backend on the
#'   same cores). Big enough: the CPU backend would take at least
#'   `getOption("somgpu.auto_gpu_seconds", 1)` seconds by its estimate (passes x rows x
#'   (sum of sizes x (columns + 1) + 16 per map) work units at 3e9 units per second per
#'   thread, what the benchmarks measure on a 2-core AMD EPYC), and online training has at
#'   least `getOption("somgpu.auto_gpu_maps", 32)` maps: a GPU trains an online family's
#'   maps side by side but each map's points in order, so a few small rings train faster on
#'   the CPU (the seed case, 9 maps, takes about 0.02 s there). Set the option to 0 (or 1
#'   map) to take the GPU whenever there is one. The fit records what ran. See
#'   [backends()] and [devices()].
#' @param device The OpenCL device: `NULL` (the best one), an index or a pattern matching a
#'   name in [devices()].
#' @param precision `"double"` or `"single"` (faster: about twice the values per vector on
#'   the CPU, more on most GPUs). In double precision the OpenCL backend gives the CPU
#'   backend's results, bit for bit. In single precision (data, weights, factors and sums in
#'   float, on either backend) the maps are those of double precision up to rounding and
#'   the ring's labelling: a row near a tie between neurons may go the other way.
#' @param threads Number of CPU threads (training on the CPU backend; assessing the maps on
#'   both); `NULL` uses [somgpu_threads()]. Results do not depend on it.
#' @param progress Show a progress bar (cli's) on long runs. With `parallel = "future"`,
#'   progress is signalled through progressr unless `progress = FALSE`, whatever
#'   [interactive()] says (progressr decides whether to show it).
#' @param trace Record the quantization error of every map after every pass (`fit$trace`;
#'   costs about one more pass over the data per pass, computed where the maps train).
#' @param align Relabel each ring so that labels are comparable across sizes: label 1 is the
#'   neuron lowest on the data's first principal component, and labels run towards its
#'   lower neighbour. Applied to `weights` and `clusters` alike. `FALSE` keeps the labels
#'   training produced (the original script's).
#' @param keep_data Keep the data in the fit (`fit$data`; no copy when `y` is a double
#'   matrix), for [plot.somgpu()] and [as_kohonen()].
#' @param parallel `"none"` (train in this R process) or `"future"` (spread the maps over
#'   the workers of the current [future::plan()]; needs the future and future.apply
#'   packages). See the section "Parallel computing with future".
#' @param na_max Rows whose share of missing values exceeds this (from 0 to 1), and rows
#'   with no observed value, are left out of training (see "Missing values, scaling and
#'   variable weights").
#' @param scale `FALSE` (the data as they are), `TRUE` (centre and scale every column), or a
#'   list with `center` and `scale`, one value per column (by name or in column order).
#' @param var_weights `NULL` (every column counts 1) or non-negative weights, one per column
#'   (by name or in column order), that multiply each column's term of the distance.
#' @param clusters_file `NULL` (the clusters in `fit$clusters`, a data frame), or for
#'   file-backed `y` a path where no file is yet: the clusters go to a new file-backed
#'   integer `big.matrix` there (its descriptor beside it, the path plus `".desc"`), one
#'   column per size (the stability across restarts is then not measured: `NA`).
#'   `fit$clusters` then holds the file's absolute path, not the big.matrix (whose pointer
#'   would not survive [saveRDS()]): it reads like a matrix (`dim()`, `fit$clusters[i, j]`,
#'   `fit$clusters$N3`, `head()`, `as.matrix()`), attaching the file from its descriptor
#'   on first use in any session, and [as_big_matrix()] gives the big.matrix. The path is
#'   also in `fit$params$clusters_file`; when the files are gone, a classed error
#'   (`somgpu_file_error`) says so.
#' @param ... Nothing: an argument `train()` does not take is an error that names it and
#'   suggests the nearest one (`algoritm` -> `algorithm`).
#'
#' @section Data beyond memory: `y` may be a file-backed `bigmemory::big.matrix` (or its
#'   descriptor, e.g. from [bigmemory::describe()]), for data of more rows than R's memory
#'   holds (up to 2^31 - 1). Training then reads the backing file a window of rows at a
#'   time (about 16 MB; never the whole file), with `algorithm = "batch"` on the CPU or the
#'   OpenCL backend, and gives the same maps, bit for bit, as training on the same values in
#'   memory (`as.matrix(y)`), as do the assessment, `scale = TRUE` (two passes over the file
#'   for the column statistics), `init = "sample"` and `var_weights`. Each training pass
#'   reads the file once (twice with `trace = TRUE`); the scan of the values, the
#'   assessment and the total sum of squares add a few passes (the operating system caches
#'   what fits). Missing values are
#'   allowed, but rows to leave out (see `na_max`) are refused: drop them from the file.
#'   `init = "pca"` and `align = TRUE` need the data in memory. The fit keeps no data
#'   (`fit$data` is `NULL`): predict new rows with [predict.somgpu()], which also reads
#'   file-backed `newdata` in windows.
#'
#'   With `parallel = "future"`, batch training on a file-backed `y` is data-parallel: the
#'   backing file must be readable by every worker at the same path (a shared file
#'   system, or the same machine). The rows are cut into blocks of
#'   `getOption("somgpu.batch_block", 4096)` rows and the blocks into one range per worker,
#'   of equal length to within a block. Each pass, every worker sums its rows for every map
#'   and sends back those sums as the nodes of the pairwise sums its range holds (at most
#'   about twice the logarithm of its blocks; `size x (ncol(y) + 1)` numbers per map and
#'   node, `size x 2 ncol(y)` with missing values or `var_weights`); the main process adds
#'   them as one process adds its blocks and ends the pass. The data never travel: a pass
#'   costs one round trip to the workers (`fit$backend$bytes_per_pass`: what it sends and
#'   gets back). The maps are those of one process, bit for bit, whatever the number of
#'   workers; a range whose worker is lost is summed again at the same pass
#'   (`fit$backend$reruns` names the pass and the blocks). Workers run the CPU backend.
#'   Where the workers persist (`plan(multisession)`, `plan(cluster)`, workers started by
#'   `srun`), each reads its rows from the file once and holds them in memory for every
#'   pass, if they take at most half the memory it has available; they are let go when
#'   the fit ends, also after an error or an interrupt. `options(somgpu.hold_shards =
#'   FALSE)` makes every pass read the file, `TRUE` holds the rows whatever the memory;
#'   `fit$backend$workers$held` and `$reads` say what each did.
#'
#'   A piece of work whose worker is lost is said in a message (class
#'   `somgpu_worker_lost`). A worker of a cluster you made yourself (`plan(cluster,
#'   workers = cl)`) that is lost is left out for the rest of the fit, which goes on with
#'   the others; your plan is as you set it when the call returns (start the lost worker
#'   anew before the next fit).
#'
#' @return An object of class `somgpu`, a list with
#'   \describe{
#'     \item{`weights`}{a named list (`N2`, `N3`, ...) of `size x ncol(y)` weight matrices,
#'       with the column names of `y`, in the data's units (a categorical column: a column
#'       per level, `column=level`, the neuron's share of the level).}
#'     \item{`clusters`}{a data frame with one integer column per size (`N2`, `N3`, ...):
#'       the neuron (1..N) each row of `y` belongs to (`NA` for rows left out).}
#'     \item{`quality`}{a data frame with one row per size and restart: `size`, `restart`,
#'       `qe` (mean Euclidean distance of the rows to their winning neuron), `te`
#'       (topographic error: share of rows whose best and second-best neurons are not
#'       neighbours on the ring), `explained_var` (1 - the sum of squared distances to the
#'       winners / the total sum of squares) and `best` (the restart kept).}
#'     \item{`stability`}{a data frame with one row per size: `size` and `stability`, the mean
#'       adjusted Rand index between the clusterings of the size's restarts: every pair up
#'       to 50 restarts, beyond that each restart with the next (`NA` with one restart).}
#'     \item{`trace`}{with `trace = TRUE`, a matrix of qe, one row per pass and one column per
#'       map (`N2.1` = size 2, restart 1); else `NULL`.}
#'     \item{`backend`}{a list: `name` (`"cpu"`, `"opencl"` or `"future"`), `device`,
#'       `precision`, `threads`; for OpenCL the device `index` and the `kernels` that ran;
#'       for future the `plan` and `workers`, a data frame of what each worker ran (host,
#'       pid, backend, device, precision, threads, maps, sizes, seconds).}
#'     \item{`seed`}{the seed used.}
#'     \item{`scaling`}{`NULL`, or the `center` and `scale` of every column the maps were
#'       trained with; then `scaled_weights` holds the weights as trained (on the scaled
#'       data, what [predict.somgpu()] compares scaled rows with).}
#'     \item{`scaled_weights`}{see `scaling`; `NULL` without scaling.}
#'     \item{`var_weights`}{the variable weights, or `NULL`.}
#'     \item{`dropped`}{the rows left out for missing values (row numbers of `y`).}
#'     \item{`params`}{the training parameters.}
#'     \item{`data`}{the data (a double matrix; categorical columns as their indicator
#'       columns) with `keep_data = TRUE`, else `NULL`.}
#'     \item{`elapsed`}{seconds spent training and assessing the maps.}
#'     \item{`call`}{the call (values too large to keep, such as data passed through
#'       [do.call()], replaced by a short description).}
#'     \item{`encoding`}{`NULL`, or for a data frame with categorical columns its encoding
#'       (class `somgpu_encoding`): the user's `columns`, each one's `type` and `levels`,
#'       the encoded columns' `names`, and for each its user `column` and `level`.}
#'   }
#'
#' @seealso [summary.somgpu()], [plot.somgpu()], [predict.somgpu()], [as_kohonen()],
#'   [backends()], [devices()], [somgpu_threads()]
#' @examples
#' set.seed(1)
#' y <- matrix(runif(600), ncol = 3)
#' fit <- train(y, nmax = 6, iter_max = 30, threads = 2)
#' fit
#' fit$weights$N4
#' table(fit$clusters$N4)
#'
#' # the same maps again, from the stored seed
#' again <- train(y, nmax = 6, iter_max = 30, seed = fit$seed, threads = 1)
#' all.equal(fit$weights, again$weights)
#'
#' # a data frame as it comes: factor columns and missing values
#' if (requireNamespace("palmerpenguins", quietly = TRUE)) {
#'   pg <- train(palmerpenguins::penguins, nmax = 6, iter_max = 30, scale = TRUE,
#'               seed = 1, threads = 2)
#'   round(pg$weights$N3, 2) # species=Adelie, ...: each neuron's share of the level
#'   predict(pg, palmerpenguins::penguins[c(1, 200, 300), ])
#' }
#'
#' # data with gaps and mixed units: scaled, gaps allowed
#' aq <- train(airquality, nmax = 5, iter_max = 30, scale = TRUE, seed = 1, threads = 2)
#' aq
#' aq$weights$N3
#' predict(aq, airquality[1:5, ], type = "detail")
#'
#' # data beyond memory: a file-backed big.matrix, read a window of rows at a time
#' if (requireNamespace("bigmemory", quietly = TRUE)) {
#'   f <- tempfile(fileext = ".bin")
#'   bm <- bigmemory::as.big.matrix(y, backingfile = basename(f), backingpath = dirname(f),
#'                                  descriptorfile = paste0(basename(f), ".desc"))
#'   big <- train(bm, nmax = 6, iter_max = 30, algorithm = "batch", seed = 1, threads = 2)
#'   mem <- train(y, nmax = 6, iter_max = 30, algorithm = "batch", seed = 1, threads = 2)
#'   identical(big$weights, mem$weights)
#' }
#' @export
train <- function(y, nmax = 10, nmin = 2, sizes = nmin:nmax, iter_max = NULL, sigma0 = 5,
                  eta0 = 1, init = "uniform", restarts = 1, algorithm = "online", seed = NULL,
                  backend = "auto", device = NULL, precision = "double", threads = NULL,
                  progress = interactive(), trace = FALSE, align = FALSE, keep_data = TRUE,
                  parallel = "none", na_max = 0.5, scale = FALSE, var_weights = NULL,
                  clusters_file = NULL, ...) {
  call <- compact_call(sys.call())
  if (...length()) {
    nm <- names(match.call(expand.dots = FALSE)$...)
    if (is.null(nm) || any(!nzchar(nm))) {
      abort_input(sprintf("train() takes %d arguments; the call has %d more, unnamed: name every argument after `y` (e.g. `nmax = 10`).",
                          length(formals(train)) - 1L, sum(if (is.null(nm)) ...length() else !nzchar(nm))),
                  call)
    }
    abort_unknown_args(nm, setdiff(names(formals(train)), "..."), "train()", call)
  }
  supplied <- c("nmin", "nmax", "sizes", "progress")[
    c(!missing(nmin), !missing(nmax), !missing(sizes), !missing(progress))]
  s <- train_setup(environment(), supplied, call)
  started <- proc.time()[["elapsed"]]
  train_result(s, train_maps(s), started)
}

# train() in three steps: the call validated, the backend resolved and the problem made
# (train_setup(): a train setup, new_train_setup()); the maps trained (train_maps());
# assessed and made a somgpu object (train_result()). args: train()'s arguments by name,
# train()'s own frame (each promise forced where its check reaches it) or a list of values
# (train_setup_of()); supplied: the names of the arguments the call wrote (those of nmin,
# nmax, sizes and progress count here: sizes is read only when supplied).
train_setup <- function(args, supplied, call) {
  # validate: the data and the rows used (not copied yet), then the arguments in the order
  # of earlier versions; the backend is resolved last, its context built (OpenCL kernels)
  # only once everything else is checked
  y <- args$y
  # file-backed data: what they cannot do, refused before any pass over the file
  if (is_file_data(y)) {
    check_file_training(check_choice(args$algorithm, "algorithm", c("online", "batch"), call),
                        args$init, args$align, call)
  }
  data <- encoded_data(y, call) # categorical columns as indicators (data_encode.R)
  x <- data$x
  sourced <- inherits(x, "somgpu_file") # file-backed: read by the compiled code in windows
  na_max <- check_number(args$na_max, "na_max", 0, 1, call = call)
  scaling <- encoded_scale(args$scale, x, data$encoding, call)
  var_weights <- encoded_var_weights(args$var_weights, x, data$encoding, call)
  rows <- data_rows(x, data, na_max, var_weights, call) # the row pipeline, 1: rows used
  n_used <- if (is.null(rows$keep)) nrow(x) else length(rows$keep)
  if (n_used < 2L) {
    abort_input(sprintf(
      "`y` has %d row%s with enough observed values (na_max = %g: at most that share missing); at least 2 are needed.",
      n_used, if (n_used == 1L) "" else "s", na_max), call)
  }
  check_observed_columns(x, rows$keep, data, call)
  general <- !is.null(rows$dist$col_w) || rows$missing
  iter_max <- args$iter_max
  if (!is.null(iter_max)) iter_max <- check_whole(iter_max, "iter_max", 1, call = call)
  eta0 <- check_positive(args$eta0, "eta0", max = 1, call = call)
  restarts <- check_whole(args$restarts, "restarts", 1, call = call)
  algorithm <- check_choice(args$algorithm, "algorithm", c("online", "batch"), call)
  if (is.null(iter_max)) iter_max <- default_iter_max(algorithm)
  if (iter_max == 1L) {
    message("train(): iter_max = 1 trains no pass (a schedule of iter_max - 1 passes): the maps are their initial weights.")
  }
  parallel <- check_choice(args$parallel, "parallel", c("none", "future"), call)
  if (sourced) check_file_rows(c(rows, na_max = na_max), data$row_missing, ncol(x), call)
  clusters_file <- check_clusters_file(args$clusters_file, sourced, call)
  if (parallel == "future") need_packages(c("future", "future.apply"), "parallel = \"future\"", call)
  batch_block <- batch_block_size(call)
  worker_threads <- args$threads # as given: each future worker resolves it (NULL: its own)
  threads <- resolve_threads(worker_threads, call)
  options <- backend_options(call) # read here, shipped to future workers
  size_spec <- check_sizes(args$nmin, args$nmax, args$sizes,
                           c(nmin = "nmin" %in% supplied, nmax = "nmax" %in% supplied,
                             sizes = "sizes" %in% supplied), call)
  sigma0 <- check_sigma0(args$sigma0, size_spec$count, call)
  # refused before the sizes exist: the CPU backend's plan (or, with future workers, what
  # this process keeps)
  dims <- family_dims(size_spec, n_used, ncol(x), restarts, iter_max, FALSE, algorithm,
                        batch_block, general, sourced, clusters_in_r = is.null(clusters_file),
                        schedules = if (identical(sigma0, "auto")) size_spec$count else
                          length(unique(sigma0)))
  check_memory(dims,
               backend_spec(list(name = "cpu"), threads, options, NULL, parallel == "none"),
               call)
  progress <- check_flag(args$progress, "progress", call)
  trace <- check_flag(args$trace, "trace", call)
  align <- check_flag(args$align, "align", call)
  keep_data <- check_flag(args$keep_data, "keep_data", call)
  xt <- prepared_matrix(x, rows$used, scaling) # the row pipeline, 2: the matrix C reads
  sizes <- family_sizes(size_spec)
  sigma_sizes <- sigma0_sizes(sigma0, sizes)
  basis <- if (align || identical(args$init, "pca")) pca_basis(xt)
  init <- check_init(args$init, sizes, xt, call, basis, scaling)
  backend_args <- check_backend_args(args$backend, args$device, args$precision, call)
  be <- if (parallel == "none") resolve_backend(backend_args, call, auto_work(dims, threads))
  # the row pipeline, 3: magnitudes the precision can hold
  check_prepared(xt, data, rows, scaling, var_weights, init$weights, backend_args$precision,
                 call)
  seed <- check_seed(args$seed, call)
  spec <- NULL
  if (parallel == "none") { # the backend's own plan, trace included
    spec <- backend_spec(be, threads, options, call)
    dims$trace <- trace
    check_memory(dims, spec, call)
  }
  problem <- new_problem(sizes, restarts, iter_max, sigma_sizes, eta0, init, seed, algorithm,
                         batch_block, trace, rows$dist,
                         fill = if (init$type == "sample") sample_fill(xt, rows$missing, call))
  new_train_setup(list(
    call = call, x = x, xt = xt, rows = rows, scaling = scaling, var_weights = var_weights,
    sourced = sourced, basis = basis, na_max = na_max, encoding = data$encoding,
    problem = problem, dims = dims,
    sizes = sizes, restarts = restarts, sigma0 = sigma0, sigma_sizes = sigma_sizes,
    iter_max = iter_max, eta0 = eta0, init = init, algorithm = algorithm, seed = seed,
    align = align, parallel = parallel, backend_args = backend_args, be = be, spec = spec,
    threads = threads, worker_threads = worker_threads, options = options,
    progress = progress, progress_supplied = "progress" %in% supplied,
    keep_data = keep_data, clusters_file = clusters_file))
}

# train()'s defaults, read from its signature, the one place they are written: every
# argument but y, sizes (nmin:nmax; check_sizes() reads nmin and nmax unless sizes is
# supplied) and `...`.
train_defaults <- function() {
  f <- formals(train)
  lapply(f[setdiff(names(f), c("y", "sizes", "..."))], eval, envir = baseenv())
}

# The maps of a setup trained: in this process, or on the future workers (the maps split
# between them, or for file-backed data the rows): list(weights, trace, record).
train_maps <- function(s) {
  if (s$parallel == "none") {
    out <- train_on_backend(s$xt, s$problem, s$be, s$spec, s$progress, s$call)
    out$record <- backend_record(s$be, s$threads, out$kernels)
    out
  } else if (s$sourced) { # the rows split between the workers, every pass
    train_shards(s$xt, s$problem, s$backend_args, s$worker_threads, s$options, s$threads,
                 s$progress, s$call)
  } else { # the maps split between the workers
    train_future(s$xt, s$problem, s$backend_args, s$worker_threads, s$options,
                 s$progress || !s$progress_supplied, s$call)
  }
}

# The maps of a setup, trained (train_maps()), assessed and made a somgpu object; started:
# when the training began (the fit's elapsed time runs from there).
train_result <- function(s, trained, started) {
  call <- s$call
  x <- s$x
  xt <- s$xt
  problem <- s$problem
  sizes <- s$sizes
  restarts <- s$restarts
  missing <- s$rows$missing
  var_weights <- s$var_weights
  # assess
  to <- clusters_file_matrix(s$clusters_file, nrow(x), paste0("N", sizes), call)
  fit <- with_clusters_file(to, assess_family(xt, trained$weights, problem$size, restarts,
                                              s$threads, s$rows$dist, call, to$file))
  if (!is.null(to)) fit$clusters <- to$clusters
  if (s$align) fit <- align_family(fit, s$basis)
  tss <- if (!is.null(s$basis) && !missing && is.null(var_weights)) s$basis$tss else
    total_ss(xt, var_weights, missing, call)
  elapsed <- proc.time()[["elapsed"]] - started
  names <- column_names(x)

  # construct
  new_somgpu(
    weights = lapply(fit$weights, function(w) {
      dimnames(w) <- list(NULL, names)
      w
    }),
    clusters = fit$clusters, keep = s$rows$keep, n = nrow(x), rownames = rownames(x),
    sizes = sizes,
    quality = data.frame(size = problem$size, restart = problem$restart + 1L, qe = fit$qe,
                         te = fit$te,
                         explained_var = if (tss > 0) 1 - fit$sse / tss else NA_real_,
                         best = fit$best),
    stability = fit$stability, trace = trained$trace, backend = trained$record, seed = s$seed,
    scaling = s$scaling, var_weights = var_weights, dropped = s$rows$dropped,
    params = list(sizes = sizes, restarts = restarts, iter_max = s$iter_max,
                  sigma0 = if (length(unique(s$sigma_sizes)) == 1L) s$sigma_sizes[1L] else
                    s$sigma_sizes,
                  schedule = if (identical(s$sigma0, "auto")) "auto" else "fixed",
                  eta0 = s$eta0, init = s$init$type, algorithm = s$algorithm, align = s$align,
                  parallel = s$parallel, na_max = s$na_max, n = nrow(x), m = ncol(x),
                  colnames = names, named = !is.null(colnames(x)), file_backed = s$sourced,
                  clusters_file = if (!is.null(to)) to$file$path),
    data = if (s$keep_data && !s$sourced) x, elapsed = elapsed, call = call,
    encoding = s$encoding)
}

# The schedule length when iter_max = NULL: the original script's for the online rule; for
# the batch rule, 76 (see ?train and bench/bench_batch_passes.R).
default_iter_max <- function(algorithm) if (algorithm == "batch") 76L else 150L
