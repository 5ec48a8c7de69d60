/* renderer/scene/scene_keys.c - the scene keys as a table (scene_keys.h) and
 * the scene writer that works from it (mmd_scene_write, scene.h). */
#include "renderer/scene/scene_keys.h"

#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/accessory.h"
#include "core/model.h"
#include "renderer/base/msg.h"

#define MAX_UNITS MMD_SCENE_MAX_UNITS
#define MAX_DEGREES MMD_SCENE_MAX_DEGREES
#define SCENE_LINE_MAX 197 /* docs/scenes.md: a line holds 197 characters */

const char *const mmd_scene_section_names[MMD_SEC_COUNT] = {"", "output", "camera", "light", "model", "accessory",
                                                            "audio", "background", "effects", "gravity"};

/* ---- the writer's custom rows (declared before the table) ------------------ */
static void w_size(scene_writer *w, const mmd_scene *s, const void *obj, const mmd_scene_key *row);
static void w_fps(scene_writer *w, const mmd_scene *s, const void *obj, const mmd_scene_key *row);
static void w_frames(scene_writer *w, const mmd_scene *s, const void *obj, const mmd_scene_key *row);
static void w_background(scene_writer *w, const mmd_scene *s, const void *obj, const mmd_scene_key *row);
static void w_edge_color(scene_writer *w, const mmd_scene *s, const void *obj, const mmd_scene_key *row);
static void w_projection(scene_writer *w, const mmd_scene *s, const void *obj, const mmd_scene_key *row);
static void w_follow(scene_writer *w, const mmd_scene *s, const void *obj, const mmd_scene_key *row);
static void w_light_color(scene_writer *w, const mmd_scene *s, const void *obj, const mmd_scene_key *row);
static void w_light_direction(scene_writer *w, const mmd_scene *s, const void *obj, const mmd_scene_key *row);
static void w_motion(scene_writer *w, const mmd_scene *s, const void *obj, const mmd_scene_key *row);
static void w_camera_motion(scene_writer *w, const mmd_scene *s, const void *obj, const mmd_scene_key *row);
static void w_outside_parent(scene_writer *w, const mmd_scene *s, const void *obj, const mmd_scene_key *row);
static void w_parent(scene_writer *w, const mmd_scene *s, const void *obj, const mmd_scene_key *row);
static void w_acc_key(scene_writer *w, const mmd_scene *s, const void *obj, const mmd_scene_key *row);
static void w_gravity(scene_writer *w, const mmd_scene *s, const void *obj, const mmd_scene_key *row);
static void w_soft_shadow(scene_writer *w, const mmd_scene *s, const void *obj, const mmd_scene_key *row);
static void w_post_effect(scene_writer *w, const mmd_scene *s, const void *obj, const mmd_scene_key *row);
static void w_material_effect(scene_writer *w, const mmd_scene *s, const void *obj, const mmd_scene_key *row);
static void p_texture_filter(parse_state *st, const mmd_scene_key *row, void *obj, const char *k, const char *v);
static void w_texture_filter(scene_writer *w, const mmd_scene *s, const void *obj, const mmd_scene_key *row);

#define S(field) offsetof(mmd_scene, field)
#define M(field) offsetof(mmd_scene_model, field)
#define A(field) offsetof(mmd_scene_accessory, field)
#define PLACE_POS "%N as three numbers 'x y z' (MMD units)"
#define PLACE_ROT "%N as three angles in degrees 'x y z'"
#define EFFECT_NUMBER "%N as a number %R"
#define MATERIAL_EFFECT "%N = MATERIAL FILE.fx or MATERIAL none (MATERIAL: a 0-based index %R)"
#define MATERIAL_MAX (MMD_MAX_MATERIALS - 1) /* a material index: below the model reader's cap */

/* Each section's rows in the order its unknown-key sentence lists them. */
static const mmd_scene_key k_keys[] = {
    /* [output] */
    {MMD_SEC_OUTPUT, "width", NULL, MMD_KEY_INT, S(width), 1, MMD_SCENE_MAX_SIZE, {1920}, "%N in pixels %R", NULL,
     MMD_KEY_NO_WRITE, 0, NULL, NULL},
    {MMD_SEC_OUTPUT, "height", NULL, MMD_KEY_INT, S(height), 1, MMD_SCENE_MAX_SIZE, {1080}, "%N in pixels %R", NULL,
     MMD_KEY_NO_WRITE, 0, NULL, NULL},
    {MMD_SEC_OUTPUT, "size", NULL, MMD_KEY_CUSTOM, 0, 1, MMD_SCENE_MAX_SIZE, {0}, "WIDTHxHEIGHT", NULL, 0, 0,
     mmd_scene_key_size, w_size},
    {MMD_SEC_OUTPUT, "fps", NULL, MMD_KEY_CUSTOM, 0, 0, 0, {0}, "a frame rate", NULL, 0, 0, mmd_scene_key_fps,
     w_fps},
    {MMD_SEC_OUTPUT, "frames", NULL, MMD_KEY_CUSTOM, 0, 0, 0, {0}, "A-B", NULL, 0, 0, mmd_scene_key_frames, w_frames},
    {MMD_SEC_OUTPUT, "antialias", NULL, MMD_KEY_INT, S(antialias), 1, 4, {4}, "1, 2 or 4", NULL, 0, 0,
     mmd_scene_key_antialias, NULL},
    {MMD_SEC_OUTPUT, "background", NULL, MMD_KEY_CUSTOM, 0, 0, 0, {0}, "#rrggbb or transparent", NULL, 0, 0,
     mmd_scene_key_background, w_background},
    {MMD_SEC_OUTPUT, "ground_shadow", NULL, MMD_KEY_BOOL, S(ground_shadow), 0, 1, {1}, NULL, NULL, 0, 0, NULL, NULL},
    {MMD_SEC_OUTPUT, "ground_shadow_brightness", NULL, MMD_KEY_FLOAT, S(ground_shadow_brightness), 0, 10, {1},
     "%N %R (1 = the light's colour)", NULL, 0, 0, NULL, NULL},
    {MMD_SEC_OUTPUT, "ground_shadow_translucent", NULL, MMD_KEY_BOOL, S(ground_shadow_translucent), 0, 1, {0}, NULL,
     NULL, 0, 0, NULL, NULL},
    {MMD_SEC_OUTPUT, "edge_color", NULL, MMD_KEY_CUSTOM, S(edge_color), 0, 0, {0}, "%N = #rrggbb", NULL, 0, 0,
     mmd_scene_key_hex, w_edge_color},
    {MMD_SEC_OUTPUT, "texture_filter", NULL, MMD_KEY_CUSTOM, S(texture_filter), 0, 0, {0}, "%N = a texture filter",
     NULL, 0, 0, p_texture_filter, w_texture_filter},
    /* [camera] */
    {MMD_SEC_CAMERA, "motion", NULL, MMD_KEY_PATH, S(camera_motion), 0, 0, {0}, NULL, "camera motion", 0, 0, NULL,
     w_camera_motion},
    {MMD_SEC_CAMERA, "position", "target", MMD_KEY_VEC3, S(cam_target), -MAX_UNITS, MAX_UNITS, {0, 10, 0}, PLACE_POS,
     NULL, 0, 0, NULL, NULL},
    {MMD_SEC_CAMERA, "rotation", NULL, MMD_KEY_VEC3, S(cam_rotation), -MAX_DEGREES, MAX_DEGREES, {0}, PLACE_ROT, NULL,
     MMD_KEY_RADIANS, 0, NULL, NULL},
    {MMD_SEC_CAMERA, "distance", NULL, MMD_KEY_FLOAT, S(cam_distance), -1e6, 1e6, {-45},
     "%N as a number (VMD convention: -45 is MMD's default)", NULL, 0, 0, NULL, NULL},
    {MMD_SEC_CAMERA, "fov", NULL, MMD_KEY_FLOAT, S(cam_fov), 1, 179, {30}, "%N in degrees %R", NULL, 0, 0, NULL, NULL},
    {MMD_SEC_CAMERA, "projection", NULL, MMD_KEY_CUSTOM, S(cam_ortho), 0, 0, {0}, "%N perspective or orthographic",
     NULL, 0, 0, mmd_scene_key_projection, w_projection},
    {MMD_SEC_CAMERA, "follow", NULL, MMD_KEY_CUSTOM, 0, 0, 1e9, {0}, "%N = MODEL:BONE [@FRAME] (or none)", NULL,
     MMD_KEY_REPEAT, 0, mmd_scene_key_follow, w_follow},
    /* [light] */
    {MMD_SEC_LIGHT, "color", NULL, MMD_KEY_CUSTOM, S(light_color), 0, 1, {0},
     "light color as #rrggbb or three numbers %R", NULL, 0, 0, mmd_scene_key_light_color, w_light_color},
    {MMD_SEC_LIGHT, "direction", NULL, MMD_KEY_CUSTOM, S(light_direction), -1e6, 1e6, {0},
     "light direction as three numbers 'x y z', not all 0", NULL, 0, 0, mmd_scene_key_light_direction,
     w_light_direction},
    /* [model] / [model:NAME] */
    {MMD_SEC_MODEL, "file", NULL, MMD_KEY_PATH, M(file), 0, 0, {0}, NULL, "model", 0, 0, NULL, NULL},
    {MMD_SEC_MODEL, "motion", NULL, MMD_KEY_CUSTOM, 0, 0, MMD_SCENE_MAX_MOTIONS, {0}, NULL, "motion", MMD_KEY_REPEAT,
     0, mmd_scene_key_motion, w_motion},
    {MMD_SEC_MODEL, "physics", NULL, MMD_KEY_BOOL, M(physics), 0, 1, {1}, NULL, NULL, 0, 0, NULL, NULL},
    {MMD_SEC_MODEL, "outside_parent", NULL, MMD_KEY_CUSTOM, 0, 0, 1e9, {0},
     "%N = BONE -> MODEL:BONE [@FRAME] (or BONE -> none)", NULL, MMD_KEY_REPEAT, 0, mmd_scene_key_outside_parent,
     w_outside_parent},
    {MMD_SEC_MODEL, "edge_width", NULL, MMD_KEY_FLOAT, M(look.edge_width), 0, 100, {1},
     "%N %R (1 = the model's own edges)", NULL, 0, 0, NULL, NULL},
    {MMD_SEC_MODEL, "add_blend", NULL, MMD_KEY_BOOL, M(look.add_blend), 0, 1, {0}, NULL, NULL, 0, 0, NULL, NULL},
    {MMD_SEC_MODEL, "self_shadow", NULL, MMD_KEY_BOOL, M(look.self_shadow), 0, 1, {1}, NULL, NULL, 0, 0, NULL, NULL},
    {MMD_SEC_MODEL, "calc_order", NULL, MMD_KEY_INT, M(calc_order), 1, 1000000, {0}, "%N as a whole number %R", NULL,
     0, 0, NULL, NULL},
    {MMD_SEC_MODEL, "position", NULL, MMD_KEY_VEC3, M(position), -MAX_UNITS, MAX_UNITS, {0}, PLACE_POS, NULL,
     MMD_KEY_PLACE, 0, NULL, NULL},
    {MMD_SEC_MODEL, "rotation", NULL, MMD_KEY_VEC3, M(rotation), -MAX_DEGREES, MAX_DEGREES, {0}, PLACE_ROT, NULL,
     MMD_KEY_PLACE, 0, NULL, NULL},
    {MMD_SEC_MODEL, "scale", NULL, MMD_KEY_FLOAT, M(scale), 0, 1000, {1}, "%N as a number %R", NULL,
     MMD_KEY_PLACE | MMD_KEY_LO_OPEN, 0, NULL, NULL},
    {MMD_SEC_MODEL, "effect", NULL, MMD_KEY_PATH, M(effect), 0, 0, {0}, NULL, "effect", 0, 0, NULL, NULL},
    {MMD_SEC_MODEL, "material_effect", NULL, MMD_KEY_CUSTOM, M(material_effects), 0, MATERIAL_MAX, {0},
     MATERIAL_EFFECT, "effect", MMD_KEY_REPEAT, 0, mmd_scene_key_material_effect, w_material_effect},
    /* [accessory] / [accessory:NAME]: defaults are mmd_accessory_place_default's (a .vac's for position,
     * rotation, scale and parent when the section does not give them) */
    {MMD_SEC_ACCESSORY, "file", NULL, MMD_KEY_PATH, A(file), 0, 0, {0}, NULL, "accessory", 0, 0, NULL, NULL},
    {MMD_SEC_ACCESSORY, "position", NULL, MMD_KEY_VEC3, A(place.position), -MAX_UNITS, MAX_UNITS, {0}, PLACE_POS,
     NULL, MMD_KEY_PLACE, MMD_SCENE_ACC_POSITION, NULL, NULL},
    {MMD_SEC_ACCESSORY, "rotation", NULL, MMD_KEY_VEC3, A(place.rotation), -MAX_DEGREES, MAX_DEGREES, {0}, PLACE_ROT,
     NULL, MMD_KEY_PLACE, MMD_SCENE_ACC_ROTATION, NULL, NULL},
    {MMD_SEC_ACCESSORY, "scale", NULL, MMD_KEY_FLOAT, A(place.scale), 0, 1e6, {1}, "%N (MMD's Si) as a number %R",
     NULL, MMD_KEY_PLACE, MMD_SCENE_ACC_SCALE, NULL, NULL},
    {MMD_SEC_ACCESSORY, "opacity", NULL, MMD_KEY_FLOAT, A(place.opacity), 0, 1, {1}, "%N (MMD's Tr) as a number %R",
     NULL, 0, 0, NULL, NULL},
    {MMD_SEC_ACCESSORY, "parent", NULL, MMD_KEY_CUSTOM, 0, 0, 1e9, {0},
     "%N = MODEL:BONE [@FRAME] (a [model:NAME] and one of its bones) or none [@FRAME]", NULL, MMD_KEY_REPEAT, 0,
     mmd_scene_key_parent, w_parent},
    {MMD_SEC_ACCESSORY, "visible", NULL, MMD_KEY_BOOL, A(place.visible), 0, 1, {1}, NULL, NULL, 0, 0, NULL, NULL},
    {MMD_SEC_ACCESSORY, "shadow", NULL, MMD_KEY_BOOL, A(place.shadow), 0, 1, {1}, NULL, NULL, 0, 0, NULL, NULL},
    {MMD_SEC_ACCESSORY, "add_blend", NULL, MMD_KEY_BOOL, A(place.add_blend), 0, 1, {0}, NULL, NULL, 0, 0, NULL, NULL},
    {MMD_SEC_ACCESSORY, "after_models", NULL, MMD_KEY_BOOL, A(place.after_models), 0, 1, {0}, NULL, NULL, 0, 0, NULL,
     NULL},
    {MMD_SEC_ACCESSORY, "key", NULL, MMD_KEY_CUSTOM, 0, 0, 1e9, {0},
     "key = FRAME X Y Z RX RY RZ SI TR VISIBLE SHADOW (frame >= 0, position, rotation in degrees, scale 0..1000000, "
     "opacity 0..1, on|off, on|off)",
     NULL, MMD_KEY_REPEAT, 0, mmd_scene_key_acc_key, w_acc_key},
    {MMD_SEC_ACCESSORY, "effect", NULL, MMD_KEY_PATH, A(effect), 0, 0, {0}, NULL, "effect", 0, 0, NULL, NULL},
    {MMD_SEC_ACCESSORY, "material_effect", NULL, MMD_KEY_CUSTOM, A(material_effects), 0, MATERIAL_MAX, {0},
     MATERIAL_EFFECT, "effect", MMD_KEY_REPEAT, 0, mmd_scene_key_material_effect, w_material_effect},
    /* [audio] */
    {MMD_SEC_AUDIO, "file", NULL, MMD_KEY_PATH, S(audio_file), 0, 0, {0}, NULL, "audio", 0, 0, NULL, NULL},
    {MMD_SEC_AUDIO, "offset", NULL, MMD_KEY_DOUBLE, S(audio_offset), -86400, 86400, {0},
     "%N in seconds (e.g. 0.5 or -1.25)", NULL, 0, 0, NULL, NULL},
    /* [background] */
    {MMD_SEC_BACKGROUND, "image", NULL, MMD_KEY_PATH, S(bg_image), 0, 0, {0}, NULL, "background image", 0, 0, NULL,
     NULL},
    {MMD_SEC_BACKGROUND, "offset", NULL, MMD_KEY_OFFSET, S(bg_offset), -65536, 65536, {0},
     "%N = X Y in output pixels (x right, y down)", NULL, 0, 0, NULL, NULL},
    {MMD_SEC_BACKGROUND, "scale", NULL, MMD_KEY_FLOAT, S(bg_scale), 0, 100, {1}, "%N %R (1 = the frame's size)", NULL,
     MMD_KEY_LO_OPEN, 0, NULL, NULL},
    {MMD_SEC_BACKGROUND, "video", NULL, MMD_KEY_PATH, S(bg_video), 0, 0, {0}, NULL, "background video", 0, 0, NULL,
     NULL},
    {MMD_SEC_BACKGROUND, "video_offset", NULL, MMD_KEY_OFFSET, S(bg_video_offset), -65536, 65536, {0},
     "%N = X Y in output pixels (x right, y down)", NULL, 0, 0, NULL, NULL},
    {MMD_SEC_BACKGROUND, "video_scale", NULL, MMD_KEY_FLOAT, S(bg_video_scale), 0, 100, {1},
     "%N %R (1 = the frame's size)", NULL, MMD_KEY_LO_OPEN, 0, NULL, NULL},
    /* [effects]: defaults are mmd_effects_default's (renderer/gl/effects.h) */
    {MMD_SEC_EFFECTS, "glow", NULL, MMD_KEY_BOOL, S(effects.glow), 0, 1, {0}, NULL, NULL, 0, 0, NULL, NULL},
    {MMD_SEC_EFFECTS, "glow_strength", NULL, MMD_KEY_FLOAT, S(effects.glow_strength), 0, 10, {0}, EFFECT_NUMBER, NULL,
     0, 0, NULL, NULL},
    {MMD_SEC_EFFECTS, "glow_radius", NULL, MMD_KEY_FLOAT, S(effects.glow_radius), 0.25, 4, {0}, EFFECT_NUMBER, NULL,
     0, 0, NULL, NULL},
    {MMD_SEC_EFFECTS, "soft_shadow", NULL, MMD_KEY_CUSTOM, S(effects.soft_shadow), 0, 0, {0},
     "%N = on, off or contact", NULL, 0, 0, mmd_scene_key_soft_shadow, w_soft_shadow},
    {MMD_SEC_EFFECTS, "soft_shadow_radius", NULL, MMD_KEY_FLOAT, S(effects.soft_shadow_radius), 0.5, 8, {0},
     EFFECT_NUMBER, NULL, 0, 0, NULL, NULL},
    {MMD_SEC_EFFECTS, "diffusion", NULL, MMD_KEY_BOOL, S(effects.diffusion), 0, 1, {0}, NULL, NULL, 0, 0, NULL, NULL},
    {MMD_SEC_EFFECTS, "diffusion_strength", NULL, MMD_KEY_FLOAT, S(effects.diffusion_strength), 0, 2, {0},
     EFFECT_NUMBER, NULL, 0, 0, NULL, NULL},
    {MMD_SEC_EFFECTS, "diffusion_threshold", NULL, MMD_KEY_FLOAT, S(effects.diffusion_threshold), 0, 1, {0},
     EFFECT_NUMBER, NULL, 0, 0, NULL, NULL},
    {MMD_SEC_EFFECTS, "ssaa", NULL, MMD_KEY_INT, S(effects.ssaa), 1, 4, {0}, "1, 2, 3 or 4", NULL, 0, 0,
     mmd_scene_key_ssaa, NULL},
    {MMD_SEC_EFFECTS, "fxaa", NULL, MMD_KEY_BOOL, S(effects.fxaa), 0, 1, {0}, NULL, NULL, 0, 0, NULL, NULL},
    {MMD_SEC_EFFECTS, "post", NULL, MMD_KEY_CUSTOM, 0, 0, MMD_SCENE_MAX_POST_EFFECTS, {0}, NULL, "effect",
     MMD_KEY_REPEAT, 0, mmd_scene_key_post_effect, w_post_effect},
    /* [gravity] */
    {MMD_SEC_GRAVITY, "key", NULL, MMD_KEY_CUSTOM, 0, 0, 1e9, {0}, "key = FRAME ACCELERATION X Y Z", NULL,
     MMD_KEY_REPEAT | MMD_KEY_SYNTAX, 0, mmd_scene_key_gravity, w_gravity},
};

#undef S
#undef M
#undef A
_Static_assert(sizeof k_keys / sizeof k_keys[0] <= MMD_SCENE_MAX_KEYS, "raise MMD_SCENE_MAX_KEYS");

const mmd_scene_key *mmd_scene_keys(size_t *count)
{
    *count = sizeof k_keys / sizeof k_keys[0];
    return k_keys;
}

const mmd_scene_key *mmd_scene_key_find(int section, const char *key)
{
    for (size_t i = 0; i < sizeof k_keys / sizeof k_keys[0]; i++)
        if (k_keys[i].section == section &&
            (!strcmp(k_keys[i].name, key) || (k_keys[i].alias && !strcmp(k_keys[i].alias, key))))
            return &k_keys[i];
    return NULL;
}

void mmd_scene_key_range(const mmd_scene_key *row, char *out, size_t cap)
{
    if (row->flags & MMD_KEY_LO_OPEN)
        snprintf(out, cap, "above %.15g, at most %.15g", row->lo, row->hi);
    else
        snprintf(out, cap, "%.15g..%.15g", row->lo, row->hi);
}

void mmd_scene_key_expect(const mmd_scene_key *row, const char *key, char *out, size_t cap)
{
    const char *t = row->expect ? row->expect : "%N = on or off";
    size_t n = 0;
    out[0] = 0;
    for (; *t && n + 1 < cap; t++) {
        char range[64];
        const char *piece = NULL;
        if (t[0] == '%' && t[1] == 'N')
            piece = key;
        else if (t[0] == '%' && t[1] == 'R')
            mmd_scene_key_range(row, range, sizeof range), piece = range;
        if (piece) {
            n += (size_t)snprintf(out + n, cap - n, "%s", piece);
            n = n < cap ? n : cap - 1;
            t++;
        } else {
            out[n++] = *t;
            out[n] = 0;
        }
    }
}

void mmd_scene_key_list(int section, char *out, size_t cap)
{
    size_t n = 0;
    out[0] = 0;
    for (size_t i = 0; i < sizeof k_keys / sizeof k_keys[0] && n < cap; i++) {
        const mmd_scene_key *r = &k_keys[i];
        if (r->section == section)
            n += (size_t)snprintf(out + n, cap - n, "%s%s", n ? ", " : "", r->flags & MMD_KEY_SYNTAX ? r->expect : r->name);
    }
}

void mmd_scene_keys_dict(FILE *f)
{
    size_t n = sizeof k_keys / sizeof k_keys[0];
    for (size_t i = 0; i < 2 * n; i++) { /* names, then aliases */
        const char *name = i < n ? k_keys[i].name : k_keys[i - n].alias;
        bool first = name != NULL;
        for (size_t j = 0; first && j < i; j++)
            first = strcmp(name, j < n ? k_keys[j].name : (k_keys[j - n].alias ? k_keys[j - n].alias : ""));
        if (first)
            fprintf(f, "k_%s=\"%s = \"\n", name, name);
    }
}

/* The typed rows' defaults of one section into obj. */
static void table_defaults(int section, void *obj)
{
    for (size_t i = 0; i < sizeof k_keys / sizeof k_keys[0]; i++) {
        const mmd_scene_key *r = &k_keys[i];
        char *p = (char *)obj + r->offset;
        if (r->section != section)
            continue;
        switch (r->type) {
        case MMD_KEY_BOOL: *(bool *)p = r->def[0] != 0; break;
        case MMD_KEY_INT: *(int *)p = (int)r->def[0]; break;
        case MMD_KEY_FLOAT: *(float *)p = (float)r->def[0]; break;
        case MMD_KEY_DOUBLE: *(double *)p = r->def[0]; break;
        case MMD_KEY_VEC3:
            for (int c = 0; c < 3; c++)
                ((float *)p)[c] = (float)r->def[c];
            break;
        default: break; /* zero, or the custom row's own (below) */
        }
    }
}

void mmd_scene_defaults(mmd_scene *s)
{
    for (int sec = 1; sec < MMD_SEC_COUNT; sec++)
        if (sec != MMD_SEC_MODEL && sec != MMD_SEC_ACCESSORY && sec != MMD_SEC_EFFECTS)
            table_defaults(sec, s);
    s->fps_num = 30; /* fps = 30: MMD's own rate */
    s->fps_den = 1;
    s->background[0] = s->background[1] = s->background[2] = 1.0f; /* background = #ffffff */
    mmd_effects_default(&s->effects);
}

void mmd_scene_model_defaults(mmd_scene_model *m)
{
    table_defaults(MMD_SEC_MODEL, m);
}

void mmd_scene_accessory_defaults(mmd_scene_accessory *a)
{
    mmd_accessory_place_default(&a->place);
    a->parent_model = -1;
}

/* ---- the writer ------------------------------------------------------------ */

struct scene_writer {
    char *s;
    size_t n, cap;
    const char *dir_real; /* paths relative to this folder when shorter; NULL: as stored */
    mmd_status status;    /* the first failure */
    char msg[256];
    bool section_open;    /* the current section's header is written */
    char header[160];     /* the header to write before the section's first line */
};

static void w_fail(scene_writer *w, mmd_status st, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static void w_fail(scene_writer *w, mmd_status st, const char *fmt, ...)
{
    if (w->status != MMD_OK)
        return;
    w->status = st;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(w->msg, sizeof w->msg, fmt, ap);
    va_end(ap);
}

static void w_append(scene_writer *w, const char *text, size_t k)
{
    if (w->status != MMD_OK)
        return;
    if (k + 1 > w->cap - w->n) {
        size_t cap = (w->cap + k + 1) * 2;
        char *ns = realloc(w->s, cap);
        if (!ns) {
            w_fail(w, MMD_E_NOMEM, "out of memory");
            return;
        }
        w->s = ns;
        w->cap = cap;
    }
    memcpy(w->s + w->n, text, k);
    w->n += k;
    w->s[w->n] = 0;
}

/* One line "key = value" (the section's header first), checked that the
 * reader reads it back as itself. */
static void w_line(scene_writer *w, const char *key, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static void w_line(scene_writer *w, const char *key, const char *fmt, ...)
{
    char value[1024], line[1100], shown[256];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(value, sizeof value, fmt, ap);
    va_end(ap);
    int k = snprintf(line, sizeof line, "%s = %s\n", key, value);
    if (!mmd_scene_can_hold(value))
        w_fail(w, MMD_E_OUTPUT, "the value of %s has a character a scene line cannot hold: %s", key,
               mmd_printable(value, shown, sizeof shown));
    else if (k - 1 > SCENE_LINE_MAX)
        w_fail(w, MMD_E_OUTPUT, "the value of %s is too long for a scene line (%zu bytes): %s", key, strlen(value),
               mmd_printable(value, shown, sizeof shown));
    if (!w->section_open) {
        w_append(w, w->header, strlen(w->header));
        w->section_open = true;
    }
    w_append(w, line, (size_t)k);
}

/* The shortest text that reads back as d (%.15g, else %.17g). */
static const char *num(double d, char buf[32])
{
    snprintf(buf, 32, "%.15g", d);
    if (strtod(buf, NULL) != d)
        snprintf(buf, 32, "%.17g", d);
    return buf;
}

/* The shortest text that reads back as the float f (the reader keeps floats). */
static const char *numf(float f, char buf[32])
{
    for (int prec = 6; prec <= 9; prec++) {
        snprintf(buf, 32, "%.*g", prec, (double)f);
        if ((float)strtod(buf, NULL) == f)
            break;
    }
    return buf;
}

/* Degrees for an angle the reader stores in radians: the float the reader
 * turns back into rad exactly (it reads degrees as a float, then converts). */
static const char *num_degrees(float rad, char buf[32])
{
    float g = (float)(rad * (180.0 / M_PI));
    float try[3] = {g, nextafterf(g, -INFINITY), nextafterf(g, INFINITY)};
    for (int i = 0; i < 3; i++)
        if ((float)(try[i] * (M_PI / 180.0)) == rad)
            return numf(try[i], buf);
    return numf(g, buf);
}

/* Path of file as a scene in dir_real names it: relative when shorter. */
void mmd_scene_relpath(const char *dir_real, const char *file, char *out, size_t cap)
{
    char real[PATH_MAX];
    if (!realpath(file, real))
        snprintf(real, sizeof real, "%s", file);
    size_t i = 0, last = 0;
    for (; dir_real[i] && dir_real[i] == real[i]; i++)
        if (dir_real[i] == '/')
            last = i;
    if (!dir_real[i] && real[i] == '/')
        last = i;
    char rel[PATH_MAX + 64] = "";
    size_t rn = 0;
    for (const char *q = dir_real + last; *q && rn + 4 < sizeof rel; q++)
        if (*q == '/' && q[1])
            rn += (size_t)snprintf(rel + rn, sizeof rel - rn, "../");
    snprintf(rel + rn, sizeof rel - rn, "%s", real + last + 1);
    const char *pick = real[0] == '/' && strlen(rel) < strlen(real) && mmd_scene_can_hold(rel) ? rel : real;
    size_t len = strlen(pick) < cap ? strlen(pick) : cap - 1;
    memcpy(out, pick, len);
    out[len] = 0;
}

static void w_path(scene_writer *w, const char *key, const char *file)
{
    char path[PATH_MAX];
    if (w->dir_real)
        mmd_scene_relpath(w->dir_real, file, path, sizeof path);
    else
        snprintf(path, sizeof path, "%s", file);
    w_line(w, key, "%s", path);
}

/* A typed row's value at p. */
static void w_typed(scene_writer *w, const mmd_scene_key *r, const char *p)
{
    char a[32], b[32], c[32];
    const float *f = (const float *)p;
    switch (r->type) {
    case MMD_KEY_BOOL: w_line(w, r->name, "%s", *(const bool *)p ? "on" : "off"); break;
    case MMD_KEY_INT: w_line(w, r->name, "%d", *(const int *)p); break;
    case MMD_KEY_FLOAT: w_line(w, r->name, "%s", numf(*(const float *)p, a)); break;
    case MMD_KEY_DOUBLE: w_line(w, r->name, "%s", num(*(const double *)p, a)); break;
    case MMD_KEY_OFFSET: w_line(w, r->name, "%d %d", ((const int *)p)[0], ((const int *)p)[1]); break;
    case MMD_KEY_PATH: w_path(w, r->name, *(char *const *)p); break;
    case MMD_KEY_VEC3:
        if (r->flags & MMD_KEY_RADIANS)
            w_line(w, r->name, "%s %s %s", num_degrees(f[0], a), num_degrees(f[1], b), num_degrees(f[2], c));
        else
            w_line(w, r->name, "%s %s %s", numf(f[0], a), numf(f[1], b), numf(f[2], c));
        break;
    default: break;
    }
}

static size_t type_size(mmd_scene_key_type t)
{
    switch (t) {
    case MMD_KEY_BOOL: return sizeof(bool);
    case MMD_KEY_INT: return sizeof(int);
    case MMD_KEY_FLOAT: return sizeof(float);
    case MMD_KEY_DOUBLE: return sizeof(double);
    case MMD_KEY_VEC3: return 3 * sizeof(float);
    case MMD_KEY_OFFSET: return 2 * sizeof(int);
    default: return 0;
    }
}

/* Was the placement row given (a model's placed, an accessory's set bit)? */
static bool placed(int section, const void *obj, const mmd_scene_key *r)
{
    if (!(r->flags & MMD_KEY_PLACE))
        return false;
    if (section == MMD_SEC_MODEL)
        return ((const mmd_scene_model *)obj)->placed;
    return (((const mmd_scene_accessory *)obj)->set & r->mark) != 0;
}

/* Every row of section for obj whose value is not its default (def: a
 * defaulted obj), placements that were given and custom rows (which decide);
 * the repeatable keys (motions, links, key lines) after the single ones. */
static void w_section(scene_writer *w, const mmd_scene *s, int section, const void *obj, const void *def,
                      const char *header)
{
    snprintf(w->header, sizeof w->header, "%s\n", header);
    w->section_open = false;
    size_t n = sizeof k_keys / sizeof k_keys[0];
    for (size_t j = 0; j < 2 * n; j++) { /* the single keys, then the repeatable ones */
        const mmd_scene_key *r = &k_keys[j % n];
        const char *p = (const char *)obj + r->offset;
        if (r->section != section || (r->flags & MMD_KEY_NO_WRITE) || (j < n) == ((r->flags & MMD_KEY_REPEAT) != 0))
            continue;
        if (r->write)
            r->write(w, s, obj, r);
        else if (r->type == MMD_KEY_PATH ? *(char *const *)p != NULL
                                          : memcmp(p, (const char *)def + r->offset, type_size(r->type)) ||
                                                placed(section, obj, r))
            w_typed(w, r, p);
    }
    if (w->section_open)
        w_append(w, "\n", 1);
}

static void write_all(scene_writer *w, const mmd_scene *s)
{
    mmd_scene *def = calloc(1, sizeof *def);
    if (!def) {
        w_fail(w, MMD_E_NOMEM, "out of memory");
        return;
    }
    mmd_scene_defaults(def);
    mmd_scene_model_defaults(&def->models[0]);
    mmd_scene_accessory_defaults(&def->accessories[0]);
    static const int singles[] = {MMD_SEC_OUTPUT, MMD_SEC_CAMERA, MMD_SEC_LIGHT};
    char header[160];
    for (size_t i = 0; i < sizeof singles / sizeof singles[0]; i++) {
        snprintf(header, sizeof header, "[%s]", mmd_scene_section_names[singles[i]]);
        w_section(w, s, singles[i], s, def, header);
    }
    for (int i = 0; i < s->model_count; i++) {
        snprintf(header, sizeof header, "[model%s%s]", *s->models[i].name ? ":" : "", s->models[i].name);
        w_section(w, s, MMD_SEC_MODEL, &s->models[i], &def->models[0], header);
    }
    for (int i = 0; i < s->accessory_count; i++) {
        snprintf(header, sizeof header, "[accessory%s%s]", *s->accessories[i].name ? ":" : "", s->accessories[i].name);
        w_section(w, s, MMD_SEC_ACCESSORY, &s->accessories[i], &def->accessories[0], header);
    }
    static const int tail[] = {MMD_SEC_BACKGROUND, MMD_SEC_GRAVITY, MMD_SEC_EFFECTS, MMD_SEC_AUDIO};
    for (size_t i = 0; i < sizeof tail / sizeof tail[0]; i++) {
        snprintf(header, sizeof header, "[%s]", mmd_scene_section_names[tail[i]]);
        w_section(w, s, tail[i], s, def, header);
    }
    free(def);
}

mmd_status mmd_scene_write(const mmd_scene *s, const char *dir, const char *comment, char **text, size_t *len,
                           mmd_error *err)
{
    scene_writer w = {0};
    char dir_real[PATH_MAX];
    *text = NULL;
    if (dir && !realpath(dir, dir_real))
        return mmd_fail(err, MMD_E_OUTPUT, "cannot open %s", dir);
    w.dir_real = dir ? dir_real : NULL;
    if (comment) {
        char shown[150]; /* the comment stays one line within a scene line, whatever it names */
        char line[200];
        int k = snprintf(line, sizeof line, "; %s\n\n", mmd_printable(comment, shown, sizeof shown));
        w_append(&w, line, (size_t)k);
    }
    write_all(&w, s);
    if (w.status == MMD_OK && !w.s)
        w_append(&w, "", 0);
    if (w.status != MMD_OK) {
        free(w.s);
        return mmd_fail(err, w.status, "%s", w.msg);
    }
    *text = w.s;
    if (len)
        *len = w.n;
    return MMD_OK;
}

/* ---- custom rows ----------------------------------------------------------- */

static void w_size(scene_writer *w, const mmd_scene *s, const void *obj, const mmd_scene_key *row)
{
    (void)obj;
    const mmd_scene_key *wr = mmd_scene_key_find(MMD_SEC_OUTPUT, "width");
    const mmd_scene_key *hr = mmd_scene_key_find(MMD_SEC_OUTPUT, "height");
    if (s->width != (int)wr->def[0] || s->height != (int)hr->def[0])
        w_line(w, row->name, "%dx%d", s->width, s->height);
}

static void w_fps(scene_writer *w, const mmd_scene *s, const void *obj, const mmd_scene_key *row)
{
    (void)obj;
    if (s->fps_den == 1 && s->fps_num != 30)
        w_line(w, row->name, "%d", s->fps_num);
    else if (s->fps_den != 1)
        w_line(w, row->name, "%d/%d", s->fps_num, s->fps_den);
}

static void w_frames(scene_writer *w, const mmd_scene *s, const void *obj, const mmd_scene_key *row)
{
    (void)obj;
    if (s->has_frames)
        w_line(w, row->name, "%lld-%lld", (long long)s->frame_first, (long long)s->frame_last);
}

static void hex(const float c[3], char out[8])
{
    snprintf(out, 8, "#%02x%02x%02x", (unsigned)lroundf(c[0] * 255.0f) & 255u, (unsigned)lroundf(c[1] * 255.0f) & 255u,
             (unsigned)lroundf(c[2] * 255.0f) & 255u);
}

static void w_background(scene_writer *w, const mmd_scene *s, const void *obj, const mmd_scene_key *row)
{
    (void)obj;
    char h[8];
    hex(s->background, h);
    if (s->transparent)
        w_line(w, row->name, "transparent");
    else if (strcmp(h, "#ffffff"))
        w_line(w, row->name, "%s", h);
}

static void w_edge_color(scene_writer *w, const mmd_scene *s, const void *obj, const mmd_scene_key *row)
{
    (void)obj;
    char h[8];
    hex(s->edge_color, h);
    if (s->has_edge_color)
        w_line(w, row->name, "%s", h);
}

static void w_projection(scene_writer *w, const mmd_scene *s, const void *obj, const mmd_scene_key *row)
{
    (void)obj;
    if (s->cam_ortho)
        w_line(w, row->name, "orthographic");
}

/* "[BONE -> ]MODEL:BONE @FRAME" or "[BONE -> ]none @FRAME" per link. */
static void w_links(scene_writer *w, const char *key, const mmd_scene_link *l, int count)
{
    for (int i = 0; i < count; i++) {
        char f[32];
        w_line(w, key, "%s%s%s%s%s @%s", l[i].bone ? l[i].bone : "", l[i].bone ? " -> " : "",
               l[i].model ? l[i].model : "none", l[i].model ? ":" : "", l[i].model ? l[i].parent_bone : "",
               num(l[i].frame, f));
    }
}

static void w_follow(scene_writer *w, const mmd_scene *s, const void *obj, const mmd_scene_key *row)
{
    (void)obj;
    w_links(w, row->name, s->follows, s->follow_count);
}

static void w_vec3(scene_writer *w, const char *key, const float v[3])
{
    char a[32], b[32], c[32];
    w_line(w, key, "%s %s %s", numf(v[0], a), numf(v[1], b), numf(v[2], c));
}

static void w_light_color(scene_writer *w, const mmd_scene *s, const void *obj, const mmd_scene_key *row)
{
    (void)obj;
    if (s->has_light_color)
        w_vec3(w, row->name, s->light_color);
}

static void w_light_direction(scene_writer *w, const mmd_scene *s, const void *obj, const mmd_scene_key *row)
{
    (void)obj;
    if (s->has_light_direction)
        w_vec3(w, row->name, s->light_direction);
}

/* A motion in memory is written beside the scene under its name (project export): the name as is. */
static void w_motion(scene_writer *w, const mmd_scene *s, const void *obj, const mmd_scene_key *row)
{
    (void)s;
    const mmd_scene_model *m = obj;
    for (int i = 0; i < m->motion_count; i++) {
        if (m->motion_data[i])
            w_line(w, row->name, "%s", m->motions[i]);
        else
            w_path(w, row->name, m->motions[i]);
    }
}

static void w_camera_motion(scene_writer *w, const mmd_scene *s, const void *obj, const mmd_scene_key *row)
{
    (void)obj;
    if (s->camera_motion && s->camera_motion_data)
        w_line(w, row->name, "%s", s->camera_motion);
    else if (s->camera_motion)
        w_path(w, row->name, s->camera_motion);
}

static void w_outside_parent(scene_writer *w, const mmd_scene *s, const void *obj, const mmd_scene_key *row)
{
    (void)s;
    const mmd_scene_model *m = obj;
    w_links(w, row->name, m->parents, m->parent_count);
}

static void w_parent(scene_writer *w, const mmd_scene *s, const void *obj, const mmd_scene_key *row)
{
    (void)s;
    const mmd_scene_accessory *a = obj;
    w_links(w, row->name, a->parents, a->parent_count);
}

static void w_acc_key(scene_writer *w, const mmd_scene *s, const void *obj, const mmd_scene_key *row)
{
    (void)s;
    const mmd_scene_accessory *a = obj;
    char n[9][32];
    for (int i = 0; i < a->key_count; i++) {
        const mmd_scene_acc_key *k = &a->keys[i];
        const mmd_accessory_place *p = &k->place;
        w_line(w, row->name, "%s %s %s %s %s %s %s %s %s %s %s", num(k->frame, n[0]), numf(p->position[0], n[1]),
               numf(p->position[1], n[2]), numf(p->position[2], n[3]), numf(p->rotation[0], n[4]),
               numf(p->rotation[1], n[5]), numf(p->rotation[2], n[6]), numf(p->scale, n[7]), numf(p->opacity, n[8]),
               p->visible ? "on" : "off", p->shadow ? "on" : "off");
    }
}

static void w_gravity(scene_writer *w, const mmd_scene *s, const void *obj, const mmd_scene_key *row)
{
    (void)obj;
    char n[5][32];
    for (int i = 0; i < s->gravity_count; i++) {
        const mmd_scene_gravity_key *g = &s->gravity[i];
        w_line(w, row->name, "%s %s %s %s %s", num(g->frame, n[0]), numf(g->acceleration, n[1]),
               numf(g->direction[0], n[2]), numf(g->direction[1], n[3]), numf(g->direction[2], n[4]));
    }
}

static void w_material_effect(scene_writer *w, const mmd_scene *s, const void *obj, const mmd_scene_key *row)
{
    (void)s;
    const mmd_scene_material_effects *list = (const void *)((const char *)obj + row->offset);
    char path[PATH_MAX];
    for (int i = 0; i < list->count; i++) {
        const mmd_scene_material_effect *e = &list->items[i];
        if (!e->effect)
            snprintf(path, sizeof path, "none");
        else if (w->dir_real)
            mmd_scene_relpath(w->dir_real, e->effect, path, sizeof path);
        else
            snprintf(path, sizeof path, "%s", e->effect);
        w_line(w, row->name, "%u %s", e->material, path);
    }
}

static void w_post_effect(scene_writer *w, const mmd_scene *s, const void *obj, const mmd_scene_key *row)
{
    (void)obj;
    for (int i = 0; i < s->post_effect_count; i++)
        w_path(w, row->name, s->post_effects[i]);
}

static void w_soft_shadow(scene_writer *w, const mmd_scene *s, const void *obj, const mmd_scene_key *row)
{
    (void)obj;
    if (s->effects.soft_shadow)
        w_line(w, row->name, "%s", s->effects.soft_shadow_mode == MMD_SOFT_SHADOW_CONTACT ? "contact" : "on");
}

/* texture_filter = mmd | trilinear (renderer/gl/render.h names them; default mmd, not written). */
static void p_texture_filter(parse_state *st, const mmd_scene_key *row, void *obj, const char *k, const char *v)
{
    mmd_error m;
    (void)k;
    if (mmd_texture_filter_parse(v, (mmd_texture_filter *)((char *)obj + row->offset), &m))
        mmd_scene_fail(st, "%s", m.msg);
}

static void w_texture_filter(scene_writer *w, const mmd_scene *s, const void *obj, const mmd_scene_key *row)
{
    (void)obj;
    if (s->texture_filter != MMD_TEXTURE_FILTER_MMD)
        w_line(w, row->name, "%s", mmd_texture_filter_name(s->texture_filter));
}
