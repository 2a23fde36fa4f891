/* Base-Delta-Immediate compression of an extended-LLC block (Morpheus §4.3.1, G13): one 4-byte base
 * (the block's first word) and a delta per 4-byte word. The document's two levels:
 *   high: every delta fits a signed byte   -> 32 bytes of deltas (a quarter warp register)
 *   low:  every delta fits a signed 16 bits -> 64 bytes (half a register)
 *   else: uncompressed, 128 bytes.
 * A compressed block also keeps its base in an auxiliary register slot (base_bytes, G13). */
#ifndef GTLM_BDI_H
#define GTLM_BDI_H

#include <stdint.h>

typedef enum bdi_level { BDI_HIGH = 0, BDI_LOW, BDI_NONE } bdi_level;

/* Level of a block of `line` bytes (a multiple of 4). */
bdi_level bdi_classify(const uint8_t *blk, uint32_t line);
/* Storage the block takes in its set: deltas plus base for a compressed level, else the line. */
uint32_t bdi_bytes(bdi_level l, uint32_t line, uint32_t base_bytes);

#endif
