/* renderer/scene/scene.c - scene INI parsing (inih) and validation. */
#include "renderer/scene/scene.h"

#include <ctype.h>
#include <errno.h>
#include <float.h>
#include <limits.h>
#include <ini.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
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
#include "renderer/scene/scene_keys.h"

#define MAX_SCENE_BYTES (1u << 20)
#define MAX_UNITS MMD_SCENE_MAX_UNITS
#define MAX_DEGREES MMD_SCENE_MAX_DEGREES

struct parse_state {
    mmd_scene *s;
    mmd_arena *arena;
    const char *text;   /* read cursor for the line reader */
    const char *path;
    bool check_files;
    int line;           /* line the reader handed out last (1-based) */
    int section;        /* MMD_SEC_* of the current section */
    int section_line;
    bool seen[MMD_SEC_COUNT];
    bool seen_rows[MMD_SCENE_MAX_KEYS]; /* per row of the key table, in the current section (duplicates) */
    bool failed;
    char *parent_names[MMD_SCENE_MAX_ACCESSORIES]; /* model name of each accessory's parent key */
    int key_caps[MMD_SCENE_MAX_ACCESSORIES];       /* room in each accessory's keys */
    int gravity_cap;
    mmd_error *err;     /* never NULL (mmd_scene_parse supplies one) */
};

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
    mmd_scene_accessory_defaults(a);
    a->line = st->line;
    st->section = MMD_SEC_ACCESSORY;
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
    memset(st->seen_rows, 0, sizeof st->seen_rows);
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
        mmd_scene_model_defaults(m);
        m->line = st->line;
        st->section = MMD_SEC_MODEL;
        return;
    }
    if (!strcmp(name, "accessory") || !strncmp(name, "accessory:", 10)) {
        begin_accessory(st, name[9] ? name + 10 : NULL);
        return;
    }
    for (int i = 1; i < MMD_SEC_COUNT; i++) {
        if (i != MMD_SEC_MODEL && i != MMD_SEC_ACCESSORY && !strcmp(name, mmd_scene_section_names[i])) {
            if (st->seen[i]) {
                fail_at(st, st->line, "section [%s] appears twice", name);
                return;
            }
            st->seen[i] = true;
            st->section = i;
            return;
        }
    }
    char list[256];
    size_t n = 0;
    for (int i = 1; i < MMD_SEC_COUNT; i++) { /* "[output], ..., [model], [model:NAME], ... or [gravity]" */
        const char *sn = mmd_scene_section_names[i];
        bool named = i == MMD_SEC_MODEL || i == MMD_SEC_ACCESSORY;
        n += (size_t)snprintf(list + n, sizeof list - n, "%s[%s]", i == 1 ? "" : i + 1 < MMD_SEC_COUNT ? ", " : " or ", sn);
        if (named)
            n += (size_t)snprintf(list + n, sizeof list - n, ", [%s:NAME]", sn);
    }
    fail_at(st, st->line, "unknown section [%s] (expected %s)", name, list);
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

/* "[BONE ->] MODEL:BONE [@FRAME]" or "[BONE ->] none [@FRAME]" (row: follow or outside_parent). */
static void parse_link(parse_state *st, const mmd_scene_key *row, const char *v, bool with_bone, mmd_scene_link **arr,
                       int *count)
{
    char what[256];
    mmd_scene_key_expect(row, row->name, what, sizeof what);
    if (!*arr && !(*arr = mmd_arena_array(st->arena, MMD_SCENE_MAX_LINKS, sizeof **arr))) {
        fail_nomem(st, st->line);
        return;
    }
    if (*count >= MMD_SCENE_MAX_LINKS) {
        fail_at(st, st->line, "too many %s keys (at most %d)", row->name, MMD_SCENE_MAX_LINKS);
        return;
    }
    mmd_scene_link l = {.line = st->line};
    const char *end = v + strlen(v), *at = strrchr(v, '@');
    if (at) {
        if (!parse_double(at + 1, &l.frame) || l.frame < row->lo || l.frame > row->hi) {
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

/* Two integers separated by spaces and/or a comma: pixels, |x| <= max. */
static bool parse_offset(const char *v, int out[2], long max)
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
    if (errno || end == p || *end || labs(a) > max || labs(b) > max)
        return false;
    out[0] = (int)a;
    out[1] = (int)b;
    return true;
}

/* parent = MODEL:BONE [@FRAME] or none [@FRAME] (repeatable: the parent from
 * FRAME on). The first line also fills parent_model/parent_bone (the model is
 * resolved by name when the file is read). */
void mmd_scene_key_parent(parse_state *st, const mmd_scene_key *row, void *obj, const char *k, const char *v)
{
    mmd_scene_accessory *a = obj;
    char what[256];
    mmd_scene_key_expect(row, k, what, sizeof what);
    if (a->parent_count >= MMD_SCENE_MAX_LINKS) {
        fail_at(st, st->line, "too many %s keys (at most %d)", k, MMD_SCENE_MAX_LINKS);
        return;
    }
    if (!a->parents && !(a->parents = mmd_arena_array(st->arena, MMD_SCENE_MAX_LINKS, sizeof *a->parents))) {
        fail_nomem(st, st->line);
        return;
    }
    mmd_scene_link l = {.line = st->line};
    const char *end = v + strlen(v), *at = strrchr(v, '@');
    if (at && (!parse_double(at + 1, &l.frame) || l.frame < row->lo || l.frame > row->hi)) {
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
void mmd_scene_key_acc_key(parse_state *st, const mmd_scene_key *row, void *obj, const char *key, const char *v)
{
    mmd_scene_accessory *a = obj;
    double d[9];
    const char *rest;
    mmd_scene_acc_key k = {.line = st->line};
    mmd_accessory_place_default(&k.place);
    bool ok = parse_numbers(v, 1, row->lo, row->hi, d, &rest) &&
              parse_numbers(rest, 3, -MAX_UNITS, MAX_UNITS, d + 1, &rest) &&
              parse_numbers(rest, 3, -MAX_DEGREES, MAX_DEGREES, d + 4, &rest) && parse_numbers(rest, 1, 0, 1e6, d + 7, &rest) &&
              parse_numbers(rest, 1, 0, 1, d + 8, &rest) && parse_two_bools(rest, &k.place.visible, &k.place.shadow);
    if (!ok) {
        mmd_scene_fail_expect(st, row, key, v);
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
void mmd_scene_key_gravity(parse_state *st, const mmd_scene_key *row, void *obj, const char *k, const char *v)
{
    mmd_scene *s = obj;
    double d[5];
    const char *rest;
    (void)k;
    if (!parse_numbers(v, 1, row->lo, row->hi, d, &rest) || !parse_numbers(rest, 4, -1e6, 1e6, d + 1, &rest) ||
        strspn(rest, " \t") != strlen(rest)) {
        fail_at(st, st->line, "expected %s (frame >= 0, MMD's acceleration, a direction), got '%s'", row->expect, v);
        return;
    }
    mmd_scene_gravity_key g = {.frame = d[0], .acceleration = (float)d[1],
                               .direction = {(float)d[2], (float)d[3], (float)d[4]}, .line = st->line};
    if (grow(st, (void **)&s->gravity, &st->gravity_cap, s->gravity_count, sizeof g))
        s->gravity[s->gravity_count++] = g;
}

/* ---- keys: the table's rows (scene_keys.h) ------------------------------- */

void mmd_scene_fail(parse_state *st, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fail_status(st, MMD_E_BAD_VALUE, st->line, fmt, ap);
    va_end(ap);
}

void mmd_scene_fail_expect(parse_state *st, const mmd_scene_key *row, const char *key, const char *value)
{
    char want[300];
    mmd_scene_key_expect(row, key, want, sizeof want);
    fail_at(st, st->line, "expected %s, got '%s'", want, value);
}

/* A number in the row's range (above lo when the range is open there). */
static bool in_range(const mmd_scene_key *row, double d)
{
    return (row->flags & MMD_KEY_LO_OPEN ? d > row->lo : d >= row->lo) && d <= row->hi;
}

/* A row of a type the table reads itself; p is its field. */
static void parse_typed(parse_state *st, const mmd_scene_key *row, char *p, const char *k, const char *v)
{
    double d;
    int64_t x;
    float r[3];
    bool ok = true;
    switch (row->type) {
    case MMD_KEY_BOOL: ok = parse_bool(v, (bool *)p); break;
    case MMD_KEY_INT:
        if ((ok = parse_i64(v, NULL, (int64_t)row->lo, (int64_t)row->hi, &x)))
            *(int *)p = (int)x;
        break;
    case MMD_KEY_FLOAT:
    case MMD_KEY_DOUBLE:
        if ((ok = parse_double(v, &d) && in_range(row, d))) {
            if (row->type == MMD_KEY_FLOAT)
                *(float *)p = (float)d;
            else
                *(double *)p = d;
        }
        break;
    case MMD_KEY_VEC3:
        if ((ok = parse_vec3(v, r, row->lo, row->hi)))
            for (int i = 0; i < 3; i++)
                ((float *)p)[i] = row->flags & MMD_KEY_RADIANS ? (float)(r[i] * (M_PI / 180.0)) : r[i];
        break;
    case MMD_KEY_OFFSET: ok = parse_offset(v, (int *)p, (long)row->hi); break;
    case MMD_KEY_PATH: *(char **)p = resolve(st, v, row->noun); break;
    case MMD_KEY_CUSTOM: break;
    }
    if (!ok)
        mmd_scene_fail_expect(st, row, k, v);
}

static void *section_object(parse_state *st)
{
    if (st->section == MMD_SEC_MODEL)
        return cur_model(st);
    if (st->section == MMD_SEC_ACCESSORY)
        return cur_accessory(st);
    return st->s;
}

/* key = value in the current section: its row, the duplicate check, the
 * placement mark, then the row's parser. */
static void on_row(parse_state *st, const char *k, const char *v)
{
    const mmd_scene_key *row = mmd_scene_key_find(st->section, k);
    if (!row) {
        char list[400];
        mmd_scene_key_list(st->section, list, sizeof list);
        fail_at(st, st->line, "unknown key '%s' in [%s] (expected %s)", k, mmd_scene_section_names[st->section], list);
        return;
    }
    size_t count, i = (size_t)(row - mmd_scene_keys(&count));
    if (!(row->flags & MMD_KEY_REPEAT)) {
        if (st->seen_rows[i]) {
            fail_at(st, st->line, "key '%s' given twice in this section", row->name);
            return;
        }
        st->seen_rows[i] = true;
    }
    void *obj = section_object(st);
    if ((row->flags & MMD_KEY_PLACE) && st->section == MMD_SEC_MODEL)
        ((mmd_scene_model *)obj)->placed = true;
    else if (row->flags & MMD_KEY_PLACE)
        ((mmd_scene_accessory *)obj)->set |= row->mark;
    if (row->parse)
        row->parse(st, row, obj, k, v);
    else
        parse_typed(st, row, (char *)obj + row->offset, k, v);
}

/* The value parsers shared with the command line, their sentence after "KEY: ". */
static void shared_failed(parse_state *st, const char *k, mmd_status rc, const mmd_error *m)
{
    if (rc != MMD_OK)
        fail_at(st, st->line, "%s: %s", k, m->msg);
}

void mmd_scene_key_size(parse_state *st, const mmd_scene_key *row, void *obj, const char *k, const char *v)
{
    mmd_scene *s = obj;
    mmd_error m;
    (void)row;
    shared_failed(st, k, mmd_scene_parse_size(v, &s->width, &s->height, &m), &m);
}

void mmd_scene_key_fps(parse_state *st, const mmd_scene_key *row, void *obj, const char *k, const char *v)
{
    mmd_scene *s = obj;
    mmd_error m;
    (void)row;
    shared_failed(st, k, mmd_scene_parse_fps(v, &s->fps_num, &s->fps_den, &m), &m);
}

void mmd_scene_key_frames(parse_state *st, const mmd_scene_key *row, void *obj, const char *k, const char *v)
{
    mmd_scene *s = obj;
    mmd_error m;
    (void)row;
    mmd_status rc = mmd_scene_parse_frames(v, &s->frame_first, &s->frame_last, NULL, &m);
    shared_failed(st, k, rc, &m);
    s->has_frames = rc == MMD_OK;
}

void mmd_scene_key_background(parse_state *st, const mmd_scene_key *row, void *obj, const char *k, const char *v)
{
    mmd_scene *s = obj;
    mmd_error m;
    (void)row;
    shared_failed(st, k, mmd_scene_parse_background(v, s->background, &s->transparent, &m), &m);
}

void mmd_scene_key_antialias(parse_state *st, const mmd_scene_key *row, void *obj, const char *k, const char *v)
{
    mmd_error m;
    (void)k;
    if (mmd_scene_parse_antialias(v, (int *)((char *)obj + row->offset), &m))
        fail_at(st, st->line, "%s", m.msg);
}

void mmd_scene_key_ssaa(parse_state *st, const mmd_scene_key *row, void *obj, const char *k, const char *v)
{
    mmd_error m;
    (void)k;
    if (mmd_scene_parse_ssaa(v, (int *)((char *)obj + row->offset), &m))
        fail_at(st, st->line, "%s", m.msg);
}

void mmd_scene_key_hex(parse_state *st, const mmd_scene_key *row, void *obj, const char *k, const char *v)
{
    mmd_scene *s = obj;
    if (!parse_hex_color(v, (float *)((char *)obj + row->offset)))
        mmd_scene_fail_expect(st, row, k, v);
    else
        s->has_edge_color = true;
}

void mmd_scene_key_projection(parse_state *st, const mmd_scene_key *row, void *obj, const char *k, const char *v)
{
    bool *ortho = (bool *)((char *)obj + row->offset);
    if (!strcmp(v, "perspective"))
        *ortho = false;
    else if (!strcmp(v, "orthographic"))
        *ortho = true;
    else
        mmd_scene_fail_expect(st, row, k, v);
}

void mmd_scene_key_follow(parse_state *st, const mmd_scene_key *row, void *obj, const char *k, const char *v)
{
    mmd_scene *s = obj;
    (void)k;
    parse_link(st, row, v, false, &s->follows, &s->follow_count);
}

void mmd_scene_key_outside_parent(parse_state *st, const mmd_scene_key *row, void *obj, const char *k, const char *v)
{
    mmd_scene_model *m = obj;
    (void)k;
    parse_link(st, row, v, true, &m->parents, &m->parent_count);
}

void mmd_scene_key_light_color(parse_state *st, const mmd_scene_key *row, void *obj, const char *k, const char *v)
{
    mmd_scene *s = obj;
    if (!parse_hex_color(v, s->light_color) && !parse_vec3(v, s->light_color, row->lo, row->hi))
        mmd_scene_fail_expect(st, row, k, v);
    else
        s->has_light_color = true;
}

void mmd_scene_key_light_direction(parse_state *st, const mmd_scene_key *row, void *obj, const char *k, const char *v)
{
    mmd_scene *s = obj;
    float d[3];
    if (!parse_vec3(v, d, row->lo, row->hi) || (d[0] == 0 && d[1] == 0 && d[2] == 0)) {
        mmd_scene_fail_expect(st, row, k, v);
        return;
    }
    memcpy(s->light_direction, d, sizeof d);
    s->has_light_direction = true;
}

void mmd_scene_key_motion(parse_state *st, const mmd_scene_key *row, void *obj, const char *k, const char *v)
{
    mmd_scene_model *m = obj;
    (void)k;
    if (m->motion_count >= (int)row->hi) {
        fail_at(st, st->line, "too many motions for one model (at most %d)", (int)row->hi);
        return;
    }
    char *p = resolve(st, v, row->noun);
    if (p)
        m->motions[m->motion_count++] = p;
}

void mmd_scene_key_post_effect(parse_state *st, const mmd_scene_key *row, void *obj, const char *k, const char *v)
{
    mmd_scene *s = obj;
    (void)k;
    if (s->post_effect_count >= (int)row->hi) {
        fail_at(st, st->line, "too many post effects (at most %d)", (int)row->hi);
        return;
    }
    char *p = resolve(st, v, row->noun);
    if (p)
        s->post_effects[s->post_effect_count++] = p;
}

bool mmd_scene_material_effect_put(mmd_scene_material_effects *list, uint32_t material, char *effect, int line,
                                   char **replaced)
{
    int i = 0;
    while (i < list->count && list->items[i].material < material)
        i++;
    if (replaced)
        *replaced = NULL;
    if (i < list->count && list->items[i].material == material) {
        if (replaced)
            *replaced = list->items[i].effect;
        list->items[i] = (mmd_scene_material_effect){material, effect, line}; /* the later line wins */
        return true;
    }
    if (list->count >= MMD_SCENE_MAX_MATERIAL_EFFECTS)
        return false;
    memmove(list->items + i + 1, list->items + i, (size_t)(list->count - i) * sizeof *list->items);
    list->items[i] = (mmd_scene_material_effect){material, effect, line};
    list->count++;
    return true;
}

mmd_status mmd_scene_material_effect_set(mmd_scene *s, mmd_scene_material_effects *list, uint32_t material,
                                        char *effect, int line)
{
    if (!list->items && !(list->items = mmd_scene_array(s, MMD_SCENE_MAX_MATERIAL_EFFECTS, sizeof *list->items)))
        return MMD_E_NOMEM;
    return mmd_scene_material_effect_put(list, material, effect, line, NULL) ? MMD_OK : MMD_E_LIMIT;
}

/* material_effect = K FILE.fx | K none (obj + row->offset: the object's list) */
void mmd_scene_key_material_effect(parse_state *st, const mmd_scene_key *row, void *obj, const char *k, const char *v)
{
    mmd_scene_material_effects *list = (mmd_scene_material_effects *)((char *)obj + row->offset);
    char *end;
    errno = 0;
    unsigned long m = isdigit((unsigned char)*v) ? strtoul(v, &end, 10) : 0;
    if (!isdigit((unsigned char)*v) || errno || m > (unsigned long)row->hi || (*end != ' ' && *end != '\t')) {
        mmd_scene_fail_expect(st, row, k, v);
        return;
    }
    while (*end == ' ' || *end == '\t')
        end++;
    char *path = NULL;
    if (strcasecmp(end, "none") && !(path = resolve(st, end, row->noun)))
        return;
    mmd_status r = mmd_scene_material_effect_set(st->s, list, (uint32_t)m, path, st->line);
    if (r == MMD_E_LIMIT)
        fail_at(st, st->line, "too many %s keys (at most %d)", row->name, MMD_SCENE_MAX_MATERIAL_EFFECTS);
    else if (r != MMD_OK)
        fail_nomem(st, st->line);
}

void mmd_scene_key_soft_shadow(parse_state *st, const mmd_scene_key *row, void *obj, const char *k, const char *v)
{
    mmd_effects *e = &((mmd_scene *)obj)->effects;
    if (!strcmp(v, "contact")) {
        e->soft_shadow = true;
        e->soft_shadow_mode = MMD_SOFT_SHADOW_CONTACT;
    } else if (!parse_bool(v, &e->soft_shadow)) {
        mmd_scene_fail_expect(st, row, k, v);
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
    if (st->section == MMD_SEC_NONE)
        fail_at(st, st->line, "key '%s' outside any section (start with [output], [model], ...)", key);
    else
        on_row(st, key, value);
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

mmd_scene *mmd_scene_create(const char *path)
{
    struct scene_box *box = calloc(1, sizeof *box);
    mmd_arena *arena = mmd_arena_create();
    if (!box || !arena) {
        free(box);
        mmd_arena_destroy(arena);
        return NULL;
    }
    box->arena = arena;
    mmd_scene *s = &box->scene;
    mmd_scene_defaults(s);
    s->path = mmd_arena_strdup(arena, path);
    const char *slash = strrchr(path, '/');
    s->dir = slash ? mmd_arena_strndup(arena, path, slash == path ? 1 : (size_t)(slash - path))
                   : mmd_arena_strdup(arena, ".");
    if (!s->path || !s->dir) {
        mmd_scene_free(s);
        return NULL;
    }
    return s;
}

char *mmd_scene_strdup(mmd_scene *s, const char *v)
{
    return mmd_arena_strdup(((struct scene_box *)s)->arena, v);
}

void *mmd_scene_array(mmd_scene *s, size_t count, size_t size)
{
    return mmd_arena_array(((struct scene_box *)s)->arena, count, size);
}

mmd_status mmd_scene_parse(const char *text, const char *path, bool check_files, mmd_scene **out,
                           mmd_error *err)
{
    mmd_scene *s = mmd_scene_create(path);
    if (!s)
        return mmd_fail(err, MMD_E_NOMEM, "%s: out of memory", path);
    mmd_arena *arena = ((struct scene_box *)s)->arena;
    mmd_error scratch;
    if (text && !strncmp(text, "\xEF\xBB\xBF", 3))
        text += 3; /* a UTF-8 byte order mark (Windows editors write one) */
    parse_state st = {.s = s, .arena = arena, .text = text, .path = path, .check_files = check_files,
                      .err = err ? err : &scratch};
    int rc = st.failed ? 0 : ini_parse_stream(read_line, &st, on_key, &st);
    if (!st.failed && rc > 0)
        fail_at(&st, rc, "expected 'key = value', '[section]' or a comment (; or #)");
    if (!st.failed && rc < 0)
        fail_at(&st, 0, "cannot parse (inih error %d)", rc);
    if (!st.failed && s->model_count > 0 && !cur_model(&st)->file)
        fail_at(&st, cur_model(&st)->line, "model section has no 'file' key");
    if (!st.failed)
        finish_accessories(&st);
    if (!st.failed && s->audio_file == NULL && st.seen[MMD_SEC_AUDIO])
        fail_at(&st, st.line, "[audio] section has no 'file' key");
    if (!st.failed && s->model_count == 0)
        fail_at(&st, st.line, "no [model] section: a scene needs at least one model");
    check_link_models(&st);
    if (st.failed) {
        mmd_scene_free(s);
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
