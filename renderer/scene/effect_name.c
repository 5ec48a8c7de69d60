/* renderer/scene/effect_name.c - MME's file-name rules for a model's or an
 * accessory's effect (scene.h mmd_scene_effect_beside; docs/effects.md "Where
 * effects come from"): the effect named in brackets in the file's own name,
 * the model's .emd assignment file, the same-named .fx. Each name is found
 * in the file's folder in any letter case, as MME finds it on Windows, and
 * none may leave that folder. */
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "core/file.h"
#include "renderer/image/texpath.h"
#include "renderer/scene/mme_assign.h"
#include "renderer/scene/scene.h"

/* rel (in dir, any letter case, '\' or '/') as a regular file into out. */
static bool find_in(const char *dir, const char *rel, char *out, size_t cap)
{
    char found[PATH_MAX];
    if (mmd_texpath_resolve(dir, rel, false, found, sizeof found, NULL) != MMD_OK || strlen(found) >= cap ||
        mmd_file_check_regular(found, NULL) != MMD_OK)
        return false;
    memcpy(out, found, strlen(found) + 1);
    return true;
}

/* "NAME[EFFECT.fx].ext": EFFECT.fx, as MME's readme texts name the rule
 * ("XXXXX[Ninja_Line.fx].pmd"); false when the name has no such part. */
static bool bracket_name(const char *base, char *out, size_t cap)
{
    const char *dot = strrchr(base, '.');
    if (!dot || dot == base || dot[-1] != ']')
        return false;
    const char *open = NULL;
    for (const char *p = base; p < dot - 1; p++)
        if (*p == '[')
            open = p;
    size_t n = open ? (size_t)(dot - 1 - open - 1) : 0;
    if (n < 4 || n >= cap || strncasecmp(dot - 4, ".fx]", 4))
        return false;
    memcpy(out, open + 1, n);
    out[n] = '\0';
    return true;
}

typedef struct emd_state {
    char obj[PATH_MAX];
    bool found;
    const char *dir;              /* the model's folder (materials) */
    mmd_scene_material_fn fn;     /* NULL: Obj only */
    void *user;
} emd_state;

static void emd_line(void *user, const char *section, const char *key, const char *value)
{
    emd_state *st = user;
    uint32_t n;
    int64_t material;
    if (strcasecmp(section, "Effect") || !mmd_mme_assign_key(key, "Obj", &n, &material) || n != 0)
        return;
    if (material < 0 && !st->found)
        st->found = snprintf(st->obj, sizeof st->obj, "%s", value) < (int)sizeof st->obj;
    char found[PATH_MAX];
    if (material >= 0 && st->fn && !strcasecmp(value, "none"))
        st->fn(st->user, (uint32_t)material, NULL);
    else if (material >= 0 && st->fn && find_in(st->dir, value, found, sizeof found))
        st->fn(st->user, (uint32_t)material, found);
}

/* The file's folder and NAME.emd found in it (any letter case). */
static bool emd_of(const char *file, char dir[PATH_MAX], char emd[PATH_MAX])
{
    char name[PATH_MAX];
    if (mmd_texpath_model_dir(file, dir, PATH_MAX) != 0)
        return false;
    const char *slash = strrchr(file, '/');
    const char *base = slash ? slash + 1 : file;
    const char *dot = strrchr(base, '.');
    size_t stem = dot && dot > base ? (size_t)(dot - base) : strlen(base);
    if (stem + 5 > sizeof name)
        return false;
    snprintf(name, sizeof name, "%.*s.emd", (int)stem, base);
    return find_in(dir, name, emd, PATH_MAX);
}

mmd_effect_origin mmd_scene_effect_beside(const char *file, char *out, size_t cap)
{
    char dir[PATH_MAX], name[PATH_MAX], emd[PATH_MAX];
    if (mmd_texpath_model_dir(file, dir, sizeof dir) != 0)
        return MMD_EFFECT_NONE;
    const char *slash = strrchr(file, '/');
    const char *base = slash ? slash + 1 : file;
    if (bracket_name(base, name, sizeof name) && find_in(dir, name, out, cap))
        return MMD_EFFECT_NAME;
    const char *dot = strrchr(base, '.');
    size_t stem = dot && dot > base ? (size_t)(dot - base) : strlen(base);
    if (stem + 5 > sizeof name)
        return MMD_EFFECT_NONE;
    emd_state st = {.found = false};
    if (emd_of(file, dir, emd) && mmd_mme_assign_read(emd, emd_line, &st) && st.found)
        return strcasecmp(st.obj, "none") && find_in(dir, st.obj, out, cap) ? MMD_EFFECT_EMD : MMD_EFFECT_NONE;
    snprintf(name, sizeof name, "%.*s.fx", (int)stem, base);
    return find_in(dir, name, out, cap) ? MMD_EFFECT_BESIDE : MMD_EFFECT_NONE;
}

void mmd_scene_emd_materials(const char *file, mmd_scene_material_fn fn, void *user)
{
    char dir[PATH_MAX], emd[PATH_MAX];
    emd_state st = {.found = false, .dir = dir, .fn = fn, .user = user};
    if (emd_of(file, dir, emd))
        mmd_mme_assign_read(emd, emd_line, &st);
}

const char *mmd_effect_origin_name(mmd_effect_origin origin)
{
    switch (origin) {
    case MMD_EFFECT_SCENE: return "scene.ini";
    case MMD_EFFECT_EMM: return "project .emm";
    case MMD_EFFECT_BESIDE: return "same-named .fx beside the file";
    case MMD_EFFECT_NAME: return "[EFFECT.fx] in the file's name";
    case MMD_EFFECT_EMD: return "the file's .emd";
    case MMD_EFFECT_NONE: break;
    }
    return "none";
}
