/* renderer/scene/project.c - a MikuMikuDance project on disk (see project.h). */
#include "renderer/scene/project.h"

#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>

#include "core/file.h"
#include "core/model.h"
#include "core/motion.h"
#include "core/sniff.h"
#include "core/vmd_write.h"
#include "renderer/base/msg.h"
#include "renderer/scene/mme_assign.h"
#include "renderer/scene/scene.h"
#include "renderer/image/texpath.h"

/* ---- small helpers ---------------------------------------------------------------------- */

static char *dup_str(const char *s)
{
    size_t n = strlen(s ? s : "") + 1;
    char *d = malloc(n);
    if (d)
        memcpy(d, s ? s : "", n);
    return d;
}

static void warn(mmd_project *p, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void warn(mmd_project *p, const char *fmt, ...)
{
    char buf[1024];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    char **w = realloc(p->warnings, (p->warning_count + 1) * sizeof *w);
    if (!w)
        return;
    p->warnings = w;
    if ((w[p->warning_count] = dup_str(buf)))
        p->warning_count++;
}

static bool is_windows_absolute(const char *s)
{
    return (((s[0] | 0x20) >= 'a' && (s[0] | 0x20) <= 'z') && s[1] == ':') || s[0] == '\\';
}

/* The part after "UserFile\" (any case, either separator), NULL when absent. */
static const char *after_userfile(const char *s)
{
    for (const char *q = s; *q; q++)
        if (!strncasecmp(q, "userfile", 8) && (q[8] == '\\' || q[8] == '/') && (q == s || q[-1] == '\\' || q[-1] == '/'))
            return q + 9;
    return NULL;
}

static const char *base_name(const char *s)
{
    const char *b = s;
    for (const char *q = s; *q; q++)
        if (*q == '\\' || *q == '/')
            b = q + 1;
    return b;
}

/* One step of the lookup: rel under dir by the texture rule (texpath.h). A
 * refusal (the file would leave dir) is noted in *refused. */
static char *try_under(const char *dir, const char *rel, bool allow_outside, bool *refused)
{
    char out[PATH_MAX];
    if (!*rel)
        return NULL;
    mmd_status st = mmd_texpath_resolve(dir, rel, allow_outside, out, sizeof out, NULL);
    *refused = *refused || st == MMD_E_UNSUPPORTED;
    return st == MMD_OK ? dup_str(out) : NULL;
}

/* project.h: as written, then after UserFile\ under each root and the project
 * folder, then the bare file name in the project folder. NULL with *refused
 * when a step found a path only outside its folder. */
static char *find_file(const mmd_project *p, const char *stored, const mmd_project_search *s, bool *refused)
{
    *refused = false;
    if (!stored || !*stored)
        return NULL;
    char *f = NULL;
    if (!is_windows_absolute(stored))
        f = try_under(p->dir, stored, s->allow_outside, refused);
    const char *rest = after_userfile(stored);
    for (int i = 0; !f && rest && i < s->root_count; i++)
        f = try_under(s->roots[i], rest, s->allow_outside, refused);
    if (!f && rest)
        f = try_under(p->dir, rest, s->allow_outside, refused);
    if (!f)
        f = try_under(p->dir, base_name(stored), s->allow_outside, refused);
    return f;
}

/* find_file, then the found file's real path checked against what a scene
 * line can hold (the render reads the project as a scene). One warning, naming
 * `what` and `left_out` (what becomes of it), when it is not used. */
static char *locate(mmd_project *p, const char *stored, const mmd_project_search *s, const char *what,
                    const char *left_out, mmd_project_file_state *state)
{
    bool refused = false;
    char *f = find_file(p, stored, s, &refused);
    char real[PATH_MAX], shown[512], shown_real[512];
    mmd_printable(stored, shown, sizeof shown);
    if (f && realpath(f, real) && !mmd_scene_can_hold(real)) {
        warn(p, "%s: '%s' has a control character, a space at an end or ' ;' in its name, which a scene line "
                "cannot hold: refused%s", what, mmd_printable(real, shown_real, sizeof shown_real), left_out);
        free(f);
        *state = MMD_PROJECT_FILE_REFUSED;
        return NULL;
    }
    *state = f ? MMD_PROJECT_FILE_FOUND : refused ? MMD_PROJECT_FILE_REFUSED : MMD_PROJECT_FILE_MISSING;
    if (refused && !f)
        warn(p, "%s: %s is outside the project's folder and the asset roots: refused "
                "(--allow-outside-assets allows it)%s", what, shown, left_out);
    else if (!f)
        warn(p, "%s not found: %s%s", what, shown, left_out);
    return f;
}

/* ---- version 1: the model file describes the block ---------------------------------------- */

typedef struct v1_ctx {
    mmd_project *p;
    const mmd_project_search *search;
    mmd_model *models[256];
    int count;
    const char **names;
    int32_t *iks;
} v1_ctx;

static bool v1_model(void *user, const char *path, mmd_pmm_v1_model *out)
{
    v1_ctx *c = user;
    bool refused;
    char *f = find_file(c->p, path, c->search, &refused);
    mmd_model *m = NULL;
    mmd_error err;
    if (!f || c->count >= 256 || mmd_model_load_file(f, &m, &err) != MMD_OK) {
        free(f);
        return false;
    }
    free(f);
    c->models[c->count++] = m;
    free(c->names);
    free(c->iks);
    c->names = malloc(((size_t)m->bone_count + m->morph_count + 1) * sizeof *c->names);
    c->iks = malloc(((size_t)m->bone_count + 1) * sizeof *c->iks);
    if (!c->names || !c->iks)
        return false;
    uint32_t nik = 0;
    for (uint32_t i = 0; i < m->bone_count; i++) {
        c->names[i] = m->bones[i].name;
        if (m->bones[i].flags & MMD_BONE_IK)
            c->iks[nik++] = (int32_t)i;
    }
    for (uint32_t i = 0; i < m->morph_count; i++)
        c->names[m->bone_count + i] = m->morphs[i].name;
    *out = (mmd_pmm_v1_model){c->names, m->bone_count, c->names + m->bone_count, m->morph_count, c->iks, nik};
    return true;
}

/* ---- .emm ------------------------------------------------------------------------------- */

/* One line of the .emm: "PmdN", "PmdN[k]", "AcsN", "Obj": an object's effect. */
typedef struct emm_state {
    mmd_project *p;
    const mmd_project_search *search;
} emm_state;

static void emm_line(void *user, const char *section, const char *key, const char *v)
{
    emm_state *st = user;
    mmd_project *p = st->p;
    bool main = !strcasecmp(section, "Effect");
    uint32_t n;
    int64_t material = -1;
    bool object = mmd_mme_assign_key(key, "Pmd", &n, &material) || mmd_mme_assign_key(key, "Acs", &n, &material);
    bool none = !strcasecmp(v, "none");
    if (!*v || (none && !(main && object && material >= 0)) ||
        (!object && strncasecmp(key, "Pmd", 3) && strncasecmp(key, "Acs", 3) && strncasecmp(key, "Obj", 3)))
        return;
    mmd_project_effect *e = realloc(p->effects, (p->effect_count + 1) * sizeof *e);
    if (!e)
        return;
    p->effects = e;
    e += p->effect_count++;
    *e = (mmd_project_effect){dup_str(key), dup_str(v), NULL, main, main && object && material < 0,
                              main && object ? material : -1, none};
    if ((e->whole || e->material >= 0) && !none) {
        char what[96], shown[64];
        mmd_project_file_state state;
        snprintf(what, sizeof what, "effect %s", mmd_printable(key, shown, sizeof shown));
        e->found = locate(p, v, st->search, what, " (not applied)", &state);
    }
}

/* `<name>.emm` beside the project (mme_assign.h): the entries of its
 * sections named Effect... are listed. */
static void read_emm(mmd_project *p, const mmd_project_search *search)
{
    size_t n = strlen(p->path);
    char *emm = malloc(n + 5);
    if (!emm)
        return;
    memcpy(emm, p->path, n + 1);
    char *dot = strrchr(emm, '.');
    strcpy(dot && !strchr(dot, '/') ? dot : emm + n, ".emm");
    emm_state st = {p, search};
    if (mmd_mme_assign_read(emm, emm_line, &st))
        p->emm_file = emm;
    else
        free(emm);
}

/* ---- load ------------------------------------------------------------------------------- */

static void find_media(mmd_project *p, const mmd_project_search *s)
{
    const mmd_pmm *m = p->pmm;
    if (m->audio_enabled && *m->audio_path)
        p->audio_file = locate(p, m->audio_path, s, "audio file", " (the render has no sound)", &p->audio_state);
    if (m->image_enabled && *m->image_path)
        p->image_file = locate(p, m->image_path, s, "background image", "", &p->image_state);
    if (m->video_enabled && *m->video_path)
        p->video_file = locate(p, m->video_path, s, "background video", "", &p->video_state);
}

static void find_files(mmd_project *p, const mmd_project_search *s)
{
    const mmd_pmm *m = p->pmm;
    char what[256], shown[160];
    p->model_files = calloc(m->model_count + 1, sizeof *p->model_files);
    p->accessory_files = calloc(m->accessory_count + 1, sizeof *p->accessory_files);
    p->model_states = calloc(m->model_count + 1, sizeof *p->model_states);
    p->accessory_states = calloc(m->accessory_count + 1, sizeof *p->accessory_states);
    for (uint32_t i = 0; p->model_files && p->model_states && i < m->model_count; i++) {
        snprintf(what, sizeof what, "model '%s'", mmd_printable(m->models[i].name, shown, sizeof shown));
        p->model_files[i] = locate(p, m->models[i].path, s, what, " (left out with its motion)", &p->model_states[i]);
    }
    for (uint32_t i = 0; p->accessory_files && p->accessory_states && i < m->accessory_count; i++) {
        snprintf(what, sizeof what, "accessory '%s'", mmd_printable(m->accessories[i].name, shown, sizeof shown));
        p->accessory_files[i] = locate(p, m->accessories[i].path, s, what, " (left out)", &p->accessory_states[i]);
    }
    find_media(p, s);
}

static char *dir_of(const char *path)
{
    char buf[PATH_MAX];
    if (mmd_texpath_model_dir(path, buf, sizeof buf) != 0)
        return NULL;
    return dup_str(buf);
}

/* err's sentence with the file and place in front ("path: offset 0x..., section: what"). */
static mmd_status located(mmd_error *err, mmd_status st, const char *path)
{
    char buf[sizeof err->msg];
    mmd_error_format(err, path, buf, sizeof buf);
    return mmd_fail(err, st, "%s", buf);
}

mmd_status mmd_project_load(const char *path, const mmd_project_search *search, mmd_project **out, mmd_error *err)
{
    mmd_project *p = calloc(1, sizeof *p);
    void *data = NULL;
    size_t size = 0;
    mmd_error scratch;
    err = err ? err : &scratch;
    if (!p || !(p->path = dup_str(path)) || !(p->dir = dir_of(path))) {
        mmd_project_free(p);
        return mmd_fail(err, MMD_E_NOMEM, "%s: out of memory", path);
    }
    mmd_status st = mmd_file_read(path, &data, &size, err);
    if (st != MMD_OK) {
        mmd_project_free(p);
        return located(err, st, path);
    }
    v1_ctx v1 = {p, search, {0}, 0, NULL, NULL};
    mmd_pmm_options opts = {v1_model, &v1};
    st = mmd_pmm_load(data, size, &opts, &p->pmm, err);
    free(data);
    for (int i = 0; i < v1.count; i++)
        mmd_model_free(v1.models[i]);
    free(v1.names);
    free(v1.iks);
    if (st != MMD_OK) {
        mmd_project_free(p);
        return located(err, st, path);
    }
    find_files(p, search);
    read_emm(p, search);
    if (p->pmm->dangling_links)
        warn(p, "%u key track(s) link to a key that does not exist; each ends there, as in MikuMikuDance",
             p->pmm->dangling_links);
    if (p->pmm->warnings)
        warn(p, "%u key(s) or name(s) in the project were unreachable or damaged and are left out", p->pmm->warnings);
    *out = p;
    return MMD_OK;
}

void mmd_project_free(mmd_project *p)
{
    if (!p)
        return;
    for (uint32_t i = 0; p->pmm && p->model_files && i < p->pmm->model_count; i++)
        free(p->model_files[i]);
    for (uint32_t i = 0; p->pmm && p->accessory_files && i < p->pmm->accessory_count; i++)
        free(p->accessory_files[i]);
    for (size_t i = 0; i < p->effect_count; i++) {
        free(p->effects[i].object);
        free(p->effects[i].file);
        free(p->effects[i].found);
    }
    for (size_t i = 0; i < p->warning_count; i++)
        free(p->warnings[i]);
    free(p->effects);
    free(p->warnings);
    free(p->model_files);
    free(p->accessory_files);
    free(p->model_states);
    free(p->accessory_states);
    free(p->audio_file);
    free(p->image_file);
    free(p->video_file);
    free(p->emm_file);
    free(p->path);
    free(p->dir);
    mmd_pmm_free(p->pmm);
    free(p);
}

bool mmd_project_effect_is_material(const mmd_project_effect *e, const char *prefix, uint32_t n)
{
    uint32_t number;
    int64_t material;
    return e->material >= 0 && mmd_mme_assign_key(e->object, prefix, &number, &material) && number == n;
}

const char *mmd_project_effect_of(const mmd_project *p, const char *prefix, uint32_t n)
{
    char key[32];
    snprintf(key, sizeof key, "%s%u", prefix, n);
    for (size_t i = p->effect_count; i-- > 0;) /* the last line of a key wins, as an INI reader's */
        if (p->effects[i].main && !strcasecmp(p->effects[i].object, key))
            return p->effects[i].found;
    return NULL;
}

bool mmd_project_is_pmm(const char *path)
{
    FILE *f = mmd_file_fopen_regular(path, NULL); /* a FIFO must not block the sniff */
    char sig[20];
    const mmd_sniff_row *k = f && fread(sig, 1, sizeof sig, f) == sizeof sig ? mmd_sniff(sig, sizeof sig) : NULL;
    bool yes = k && k->id == MMD_FILE_PMM;
    if (f)
        fclose(f);
    return yes;
}

void mmd_project_range(const mmd_project *p, int64_t *first, int64_t *last)
{
    const mmd_pmm *m = p->pmm;
    uint32_t hi = 0;
    for (uint32_t i = 0; i < m->model_count; i++) {
        if (!p->model_files[i])
            continue;
        for (uint32_t b = 0; b < m->models[i].bone_count; b++)
            hi = hi > m->models[i].bones[b].keys[m->models[i].bones[b].key_count - 1].frame ? hi : m->models[i].bones[b].keys[m->models[i].bones[b].key_count - 1].frame;
        for (uint32_t b = 0; b < m->models[i].morph_count; b++)
            hi = hi > m->models[i].morphs[b].keys[m->models[i].morphs[b].key_count - 1].frame ? hi : m->models[i].morphs[b].keys[m->models[i].morphs[b].key_count - 1].frame;
    }
    uint32_t cam = m->camera_keys[m->camera_key_count - 1].frame;
    hi = hi > cam ? hi : cam;
    *first = m->begin_enabled && m->begin_frame > 0 ? m->begin_frame : 0;
    *last = m->end_enabled && m->end_frame > *first ? m->end_frame : (int64_t)hi;
    if (*last < *first)
        *last = *first;
}
