#include "bdi.h"

#include <string.h>

bdi_level bdi_classify(const uint8_t *blk, uint32_t line)
{
    uint32_t base;
    memcpy(&base, blk, 4);
    int fits8 = 1;
    for (uint32_t i = 4; i + 4 <= line; i += 4) {
        uint32_t w;
        memcpy(&w, blk + i, 4);
        int64_t d = (int64_t)(int32_t)(w - base);
        if (d < -32768 || d > 32767) return BDI_NONE;
        if (d < -128 || d > 127) fits8 = 0;
    }
    return fits8 ? BDI_HIGH : BDI_LOW;
}

uint32_t bdi_bytes(bdi_level l, uint32_t line, uint32_t base_bytes)
{
    if (l == BDI_HIGH) return line / 4 + base_bytes;
    if (l == BDI_LOW) return line / 2 + base_bytes;
    return line;
}
