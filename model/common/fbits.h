/* Floating-point values and their IEEE-754 bit patterns, without aliasing tricks. */
#ifndef GTLM_FBITS_H
#define GTLM_FBITS_H

#include <stdint.h>
#include <string.h>

static inline float fbits_f32(uint64_t bits)
{
    uint32_t u = (uint32_t)bits;
    float f;
    memcpy(&f, &u, sizeof f);
    return f;
}

static inline uint32_t fbits_of_f32(float f)
{
    uint32_t u;
    memcpy(&u, &f, sizeof u);
    return u;
}

static inline double fbits_f64(uint64_t bits)
{
    double d;
    memcpy(&d, &bits, sizeof d);
    return d;
}

static inline uint64_t fbits_of_f64(double d)
{
    uint64_t u;
    memcpy(&u, &d, sizeof u);
    return u;
}

#endif
