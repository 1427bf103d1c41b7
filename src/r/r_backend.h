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

/* The registry's entries, in the order of R's backend names. */
enum { R_BACKEND_CPU, R_BACKEND_OPENCL };

/* A backend read from R: its engines (be, whose cfg points into `cfg`: an r_backend is
 * used where it was read, never copied), its entry, its settings. */
typedef struct {
    som_backend be;
    int kind;
    union {
        som_cpu_cfg cpu;
        som_ocl_cfg ocl;
    } cfg;
} r_backend;

/* The backend of list(name, threads, ...) (each backend's own settings: see r_backend.c);
 * SOM_ERR_INVALID when its settings are no longer usable (an OpenCL context gone). */
int backend_of(SEXP backend, r_backend *rb, som_status *st);
/* What the backend reports about a run that finished: the names of the kernels that ran
 * (character(0) for a backend with none). */
SEXP backend_ran(const r_backend *rb);
/* The registry's names (shards: only the backends that run the data-parallel batch), for
 * R's constants(). */
SEXP backend_names(int shards);
/* The names of the kernels of the SOM_RAN_* bits in `used`. */
SEXP ran_names(int used);

#endif
