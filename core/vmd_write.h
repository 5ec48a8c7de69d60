/* core/vmd_write.h - write motions as VMD, and build motions in memory.
 *
 * Writer: always VMD v2 ("Vocaloid Motion Data 0002", 20-byte model name)
 * with all six sections (empty ones as count 0). A key's raw_name is written
 * when set (first byte non-zero), otherwise its UTF-8 name is encoded to
 * Shift-JIS and cut at 15 bytes (20 for the model name and IK names) the way
 * MMD cuts names. parse(write(m)) gives back m (version becomes 2).
 *
 * Builder (for tests, the demo generator and benchmarks):
 *
 *     mmd_motion *m = mmd_motion_new("センター人形");   // model name, UTF-8
 *     mmd_bone_key *k = mmd_motion_add_bone_key(m, "センター", 30, pos, rot);
 *     mmd_vmd_set_bone_curve(k->interp, 3, 20, 20, 107, 107); // optional curve for rotation
 *     mmd_motion_add_morph_key(m, "あ", 30, 1.0f);
 *     mmd_camera_key *c = mmd_motion_add_camera_key(m, 0); // defaults: distance -45, target (0,10,0), fov 30
 *     ... mmd_vmd_write(m, &bytes, &size, &err); free(bytes); mmd_motion_free(m);
 *
 * Added keys get linear curves (20,20,107,107), raw names in Shift-JIS, and
 * last_frame is kept up to date. Returned key pointers stay valid only until
 * the next add of the same kind (arrays grow). NULL means out of memory.
 */
#ifndef MMD_CORE_VMD_WRITE_H
#define MMD_CORE_VMD_WRITE_H

#include <stdint.h>

#include "core/motion.h"

/* *out is malloc'd (free with free()). MMD_E_LIMIT when a count overflows. */
mmd_status mmd_vmd_write(const mmd_motion *m, uint8_t **out, size_t *size, mmd_error *err);

/* Empty VMD motion (format VMD, version 2); model_name may be NULL. Free with mmd_motion_free. */
mmd_motion *mmd_motion_new(const char *model_name);

mmd_bone_key *mmd_motion_add_bone_key(mmd_motion *m, const char *name, uint32_t frame,
                                      const float position[3], const float rotation[4]);
mmd_morph_key *mmd_motion_add_morph_key(mmd_motion *m, const char *name, uint32_t frame, float weight);
/* Camera defaults: distance -45, target (0,10,0), rotation 0, fov 30, perspective, linear. */
mmd_camera_key *mmd_motion_add_camera_key(mmd_motion *m, uint32_t frame);
mmd_light_key *mmd_motion_add_light_key(mmd_motion *m, uint32_t frame, const float color[3],
                                        const float direction[3]);
mmd_shadow_key *mmd_motion_add_shadow_key(mmd_motion *m, uint32_t frame, uint8_t mode, float distance);
/* ik_names/ik_enabled may be NULL when ik_count is 0. */
mmd_property_key *mmd_motion_add_property_key(mmd_motion *m, uint32_t frame, bool visible,
                                              const char *const *ik_names, const bool *ik_enabled,
                                              uint32_t ik_count);

/* Curves. Bone channel c: 0 X, 1 Y, 2 Z, 3 rotation; parameters 0..127.
 * Writes all four rows (DESIGN.md A.2) so row-0 and row-c readers agree. */
void mmd_vmd_set_bone_curve(uint8_t interp[64], int channel, uint8_t x1, uint8_t y1, uint8_t x2, uint8_t y2);
void mmd_vmd_linear_bone_interp(uint8_t interp[64]);
/* Camera curve c: 0 X, 1 Y, 2 Z, 3 rotation, 4 distance, 5 fov; stored [x1,x2,y1,y2]. */
void mmd_vmd_set_camera_curve(uint8_t interp[24], int curve, uint8_t x1, uint8_t y1, uint8_t x2, uint8_t y2);

#endif
