/* core/pmm.h - MikuMikuDance projects (.pmm) in memory: reader and writer.
 *
 * No official specification exists. The layout was taken from three public
 * readers and cross-checked field by field (docs/pmm.md lists where they
 * disagree and what we chose): nanoem (nanoem/ext/document.c), MikuMikuMethods
 * (Pmm/IO/PmmFileReader.cs) and PMMEditor (MMDFileParser/PmmReader.cs).
 *
 * Version 2 ("Polygon Movie maker 0002", MMD 7.x-9.x) is read completely.
 * Version 1 ("Polygon Movie maker 0001", MMD 5.x/6.x) stores no bone or morph
 * names: the size of each model's block depends on the model file's bone,
 * morph and IK counts, so a v1 project with models needs opts->v1_model to
 * describe each model (the CLI loads it); without it, or for any other
 * signature, the load fails with a clear error. v1 ends after the ground-shadow
 * brightness (what follows is not known) and has no outside parents, gravity,
 * self-shadow keys, edge colour or physics mode (defaults are filled in).
 *
 * Keyframes are stored as linked lists: one initial key per track (frame 0)
 * plus a pool of keys, each naming its track neighbours by data index. The
 * reader follows the links from each initial key (each key at most once, so
 * a cycle or a key shared by two tracks is an error, as are frames that do not
 * increase along a link) and stores every track's keys sorted by frame, initial
 * key first. A link to a key that does not exist ends its track there, as in
 * MMD, nanoem and MikuMikuMethods (MMD's own sample projects hold such links),
 * counted in `dangling_links`. Keys no track reaches are dropped and counted in
 * `warnings`.
 *
 *     mmd_pmm *p; mmd_error err;
 *     if (mmd_pmm_load(bytes, size, NULL, &p, &err) == MMD_OK) { ...; mmd_pmm_free(p); }
 *
 * Everything (strings in UTF-8) lives in one arena freed by mmd_pmm_free.
 * Model, bone and IK references are int32 positions (-1 none): a key's
 * parent model is a position in `models` (the reader maps MMD's model ids).
 */
#ifndef MMD_CORE_PMM_H
#define MMD_CORE_PMM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/arena.h"
#include "core/look.h"
#include "core/status.h"

#define MMD_PMM_MAX_KEYS (8u * 1024u * 1024u)  /* per section */
#define MMD_PMM_MAX_NAMES (1u << 20)           /* bones or morphs per model */
#define MMD_PMM_PATH_BYTES 256
#define MMD_PMM_ACCESSORY_NAME_BYTES 100
#define MMD_PMM_V1_MODEL_NAME_BYTES 20
#define MMD_PMM_GROUND (-2)                    /* outside parent "ground" (model index) */

typedef struct mmd_pmm_bone_key {
    uint32_t frame;
    float position[3];
    float rotation[4];        /* quaternion x,y,z,w (as VMD) */
    uint8_t interp[16];       /* x0,y0,x1,y1 for X, Y, Z, rotation; 0..127 */
    bool physics_off;         /* v2 only */
} mmd_pmm_bone_key;

typedef struct mmd_pmm_morph_key {
    uint32_t frame;
    float weight;
} mmd_pmm_morph_key;

typedef struct mmd_pmm_parent {
    int32_t model;            /* position in models, -1 none, MMD_PMM_GROUND */
    int32_t bone;             /* bone of that model, -1 none */
} mmd_pmm_parent;

typedef struct mmd_pmm_model_key {
    uint32_t frame;
    bool visible;
    bool *ik_enabled;         /* [model.ik_count] */
    mmd_pmm_parent *parents;  /* [model.op_count] outside parent of each op_bones entry */
} mmd_pmm_model_key;

typedef struct mmd_pmm_bone {
    char *name;
    mmd_pmm_bone_key *keys;  uint32_t key_count;   /* >= 1 after load */
} mmd_pmm_bone;

typedef struct mmd_pmm_morph {
    char *name;
    mmd_pmm_morph_key *keys; uint32_t key_count;   /* >= 1 after load */
} mmd_pmm_morph;

typedef struct mmd_pmm_model {
    uint8_t id;               /* MMD's model id (what parent references use in the file) */
    char *name, *name_en;     /* name_en empty in v1 */
    char *path;               /* as MMD wrote it (UTF-8, backslashes) */
    mmd_pmm_bone *bones;      uint32_t bone_count;
    mmd_pmm_morph *morphs;    uint32_t morph_count;
    int32_t *ik_bones;        uint32_t ik_count;   /* bone indices of IK bones */
    int32_t *op_bones;        uint32_t op_count;   /* outside-parent subject bones; -1 = none (MMD writes one first) */
    mmd_pmm_model_key *keys;  uint32_t key_count;  /* visibility/IK/outside parent, >= 1 */
    uint8_t draw_order;       /* 1-based as stored; 0 in v1 = file order */
    uint8_t calc_order;       /* 1-based as stored (v2), 0 in v1 */
    bool visible;             /* editor state */
    mmd_model_look look;      /* v2: add-blend, edge width, self-shadow; mmd_model_look_default in v1 */
} mmd_pmm_model;

typedef struct mmd_pmm_camera_key {
    uint32_t frame;
    float distance;           /* as VMD: normally negative */
    float target[3];
    float rotation[3];        /* radians, as VMD */
    mmd_pmm_parent look_at;   /* follow this model's bone (v2), model -1 none */
    uint8_t interp[24];       /* x0,y0,x1,y1 for X, Y, Z, rotation, distance, fov */
    bool perspective;
    int32_t fov;              /* degrees */
} mmd_pmm_camera_key;

typedef struct mmd_pmm_light_key {
    uint32_t frame;
    float color[3];
    float direction[3];
} mmd_pmm_light_key;

typedef struct mmd_pmm_accessory_key {
    uint32_t frame;
    float opacity;            /* 0..1 (stored as (100 - byte>>1) %) */
    bool visible;
    mmd_pmm_parent parent;
    float position[3];
    float rotation[3];        /* radians */
    float scale;              /* MMD's Si as shown in its panel (1 = the file's size; docs/pmm.md) */
    bool shadow;
} mmd_pmm_accessory_key;

typedef struct mmd_pmm_accessory {
    uint8_t id;
    char *name, *path;
    uint8_t draw_order;
    mmd_pmm_accessory_key *keys; uint32_t key_count; /* >= 1 */
    bool add_blend;           /* v2 */
} mmd_pmm_accessory;

typedef struct mmd_pmm_gravity_key {
    uint32_t frame;
    bool noise;
    int32_t noise_amount;
    float acceleration;
    float direction[3];
} mmd_pmm_gravity_key;

typedef struct mmd_pmm_shadow_key {
    uint32_t frame;
    uint8_t mode;             /* 0 off, 1 mode1, 2 mode2 */
    float distance;           /* as VMD: (10000 - UI value) * 1e-5 */
} mmd_pmm_shadow_key;

typedef enum mmd_pmm_physics {
    MMD_PMM_PHYSICS_OFF = 0, MMD_PMM_PHYSICS_ALWAYS = 1, MMD_PMM_PHYSICS_PLAYING = 2,
    MMD_PMM_PHYSICS_TRACE = 3
} mmd_pmm_physics;

typedef struct mmd_pmm {
    int version;              /* 1 or 2 */
    int32_t width, height;    /* output size */
    float fps;                /* the project's frame-rate limit (30, 60; 0 = unlimited) */
    bool begin_enabled, end_enabled;
    int32_t begin_frame, end_frame;
    bool audio_enabled;
    char *audio_path;
    bool video_enabled;       /* background video (MMD's 背景AVI) */
    char *video_path;
    int32_t video_offset[2];  /* output pixels, as image_offset */
    float video_scale;
    bool image_enabled;       /* background image */
    char *image_path;
    int32_t image_offset[2];
    float image_scale;
    bool ground_shadow;
    float ground_shadow_brightness;
    bool ground_shadow_translucent;
    uint8_t physics;          /* mmd_pmm_physics */
    bool physics_ground;
    float edge_color[3];      /* 0..1 (stored as 0..255 ints) */
    bool black_background;
    int32_t accessories_after_models; /* accessories from this draw position on are drawn after models; -1 none */
    bool self_shadow;         /* self-shadow enabled */
    float self_shadow_distance;

    mmd_pmm_model *models;             uint32_t model_count;
    mmd_pmm_accessory *accessories;    uint32_t accessory_count;
    mmd_pmm_camera_key *camera_keys;   uint32_t camera_key_count;   /* >= 1 */
    mmd_pmm_light_key *light_keys;     uint32_t light_key_count;    /* >= 1 */
    mmd_pmm_gravity_key *gravity_keys; uint32_t gravity_key_count;  /* >= 1 */
    mmd_pmm_shadow_key *shadow_keys;   uint32_t shadow_key_count;   /* >= 1 */
    unsigned warnings;        /* keys no track reached, names with bad bytes */
    unsigned dangling_links;  /* links to keys that do not exist (each ended its track) */
    mmd_arena *arena;
} mmd_pmm;

/* What a v1 reader needs from a model file (names UTF-8, borrowed for the call). */
typedef struct mmd_pmm_v1_model {
    const char *const *bone_names;  uint32_t bone_count;
    const char *const *morph_names; uint32_t morph_count;
    const int32_t *ik_bones;        uint32_t ik_count;
} mmd_pmm_v1_model;

typedef struct mmd_pmm_options {
    /* v1 only: describe the model at `path` (as written in the project). Return
     * false when it cannot be loaded: the project load fails naming it. */
    bool (*v1_model)(void *user, const char *path, mmd_pmm_v1_model *out);
    void *user;
} mmd_pmm_options;

/* opts may be NULL. *out set only on success. */
mmd_status mmd_pmm_load(const void *data, size_t size, const mmd_pmm_options *opts, mmd_pmm **out,
                        mmd_error *err);
void mmd_pmm_free(mmd_pmm *p);

/* Write p as version p->version (1 or 2). Tracks must be sorted by frame with
 * the initial key (frame 0) first; links and data indices are generated. The
 * editor state MMD keeps (panels, scroll, selection) is written as defaults.
 * *out is malloc'd. parse(write(p)) gives back p. */
mmd_status mmd_pmm_write(const mmd_pmm *p, uint8_t **out, size_t *size, mmd_error *err);

/* Project keys as VMD-shaped motions (core/pmm_motion.c), so the animation,
 * camera and export code needs nothing PMM-specific:
 * - model: bone keys (4-byte PMM curves -> VMD interpolation blocks; physics-off
 *   as MMD's 0x63,0x0F marker), morph keys, property keys (visibility, IK
 *   states by bone name). Tracks holding only the neutral initial key (identity
 *   bone, zero morph, visible with every IK on) are left out. Names are cut to
 *   VMD's 15/20 Shift-JIS bytes the way MMD cuts them.
 * - camera: camera keys (look-at parents are not part of a VMD; see
 *   mmd_pmm_camera_key.look_at), light keys and self-shadow keys. */
struct mmd_motion;
mmd_status mmd_pmm_model_motion(const mmd_pmm *p, uint32_t model, struct mmd_motion **out, mmd_error *err);
mmd_status mmd_pmm_camera_motion(const mmd_pmm *p, struct mmd_motion **out, mmd_error *err);

/* Builder for tests and the fuzz corpus: an empty v2 project (1280x720, 30 fps,
 * one default camera/light/gravity/self-shadow key) and models/accessories with
 * one initial key per track. Keys added later keep tracks sorted (a key at an
 * existing frame replaces it). NULL / false on out of memory. */
mmd_pmm *mmd_pmm_new(void);
mmd_pmm_model *mmd_pmm_add_model(mmd_pmm *p, const char *name, const char *path,
                                 const char *const *bones, uint32_t bone_count,
                                 const char *const *morphs, uint32_t morph_count,
                                 const int32_t *ik_bones, uint32_t ik_count,
                                 const int32_t *op_bones, uint32_t op_count);
mmd_pmm_accessory *mmd_pmm_add_accessory(mmd_pmm *p, const char *name, const char *path);
mmd_pmm_bone_key *mmd_pmm_add_bone_key(mmd_pmm *p, mmd_pmm_model *m, uint32_t bone, uint32_t frame);
mmd_pmm_morph_key *mmd_pmm_add_morph_key(mmd_pmm *p, mmd_pmm_model *m, uint32_t morph, uint32_t frame);
mmd_pmm_model_key *mmd_pmm_add_model_key(mmd_pmm *p, mmd_pmm_model *m, uint32_t frame);
mmd_pmm_camera_key *mmd_pmm_add_camera_key(mmd_pmm *p, uint32_t frame);
mmd_pmm_light_key *mmd_pmm_add_light_key(mmd_pmm *p, uint32_t frame);
mmd_pmm_accessory_key *mmd_pmm_add_accessory_key(mmd_pmm *p, mmd_pmm_accessory *a, uint32_t frame);
mmd_pmm_gravity_key *mmd_pmm_add_gravity_key(mmd_pmm *p, uint32_t frame);
mmd_pmm_shadow_key *mmd_pmm_add_shadow_key(mmd_pmm *p, uint32_t frame);

#endif
