# Benchmark (issue 42): groups on mixed data frames as they come (numeric, factor, ordered,
# logical columns, missing values), the class column left out, beside the established
# choosers for mixed data run on the same data in the same run:
#   - select_size() on the data frame as it is (scale = TRUE, its defaults otherwise:
#     sizes 2:20, bootstrap 20, restarts 4; seed 1, 2 threads);
#   - FAMD + HCPC (FactoMineR: FAMD's 5 components, MCA's for all-categorical data;
#     HCPC's own cut, nb.clust = -1, between 2 and 20 groups; missing values imputed first,
#     a numeric column's by its mean, a categorical one's by its most frequent level: FAMD
#     fails on them);
#   - mclust's BIC (Mclust, G = 1:20, every covariance model) on the indicator-coded data
#     (numeric columns standardized, 0/1 indicators, missing values by the column's mean);
#   - k-prototypes (clustMixType, numeric columns standardized; validation_kproto()'s
#     silhouette choosing k in 2:12, nstart 2: its silhouette over every pair of rows in R
#     makes 2:20 too slow for one run on 2 cores; for all-categorical data k-modes, lambda
#     1; missing values as kproto takes them), where clustMixType is installed.
# Per set: the k each names, the adjusted Rand index (ARI) of its partition with the
# classes (over the rows it gives a group), the seconds; then the means.
#
# With --floor, then per set the least training select_size()'s answer rests on, beside
# FAMD + HCPC (each the least of 3 runs): the fit's family alone (train(), sizes 2:20,
# restarts 4, sigma0 "auto", as select_size() trains it before any replicate), and the
# largest ring alone (its 4 restarts: the map whose cells the groups are made of), with
# the family's training rate in GFlop/s (4 flops per neuron, observed value and row step:
# the winner search's difference and square-add, the update's difference and
# multiply-add), and what the family would take at the machine's double-precision peak
# (fma_peak.c: fused multiply-adds in registers, compiled with R's C compiler, -O3
# -march=native -fopenmp, 2 threads; the step's two multiply-adds do its 4 flops there,
# so that peak bounds the training's rate: generous, loads and stores ignored).
#
#   Rscript bench/bench_mixed.R [--methods=a,b] [--floor] [--lib=PATH] [set ...]
#     (default: every method and set; named: those, in order; --lib: the build to load)
script <- sub("^--file=", "", grep("^--file=", commandArgs(), value = TRUE))
source(file.path(if (length(script)) dirname(script) else "bench", "args.R"))
source(file.path(here, "helpers.R"))
for (p in c("mclust", "FactoMineR", "mlbench", "palmerpenguins", "MASS", "carData")) {
  if (!requireNamespace(p, quietly = TRUE)) stop("this benchmark needs the package ", p)
}
suppressPackageStartupMessages(library(mclust)) # Mclust() calls mclustBIC() by name
options(width = 200)
kmax <- 20L
threads <- 2L

# The data sets: a data frame of features as they come (the id-like columns dropped) and
# the classes.
mixed_suite <- function() {
  env <- new.env()
  mlb <- function(name) {
    utils::data(list = name, package = "mlbench", envir = env)
    get(name, envir = env)
  }
  pg <- palmerpenguins::penguins
  hv <- mlb("HouseVotes84")
  sb <- mlb("Soybean")
  bc <- mlb("BreastCancer")
  zoo <- mlb("Zoo")
  io <- mlb("Ionosphere")
  vw <- mlb("Vowel")
  cr <- MASS::crabs
  sal <- carData::Salaries
  cars <- MASS::Cars93
  list(
    list(name = "penguins", x = pg[c("island", "bill_length_mm", "bill_depth_mm",
                                     "flipper_length_mm", "body_mass_g", "sex")],
         class = pg$species),
    list(name = "HouseVotes84", x = hv[-1], class = hv$Class),
    list(name = "Soybean", x = sb[-1], class = sb$Class),
    list(name = "BreastCancer", x = bc[setdiff(names(bc), c("Id", "Class"))], class = bc$Class),
    list(name = "Zoo", x = zoo[setdiff(names(zoo), "type")], class = zoo$type),
    list(name = "Ionosphere", x = io[setdiff(names(io), "Class")], class = io$Class),
    list(name = "crabs", x = cr[c("sex", "FL", "RW", "CL", "CW", "BD")], class = cr$sp),
    list(name = "Salaries", x = sal[setdiff(names(sal), "rank")], class = sal$rank),
    list(name = "Cars93", x = cars[setdiff(names(cars), c("Manufacturer", "Model", "Make", "Type"))],
         class = cars$Type),
    list(name = "Vowel", x = vw[setdiff(names(vw), "Class")], class = vw$Class))
}

categorical <- function(x) vapply(x, function(v) is.factor(v) || is.logical(v) || is.character(v), NA)

# Numeric columns standardized, categorical ones as factors (logical and character too).
as_mixed <- function(x) {
  out <- lapply(x, function(v) {
    if (is.factor(v) || is.logical(v) || is.character(v)) factor(v, ordered = FALSE) else
      as.vector(scale(as.double(v)))
  })
  as.data.frame(out)
}

# Missing values imputed: a numeric column's by its mean, a categorical one's by its most
# frequent level.
imputed <- function(x) {
  as.data.frame(lapply(x, function(v) {
    if (!anyNA(v)) return(v)
    if (is.factor(v)) v[is.na(v)] <- names(which.max(table(v))) else v[is.na(v)] <- mean(v, na.rm = TRUE)
    v
  }))
}

# Numeric columns standardized and 0/1 indicators, missing values by the column's mean.
indicator_coded <- function(x) {
  cols <- list()
  for (nm in names(x)) {
    v <- x[[nm]]
    if (is.factor(v) || is.logical(v) || is.character(v)) {
      f <- droplevels(factor(v, ordered = FALSE))
      for (l in levels(f)) cols[[paste0(nm, "=", l)]] <- ifelse(is.na(f), NA, 1 * (f == l))
    } else {
      cols[[nm]] <- as.vector(scale(as.double(v)))
    }
  }
  m <- do.call(cbind, cols)
  m <- m[, apply(m, 2, function(v) stats::sd(v, na.rm = TRUE) > 0), drop = FALSE]
  for (k in seq_len(ncol(m))) m[is.na(m[, k]), k] <- mean(m[, k], na.rm = TRUE)
  m
}

methods <- list(
  select_size = function(x) {
    sel <- select_size(x, sizes = 2:kmax, scale = TRUE, seed = 1, threads = threads,
                       progress = FALSE)
    list(k = sel$groups, groups = sel$partition)
  },
  `FAMD+HCPC` = function(x) {
    x <- imputed(as_mixed(x))
    cat <- categorical(x)
    x <- x[, vapply(x, function(v) length(unique(stats::na.omit(v))) > 1L, NA), drop = FALSE]
    cat <- categorical(x)
    res <- if (all(cat)) FactoMineR::MCA(x, graph = FALSE) else FactoMineR::FAMD(x, graph = FALSE)
    h <- FactoMineR::HCPC(res, nb.clust = -1, min = 2, max = kmax, graph = FALSE)
    g <- as.integer(h$data.clust$clust)
    list(k = length(unique(g)), groups = g)
  },
  mclust = function(x) {
    m <- indicator_coded(x)
    fit <- suppressWarnings(mclust::Mclust(m, G = 1:kmax, verbose = FALSE))
    if (is.null(fit)) return(list(k = NA_integer_, groups = rep(NA_integer_, nrow(x))))
    list(k = fit$G, groups = fit$classification)
  },
  `k-prototypes` = if (requireNamespace("clustMixType", quietly = TRUE)) function(x) {
    x <- as_mixed(x)
    x <- x[, vapply(x, function(v) length(unique(stats::na.omit(v))) > 1L, NA), drop = FALSE]
    only <- all(categorical(x))
    if (only) x$.zero <- 0 # kproto needs a numeric column (then k-modes: lambda 1)
    set.seed(1)
    v <- suppressWarnings(clustMixType::validation_kproto(method = "silhouette", data = x,
                                                           k = 2:12, nstart = 2,
                                                           lambda = if (only) 1,
                                                           verbose = FALSE))
    # kproto leaves out the rows with missing values (na.rm = "yes"): the others' groups
    groups <- rep(NA_integer_, nrow(x))
    groups[stats::complete.cases(x)] <- v$kp_obj$cluster
    list(k = v$k_opt, groups = groups)
  })
methods <- Filter(Negate(is.null), methods)
famd <- methods[["FAMD+HCPC"]]
floor_asked <- "--floor" %in% args
only <- sub("^--methods=", "", grep("^--methods=", args, value = TRUE))
if (length(only)) methods <- methods[strsplit(only, ",")[[1]]] # e.g. --methods=k-prototypes
args <- grep("^--", args, value = TRUE, invert = TRUE)

ari <- function(g, class) {
  ok <- !is.na(g) & !is.na(class)
  mclust::adjustedRandIndex(g[ok], class[ok])
}

suite <- mixed_suite()
if (length(args)) { # the sets named, in that order
  suite <- suite[match(intersect(args, vapply(suite, `[[`, "", "name")),
                       vapply(suite, `[[`, "", "name"))]
}
cat(machine_line(), "\n")
cat(sprintf("date %s; load average %s\n\n", format(Sys.time(), "%Y-%m-%d %H:%M"),
            paste(readLines("/proc/loadavg", warn = FALSE), collapse = " ")))
rows <- list()
for (d in suite) {
  x <- d$x
  row <- data.frame(data = d$name, n = nrow(x), numeric = sum(!categorical(x)),
                    categorical = sum(categorical(x)), k = nlevels(droplevels(d$class)),
                    check.names = FALSE)
  for (nm in names(methods)) {
    t0 <- proc.time()[["elapsed"]]
    got <- tryCatch(methods[[nm]](x), error = function(e) {
      message(sprintf("%s on %s: %s", nm, d$name, conditionMessage(e)))
      list(k = NA_integer_, groups = rep(NA_integer_, nrow(x)))
    })
    row[[paste("k", nm)]] <- got$k
    row[[paste("ARI", nm)]] <- round(ari(got$groups, d$class), 3)
    row[[paste("rows", nm)]] <- sum(!is.na(got$groups))
    row[[paste("s", nm)]] <- round(proc.time()[["elapsed"]] - t0, 1)
  }
  rows[[length(rows) + 1L]] <- row
  print(row, row.names = FALSE)
}
tab <- do.call(rbind, rows)
m <- names(methods)
cat("\nper data set: k named (the classes: k), ARI with the classes, seconds\n")
print(tab[, c("data", "n", "numeric", "categorical", "k", paste("k", m), paste("ARI", m),
              paste("s", m))], row.names = FALSE)
cat("\nmeans over the sets (ARI: NA counts as 0) and total seconds\n")
print(data.frame(method = m,
                 mean_ARI = round(vapply(m, function(nm) {
                   a <- tab[[paste("ARI", nm)]]
                   mean(ifelse(is.na(a), 0, a))
                 }, 0), 3),
                 exact_k = vapply(m, function(nm) sum(tab[[paste("k", nm)]] == tab$k, na.rm = TRUE), 0),
                 seconds = vapply(m, function(nm) sum(tab[[paste("s", nm)]]), 0),
                 row.names = NULL), row.names = FALSE)

if (floor_asked) {
  least <- function(f) min(vapply(1:3, function(i) system.time(f())[["elapsed"]], 0))
  fl <- lapply(suite, function(d) {
    x <- d$x
    rings <- function(nmin, keep = FALSE) {
      train(x, nmin = nmin, nmax = kmax, restarts = 4L, sigma0 = "auto", scale = TRUE,
            seed = 1L, threads = threads, keep_data = keep)
    }
    fit <- rings(2L, keep = TRUE)
    # the steps: each kept row's observed encoded values (a missing one is skipped by the
    # search and the update) on every neuron of every size and restart (4), every pass
    kept <- setdiff(seq_len(fit$params$n), fit$dropped)
    steps <- sum(!is.na(fit$data[kept, , drop = FALSE])) * (fit$params$iter_max - 1) *
      sum(2:kmax) * 4
    t_family <- least(function() rings(2L))
    data.frame(data = d$name, columns = fit$params$m,
               s_family = t_family,
               s_largest_ring = least(function() rings(kmax)),
               s_FAMD_HCPC = least(function() famd(x)),
               GFlop = 4 * steps / 1e9,
               GFlops_family = round(4 * steps / t_family / 1e9, 1))
  })
  fl <- do.call(rbind, fl)
  # the ceiling: fma_peak.c, compiled here
  cc <- system2(file.path(R.home("bin"), "R"), c("CMD", "config", "CC"), stdout = TRUE)
  exe <- file.path(tempdir(), "fma_peak")
  built <- system(sprintf("%s -O3 -march=native -fopenmp %s -o %s", cc,
                          shQuote(file.path(here, "fma_peak.c")), exe)) == 0
  peak <- if (built) {
    rate <- vapply(1:3, function(i) {
      out <- system2(exe, "300000000", stdout = TRUE, env = sprintf("OMP_NUM_THREADS=%d", threads))
      as.numeric(strsplit(out, " ")[[1]][1])
    }, 0)
    max(rate)
  } else NA
  cat("\nthe least training behind select_size()'s answer (seconds, least of 3) beside FAMD + HCPC's\n")
  print(fl[names(fl) != "GFlop"], row.names = FALSE, digits = 3)
  cat(sprintf("all sets: the family %.2f s (%.1f GFlop), at the machine's peak of %.1f GFlop/s (fma_peak.c, %d threads) %.2f s; the largest ring alone %.2f s; FAMD + HCPC %.2f s\n",
              sum(fl$s_family), sum(fl$GFlop), peak, threads, sum(fl$GFlop) / peak,
              sum(fl$s_largest_ring), sum(fl$s_FAMD_HCPC)))
}
