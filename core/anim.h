/* core/anim.h - one model animated by its motions: sample, morph, pose, skin.
 *
 * Pure data in, pure data out (no GL). Typical use per output frame:
 *
 *     mmd_anim *a; mmd_anim_create(model, motions, n, &a, &err);
 *     for each frame: mmd_anim_evaluate(a, t);          // t in 30 fps frames, fractional ok
 *                     mmd_anim_skin(a, 0, vc, pos, nrm); // or split across threads
 *                     read mmd_anim_world / _materials / _uvs
 *     mmd_anim_free(a);
 *
 * Sequential t is O(1) per track (cursors); random access binary-searches.
 * The model and motions are borrowed and must outlive the anim.
 * Coordinates stay in MMD's left-handed model space; the renderer converts
 * (see core/camera.h for the one place where LH -> GL conversion is defined).
 */
#ifndef MMD_CORE_ANIM_H
#define MMD_CORE_ANIM_H

#include <signal.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/model.h"
#include "core/motion.h"
#include "core/status.h"

typedef struct mmd_anim mmd_anim;

/* Material values after material morphs for one frame. Tints follow MMD's
 * TexCMul/TexCAdd (mul starts at 1, add at 0). */
typedef struct mmd_material_state {
    float diffuse[4], specular[3], specular_power, ambient[3];
    float edge_color[4], edge_size;
    float texture_mul[4], texture_add[4];
    float sphere_mul[4], sphere_add[4];
    float toon_mul[4], toon_add[4];
} mmd_material_state;

/* A material's own values with neutral tints (mul 1, add 0): the state with no
 * material morph (the renderer's default when it draws without an mmd_anim). */
void mmd_material_state_base(const mmd_material *m, mmd_material_state *out);

/* motions may be NULL/0 (rest pose). Several motions merge: for the same
 * bone/morph, keys of later motions are added to the track (duplicate frames:
 * the later motion wins). Names bind through Shift-JIS cut at 15 bytes. */
mmd_status mmd_anim_create(const mmd_model *model, const mmd_motion *const *motions,
                           size_t motion_count, mmd_anim **out, mmd_error *err);
void mmd_anim_free(mmd_anim *a); /* NULL is a no-op */

/* Names (UTF-8) of motion tracks that matched no bone/morph of the model. */
size_t mmd_anim_unbound_count(const mmd_anim *a);
const char *mmd_anim_unbound_name(const mmd_anim *a, size_t i);

/* Largest key frame over all bound tracks. */
uint32_t mmd_anim_last_frame(const mmd_anim *a);

/* Sample keys at t, apply morphs, evaluate bones (order, append, IK).
 * Physics, when attached, runs between the two bone passes. */
void mmd_anim_evaluate(mmd_anim *a, double t);

/* Results of the last evaluate (valid until the next call / free). */
const float *mmd_anim_world(const mmd_anim *a);     /* bone_count x 16 floats, column-major */
const float *mmd_anim_skinning(const mmd_anim *a);  /* bone_count x 16: world * T(-rest) */
const float *mmd_anim_morph_weights(const mmd_anim *a); /* morph_count, after group/flip */
/* Weights as sampled from the motion, before group/flip expansion (what MMD
 * and babylon-mmd report per morph; used by `mmdrender pose`). */
const float *mmd_anim_morph_weights_raw(const mmd_anim *a);
const mmd_material_state *mmd_anim_materials(const mmd_anim *a); /* material_count */
/* Vertex UVs after UV morphs (vertex_count x 2) and additional UVs
 * (vertex_count x 4 per used add-UV channel k, NULL when unused). */
const float *mmd_anim_uvs(const mmd_anim *a);
const float *mmd_anim_add_uvs(const mmd_anim *a, int k);
/* Visibility from property keys (the model is hidden when false). */
bool mmd_anim_visible(const mmd_anim *a);

/* CPU skinning of vertices [first, first+count) into pos/nrm (3 floats per
 * vertex, indexed from `first`), after vertex morphs. Thread-safe for
 * disjoint ranges after evaluate. */
void mmd_anim_skin(const mmd_anim *a, uint32_t first, uint32_t count, float *pos, float *nrm);

/* Physics hook: when set, mmd_anim_evaluate calls fn(user, a, t) after the
 * bones without MMD_BONE_AFTER_PHYSICS are evaluated and before those with it.
 * fn may overwrite world matrices of bones driven by rigid bodies through
 * mmd_anim_world_mut and must then call mmd_anim_refresh_from(a, bone) for
 * each such bone so its non-physics descendants follow. Physics-driven bones
 * keep what fn wrote; skinning matrices are rebuilt after the hook. */
typedef void (*mmd_anim_physics_fn)(void *user, mmd_anim *a, double t);
void mmd_anim_set_physics_hook(mmd_anim *a, mmd_anim_physics_fn fn, void *user);
float *mmd_anim_world_mut(mmd_anim *a);
void mmd_anim_refresh_from(mmd_anim *a, int32_t bone);
/* Animated local translation/rotation (LH, after VMD+morphs+append+IK) of a bone
 * for physics mode 2 and for the physics toggle keys: true when the bone's
 * latest VMD key turns physics off for it (DESIGN A.2). */
bool mmd_anim_bone_physics_off(const mmd_anim *a, int32_t bone);
const mmd_model *mmd_anim_model(const mmd_anim *a);
/* Physics warm-up (core/physics.c): scale every bone's sampled motion and
 * every morph weight toward rest by w in [0, 1] (rotation slerp(I, q, w),
 * translation and weights times w) on the following evaluations; 1 (the
 * default) is the motion as sampled. */
void mmd_anim_set_pose_weight(mmd_anim *a, float w);

/* IK work bound: a frame's IK costs at most MMD_IK_MAX_WORK bone updates
 * (sum over chains of loops x links x bones re-evaluated per link step).
 * Chains that would exceed it (a 1,024-link chain with 256 loops, or many of
 * them) get fewer loops, decided once at create; no real model comes near
 * (Gene's 6 chains use ~1,500). Returns how many chains were reduced (0 when
 * none: the render warns otherwise) and the per-frame work before and after. */
#define MMD_IK_MAX_WORK (1u << 21)
uint32_t mmd_anim_ik_capped(const mmd_anim *a, uint64_t *wanted, uint64_t *kept);
/* After solving, a chain recomputes the bones under it that were evaluated
 * before it. Those refreshes have the same bound (counted as the bones under
 * each chain's root-most link, in chain order); chains past it skip theirs.
 * How many (0 for every real model). */
uint32_t mmd_anim_ik_refresh_capped(const mmd_anim *a);

/* Cancellation: while *flag is non-zero, evaluate stops its long loops (IK
 * iterations, physics steps) early, so a frame being interrupted ends within
 * milliseconds; the pose of that frame is then unspecified (not drawn).
 * flag may be NULL (the default); it is read, never written. */
void mmd_anim_set_cancel(mmd_anim *a, const volatile sig_atomic_t *flag);
bool mmd_anim_cancelled(const mmd_anim *a);

/* Outside parent (core/world.h sets these): from the next evaluate on, the
 * bone's world = parent (16 floats, column-major, copied) x the bone's world
 * within this model; descendants, IK and physics follow. NULL removes it. */
void mmd_anim_set_outside_parent(mmd_anim *a, int32_t bone, const float parent[16]);

/* Placement of the whole model (a scene's [model] position, rotation and
 * scale; mmd_place_matrix of core/accessory.h): from the next evaluate on,
 * every root bone's world = place (16 floats, column-major, copied) x its
 * world within the model, as if the model had one more parent above its roots
 * holding that transform, so skinning, edges, shadows, IK, outside parents
 * (both ways), accessories on its bones and physics all see it. scale is
 * place's uniform scale (> 0): SDEF and QDEF skinning take their rotations
 * from the matrices divided by it; physics simulates the rigid bodies at the
 * model's own size in the placed, unscaled frame (core/physics.c) and the
 * result is scaled about the placement's origin. NULL removes it; without one
 * every result is the same bytes as before placements existed. */
void mmd_anim_set_placement(mmd_anim *a, const float place[16], float scale);
/* The placement (NULL: none) and its scale into *scale (may be NULL). */
const float *mmd_anim_placement(const mmd_anim *a, float *scale);

#endif
