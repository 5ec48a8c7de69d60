/* renderer/scene/scene.c - scene INI parsing (inih) and validation. */
#include "renderer/scene/scene.h"

#include <errno.h>
#include <float.h>
#include <limits.h>
#include <ini.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/accessory.h"
#include "core/anim.h"
#include "core/arena.h"
#include "core/file.h"
#include "core/motion.h"
#include "core/text.h"
#include "renderer/scene/plan.h"
#include "renderer/base/msg.h"
#include "renderer/base/parse.h"
#include "renderer/image/texpath.h"

#define MAX_SCENE_BYTES (1u << 20)
/* Bounds of a place in MMD units and of an angle in degrees (camera, model, accessory placements and keys). */
#define MAX_UNITS 1e6
#define MAX_DEGREES 36000

enum {
    SEC_NONE, SEC_OUTPUT, SEC_CAMERA, SEC_LIGHT, SEC_MODEL, SEC_AUDIO, SEC_EFFECTS, SEC_ACCESSORY, SEC_BACKGROUND,
    SEC_GRAVITY, SEC_COUNT
};
static const char *const k_section_names[SEC_COUNT] = {"", "output", "camera", "light", "model", "audio",
                                                       "effects", "accessory", "background", "gravity"};

typedef struct parse_state {
    mmd_scene *s;
    mmd_arena *arena;
    const char *text;   /* read cursor for the line reader */
    const char *path;
    bool check_files;
    int line;           /* line the reader handed out last (1-based) */
    int section;        /* SEC_* of the current section */
    int section_line;
    bool seen[SEC_COUNT];
    uint32_t seen_keys; /* bit per key of the current single section (duplicates) */
    bool failed;
    char *parent_names[MMD_SCENE_MAX_ACCESSORIES]; /* model name of each accessory's parent key */
    int key_caps[MMD_SCENE_MAX_ACCESSORIES];       /* room in each accessory's keys */
    int gravity_cap;
    mmd_error *err;     /* never NULL (mmd_scene_parse supplies one) */
} parse_state;

struct scene_box { /* mmd_scene plus its arena, freed together */
    mmd_scene scene;
    mmd_arena *arena;
};

/* The first failure wins: "path:line: sentence" in err->msg, the line (1-based,
 * 0 when none) in err->item with section "scene.line". */
static void fail_status(parse_state *st, mmd_status status, int line, const char *fmt, va_list ap)
    __attribute__((format(printf, 4, 0)));
static void fail_status(parse_state *st, mmd_status status, int line, const char *fmt, va_list ap)
{
    if (st->failed)
        return;
    st->failed = true;
    char body[sizeof st->err->msg];
    vsnprintf(body, sizeof body, fmt, ap);
    mmd_error_set(st->err, status, "scene.line", line, -1, "%s:%d: %s", st->path, line, body);
}

static void fail_at(parse_state *st, int line, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static void fail_at(parse_state *st, int line, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fail_status(st, MMD_E_BAD_VALUE, line, fmt, ap);
    va_end(ap);
}

static void fail_nomem(parse_state *st, int line)
{
    if (st->failed)
        return;
    st->failed = true;
    mmd_error_set(st->err, MMD_E_NOMEM, "scene.line", line, -1, "%s:%d: out of memory", st->path, line);
}

/* ---- value parsers ---------------------------------------------------- */

/* A finite number (renderer/base/parse.h); callers check their own range. */
static bool parse_double(const char *v, double *out)
{
    return mmd_parse_double(v, -DBL_MAX, DBL_MAX, out);
}

static bool parse_i64(const char *v, const char **end_out, int64_t lo, int64_t hi, int64_t *out)
{
    if (*v < '0' || *v > '9')
        return false; /* no sign, no spaces: frame numbers and sizes are plain digits */
    char *end;
    errno = 0;
    long long x = strtoll(v, &end, 10);
    if (errno == ERANGE || x < lo || x > hi)
        return false;
    if (end_out)
        *end_out = end;
    else if (*end)
        return false;
    *out = x;
    return true;
}

mmd_status mmd_scene_parse_size(const char *v, int *w, int *h, mmd_error *err)
{
    const char *p;
    int64_t a, b;
    if (!v || !parse_i64(v, &p, 1, MMD_SCENE_MAX_SIZE, &a) || (*p != 'x' && *p != 'X') ||
        !parse_i64(p + 1, NULL, 1, MMD_SCENE_MAX_SIZE, &b))
        return mmd_fail(err, MMD_E_BAD_VALUE, "expected WIDTHxHEIGHT with each 1..%d, e.g. 1920x1080, got '%s'",
                        MMD_SCENE_MAX_SIZE, v ? v : "");
    *w = (int)a;
    *h = (int)b;
    return MMD_OK;
}

mmd_status mmd_scene_parse_fps(const char *v, int *num, int *den, mmd_error *err)
{
    const char *slash = v ? strchr(v, '/') : NULL;
    int64_t a = 0, b = 1;
    if (!v)
        return mmd_fail(err, MMD_E_BAD_VALUE, "expected a frame rate");
    if (slash) {
        const char *p;
        if (!parse_i64(v, &p, 1, 1000000, &a) || p != slash ||
            !parse_i64(slash + 1, NULL, 1, 1000000, &b))
            return mmd_fail(err, MMD_E_BAD_VALUE, "expected a frame rate like 30, 60, 29.97 or 30000/1001, got '%s'", v);
    } else {
        /* decimal: digits[.digits] -> exact fraction */
        const char *p = v;
        int digits = 0, frac = 0;
        bool dot = false;
        for (; *p; p++) {
            if (*p == '.' && !dot) {
                dot = true;
                continue;
            }
            if (*p < '0' || *p > '9' || digits >= 12)
                return mmd_fail(err, MMD_E_BAD_VALUE, "expected a frame rate like 30, 60, 29.97 or 30000/1001, got '%s'", v);
            a = a * 10 + (*p - '0');
            digits++;
            if (dot) {
                frac++;
                b *= 10;
            }
        }
        if (!digits || (dot && !frac))
            return mmd_fail(err, MMD_E_BAD_VALUE, "expected a frame rate like 30, 60, 29.97 or 30000/1001, got '%s'", v);
    }
    if (a == 0)
        return mmd_fail(err, MMD_E_BAD_VALUE, "expected a frame rate above 0, got '%s'", v);
    int64_t g = mmd_gcd64(a, b);
    a /= g;
    b /= g;
    if (a > 1000000 || b > 1000000 || (double)a / (double)b > 1000.0)
        return mmd_fail(err, MMD_E_BAD_VALUE, "expected a frame rate up to 1000 with a small fraction, got '%s'", v);
    *num = (int)a;
    *den = (int)b;
    return MMD_OK;
}

mmd_status mmd_scene_parse_frames(const char *v, int64_t *first, int64_t *last, int *step, mmd_error *err)
{
    const int64_t max = MMD_PLAN_MAX_FRAME; /* ~38 days at 30 fps */
    const char *p;
    int64_t a, b, s = 1;
    const char *want = step ? "A-B[:STEP] (inclusive frame numbers, e.g. 0-299 or 0-299:10)"
                            : "A-B (inclusive frame numbers, e.g. 0-299)";
    if (!v || !parse_i64(v, &p, 0, max, &a))
        return mmd_fail(err, MMD_E_BAD_VALUE, "expected %s, got '%s'", want, v ? v : "");
    b = a;
    if (*p == '-' && !parse_i64(p + 1, &p, 0, max, &b))
        return mmd_fail(err, MMD_E_BAD_VALUE, "expected %s, got '%s'", want, v);
    if (*p == ':' && step) {
        if (!parse_i64(p + 1, &p, 1, 1000000, &s))
            return mmd_fail(err, MMD_E_BAD_VALUE, "expected STEP 1..1000000 after ':', got '%s'", v);
    }
    if (*p)
        return mmd_fail(err, MMD_E_BAD_VALUE, "expected %s, got '%s'", want, v);
    if (b < a)
        return mmd_fail(err, MMD_E_BAD_VALUE, "expected first <= last in '%s'", v);
    *first = a;
    *last = b;
    if (step)
        *step = (int)s;
    return MMD_OK;
}

static int hexval(char c)
{
    if (c >= '0' && c <= '9')
        return c - '0';
    if (c >= 'a' && c <= 'f')
        return c - 'a' + 10;
    if (c >= 'A' && c <= 'F')
        return c - 'A' + 10;
    return -1;
}

static bool parse_hex_color(const char *v, float rgb[3])
{
    if (!v || v[0] != '#' || strlen(v) != 7)
        return false;
    for (int i = 0; i < 3; i++) {
        int hi = hexval(v[1 + 2 * i]), lo = hexval(v[2 + 2 * i]);
        if (hi < 0 || lo < 0)
            return false;
        rgb[i] = (float)(hi * 16 + lo) / 255.0f;
    }
    return true;
}

mmd_status mmd_scene_parse_background(const char *v, float rgb[3], bool *transparent, mmd_error *err)
{
    if (v && !strcmp(v, "transparent")) {
        *transparent = true;
        return MMD_OK;
    }
    float c[3];
    if (!parse_hex_color(v, c))
        return mmd_fail(err, MMD_E_BAD_VALUE, "expected #rrggbb or transparent, got '%s'", v ? v : "");
    memcpy(rgb, c, sizeof c);
    *transparent = false;
    return MMD_OK;
}

mmd_status mmd_scene_parse_antialias(const char *v, int *aa, mmd_error *err)
{
    int64_t x;
    if (!v || !parse_i64(v, NULL, 1, 4, &x) || x == 3)
        return mmd_fail(err, MMD_E_BAD_VALUE, "expected antialias 1, 2 or 4 (MSAA samples), got '%s'", v ? v : "");
    *aa = (int)x;
    return MMD_OK;
}

/* Three numbers separated by spaces and/or commas. */
mmd_status mmd_scene_parse_ssaa(const char *v, int *ssaa, mmd_error *err)
{
    int64_t x;
    if (!v || !parse_i64(v, NULL, 1, 4, &x))
        return mmd_fail(err, MMD_E_BAD_VALUE, "expected ssaa 1, 2, 3 or 4 (render N times larger, filter down), got '%s'",
                        v ? v : "");
    *ssaa = (int)x;
    return MMD_OK;
}

static bool parse_vec3(const char *v, float out[3], double lo, double hi)
{
    char buf[160];
    if (!v || strlen(v) >= sizeof buf)
        return false;
    strcpy(buf, v);
    for (char *p = buf; *p; p++)
        if (*p == ',')
            *p = ' ';
    const char *p = buf;
    float tmp[3];
    for (int i = 0; i < 3; i++) {
        char *end;
        errno = 0;
        double d = strtod(p, &end);
        if (end == p || errno == ERANGE || !isfinite(d) || d < lo || d > hi)
            return false;
        tmp[i] = (float)d;
        p = end;
    }
    while (*p == ' ' || *p == '\t')
        p++;
    if (*p)
        return false;
    memcpy(out, tmp, sizeof tmp);
    return true;
}

static bool parse_bool(const char *v, bool *out)
{
    static const char *const yes[] = {"on", "true", "yes", "1"}, *const no[] = {"off", "false", "no", "0"};
    for (int i = 0; i < 4; i++) {
        if (!strcmp(v, yes[i])) {
            *out = true;
            return true;
        }
        if (!strcmp(v, no[i])) {
            *out = false;
            return true;
        }
    }
    return false;
}

/* ---- paths ------------------------------------------------------------ */

/* A path as written, relative to the scene's folder (absolute and ".." allowed:
 * the scene is the user's own file, like a project). When no file has that
 * exact name, the project and texture resolver (image/texpath.h) tries '\'
 * separators, other letter case and Shift-JIS names, component by component. */
static char *resolve(parse_state *st, const char *v, const char *what)
{
    if (!*v) {
        fail_at(st, st->line, "expected a %s path, got an empty value", what);
        return NULL;
    }
    size_t dl = strlen(st->s->dir), vl = strlen(v);
    char *out = mmd_arena_alloc(st->arena, dl + vl + 2);
    if (!out) {
        fail_nomem(st, st->line);
        return NULL;
    }
    if (v[0] == '/' || !strcmp(st->s->dir, "."))
        memcpy(out, v, vl + 1);
    else
        snprintf(out, dl + vl + 2, "%s/%s", st->s->dir, v);
    mmd_error err;
    if (st->check_files && mmd_file_check_regular(out, &err) != MMD_OK) {
        char found[PATH_MAX];
        if (err.status == MMD_E_IO && mmd_texpath_resolve(st->s->dir, v, true, found, sizeof found, NULL) == MMD_OK &&
            mmd_file_check_regular(found, NULL) == MMD_OK) {
            if (!(out = mmd_arena_strdup(st->arena, found)))
                fail_nomem(st, st->line);
            return out;
        }
        fail_at(st, st->line, "cannot read %s file '%s' (%s)", what, out, err.msg);
        return NULL;
    }
    return out;
}

/* ---- sections and keys ------------------------------------------------ */

static mmd_scene_model *cur_model(parse_state *st)
{
    return &st->s->models[st->s->model_count - 1];
}

static mmd_scene_accessory *cur_accessory(parse_state *st)
{
    return &st->s->accessories[st->s->accessory_count - 1];
}

/* The previous accessory section is complete (it has a file). */
static bool accessory_done(parse_state *st)
{
    if (st->s->accessory_count > 0 && !cur_accessory(st)->file) {
        fail_at(st, cur_accessory(st)->line, "accessory section has no 'file' key");
        return false;
    }
    return true;
}

/* [accessory] (aname NULL) or [accessory:NAME]. */
static void begin_accessory(parse_state *st, const char *aname)
{
    if (aname && !*aname) {
        fail_at(st, st->line, "expected a name after 'accessory:'");
        return;
    }
    if (!accessory_done(st))
        return;
    if (st->s->accessory_count >= MMD_SCENE_MAX_ACCESSORIES) {
        fail_at(st, st->line, "too many accessories (at most %d)", MMD_SCENE_MAX_ACCESSORIES);
        return;
    }
    for (int i = 0; aname && i < st->s->accessory_count; i++)
        if (!strcmp(st->s->accessories[i].name, aname)) {
            fail_at(st, st->line, "accessory name '%s' already used on line %d", aname, st->s->accessories[i].line);
            return;
        }
    mmd_scene_accessory *a = &st->s->accessories[st->s->accessory_count++];
    memset(a, 0, sizeof *a);
    a->name = mmd_arena_strdup(st->arena, aname ? aname : "");
    mmd_accessory_place_default(&a->place);
    a->parent_model = -1;
    a->line = st->line;
    st->section = SEC_ACCESSORY;
}

/* Called by the line reader for each "[...]" line, before inih sees it. */
static void begin_section(parse_state *st, const char *line)
{
    const char *close = strchr(line, ']');
    if (!close) {
        fail_at(st, st->line, "expected ']' to close the section name");
        return;
    }
    for (const char *q = close + 1; *q; q++)
        if (*q != ' ' && *q != '\t' && *q != '\r' && *q != '\n') {
            if (*q == ';' || *q == '#')
                break;
            fail_at(st, st->line, "unexpected text after ']'");
            return;
        }
    char name[128];
    size_t len = (size_t)(close - (line + 1));
    if (len >= sizeof name) {
        fail_at(st, st->line, "section name too long");
        return;
    }
    memcpy(name, line + 1, len);
    name[len] = 0;
    st->seen_keys = 0;
    st->section_line = st->line;
    if (!strcmp(name, "model") || !strncmp(name, "model:", 6)) {
        const char *mname = name[5] ? name + 6 : "";
        if (name[5] && !*mname) {
            fail_at(st, st->line, "expected a name after 'model:'");
            return;
        }
        if (st->s->model_count > 0 && !cur_model(st)->file) {
            fail_at(st, cur_model(st)->line, "model section has no 'file' key");
            return;
        }
        if (st->s->model_count >= MMD_SCENE_MAX_MODELS) {
            fail_at(st, st->line, "too many models (at most %d)", MMD_SCENE_MAX_MODELS);
            return;
        }
        for (int i = 0; *mname && i < st->s->model_count; i++)
            if (!strcmp(st->s->models[i].name, mname)) {
                fail_at(st, st->line, "model name '%s' already used on line %d", mname,
                        st->s->models[i].line);
                return;
            }
        mmd_scene_model *m = &st->s->models[st->s->model_count++];
        memset(m, 0, sizeof *m);
        m->name = mmd_arena_strdup(st->arena, mname);
        m->physics = true;
        m->edge_width = 1;
        m->self_shadow = true;
        m->scale = 1;
        m->line = st->line;
        st->section = SEC_MODEL;
        return;
    }
    if (!strcmp(name, "accessory") || !strncmp(name, "accessory:", 10)) {
        begin_accessory(st, name[9] ? name + 10 : NULL);
        return;
    }
    for (int i = 1; i < SEC_COUNT; i++) {
        if (i != SEC_MODEL && i != SEC_ACCESSORY && !strcmp(name, k_section_names[i])) {
            if (st->seen[i]) {
                fail_at(st, st->line, "section [%s] appears twice", name);
                return;
            }
            st->seen[i] = true;
            st->section = i;
            return;
        }
    }
    fail_at(st, st->line,
            "unknown section [%s] (expected [output], [camera], [light], [model], [model:NAME], [accessory], "
            "[accessory:NAME], [audio], [background], [effects] or [gravity])",
            name);
}

/* Returns false (after failing) for a repeated single-valued key. */
static bool once(parse_state *st, int bit, const char *key)
{
    if (st->seen_keys & (1u << bit)) {
        fail_at(st, st->line, "key '%s' given twice in this section", key);
        return false;
    }
    st->seen_keys |= 1u << bit;
    return true;
}

static void key_output(parse_state *st, const char *k, const char *v)
{
    mmd_scene *s = st->s;
    mmd_error m;
    if (!strcmp(k, "width") || !strcmp(k, "height")) {
        bool w = k[0] == 'w';
        int64_t x;
        if (!once(st, w ? 0 : 1, k))
            return;
        if (!parse_i64(v, NULL, 1, MMD_SCENE_MAX_SIZE, &x)) {
            fail_at(st, st->line, "expected %s in pixels 1..%d, got '%s'", k,
                    MMD_SCENE_MAX_SIZE, v);
            return;
        }
        *(w ? &s->width : &s->height) = (int)x;
    } else if (!strcmp(k, "size")) {
        if (once(st, 2, k) && mmd_scene_parse_size(v, &s->width, &s->height, &m))
            fail_at(st, st->line, "size: %s", m.msg);
    } else if (!strcmp(k, "fps")) {
        if (once(st, 3, k) && mmd_scene_parse_fps(v, &s->fps_num, &s->fps_den, &m))
            fail_at(st, st->line, "fps: %s", m.msg);
    } else if (!strcmp(k, "frames")) {
        if (!once(st, 4, k))
            return;
        if (mmd_scene_parse_frames(v, &s->frame_first, &s->frame_last, NULL, &m))
            fail_at(st, st->line, "frames: %s", m.msg);
        else
            s->has_frames = true;
    } else if (!strcmp(k, "antialias")) {
        if (once(st, 5, k) && mmd_scene_parse_antialias(v, &s->antialias, &m))
            fail_at(st, st->line, "%s", m.msg);
    } else if (!strcmp(k, "background")) {
        if (once(st, 6, k) && mmd_scene_parse_background(v, s->background, &s->transparent, &m))
            fail_at(st, st->line, "background: %s", m.msg);
    } else if (!strcmp(k, "ground_shadow")) {
        if (once(st, 7, k) && !parse_bool(v, &s->ground_shadow))
            fail_at(st, st->line, "expected ground_shadow = on or off, got '%s'", v);
    } else if (!strcmp(k, "ground_shadow_brightness")) {
        double d;
        if (!once(st, 8, k))
            return;
        if (!parse_double(v, &d) || d < 0 || d > 10)
            fail_at(st, st->line, "expected ground_shadow_brightness 0..10 (1 = the light's colour), got '%s'", v);
        else
            s->ground_shadow_brightness = (float)d;
    } else if (!strcmp(k, "ground_shadow_translucent")) {
        if (once(st, 9, k) && !parse_bool(v, &s->ground_shadow_translucent))
            fail_at(st, st->line, "expected ground_shadow_translucent = on or off, got '%s'", v);
    } else if (!strcmp(k, "edge_color")) {
        if (!once(st, 10, k))
            return;
        if (!parse_hex_color(v, s->edge_color))
            fail_at(st, st->line, "expected edge_color = #rrggbb, got '%s'", v);
        else
            s->has_edge_color = true;
    } else {
        fail_at(st, st->line,
                "unknown key '%s' in [output] (expected width, height, size, fps, frames, antialias, background, "
                "ground_shadow, ground_shadow_brightness, ground_shadow_translucent, edge_color)",
                k);
    }
}

/* ---- links: outside_parent / follow ------------------------------------- */

static char *trim_dup(parse_state *st, const char *b, const char *e)
{
    while (b < e && (*b == ' ' || *b == '\t'))
        b++;
    while (e > b && (e[-1] == ' ' || e[-1] == '\t'))
        e--;
    return b < e ? mmd_arena_strndup(st->arena, b, (size_t)(e - b)) : NULL;
}

/* "[BONE ->] MODEL:BONE [@FRAME]" or "[BONE ->] none [@FRAME]". */
static void parse_link(parse_state *st, const char *v, bool with_bone, mmd_scene_link **arr, int *count)
{
    const char *what = with_bone ? "outside_parent = BONE -> MODEL:BONE [@FRAME] (or BONE -> none)"
                                 : "follow = MODEL:BONE [@FRAME] (or none)";
    if (!*arr && !(*arr = mmd_arena_array(st->arena, MMD_SCENE_MAX_LINKS, sizeof **arr))) {
        fail_nomem(st, st->line);
        return;
    }
    if (*count >= MMD_SCENE_MAX_LINKS) {
        fail_at(st, st->line, "too many %s keys (at most %d)", with_bone ? "outside_parent" : "follow", MMD_SCENE_MAX_LINKS);
        return;
    }
    mmd_scene_link l = {.line = st->line};
    const char *end = v + strlen(v), *at = strrchr(v, '@');
    if (at) {
        if (!parse_double(at + 1, &l.frame) || l.frame < 0 || l.frame > 1e9) {
            fail_at(st, st->line, "expected %s with a frame number after '@', got '%s'", what, v);
            return;
        }
        end = at;
    }
    const char *target = v;
    if (with_bone) {
        const char *arrow = strstr(v, "->");
        if (!arrow || arrow > end || !(l.bone = trim_dup(st, v, arrow))) {
            fail_at(st, st->line, "expected %s, got '%s'", what, v);
            return;
        }
        target = arrow + 2;
    }
    char *t = trim_dup(st, target, end);
    char *colon = t ? strchr(t, ':') : NULL;
    if (t && !strcmp(t, "none")) {
        l.model = NULL;
    } else if (!colon || colon == t || !colon[1]) {
        fail_at(st, st->line, "expected %s, got '%s'", what, v);
        return;
    } else {
        *colon = 0;
        l.model = t;
        l.parent_bone = colon + 1;
    }
    (*arr)[(*count)++] = l;
}

static void key_camera(parse_state *st, const char *k, const char *v)
{
    mmd_scene *s = st->s;
    double d;
    if (!strcmp(k, "motion")) {
        if (once(st, 0, k))
            s->camera_motion = resolve(st, v, "camera motion");
    } else if (!strcmp(k, "position") || !strcmp(k, "target")) {
        if (once(st, 1, "position") && !parse_vec3(v, s->cam_target, -MAX_UNITS, MAX_UNITS))
            fail_at(st, st->line, "expected %s as three numbers 'x y z' (MMD units), got '%s'", k, v);
    } else if (!strcmp(k, "rotation")) {
        float r[3];
        if (!once(st, 2, k))
            return;
        if (!parse_vec3(v, r, -MAX_DEGREES, MAX_DEGREES)) {
            fail_at(st, st->line, "expected rotation as three angles in degrees 'x y z', got '%s'", v);
            return;
        }
        for (int i = 0; i < 3; i++)
            s->cam_rotation[i] = (float)(r[i] * (M_PI / 180.0));
    } else if (!strcmp(k, "distance")) {
        if (once(st, 3, k)) {
            if (!parse_double(v, &d) || fabs(d) > 1e6)
                fail_at(st, st->line, "expected distance as a number (VMD convention: -45 is MMD's default), got '%s'", v);
            else
                s->cam_distance = (float)d;
        }
    } else if (!strcmp(k, "fov")) {
        if (once(st, 4, k)) {
            if (!parse_double(v, &d) || d < 1 || d > 179)
                fail_at(st, st->line, "expected fov in degrees 1..179, got '%s'", v);
            else
                s->cam_fov = (float)d;
        }
    } else if (!strcmp(k, "follow")) {
        parse_link(st, v, false, &s->follows, &s->follow_count);
    } else if (!strcmp(k, "projection")) {
        if (once(st, 5, k)) {
            if (!strcmp(v, "perspective"))
                s->cam_ortho = false;
            else if (!strcmp(v, "orthographic"))
                s->cam_ortho = true;
            else
                fail_at(st, st->line, "expected projection perspective or orthographic, got '%s'", v);
        }
    } else {
        fail_at(st, st->line,
                "unknown key '%s' in [camera] (expected motion, position, rotation, distance, fov, projection, follow)",
                k);
    }
}

static void key_light(parse_state *st, const char *k, const char *v)
{
    mmd_scene *s = st->s;
    if (!strcmp(k, "color")) {
        if (!once(st, 0, k))
            return;
        if (!parse_hex_color(v, s->light_color) && !parse_vec3(v, s->light_color, 0, 1))
            fail_at(st, st->line, "expected light color as #rrggbb or three numbers 0..1, got '%s'", v);
        else
            s->has_light_color = true;
    } else if (!strcmp(k, "direction")) {
        if (!once(st, 1, k))
            return;
        float d[3];
        if (!parse_vec3(v, d, -1e6, 1e6) || (d[0] == 0 && d[1] == 0 && d[2] == 0)) {
            fail_at(st, st->line, "expected light direction as three numbers 'x y z', not all 0, got '%s'", v);
            return;
        }
        memcpy(s->light_direction, d, sizeof d);
        s->has_light_direction = true;
    } else {
        fail_at(st, st->line, "unknown key '%s' in [light] (expected color, direction)", k);
    }
}

/* k = "position" or "rotation" of a placement ([model], [accessory]) into out. */
static void parse_place(parse_state *st, const char *k, const char *v, float out[3])
{
    if (!strcmp(k, "position")) {
        if (!parse_vec3(v, out, -MAX_UNITS, MAX_UNITS))
            fail_at(st, st->line, "expected position as three numbers 'x y z' (MMD units), got '%s'", v);
    } else if (!parse_vec3(v, out, -MAX_DEGREES, MAX_DEGREES)) {
        fail_at(st, st->line, "expected rotation as three angles in degrees 'x y z', got '%s'", v);
    }
}

/* position / rotation / scale of a [model]: its placement (docs/scenes.md);
 * the ranges and sentences are the accessories', except scale, which must be
 * above 0 (a model is not an accessory's x 10 mesh). */
static void key_model_place(parse_state *st, mmd_scene_model *m, const char *k, const char *v)
{
    double d;
    if (!strcmp(k, "position")) {
        if (once(st, 8, k))
            parse_place(st, k, v, m->position);
    } else if (!strcmp(k, "rotation")) {
        if (once(st, 9, k))
            parse_place(st, k, v, m->rotation);
    } else if (once(st, 10, k)) {
        if (!parse_double(v, &d) || !(d > 0) || d > 1000)
            fail_at(st, st->line, "expected scale as a number above 0, at most 1000, got '%s'", v);
        else
            m->scale = (float)d;
    }
    m->placed = true;
}

static void key_model(parse_state *st, const char *k, const char *v)
{
    mmd_scene_model *m = cur_model(st);
    if (!strcmp(k, "file")) {
        if (once(st, 0, k))
            m->file = resolve(st, v, "model");
    } else if (!strcmp(k, "motion")) {
        if (m->motion_count >= MMD_SCENE_MAX_MOTIONS) {
            fail_at(st, st->line, "too many motions for one model (at most %d)", MMD_SCENE_MAX_MOTIONS);
            return;
        }
        char *p = resolve(st, v, "motion");
        if (p)
            m->motions[m->motion_count++] = p;
    } else if (!strcmp(k, "physics")) {
        if (once(st, 1, k) && !parse_bool(v, &m->physics))
            fail_at(st, st->line, "expected physics = on or off, got '%s'", v);
    } else if (!strcmp(k, "outside_parent")) {
        parse_link(st, v, true, &m->parents, &m->parent_count);
    } else if (!strcmp(k, "edge_width")) {
        double d;
        if (!once(st, 2, k))
            return;
        if (!parse_double(v, &d) || d < 0 || d > 100)
            fail_at(st, st->line, "expected edge_width 0..100 (1 = the model's own edges), got '%s'", v);
        else
            m->edge_width = (float)d;
    } else if (!strcmp(k, "add_blend")) {
        if (once(st, 3, k) && !parse_bool(v, &m->add_blend))
            fail_at(st, st->line, "expected add_blend = on or off, got '%s'", v);
    } else if (!strcmp(k, "self_shadow")) {
        if (once(st, 4, k) && !parse_bool(v, &m->self_shadow))
            fail_at(st, st->line, "expected self_shadow = on or off, got '%s'", v);
    } else if (!strcmp(k, "position") || !strcmp(k, "rotation") || !strcmp(k, "scale")) {
        key_model_place(st, m, k, v);
    } else if (!strcmp(k, "calc_order")) {
        int64_t n;
        if (!once(st, 7, k))
            return;
        if (!parse_i64(v, NULL, 1, 1000000, &n))
            fail_at(st, st->line, "expected calc_order as a whole number 1..1000000, got '%s'", v);
        else
            m->calc_order = (int)n;
    } else {
        fail_at(st, st->line,
                "unknown key '%s' in [model] (expected file, motion, physics, outside_parent, edge_width, add_blend, "
                "self_shadow, calc_order, position, rotation, scale)",
                k);
    }
}

/* Two integers separated by spaces and/or a comma: pixels, |x| <= 65536. */
static bool parse_offset(const char *v, int out[2])
{
    char *end;
    errno = 0;
    long a = strtol(v, &end, 10);
    while (*end == ' ' || *end == ',' || *end == '\t')
        end++;
    const char *p = end;
    long b = strtol(p, &end, 10);
    while (*end == ' ' || *end == '\t')
        end++;
    if (errno || end == p || *end || labs(a) > 65536 || labs(b) > 65536)
        return false;
    out[0] = (int)a;
    out[1] = (int)b;
    return true;
}

static void key_background(parse_state *st, const char *k, const char *v)
{
    mmd_scene *s = st->s;
    double d;
    if (!strcmp(k, "image")) {
        if (once(st, 0, k))
            s->bg_image = resolve(st, v, "background image");
    } else if (!strcmp(k, "offset")) {
        if (once(st, 1, k) && !parse_offset(v, s->bg_offset))
            fail_at(st, st->line, "expected offset = X Y in output pixels (x right, y down), got '%s'", v);
    } else if (!strcmp(k, "scale")) {
        if (!once(st, 2, k))
            return;
        if (!parse_double(v, &d) || d <= 0 || d > 100)
            fail_at(st, st->line, "expected scale above 0, at most 100 (1 = the frame's size), got '%s'", v);
        else
            s->bg_scale = (float)d;
    } else if (!strcmp(k, "video")) {
        if (once(st, 3, k))
            s->bg_video = resolve(st, v, "background video");
    } else if (!strcmp(k, "video_offset")) {
        if (once(st, 4, k) && !parse_offset(v, s->bg_video_offset))
            fail_at(st, st->line, "expected video_offset = X Y in output pixels (x right, y down), got '%s'", v);
    } else if (!strcmp(k, "video_scale")) {
        if (!once(st, 5, k))
            return;
        if (!parse_double(v, &d) || d <= 0 || d > 100)
            fail_at(st, st->line, "expected video_scale above 0, at most 100 (1 = the frame's size), got '%s'", v);
        else
            s->bg_video_scale = (float)d;
    } else {
        fail_at(st, st->line,
                "unknown key '%s' in [background] (expected image, offset, scale, video, video_offset, video_scale)",
                k);
    }
}

static void key_audio(parse_state *st, const char *k, const char *v)
{
    mmd_scene *s = st->s;
    if (!strcmp(k, "file")) {
        if (once(st, 0, k))
            s->audio_file = resolve(st, v, "audio");
    } else if (!strcmp(k, "offset")) {
        double d;
        if (!once(st, 1, k))
            return;
        if (!parse_double(v, &d) || fabs(d) > 86400)
            fail_at(st, st->line, "expected offset in seconds (e.g. 0.5 or -1.25), got '%s'", v);
        else
            s->audio_offset = d;
    } else {
        fail_at(st, st->line, "unknown key '%s' in [audio] (expected file, offset)", k);
    }
}

/* parent = MODEL:BONE [@FRAME] or none [@FRAME] (repeatable: the parent from
 * FRAME on). The first line also fills parent_model/parent_bone (the model is
 * resolved by name when the file is read). */
static void key_parent(parse_state *st, mmd_scene_accessory *a, const char *v)
{
    const char *what = "parent = MODEL:BONE [@FRAME] (a [model:NAME] and one of its bones) or none [@FRAME]";
    if (a->parent_count >= MMD_SCENE_MAX_LINKS) {
        fail_at(st, st->line, "too many parent keys (at most %d)", MMD_SCENE_MAX_LINKS);
        return;
    }
    if (!a->parents && !(a->parents = mmd_arena_array(st->arena, MMD_SCENE_MAX_LINKS, sizeof *a->parents))) {
        fail_nomem(st, st->line);
        return;
    }
    mmd_scene_link l = {.line = st->line};
    const char *end = v + strlen(v), *at = strrchr(v, '@');
    if (at && (!parse_double(at + 1, &l.frame) || l.frame < 0 || l.frame > 1e9)) {
        fail_at(st, st->line, "expected %s with a frame number after '@', got '%s'", what, v);
        return;
    }
    char *t = trim_dup(st, v, at ? at : end);
    char *colon = t ? strchr(t, ':') : NULL;
    if (!(t && !strcmp(t, "none")) && (!colon || colon == t || !colon[1])) {
        fail_at(st, st->line, "expected %s, got '%s'", what, v);
        return;
    }
    if (colon) {
        *colon = 0;
        l.model = t;
        l.parent_bone = colon + 1;
    }
    if (a->parent_count == 0 && l.model) {
        st->parent_names[st->s->accessory_count - 1] = l.model;
        a->parent_bone = l.parent_bone;
        a->parent_line = st->line;
    }
    a->parents[a->parent_count++] = l;
    a->set |= MMD_SCENE_ACC_PARENT;
}

/* Room for one more element in an arena array that doubles (the old block
 * stays in the arena: at most twice the bytes the keys need). */
static bool grow(parse_state *st, void **arr, int *cap, int count, size_t size)
{
    if (count < *cap)
        return true;
    int ncap = *cap ? *cap * 2 : 16;
    void *n = mmd_arena_array(st->arena, (size_t)ncap, size);
    if (!n) {
        fail_nomem(st, st->line);
        return false;
    }
    if (count)
        memcpy(n, *arr, (size_t)count * size);
    *arr = n;
    *cap = ncap;
    return true;
}

/* Up to n numbers from v (whitespace separated) into out; the rest of the
 * text in *rest. False when fewer than n or one is out of [lo, hi]. */
static bool parse_numbers(const char *v, int n, double lo, double hi, double *out, const char **rest)
{
    const char *p = v;
    for (int i = 0; i < n; i++) {
        char *end;
        errno = 0;
        double d = strtod(p, &end);
        if (end == p || errno == ERANGE || !isfinite(d) || d < lo || d > hi)
            return false;
        out[i] = d;
        p = end;
    }
    *rest = p;
    return true;
}

/* Two on/off words and nothing else. */
static bool parse_two_bools(const char *p, bool *a, bool *b)
{
    char w[2][16];
    int k = 0;
    for (; k < 2; k++) {
        while (*p == ' ' || *p == '\t')
            p++;
        size_t n = strcspn(p, " \t");
        if (!n || n >= sizeof w[k])
            return false;
        memcpy(w[k], p, n);
        w[k][n] = 0;
        p += n;
    }
    while (*p == ' ' || *p == '\t')
        p++;
    return !*p && parse_bool(w[0], a) && parse_bool(w[1], b);
}

/* Keys are appended as read and sorted once after the file (by frame, then
 * line; a later line at the same frame replaces the earlier): O(n log n)
 * whatever the order of the lines. Both key structs start with the frame. */
#define CMP_BY_FRAME_LINE(name, type)                                                     \
    static int name(const void *x, const void *y)                                         \
    {                                                                                     \
        const type *a = x, *b = y;                                                        \
        if (a->frame != b->frame)                                                         \
            return (a->frame > b->frame) - (a->frame < b->frame);                         \
        return (a->line > b->line) - (a->line < b->line);                                 \
    }
CMP_BY_FRAME_LINE(cmp_acc_key, mmd_scene_acc_key)
CMP_BY_FRAME_LINE(cmp_gravity_key, mmd_scene_gravity_key)
#undef CMP_BY_FRAME_LINE

static int sort_keys(void *arr, int count, size_t size, int (*cmp)(const void *, const void *))
{
    if (count < 2)
        return count;
    qsort(arr, (size_t)count, size, cmp);
    int out = 0;
    for (int i = 0; i < count; i++) {
        char *k = (char *)arr + (size_t)i * size;
        if (out > 0 && *(double *)((char *)arr + (size_t)(out - 1) * size) == *(double *)k)
            out--; /* the later line at this frame wins */
        if ((char *)arr + (size_t)out * size != k)
            memcpy((char *)arr + (size_t)out * size, k, size);
        out++;
    }
    return out;
}

/* key = FRAME X Y Z RX RY RZ SI TR VISIBLE SHADOW */
static void key_acc_key(parse_state *st, mmd_scene_accessory *a, const char *v)
{
    double d[9];
    const char *rest;
    mmd_scene_acc_key k = {.line = st->line};
    mmd_accessory_place_default(&k.place);
    bool ok = parse_numbers(v, 1, 0, 1e9, d, &rest) && parse_numbers(rest, 3, -MAX_UNITS, MAX_UNITS, d + 1, &rest) &&
              parse_numbers(rest, 3, -MAX_DEGREES, MAX_DEGREES, d + 4, &rest) && parse_numbers(rest, 1, 0, 1e6, d + 7, &rest) &&
              parse_numbers(rest, 1, 0, 1, d + 8, &rest) && parse_two_bools(rest, &k.place.visible, &k.place.shadow);
    if (!ok) {
        fail_at(st, st->line,
                "expected key = FRAME X Y Z RX RY RZ SI TR VISIBLE SHADOW (frame >= 0, position, rotation in "
                "degrees, scale 0..1000000, opacity 0..1, on|off, on|off), got '%s'", v);
        return;
    }
    k.frame = d[0];
    for (int i = 0; i < 3; i++) {
        k.place.position[i] = (float)d[1 + i];
        k.place.rotation[i] = (float)d[4 + i];
    }
    k.place.scale = (float)d[7];
    k.place.opacity = (float)d[8];
    if (grow(st, (void **)&a->keys, &st->key_caps[st->s->accessory_count - 1], a->key_count, sizeof k))
        a->keys[a->key_count++] = k;
}

/* [gravity] key = FRAME ACCELERATION X Y Z */
static void key_gravity(parse_state *st, const char *k, const char *v)
{
    mmd_scene *s = st->s;
    double d[5];
    const char *rest;
    if (strcmp(k, "key")) {
        fail_at(st, st->line, "unknown key '%s' in [gravity] (expected key = FRAME ACCELERATION X Y Z)", k);
        return;
    }
    if (!parse_numbers(v, 1, 0, 1e9, d, &rest) || !parse_numbers(rest, 4, -1e6, 1e6, d + 1, &rest) ||
        strspn(rest, " \t") != strlen(rest)) {
        fail_at(st, st->line,
                "expected key = FRAME ACCELERATION X Y Z (frame >= 0, MMD's acceleration, a direction), got '%s'", v);
        return;
    }
    mmd_scene_gravity_key g = {.frame = d[0], .acceleration = (float)d[1],
                               .direction = {(float)d[2], (float)d[3], (float)d[4]}, .line = st->line};
    if (grow(st, (void **)&s->gravity, &st->gravity_cap, s->gravity_count, sizeof g))
        s->gravity[s->gravity_count++] = g;
}

static void key_accessory(parse_state *st, const char *k, const char *v)
{
    mmd_scene_accessory *a = cur_accessory(st);
    static const char *const flags[] = {"visible", "shadow", "add_blend", "after_models"};
    bool *flag_ptr[] = {&a->place.visible, &a->place.shadow, &a->place.add_blend, &a->place.after_models};
    double d;
    if (!strcmp(k, "file")) {
        if (once(st, 0, k))
            a->file = resolve(st, v, "accessory");
    } else if (!strcmp(k, "position")) {
        if (once(st, 1, k))
            parse_place(st, k, v, a->place.position);
        a->set |= MMD_SCENE_ACC_POSITION;
    } else if (!strcmp(k, "rotation")) {
        if (once(st, 2, k))
            parse_place(st, k, v, a->place.rotation);
        a->set |= MMD_SCENE_ACC_ROTATION;
    } else if (!strcmp(k, "scale")) {
        if (!once(st, 3, k))
            return;
        if (!parse_double(v, &d) || d < 0 || d > 1e6)
            fail_at(st, st->line, "expected scale (MMD's Si) as a number 0..1000000, got '%s'", v);
        else
            a->place.scale = (float)d;
        a->set |= MMD_SCENE_ACC_SCALE;
    } else if (!strcmp(k, "opacity")) {
        if (!once(st, 4, k))
            return;
        if (!parse_double(v, &d) || d < 0 || d > 1)
            fail_at(st, st->line, "expected opacity (MMD's Tr) as a number 0..1, got '%s'", v);
        else
            a->place.opacity = (float)d;
    } else if (!strcmp(k, "parent")) {
        key_parent(st, a, v);
    } else if (!strcmp(k, "key")) {
        key_acc_key(st, a, v);
    } else {
        for (int i = 0; i < 4; i++)
            if (!strcmp(k, flags[i])) {
                if (once(st, 6 + i, k) && !parse_bool(v, flag_ptr[i]))
                    fail_at(st, st->line, "expected %s = on or off, got '%s'", k, v);
                return;
            }
        fail_at(st, st->line,
                "unknown key '%s' in [accessory] (expected file, position, rotation, scale, opacity, parent, "
                "visible, shadow, add_blend, after_models, key)",
                k);
    }
}

/* A number lo..hi for key k of [effects]; false (after failing) otherwise. */
static bool effect_number(parse_state *st, int bit, const char *k, const char *v, double lo, double hi, float *out)
{
    double d;
    if (!once(st, bit, k))
        return false;
    if (!parse_double(v, &d) || !(d >= lo && d <= hi)) {
        fail_at(st, st->line, "expected %s as a number %g..%g, got '%s'", k, lo, hi, v);
        return false;
    }
    *out = (float)d;
    return true;
}

static void effect_switch(parse_state *st, int bit, const char *k, const char *v, bool *out)
{
    if (once(st, bit, k) && !parse_bool(v, out))
        fail_at(st, st->line, "expected %s = on or off, got '%s'", k, v);
}

static void key_effects(parse_state *st, const char *k, const char *v)
{
    mmd_effects *e = &st->s->effects;
    mmd_error m;
    if (!strcmp(k, "glow")) {
        effect_switch(st, 0, k, v, &e->glow);
    } else if (!strcmp(k, "glow_strength")) {
        effect_number(st, 1, k, v, 0, 10, &e->glow_strength);
    } else if (!strcmp(k, "glow_radius")) {
        effect_number(st, 2, k, v, 0.25, 4, &e->glow_radius);
    } else if (!strcmp(k, "soft_shadow")) {
        if (!once(st, 3, k))
            return;
        if (!strcmp(v, "contact")) {
            e->soft_shadow = true;
            e->soft_shadow_mode = MMD_SOFT_SHADOW_CONTACT;
        } else if (!parse_bool(v, &e->soft_shadow)) {
            fail_at(st, st->line, "expected soft_shadow = on, off or contact, got '%s'", v);
        }
    } else if (!strcmp(k, "soft_shadow_radius")) {
        effect_number(st, 4, k, v, 0.5, 8, &e->soft_shadow_radius);
    } else if (!strcmp(k, "diffusion")) {
        effect_switch(st, 5, k, v, &e->diffusion);
    } else if (!strcmp(k, "diffusion_strength")) {
        effect_number(st, 6, k, v, 0, 2, &e->diffusion_strength);
    } else if (!strcmp(k, "diffusion_threshold")) {
        effect_number(st, 7, k, v, 0, 1, &e->diffusion_threshold);
    } else if (!strcmp(k, "ssaa")) {
        if (once(st, 8, k) && mmd_scene_parse_ssaa(v, &e->ssaa, &m))
            fail_at(st, st->line, "%s", m.msg);
    } else if (!strcmp(k, "fxaa")) {
        effect_switch(st, 9, k, v, &e->fxaa);
    } else {
        fail_at(st, st->line,
                "unknown key '%s' in [effects] (expected glow, glow_strength, glow_radius, soft_shadow, "
                "soft_shadow_radius, diffusion, diffusion_strength, diffusion_threshold, ssaa, fxaa)",
                k);
    }
}

/* After the whole file: parent models by name, every accessory complete,
 * key tracks sorted. */
static void finish_accessories(parse_state *st)
{
    if (!accessory_done(st))
        return;
    st->s->gravity_count = sort_keys(st->s->gravity, st->s->gravity_count, sizeof *st->s->gravity, cmp_gravity_key);
    for (int i = 0; i < st->s->accessory_count && !st->failed; i++) {
        mmd_scene_accessory *a = &st->s->accessories[i];
        a->key_count = sort_keys(a->keys, a->key_count, sizeof *a->keys, cmp_acc_key);
        const char *pm = st->parent_names[i];
        if (!pm)
            continue;
        for (int m = 0; m < st->s->model_count; m++)
            if (!strcmp(st->s->models[m].name, pm))
                a->parent_model = m;
        if (a->parent_model < 0)
            fail_at(st, a->parent_line, "parent model '%s' is not a [model:NAME] of this scene", pm);
    }
}

static int on_key(void *user, const char *section, const char *key, const char *value)
{
    parse_state *st = user;
    (void)section; /* the reader tracked the section (repeatable [model] needs that) */
    if (st->failed)
        return 0;
    switch (st->section) {
    case SEC_OUTPUT: key_output(st, key, value); break;
    case SEC_CAMERA: key_camera(st, key, value); break;
    case SEC_LIGHT: key_light(st, key, value); break;
    case SEC_MODEL: key_model(st, key, value); break;
    case SEC_AUDIO: key_audio(st, key, value); break;
    case SEC_ACCESSORY: key_accessory(st, key, value); break;
    case SEC_EFFECTS: key_effects(st, key, value); break;
    case SEC_BACKGROUND: key_background(st, key, value); break;
    case SEC_GRAVITY: key_gravity(st, key, value); break;
    default: fail_at(st, st->line, "key '%s' outside any section (start with [output], [model], ...)", key);
    }
    return !st->failed;
}

/* fgets-style reader over the text: counts lines, sees section headers. */
static char *read_line(char *str, int num, void *stream)
{
    parse_state *st = stream;
    if (st->failed || !*st->text)
        return NULL;
    const char *nl = strchr(st->text, '\n');
    size_t len = nl ? (size_t)(nl - st->text) + 1 : strlen(st->text);
    st->line++;
    if (len + 1 > (size_t)num) {
        fail_at(st, st->line, "line longer than %d characters", num - 3);
        return NULL;
    }
    memcpy(str, st->text, len);
    str[len] = 0;
    st->text += len;
    const char *p = str;
    while (*p == ' ' || *p == '\t')
        p++;
    if (*p == '[')
        begin_section(st, p);
    return st->failed ? NULL : str;
}

static void set_defaults(mmd_scene *s)
{
    s->width = 1920;
    s->height = 1080;
    s->fps_num = 30;
    s->fps_den = 1;
    s->antialias = 4;
    s->ground_shadow = true;
    s->ground_shadow_brightness = 1.0f;
    s->bg_scale = s->bg_video_scale = 1.0f;
    s->background[0] = s->background[1] = s->background[2] = 1.0f;
    s->cam_target[1] = 10.0f;
    s->cam_distance = -45.0f;
    s->cam_fov = 30.0f;
    mmd_effects_default(&s->effects);
}

/* Link targets name models of the scene (by [model:NAME]); bones are checked
 * when the models are loaded. */
static void check_link(parse_state *st, const mmd_scene_link *l)
{
    for (int i = 0; l->model && i < st->s->model_count; i++)
        if (!strcmp(st->s->models[i].name, l->model))
            return;
    if (l->model)
        fail_at(st, l->line, "no model named '%s' (link targets are [model:NAME] sections)", l->model);
}

static void check_link_models(parse_state *st)
{
    for (int i = 0; !st->failed && i < st->s->follow_count; i++)
        check_link(st, &st->s->follows[i]);
    for (int m = 0; !st->failed && m < st->s->model_count; m++)
        for (int i = 0; !st->failed && i < st->s->models[m].parent_count; i++)
            check_link(st, &st->s->models[m].parents[i]);
    for (int x = 0; !st->failed && x < st->s->accessory_count; x++)
        for (int i = 0; !st->failed && i < st->s->accessories[x].parent_count; i++)
            check_link(st, &st->s->accessories[x].parents[i]);
}

mmd_status mmd_scene_parse(const char *text, const char *path, bool check_files, mmd_scene **out,
                           mmd_error *err)
{
    struct scene_box *box = calloc(1, sizeof *box);
    mmd_arena *arena = mmd_arena_create();
    if (!box || !arena) {
        free(box);
        mmd_arena_destroy(arena);
        return mmd_fail(err, MMD_E_NOMEM, "%s: out of memory", path);
    }
    box->arena = arena;
    mmd_scene *s = &box->scene;
    set_defaults(s);
    s->path = mmd_arena_strdup(arena, path);
    const char *slash = strrchr(path, '/');
    s->dir = slash ? mmd_arena_strndup(arena, path, slash == path ? 1 : (size_t)(slash - path))
                   : mmd_arena_strdup(arena, ".");
    mmd_error scratch;
    if (text && !strncmp(text, "\xEF\xBB\xBF", 3))
        text += 3; /* a UTF-8 byte order mark (Windows editors write one) */
    parse_state st = {.s = s, .arena = arena, .text = text, .path = path, .check_files = check_files,
                      .err = err ? err : &scratch};
    if (!s->path || !s->dir)
        fail_nomem(&st, 0);
    int rc = st.failed ? 0 : ini_parse_stream(read_line, &st, on_key, &st);
    if (!st.failed && rc > 0)
        fail_at(&st, rc, "expected 'key = value', '[section]' or a comment (; or #)");
    if (!st.failed && rc < 0)
        fail_at(&st, 0, "cannot parse (inih error %d)", rc);
    if (!st.failed && s->model_count > 0 && !cur_model(&st)->file)
        fail_at(&st, cur_model(&st)->line, "model section has no 'file' key");
    if (!st.failed)
        finish_accessories(&st);
    if (!st.failed && s->audio_file == NULL && st.seen[SEC_AUDIO])
        fail_at(&st, st.line, "[audio] section has no 'file' key");
    if (!st.failed && s->model_count == 0)
        fail_at(&st, st.line, "no [model] section: a scene needs at least one model");
    check_link_models(&st);
    if (st.failed) {
        mmd_arena_destroy(arena);
        free(box);
        return st.err->status;
    }
    *out = s;
    return MMD_OK;
}

bool mmd_scene_can_hold(const char *value)
{
    size_t n = strlen(value);
    if (n && (value[0] == ' ' || value[n - 1] == ' '))
        return false;
    for (size_t i = 0; i < n; i++) {
        unsigned char c = (unsigned char)value[i];
        if (c < 0x20 || c == 0x7f || (c == ';' && i && value[i - 1] == ' '))
            return false;
    }
    return true;
}

char *mmd_scene_decode(const char *path, const uint8_t *data, size_t size, bool *sjis, mmd_error *err)
{
    mmd_text *t = mmd_text_create();
    mmd_arena *a = mmd_arena_create();
    unsigned bad_utf8 = 0, bad_sjis = 0;
    const char *src = NULL;
    size_t n = size;
    if (t && a && mmd_text_utf8(t, a, data, size, &bad_utf8) && bad_utf8 == 0) {
        src = (const char *)data;
    } else if (t && a && (src = mmd_text_sjis(t, a, data, size, &bad_sjis)) != NULL && bad_sjis == 0) {
        *sjis = true;
        n = strlen(src);
    } else {
        src = NULL;
    }
    char *text = src ? malloc(n + 1) : NULL;
    if (text) {
        memcpy(text, src, n);
        text[n] = 0;
    } else if (!src && t && a) {
        mmd_fail(err, MMD_E_BAD_STRING, "%s: not UTF-8 text (%u invalid sequences) nor Shift-JIS: save the scene as "
                 "UTF-8", path, bad_utf8);
    } else {
        mmd_fail(err, MMD_E_NOMEM, "%s: out of memory", path);
    }
    mmd_arena_destroy(a);
    mmd_text_destroy(t);
    return text;
}

mmd_status mmd_scene_load_file(const char *path, mmd_scene **out, mmd_error *err)
{
    void *data;
    size_t size;
    mmd_error rd;
    mmd_status st = mmd_file_read(path, &data, &size, &rd);
    if (st != MMD_OK)
        return mmd_fail(err, st, "%s: cannot read scene: %s", path, rd.msg);
    if (size > MAX_SCENE_BYTES || memchr(data, 0, size)) {
        free(data);
        return mmd_fail(err, MMD_E_BAD_MAGIC, "%s: not a scene file (binary or larger than 1 MiB)", path);
    }
    bool sjis = false;
    mmd_error te;
    char *text = mmd_scene_decode(path, data, size, &sjis, &te);
    free(data);
    if (!text)
        return mmd_fail(err, te.status, "%s", te.msg);
    mmd_status rc = mmd_scene_parse(text, path, true, out, err);
    free(text);
    if (rc == MMD_OK)
        (*out)->read_as_sjis = sjis;
    return rc;
}

void mmd_scene_warn(const mmd_scene *s, FILE *f, const char *prefix)
{
    if (s->read_as_sjis)
        mmd_msg_print(f, "%swarning: %s: not UTF-8; read as Shift-JIS (CP932): save it as UTF-8\n", prefix, s->path);
}

void mmd_scene_gravity_at(const mmd_scene *s, double t, float g[3])
{
    float acc = 9.8f, dir[3] = {0, -1, 0};
    for (int i = 0; i < s->gravity_count && s->gravity[i].frame <= t; i++) {
        acc = s->gravity[i].acceleration;
        memcpy(dir, s->gravity[i].direction, sizeof dir);
    }
    double n = sqrt((double)dir[0] * dir[0] + (double)dir[1] * dir[1] + (double)dir[2] * dir[2]);
    if (!(n > 0)) { /* no direction: straight down, as nanoem's PhysicsEngine::setDirection */
        dir[0] = dir[2] = 0;
        dir[1] = -1;
        n = 1;
    }
    for (int c = 0; c < 3; c++)
        g[c] = (float)(dir[c] / n * acc * 10.0);
}

void mmd_scene_model_place(const mmd_scene_model *sm, mmd_anim *anim)
{
    if (!sm->placed)
        return;
    float m[16];
    mmd_place_matrix(sm->position, sm->rotation, sm->scale, m);
    mmd_anim_set_placement(anim, m, sm->scale);
}

void mmd_scene_free(mmd_scene *s)
{
    if (!s)
        return;
    for (int i = 0; i < s->model_count; i++)
        for (int k = 0; k < MMD_SCENE_MAX_MOTIONS; k++)
            mmd_motion_free(s->models[i].motion_data[k]);
    mmd_motion_free(s->camera_motion_data);
    struct scene_box *box = (struct scene_box *)s; /* scene is the first member */
    mmd_arena_destroy(box->arena);
    free(box);
}
