/* core/physics.h - rigid-body physics of one model (Bullet, behind a C API).
 *
 * Semantics: DESIGN.md section F. Everything stays in MMD's left-handed model
 * space; matrices are column-major 4x4 floats, 16 per bone (mmd_anim_world).
 *
 *   world:   gravity (0,-98,0) unless set, static ground plane y = 0, sequential-impulse
 *            solver, fixed internal step 1/120 s whatever the output fps.
 *   bodies:  sphere r=size.x, box half extents=size, capsule r=size.x
 *            height=size.y; rest = T(position)*Ry*Rx*Rz(rotation);
 *            offset = inverse(T(bone rest position)) * rest;
 *            group 1<<group, mask = no_collide_mask used directly as Bullet's
 *            filter mask (what saba/babylon-mmd/MMDAgent do with the stored
 *            16 bits: bit i set = collides with group i); zero-size shapes
 *            get no contact response.
 *   modes:   0 kinematic, body = boneWorld*offset before each substep
 *            (interpolated between the previous and current frame pose);
 *            1 dynamic, boneWorld = bodyWorld*inverse(offset);
 *            2 dynamic, rotation as mode 1, translation = the bone's animated
 *            position (re-based on its parent when the parent moved by physics).
 *            A dynamic body with mass <= 0 or no bone behaves as mode 0 / never
 *            writes a bone.
 *   joints:  type 0 btGeneric6DofSpringConstraint (frames A0^-1*J, B0^-1*J,
 *            linear reference frame A, stop-ERP 0.475 on 6 axes, linear springs
 *            when stiffness != 0, angular springs always); PMX 2.1 types 1..5
 *            map to 6DOF / P2P / cone-twist / slider / hinge as the PMX 2.1
 *            spec lays the parameters out.
 *
 * Determinism: the same model and the same sequence of calls give bitwise the
 * same matrices (single thread, no wall clock). Rendering a frame range must
 * always simulate from the range's first frame (mmd_physics_preroll there,
 * then one step per frame up to a chunk's own frames), so chunks agree with
 * whole runs; the CLI calls it that way, through mmd_world_preroll
 * (core/world.h) so that models under outside parents warm up where their
 * parents hold them.
 *
 * Typical use with the animation core:
 *
 *     mmd_physics *p; mmd_physics_create(model, &p, &err);
 *     mmd_physics_attach(p, anim, &err);         // hook between the bone passes
 *     mmd_physics_preroll(p, anim, first, 2.0);  // blend in the first frame, settle 2 s
 *     for (f = first; f <= last; f++) mmd_anim_evaluate(anim, f);
 *     mmd_physics_free(p);                       // after the anim, or detach first
 */
#ifndef MMD_CORE_PHYSICS_H
#define MMD_CORE_PHYSICS_H

#include <stdbool.h>
#include <stdint.h>

#include "core/anim.h"
#include "core/model.h"
#include "core/status.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct mmd_physics mmd_physics;

/* Bullet's version as btGetVersion() gives it (e.g. 324 for 3.24): physics
 * bytes depend on it (`mmdrender --version` prints it). */
int mmd_physics_bullet_version(void);

#define MMD_PHYSICS_STEP_HZ 120     /* internal fixed step 1/120 s */
#define MMD_PHYSICS_MAX_SUBSTEPS 1200 /* per call (10 s); the rest is dropped */
/* Colliding pairs allowed at rest: every pair of overlapping bodies that may
 * collide costs narrowphase and solver work each step, so a pile of n bodies
 * is O(n^2) a frame (4,096 overlapping bodies: 137 s a frame). Real models
 * keep touching bodies out of each other's masks and have a few hundred such
 * pairs at most; above this mmd_physics_create refuses with MMD_E_LIMIT and
 * the renderer draws the model without physics (bones as animated), warning. */
#define MMD_PHYSICS_MAX_REST_PAIRS 4096u

/* The broadphase budget (issue 14): bodies that pile up later (falling into
 * one heap, pulled together by joints, moved there by the motion) cost every
 * step one bounding-box test per overlapping pair, colliding or masked out,
 * and narrowphase and solver work per colliding pair: O(n^2) for a pile of n.
 * Each world may keep MMD_PHYSICS_PAIRS_BASE + MMD_PHYSICS_PAIRS_PER_BODY x
 * bodies colliding pairs (at most MMD_PHYSICS_PAIRS_MAX) and test
 * MMD_PHYSICS_TESTS_PER_PAIR times that many overlaps a substep (and while it
 * is built), so a step costs time linear in the model's size. A real model
 * stays far below (Gene_light, 87 bodies, dancing: 309 pairs of 5,488, 1,057
 * tests of 43,904); past it mmd_physics_create refuses
 * with MMD_E_LIMIT (a pile at rest), or mmd_physics_step stops simulating the
 * model (physics-driven bones follow the animation) until the next reset, and
 * mmd_physics_work_of says so. Under the budget the simulation is bitwise what
 * Bullet does without it. */
#define MMD_PHYSICS_PAIRS_BASE 4096u
#define MMD_PHYSICS_PAIRS_PER_BODY 16u
#define MMD_PHYSICS_PAIRS_MAX (1u << 18) /* whatever the body count (memory: ~1 KiB a pair) */
#define MMD_PHYSICS_TESTS_PER_PAIR 8u

typedef struct mmd_physics_work {
    uint64_t peak_pairs, peak_tests; /* the most in one substep (or the build) since create */
    uint64_t max_pairs, max_tests;   /* this model's budget */
    bool stopped;                    /* over budget: not simulated until the next reset */
} mmd_physics_work;
void mmd_physics_work_of(const mmd_physics *p, mmd_physics_work *out);

/* Build the world for model m (borrowed; must outlive the physics). Bodies
 * start at their rest pose. MMD_E_BAD_VALUE for a non-finite body/joint
 * parameter, MMD_E_NOMEM on allocation failure. *out set only on success. */
mmd_status mmd_physics_create(const mmd_model *m, mmd_physics **out, mmd_error *err);
void mmd_physics_free(mmd_physics *p); /* NULL is a no-op */

uint32_t mmd_physics_body_count(const mmd_physics *p);
/* True when some dynamic body writes this bone's world matrix. */
bool mmd_physics_drives_bone(const mmd_physics *p, int32_t bone);

/* Start over: rebuild the Bullet world (no contact cache, pair or solver
 * state survives, so what follows is bitwise what a fresh object would do),
 * put every body at its bone's pose (bone_world: bone_count x 16) at rest and
 * zero the substep accumulator. VMD kinematic toggles are kept. */
void mmd_physics_reset(mmd_physics *p, const float *bone_world);

/* Advance dt seconds: whole 1/120 s substeps from a deterministic accumulator
 * (dt = 1/30 gives 4). Kinematic bodies follow bone_world_in; physics-driven
 * bones are overwritten in bone_world_out, other bones are copied from in
 * (in and out may be the same array). Returns the number of substeps run.
 * When attached to an anim whose cancel flag is set (mmd_anim_set_cancel),
 * stops before the next substep (the result is then unspecified). After the
 * budget above is exceeded, copies in to out and simulates nothing. */
uint32_t mmd_physics_step(mmd_physics *p, double dt, const float *bone_world_in,
                          float *bone_world_out);

/* World gravity in MMD units/s^2 (default 0 -98 0: MMD's 9.8 acceleration
 * along 0 -1 0, times 10 units per metre); applies from the next step, kept
 * over mmd_physics_reset. A non-finite vector is ignored. */
void mmd_physics_set_gravity(mmd_physics *p, const float g[3]);

/* VMD per-key physics toggle: a dynamic body made kinematic follows its bone
 * (and stops writing it) until made dynamic again. No-op for mode 0. */
void mmd_physics_set_body_kinematic(mmd_physics *p, uint32_t body, bool kinematic);
/* Impulse morph: central impulse `velocity` and torque impulse `torque`
 * (in the body's frame when local). No-op on kinematic bodies. */
void mmd_physics_apply_impulse(mmd_physics *p, uint32_t body, const float velocity[3],
                               const float torque[3], bool local);
/* Current world transform of a body (column-major). */
void mmd_physics_body_world(const mmd_physics *p, uint32_t body, float out[16]);
/* The body's offset from its bone (inverse(boneRest) * bodyRest). */
void mmd_physics_body_offset(const mmd_physics *p, uint32_t body, float out[16]);

/* Install the hook of core/anim.h on a (which must animate the same model).
 * Each mmd_anim_evaluate(a, t) then: on the first call, or when t goes
 * backwards, resets bodies to the pose; otherwise steps (t - t_prev)/30 s,
 * applies VMD physics toggles and impulse morphs, writes the physics bones
 * and refreshes their descendants. Detach (or free p, which detaches) before
 * freeing a. Attaching to another anim detaches from the first. MMD_E_BAD_VALUE
 * (section "physics", with its sentence in err) for a NULL argument or an anim
 * of another model. */
mmd_status mmd_physics_attach(mmd_physics *p, mmd_anim *a, mmd_error *err);
void mmd_physics_detach(mmd_physics *p);
/* Start-up (warm-up): reset the bodies to the rest pose, blend the pose at t0
 * in from rest over 1 s (30 frames of 1/30 s), then simulate `seconds` more
 * with the pose held at t0, so a range that starts far from rest (legs
 * crossed) does not start with cloth inside the legs. Leaves a evaluated at
 * t0 and the clock at t0, so the next mmd_anim_evaluate(a, t0 + 1) steps 1/30 s. */
void mmd_physics_preroll(mmd_physics *p, mmd_anim *a, double t0, double seconds);

#ifdef __cplusplus
}
#endif

#endif
