/* bf16.h: float32 <-> bfloat16 inline, for loops that convert element by element (a rung, the
 * reference); the public pl_bf16_from_f32/pl_bf16_to_f32 (memory.c) are these. bfloat16 is the
 * top half of a float32: to it, add half of the dropped part's unit (less one, plus the kept
 * part's lowest bit: ties go to even) and drop the low 16 bits. A NaN is made quiet instead,
 * so rounding cannot carry it into an infinity. */
#ifndef PL_CORE_BF16_H
#define PL_CORE_BF16_H

#include <stdint.h>
#include <string.h>

static inline uint16_t pl_bf16_round(float x)
{
    uint32_t u;
    memcpy(&u, &x, 4);
    if ((u & 0x7FFFFFFFu) > 0x7F800000u) return (uint16_t)((u >> 16) | 0x0040u); /* NaN: quiet, sign kept */
    u += 0x7FFFu + ((u >> 16) & 1u);
    return (uint16_t)(u >> 16);
}

static inline float pl_bf16_widen(uint16_t b)
{
    uint32_t u = (uint32_t)b << 16;
    float x;
    memcpy(&x, &u, 4);
    return x;
}

#endif
