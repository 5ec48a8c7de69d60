/* tests/util/worst_shapes.h - worst-case (legal) model shapes for the
 * hostile-input tests and `make bench`: each is valid and must load in
 * O(n log n) or better in its element counts (issue 13).
 *
 *   MMD_WORST_PMD_CHAIN      PMD, 65,535 bones in one parent chain under an IK bone
 *   MMD_WORST_PMX_CHAIN      PMX, 65,536 bones in one chain, each appending its parent's rotation
 *   MMD_WORST_IK_LINKS       PMX, 64 IK bones, each with 1,024 links down one chain
 *   MMD_WORST_MORPH_VERTEX   PMX, one vertex, one vertex morph with 1 Mi offsets on it
 *   MMD_WORST_GROUP_MORPHS   PMX, one group morph whose 65,535 offsets name 65,535 group morphs
 *   MMD_WORST_PMD_TEXTURES   PMD, 65,536 materials, each with its own texture and sphere map
 *
 * Returns malloc'd file bytes (free()), NULL when out of memory. */
#ifndef MMD_TEST_WORST_SHAPES_H
#define MMD_TEST_WORST_SHAPES_H

#include <stddef.h>
#include <stdint.h>

enum {
    MMD_WORST_PMD_CHAIN,
    MMD_WORST_PMX_CHAIN,
    MMD_WORST_IK_LINKS,
    MMD_WORST_MORPH_VERTEX,
    MMD_WORST_GROUP_MORPHS,
    MMD_WORST_PMD_TEXTURES,
    MMD_WORST_COUNT
};

/* Short name ("pmd-chain-65535") for messages. */
const char *mmd_test_worst_name(int shape);
uint8_t *mmd_test_worst(int shape, size_t *size);

#endif
