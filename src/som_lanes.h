/* som_lanes.h: online training of several small maps side by side, one map per lane of a
 * vector (som_cpu_lanes.c). Rings of a few dozen neurons are too short to fill a register
 * along their neurons, so a pack of up to SOM_LANES maps moves on together, each lane
 * through its own visiting order, winner and factors. Every lane does exactly the scalar
 * rule's operations in the scalar rule's order (distances summed over the dimensions in
 * order, the strict winner rule over ascending neurons, w += h * (x - w)), so each map's
 * bits are those of the one-map path. A pack's neurons beyond a lane's ring (and unused
 * lanes) hold NaN: their distance is never closer, and they stay NaN. */
#ifndef SOM_LANES_H
#define SOM_LANES_H

#include "som_core.h"
#include "som_vec.h"

#define SOM_LANES 4          /* maps per pack: one AVX2 register of doubles            */
#define SOM_LANE_MAX_SIZE 48 /* the largest ring trained in a pack                       */
#define SOM_LANE_MAX_DIM 64  /* the most dimensions trained in packs                     */

/* Without vectors (som_vec.h) every map takes the one-map path. */
#define SOM_HAVE_LANES SOM_HAVE_VEC

typedef struct {
    int nl;                          /* maps in the pack                                */
    int S;                           /* neurons of the pack: its largest ring's         */
    int map[SOM_LANES];              /* each lane's map (index in the problem)          */
    int size[SOM_LANES];             /* each lane's ring (S in unused lanes)            */
    uint32_t *order[SOM_LANES];      /* each lane's visiting order (unused: lane 0's)   */
    double *circ[SOM_LANES];         /* each lane's factors, 2 S (zeros beyond 2 size)  */
    double *w;                       /* weights, w[(k * S + j) * SOM_LANES + lane]      */
} som_lane_pack;

/* Doubles a pack of S neurons in m dimensions needs for its weights. */
#define SOM_LANE_WEIGHTS(S, m) ((size_t)(S) * (size_t)(m) * SOM_LANES)

/* Points i .. end-1 of the pass for every lane of the pack (rows: the data, row-major). */
void som_lanes_train(const som_lane_pack *pk, const double *rows, int m, uint32_t i,
                     uint32_t end);
/* A lane's weights from row-major size x m (the padding set to NaN), and back to
 * column-major. */
void som_lanes_put(som_lane_pack *pk, int lane, const double *rowmajor, int m);
void som_lanes_get(const som_lane_pack *pk, int lane, int m, double *colmajor);
/* Fill an unused lane: NaN weights, lane 0's order. */
void som_lanes_fill(som_lane_pack *pk, int lane, int m);
/* The instruction set the packs' kernel runs with here ("avx2" or "baseline"). */
const char *som_lanes_isa(void);

#endif
