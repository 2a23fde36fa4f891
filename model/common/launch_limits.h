/* CUDA's limits on a launch's shape (CUDA C++ Programming Guide, "Features and Technical
 * Specifications", compute capability 3.0 and later): grid x <= 2^31-1, y and z <= 65535;
 * block x and y <= 1024, z <= 64, at most 1024 threads. Checked factor by factor, so no product
 * of the dimensions ever wraps. */
#ifndef GTLM_LAUNCH_LIMITS_H
#define GTLM_LAUNCH_LIMITS_H

#include <stddef.h>
#include <stdint.h>

#define LAUNCH_GRID_X_MAX 2147483647u
#define LAUNCH_GRID_YZ_MAX 65535u
#define LAUNCH_BLOCK_XY_MAX 1024u
#define LAUNCH_BLOCK_Z_MAX 64u
#define LAUNCH_BLOCK_THREADS_MAX 1024u

/* 0 when grid and block are within the limits (no dimension 0), else -1 with what is wrong in err. */
int launch_dims_check(const uint32_t grid[3], const uint32_t block[3], char *err, size_t len);

#endif
