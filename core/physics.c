/* core/physics.c - glue between the Bullet bridge and the animation core:
 * the hook mmd_anim_evaluate calls between its two bone passes, the VMD
 * physics toggles, impulse morphs and the start-up pre-roll. */
#include <cglm/cglm.h>
#include <math.h>
#include <stdbool.h>

#include "core/physics_internal.h"

#define FPS 30.0

static void apply_toggles(mmd_physics *p, mmd_anim *a)
{
    uint32_t n = mmd_physics_body_count(p);
    for (uint32_t i = 0; i < n; i++) {
        int32_t bone = mmd_physics_body_bone(p, i);
        if (bone >= 0 && mmd_physics_body_is_dynamic(p, i))
            mmd_physics_set_body_kinematic(p, i, mmd_anim_bone_physics_off(a, bone));
    }
}

/* Impulse morphs: each offset scaled by the morph weight, once per stepping
 * hook call (PMX 2.1: central impulse + torque impulse, local = body frame). */
static void apply_impulses(mmd_physics *p, const mmd_anim *a)
{
    const mmd_model *m = mmd_physics_model(p);
    const float *w = mmd_anim_morph_weights(a);
    if (!w)
        return;
    for (uint32_t i = 0; i < m->morph_count; i++) {
        const mmd_morph *mo = &m->morphs[i];
        if (mo->type != MMD_MORPH_IMPULSE || w[i] == 0.0f)
            continue;
        for (uint32_t k = 0; k < mo->offset_count; k++) {
            const mmd_morph_impulse *im = &mo->u.impulse[k];
            if (im->rigid_body < 0)
                continue;
            float v[3], t[3];
            for (int c = 0; c < 3; c++) {
                v[c] = im->velocity[c] * w[i];
                t[c] = im->torque[c] * w[i];
            }
            mmd_physics_apply_impulse(p, (uint32_t)im->rigid_body, v, t, im->local);
        }
    }
}

/* A placement with a scale (core/anim.h): the rigid bodies live in the
 * placed but unscaled frame, at the model's own size. Every bone world is
 * taken there (back false: U = Q S^-1 Q^-1, Q the placement less its scale)
 * and back after the step (U^-1). Nothing happens without a scale. */
static void unscale(const mmd_anim *a, float *world, bool back)
{
    float s;
    const float *place = mmd_anim_placement(a, &s);
    if (!place || s == 1.0f)
        return;
    mat4 q, qi, u, t;
    glm_mat4_ucopy((vec4 *)place, q);
    for (int c = 0; c < 3; c++)
        glm_vec3_scale(q[c], 1.0f / s, q[c]);
    glm_mat4_copy(q, qi);
    glm_inv_tr(qi);
    glm_mat4_copy(q, t);
    glm_scale_uni(t, back ? s : 1.0f / s);
    glm_mat4_mul(t, qi, u);
    for (uint32_t b = 0; b < mmd_anim_model(a)->bone_count; b++) {
        glm_mat4_ucopy((vec4 *)(world + 16 * b), t);
        glm_mat4_mul(u, t, q);
        glm_mat4_ucopy(q, (vec4 *)(world + 16 * b));
    }
}

static void hook(void *user, mmd_anim *a, double t)
{
    mmd_physics *p = user;
    mmd_physics_clock *c = mmd_physics_clock_of(p);
    float *world = mmd_anim_world_mut(a);
    apply_toggles(p, a);
    unscale(a, world, false);
    if (!c->started || (c->forced_dt < 0 && !(t >= c->last_t))) {
        mmd_physics_reset(p, world);
        unscale(a, world, true);
        c->started = true;
        c->last_t = t;
        c->forced_dt = -1;
        return;
    }
    double dt = c->forced_dt >= 0 ? c->forced_dt : (t - c->last_t) / FPS;
    c->forced_dt = -1;
    c->last_t = t;
    if (dt > 0)
        apply_impulses(p, a);
    mmd_physics_step(p, dt, world, world);
    unscale(a, world, true);
    /* children first: refresh_from marks its bone as physics-written, and a
     * parent's refresh must not recompute a physics child we already wrote */
    uint32_t n;
    const uint32_t *order = mmd_physics_body_order(p, &n);
    for (uint32_t i = n; i-- > 0;) {
        int32_t bone = mmd_physics_body_bone(p, order[i]);
        if (!mmd_anim_bone_physics_off(a, bone))
            mmd_anim_refresh_from(a, bone);
    }
}

static void detach(mmd_physics *p)
{
    mmd_physics_clock *c = mmd_physics_clock_of(p);
    if (c->anim)
        mmd_anim_set_physics_hook(c->anim, NULL, NULL);
    c->anim = NULL;
    c->started = false;
}

mmd_status mmd_physics_attach(mmd_physics *p, mmd_anim *a, mmd_error *err)
{
    if (!p || !a)
        return mmd_error_set(err, MMD_E_BAD_VALUE, "physics", -1, -1, "NULL argument");
    if (mmd_anim_model(a) != mmd_physics_model(p))
        return mmd_error_set(err, MMD_E_BAD_VALUE, "physics", -1, -1,
                             "cannot attach the rigid bodies to the model's bones");
    mmd_physics_clock *c = mmd_physics_clock_of(p);
    if (c->anim && c->anim != a)
        detach(p);
    mmd_anim_set_physics_hook(a, hook, p);
    c->anim = a;
    c->started = false;
    c->forced_dt = -1;
    c->detach = detach;
    return MMD_OK;
}

void mmd_physics_detach(mmd_physics *p)
{
    if (p)
        detach(p);
}

/* Frames of the blend from the rest pose into the pose at t0 (1 s). */
#define BLEND_FRAMES 30

/* Start-up (DESIGN F, issue 13): a range may start where the pose is far
 * from rest (legs crossed in a skirt). Resetting the bodies straight to that
 * pose puts cloth inside the legs and the solver pushes it out on either side
 * (a flipped skirt). Instead the bodies start at the rest pose, where the
 * model's own layout keeps them apart, the motion is blended in from rest over
 * BLEND_FRAMES (smoothstep weights; saba's SyncPhysics blends the same way over
 * 30 steps), so legs move into place and push cloth the way the dance does,
 * then the pose at t0 is held `seconds` to settle. Deterministic: it depends
 * on t0 and seconds only. */
void mmd_physics_preroll(mmd_physics *p, mmd_anim *a, double t0, double seconds)
{
    mmd_physics_clock *c = mmd_physics_clock_of(p);
    if (c->anim != a && mmd_physics_attach(p, a, NULL) != MMD_OK)
        return;
    c->started = false;
    mmd_anim_set_pose_weight(a, 0.0f);
    mmd_anim_evaluate(a, t0); /* the rest pose: the bodies reset to it */
    for (int i = 1; i <= BLEND_FRAMES; i++) {
        double s = (double)i / BLEND_FRAMES;
        mmd_anim_set_pose_weight(a, (float)(s * s * (3.0 - 2.0 * s)));
        c->forced_dt = 1.0 / FPS;
        mmd_anim_evaluate(a, t0);
    }
    mmd_anim_set_pose_weight(a, 1.0f);
    if (!(seconds > 0))
        seconds = 0;
    if (seconds > 3600)
        seconds = 3600; /* a bound, not a use case */
    long frames = lround(seconds * FPS);
    for (long i = 0; i < frames && !mmd_anim_cancelled(a); i++) {
        c->forced_dt = 1.0 / FPS;
        mmd_anim_evaluate(a, t0);
    }
    if (frames == 0) {
        c->forced_dt = 0;
        mmd_anim_evaluate(a, t0); /* leave a posed at t0 at full weight */
    }
}
