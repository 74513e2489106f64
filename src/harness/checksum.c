/* checksum.c: a 64-bit checksum of the bytes a tensor spans. The problem sums its inputs once;
 * after a variant ran, the same sum says whether it wrote into them. Fast enough for
 * gigabytes: four independent lanes per chunk, chunks over threads. */
#include "core/core.h"
#include "harness/harness.h"

#include <string.h>

/* One chunk: four independent multiply-xorshift lanes over 8-byte words, then the tail. */
static uint64_t checksum_bytes(const unsigned char *b, size_t bytes)
{
    uint64_t h[4] = {0x9E3779B97F4A7C15ull, 0xC2B2AE3D27D4EB4Full, 0x165667B19E3779F9ull, 0x27D4EB2F165667C5ull};
    size_t words = bytes / 8, i = 0;
    for (; i + 4 <= words; i += 4)
        for (int l = 0; l < 4; l++) {
            uint64_t w;
            memcpy(&w, b + 8 * (i + (size_t)l), 8);
            h[l] = (h[l] ^ w) * 0x100000001B3ull;
            h[l] ^= h[l] >> 29;
        }
    uint64_t x = h[0] ^ (h[1] << 1) ^ (h[2] << 2) ^ (h[3] << 3);
    for (size_t j = 8 * i; j < bytes; j++) x = (x ^ b[j]) * 0x100000001B3ull;
    return x ^ bytes;
}

uint64_t pl_tensor_checksum(const pl_tensor *t)
{
    size_t bytes;
    if (pl_tensor_bytes(t, &bytes) != PL_OK || !t->host) return 0;
    /* Chunks over threads, combined in order: the same sum for any thread count. */
    const size_t chunk = (size_t)32 << 20;
    int64_t n = (int64_t)((bytes + chunk - 1) / chunk);
    uint64_t total = 0;
#pragma omp parallel for schedule(static) reduction(^ : total) if (n > 2)
    for (int64_t c = 0; c < n; c++) {
        size_t off = (size_t)c * chunk, len = bytes - off < chunk ? bytes - off : chunk;
        uint64_t h = checksum_bytes((const unsigned char *)t->host + off, len);
        total ^= (h + (uint64_t)c) * 0x9E3779B97F4A7C15ull; /* the chunk's position counts */
    }
    return total;
}
