/* tests/util/bombs.h - small generated files that cost a naive renderer
 * minutes or gigabytes (issue 14), for test_bad_input, tests/cli/hostile.sh
 * (through tools/mkbomb) and benchmarks. Every byte comes from our writers.
 *
 *   mmd_bomb_ik(chains, links, loops, &size)   PMX: `chains` IK chains of
 *       `links` links each, `loops` iterations, target unreachable (the IK
 *       bone is 10,000 units away), so CCD never stops early.
 *   mmd_bomb_ik_deep(bones, chains, &size)     PMX: one parent chain of `bones`
 *       bones and `chains` one-link IK chains turning its root, so each
 *       chain's solve moves every bone of the chain (refreshed after it).
 *   mmd_bomb_physics(bodies, &size)            PMX: `bodies` dynamic spheres
 *       on one bone, all at the same place, every group colliding.
 *   mmd_bomb_physics_converge(bodies, collide, pull, &size)  PMX: `bodies`
 *       dynamic spheres apart on a grid (no pair at rest), each joined to one
 *       anchor. pull: the joint's limits hold the ball on the anchor, so in a
 *       few steps they pull into one pile (colliding with each other when
 *       collide, else passing through each other: masked out, still
 *       overlapping boxes); else each joint holds its ball where it is (no
 *       pile, but a solver row set per ball every substep: a slow frame).
 *   mmd_bomb_far_vmd(frame, camera, &size)     VMD with one key of bone "center" (or
 *       camera key when camera) at `frame` (e.g. 0xFFFFFFFF).
 *   mmd_bomb_xzip(vertices, binary, &size)     compressed .x (tzip, or bzip when
 *       binary): one Mesh of `vertices` vertices all at the origin and
 *       vertices / 3 faces (0,0,0), so it deflates about 1000:1 (issue 24).
 *
 * All return malloc'd bytes (free()) or NULL when out of memory.
 */
#ifndef MMD_TEST_BOMBS_H
#define MMD_TEST_BOMBS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

uint8_t *mmd_bomb_ik(uint32_t chains, uint32_t links, int32_t loops, size_t *size);
uint8_t *mmd_bomb_ik_deep(uint32_t bones, uint32_t chains, size_t *size);
uint8_t *mmd_bomb_physics(uint32_t bodies, size_t *size);
uint8_t *mmd_bomb_physics_converge(uint32_t bodies, bool collide, bool pull, size_t *size);
uint8_t *mmd_bomb_far_vmd(uint32_t frame, bool camera, size_t *size);
uint8_t *mmd_bomb_xzip(uint32_t vertices, bool binary, size_t *size);

#endif
