/* som_status.h: how every core and backend entry point reports: a status code, and on
 * failure a status struct with the message (the glue turns it into an R error after
 * cleanup); the hooks through which the caller hears of progress and asks to stop; the
 * clock for time and rate limits. */
#ifndef SOM_STATUS_H
#define SOM_STATUS_H

/* Status codes returned by every core and backend entry point (R asks for them: somgpu's
 * constants()). */
enum {
    SOM_OK = 0,
    SOM_ERR_INVALID = 1,     /* a problem the caller should have validated        */
    SOM_ERR_NOMEM = 2,       /* an allocation failed                              */
    SOM_ERR_INTERRUPTED = 3, /* the interrupt hook asked to stop                  */
    SOM_ERR_UNAVAILABLE = 4, /* the backend was not built or has no device        */
    SOM_ERR_BACKEND = 5,     /* the backend failed (details in the status)        */
    SOM_ERR_FILE = 6         /* a data or clusters file could not be read/written */
};

/* The status a backend fills when it fails: a code, a message, and for OpenCL the
 * API status and the build log (owned by the status; free with som_status_clear). */
typedef struct {
    int code;
    int api_status;
    char message[512];
    char *log;
} som_status;

/* Callbacks the caller supplies; both run on the calling thread only, between chunks. */
typedef struct {
    int (*interrupted)(void *ud);               /* nonzero: stop as soon as possible */
    void (*progress)(void *ud, double fraction); /* share of the work done, 0..1      */
    void *ud;
} som_hooks;

/* (som_status.c) */
void som_status_init(som_status *st);
void som_status_clear(som_status *st);
/* Fill st with code and the printf-style message; returns code. */
int som_fail(som_status *st, int code, const char *fmt, ...);
double som_now_seconds(void); /* monotonic clock, for time and rate limits */

#endif
