/* tests/util/scene_dump.c - every value of a scene as text (scene_dump.h). */
#include "tests/util/scene_dump.h"

#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "renderer/scene/scene_keys.h"

static const char *base(const char *path)
{
    const char *b = strrchr(path, '/');
    return b ? b + 1 : path;
}

static void material_effects(FILE *f, const mmd_scene_material_effects *l)
{
    for (int k = 0; k < l->count; k++)
        fprintf(f, " material_effect %u %s\n", l->items[k].material,
                l->items[k].effect ? base(l->items[k].effect) : "none");
}

/* Every typed row of the key table (renderer/scene/scene_keys.h) in section
 * for obj: a new key is compared without a line here. Paths by file name (a
 * scene built in memory names its motions only). */
static void rows(FILE *f, int section, const void *obj)
{
    size_t n;
    const mmd_scene_key *k = mmd_scene_keys(&n);
    for (size_t i = 0; i < n; i++) {
        const char *p = (const char *)obj + k[i].offset;
        const float *v = (const float *)p;
        if (k[i].section != section || k[i].type == MMD_KEY_CUSTOM)
            continue;
        fprintf(f, " %s=", k[i].name);
        switch (k[i].type) {
        case MMD_KEY_BOOL: fprintf(f, "%d", *(const bool *)p); break;
        case MMD_KEY_INT: fprintf(f, "%d", *(const int *)p); break;
        case MMD_KEY_FLOAT: fprintf(f, "%.9g", (double)v[0]); break;
        case MMD_KEY_DOUBLE: fprintf(f, "%.17g", *(const double *)p); break;
        case MMD_KEY_VEC3: fprintf(f, "%.9g,%.9g,%.9g", (double)v[0], (double)v[1], (double)v[2]); break;
        case MMD_KEY_OFFSET: fprintf(f, "%d,%d", ((const int *)p)[0], ((const int *)p)[1]); break;
        case MMD_KEY_PATH: fprintf(f, "%s", *(char *const *)p ? base(*(char *const *)p) : "-"); break;
        case MMD_KEY_CUSTOM: break;
        }
    }
    fputc('\n', f);
}

char *mmd_test_scene_dump(const mmd_scene *s)
{
    char *out = NULL;
    size_t n = 0;
    FILE *f = open_memstream(&out, &n);
    if (!f)
        return NULL;
#define V3(v) (double)(v)[0], (double)(v)[1], (double)(v)[2]
#define LINK(l) (l).bone ? (l).bone : "-", (l).model ? (l).model : "none", (l).parent_bone ? (l).parent_bone : "-", (l).frame
    static const int singles[] = {MMD_SEC_OUTPUT, MMD_SEC_CAMERA, MMD_SEC_LIGHT, MMD_SEC_AUDIO, MMD_SEC_BACKGROUND,
                                  MMD_SEC_EFFECTS, MMD_SEC_GRAVITY};
    for (size_t i = 0; i < sizeof singles / sizeof singles[0]; i++) {
        fprintf(f, "[%s]", mmd_scene_section_names[singles[i]]);
        rows(f, singles[i], s);
    }
    /* the custom rows' fields */
    fprintf(f, "%d/%d %d %lld-%lld ec%d %.9g %.9g %.9g bg %.9g %.9g %.9g %d ortho %d\n", s->fps_num, s->fps_den,
            s->has_frames, (long long)s->frame_first, (long long)s->frame_last, s->has_edge_color, V3(s->edge_color),
            V3(s->background), s->transparent, s->cam_ortho);
    for (int i = 0; i < s->follow_count; i++)
        fprintf(f, "follow %s %s %s %.17g\n", LINK(s->follows[i]));
    fprintf(f, "light %d %d %.9g %.9g %.9g %.9g %.9g %.9g\n", s->has_light_color, s->has_light_direction,
            V3(s->light_color), V3(s->light_direction));
    fprintf(f, "soft_shadow %d %d\n", s->effects.soft_shadow, (int)s->effects.soft_shadow_mode);
    for (int k = 0; k < s->post_effect_count; k++)
        fprintf(f, "post %s\n", base(s->post_effects[k]));
    for (int m = 0; m < s->model_count; m++) {
        const mmd_scene_model *x = &s->models[m];
        fprintf(f, "model '%s' placed %d", x->name, x->placed);
        rows(f, MMD_SEC_MODEL, x);
        for (int k = 0; k < x->motion_count; k++)
            fprintf(f, " motion %s\n", base(x->motions[k]));
        for (int k = 0; k < x->parent_count; k++)
            fprintf(f, " op %s %s %s %.17g\n", LINK(x->parents[k]));
        material_effects(f, &x->material_effects);
    }
    for (int a = 0; a < s->accessory_count; a++) {
        const mmd_scene_accessory *x = &s->accessories[a];
        fprintf(f, "acc '%s' %u %d %s", x->name, x->set, x->parent_model, x->parent_bone ? x->parent_bone : "-");
        rows(f, MMD_SEC_ACCESSORY, x);
        for (int k = 0; k < x->parent_count; k++)
            fprintf(f, " parent %s %s %s %.17g\n", LINK(x->parents[k]));
        material_effects(f, &x->material_effects);
        for (int k = 0; k < x->key_count; k++) {
            const mmd_accessory_place *q = &x->keys[k].place;
            fprintf(f, " key %.17g %.9g %.9g %.9g %.9g %.9g %.9g %.9g %.9g %d %d\n", x->keys[k].frame,
                    V3(q->position), V3(q->rotation), (double)q->scale, (double)q->opacity, q->visible, q->shadow);
        }
    }
    for (int i = 0; i < s->gravity_count; i++)
        fprintf(f, "gravity %.17g %.9g %.9g %.9g %.9g\n", s->gravity[i].frame, (double)s->gravity[i].acceleration,
                V3(s->gravity[i].direction));
#undef V3
#undef LINK
    fclose(f);
    return out;
}
