# The data sets of bench/bench_select_real.R: real labelled data shipped with R packages
# (real_suite()) and shaped synthetic groups of our own design (shaped_suite()), each
# list(name, kind, k, x, groups) as bench/select_suite.R's suite_list() makes them: x the
# numeric columns, standardized with scale() (rows with a missing value dropped: mclust and
# k-means take none), groups the classes as integers, k their number. Every method sees the
# same x. Generated sets come from fixed seeds.

# The numeric columns of a data frame (logical ones as 0/1) and its classes, complete rows
# only, standardized; columns that are constant dropped (scale() would give NaN).
labelled <- function(df, classes) {
  df <- as.data.frame(df)
  x <- as.matrix(data.frame(lapply(df, as.numeric)))
  ok <- stats::complete.cases(x) & !is.na(classes)
  x <- x[ok, , drop = FALSE]
  x <- x[, apply(x, 2, stats::sd) > 0, drop = FALSE]
  classes <- droplevels(as.factor(classes[ok]))
  structure(scale(x), groups = as.integer(classes))
}

pkg_data <- function(name, package) {
  e <- new.env()
  utils::data(list = name, package = package, envir = e)
  e[[name]]
}

real_suite <- function() {
  sets <- suite_list()
  add <- function(name, x) sets$add(name, "real", length(unique(attr(x, "groups"))), x)
  have <- function(p) requireNamespace(p, quietly = TRUE)
  iris <- datasets::iris
  add("iris", labelled(iris[1:4], iris$Species))
  add("iris petal length (1 column)", labelled(iris["Petal.Length"], iris$Species))
  st <- datasets::state.x77
  add("state.x77 / region", labelled(st, datasets::state.region))
  mt <- datasets::mtcars
  add("mtcars / cylinders", labelled(mt[setdiff(names(mt), "cyl")], mt$cyl))
  if (have("kohonen")) {
    e <- new.env()
    utils::data("wines", package = "kohonen", envir = e) # the wines and their vintages
    add("wines", labelled(e$wines, e$vintages))
  }
  if (have("mclust")) {
    b <- pkg_data("banknote", "mclust")
    add("banknote", labelled(b[-1], b$Status))
    d <- pkg_data("diabetes", "mclust")
    add("diabetes", labelled(d[-1], d$class))
    t <- pkg_data("thyroid", "mclust")
    add("thyroid", labelled(t[-1], t$Diagnosis))
    w <- pkg_data("wdbc", "mclust")
    add("wdbc (30 columns)", labelled(w[-(1:2)], w$Diagnosis))
  }
  crabs <- pkg_data("crabs", "MASS")
  add("crabs / species and sex", labelled(crabs[4:8], interaction(crabs$sp, crabs$sex)))
  fgl <- pkg_data("fgl", "MASS")
  add("fgl (glass)", labelled(fgl[1:9], fgl$type))
  pima <- rbind(pkg_data("Pima.tr", "MASS"), pkg_data("Pima.te", "MASS"))
  add("Pima", labelled(pima[1:7], pima$type))
  bio <- pkg_data("biopsy", "MASS")
  add("biopsy", labelled(bio[2:10], bio$class))
  cats <- pkg_data("cats", "MASS")
  add("cats / sex", labelled(cats[2:3], cats$Sex))
  if (have("palmerpenguins")) {
    p <- pkg_data("penguins", "palmerpenguins")
    add("penguins", labelled(p[3:6], p$species))
    add("penguins flipper (1 column)", labelled(p["flipper_length_mm"], p$species))
  }
  if (have("dslabs")) {
    o <- pkg_data("olive", "dslabs")
    add("olive / region", labelled(o[3:10], o$region))
  }
  if (have("modeldata")) {
    oils <- pkg_data("oils", "modeldata")
    add("oils", labelled(oils[1:7], oils$class))
  }
  if (have("carData")) {
    du <- pkg_data("Duncan", "carData")
    add("Duncan / type", labelled(du[c("income", "education", "prestige")], du$type))
  }
  if (have("gclus")) {
    body <- pkg_data("body", "gclus")
    add("body / gender", labelled(body[setdiff(names(body), "Gender")], body$Gender))
  }
  if (have("mlbench")) {
    v <- pkg_data("Vehicle", "mlbench")
    add("Vehicle", labelled(v[1:18], v$Class))
    io <- pkg_data("Ionosphere", "mlbench")
    add("Ionosphere", labelled(io[3:34], io$Class))
    so <- pkg_data("Sonar", "mlbench")
    add("Sonar (60 columns)", labelled(so[1:60], so$Class))
    z <- pkg_data("Zoo", "mlbench")
    add("Zoo (0/1 columns)", labelled(z[1:16], z$type))
  }
  sets$all()
}

# Shaped groups: curved, nested and spiral groups, stripes, and groups of very different
# density, in 2 to 5 columns (a few with a noise column). Each row's group is known.
shaped_suite <- function(shift = 0) {
  sets <- suite_list()
  add <- function(name, x) {
    g <- attr(x, "groups")
    o <- sample.int(nrow(x)) # rows in a random order
    sets$add(name, "shaped", length(unique(g)),
             structure(scale(x[o, , drop = FALSE]), groups = g[o]))
  }
  arc <- function(n, from, to, r = 1, cx = 0, cy = 0, sd = 0.08) {
    a <- stats::runif(n, from, to)
    cbind(cx + r * cos(a) + stats::rnorm(n, sd = sd), cy + r * sin(a) + stats::rnorm(n, sd = sd))
  }
  blob <- function(n, cx, cy, sd) cbind(stats::rnorm(n, cx, sd), stats::rnorm(n, cy, sd))
  grouped <- function(...) {
    parts <- list(...)
    structure(do.call(rbind, parts),
              groups = rep(seq_along(parts), vapply(parts, nrow, integer(1))))
  }
  set.seed(shift + 9001)
  add("two moons", grouped(arc(300, 0, pi), arc(300, pi, 2 * pi, cx = 1, cy = 0.4)))
  set.seed(shift + 9002)
  add("three arcs", grouped(arc(200, 0.2, 2.9, r = 1), arc(200, 0.2, 2.9, r = 1, cy = -0.9),
                            arc(200, 0.2, 2.9, r = 1, cy = -1.8)))
  set.seed(shift + 9003)
  add("banana and blob", grouped(arc(400, pi * 0.9, pi * 2.1, r = 2, sd = 0.2),
                                 blob(150, 0, 1, 0.3)))
  set.seed(shift + 9004)
  add("ring around a core", grouped(arc(400, 0, 2 * pi, r = 2, sd = 0.1), blob(150, 0, 0, 0.3)))
  set.seed(shift + 9005)
  add("two rings", grouped(arc(300, 0, 2 * pi, r = 1, sd = 0.06),
                           arc(500, 0, 2 * pi, r = 2.2, sd = 0.06)))
  spiral <- function(n, turn, sd = 0.05) {
    t <- sqrt(stats::runif(n)) * 2.2 * pi + 0.5
    cbind(t * cos(t + turn), t * sin(t + turn)) / 4 +
      matrix(stats::rnorm(2 * n, sd = sd), n)
  }
  set.seed(shift + 9006)
  add("two spirals", grouped(spiral(400, 0), spiral(400, pi)))
  set.seed(shift + 9007)
  add("three spirals", grouped(spiral(300, 0), spiral(300, 2 * pi / 3), spiral(300, 4 * pi / 3)))
  stripe <- function(n, y) cbind(stats::rnorm(n, sd = 3), stats::rnorm(n, y, 0.25))
  set.seed(shift + 9008)
  add("three parallel stripes", grouped(stripe(250, 0), stripe(250, 1.5), stripe(250, 3)))
  set.seed(shift + 9009)
  add("dense and diffuse", grouped(blob(500, 0, 0, 2), blob(60, 7, 0, 0.15),
                                   blob(60, 0, 7, 0.15)))
  set.seed(shift + 9010)
  chain <- grouped(cbind(arc(300, 0, 2 * pi, sd = 0.05), stats::rnorm(300, sd = 0.05)),
                   cbind(arc(300, 0, 2 * pi, cx = 1, sd = 0.05), stats::rnorm(300, sd = 0.05))[, c(1, 3, 2)])
  add("two linked rings (3 columns)", chain)
  set.seed(shift + 9011)
  face <- grouped(blob(80, -1, 1, 0.15), blob(80, 1, 1, 0.15), arc(250, 1.15 * pi, 1.85 * pi, r = 1.6, cy = 0.6, sd = 0.07))
  add("a face: two eyes and a smile", face)
  set.seed(shift + 9012)
  m <- grouped(arc(300, 0, pi), arc(300, pi, 2 * pi, cx = 1, cy = 0.4))
  add("two moons + 3 noise columns",
      structure(cbind(m, matrix(stats::rnorm(3 * nrow(m), sd = 0.5), nrow(m))),
                groups = attr(m, "groups")))
  sets$all()
}
