/* r_hooks.c: interrupts and progress for the core (som_hooks), from R: the core calls
 * them between chunks of work on the calling thread, and they never let an R error,
 * interrupt or other jump pass over the core's cleanup. */
#include <setjmp.h>
#include <string.h>

#define R_NO_REMAP
#include <R.h>
#include <Rinternals.h>

#include <cli/progress.h>

#include "r_hooks.h"
#include "r_glue.h"

/* Progress goes to cli's bar, made before the core runs, or to an R function of the share
 * done (train() on a future worker passes one that signals progressr updates). Either is
 * updated between chunks of work, on this thread: the bar when cli's timer ticks, the
 * function at most every PROGRESS_FN_SECONDS (cli's timer only runs with a bar). Neither
 * lets an R error, interrupt or other jump pass over the core's cleanup: the bar runs in a
 * top-level context; the function inside tryCatch(error, interrupt) (a failing function is
 * dropped, an interrupt stops the run), itself inside R_UnwindProtect: any other jump (a
 * restart, an exiting handler outside train()) stops the run, and C_train continues it
 * once the core has released everything. The function must not be called in a top-level
 * context: progressr's handlers are outside train(). */
#define PROGRESS_TOTAL 1000
#define PROGRESS_FN_SECONDS 0.2


static SEXP check_interrupt(void *unused)
{
    (void)unused;
    R_CheckUserInterrupt();
    return R_NilValue;
}

/* What stopped R_CheckUserInterrupt: a user interrupt, or an error (a time limit set by
 * setTimeLimit(), which R checks there too), kept for r_hooks_end to raise again. */
static SEXP interrupt_caught(SEXP cond, void *ud_)
{
    glue_ud *ud = ud_;
    if (Rf_inherits(cond, "interrupt")) {
        ud->interrupted = 1;
    } else {
        SET_VECTOR_ELT(ud->keep, 3, cond);
        ud->error = cond;
    }
    return R_NilValue;
}

/* R_CheckUserInterrupt would jump over the core's cleanup: catch what it signals and report
 * instead. */
static int glue_interrupted(void *ud_)
{
    glue_ud *ud = ud_;
    if (!(ud->interrupted || ud->unwinding || ud->error != R_NilValue))
        R_tryCatch(check_interrupt, NULL, ud->conds, interrupt_caught, ud, NULL, NULL);
    return ud->interrupted || ud->unwinding || ud->error != R_NilValue;
}

static void update_bar(void *ud_)
{
    glue_ud *ud = ud_;
    cli_progress_set(ud->bar, ud->fraction * PROGRESS_TOTAL);
}

static SEXP call_progress_fn(void *ud_)
{
    glue_ud *ud = ud_;
    SEXP fraction = PROTECT(Rf_ScalarReal(ud->fraction));
    SEXP call = PROTECT(Rf_lang2(ud->fn, fraction));
    Rf_eval(call, R_GlobalEnv);
    UNPROTECT(2);
    return R_NilValue;
}

/* A progress function that failed is not called again; an interrupt stops the run. */
static SEXP progress_fn_failed(SEXP cond, void *ud_)
{
    glue_ud *ud = ud_;
    if (Rf_inherits(cond, "interrupt")) ud->interrupted = 1;
    ud->fn = R_NilValue;
    return R_NilValue;
}

static SEXP call_progress_caught(void *ud_)
{
    glue_ud *ud = ud_;
    return R_tryCatch(call_progress_fn, ud, ud->conds, progress_fn_failed, ud, NULL, NULL);
}

/* R_UnwindProtect's cleanup: on a jump, come back to glue_progress instead of unwinding
 * through the core. */
static void jump_back(void *jb, Rboolean jump)
{
    if (jump) longjmp(*(jmp_buf *)jb, 1);
}

static void glue_progress(void *ud_, double fraction)
{
    glue_ud *ud = ud_;
    if (ud->bar == R_NilValue && ud->fn == R_NilValue) return;
    ud->fraction = fraction < 0 ? 0 : fraction > 1 ? 1 : fraction;
    if (ud->bar != R_NilValue) {
        if (CLI_SHOULD_TICK) R_ToplevelExec(update_bar, ud);
        return;
    }
    double now = som_now_seconds();
    if (now - ud->fn_called < PROGRESS_FN_SECONDS) return;
    ud->fn_called = now;
    {
        jmp_buf jb;
        if (setjmp(jb)) {
            ud->unwinding = 1;
            ud->fn = R_NilValue;
            return;
        }
        R_UnwindProtect(call_progress_caught, ud, jump_back, &jb, ud->cont);
    }
}

/* r_hooks_call(): an R call from the core, never jumping over it. */
typedef struct {
    glue_ud *ud;
    SEXP call;
} safe_call;

static SEXP eval_call(void *c_)
{
    return Rf_eval(((safe_call *)c_)->call, R_GlobalEnv);
}

static SEXP eval_caught(void *c_)
{
    safe_call *c = c_;
    /* an interrupt stops the run; an error is kept for r_hooks_end to raise as it is */
    return R_tryCatch(eval_call, c, c->ud->conds, interrupt_caught, c->ud, NULL, NULL);
}

SEXP r_hooks_call(glue_ud *ud, SEXP call)
{
    safe_call c;
    jmp_buf jb;
    if (ud->interrupted || ud->unwinding || ud->error != R_NilValue) return R_NilValue;
    if (ud->cont == R_NilValue) SET_VECTOR_ELT(ud->keep, 2, ud->cont = R_MakeUnwindCont());
    c.ud = ud;
    c.call = call;
    if (setjmp(jb)) {
        ud->unwinding = 1;
        return R_NilValue;
    }
    return R_UnwindProtect(eval_caught, &c, jump_back, &jb, ud->cont);
}

/* A cli progress bar named `name`. */
static SEXP progress_bar(const char *name)
{
    SEXP config = PROTECT(Rf_allocVector(VECSXP, 1)), bar;
    SET_VECTOR_ELT(config, 0, Rf_mkString(name));
    Rf_setAttrib(config, R_NamesSymbol, Rf_mkString("name"));
    bar = cli_progress_bar(PROGRESS_TOTAL, config);
    UNPROTECT(1);
    return bar;
}

static void done_bar(void *bar)
{
    cli_progress_done((SEXP)bar);
}

som_hooks r_hooks_start(glue_ud *ud, SEXP keep, SEXP progress, const char *name)
{
    som_hooks hooks = r_hooks_interrupt_only(ud, keep);
    const int fn = Rf_isFunction(progress);
    if (!fn && Rf_asLogical(progress) == TRUE)
        SET_VECTOR_ELT(keep, 0, ud->bar = progress_bar(name));
    if (fn) {
        SET_VECTOR_ELT(keep, 2, ud->cont = R_MakeUnwindCont());
        ud->fn = progress;
        ud->fn_called = som_now_seconds();
    }
    hooks.interrupted = glue_interrupted;
    hooks.progress = glue_progress;
    hooks.ud = ud;
    return hooks;
}

som_hooks r_hooks_interrupt_only(glue_ud *ud, SEXP keep)
{
    som_hooks hooks;
    memset(ud, 0, sizeof *ud);
    ud->bar = ud->fn = ud->cont = ud->error = R_NilValue;
    ud->keep = keep;
    SET_VECTOR_ELT(keep, 1, ud->conds = Rf_allocVector(STRSXP, 2));
    SET_STRING_ELT(ud->conds, 0, Rf_mkChar("error"));
    SET_STRING_ELT(ud->conds, 1, Rf_mkChar("interrupt"));
    hooks.interrupted = glue_interrupted;
    hooks.progress = NULL;
    hooks.ud = ud;
    return hooks;
}

SEXP r_hooks_end(glue_ud *ud, som_status *st)
{
    if (ud->bar != R_NilValue) R_ToplevelExec(done_bar, ud->bar);
    if (ud->unwinding) { /* the core has cleaned up: let the progress function's jump go on */
        som_status_clear(st);
        R_ContinueUnwind(ud->cont);
    }
    return ud->error;
}
