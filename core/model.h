/* core/model.h - the in-memory MMD model (PMX 2.0/2.1 and PMD load into it).
 *
 * Ownership: everything hangs off model->arena; mmd_model_free releases it.
 * Strings are UTF-8, never NULL after a successful load ("" when empty).
 * Cross-references are int32_t with -1 meaning none; vertex indices uint32_t.
 * Space: MMD's left-handed model space (+Y up, model faces -Z), MMD units.
 *
 * Invariants after mmd_model_validate() succeeds (downstream code relies on them):
 *  - every index (bone parent, IK target/link, append parent, vertex bones,
 *    face vertices, material textures, morph targets, rigid-body bone, joint
 *    bodies, display-frame elements) is -1 (where allowed) or in range;
 *  - sum of material index_count == index_count, each a multiple of 3
 *    (points/lines materials excepted: they still index triangles' storage);
 *  - bone parents are acyclic; append chains are acyclic; an IK bone is not
 *    its own target or link;
 *  - eval_order is a permutation of bones (after-physics, layer, index);
 *  - every float is finite and every vertex normal has non-zero length
 *    (repairs counted in warnings, listed in docs/compat.md).
 */
#ifndef MMD_CORE_MODEL_H
#define MMD_CORE_MODEL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/arena.h"
#include "core/status.h"

/* Limits (denial-of-service caps, like STBI_MAX_DIMENSIONS). */
#define MMD_MAX_VERTICES (8u * 1024u * 1024u)
#define MMD_MAX_INDICES (48u * 1024u * 1024u)
#define MMD_MAX_BONES 65536u
#define MMD_MAX_MORPHS 65536u
#define MMD_MAX_MATERIALS 65536u
#define MMD_MAX_TEXTURES 65536u
#define MMD_MAX_MORPH_OFFSETS (16u * 1024u * 1024u)
#define MMD_MAX_RIGID_BODIES 65536u
#define MMD_MAX_JOINTS 65536u
#define MMD_MAX_TEXT_BYTES (64u * 1024u)
#define MMD_MAX_IK_LINKS 1024u
#define MMD_MAX_IK_LOOPS 65536

typedef enum mmd_format { MMD_FORMAT_PMX = 0, MMD_FORMAT_PMD = 1 } mmd_format;
typedef enum mmd_encoding { MMD_ENC_UTF16LE = 0, MMD_ENC_UTF8 = 1, MMD_ENC_SJIS = 2 } mmd_encoding;

typedef enum mmd_weight_type {
    MMD_WEIGHT_BDEF1 = 0,
    MMD_WEIGHT_BDEF2 = 1,
    MMD_WEIGHT_BDEF4 = 2,
    MMD_WEIGHT_SDEF = 3,
    MMD_WEIGHT_QDEF = 4,
} mmd_weight_type;

typedef struct mmd_vertex {
    float position[3];
    float normal[3];
    float uv[2];
    float add_uv[4][4];  /* additional UV1..4 (model->additional_uv_count used) */
    uint8_t weight_type; /* mmd_weight_type */
    int32_t bones[4];    /* unused slots -1 */
    float weights[4];    /* BDEF2/SDEF: weights[1] = 1 - weights[0] */
    float sdef_c[3], sdef_r0[3], sdef_r1[3];
    float edge_scale;    /* PMD: 0 when the edge flag is off, else 1 */
} mmd_vertex;

/* Material flags (PMX draw flags byte). */
enum {
    MMD_MAT_DOUBLE_SIDED = 0x01,
    MMD_MAT_GROUND_SHADOW = 0x02,
    MMD_MAT_CAST_SHADOW = 0x04,     /* draws into the self-shadow map */
    MMD_MAT_RECEIVE_SHADOW = 0x08,
    MMD_MAT_EDGE = 0x10,
    MMD_MAT_VERTEX_COLOR = 0x20,    /* 2.1: additional UV1 is the vertex colour */
    MMD_MAT_POINTS = 0x40,          /* 2.1 */
    MMD_MAT_LINES = 0x80,           /* 2.1 */
};

typedef enum mmd_sphere_mode {
    MMD_SPHERE_NONE = 0,
    MMD_SPHERE_MUL = 1,
    MMD_SPHERE_ADD = 2,
    MMD_SPHERE_SUB_TEXTURE = 3,
} mmd_sphere_mode;

typedef struct mmd_material {
    char *name, *name_en;
    float diffuse[4];      /* rgba */
    float specular[3];
    float specular_power;
    float ambient[3];
    uint8_t flags;         /* MMD_MAT_* */
    float edge_color[4];
    float edge_size;
    int32_t texture;        /* index into model->textures, -1 none */
    int32_t sphere_texture; /* index into model->textures, -1 none */
    uint8_t sphere_mode;    /* mmd_sphere_mode */
    bool toon_shared;       /* true: toon is 0..9 (toon01..toon10); false: texture index */
    int32_t toon;           /* -1 none */
    char *memo;
    uint32_t index_count;   /* indices (not triangles) drawn with this material */
} mmd_material;

/* Bone flags (PMX). */
enum {
    MMD_BONE_TAIL_IS_BONE = 0x0001,
    MMD_BONE_ROTATABLE = 0x0002,
    MMD_BONE_MOVABLE = 0x0004,
    MMD_BONE_VISIBLE = 0x0008,
    MMD_BONE_OPERABLE = 0x0010,
    MMD_BONE_IK = 0x0020,
    MMD_BONE_APPEND_LOCAL = 0x0080,
    MMD_BONE_APPEND_ROTATE = 0x0100,
    MMD_BONE_APPEND_TRANSLATE = 0x0200,
    MMD_BONE_FIXED_AXIS = 0x0400,
    MMD_BONE_LOCAL_AXES = 0x0800,
    MMD_BONE_AFTER_PHYSICS = 0x1000,
    MMD_BONE_EXTERNAL_PARENT = 0x2000,
};

typedef struct mmd_ik_link {
    int32_t bone;
    bool has_limit;
    float lower[3], upper[3]; /* radians, model space (LH) Euler limits */
} mmd_ik_link;

typedef struct mmd_bone {
    char *name, *name_en;
    float position[3];      /* rest position, model space */
    int32_t parent;         /* -1 root */
    int32_t layer;          /* deform layer (transform order) */
    uint16_t flags;         /* MMD_BONE_* */
    float tail_offset[3];   /* when !(flags & TAIL_IS_BONE) */
    int32_t tail_bone;      /* when flags & TAIL_IS_BONE, -1 none */
    int32_t append_parent;  /* -1 none (flags APPEND_ROTATE/TRANSLATE) */
    float append_ratio;
    float fixed_axis[3];    /* flags & FIXED_AXIS */
    float local_x[3], local_z[3]; /* flags & LOCAL_AXES */
    int32_t external_key;   /* flags & EXTERNAL_PARENT */
    /* IK (flags & IK) */
    int32_t ik_target;      /* effector bone, -1 when not IK */
    int32_t ik_loop;
    float ik_limit_angle;   /* radians per iteration */
    mmd_ik_link *ik_links;
    uint32_t ik_link_count;
} mmd_bone;

typedef enum mmd_morph_type {
    MMD_MORPH_GROUP = 0,
    MMD_MORPH_VERTEX = 1,
    MMD_MORPH_BONE = 2,
    MMD_MORPH_UV = 3,
    MMD_MORPH_ADD_UV1 = 4,
    MMD_MORPH_ADD_UV2 = 5,
    MMD_MORPH_ADD_UV3 = 6,
    MMD_MORPH_ADD_UV4 = 7,
    MMD_MORPH_MATERIAL = 8,
    MMD_MORPH_FLIP = 9,
    MMD_MORPH_IMPULSE = 10,
    MMD_MORPH_TYPE_COUNT = 11,
} mmd_morph_type;

typedef struct mmd_morph_group { int32_t morph; float weight; } mmd_morph_group; /* also flip */
typedef struct mmd_morph_vertex { uint32_t vertex; float offset[3]; } mmd_morph_vertex;
typedef struct mmd_morph_bone { int32_t bone; float translation[3]; float rotation[4]; /* x,y,z,w */ } mmd_morph_bone;
typedef struct mmd_morph_uv { uint32_t vertex; float offset[4]; } mmd_morph_uv;
typedef struct mmd_morph_material {
    int32_t material;       /* -1 = every material */
    uint8_t op;             /* 0 multiply, 1 add */
    float diffuse[4], specular[3], specular_power, ambient[3];
    float edge_color[4], edge_size;
    float texture_tint[4], sphere_tint[4], toon_tint[4];
} mmd_morph_material;
typedef struct mmd_morph_impulse {
    int32_t rigid_body;
    bool local;
    float velocity[3], torque[3];
} mmd_morph_impulse;

typedef struct mmd_morph {
    char *name, *name_en;
    uint8_t panel;          /* 0 system, 1 eyebrow, 2 eye, 3 mouth, 4 other */
    uint8_t type;           /* mmd_morph_type */
    uint32_t offset_count;
    union {
        mmd_morph_group *group;     /* GROUP and FLIP */
        mmd_morph_vertex *vertex;
        mmd_morph_bone *bone;
        mmd_morph_uv *uv;           /* UV and ADD_UV1..4 */
        mmd_morph_material *material;
        mmd_morph_impulse *impulse;
    } u;
} mmd_morph;

typedef struct mmd_frame_element { uint8_t is_morph; int32_t index; } mmd_frame_element;
typedef struct mmd_display_frame {
    char *name, *name_en;
    bool special;
    mmd_frame_element *elements;
    uint32_t element_count;
} mmd_display_frame;

typedef enum mmd_shape { MMD_SHAPE_SPHERE = 0, MMD_SHAPE_BOX = 1, MMD_SHAPE_CAPSULE = 2 } mmd_shape;
typedef enum mmd_body_mode {
    MMD_BODY_FOLLOW_BONE = 0, MMD_BODY_PHYSICS = 1, MMD_BODY_PHYSICS_BONE_POS = 2
} mmd_body_mode;

typedef struct mmd_rigid_body {
    char *name, *name_en;
    int32_t bone;           /* -1 none */
    uint8_t group;          /* 0..15 */
    uint16_t no_collide_mask; /* as stored; used directly as the collision mask: bit i set = collides with group i (saba, babylon-mmd) */
    uint8_t shape;          /* mmd_shape */
    float size[3];
    float position[3];      /* model space */
    float rotation[3];      /* radians, Euler (applied YXZ) */
    float mass, linear_damping, angular_damping, restitution, friction;
    uint8_t mode;           /* mmd_body_mode */
} mmd_rigid_body;

typedef enum mmd_joint_type {
    MMD_JOINT_SPRING_6DOF = 0, MMD_JOINT_6DOF = 1, MMD_JOINT_P2P = 2, MMD_JOINT_CONE_TWIST = 3,
    MMD_JOINT_SLIDER = 4, MMD_JOINT_HINGE = 5,
} mmd_joint_type;

typedef struct mmd_joint {
    char *name, *name_en;
    uint8_t type;           /* mmd_joint_type */
    int32_t body_a, body_b;
    float position[3], rotation[3];
    float linear_lower[3], linear_upper[3];
    float angular_lower[3], angular_upper[3];
    float spring_linear[3], spring_angular[3];
} mmd_joint;

typedef struct mmd_soft_anchor { int32_t rigid_body; uint32_t vertex; bool near_mode; } mmd_soft_anchor;
typedef struct mmd_soft_body {
    char *name, *name_en;
    uint8_t shape;          /* 0 TriMesh, 1 Rope */
    int32_t material;
    uint8_t group;
    uint16_t no_collide_mask;
    uint8_t flags;
    int32_t bending_distance, cluster_count;
    float total_mass, margin;
    int32_t aero_model;
    float config[12];       /* VCF DP DG LF PR VC DF MT CHR KHR SHR AHR */
    float cluster[6];       /* SRHR_CL SKHR_CL SSHR_CL SR_SPLT_CL SK_SPLT_CL SS_SPLT_CL */
    int32_t iteration[4];   /* V_IT P_IT D_IT C_IT */
    float material_coef[3]; /* LST AST VST */
    mmd_soft_anchor *anchors;
    uint32_t anchor_count;
    uint32_t *pins;
    uint32_t pin_count;
} mmd_soft_body;

/* Where each element starts in the file the model was loaded from (byte
 * offsets), so mmd_model_validate can name the offset of a semantic error.
 * Filled by the PMX/PMD parsers (tables in the model's arena); all NULL/0 in
 * models built in memory (errors then carry offset -1). A table is used only
 * while its count equals the section's current count, so code that replaces a
 * section needs no care; the writer ignores this struct. PMD: bones added for
 * a second IK record on a bone point at that IK record; morph i is skin i+1. */
typedef struct mmd_model_offsets {
    uint32_t *vertex, *material, *bone, *morph, *display_frame, *rigid_body, *joint, *soft_body;
    uint32_t vertex_count, material_count, bone_count, morph_count, display_frame_count,
        rigid_body_count, joint_count, soft_body_count;
    uint32_t face;            /* first face index; valid when face_index_size != 0 */
    uint32_t material_section; /* the material count field; valid when material is non-NULL */
    uint8_t face_index_size;  /* bytes per face index, 0 when unknown */
} mmd_model_offsets;

typedef struct mmd_model {
    mmd_format format;
    float version;          /* 2.0, 2.1; PMD: 1.0 */
    uint8_t encoding;       /* mmd_encoding of the file's text */
    uint8_t additional_uv_count; /* 0..4 */
    uint8_t index_size[6];  /* PMX: vertex, texture, material, bone, morph, rigid body */
    char *name, *name_en, *comment, *comment_en;

    mmd_vertex *vertices;   uint32_t vertex_count;
    uint32_t *indices;      uint32_t index_count;   /* faces = index_count / 3 */
    char **textures;        uint32_t texture_count; /* paths as stored ('\' kept) */
    mmd_material *materials; uint32_t material_count;
    mmd_bone *bones;        uint32_t bone_count;
    mmd_morph *morphs;      uint32_t morph_count;
    mmd_display_frame *display_frames; uint32_t display_frame_count;
    mmd_rigid_body *rigid_bodies; uint32_t rigid_body_count;
    mmd_joint *joints;      uint32_t joint_count;
    mmd_soft_body *soft_bodies; uint32_t soft_body_count;

    /* Filled by mmd_model_validate: bones sorted by (after-physics, layer, index). */
    int32_t *eval_order;
    unsigned warnings;      /* repaired oddities (bad text, weights, NaN values...: docs/compat.md) */
    mmd_warning_list warning_list; /* the same repairs, one entry per kind with where it first happened */
    mmd_arena *arena;
    mmd_model_offsets file_offsets; /* byte offsets of elements (loaded models only) */
} mmd_model;

/* Load a PMX or PMD from memory (format detected by magic), parse + validate.
 * On success *out is a new model; on failure *out is untouched and err says why. */
mmd_status mmd_model_load(const void *data, size_t size, mmd_model **out, mmd_error *err);
/* Read a whole file and mmd_model_load it (MMD_E_IO when unreadable). */
mmd_status mmd_model_load_file(const char *path, mmd_model **out, mmd_error *err);
void mmd_model_free(mmd_model *m); /* NULL is a no-op */

/* The bones' evaluation order (after-physics, layer, index; O(n log n), stable)
 * into order[bone_count], with scratch[bone_count]; validate keeps it in eval_order. */
void mmd_model_bone_order(const mmd_model *m, int32_t *order, int32_t *scratch);
/* Semantic checks (see invariants above); fills eval_order. Called by the loaders. */
mmd_status mmd_model_validate(mmd_model *m, mmd_error *err);

/* Bone index by UTF-8 name, -1 when absent (linear scan; cache if hot). */
int32_t mmd_model_find_bone(const mmd_model *m, const char *name);
int32_t mmd_model_find_morph(const mmd_model *m, const char *name);

#endif
