#include "launch_limits.h"

#include <stdio.h>

int launch_dims_check(const uint32_t grid[3], const uint32_t block[3], char *err, size_t len)
{
    if (!block[0] || !block[1] || !block[2] || !grid[0] || !grid[1] || !grid[2]) {
        snprintf(err, len, "empty grid or block (a dimension is 0)");
        return -1;
    }
    if (grid[0] > LAUNCH_GRID_X_MAX || grid[1] > LAUNCH_GRID_YZ_MAX || grid[2] > LAUNCH_GRID_YZ_MAX) {
        snprintf(err, len, "grid (%u,%u,%u) is larger than CUDA's (%u,%u,%u)", grid[0], grid[1], grid[2],
                 LAUNCH_GRID_X_MAX, LAUNCH_GRID_YZ_MAX, LAUNCH_GRID_YZ_MAX);
        return -1;
    }
    if (block[0] > LAUNCH_BLOCK_XY_MAX || block[1] > LAUNCH_BLOCK_XY_MAX || block[2] > LAUNCH_BLOCK_Z_MAX) {
        snprintf(err, len, "block (%u,%u,%u) is larger than CUDA's (%u,%u,%u)", block[0], block[1], block[2],
                 LAUNCH_BLOCK_XY_MAX, LAUNCH_BLOCK_XY_MAX, LAUNCH_BLOCK_Z_MAX);
        return -1;
    }
    uint64_t threads = (uint64_t)block[0] * block[1] * block[2]; /* at most 2^26: no wrap */
    if (threads > LAUNCH_BLOCK_THREADS_MAX) {
        snprintf(err, len, "block (%u,%u,%u) has %llu threads, at most %u", block[0], block[1], block[2],
                 (unsigned long long)threads, LAUNCH_BLOCK_THREADS_MAX);
        return -1;
    }
    return 0;
}
