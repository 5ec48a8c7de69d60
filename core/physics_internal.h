/* core/physics_internal.h - what core/physics.c (anim glue, C) shares with
 * core/physics_bullet.cpp (the Bullet bridge). Not public. */
#ifndef MMD_CORE_PHYSICS_INTERNAL_H
#define MMD_CORE_PHYSICS_INTERNAL_H

#include "core/physics.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Hook state of mmd_physics_attach, stored inside the physics object. */
typedef struct mmd_physics_clock {
    mmd_anim *anim;       /* attached anim, NULL when detached */
    double last_t;        /* t of the previous hook call (30 fps frames) */
    double forced_dt;     /* >= 0: the next hook call steps this many seconds */
    bool started;         /* false: the next hook call resets */
    void (*detach)(mmd_physics *p); /* set by attach; called by free */
} mmd_physics_clock;

mmd_physics_clock *mmd_physics_clock_of(mmd_physics *p);
const mmd_model *mmd_physics_model(const mmd_physics *p);
/* Bone driven by body i (-1 none) and whether the body is dynamic by mode. */
int32_t mmd_physics_body_bone(const mmd_physics *p, uint32_t body);
bool mmd_physics_body_is_dynamic(const mmd_physics *p, uint32_t body);
/* Dynamic bodies with a bone, sorted parents first (bone depth, then index). */
const uint32_t *mmd_physics_body_order(const mmd_physics *p, uint32_t *count);

#ifdef __cplusplus
}
#endif

#endif
