/* tests/util/hash.c - see hash.h. */
#include "tests/util/hash.h"

uint32_t mmd_hash32(uint32_t x)
{
    x ^= x >> 16;
    x *= 0x7feb352dU;
    x ^= x >> 15;
    x *= 0x846ca68bU;
    x ^= x >> 16;
    return x;
}
