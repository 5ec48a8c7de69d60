/* core/anim_internal.h - the mmd_anim object shared by anim.c, pose.c,
 * morph.c and skin.c (and their tests). Not public API.
 *
 * Per-frame arrays are allocated once at create (no malloc per frame).
 * Quaternions are (x,y,z,w); matrices 16 floats column-major; LH model space.
 */
#ifndef MMD_CORE_ANIM_INTERNAL_H
#define MMD_CORE_ANIM_INTERNAL_H

#include <cglm/cglm.h>
#include <math.h>
#include <string.h>

#include "core/anim.h"
#include "core/interp.h"

typedef struct anim_bone_key {
    float pos[3], rot[4];
    mmd_curve curve[4];     /* X, Y, Z, rotation */
    bool phys_off;
} anim_bone_key;

typedef struct anim_track {
    uint32_t *frames;       /* strictly increasing */
    void *keys;             /* anim_bone_key or float weights */
    uint32_t n, cursor;
} anim_track;

typedef struct anim_prop_key {
    bool visible;
    uint8_t *ik;            /* per IK slot: 0 off, 1 on, 2 unchanged (forward-filled at create) */
} anim_prop_key;

/* Precomputed SDEF terms per SDEF vertex (DESIGN D). */
typedef struct anim_sdef { float c[3], cr0[3], cr1[3]; } anim_sdef;

struct mmd_anim {
    const mmd_model *model;
    mmd_arena *arena;
    uint32_t nb, nm, nv, nmat;
    int32_t *order;             /* evaluation order (model's or computed) */
    uint32_t n_before;          /* bones in order before the first after-physics one */
    int32_t *late_parents;      /* parents that come after one of their children in order */
    uint32_t late_parent_count;

    /* tracks */
    anim_track *bone_tracks;    /* nb */
    anim_track *morph_tracks;   /* nm */
    anim_track prop_track;      /* keys: anim_prop_key */
    int32_t *ik_slot;           /* nb: index into the IK slot list or -1 */
    int32_t *ik_bones;          /* IK slot -> bone */
    uint32_t ik_count;
    char **unbound;
    size_t unbound_count;
    uint32_t last_frame;

    /* per-frame bone state */
    float *anim_pos, *anim_rot; /* sampled VMD (pos offset, rotation) */
    float *morph_pos, *morph_rot;
    float *append_pos, *append_rot;
    float *ik_rot;
    float *base_rot;            /* local rotation before IK (anim/morph/append) */
    float *local_rot, *local_pos; /* final local transform */
    float *world, *skinning;    /* nb x 16 */
    float *op_world;            /* nb x 16: outside parent of a bone (world.c), when op_set */
    bool *op_set;
    bool placed;                /* mmd_anim_set_placement: root bones' world = place x local */
    float place[16];
    float place_scale;          /* its uniform scale (1 when not placed) */
    float *rest_offset;         /* nb x 3: position - parent position */
    bool *ik_enabled, *phys_off, *is_ik_link;
    int32_t *append_link;       /* nb: append parent when effective, else -1 */
    bool visible;

    /* morphs */
    float *raw_weights, *weights; /* nm */
    float *prev_weights;        /* nm: weights applied last frame (to undo) */
    bool mat_dirty;
    mmd_material_state *materials;
    float *mat_mul, *mat_add;   /* nmat x MAT_CH scratch */
    float *uv;                  /* nv x 2 */
    float *add_uv[4];           /* nv x 4 or NULL */
    float *vpos;                /* nv x 3 positions after vertex morphs */
    bool has_vertex_morph, has_uv_morph;

    /* skinning precompute */
    uint8_t *wtype;
    int32_t *wbone;             /* nv x 4 */
    float *wweight;             /* nv x 4 */
    int32_t *sdef_index;        /* nv, -1 when not SDEF */
    anim_sdef *sdef;
    float *vnrm;                /* nv x 3 base normals */

    /* IK (ik.c) */
    struct anim_ik *ik;         /* per IK slot */
    uint64_t ik_work, ik_work_wanted; /* bone updates per frame at most: after / before the cap */
    uint32_t ik_capped;         /* chains whose loop count the cap reduced */
    uint32_t ik_refresh_capped; /* chains that do not refresh their descendants (ik.c cap_refresh) */
    const volatile sig_atomic_t *cancel; /* mmd_anim_set_cancel */

    /* physics hook */
    float pose_weight;          /* mmd_anim_set_pose_weight: 1 = the motion as sampled */
    mmd_anim_physics_fn phys_fn;
    void *phys_user;
    bool *phys_written;

    /* Refreshing the descendants of moved bones (pose.c mmd_anim_refresh_*):
     * a bone is marked moved, or visited, when its entry equals refresh_gen,
     * so a new set costs no clearing; the walk goes down child lists. */
    uint32_t refresh_gen;
    uint32_t *refresh_moved, *refresh_seen; /* nb */
    int32_t *refresh_seeds;                 /* nb: the bones marked, in marking order */
    uint32_t refresh_seed_count;
    int32_t *refresh_todo, *refresh_found;  /* nb: the walk's stack; the descendants' places in order */
    int32_t *pos_in_order;                  /* nb: bone -> its index in order */
    uint32_t *child_start;                  /* nb + 1: children of b are child_list[child_start[b]..[b + 1]) */
    int32_t *child_list;                    /* nb */
    uint32_t *subtree;                      /* nb: bones in the subtree under b, b included */
};

/* ---- float math: thin names over cglm (versor = x,y,z,w; mat4 column-major).
 * The pose arrays are plain float[16]/float[4] (arena memory, 32-byte
 * aligned, but stack copies need not be): the Makefile builds core with
 * CGLM_ALL_UNALIGNED so cglm's SSE loads accept any float array. ---- */
static inline void aq_mul(const float a[4], const float b[4], float o[4])
{
    glm_quat_mul((float *)a, (float *)b, o);
}
static inline void aq_ident(float q[4]) { glm_quat_identity(q); }
static inline void aq_norm(float q[4]) { glm_quat_normalize(q); }
/* m = T(p) * R(q) */
static inline void am_from_pq(const float p[3], const float q[4], float m[16])
{
    glm_quat_mat4((float *)q, (vec4 *)m);
    m[12] = p[0], m[13] = p[1], m[14] = p[2];
}
/* o = a * b for affine matrices (o may alias neither) */
static inline void am_mul(const float a[16], const float b[16], float o[16])
{
    glm_mul((vec4 *)a, (vec4 *)b, (vec4 *)o);
}
/* rotation of a rigid matrix times a uniform scale s (1: rigid) to a unit
 * quaternion: the 3x3 is divided by s first (s == 1 leaves m as it is) */
static inline void am_to_quat_scaled(const float m[16], float s, float q[4])
{
    if (s == 1.0f) {
        glm_mat4_quat((vec4 *)m, q);
    } else {
        mat4 r;
        glm_mat4_ucopy((vec4 *)m, r);
        glm_mat4_scale(r, 1.0f / s); /* all 16; only the 3x3 is read */
        glm_mat4_quat(r, q);
    }
    glm_quat_normalize(q);
}

#define ALLOC_OK(expr) ((expr) != NULL)
static inline size_t alloc_n(size_t n) { return n ? n : 1u; }
#define ALLOC(ptr, n) (((ptr) = mmd_arena_array(a->arena, alloc_n((size_t)(n)), sizeof *(ptr))) != NULL)

/* module entry points inside core/ */
void mmd_anim_sample_tracks(mmd_anim *a, double t);       /* anim.c */
void mmd_anim_apply_morphs(mmd_anim *a);                  /* morph.c */
void mmd_anim_pose_bones(mmd_anim *a, bool after_physics); /* pose.c */
void mmd_anim_update_bone(mmd_anim *a, int32_t b);        /* pose.c: local+world of one bone */
void mmd_anim_build_skinning(mmd_anim *a);                /* pose.c */
/* pose.c: begin a set of moved bones, mark some, then recompute (in evaluation
 * order) every bone whose parent chain holds a marked one; the cost follows
 * the descendants found, not the model's bone count. */
void mmd_anim_refresh_begin(mmd_anim *a);
void mmd_anim_refresh_mark(mmd_anim *a, int32_t bone);
void mmd_anim_refresh_marked(mmd_anim *a);
mmd_status mmd_anim_refresh_prepare(mmd_anim *a, mmd_error *err); /* pose.c: child lists */
mmd_status mmd_anim_ik_prepare(mmd_anim *a, mmd_error *err); /* ik.c */
void mmd_anim_solve_ik(mmd_anim *a, int32_t ik_bone);     /* ik.c */
mmd_status mmd_anim_skin_prepare(mmd_anim *a, mmd_error *err); /* skin.c */
mmd_status mmd_anim_morph_prepare(mmd_anim *a, mmd_error *err); /* morph.c */

#endif
