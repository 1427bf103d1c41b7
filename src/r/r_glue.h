/* r_glue.h: the entry points of somgpu's C code, registered in init.c. The files of src/r
 * are the only ones that include R's headers: r_glue.c (training, assessment, memory
 * plans, constants), r_data.c (the data, their scan and column statistics), r_shards.c
 * (data-parallel batch), r_opencl.c (devices and contexts), r_rng.c (the random streams,
 * for the known-answer tests), r_groups.c (Gaussian groups: cells joined, EM),
 * r_agreement.c (the ARI of pairs of clusterings), over r_backend.c (the registry of
 * backends), r_args.c (R values read into the core's structs) and r_hooks.c (interrupts
 * and progress). Every entry point takes R values (a named list where there are options,
 * read by name) and returns R values, or a status object (class somgpu_status) that R
 * turns into a classed condition. */
#ifndef SOM_R_GLUE_H
#define SOM_R_GLUE_H

#define R_NO_REMAP
#include <Rinternals.h>

#include "r_args.h"
#include "r_backend.h"
#include "r_data.h"
#include "r_hooks.h"
#include "som_assess.h"
#include "som_math.h"
#include "som_schedule.h"

/* --- entry points (registered in init.c) --- */
SEXP C_train(SEXP data, SEXP problem, SEXP backend, SEXP progress);
SEXP C_assess(SEXP data, SEXP weights, SEXP options);
SEXP C_memory_plan(SEXP family, SEXP backend);
SEXP C_family_of(SEXP data, SEXP problem);
SEXP C_agglomerate(SEXP n, SEXP s, SEXP q, SEXP c, SEXP model);
SEXP C_mixture_em(SEXP x, SEXP labels, SEXP columns, SEXP model);
SEXP C_nearest_rows(SEXP x, SEXP ref, SEXP m, SEXP neighbours);
SEXP C_mst_rows(SEXP x);
SEXP C_genie(SEXP from, SEXP to, SEXP p, SEXP k_max, SEXP gini);
SEXP C_graph_communities(SEXP knn, SEXP prune, SEXP resolution, SEXP order);
SEXP C_ari_pairs(SEXP C, SEXP pairs, SEXP k);
SEXP C_constants(void);
SEXP C_build_info(void);
SEXP C_data_scan(SEXP x, SEXP counted);
SEXP C_column_stats(SEXP x, SEXP center);
SEXP C_scale_columns(SEXP x, SEXP center, SEXP scale);
SEXP C_batch_shards(SEXP data, SEXP problem, SEXP backend, SEXP blocks, SEXP held);
SEXP C_shard_rows(SEXP data, SEXP first, SEXP rows);
SEXP C_ocl_devices(void);
SEXP C_ocl_open(SEXP device);
SEXP C_ocl_close(SEXP ptr);
SEXP C_ocl_valid(SEXP ptr);
SEXP C_philox(SEXP ctr, SEXP key);
SEXP C_xoshiro_draws(SEXP draws);
SEXP C_visit_order(SEXP order);

#endif
