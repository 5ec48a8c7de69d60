/* tests/util/hash.h - the integer hash our generators (tools/mkdemo.c, tools/mkbench.c) draw
 * deterministic noise from: the same bytes on every machine, no random state. */
#ifndef MMD_TEST_HASH_H
#define MMD_TEST_HASH_H

#include <stdint.h>

/* A 32-bit mix (xorshift-multiply, "lowbias32"): well spread bits for pattern noise. */
uint32_t mmd_hash32(uint32_t x);

#endif
