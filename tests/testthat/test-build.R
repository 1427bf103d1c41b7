# The build: src/Makevars.in makes every object depend on each header its source includes
# (directly or through other headers) and on what the generated OpenCL kernel header
# embeds, so that a rebuild never keeps an object compiled against an older header. Checked
# by make itself, on a copy of the sources: each header in turn is made newer than every
# object, and the objects make would compile must include all those whose source reads it. Read
# from the sources beside the tests (the test command's run); R CMD check's copy of the
# tests has none.

# The layers' folders of src/ (configure lists each one's objects into src/Makevars).
layer_dirs <- function(src) sort(basename(list.dirs(src, recursive = FALSE)))

# The folders of Makevars.in's -I flags, in their order (where the compiler looks).
include_dirs <- function(src) {
  flags <- grep("^PKG_CPPFLAGS", readLines(file.path(src, "Makevars.in")), value = TRUE)
  sub("^-I", "", grep("^-I", strsplit(flags, "[[:space:]]+")[[1L]], value = TRUE))
}

# The quoted #include lines of `file` (a path relative to `src`), resolved as the compiler
# resolves them: the including file's folder first, then the -I folders of Makevars.in.
# The files included as src-relative paths; a name found nowhere is kept as it is written
# (the test then finds no such file and says so).
quoted_includes <- function(src, file) {
  lines <- readLines(file.path(src, file), warn = FALSE)
  pattern <- '^[[:space:]]*#[[:space:]]*include[[:space:]]*"([^"]+)".*$'
  names <- sub(pattern, "\\1", grep(pattern, lines, value = TRUE))
  dirs <- c(dirname(file), include_dirs(src))
  vapply(names, function(name) {
    hit <- file.path(dirs, name)
    hit <- sub("^[.]/", "", hit[file.exists(file.path(src, hit))])
    if (length(hit)) hit[1L] else name
  }, "", USE.NAMES = FALSE)
}

# What the generated kernel header holds, as paths relative to `src`: the files that
# tools/embed-kernels.sh concatenates, and the script itself.
kernel_inputs <- function(root) {
  script <- readLines(file.path(root, "tools", "embed-kernels.sh"), warn = FALSE)
  cat_line <- grep("^[[:space:]]*cat ", script, value = TRUE)
  files <- regmatches(cat_line, gregexpr("(src|inst)/[^[:space:]]+", cat_line))[[1L]]
  c(file.path("..", "tools", "embed-kernels.sh"),
    ifelse(startsWith(files, "src/"), sub("^src/", "", files), file.path("..", files)))
}

# Every file an object's source reads, through its includes (the kernel header through
# what it embeds), the source itself first.
include_closure <- function(src, file, kernels) {
  seen <- character(0)
  todo <- file
  while (length(todo)) {
    f <- todo[1L]
    todo <- todo[-1L]
    if (f %in% seen) next
    seen <- c(seen, f)
    if (basename(f) == "som_kernels.h") {
      todo <- c(todo, kernels)
    } else if (grepl("[.][ch]$", f) && file.exists(file.path(src, f))) {
      todo <- c(todo, quoted_includes(src, f))
    }
  }
  seen
}

# src/Makevars from src/Makevars.in as configure writes it for a build with OpenCL (the
# build whose objects read the most headers).
write_makevars <- function(src, objects) {
  sub_objects <- function(dirs) {
    paste(objects[dirname(objects) %in% dirs | objects == "init.o"], collapse = " ")
  }
  text <- readLines(file.path(src, "Makevars.in"))
  values <- c(OBJECTS = paste(objects, collapse = " "),
              OCL_OBJECTS = paste(objects[dirname(objects) == "opencl"], collapse = " "),
              R_OBJECTS = sub_objects("r"), OCL_DEPS = "opencl/som_kernels.h",
              OCL_CPPFLAGS = "-DSOMGPU_HAVE_OPENCL", OCL_LIBS = "-lOpenCL", FP_CFLAGS = "",
              MAKEVARS = "Makevars")
  for (k in names(values)) text <- gsub(paste0("@", k, "@"), values[[k]], text, fixed = TRUE)
  writeLines(text, file.path(src, "Makevars"))
  text
}

test_that("Makevars.in rebuilds every object whose source includes a changed header", {
  root <- test_path("..", "..")
  skip_if_not(file.exists(file.path(root, "src", "Makevars.in")) &&
                file.exists(file.path(root, "tools", "embed-kernels.sh")),
              "no package sources beside the tests (R CMD check's copy of them)")
  make <- Sys.which("make")
  skip_if(!nzchar(make), "no make here")
  # a copy of what the build reads: src, the kernels and the script that embeds them
  copy <- withr::local_tempdir()
  for (d in c("src", "inst", "tools")) dir.create(file.path(copy, d))
  file.copy(file.path(root, "src", c("Makevars.in", "init.c")), file.path(copy, "src"))
  layers <- layer_dirs(file.path(root, "src"))
  expect_setequal(include_dirs(file.path(root, "src")), layers) # -I names every layer
  for (script in c("configure", "configure.win")) { # and both configures list its objects
    line <- grep("^objects=|@OBJECTS@", readLines(file.path(root, script)), value = TRUE)
    listed <- sub("^`objects_of ", "", regmatches(line, regexpr("`objects_of [^`]*", line)))
    expect_setequal(strsplit(listed, " ")[[1L]], layers)
  }
  for (d in layers) {
    file.copy(file.path(root, "src", d), file.path(copy, "src"), recursive = TRUE)
  }
  file.copy(file.path(root, "inst", "cl"), file.path(copy, "inst"), recursive = TRUE)
  file.copy(file.path(root, "tools", "embed-kernels.sh"), file.path(copy, "tools"))
  src <- file.path(copy, "src")
  unlink(list.files(src, "[.](o|so|dll)$", recursive = TRUE, full.names = TRUE))
  unlink(file.path(src, c("Makevars", "Makevars.win")))
  expect_identical(withr::with_dir(copy, system2("sh", c("tools/embed-kernels.sh",
                                                        "src/opencl/som_kernels.h"))), 0L)
  # configure's objects: init.c and every C file of the layers' folders
  sources <- c("init.c", unlist(lapply(layers, function(d) {
    file.path(d, list.files(file.path(src, d), "[.]c$"))
  })))
  objects <- sub("[.]c$", ".o", sources)
  made <- write_makevars(src, objects)
  expect_false(any(grepl("@[A-Z_]+@", made))) # every placeholder configure fills, filled
  kernels <- kernel_inputs(copy)
  reads <- lapply(sources, include_closure, src = src, kernels = kernels)
  names(reads) <- objects
  # every file named exists (a misspelt or removed header is not silently skipped)
  named <- unique(unlist(reads))
  expect_identical(named[!file.exists(file.path(src, named))], character(0))
  # make compiles nothing here, it names what it would compile
  writeLines(c(".SUFFIXES:", ".SUFFIXES: .c .o", ".c.o:", "\t@echo compile $@"),
             file.path(src, "probe.mk"))
  everything <- c(list.files(src, recursive = TRUE, full.names = TRUE),
                  list.files(file.path(copy, c("inst", "tools")), recursive = TRUE,
                             full.names = TRUE))
  base <- Sys.time() - 3600
  inputs <- setdiff(unique(c(unlist(reads), kernels)), sources)
  expect_true(all(c("cpu/som_cpu_batch_cut_t.h", "r/r_hooks.h", "opencl/som_kernels.h",
                    "../inst/cl/som_batch.cl") %in% inputs))
  for (h in inputs) {
    Sys.setFileTime(everything, base)
    file.create(file.path(src, objects))
    Sys.setFileTime(file.path(src, objects), base + 60)
    Sys.setFileTime(file.path(src, h), base + 120)
    out <- withr::with_dir(src, suppressWarnings(system2(
      make, c("-r", "-f", "Makevars", "-f", "probe.mk", objects), stdout = TRUE,
      stderr = TRUE)))
    expect_null(attr(out, "status"), label = paste("make after", h, "changed"))
    compiled <- sub("^compile ", "", grep("^compile ", out, value = TRUE))
    # (a rule may name more: that costs a rebuild, never a stale object)
    missed <- setdiff(objects[vapply(reads, function(r) h %in% r, TRUE)], compiled)
    expect(length(missed) == 0L, sprintf(
      "%s changed and make would keep %s, which read%s it: add it to their rule in src/Makevars.in",
      h, paste(missed, collapse = " "), if (length(missed) == 1L) "s" else ""))
  }
  # and nothing when nothing changed
  Sys.setFileTime(everything, base)
  Sys.setFileTime(file.path(src, objects), base + 60)
  out <- withr::with_dir(src, system2(make, c("-r", "-f", "Makevars", "-f", "probe.mk",
                                              objects), stdout = TRUE, stderr = TRUE))
  expect_identical(grep("^compile ", out, value = TRUE), character(0))
})
