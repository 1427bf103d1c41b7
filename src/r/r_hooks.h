/* r_hooks.h: the core's hooks from R (r_hooks.c): interrupts and progress, checked on the
 * thread that runs the core, and what they hold while it runs (glue_ud). */
#ifndef SOM_R_HOOKS_H
#define SOM_R_HOOKS_H

#include "r_args.h"

typedef struct {
    SEXP keep;       /* the caller's protected list of R_HOOKS_KEEP: holds what follows */
    SEXP bar;        /* cli progress bar, or R_NilValue */
    SEXP fn;         /* R function(fraction), or R_NilValue */
    SEXP conds;      /* c("error", "interrupt"): what may not jump over the core */
    SEXP cont;       /* R_UnwindProtect's continuation token when fn is set */
    SEXP error;      /* an error signalled while checking for interrupts (a time limit) */
    double fraction;
    double fn_called; /* som_now_seconds() at the last call of fn */
    int interrupted;  /* an interrupt arrived while fn ran */
    int unwinding;    /* fn jumped out: continue that jump after the core's cleanup */
} glue_ud;

/* Hooks with progress: `progress` is TRUE (a cli bar named `name`), FALSE, or an R
 * function of the share done. `keep` is a protected list of R_HOOKS_KEEP that holds what
 * they make. An interrupt stops the core; so does an error R signals while checking for
 * one (a time limit): r_hooks_end then hands it back. */
#define R_HOOKS_KEEP 4
som_hooks r_hooks_start(glue_ud *ud, SEXP keep, SEXP progress, const char *name);
/* Hooks that only check for interrupts. */
som_hooks r_hooks_interrupt_only(glue_ud *ud, SEXP keep);
/* `call` evaluated for the core (on its thread, between chunks of work), never jumping over
 * it: its value (unprotected), or R_NilValue when it did not return one: an error is kept
 * for r_hooks_end to hand back, an interrupt stops the run, any other jump goes on after
 * the core's cleanup. */
SEXP r_hooks_call(glue_ud *ud, SEXP call);
/* After the core returned: close the bar; if the progress function jumped out, clear st
 * and continue that jump (this does not return then). Returns the error signalled while
 * checking for interrupts, or R_NilValue. */
SEXP r_hooks_end(glue_ud *ud, som_status *st);

#endif
