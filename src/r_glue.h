/* r_glue.h: the .Call entry points, for registration in init.c. */
#ifndef SOM_R_GLUE_H
#define SOM_R_GLUE_H

#include <Rinternals.h>

SEXP C_train(SEXP y, SEXP size, SEXP restart, SEXP iter_max, SEXP sigma0, SEXP eta0,
             SEXP init, SEXP init_w, SEXP seed, SEXP algorithm, SEXP batch_block,
             SEXP threads, SEXP progress, SEXP ctx, SEXP opts, SEXP trace);
SEXP C_ocl_devices(void);
SEXP C_ocl_open(SEXP index, SEXP precision, SEXP source);
SEXP C_ocl_close(SEXP ptr);
SEXP C_ocl_valid(SEXP ptr);
SEXP C_assess(SEXP y, SEXP weights, SEXP want_clusters, SEXP threads, SEXP round_units);
SEXP C_build_info(void);
SEXP C_data_scan(SEXP x);
SEXP C_philox(SEXP ctr, SEXP key);
SEXP C_xoshiro_draws(SEXP state, SEXP k, SEXP count);
SEXP C_visit_order(SEXP n, SEXP seed, SEXP size, SEXP restart, SEXP pass, SEXP sample);

#endif
