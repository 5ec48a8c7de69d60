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
} emd_state;

static void emd_line(void *user, const char *section, const char *key, const char *value)
{
    emd_state *st = user;
    if (!st->found && !strcasecmp(section, "Effect") && !strcasecmp(key, "Obj")) /* Obj[k]: a material's */
        st->found = snprintf(st->obj, sizeof st->obj, "%s", value) < (int)sizeof st->obj;
}

mmd_effect_origin mmd_scene_effect_beside(const char *file, char *out, size_t cap)
{
    char dir[PATH_MAX], name[PATH_MAX];
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
    char emd[PATH_MAX];
    snprintf(name, sizeof name, "%.*s.emd", (int)stem, base);
    emd_state st = {.found = false};
    if (find_in(dir, name, emd, sizeof emd) && mmd_mme_assign_read(emd, emd_line, &st) && st.found)
        return strcasecmp(st.obj, "none") && find_in(dir, st.obj, out, cap) ? MMD_EFFECT_EMD : MMD_EFFECT_NONE;
    snprintf(name, sizeof name, "%.*s.fx", (int)stem, base);
    return find_in(dir, name, out, cap) ? MMD_EFFECT_BESIDE : MMD_EFFECT_NONE;
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
