/* som_plan.h: memory plans. What a call will allocate, buffer by buffer, from the family's
 * shape alone (so that R can refuse a call before anything is built): each allocating
 * module plans its own buffers next to the code that allocates them, with the same sizes.
 * Bounds where per-map padding would need every size. */
#ifndef SOM_PLAN_H
#define SOM_PLAN_H

#include <stddef.h>
#include <stdint.h>

#include "som_problem.h"

typedef struct {
    int64_t n;       /* rows                      */
    int m;           /* columns                   */
    int nmaps;       /* maps (sizes x restarts)   */
    int restarts;    /* maps per size (>= 1)      */
    double size_sum; /* neurons over all maps     */
    int size_max;    /* the largest map           */
    int passes;      /* iter_max - 1              */
    int trace;       /* a trace is recorded       */
    int batch_block; /* batch: rows per block     */
    int general;     /* the general path: column weights or missing values */
    int sourced;     /* the rows come from a source (windows of them are held) */
    int schedules;   /* distinct neighbourhood schedules (som_schedules; 0 counts as 1) */
    int views;       /* data sets the maps train on (som_problem's views; 0 counts as 1) */
} som_family;

enum { SOM_HOST = 0, SOM_DEVICE = 1 };
#define SOM_PLAN_MAX 40

typedef struct {
    int count;
    struct {
        const char *what;
        double bytes;
        int where; /* SOM_HOST or SOM_DEVICE */
    } buf[SOM_PLAN_MAX];
} som_plan;

/* --- (som_plan.c) --- */
/* The family of a problem. */
void som_family_of(const som_problem *p, som_family *f);
/* malloc of count elements of `size` bytes (a count from a plan, in double); NULL when
 * that many bytes cannot be addressed. */
void *som_alloc(double count, size_t size);
void som_plan_add(som_plan *plan, const char *what, double bytes, int where);

#endif
