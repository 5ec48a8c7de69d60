/* renderer/scene/project_export.c - a project written as scene.ini + VMDs
 * (mmd_project_export, see project.h). `mmdrender project.pmm` renders what
 * this writes (into a private temporary folder), so the export of a project
 * and the project render the same bytes.
 */
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/motion.h"
#include "core/vmd_write.h"
#include "renderer/base/fs.h"
#include "renderer/base/msg.h"
#include "renderer/scene/project.h"
#include "renderer/scene/scene.h"

#define SCENE_LINE_MAX 197 /* docs/scenes.md */

/* The files the export writes, named once. */
static const char k_scene_ini[] = "scene.ini", k_camera_vmd[] = "camera.vmd";
static void model_vmd(uint32_t i, char *out, size_t cap) { snprintf(out, cap, "model_%u.vmd", i + 1); }

typedef struct sbuf {
    char *s;
    size_t n, cap;
    bool fail;
    char bad[256]; /* the first name from the project a scene line cannot hold (printable), or "" */
} sbuf;

/* v, noted in b when a scene line cannot hold it (a bone name with a newline
 * would add lines of its own); scene_body then refuses the scene. */
static const char *held(sbuf *b, const char *v)
{
    if (!b->bad[0] && !mmd_scene_can_hold(v))
        mmd_printable(v, b->bad, sizeof b->bad);
    return v;
}

static void sb_printf(sbuf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void sb_printf(sbuf *b, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int k = vsnprintf(NULL, 0, fmt, ap);
    va_end(ap);
    if (b->fail || k < 0)
        return;
    if ((size_t)k + 1 > b->cap - b->n) {
        size_t cap = (b->cap + (size_t)k + 1) * 2;
        char *ns = realloc(b->s, cap);
        if (!ns) {
            b->fail = true;
            return;
        }
        b->s = ns;
        b->cap = cap;
    }
    va_start(ap, fmt);
    vsnprintf(b->s + b->n, b->cap - b->n, fmt, ap);
    va_end(ap);
    b->n += (size_t)k;
}

/* Path of file as the scene names it: relative to dir_real when shorter. */
static void scene_path(const char *dir_real, const char *file, char *out, size_t cap)
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

/* Exclusive temporary + rename (fs.h): a planted file or symlink is never
 * opened or followed, a symlink at path is never replaced. */
static int write_file(const char *path, const void *data, size_t size, char *msg, size_t n)
{
    char *tmp = NULL;
    int fd = mmd_temp_create(path, "export", &tmp); /* exclusive: a planted symlink is never followed */
    FILE *f = fd >= 0 ? fdopen(fd, "wb") : NULL;
    if (!f && fd >= 0)
        close(fd);
    bool ok = f && fwrite(data, 1, size, f) == size;
    ok = (f && fclose(f) == 0) && ok;
    if (!ok || mmd_temp_commit(tmp, path) != 0) {
        int e = errno;
        if (tmp)
            unlink(tmp);
        free(tmp);
        return mmd_msgf(msg, n, -1, "cannot write %s (%s)", path,
                        e == ELOOP ? "the name is a symbolic link (not replaced)" : strerror(e));
    }
    free(tmp);
    return 0;
}

static int write_motion(mmd_motion *mo, const char *path, char *msg, size_t n)
{
    uint8_t *buf = NULL;
    size_t size = 0;
    mmd_error err;
    if (!mo || mmd_vmd_write(mo, &buf, &size, &err) != MMD_OK) {
        mmd_motion_free(mo);
        return mmd_msgf(msg, n, -1, "%s: cannot build the motion", path);
    }
    mmd_motion_free(mo);
    int rc = write_file(path, buf, size, msg, n);
    free(buf);
    return rc;
}

/* Scene name for model i: the MMD name when usable and unique, else mN. */
static void model_name(const mmd_pmm *m, uint32_t i, char *out, size_t cap)
{
    const char *name = m->models[i].name;
    bool ok = *name && strlen(name) < 60 && !strpbrk(name, "]:;#=\\") && mmd_scene_can_hold(name);
    for (uint32_t j = 0; ok && j < m->model_count; j++)
        ok = j == i || strcmp(m->models[j].name, name);
    if (ok)
        snprintf(out, cap, "%s", name);
    else
        snprintf(out, cap, "m%u", i + 1);
}

static int add_file_key(sbuf *b, const char *key, const char *dir_real, const char *file, char *msg, size_t n)
{
    char path[PATH_MAX], shown[512];
    scene_path(dir_real, file, path, sizeof path);
    if (strlen(key) + 3 + strlen(path) > SCENE_LINE_MAX)
        return mmd_msgf(msg, n, -1, "the path of %s is too long for a scene line (%zu bytes): %s", key,
                        strlen(path), mmd_printable(path, shown, sizeof shown));
    if (!mmd_scene_can_hold(path)) /* project.c refuses such files; this is the writer's own guard */
        return mmd_msgf(msg, n, -1, "the path of %s has a character a scene line cannot hold: %s", key,
                        mmd_printable(path, shown, sizeof shown));
    sb_printf(b, "%s = %s\n", key, path);
    return 0;
}

/* Project values into the scene keys' ranges (docs/projects.md). */
static double clampd(double x, double lo, double hi) { return x < lo ? lo : x > hi ? hi : x; }

static bool same_parent(mmd_pmm_parent a, mmd_pmm_parent b) { return a.model == b.model && a.bone == b.bone; }

/* "MODEL:BONE" of a parent reference, "none" when it has none or its model is
 * not in the scene. */
static void target_of(const mmd_project *p, mmd_pmm_parent t, char *out, size_t cap)
{
    const mmd_pmm *m = p->pmm;
    if (t.model < 0 || (uint32_t)t.model >= m->model_count || !p->model_files[t.model] || t.bone < 0) {
        snprintf(out, cap, "none");
        return;
    }
    char name[80];
    model_name(m, (uint32_t)t.model, name, sizeof name);
    snprintf(out, cap, "%s:%s", name, m->models[t.model].bones[t.bone].name);
}

/* One line per change of an outside parent over the model keys. */
static void outside_parents(sbuf *b, const mmd_project *p, uint32_t i)
{
    const mmd_pmm_model *m = &p->pmm->models[i];
    char target[256];
    for (uint32_t o = 0; o < m->op_count; o++) {
        if (m->op_bones[o] < 0)
            continue;
        mmd_pmm_parent prev = {-1, -1};
        for (uint32_t k = 0; k < m->key_count; k++) {
            mmd_pmm_parent cur = m->keys[k].parents ? m->keys[k].parents[o] : prev;
            if (cur.model == MMD_PMM_GROUND)
                cur = (mmd_pmm_parent){-1, -1};
            if (same_parent(cur, prev))
                continue;
            target_of(p, cur, target, sizeof target);
            sb_printf(b, "outside_parent = %s -> %s @%u\n", held(b, m->bones[m->op_bones[o]].name), held(b, target),
                      m->keys[k].frame);
            prev = cur;
        }
    }
}

static void camera_follows(sbuf *b, const mmd_project *p)
{
    const mmd_pmm *m = p->pmm;
    mmd_pmm_parent prev = {-1, -1};
    char target[256];
    for (uint32_t k = 0; k < m->camera_key_count; k++) {
        mmd_pmm_parent cur = m->camera_keys[k].look_at;
        if (same_parent(cur, prev))
            continue;
        target_of(p, cur, target, sizeof target);
        sb_printf(b, "follow = %s @%u\n", held(b, target), m->camera_keys[k].frame);
        prev = cur;
    }
}

static void output_section(sbuf *b, const mmd_project *p)
{
    const mmd_pmm *m = p->pmm;
    int fps = m->fps == 60.0f ? 60 : 30;
    sb_printf(b, "[output]\nsize = %dx%d\nfps = %d\n", m->width, m->height, fps);
    if (m->begin_enabled || m->end_enabled) {
        int64_t first, last;
        mmd_project_range(p, &first, &last);
        sb_printf(b, "frames = %lld-%lld\n", (long long)(first * fps / 30), (long long)(last * fps / 30));
    }
    sb_printf(b, "background = %s\n", m->black_background ? "#000000" : "#ffffff");
    if (!m->ground_shadow)
        sb_printf(b, "ground_shadow = off\n");
    if (m->ground_shadow_brightness != 1.0f)
        sb_printf(b, "ground_shadow_brightness = %.9g\n", clampd(m->ground_shadow_brightness, 0, 10));
    if (m->ground_shadow_translucent)
        sb_printf(b, "ground_shadow_translucent = on\n");
    if (m->edge_color[0] != 0.0f || m->edge_color[1] != 0.0f || m->edge_color[2] != 0.0f) /* black: PMD's own */
        sb_printf(b, "edge_color = #%02x%02x%02x\n", (unsigned)lroundf(m->edge_color[0] * 255.0f),
                  (unsigned)lroundf(m->edge_color[1] * 255.0f), (unsigned)lroundf(m->edge_color[2] * 255.0f));
    sb_printf(b, "\n");
    sb_printf(b, "[camera]\nmotion = %s\n", k_camera_vmd);
    camera_follows(b, p);
    sb_printf(b, "\n");
}

/* One line per change of the accessory's parent over its keys ("parent = X"
 * alone when the first key's is the only one). */
static void accessory_parents(sbuf *b, const mmd_project *p, const mmd_pmm_accessory *x)
{
    char target[256];
    bool timed = false;
    for (uint32_t k = 1; k < x->key_count; k++)
        timed = timed || !same_parent(x->keys[k].parent, x->keys[0].parent);
    mmd_pmm_parent prev = {-1, -1};
    for (uint32_t k = 0; k < x->key_count; k++) {
        target_of(p, x->keys[k].parent, target, sizeof target);
        if (!timed) {
            if (strcmp(target, "none"))
                sb_printf(b, "parent = %s\n", held(b, target));
            return;
        }
        if (k > 0 && same_parent(x->keys[k].parent, prev))
            continue;
        sb_printf(b, "parent = %s @%u\n", held(b, target), x->keys[k].frame);
        prev = x->keys[k].parent;
    }
}

/* key = FRAME X Y Z RX RY RZ SI TR VISIBLE SHADOW (docs/projects.md "Accessory keys"). */
static void accessory_key(sbuf *b, const mmd_pmm_accessory_key *k)
{
    sb_printf(b, "key = %u %.9g %.9g %.9g %.9g %.9g %.9g %.9g %.9g %s %s\n", k->frame, (double)k->position[0],
              (double)k->position[1], (double)k->position[2], (double)(k->rotation[0] * (180.0 / M_PI)),
              (double)(k->rotation[1] * (180.0 / M_PI)), (double)(k->rotation[2] * (180.0 / M_PI)),
              (double)k->scale, (double)k->opacity, k->visible ? "on" : "off", k->shadow ? "on" : "off");
}

/* Accessories in draw order: placed by their key (several keys as key lines,
 * docs/projects.md "Accessory keys"). The project stores MMD's Si as it is, the
 * scene's scale (MMD's own frames, issue 25; docs/pmm.md). Rotations are radians. */
static int accessory_sections(sbuf *b, const mmd_project *p, const char *dir_real, char *msg, size_t n)
{
    const mmd_pmm *m = p->pmm;
    for (int order = 0; order <= 255; order++) {
        for (uint32_t i = 0; i < m->accessory_count; i++) {
            const mmd_pmm_accessory *x = &m->accessories[i];
            if (x->draw_order != order || !p->accessory_files[i])
                continue;
            const mmd_pmm_accessory_key *k = &x->keys[0];
            sb_printf(b, "[accessory:a%u]\n", i + 1);
            if (add_file_key(b, "file", dir_real, p->accessory_files[i], msg, n))
                return -1;
            if (x->key_count > 1) {
                for (uint32_t j = 0; j < x->key_count; j++)
                    accessory_key(b, &x->keys[j]);
            } else {
                sb_printf(b, "position = %.9g %.9g %.9g\n", (double)k->position[0], (double)k->position[1],
                          (double)k->position[2]);
                sb_printf(b, "rotation = %.9g %.9g %.9g\n", (double)(k->rotation[0] * (180.0 / M_PI)),
                          (double)(k->rotation[1] * (180.0 / M_PI)), (double)(k->rotation[2] * (180.0 / M_PI)));
                sb_printf(b, "scale = %.9g\nopacity = %.9g\n", (double)k->scale, (double)k->opacity);
                sb_printf(b, "visible = %s\nshadow = %s\n", k->visible ? "on" : "off", k->shadow ? "on" : "off");
            }
            sb_printf(b, "add_blend = %s\n", x->add_blend ? "on" : "off");
            if (m->accessories_after_models >= 0 && x->draw_order >= m->accessories_after_models)
                sb_printf(b, "after_models = on\n");
            accessory_parents(b, p, x);
            sb_printf(b, "\n");
        }
    }
    return 0;
}

/* [gravity] when the project's differs from MMD's default (one key, 9.8
 * along 0 -1 0). Noise is not carried (the render warns). */
static void gravity_section(sbuf *b, const mmd_pmm *m)
{
    const mmd_pmm_gravity_key *g = m->gravity_keys;
    if (m->gravity_key_count == 1 && g->acceleration == 9.8f && g->direction[0] == 0 && g->direction[1] == -1 &&
        g->direction[2] == 0)
        return;
    sb_printf(b, "[gravity]\n");
    for (uint32_t k = 0; k < m->gravity_key_count; k++)
        sb_printf(b, "key = %u %.9g %.9g %.9g %.9g\n", g[k].frame, (double)g[k].acceleration,
                  (double)g[k].direction[0], (double)g[k].direction[1], (double)g[k].direction[2]);
    sb_printf(b, "\n");
}

/* Models in draw order (stable). */
static int model_sections(sbuf *b, const mmd_project *p, const char *dir_real, char *msg, size_t n)
{
    const mmd_pmm *m = p->pmm;
    for (int order = 0; order <= 255; order++) {
        for (uint32_t i = 0; i < m->model_count; i++) {
            if (m->models[i].draw_order != order || !p->model_files[i])
                continue;
            char name[80], vmd[32];
            model_name(m, i, name, sizeof name);
            sb_printf(b, "[model:%s]\n", name);
            if (add_file_key(b, "file", dir_real, p->model_files[i], msg, n))
                return -1;
            model_vmd(i, vmd, sizeof vmd);
            sb_printf(b, "motion = %s\n", vmd);
            if (m->physics == MMD_PMM_PHYSICS_OFF)
                sb_printf(b, "physics = off\n");
            const mmd_pmm_model *x = &m->models[i];
            if (x->look.edge_width != 1.0f)
                sb_printf(b, "edge_width = %.9g\n", clampd(x->look.edge_width, 0, 100));
            if (x->look.add_blend)
                sb_printf(b, "add_blend = on\n");
            if (!x->look.self_shadow)
                sb_printf(b, "self_shadow = off\n");
            if (m->models[i].calc_order) /* v2: MMD's calculation order (its one-frame lag with it) */
                sb_printf(b, "calc_order = %u\n", m->models[i].calc_order);
            outside_parents(b, p, i);
            sb_printf(b, "\n");
        }
    }
    return 0;
}

/* "KEY = X Y" when the offset is not 0 0, "KEY = S" when the scale is set and
 * in range (MMD stores 0 for a scale never set: 1). */
static void placement(sbuf *b, const char *offset_key, const int32_t offset[2], const char *scale_key, float scale)
{
    if (offset[0] || offset[1])
        sb_printf(b, "%s = %.0f %.0f\n", offset_key, clampd(offset[0], -65536, 65536), clampd(offset[1], -65536, 65536));
    if (scale != 1.0f && scale > 0.0f && scale <= 100.0f)
        sb_printf(b, "%s = %.9g\n", scale_key, (double)scale);
}

/* [background]: the image and the video found, with MMD's placement. */
static int background_section(sbuf *b, const mmd_project *p, const char *dir_real, char *msg, size_t n)
{
    const mmd_pmm *m = p->pmm;
    sb_printf(b, "[background]\n");
    if (p->image_file) {
        if (add_file_key(b, "image", dir_real, p->image_file, msg, n))
            return -1;
        placement(b, "offset", m->image_offset, "scale", m->image_scale);
    }
    if (p->video_file) {
        if (add_file_key(b, "video", dir_real, p->video_file, msg, n))
            return -1;
        placement(b, "video_offset", m->video_offset, "video_scale", m->video_scale);
    }
    sb_printf(b, "\n");
    return 0;
}

static int scene_body(sbuf *b, const mmd_project *p, const char *dir_real, char *msg, size_t n)
{
    char shown[150]; /* the comment stays one line within SCENE_LINE_MAX, whatever the project's path */
    sb_printf(b, "; exported from %s by mmdrender export\n\n", mmd_printable(p->path, shown, sizeof shown));
    output_section(b, p);
    if (model_sections(b, p, dir_real, msg, n) || accessory_sections(b, p, dir_real, msg, n))
        return -1;
    if ((p->image_file || p->video_file) && background_section(b, p, dir_real, msg, n))
        return -1;
    gravity_section(b, p->pmm);
    if (p->audio_file) {
        sb_printf(b, "[audio]\n");
        if (add_file_key(b, "file", dir_real, p->audio_file, msg, n))
            return -1;
    }
    if (b->bad[0])
        return mmd_msgf(msg, n, -1, "the bone name '%s' has a character a scene line cannot hold", b->bad);
    if (b->fail)
        return mmd_msgf(msg, n, -1, "out of memory");
    return 0;
}

/* Name of the k-th file the export writes into dir: k = 0 scene.ini, 1 the
 * camera VMD, then one VMD per found model (*model its position, else -1).
 * False past the last. */
static bool output_name(const mmd_project *p, const char *dir, uint32_t k, char *out, size_t cap, int64_t *model)
{
    char name[32];
    *model = -1;
    if (k < 2)
        snprintf(name, sizeof name, "%s", k ? k_camera_vmd : k_scene_ini);
    for (uint32_t i = 0, seen = 2; k >= 2 && *model < 0 && i < p->pmm->model_count; i++)
        if (p->model_files[i] && seen++ == k) {
            model_vmd(i, name, sizeof name);
            *model = i;
        }
    if (k >= 2 && *model < 0)
        return false;
    snprintf(out, cap, "%s/%s", dir, name);
    return true;
}

/* Is out one of the project's files (the project, its .emm, what a render of
 * the export reads), by inode? *which names it. */
static bool is_input(const mmd_project *p, const char *out, const char **which)
{
    const mmd_pmm *m = p->pmm;
    const char *media[5] = {p->path, p->emm_file, p->audio_file, p->image_file, p->video_file};
    *which = NULL;
    for (int i = 0; i < 5 && !*which; i++)
        if (media[i] && mmd_same_file(out, media[i]))
            *which = media[i];
    for (uint32_t i = 0; i < m->model_count && !*which; i++)
        if (p->model_files[i] && mmd_same_file(out, p->model_files[i]))
            *which = p->model_files[i];
    for (uint32_t i = 0; i < m->accessory_count && !*which; i++)
        if (p->accessory_files[i] && mmd_same_file(out, p->accessory_files[i]))
            *which = p->accessory_files[i];
    return *which != NULL;
}

/* Before anything is written: no output is an input (render's rule, exit 1),
 * none is a symbolic link (not followed, not replaced; exit 5). */
static mmd_status check_outputs(const mmd_project *p, const char *dir, char *msg, size_t n)
{
    char path[PATH_MAX], a[512], b[512];
    const char *in = NULL;
    struct stat st;
    int64_t model;
    for (uint32_t k = 0; output_name(p, dir, k, path, sizeof path, &model); k++) {
        if (is_input(p, path, &in)) {
            mmd_msgf(msg, n, 0, "the output '%s' is also an input of the project ('%s'): export into another folder",
                     mmd_printable(path, a, sizeof a), mmd_printable(in, b, sizeof b));
            return MMD_E_USAGE;
        }
        if (lstat(path, &st) == 0 && S_ISLNK(st.st_mode)) {
            mmd_msgf(msg, n, 0, "cannot write %s (the name is a symbolic link (not replaced))",
                     mmd_printable(path, a, sizeof a));
            return MMD_E_OUTPUT;
        }
    }
    return MMD_OK;
}

/* The VMDs, then scene.ini (built first: a project it cannot hold writes nothing). */
static mmd_status write_all(const mmd_project *p, const char *dir, const sbuf *scene, char *msg, size_t n)
{
    char path[PATH_MAX];
    int64_t model;
    mmd_error err;
    for (uint32_t k = 1; output_name(p, dir, k, path, sizeof path, &model); k++) {
        mmd_motion *mo = NULL;
        mmd_status st = model < 0 ? mmd_pmm_camera_motion(p->pmm, &mo, &err)
                                  : mmd_pmm_model_motion(p->pmm, (uint32_t)model, &mo, &err);
        if (st != MMD_OK || write_motion(mo, path, msg, n))
            return st != MMD_OK ? mmd_msgf(msg, n, MMD_E_OUTPUT, "cannot write %s", path) : MMD_E_OUTPUT;
    }
    output_name(p, dir, 0, path, sizeof path, &model);
    return write_file(path, scene->s, scene->n, msg, n) ? MMD_E_OUTPUT : MMD_OK;
}

mmd_status mmd_project_export(const mmd_project *p, const char *dir, char *msg, size_t n)
{
    if (mkdir(dir, 0777) != 0 && errno != EEXIST)
        return mmd_msgf(msg, n, MMD_E_OUTPUT, "cannot create %s (%s)", dir, strerror(errno));
    char dir_real[PATH_MAX];
    if (!realpath(dir, dir_real))
        return mmd_msgf(msg, n, MMD_E_OUTPUT, "cannot open %s (%s)", dir, strerror(errno));
    mmd_status st = check_outputs(p, dir, msg, n);
    if (st != MMD_OK)
        return st;
    sbuf scene = {0};
    st = scene_body(&scene, p, dir_real, msg, n) ? MMD_E_OUTPUT : write_all(p, dir, &scene, msg, n);
    free(scene.s);
    return st;
}
