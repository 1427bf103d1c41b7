/* som_lanes.h: online training of several small maps side by side, one map per lane of a
 * vector (som_cpu_lanes_t.h). Rings of a few dozen neurons are too short to fill a register
 * along their neurons, so a pack of maps of similar size (4 in double precision, 8 in
 * single: one AVX2 register) moves on together, each lane through its own visiting order,
 * winner and factors. Every lane does exactly the scalar rule's operations in the scalar
 * rule's order (distances summed over the dimensions in order, the strict winner rule over
 * ascending neurons, w += h * (x - w)), so each map's bits are those of the one-map path. A
 * pack's neurons beyond a lane's ring (and unused lanes) hold NaN: their distance is never
 * closer, and they stay NaN. */
#ifndef SOM_LANES_H
#define SOM_LANES_H

#include "som_vec.h"

/* The largest ring trained in a pack (and the most dimensions: SOM_VEC_MAX_DIM). */
#define SOM_LANE_MAX_SIZE 48

/* The general path (missing values, column weights) and rows of up to SOM_LANE_MAX_DIM
 * dimensions train in packs too (a kernel of their own: lanes_train_general). Beyond
 * SOM_VEC_MAX_DIM dimensions only rings up to SOM_LANE_WIDE_SIZE go in packs: a map alone
 * keeps blocks of neurons in flight once its ring fills a few registers, while the
 * smallest rings alone wait on each dimension's add (on 99 columns, 8 trained the fit 2 to
 * 3% faster than 0 or 12). */
#define SOM_LANE_MAX_DIM 256
#define SOM_LANE_WIDE_SIZE 8

/* Without vectors (som_vec.h) every map takes the one-map path. */
#define SOM_HAVE_LANES SOM_HAVE_VEC

#endif
