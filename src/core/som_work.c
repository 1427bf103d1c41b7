/* som_work.c: a family's maps split among the host's threads (som_work.h). */
#include "som_work.h"

void som_split_maps(const int *size, int nmaps, int nspans, int *start)
{
    double per = 0, acc = 0;
    int i, g = 1;
    for (i = 0; i < nmaps; i++) per += size[i];
    per /= nspans;
    start[0] = 0;
    for (i = 0; i < nmaps && g < nspans; i++) {
        acc += size[i];
        if (acc >= per * g) start[g++] = i + 1;
    }
    while (g <= nspans) start[g++] = nmaps;
}

int som_map_spans(int64_t blocks_per_round, int nthreads, int nmaps)
{
    int64_t g = blocks_per_round >= 2 * (int64_t)nthreads
                    ? 1 : (2 * (int64_t)nthreads + blocks_per_round - 1) / blocks_per_round;
    return (int)(g < nmaps ? g : nmaps);
}
