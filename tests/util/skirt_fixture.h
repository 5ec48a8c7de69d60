/* tests/util/skirt_fixture.h - the smallest model and motion that show a
 * physics warm-up defect: a leg that swings forward through the place where a
 * skirt flap hangs at rest.
 *
 * Model (PMX, our builders): bones センター (0,0,0), leg (0,10,0), skirt
 * (0,10,-2.5), skirt_tip. Bodies: a kinematic hip anchor (collides with
 * nothing), a kinematic leg capsule (r 1, hanging 10 down from its pivot),
 * a dynamic skirt capsule (mass 1) hanging from the hip anchor by a joint that
 * lets it swing about X only; leg and skirt collide.
 * Motion: "leg" rotates about X from 0 at frame 0 to `degrees` at `frame`
 * (positive = forward, towards -Z, into the skirt), then holds.
 * A run from frame 0 sees the leg push the skirt forward; a start at `frame`
 * that resets the skirt at rest puts it inside the leg.
 * Free with mmd_model_free / mmd_motion_free; NULL when out of memory. */
#ifndef MMD_TEST_SKIRT_FIXTURE_H
#define MMD_TEST_SKIRT_FIXTURE_H

#include <stdint.h>

#include "core/model.h"
#include "core/motion.h"

mmd_model *mmd_test_skirt_model(void);
mmd_motion *mmd_test_leg_motion(float degrees, uint32_t frame);
/* The angle (radians, about X, forward positive) of a bone hanging down from
 * its world matrix (column-major 16 floats). */
double mmd_test_hang_angle(const float *world);

#endif
