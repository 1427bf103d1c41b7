# Conditions raised by somgpu. Every error is a `somgpu_error`; bad input is also a
# `somgpu_input_error`, so callers can tell "fix your call" from "something broke".

somgpu_condition <- function(message, class, call = NULL, ...) {
  structure(
    class = c(class, "somgpu_error", "error", "condition"),
    list(message = message, call = call, ...)
  )
}

abort <- function(message, class = character(), call = NULL, ...) {
  stop(somgpu_condition(message, class, call, ...))
}

abort_input <- function(message, call = NULL) {
  abort(message, "somgpu_input_error", call)
}

# An internal check (a broken promise between somgpu's own functions, never the user's
# input): a somgpu_internal_error, so that even a bug reaches the user on the one channel.
check_internal <- function(ok, what) {
  if (!isTRUE(ok)) {
    abort(sprintf("somgpu internal error: %s. Please report it with the call that led here.",
                  what), "somgpu_internal_error")
  }
  invisible(TRUE)
}

# A message of somgpu's (what happened that the user should know, the call going on): a
# `somgpu_message`, so that it can be muffled by class.
inform <- function(message, class = character()) {
  message(structure(class = c(class, "somgpu_message", "message", "condition"),
                    list(message = paste0(message, "\n"), call = NULL)))
}

# A deprecated way of doing something: a warning of class `somgpu_deprecated` (and R's
# `deprecatedWarning`), so that it can be caught or muffled by class.
warn_deprecated <- function(message, call = NULL) {
  warning(structure(class = c("somgpu_deprecated", "deprecatedWarning", "warning", "condition"),
                    list(message = message, call = call)))
}

# A suggested package that `what` needs: a `somgpu_package_error` naming the missing ones.
need_packages <- function(packages, what, call) {
  missing <- packages[!vapply(packages, requireNamespace, logical(1), quietly = TRUE)]
  if (length(missing)) {
    abort(sprintf("%s needs the package%s %s: install.packages(%s).", what,
                  if (length(missing) == 1L) "" else "s", paste(missing, collapse = " and "),
                  paste(deparse(missing), collapse = "")),
          "somgpu_package_error", call)
  }
  invisible(TRUE)
}

# Arguments `bad` that `fun` does not take: an input error that names them and suggests the
# nearest of `known` (within two edits) for each.
abort_unknown_args <- function(bad, known, fun, call) {
  near <- near_names(bad, known)
  if (length(bad) == 1L) {
    abort_input(sprintf("`%s` is not an argument of %s%s.", bad, fun, near), call)
  }
  # each name with its own suggestion: "`a` (did you mean `b`?), `c` and `d` are not ..."
  names <- paste0("`", bad, "`", near)
  abort_input(sprintf("%s and %s are not arguments of %s.",
                      paste(names[-length(names)], collapse = ", "), names[length(names)], fun),
              call)
}

# For each of the names `bad`, " (did you mean `x`?)" with x the nearest of `known` within
# two edits, or "".
near_names <- function(bad, known) {
  vapply(bad, function(b) {
    if (!length(known)) return("")
    d <- utils::adist(b, known, ignore.case = TRUE)
    if (min(d) <= 2) sprintf(" (did you mean `%s`?)", known[which.min(d)]) else ""
  }, character(1), USE.NAMES = FALSE)
}

# Names `bad` that are none of `known` (`what`, in words: "constants of ..."): an input
# error naming each with the nearest known name.
abort_unknown_names <- function(bad, known, what, call) {
  abort_input(sprintf("%s %s none of the %s.", paste0("`", bad, "`", near_names(bad, known), collapse = ", "),
                      if (length(bad) == 1L) "is" else "are", what), call)
}

# A method's `...` that it does not use (`dots`, list(...)): nothing, or an input error that
# names what it got (a misspelt argument would otherwise be dropped without a word), with the
# nearest of the method's own arguments (`fun`, the method; `name`, how messages call it).
check_dots_used <- function(dots, fun, name, call) {
  if (!length(dots)) return(invisible(TRUE))
  nm <- names(dots)
  if (is.null(nm) || !all(nzchar(nm))) {
    abort_input(sprintf("%s got %s it does not take; name the arguments (see its help page).",
                        name, if (length(dots) == 1L) "an unnamed argument" else "unnamed arguments"),
                call)
  }
  abort_unknown_args(nm, setdiff(names(formals(fun))[-1L], "..."), name, call) # not the object
}

# An interrupt (Ctrl-C) that the compiled code noticed and stopped for, after releasing what
# it held. It is signalled as an `interrupt` condition, not an error, so handlers for
# interrupts see it and `tryCatch(error = )` does not; unhandled, it returns to the top
# level as R does for Ctrl-C (no error message, no options(error) action).
signal_interrupt <- function(call = NULL) {
  cond <- structure(
    class = c("somgpu_interrupt", "interrupt", "condition"),
    list(message = "somgpu: interrupted by the user; nothing was kept.", call = call)
  )
  signalCondition(cond)
  invokeRestart("abort")
}

# Run a .Call of the package and turn what can go wrong into somgpu conditions: a status
# object returned by the glue, or an R error raised while allocating the result. Failures of
# an OpenCL call (a status with an OpenCL status code) are `somgpu_opencl_error`s carrying
# the status name and, for a failed kernel build, the build log.
call_core <- function(what, call, fun, ...) {
  res <- tryCatch(fun(...), error = function(e) {
    msg <- conditionMessage(e)
    memory <- grepl("cannot allocate|vector memory|too many elements|too large", msg)
    abort(sprintf("somgpu could not %s: %s", what, msg),
          if (memory) "somgpu_memory_error" else "somgpu_internal_error", call)
  })
  if (!inherits(res, "somgpu_status")) return(res)
  # an error R signalled while the compiled code checked for interrupts (a time limit set
  # with setTimeLimit()), once everything was released: raised as it was
  if (!is.null(res$condition)) stop(res$condition)
  code <- res$code
  status_codes <- constants()$status # the core's codes (src/core/som_status.h)
  msg <- sprintf("somgpu could not %s: %s.", what, res$message)
  if (code == status_codes[["interrupted"]]) signal_interrupt(call)
  if (code == status_codes[["nomem"]]) {
    abort(paste(msg, "Train fewer or smaller maps at once, or free memory."),
          "somgpu_memory_error", call)
  }
  if (res$api_status != 0L || length(res$log)) {
    log <- if (length(res$log)) res$log else NULL
    if (!is.null(log)) {
      lines <- strsplit(log, "\n")[[1]]
      shown <- utils::head(lines[nzchar(trimws(lines))], 20L)
      msg <- paste0(msg, "\nBuild log", if (length(lines) > 20L) " (start)" else "", ":\n",
                    paste(shown, collapse = "\n"))
    }
    abort(msg, "somgpu_opencl_error", call, status = res$api_status_name,
          status_code = res$api_status, log = log)
  }
  if (code == status_codes[["unavailable"]]) abort(msg, "somgpu_backend_error", call)
  if (code == status_codes[["file"]]) {
    abort(paste(msg, "Check that the file is there, readable (writable for clusters), complete, and that the descriptor belongs to it."),
          "somgpu_file_error", call)
  }
  abort(msg, "somgpu_internal_error", call, status_code = code)
}

# The call as the user made it, with values too large to keep (data passed through
# do.call()) replaced by a short description, and a function called through do.call() by
# its name.
compact_call <- function(call, name = "train") {
  if (!is.name(call[[1]])) call[[1]] <- as.name(name)
  if (length(call) > 1L) {
    for (i in seq(2L, length(call))) {
      a <- call[[i]]
      if (!is.language(a) && !is.null(a) && (length(a) > 10L || is.list(a) || !is.null(dim(a)))) {
        call[[i]] <- as.name(sprintf("<%s>", describe(a)))
      }
    }
  }
  call
}
