/* r_backend.h: R's list(name, threads, ...) read into a backend (r_backend.c), through a
 * registry with an entry per backend: its name in R, how its settings are read, what it
 * reports after a run. A new backend is a folder beside cpu/ and opencl/, a member of
 * r_backend's settings and an entry in the registry; its callers (C_train, C_memory_plan,
 * the data-parallel batch) do not change. */
#ifndef SOM_R_BACKEND_H
#define SOM_R_BACKEND_H

#define R_NO_REMAP
#include <Rinternals.h>

#include "som_cpu.h"
#include "som_ocl.h"
#include "r_hooks.h"

/* The registry's entries, in the order of R's backend names. */
enum { R_BACKEND_CPU, R_BACKEND_OPENCL, R_BACKEND_SHARDS };

/* What the shards engine's gather calls: R's function(weights, pass) (R/train_shards.R), through
 * the hooks of the run (set by backend_hooks()). */
typedef struct {
    SEXP fun;
    glue_ud *hooks;
} r_gather;

/* A backend read from R: its engines (be, whose cfg points into `cfg`: an r_backend is
 * used where it was read, never copied), its entry, its settings. */
typedef struct {
    som_backend be;
    int kind;
    union {
        som_cpu_cfg cpu;
        som_ocl_cfg ocl;
        som_shards_cfg shards;
    } cfg;
    r_gather gather; /* the shards backend's                                            */
} r_backend;

/* The backend of list(name, threads, ...) (each backend's own settings: see r_backend.c);
 * SOM_ERR_INVALID when its settings are no longer usable (an OpenCL context gone). */
int backend_of(SEXP backend, r_backend *rb, som_status *st);
/* The hooks of the run, for a backend that calls R while the core runs (the shards' gather):
 * call once the hooks are made, before the core runs. */
void backend_hooks(r_backend *rb, glue_ud *hooks);
/* What the backend reports about a run that finished: the names of the kernels that ran
 * (character(0) for a backend with none). */
SEXP backend_ran(const r_backend *rb);
/* The shards engine's gather (r_shards.c): ud is the backend's r_gather. */
int r_shards_gather(void *ud, const som_problem *p, double *const *w, int t, double *nodes,
                    size_t count, som_status *st);
/* The registry's backends users choose (shards: only those the workers of the data-parallel
 * batch run), for R's constants(). */
SEXP backend_names(int shards);
/* The names of the kernels of the SOM_RAN_* bits in `used`. */
SEXP ran_names(int used);

#endif
