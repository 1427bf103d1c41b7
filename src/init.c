/* init.c: the package's entry point, R's routine registration of the R glue (src/r); symbols
 * are only reachable through the registered table. The one C file at the top of src/ (R CMD
 * check wants one there; the layers are the folders). */
#include <stdlib.h>

#include <R.h>
#include <R_ext/Rdynload.h>
#include <Rinternals.h>

#include "r_glue.h"
#include "som_omp.h"

static const R_CallMethodDef call_methods[] = {
    {"C_train", (DL_FUNC)&C_train, 4},
    {"C_assess", (DL_FUNC)&C_assess, 3},
    {"C_memory_plan", (DL_FUNC)&C_memory_plan, 2},
    {"C_constants", (DL_FUNC)&C_constants, 0},
    {"C_build_info", (DL_FUNC)&C_build_info, 0},
    {"C_data_scan", (DL_FUNC)&C_data_scan, 2},
    {"C_column_stats", (DL_FUNC)&C_column_stats, 2},
    {"C_scale_columns", (DL_FUNC)&C_scale_columns, 3},
    {"C_batch_shards", (DL_FUNC)&C_batch_shards, 5},
    {"C_shard_rows", (DL_FUNC)&C_shard_rows, 3},
    {"C_family_of", (DL_FUNC)&C_family_of, 2},
    {"C_agglomerate", (DL_FUNC)&C_agglomerate, 5},
    {"C_mixture_em", (DL_FUNC)&C_mixture_em, 4},
    {"C_nearest_rows", (DL_FUNC)&C_nearest_rows, 4},
    {"C_mst_rows", (DL_FUNC)&C_mst_rows, 1},
    {"C_genie", (DL_FUNC)&C_genie, 5},
    {"C_graph_communities", (DL_FUNC)&C_graph_communities, 4},
    {"C_ari_pairs", (DL_FUNC)&C_ari_pairs, 3},
    {"C_ocl_devices", (DL_FUNC)&C_ocl_devices, 0},
    {"C_ocl_open", (DL_FUNC)&C_ocl_open, 1},
    {"C_ocl_close", (DL_FUNC)&C_ocl_close, 1},
    {"C_ocl_valid", (DL_FUNC)&C_ocl_valid, 1},
    {"C_philox", (DL_FUNC)&C_philox, 2},
    {"C_visit_order", (DL_FUNC)&C_visit_order, 1},
    {"C_xoshiro_draws", (DL_FUNC)&C_xoshiro_draws, 1},
    {NULL, NULL, 0}};

void R_init_somgpu(DllInfo *dll)
{
    R_registerRoutines(dll, NULL, call_methods, NULL, NULL);
    R_useDynamicSymbols(dll, FALSE);
    R_forceSymbols(dll, TRUE);
    som_threads_init();
    som_isa_set(getenv("SOMGPU_ISA")); /* the kernels' version: som_isa.c */
}
