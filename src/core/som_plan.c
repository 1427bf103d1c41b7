/* som_plan.c: a family's shape and memory plans (som_plan.h). */
#include <stdlib.h>
#include <string.h>

#include "som_plan.h"

void som_family_of(const som_problem *p, som_family *f)
{
    int i, r = 1;
    memset(f, 0, sizeof *f);
    f->n = p->data.n;
    f->m = p->data.m;
    f->nmaps = p->nmaps;
    for (i = 0; i < p->nmaps; i++) {
        f->size_sum += p->size[i];
        if (p->size[i] > f->size_max) f->size_max = p->size[i];
        if (p->restart[i] + 1 > r) r = p->restart[i] + 1;
    }
    f->restarts = r < p->nmaps ? r : p->nmaps;
    for (i = 0; i < p->nmaps; i++) { /* as som_schedules counts them */
        int j;
        for (j = 0; j < i && p->sigma0[j] != p->sigma0[i]; j++) {}
        f->schedules += j == i;
    }
    f->passes = p->iter_max > 1 ? p->iter_max - 1 : 0;
    f->trace = p->trace != NULL;
    f->batch_block = p->batch_block;
    f->general = som_data_general(&p->data);
    f->sourced = p->data.src != NULL;
    f->views = p->view ? p->nviews : 1;
}

void *som_alloc(double count, size_t size)
{
    if (!(count >= 0) || count * (double)size >= (double)SIZE_MAX) return NULL;
    return malloc((size_t)count * size + (count == 0)); /* never malloc(0): NULL is failure */
}

void som_plan_add(som_plan *plan, const char *what, double bytes, int where)
{
    if (plan == NULL || plan->count >= SOM_PLAN_MAX || !(bytes > 0)) return;
    plan->buf[plan->count].what = what;
    plan->buf[plan->count].bytes = bytes;
    plan->buf[plan->count].where = where;
    plan->count++;
}
