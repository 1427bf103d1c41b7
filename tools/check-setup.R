# The README's two commands on a fresh machine (tools/setup.R), tested the way they failed
# before it: R's library paths holding only R's own packages (its site and user libraries
# pointed at an empty folder). On such a machine `R CMD INSTALL .` stops at cli; the first
# command lists what is missing (a user) or installs it with apt-get (root: a fake apt-get
# and dpkg-query, so that a fresh machine's are simulated, and nothing is installed); then,
# on this machine, the README's first command installs somgpu with its vignette into a
# temporary library and runs the main job, and the second's setup finds everything. One
# test per check. Sourced by tools/run-tests.R (the target setup).

run_setup <- function() {
  checks <- new_checks()
  check <- checks$check
  skip <- checks$skip

  # A copy of what tools/setup.R reads, in a folder a user (nobody) can enter: tempdir() is
  # this user's alone, so it is opened to others (x only) while the checks run.
  home <- file.path(tempdir(), "setup")
  checkout <- file.path(home, "checkout")
  empty <- file.path(home, "empty-library")
  fake <- file.path(home, "bin")         # a fresh machine's dpkg-query: nothing installed
  fake_root <- file.path(home, "bin-root") # and root's id and apt-get, which logs
  for (d in c(file.path(checkout, "tools"), empty, fake, fake_root)) {
    dir.create(d, recursive = TRUE, showWarnings = FALSE)
  }
  file.copy(c("DESCRIPTION", "tools/setup.R"),
            file.path(checkout, c("DESCRIPTION", "tools/setup.R")), overwrite = TRUE)
  state <- file.path(home, "dpkg-state")
  apt_log <- file.path(home, "apt-get.log")
  file.create(state, apt_log)
  writeLines(c("#!/bin/sh", "# dpkg-query -W -f=FORMAT PACKAGES... | -L PACKAGE, of the packages in",
               paste0("state=", shQuote(state)),
               "case \"$1\" in",
               "  -W) shift 2; for p in \"$@\"; do grep -qx \"$p\" \"$state\" && echo \"$p ii \"; done ;;",
               "  -L) grep -qx \"$2\" \"$state\" && echo \"/usr/lib/R/site-library/${2#r-cran-}/DESCRIPTION\" ;;",
               "esac", "exit 0"), file.path(fake, "dpkg-query"))
  writeLines(c("#!/bin/sh", "echo 0"), file.path(fake_root, "id"))
  writeLines(c("#!/bin/sh", "# logs its arguments; install adds its packages to dpkg-query's state",
               paste0("echo \"$*\" >> ", shQuote(apt_log)),
               "[ \"$1\" = install ] && for p in \"$@\"; do case \"$p\" in install|-*) ;;",
               paste0("  *) echo \"$p\" >> ", shQuote(state), " ;; esac; done"), "exit 0"),
             file.path(fake_root, "apt-get"))
  Sys.chmod(list.files(home, recursive = TRUE, full.names = TRUE, include.dirs = TRUE), "0755")
  Sys.chmod(home, "0755")
  old_mode <- file.info(tempdir())$mode
  Sys.chmod(tempdir(), "0711")
  on.exit(Sys.chmod(tempdir(), old_mode), add = TRUE)

  rscript <- file.path(R.home("bin"), "Rscript")
  root <- identical(suppressWarnings(system2("id", "-u", stdout = TRUE)), "0")
  # as a user: nobody, when this runs as root
  as_user <- if (!root) "" else if (nzchar(Sys.which("setpriv"))) {
    "setpriv --reuid=65534 --regid=65534 --clear-groups"
  } else {
    NA
  }
  # and no OpenCL platform: ocl-icd's vendor folder, empty (setup.R then asks for PoCL)
  hidden <- c(paste0("R_LIBS_SITE=", shQuote(empty)), paste0("R_LIBS_USER=", shQuote(empty)),
              "R_LIBS=", paste0("HOME=", shQuote(home)),
              paste0("OCL_ICD_VENDORS=", shQuote(empty)))
  opencl <- c("opencl-headers", "ocl-icd-opencl-dev", "pocl-opencl-icd")
  with_path <- function(...) paste0("PATH=", shQuote(paste(c(..., Sys.getenv("PATH")),
                                                         collapse = .Platform$path.sep)))
  run <- function(dir, cmd, env, prefix = "") {
    line <- paste("cd", shQuote(dir), "&&", prefix, cmd)
    out <- suppressWarnings(system2("sh", c("-c", shQuote(line)), env = env, stdout = TRUE,
                                    stderr = TRUE))
    status <- attr(out, "status")
    list(out = out, status = if (is.null(status)) 0L else status)
  }
  no_r_error <- function(r) !any(grepl("^Error|Execution halted|Traceback", r$out))
  has_line <- function(r, start, words) {
    l <- grep(start, r$out, fixed = TRUE, value = TRUE)
    length(l) == 1L && all(words %in% strsplit(gsub("[(),\"]", " ", l), " +")[[1]])
  }

  # What R's own library lacks of DESCRIPTION's packages: the fresh machine's missing list.
  field <- function(f) {
    items <- trimws(strsplit(read.dcf("DESCRIPTION", fields = f)[1, 1], ",")[[1]])
    sub("^([A-Za-z0-9.]+).*$", "\\1", items[nzchar(items)])
  }
  own <- rownames(utils::installed.packages(.Library))
  main_r <- setdiff(c(field("Imports"), "knitr", "rmarkdown"), own)
  tests_r <- setdiff(c(field("Imports"), field("Suggests"), "pkgdown", "xml2", "png"), own)
  debian <- function(p) paste0("r-cran-", tolower(p))
  pandoc <- if (nzchar(Sys.which("pandoc"))) character(0) else "pandoc"
  debian_r <- identical(normalizePath(R.home()), "/usr/lib/R") && nzchar(Sys.which("apt-get"))

  # (a) the old first command on a machine with R's own packages only
  old <- run(".", paste(shQuote(file.path(R.home("bin"), "R")), "CMD INSTALL",
                        paste0("--library=", shQuote(empty)), "."), hidden)
  check("R's own packages only: R CMD INSTALL . stops at \"dependency 'cli' is not available\"",
        old$status != 0 && any(grepl("dependency .{1,3}cli.{1,3} is not available", old$out)), old$out)

  # (b) a user on a fresh Debian machine: the list, the lines that install it, status 1
  if (is.na(as_user)) {
    skip("a user's setup: root here, and no setpriv to run it as nobody")
  } else {
    for (job in c("main", "tests")) {
      r <- run(checkout, paste(shQuote(rscript), "tools/setup.R", job),
               c(hidden, with_path(fake)), as_user)
      wanted <- if (job == "main") main_r else tests_r
      check(sprintf("a user, fresh machine: setup.R %s stops with status 1, no R error", job),
            r$status == 1L && no_r_error(r), r$out)
      if (debian_r) {
        check(sprintf("... its apt-get line: the %d Debian packages of the R packages%s",
                      length(wanted), if (job == "main") ", r-base-dev, OpenCL and PoCL" else
                        " and the system's"),
              has_line(r, "apt-get install", c(if (job == "main") c("r-base-dev", opencl) else
                c("r-base-dev", "valgrind", "pocl-opencl-icd", "slurm-wlm"),
                debian(wanted), pandoc)), r$out)
      }
      check(sprintf("... its install.packages() line: %s", paste(wanted, collapse = ", ")),
            has_line(r, "install.packages(", wanted), r$out)
    }
    # this machine's Debian packages hidden from R: said so, not asked for again
    if (debian_r && system2("dpkg-query", c("-W", "r-cran-cli"), stdout = FALSE,
                            stderr = FALSE) == 0) {
      r <- run(checkout, paste(shQuote(rscript), "tools/setup.R main"), hidden, as_user)
      check("a user, site library hidden: setup.R main says where Debian's cli is, status 1",
            r$status == 1L && any(grepl("but R does not look there", r$out)) &&
              !any(grepl("r-cran-cli", r$out)) && has_line(r, "install.packages(", "cli"),
            r$out)
    }
  }

  # (c) root on a fresh Debian machine: apt-get installs exactly what is missing; R, whose
  # site library is hidden here, still does not find it, and the run says so
  r <- run(checkout, paste(shQuote(rscript), "tools/setup.R main"),
           c(hidden, with_path(fake_root, fake)))
  apt <- readLines(apt_log)
  check("root, fresh machine: apt-get update, then install of exactly what is missing",
        length(apt) == 2L && apt[1] == "update -qq" &&
          setequal(strsplit(apt[2], " ")[[1]][-(1:4)],
                   c(if (debian_r) c("r-base-dev", debian(main_r)), pandoc, opencl)) &&
          startsWith(apt[2], "install -y -qq --no-install-recommends"), c(apt, r$out))
  check("... then, R not finding them (site library hidden), says so, status 1",
        r$status == 1L && no_r_error(r) && any(grepl("but R does not look there", r$out)),
        r$out)

  # (d) this machine: the README's two commands (the second's setup only: the tests are
  # what runs this), the first installing into a temporary library
  readme <- readLines("README.md", warn = FALSE)
  from <- grep("^## Two commands", readme)
  block <- readme[(from + which(readme[-(1:from)] == "```sh")[1] + 1):length(readme)]
  block <- block[seq_len(which(block == "```")[1] - 1L)]
  commands <- block[nzchar(block) & !startsWith(block, "#")]
  second <- strsplit(commands[2], " && ", fixed = TRUE)[[1]][1]
  r <- run(".", second, character(0))
  check(sprintf("this machine: %s finds everything the tests need", second),
        r$status == 0L && any(grepl("everything the tests need is here", r$out)), r$out)
  lib <- file.path(home, "library")
  dir.create(lib)
  started <- proc.time()[["elapsed"]]
  r <- run(".", commands[1], paste0("R_LIBS=", shQuote(lib)))
  cat(sprintf("     (the README's first command: %.0f s)\n", proc.time()[["elapsed"]] - started))
  check(sprintf("this machine: %s installs somgpu and runs the main job", commands[1]),
        r$status == 0L && any(grepl("^<somgpu> 9 ring SOMs", r$out)), r$out)
  check("... built with its OpenCL backend, the main job on CPU and OpenCL, the same bits",
        any(grepl("^somgpu: building the CPU [(]OpenMP[)] and OpenCL backends", r$out)) &&
          any(grepl("^OpenCL: the same problem on ", r$out)) &&
          any(grepl("same bits as the CPU backend's", r$out, fixed = TRUE)), r$out)
  found <- file.exists(file.path(lib, "somgpu")) &&
    all(c("somgpu", "choosing-groups") %in%
          utils::vignette(package = "somgpu", lib.loc = lib)$results[, "Item"])
  check("... its vignettes are installed, and the main job points to them",
        found && any(grepl("browseVignettes(\"somgpu\")", r$out, fixed = TRUE)), r$out)

  # (e) a machine where OpenCL cannot be had: the CPU-only build runs the main job and says so
  if (install_build("cpu-only")) {
    r <- run(".", paste(shQuote(rscript), "tools/seed-example.R"),
             paste0("R_LIBS=", shQuote(build_lib("cpu-only"))))
    check("a build without OpenCL: the main job trains on the CPU and says OpenCL is not built",
          r$status == 0L && any(grepl("^<somgpu> 9 ring SOMs", r$out)) &&
            any(grepl("^OpenCL: not built", r$out)), r$out)
  } else {
    check("a build without OpenCL installs", FALSE)
  }
  checks$counts()
}
