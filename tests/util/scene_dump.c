/* tests/util/scene_dump.c - every value of a scene as text (scene_dump.h). */
#include "tests/util/scene_dump.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *base(const char *path)
{
    const char *b = strrchr(path, '/');
    return b ? b + 1 : path;
}

static const char *real(const char *path, char buf[PATH_MAX])
{
    return realpath(path, buf) ? buf : path;
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
    fprintf(f, "%dx%d %d/%d %d %lld-%lld aa%d gs%d %.9g %d ec%d %.9g %.9g %.9g bg %.9g %.9g %.9g %d\n", s->width,
            s->height, s->fps_num, s->fps_den, s->has_frames, (long long)s->frame_first, (long long)s->frame_last,
            s->antialias, s->ground_shadow, (double)s->ground_shadow_brightness, s->ground_shadow_translucent,
            s->has_edge_color, V3(s->edge_color), V3(s->background), s->transparent);
    char r1[PATH_MAX], r2[PATH_MAX];
    fprintf(f, "cam %s %.9g %.9g %.9g %.9g %.9g %.9g %.9g %.9g %d\n", s->camera_motion ? base(s->camera_motion) : "-",
            V3(s->cam_target), V3(s->cam_rotation), (double)s->cam_distance, (double)s->cam_fov, s->cam_ortho);
    for (int i = 0; i < s->follow_count; i++)
        fprintf(f, "follow %s %s %s %.17g\n", LINK(s->follows[i]));
    fprintf(f, "light %d %d %.9g %.9g %.9g %.9g %.9g %.9g\n", s->has_light_color, s->has_light_direction,
            V3(s->light_color), V3(s->light_direction));
    for (int m = 0; m < s->model_count; m++) {
        const mmd_scene_model *x = &s->models[m];
        fprintf(f, "model '%s' %s %d %.9g %d %d %d %d %.9g %.9g %.9g %.9g %.9g %.9g %.9g\n", x->name, real(x->file, r1),
                x->physics, (double)x->look.edge_width, x->look.add_blend, x->look.self_shadow, x->calc_order,
                x->placed, V3(x->position), V3(x->rotation), (double)x->scale);
        for (int k = 0; k < x->motion_count; k++)
            fprintf(f, " motion %s\n", base(x->motions[k]));
        for (int k = 0; k < x->parent_count; k++)
            fprintf(f, " op %s %s %s %.17g\n", LINK(x->parents[k]));
    }
    for (int a = 0; a < s->accessory_count; a++) {
        const mmd_scene_accessory *x = &s->accessories[a];
        const mmd_accessory_place *p = &x->place;
        fprintf(f, "acc '%s' %s %u %d %s %.9g %.9g %.9g %.9g %.9g %.9g %.9g %.9g %d %d %d %d\n", x->name, real(x->file, r1),
                x->set, x->parent_model, x->parent_bone ? x->parent_bone : "-", V3(p->position), V3(p->rotation),
                (double)p->scale, (double)p->opacity, p->visible, p->shadow, p->add_blend, p->after_models);
        for (int k = 0; k < x->parent_count; k++)
            fprintf(f, " parent %s %s %s %.17g\n", LINK(x->parents[k]));
        for (int k = 0; k < x->key_count; k++) {
            const mmd_accessory_place *q = &x->keys[k].place;
            fprintf(f, " key %.17g %.9g %.9g %.9g %.9g %.9g %.9g %.9g %.9g %d %d\n", x->keys[k].frame,
                    V3(q->position), V3(q->rotation), (double)q->scale, (double)q->opacity, q->visible, q->shadow);
        }
    }
    fprintf(f, "audio %s %.17g\n", s->audio_file ? real(s->audio_file, r1) : "-", s->audio_offset);
    for (int i = 0; i < s->gravity_count; i++)
        fprintf(f, "gravity %.17g %.9g %.9g %.9g %.9g\n", s->gravity[i].frame, (double)s->gravity[i].acceleration,
                V3(s->gravity[i].direction));
    fprintf(f, "bg %s %d %d %.9g %s %d %d %.9g\n", s->bg_image ? real(s->bg_image, r1) : "-", s->bg_offset[0], s->bg_offset[1],
            (double)s->bg_scale, s->bg_video ? real(s->bg_video, r2) : "-", s->bg_video_offset[0], s->bg_video_offset[1],
            (double)s->bg_video_scale);
    const mmd_effects *e = &s->effects;
    fprintf(f, "fx %d %.9g %.9g %d %d %.9g %d %.9g %.9g %d %d\n", e->glow, (double)e->glow_strength,
            (double)e->glow_radius, e->soft_shadow, (int)e->soft_shadow_mode, (double)e->soft_shadow_radius,
            e->diffusion, (double)e->diffusion_strength, (double)e->diffusion_threshold, e->ssaa, e->fxaa);
#undef V3
#undef LINK
    fclose(f);
    return out;
}

