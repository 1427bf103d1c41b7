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

# An interrupt (Ctrl-C) that the compiled code noticed and stopped for, after releasing what
# it held. It is an `interrupt` condition, not an error, so `tryCatch(error = )` does not
# swallow it; unhandled, it ends the call like any interrupt.
signal_interrupt <- function(call = NULL) {
  cond <- structure(
    class = c("somgpu_interrupt", "interrupt", "condition"),
    list(message = "somgpu: interrupted by the user; nothing was kept.", call = call)
  )
  stop(cond)
}

# Status codes of the C core (src/som_core.h).
status_codes <- c(ok = 0L, invalid = 1L, nomem = 2L, interrupted = 3L, unavailable = 4L,
                  backend = 5L)

# Run a .Call of the package and turn what can go wrong into somgpu conditions: a status
# object returned by the glue, or an R error raised while allocating the result.
call_core <- function(what, call, fun, ...) {
  res <- tryCatch(fun(...), error = function(e) {
    abort(sprintf("somgpu could not %s: %s", what, conditionMessage(e)),
          "somgpu_memory_error", call)
  })
  if (!inherits(res, "somgpu_status")) return(res)
  code <- res$code
  msg <- sprintf("somgpu could not %s: %s.", what, res$message)
  if (code == status_codes[["interrupted"]]) signal_interrupt(call)
  if (code == status_codes[["nomem"]]) {
    abort(paste(msg, "Train fewer or smaller maps at once, or free memory."),
          "somgpu_memory_error", call)
  }
  if (code == status_codes[["unavailable"]]) abort(msg, "somgpu_backend_error", call)
  abort(msg, "somgpu_internal_error", call, status = code, api_status = res$api_status,
        log = res$log)
}
