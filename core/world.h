/* core/world.h - several animated models evaluated together: outside parents
 * (a bone of one model carried by a bone of another, switched over time) and
 * the evaluation order they need.
 *
 *     mmd_world *w;
 *     mmd_world_create(anims, n, names, links, nlinks, &w, &err);  // checks cycles
 *     per frame: mmd_world_evaluate(w, t);   // instead of mmd_anim_evaluate on each
 *     mmd_world_free(w);
 *
 * A link says: from VMD frame `frame` on, bone `child_bone` of model `child`
 * has as outside parent bone `parent_bone` of model `parent` (parent -1: none
 * from then on). The child bone's world becomes parent bone world x its own
 * world within its model (DESIGN I.4; descendants, IK and physics follow).
 * Models are evaluated parents first; among independent models in index
 * order. Every frame then reads only this frame's parent state, so frames
 * stay independent of history. mmd_world_set_order switches to MMD's fixed
 * calculation order with its one-frame lag (see there). A cycle among the links active at
 * any frame is MMD_E_BAD_STRUCTURE, its message naming the models and bones.
 */
#ifndef MMD_CORE_WORLD_H
#define MMD_CORE_WORLD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/anim.h"
#include "core/status.h"

typedef struct mmd_world_link {
    uint32_t child;        /* model index */
    int32_t child_bone;
    int32_t parent;        /* model index, -1 none */
    int32_t parent_bone;
    double frame;          /* VMD frame from which the link holds */
} mmd_world_link;

typedef struct mmd_world mmd_world;

/* anims and names (UTF-8 model names, for messages) are borrowed; links copied. */
mmd_status mmd_world_create(mmd_anim *const *anims, size_t count, const char *const *names,
                            const mmd_world_link *links, size_t link_count, mmd_world **out, mmd_error *err);
void mmd_world_free(mmd_world *w); /* NULL is a no-op */
/* mmd_anim_evaluate every model at t, parents first, outside parents applied. */
void mmd_world_evaluate(mmd_world *w, double t);
/* For callers that evaluate the models themselves (the physics warm-up):
 * the order to evaluate them in at t (parents first; *order holds the
 * returned count of model indices, valid until the next call), and before
 * evaluating model m, mmd_world_bind: its outside parents holding at t, each
 * its parent bone's world as that model holds it now (copied). */
size_t mmd_world_order(mmd_world *w, double t, const uint32_t **order);
void mmd_world_bind(mmd_world *w, uint32_t model, double t);

/* MikuMikuDance's own rule instead of parents first: evaluate the models in
 * exactly this order (order[i] = model index; the project's calculation
 * order), each reading its outside parent's bone world as the parent holds it
 * then. A child evaluated before its parent so gets the parent's world of
 * the parent's previous evaluation (MMD's one-frame lag; nanoem does the same:
 * Bone::applyOutsideParentTransform reads the parent bone's current world
 * matrix, models transformed in their transform order). A parent never
 * evaluated holds its rest pose. Cycles are still refused at create.
 * MMD_E_BAD_INDEX when order is not a permutation of the models. */
mmd_status mmd_world_set_order(mmd_world *w, const uint32_t *order, mmd_error *err);
/* True when a fixed order puts some link's child before its parent: frames
 * then depend on the frame evaluated before (a render must evaluate every
 * frame from its range's first, as with physics). */
bool mmd_world_lags(const mmd_world *w);

/* The physics warm-up at t0 (mmd_physics_preroll, `seconds` held) of every
 * model with physics[i] != NULL, the others evaluated at t0, in the
 * evaluation order with the outside parents holding at t0: each child warms
 * up under its parent's pose at t0 (with a lagging order the models are
 * evaluated at t0 once first, as if the frame before showed the same pose).
 * physics has one entry per model (NULL: none). */
struct mmd_physics;
void mmd_world_preroll(mmd_world *w, double t0, struct mmd_physics *const *physics, double seconds);

#endif
