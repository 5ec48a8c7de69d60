/* renderer/scene/scene_keys.h - the scene keys as data (internal: scene.c,
 * scene_keys.c and their tests).
 *
 * One row per key of scene.ini, in the manner of FFmpeg's AVOption: its
 * section, name, type, place (offsetof into the section's struct), range,
 * default and the words of its "expected ..." sentence. The reader (scene.c)
 * parses, checks, finds duplicates and words its errors from the row; the
 * writer (mmd_scene_write) writes from it; defaults come from it; the tests
 * check that docs/scenes.md and tests/fuzz/scene.dict name every row. A key
 * with its own grammar (outside_parent, follow, key = ..., size, fps, frames,
 * background) is a row with a parse and a write function of its own.
 *
 * Adding a key: one row here, its field in scene.h, a line in docs/scenes.md
 * and in the test (docs/architecture.md "Adding a scene key").
 */
#ifndef MMD_RENDERER_SCENE_KEYS_H
#define MMD_RENDERER_SCENE_KEYS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "renderer/scene/scene.h"

/* Bounds of a place in MMD units and of an angle in degrees (camera, model,
 * accessory placements and keys). */
#define MMD_SCENE_MAX_UNITS 1e6
#define MMD_SCENE_MAX_DEGREES 36000

/* Sections. [model] and [accessory] repeat (with an optional :NAME). */
enum { /* in the order the unknown-section sentence lists them */
    MMD_SEC_NONE, MMD_SEC_OUTPUT, MMD_SEC_CAMERA, MMD_SEC_LIGHT, MMD_SEC_MODEL, MMD_SEC_ACCESSORY, MMD_SEC_AUDIO,
    MMD_SEC_BACKGROUND, MMD_SEC_EFFECTS, MMD_SEC_GRAVITY, MMD_SEC_COUNT
};
extern const char *const mmd_scene_section_names[MMD_SEC_COUNT];

typedef enum mmd_scene_key_type {
    MMD_KEY_BOOL,   /* bool: on|off (true|false, yes|no, 1|0) */
    MMD_KEY_INT,    /* int: plain digits in lo..hi */
    MMD_KEY_FLOAT,  /* float: a number in lo..hi */
    MMD_KEY_DOUBLE, /* double: a number in lo..hi */
    MMD_KEY_VEC3,   /* float[3]: three numbers (spaces or commas), each in lo..hi */
    MMD_KEY_OFFSET, /* int[2]: two whole numbers, |x| <= hi */
    MMD_KEY_PATH,   /* char *: a file relative to the scene, resolved (noun names it in messages) */
    MMD_KEY_CUSTOM, /* its own parse and write functions */
} mmd_scene_key_type;

enum {
    MMD_KEY_REPEAT = 1,   /* may be given more than once (no duplicate check) */
    MMD_KEY_LO_OPEN = 2,  /* the range excludes lo: "above LO, at most HI" */
    MMD_KEY_RADIANS = 4,  /* VEC3 given in degrees, stored in radians */
    MMD_KEY_PLACE = 8,    /* part of a placement: marks the model placed / the accessory's set bits */
    MMD_KEY_SYNTAX = 16,  /* the section's unknown-key sentence shows the row's expect, not its name */
    MMD_KEY_NO_WRITE = 32 /* written by another row (width and height by size) */
};

struct mmd_scene_key;
typedef struct parse_state parse_state;
typedef struct scene_writer scene_writer;
typedef void (*mmd_scene_key_parse_fn)(parse_state *st, const struct mmd_scene_key *row, void *obj, const char *key,
                                       const char *value);
typedef void (*mmd_scene_key_write_fn)(scene_writer *w, const mmd_scene *s, const void *obj,
                                       const struct mmd_scene_key *row);

typedef struct mmd_scene_key {
    int section;          /* MMD_SEC_* */
    const char *name;
    const char *alias;    /* another name of the same key (camera target), or NULL */
    mmd_scene_key_type type;
    size_t offset;        /* into mmd_scene, mmd_scene_model or mmd_scene_accessory */
    double lo, hi;        /* range */
    double def[3];        /* default (a VEC3's three; BOOL 0/1); the section's owner default where noted */
    const char *expect;   /* the sentence after "expected ": %N the key as written, %R the range */
    const char *noun;     /* PATH: "cannot read <noun> file", "expected a <noun> path" */
    unsigned flags;       /* MMD_KEY_* */
    unsigned mark;        /* PLACE in [accessory]: its MMD_SCENE_ACC_* bit */
    mmd_scene_key_parse_fn parse; /* NULL: by type */
    mmd_scene_key_write_fn write; /* NULL: by type */
} mmd_scene_key;

/* The table, in each section's documented order; at most MMD_SCENE_MAX_KEYS rows
 * (the reader keeps a flag per row for duplicates; the build checks it). */
#define MMD_SCENE_MAX_KEYS 128
const mmd_scene_key *mmd_scene_keys(size_t *count);
/* The row of key in section (its name or alias), NULL when none. */
const mmd_scene_key *mmd_scene_key_find(int section, const char *key);
/* The row's range as its sentence says it ("1..16384", "above 0, at most 1000"). */
void mmd_scene_key_range(const mmd_scene_key *row, char *out, size_t cap);
/* "expected ..." of the row for the key as written (no ", got ..."). */
void mmd_scene_key_expect(const mmd_scene_key *row, const char *key, char *out, size_t cap);
/* The libFuzzer dictionary lines of every key name, 'k_NAME="NAME = "', one
 * per name (tools/mkscenedict adds them to tests/fuzz/scene.dict). */
void mmd_scene_keys_dict(FILE *f);
/* ", "-separated names of the section's keys (the unknown-key sentence). */
void mmd_scene_key_list(int section, char *out, size_t cap);

/* Defaults from the table (and, for [effects] and accessory placements, from
 * their owners: mmd_effects_default, mmd_accessory_place_default). */
void mmd_scene_defaults(mmd_scene *s);
void mmd_scene_model_defaults(mmd_scene_model *m);
void mmd_scene_accessory_defaults(mmd_scene_accessory *a);

/* An empty scene (the defaults) as if read from path, with its arena; NULL
 * when out of memory. mmd_scene_free frees it. A scene built in memory
 * (mmd_project_scene) keeps its strings and arrays in the scene's arena. */
mmd_scene *mmd_scene_create(const char *path);
char *mmd_scene_strdup(mmd_scene *s, const char *v);             /* NULL when out of memory */
void *mmd_scene_array(mmd_scene *s, size_t count, size_t size); /* zeroed; NULL when out of memory */

/* The reader's helpers the table's own parsers use (scene.c). */
void mmd_scene_fail(parse_state *st, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void mmd_scene_fail_expect(parse_state *st, const mmd_scene_key *row, const char *key, const char *value);
/* Custom parsers (scene.c). */
void mmd_scene_key_size(parse_state *st, const mmd_scene_key *row, void *obj, const char *k, const char *v);
void mmd_scene_key_fps(parse_state *st, const mmd_scene_key *row, void *obj, const char *k, const char *v);
void mmd_scene_key_frames(parse_state *st, const mmd_scene_key *row, void *obj, const char *k, const char *v);
void mmd_scene_key_antialias(parse_state *st, const mmd_scene_key *row, void *obj, const char *k, const char *v);
void mmd_scene_key_background(parse_state *st, const mmd_scene_key *row, void *obj, const char *k, const char *v);
void mmd_scene_key_hex(parse_state *st, const mmd_scene_key *row, void *obj, const char *k, const char *v);
void mmd_scene_key_projection(parse_state *st, const mmd_scene_key *row, void *obj, const char *k, const char *v);
void mmd_scene_key_follow(parse_state *st, const mmd_scene_key *row, void *obj, const char *k, const char *v);
void mmd_scene_key_light_color(parse_state *st, const mmd_scene_key *row, void *obj, const char *k, const char *v);
void mmd_scene_key_light_direction(parse_state *st, const mmd_scene_key *row, void *obj, const char *k,
                                   const char *v);
void mmd_scene_key_motion(parse_state *st, const mmd_scene_key *row, void *obj, const char *k, const char *v);
void mmd_scene_key_outside_parent(parse_state *st, const mmd_scene_key *row, void *obj, const char *k,
                                  const char *v);
void mmd_scene_key_parent(parse_state *st, const mmd_scene_key *row, void *obj, const char *k, const char *v);
void mmd_scene_key_acc_key(parse_state *st, const mmd_scene_key *row, void *obj, const char *k, const char *v);
void mmd_scene_key_gravity(parse_state *st, const mmd_scene_key *row, void *obj, const char *k, const char *v);
void mmd_scene_key_post_effect(parse_state *st, const mmd_scene_key *row, void *obj, const char *k, const char *v);
void mmd_scene_key_material_effect(parse_state *st, const mmd_scene_key *row, void *obj, const char *k,
                                   const char *v);
void mmd_scene_key_soft_shadow(parse_state *st, const mmd_scene_key *row, void *obj, const char *k, const char *v);
void mmd_scene_key_ssaa(parse_state *st, const mmd_scene_key *row, void *obj, const char *k, const char *v);

#endif
