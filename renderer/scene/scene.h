/* renderer/scene/scene.h - the scene file (INI) that `mmdrender SCENE -o OUT` reads.
 *
 *     mmd_scene *s;
 *     mmd_error err;
 *     if (mmd_scene_load_file("scenes/demo.ini", &s, &err) != MMD_OK) -> err.msg "file:line: ..."
 *     ... s->models[i].file, s->width, ...
 *     mmd_scene_free(s);
 *
 * Parsed with inih. Paths in the file are relative to the scene file's folder
 * and are stored resolved (joined with that folder; a name not found as
 * written goes through image/texpath.h: '\', letter case, Shift-JIS names).
 * mmd_scene_load_file reads UTF-8, or Shift-JIS converted (read_as_sjis). Every value is checked;
 * unknown sections and keys are errors. See README.md "Scene files" for the
 * format. The value parsers are shared with the command line (--size, --fps,
 * --frames, --background), which overrides the file.
 */
#ifndef MMD_RENDERER_SCENE_H
#define MMD_RENDERER_SCENE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "core/accessory.h"
#include "core/look.h"
#include "core/status.h"
#include "renderer/gl/effects.h"
#include "renderer/gl/render.h"

#define MMD_SCENE_MAX_MODELS 64
#define MMD_SCENE_MAX_ACCESSORIES 256
#define MMD_SCENE_MAX_MOTIONS 16 /* per model */
#define MMD_SCENE_MAX_POST_EFFECTS 16 /* [effects] post = FILE.fx */
#define MMD_SCENE_MAX_SIZE 16384 /* width/height */

#define MMD_SCENE_MAX_LINKS 256   /* outside_parent per model, follow per camera */
#define MMD_SCENE_MAX_MATERIAL_EFFECTS 256 /* material_effect per model or accessory */

/* Where a model's or accessory's MikuMikuEffect file comes from (docs/effects.md
 * "Where effects come from"): the scene's `effect =` key, a project's .emm, or
 * one of MME's file-name rules (found by the stage, mmd_scene_effect_beside,
 * only when neither of the others names one): NAME[EFFECT.fx].pmx, the
 * model's NAME.emd, a same-named .fx beside the model or .x. */
typedef enum mmd_effect_origin {
    MMD_EFFECT_NONE, MMD_EFFECT_SCENE, MMD_EFFECT_EMM, MMD_EFFECT_BESIDE, MMD_EFFECT_NAME, MMD_EFFECT_EMD
} mmd_effect_origin;
/* Whether the origin is one of MME's file-name rules. */
static inline bool mmd_effect_by_file_name(mmd_effect_origin o)
{
    return o == MMD_EFFECT_BESIDE || o == MMD_EFFECT_NAME || o == MMD_EFFECT_EMD;
}

/* `material_effect = K FILE.fx` (or `K none`) in [model]/[accessory]: MME's
 * subset assignment (a project's .emm `PmdN[k]`, a model's .emd `Obj[k]`)
 * that overrides the object's effect for its material (subset) k alone;
 * effect NULL ("none"): the built-in look for that material. */
typedef struct mmd_scene_material_effect {
    uint32_t material;   /* material (subset) index, 0-based as MME counts */
    char *effect;        /* resolved path; NULL: none */
    int line;
} mmd_scene_material_effect;
/* An object's list: one entry per material (a later line for the same
 * material replaces the earlier), at most MMD_SCENE_MAX_MATERIAL_EFFECTS. */
typedef struct mmd_scene_material_effects {
    mmd_scene_material_effect *items;
    int count;
    mmd_effect_origin origin; /* EMM when a project's .emm gave them; NONE: the key's (SCENE) */
} mmd_scene_material_effects;

/* `outside_parent = BONE -> MODEL:BONE [@FRAME]` in [model:NAME] and
 * `follow = MODEL:BONE [@FRAME]` in [camera]; MODEL "none" ends the link. */
typedef struct mmd_scene_link {
    char *bone;          /* subject bone of this model (NULL for follow) */
    char *model;         /* scene name of the parent model; NULL = none */
    char *parent_bone;
    double frame;        /* VMD frame (30 fps) from which it holds (default 0) */
    int line;
} mmd_scene_link;

typedef struct mmd_scene_model {
    char *name;                          /* from [model:NAME]; "" for [model] */
    char *file;                          /* resolved path */
    char *motions[MMD_SCENE_MAX_MOTIONS]; /* resolved paths, merged in order */
    struct mmd_motion *motion_data[MMD_SCENE_MAX_MOTIONS]; /* slot k's motion already in memory (a project's), owned by the scene; motions[k] is then only its name for messages */
    int motion_count;
    bool physics;                        /* default true */
    mmd_model_look look;                 /* edge_width, add_blend, self_shadow (core/look.h) */
    mmd_scene_link *parents;             /* outside_parent keys, in file order */
    int parent_count;
    int calc_order;                      /* calc_order = N (1..), 0 unset: docs/pmm.md "Calculation order" */
    bool placed;                         /* position, rotation or scale given */
    float position[3], rotation[3];      /* MMD units; degrees, applied X, then Y, then Z */
    float scale;                         /* uniform, > 0 (default 1) */
    char *effect;                        /* effect = FILE.fx: resolved path, NULL none */
    mmd_effect_origin effect_origin;     /* EMM when a project's .emm set effect; NONE: the key's (SCENE) */
    mmd_scene_material_effects material_effects; /* material_effect = K FILE.fx|none, in material order */
    int line;                            /* line of the section header */
} mmd_scene_model;

/* [accessory] / [accessory:NAME]: a DirectX .x, or a .vac naming one. Keys the
 * section does not give come from the .vac (scale, position, rotation, parent
 * bone on the first model), else from mmd_accessory_place_default. */
enum {
    MMD_SCENE_ACC_POSITION = 1, MMD_SCENE_ACC_ROTATION = 2, MMD_SCENE_ACC_SCALE = 4,
    MMD_SCENE_ACC_PARENT = 8,
};
/* key = FRAME X Y Z RX RY RZ SI TR VISIBLE SHADOW in [accessory]: the
 * placement over time (docs/projects.md "Accessory keys"). */
typedef struct mmd_scene_acc_key {
    double frame;               /* VMD frame (30 fps) */
    mmd_accessory_place place;  /* position, rotation (degrees), scale, opacity, visible, shadow */
    int line;
} mmd_scene_acc_key;

typedef struct mmd_scene_accessory {
    char *name;                 /* from [accessory:NAME]; "" for [accessory] */
    char *file;                 /* resolved path (.x or .vac) */
    mmd_accessory_place place;  /* position, rotation (degrees), scale, opacity, flags */
    unsigned set;               /* MMD_SCENE_ACC_* of the keys the section gave */
    int parent_model;           /* index into models, -1 none */
    char *parent_bone;          /* UTF-8 bone name, NULL none (checked when the model loads) */
    int parent_line;            /* line of the parent key, for errors about the bone */
    mmd_scene_link *parents;    /* every parent key (MODEL:BONE or none [@FRAME]), in file order */
    int parent_count;
    mmd_scene_acc_key *keys;    /* key lines sorted by frame (a later line at the same frame wins) */
    int key_count;
    char *effect;               /* effect = FILE.fx: resolved path, NULL none */
    mmd_effect_origin effect_origin; /* EMM when a project's .emm set effect; NONE: the key's (SCENE) */
    mmd_scene_material_effects material_effects; /* material_effect = K FILE.fx|none, in material order */
    int line;                   /* line of the section header */
} mmd_scene_accessory;

/* [gravity] key = FRAME ACCELERATION X Y Z: the physics gravity from FRAME on
 * (stepped); world gravity = normalised direction x acceleration x 10. */
typedef struct mmd_scene_gravity_key {
    double frame;
    float acceleration;         /* MMD's value (default 9.8) */
    float direction[3];         /* default 0 -1 0 */
    int line;
} mmd_scene_gravity_key;

typedef struct mmd_scene {
    char *path;                /* as given */
    char *dir;                 /* folder of the scene file ("." when none) */
    bool read_as_sjis;         /* the file was Shift-JIS, converted (mmd_scene_warn) */
    /* [output] */
    int width, height;         /* default 1920x1080 */
    int fps_num, fps_den;      /* default 30/1 */
    bool has_frames;           /* false: 0 .. last key of any motion */
    int64_t frame_first, frame_last; /* inclusive, output-fps frame numbers */
    int antialias;             /* 1, 2 or 4 (default 4) */
    bool ground_shadow;        /* MMD's planar ground shadow (default on) */
    float ground_shadow_brightness; /* 0..10, shadow colour = light colour x this (default 1) */
    bool ground_shadow_translucent; /* alpha 0.5 (default off) */
    bool has_edge_color;       /* edge_color given: the edges of PMD models (which have no colour of their own) */
    float edge_color[3];       /* 0..1 */
    mmd_texture_filter texture_filter; /* texture_filter = mmd (default) | trilinear */
    float background[3];       /* 0..1, default white */
    bool transparent;
    /* [camera] */
    char *camera_motion;       /* resolved path or NULL (fixed camera) */
    struct mmd_motion *camera_motion_data; /* the camera motion already in memory (a project's), owned by the scene; camera_motion is then only its name for messages */
    float cam_target[3];       /* position = x y z (default 0 10 0) */
    float cam_rotation[3];     /* degrees in the file, stored in radians */
    float cam_distance;        /* VMD convention, default -45 */
    float cam_fov;             /* degrees, default 30 */
    bool cam_ortho;
    mmd_scene_link *follows;   /* follow keys: the camera target moves with a bone */
    int follow_count;
    /* [light] */
    bool has_light_color, has_light_direction;
    float light_color[3], light_direction[3];
    /* [model] / [model:NAME], in file order */
    mmd_scene_model models[MMD_SCENE_MAX_MODELS];
    int model_count;
    /* [accessory] / [accessory:NAME], in file order (drawn in this order) */
    mmd_scene_accessory accessories[MMD_SCENE_MAX_ACCESSORIES];
    int accessory_count;
    /* [audio] */
    char *audio_file;          /* resolved path or NULL */
    double audio_offset;       /* seconds; > 0 delays the audio, < 0 trims its start */
    /* [gravity]: keys sorted by frame; none = MMD's default 9.8 along 0 -1 0 */
    mmd_scene_gravity_key *gravity;
    int gravity_count;
    /* [background]: MMD's background image, stretched over the frame x scale,
     * centred, moved by offset output pixels (x right, y down) */
    char *bg_image;            /* resolved path or NULL */
    int bg_offset[2];
    float bg_scale;            /* default 1 */
    char *bg_video;            /* MMD's background video (背景AVI), drawn over the image: resolved path or NULL */
    int bg_video_offset[2];
    float bg_video_scale;      /* default 1 */
    /* [effects]: all off by default (renderer/gl/effects.h) */
    mmd_effects effects;
    char *post_effects[MMD_SCENE_MAX_POST_EFFECTS]; /* [effects] post = FILE.fx: resolved paths, applied in order */
    int post_effect_count;
} mmd_scene;

/* Parse text (NUL-terminated) as if read from path (for messages and the base
 * folder of relative paths). check_files: fail when a referenced file cannot
 * be read. Returns MMD_OK, or a status with err (may be NULL) filled:
 * err->msg "path:line: message", err->section "scene.line" and err->item the
 * line (1-based; 0 when the failure has none). Bad values, unknown keys and
 * unreadable referenced files are MMD_E_BAD_VALUE; MMD_E_NOMEM. */
mmd_status mmd_scene_parse(const char *text, const char *path, bool check_files, mmd_scene **out,
                           mmd_error *err);
/* Read the file and mmd_scene_parse it with check_files = true. Also the
 * file's read status (MMD_E_IO ...) and MMD_E_BAD_MAGIC for a binary or
 * oversized file, as "path: sentence" without a line. */
mmd_status mmd_scene_load_file(const char *path, mmd_scene **out, mmd_error *err);
void mmd_scene_free(mmd_scene *s); /* NULL is a no-op; frees the motion_data too */
/* The scene's own warning, if any, as a line on f ("<prefix>warning: ..."):
 * a scene.ini that is not UTF-8 but valid Shift-JIS is read converted
 * (mmd_scene_load_file; invalid in both is MMD_E_BAD_STRING, naming both). */
void mmd_scene_warn(const mmd_scene *s, FILE *f, const char *prefix);
/* A scene file's bytes (size, no NUL) as UTF-8 text (malloc'd, NUL-terminated):
 * the bytes themselves when they are valid UTF-8; else, when they are valid
 * Shift-JIS (CP932, as Japanese Windows editors save), their conversion with
 * *sjis set; else NULL with MMD_E_BAD_STRING in err naming both encodings
 * (MMD_E_NOMEM when out of memory). mmd_scene_load_file uses it. */
char *mmd_scene_decode(const char *path, const uint8_t *data, size_t size, bool *sjis, mmd_error *err);
/* MME's file-name rules for file (a model or an .x), first that applies
 * (renderer/scene/effect_name.c): "NAME[EFFECT.fx].pmx" names EFFECT.fx beside
 * it; "NAME.emd" beside it assigns `[Effect] Obj = FILE` (relative to its
 * folder; "none": no effect, the next rule not asked); "NAME.fx" beside it.
 * Names match in any letter case, as on Windows. The effect's path into out
 * (a regular file) and its rule; MMD_EFFECT_NONE when none. */
mmd_effect_origin mmd_scene_effect_beside(const char *file, char *out, size_t cap);
/* "scene.ini", "project .emm", "beside the file" (origin's words in messages). */
const char *mmd_effect_origin_name(mmd_effect_origin origin);

/* The per-material lines of the file's NAME.emd (its folder, any letter
 * case): fn for each [Effect] `Obj[k] = FILE.fx` in file order, with k and
 * the effect found as mmd_scene_effect_beside finds Obj's (in the folder),
 * NULL for "none"; a file not found there is skipped, as nanoem skips it. */
typedef void (*mmd_scene_material_fn)(void *user, uint32_t material, const char *effect);
void mmd_scene_emd_materials(const char *file, mmd_scene_material_fn fn, void *user);

/* Material's entry of an object's list set (effect: a path the scene keeps,
 * e.g. mmd_scene_strdup's, or NULL for none), replacing an earlier one and
 * kept in material order; the list's array comes from the scene's arena.
 * MMD_E_LIMIT when the list holds MMD_SCENE_MAX_MATERIAL_EFFECTS, MMD_E_NOMEM. */
mmd_status mmd_scene_material_effect_set(mmd_scene *s, mmd_scene_material_effects *list, uint32_t material,
                                        char *effect, int line);
/* The same into a list whose items hold MMD_SCENE_MAX_MATERIAL_EFFECTS (the
 * caller's array); *replaced (may be NULL): the effect an entry held before,
 * else NULL. False when full. */
bool mmd_scene_material_effect_put(mmd_scene_material_effects *list, uint32_t material, char *effect, int line,
                                   char **replaced);

/* The [model]'s placement on its anim (mmd_anim_set_placement with
 * mmd_place_matrix): nothing when the section gives none. */
struct mmd_anim;
void mmd_scene_model_place(const mmd_scene_model *sm, struct mmd_anim *anim);
/* Physics gravity at VMD time t (MMD units/s^2): the last [gravity] key at or
 * before t (stepped; MMD's 9.8 along 0 -1 0 before the first or without keys),
 * normalised direction x acceleration x 10 (0 -98 0 by default); a zero
 * direction is straight down (nanoem's PhysicsEngine::setDirection). */
void mmd_scene_gravity_at(const mmd_scene *s, double t, float g[3]);

/* Value parsers, shared with the command line: MMD_OK, or MMD_E_BAD_VALUE
 * with "expected ..." in err->msg (err may be NULL). */
mmd_status mmd_scene_parse_size(const char *v, int *w, int *h, mmd_error *err);      /* "1920x1080" */
mmd_status mmd_scene_parse_fps(const char *v, int *num, int *den, mmd_error *err);   /* "30", "29.97", "30000/1001" */
/* "A-B" or "A" (and ":STEP" when step != NULL; step defaults to 1). */
mmd_status mmd_scene_parse_frames(const char *v, int64_t *first, int64_t *last, int *step, mmd_error *err);
/* "#rrggbb" or "transparent". */
mmd_status mmd_scene_parse_background(const char *v, float rgb[3], bool *transparent, mmd_error *err);
mmd_status mmd_scene_parse_antialias(const char *v, int *aa, mmd_error *err);
mmd_status mmd_scene_parse_ssaa(const char *v, int *ssaa, mmd_error *err); /* 1..4 */

/* The scene as scene.ini text (malloc'd, NUL-terminated, *len its length when
 * len is not NULL), from the key table (renderer/scene/scene_keys.h): each
 * section in the order the reader lists them, each key in the table's order,
 * only the keys whose value is not the default (placements given and files
 * always); deterministic. dir: the folder the text will be read from (paths
 * relative to it when shorter, as mmd_scene_relpath), NULL to write paths as
 * stored. comment (NULL none): a first "; comment" line. mmd_scene_parse of
 * the text gives the same scene (tests/unit/test_scene.c). MMD_E_OUTPUT when a
 * value cannot be held by a scene line (mmd_scene_can_hold, 197 bytes),
 * MMD_E_NOMEM. */
mmd_status mmd_scene_write(const mmd_scene *s, const char *dir, const char *comment, char **text, size_t *len,
                           mmd_error *err);
/* Path of file as a scene in the folder dir_real (a realpath) names it: its
 * real path relative to dir_real when that is shorter, else the real path (the
 * file as given when it has none). */
void mmd_scene_relpath(const char *dir_real, const char *file, char *out, size_t cap);

/* True when value, written as "key = value" on a scene line, parses back as
 * itself: no control character (a newline would start a line of its own, a
 * tab is a blank), no space at either end (inih trims them), no ';' after a
 * space (a comment).
 * Whoever writes a scene from text it did not make (project export: file and
 * bone names) checks it here. Length is the writer's (a line holds 200 bytes). */
bool mmd_scene_can_hold(const char *value);

#endif
