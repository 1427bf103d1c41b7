/* som_status.c: statuses (som_status.h) and the monotonic clock. */
#define _POSIX_C_SOURCE 200809L /* clock_gettime */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#ifdef _WIN32
#include <windows.h>
#endif

#include "som_status.h"

void som_status_init(som_status *st)
{
    st->code = SOM_OK;
    st->api_status = 0;
    st->message[0] = '\0';
    st->log = NULL;
}

void som_status_clear(som_status *st)
{
    free(st->log);
    som_status_init(st);
}

int som_fail(som_status *st, int code, const char *fmt, ...)
{
    va_list ap;
    st->code = code;
    va_start(ap, fmt);
    vsnprintf(st->message, sizeof st->message, fmt, ap);
    va_end(ap);
    return code;
}

/* Seconds on a monotonic clock (for time limits and rate limits, not for dates). */
#ifdef _WIN32
double som_now_seconds(void)
{
    LARGE_INTEGER f, c;
    QueryPerformanceFrequency(&f);
    QueryPerformanceCounter(&c);
    return (double)c.QuadPart / (double)f.QuadPart;
}
#else
double som_now_seconds(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}
#endif
