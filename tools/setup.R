# What a job needs, found, installed where it is missing, or listed:
#
#   Rscript tools/setup.R main    what somgpu needs (cli; R's compilers), what builds its
#                                 OpenCL backend (the OpenCL headers and ICD loader, and
#                                 PoCL where no OpenCL platform is installed: the CPU as
#                                 an OpenCL device) and its vignettes (knitr, rmarkdown,
#                                 pandoc); then somgpu itself, with the vignettes (R CMD
#                                 build, R CMD INSTALL of the tarball), into the first
#                                 library R can write to
#   Rscript tools/setup.R tests   everything tools/run-tests.R uses (.ci/run runs this)
#
# Run from the repository root. The R packages are DESCRIPTION's (Imports for main, Imports
# and Suggests for the tests), found by asking R: requireNamespace() in R's library paths,
# so that a library R does not look in counts as missing. Where they are missing: as root
# on Debian, their Debian packages (r-cran-*) and the system's are installed with apt-get;
# where R is not Debian's, the R packages come from CRAN into the library R installs to;
# otherwise the run lists what is missing with the lines that install it and stops with
# status 1. A main job without what OpenCL or the vignettes need installs somgpu without
# them (the CPU backend alone; no vignettes) and says so.
args <- commandArgs(trailingOnly = TRUE)
job <- if (length(args)) args[1] else "main"
if (!job %in% c("main", "tests") || !file.exists("DESCRIPTION")) {
  cat("usage, from the repository root: Rscript tools/setup.R main|tests\n")
  quit(status = 2)
}
# One message, wrapped (the lines that install something are printed whole, to be pasted)
say <- function(...) {
  cat(strwrap(paste(c("setup:", ...), collapse = " "), width = 90, exdent = 7), sep = "\n")
}

# The Debian packages besides R's: R's headers and compilers; pandoc, which rmarkdown runs
# for the vignette; and for the tests: OpenCL (the headers, the ICD loader and PoCL, OpenCL
# on the CPU, so that the OpenCL backend is built and tested), clang 15 (PoCL's compiler,
# and tools/gpu-compile.sh's for NVIDIA and AMD targets), a one-node Slurm with munge
# (tools/slurm.sh), make (the C harness, whose sanitizers come with gcc), valgrind, qpdf
# and LaTeX (R CMD check and its PDF manual), devscripts (the checkbashisms that R CMD
# check runs on configure, without which it warns), Chromium (the documentation site's
# pages loaded headless: tools/check-site.R).
system_main <- "r-base-dev"
system_vignette <- "pandoc"
# OpenCL for the main job: the headers and the ICD loader configure looks for, and a
# driver where the loader would find none (an ICD file in OCL_ICD_VENDORS, by default
# /etc/OpenCL/vendors): PoCL, OpenCL on the CPU. A GPU's own driver, where installed, is
# left to serve alone.
vendors <- Sys.getenv("OCL_ICD_VENDORS", "/etc/OpenCL/vendors")
platform_installed <- length(list.files(vendors, "[.]icd$")) > 0
system_opencl <- c("opencl-headers", "ocl-icd-opencl-dev",
                   if (!platform_installed) "pocl-opencl-icd")
system_tests <- c("opencl-headers", "ocl-icd-opencl-dev", "pocl-opencl-icd", "clang-15",
                  "slurm-wlm", "munge", "make", "valgrind", "qpdf", "texlive-latex-base",
                  "texlive-latex-recommended", "texlive-fonts-recommended", "devscripts",
                  "chromium")
# pandoc counts as there when R can run it, wherever it came from (rmarkdown's own test)
commands <- c(pandoc = "pandoc")

# DESCRIPTION's packages in `field`, named by package, valued by the least version ("" for
# any), without R's base packages (always there).
description_packages <- function(field) {
  value <- read.dcf("DESCRIPTION", fields = field)[1, 1]
  if (is.na(value)) return(character(0))
  items <- trimws(strsplit(gsub("\\s+", " ", value), ",")[[1]])
  items <- items[nzchar(items)]
  names <- sub("^([A-Za-z0-9.]+).*$", "\\1", items)
  versions <- ifelse(grepl(">=", items), sub("^.*>= *([0-9.-]+).*$", "\\1", items), "")
  base <- rownames(utils::installed.packages(.Library, priority = "base"))
  keep <- !names %in% c("R", base)
  stats::setNames(versions[keep], names[keep])
}
imports <- description_packages("Imports")
suggests <- description_packages("Suggests")
# what the tools of the tests use beyond the package's own Suggests: the documentation
# site (tools/site.R: pkgdown; tools/check-site.R reads its pages and screenshots)
tools_r <- c(pkgdown = "", xml2 = "", png = "")
vignette_r <- suggests[c("knitr", "rmarkdown")]

apt <- nzchar(Sys.which("apt-get")) && nzchar(Sys.which("dpkg-query"))
r_from_debian <- apt && identical(normalizePath(R.home()), "/usr/lib/R")
root <- identical(suppressWarnings(system2("id", "-u", stdout = TRUE)), "0")
debian_name <- function(r_packages) {
  if (length(r_packages)) paste0("r-cran-", tolower(r_packages)) else character(0)
}

# The R packages of `wanted` (least versions) that R cannot load here, or too old.
r_missing <- function(wanted) {
  bad <- vapply(names(wanted), function(p) {
    !suppressWarnings(suppressMessages(requireNamespace(p, quietly = TRUE))) ||
      (nzchar(wanted[[p]]) && utils::packageVersion(p) < wanted[[p]])
  }, logical(1))
  wanted[bad]
}

# Which Debian packages of `debs` dpkg has installed.
dpkg_installed <- function(debs) {
  if (!apt || !length(debs)) return(rep(FALSE, length(debs)))
  format <- shQuote("-f=${Package} ${db:Status-Abbrev}\\n")
  out <- suppressWarnings(system2("dpkg-query", c("-W", format, debs), stdout = TRUE,
                                  stderr = FALSE))
  installed <- sub(" .*$", "", out[grepl("^[^ ]+ ii", out)])
  debs %in% installed
}

# The system packages of `debs` missing here: a command of `commands` not on the path, the
# others not installed (dpkg). Without dpkg only the commands can be checked.
system_missing <- function(debs) {
  command <- debs %in% names(commands)
  present <- logical(length(debs))
  present[command] <- nzchar(Sys.which(commands[debs[command]])) |
    (debs[command] == "pandoc" & nzchar(Sys.getenv("RSTUDIO_PANDOC")))
  present[!command] <- !apt | dpkg_installed(debs[!command])
  debs[!present]
}

# The first library R can write to; else the user's, created (R looks there from then on).
install_library <- function() {
  lib <- .libPaths()[file.access(.libPaths(), 2) == 0][1]
  if (is.na(lib)) {
    lib <- path.expand(strsplit(Sys.getenv("R_LIBS_USER"), .Platform$path.sep)[[1]][1])
    dir.create(lib, recursive = TRUE, showWarnings = FALSE)
    if (file.access(lib, 2) != 0) {
      say(paste0("R can write to none of its libraries (", paste(.libPaths(), collapse = ", "),
                 ") nor to ", lib, ": set R_LIBS_USER to a folder of yours"))
      quit(status = 1)
    }
    .libPaths(c(lib, .libPaths()))
  }
  lib
}

# What the job needs (a failure without it) and what it would like (the main job's
# vignette), missing here.
need_r <- if (job == "main") imports else c(imports, suggests, tools_r)
want_r <- if (job == "main") vignette_r else character(0)
need_system <- c(if (r_from_debian) system_main,
                 if (job == "tests") c(system_vignette, system_tests))
want_system <- if (job == "main") c(system_vignette, system_opencl) else character(0)
missing <- function() {
  list(need_r = r_missing(need_r), want_r = r_missing(want_r),
       need_system = system_missing(need_system), want_system = system_missing(want_system))
}
m <- missing()
if (job == "tests" && !apt) {
  say("not checked without dpkg: the tests also use", paste(system_tests, collapse = ", "),
      "(Debian's names); without them, their steps fail or are skipped")
}

if (length(unlist(m))) {
  r_names <- names(c(m$need_r, m$want_r))
  if (root && apt) {
    # only what dpkg lacks: a Debian package installed in a library R does not look in is
    # reported below, not installed again
    debs <- c(m$need_system, m$want_system, if (r_from_debian) debian_name(r_names))
    debs <- debs[!dpkg_installed(debs)]
    if (length(debs)) {
      say("installing (apt-get):", debs)
      Sys.setenv(DEBIAN_FRONTEND = "noninteractive")
      log <- tempfile(fileext = ".log")
      ok <- system2("apt-get", c("update", "-qq"), stdout = log, stderr = log) == 0 &&
        system2("apt-get", c("install", "-y", "-qq", "--no-install-recommends", debs),
                stdout = log, stderr = log) == 0
      if (!ok) cat(utils::tail(readLines(log, warn = FALSE), 20), sep = "\n")
    }
  }
  if (length(r_names) && !r_from_debian) {
    # R not Debian's (or no apt): CRAN, into the library R installs to (the user's,
    # created, when R can write to none of the others)
    lib <- install_library()
    repos <- getOption("repos")
    if (is.null(repos) || identical(unname(repos["CRAN"]), "@CRAN@")) {
      repos <- c(CRAN = "https://cloud.r-project.org")
    }
    say(paste0("installing from CRAN into ", lib, ":"), r_names)
    tryCatch(withCallingHandlers(
      utils::install.packages(r_names, lib = lib, repos = repos, quiet = TRUE),
      warning = function(w) {
        say("CRAN:", conditionMessage(w))
        invokeRestart("muffleWarning")
      }), error = function(e) say("CRAN install failed:", conditionMessage(e)))
  }
  m <- missing()
}

label <- function(wanted) {
  paste0(names(wanted), ifelse(nzchar(wanted), paste0(" (>= ", wanted, ")"), ""))
}
# "the R packages a, b (>= 1.0); the Debian package c"
describe <- function(r, system) {
  paste(c(if (length(r)) paste(if (length(r) > 1) "the R packages" else "the R package",
                               paste(label(r), collapse = ", ")),
          if (length(system)) paste(if (!apt) "" else if (length(system) > 1)
            "the Debian packages" else "the Debian package", paste(system, collapse = ", "))),
        collapse = "; ")
}
if (length(unlist(m))) {
  r_all <- c(m$need_r, m$want_r)
  system_all <- c(m$need_system, m$want_system)
  need <- c(label(m$need_r), m$need_system)
  want <- c(label(m$want_r), m$want_system)
  if (length(need)) {
    say(if (job == "main") "somgpu needs" else "the tests need",
        "what is missing here:", describe(m$need_r, m$need_system))
  }
  opencl <- intersect(m$want_system, system_opencl)
  if (length(opencl)) {
    say("its OpenCL backend is built with what is missing here:", describe(NULL, opencl))
  }
  if (length(m$want_r) || length(setdiff(m$want_system, opencl))) {
    say("its vignettes are built with what is missing here:",
        describe(m$want_r, setdiff(m$want_system, opencl)))
  }
  # a Debian package installed in a library R does not look in: said, not installed again
  hidden <- r_from_debian & dpkg_installed(debian_name(names(r_all)))
  if (any(hidden)) {
    files <- unlist(lapply(debian_name(names(r_all))[hidden], function(d) suppressWarnings(
      system2("dpkg-query", c("-L", d), stdout = TRUE, stderr = FALSE))))
    where <- unique(dirname(dirname(grep("^/usr/lib/R/.*/DESCRIPTION$", files, value = TRUE))))
    say(paste0(
      "Debian's packages of ", paste(names(r_all)[hidden], collapse = ", "),
      " are installed (r-cran-*", if (length(where)) paste0(", in ", paste(where, collapse = ", ")),
      "), but R does not look there: its library paths are ",
      paste(.libPaths(), collapse = ", "), " (R_LIBS_SITE, R_LIBS_USER and R_LIBS set them)"))
  }
  debs <- c(system_all, if (r_from_debian) debian_name(names(r_all)[!hidden]))
  if (apt && length(debs)) {
    cat("Install them as root (Debian):\n  apt-get install --no-install-recommends ",
        paste(debs, collapse = " "), "\n", sep = "")
  } else if (length(system_all)) {
    cat("Install these (Debian's names; your system's equivalents): ",
        paste(system_all, collapse = " "), "\n", sep = "")
  }
  if (length(r_all)) {
    cat(if (apt && length(debs)) "or the R packages into your own library, in R:\n" else
          "Install the R packages into a library R looks in, in R:\n",
        "  install.packages(c(", paste0('"', names(r_all), '"', collapse = ", "), "))\n",
        sep = "")
  }
  if (length(need)) {
    cat("then run `Rscript tools/setup.R ", job, "` again.\n", sep = "")
    if (job == "tests") {
      cat("(The tests of the two builds alone need only the R packages:",
          "Rscript tools/run-tests.R default cpu-only)\n")
    }
    quit(status = 1)
  }
  say(paste0("installing somgpu without ", paste(c(if (length(opencl)) "its OpenCL backend",
      if (length(want) > length(opencl)) "its vignettes"), collapse = " and "),
      "; once those are installed, this command installs it with them"))
} else if (job == "tests") {
  say("everything the tests need is here")
}
if (job == "tests") quit(status = 0)

# The main job: somgpu installed, with its vignettes where they can be built, from a tarball
# (R CMD INSTALL of the checkout itself builds none), into install_library().
vignette <- !length(m$want_r) && !length(setdiff(m$want_system, system_opencl)) &&
  rmarkdown::pandoc_available("1.12.3")
lib <- install_library()
if (!nzchar(Sys.getenv("MAKEFLAGS"))) {
  Sys.setenv(MAKEFLAGS = paste0("-j", min(max(parallel::detectCores(), 1, na.rm = TRUE), 8)))
}
repo <- normalizePath(".")
build_dir <- tempfile("somgpu-build-")
dir.create(build_dir)
r <- file.path(R.home("bin"), "R")
run_r <- function(args) {
  log <- tempfile(fileext = ".log")
  status <- system2(r, args, stdout = log, stderr = log)
  out <- readLines(log, warn = FALSE)
  if (status != 0) {
    cat(utils::tail(out, 30), sep = "\n")
    say("failed: R", args)
    quit(status = 1)
  }
  invisible(out)
}
started <- proc.time()[["elapsed"]]
say(if (vignette) "building somgpu with its vignettes (R CMD build)" else
  "building somgpu without its vignettes (R CMD build --no-build-vignettes)")
owd <- setwd(build_dir)
run_r(c("CMD", "build", "--no-manual", if (!vignette) "--no-build-vignettes", shQuote(repo)))
setwd(owd)
tarball <- list.files(build_dir, "^somgpu_.*[.]tar[.]gz$", full.names = TRUE)
say("installing it into", lib)
out <- run_r(c("CMD", "INSTALL", paste0("--library=", shQuote(lib)), shQuote(tarball)))
cat(grep("^somgpu: building", out, value = TRUE), sep = "\n") # the backends configure built
found <- nrow(utils::vignette(package = "somgpu", lib.loc = lib)$results) > 0
say(sprintf("somgpu %s is installed in %s (%.0f s), %s", utils::packageVersion("somgpu", lib),
            lib, proc.time()[["elapsed"]] - started,
            if (found) "with its vignettes: browseVignettes(\"somgpu\")" else
              paste("without its vignettes: their sources are in vignettes/ (with knitr,",
                    "rmarkdown and pandoc here, this command installs them built)")))
