/* renderer/cli/cmd_info_project.c - `mmdrender info PROJECT.pmm [--json]
 * [--asset-root DIR]...`: a project's settings, its models and accessories
 * with their files found or missing, key counts per kind, effects.
 * The JSON keys are a contract (docs/projects.md). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "renderer/base/msg.h"
#include "renderer/cli/commands.h"
#include "renderer/cli/json_out.h"
#include "renderer/scene/effect_file.h"
#include "renderer/scene/project.h"
#include "renderer/scene/scene.h"

static const char *physics_name(uint8_t m)
{
    static const char *const names[4] = {"off", "always", "playing", "trace"};
    return m < 4 ? names[m] : "off";
}

typedef struct model_counts {
    uint32_t bone_keys, bone_tracks, morph_keys, morph_tracks, outside_parent_keys;
} model_counts;

/* Keys beyond each track's initial key; tracks with any such key. */
static model_counts count_model(const mmd_pmm_model *m)
{
    model_counts c = {0};
    for (uint32_t i = 0; i < m->bone_count; i++) {
        c.bone_keys += m->bones[i].key_count;
        c.bone_tracks += m->bones[i].key_count > 1;
    }
    for (uint32_t i = 0; i < m->morph_count; i++) {
        c.morph_keys += m->morphs[i].key_count;
        c.morph_tracks += m->morphs[i].key_count > 1;
    }
    for (uint32_t k = 0; k < m->key_count; k++)
        for (uint32_t o = 0; m->keys[k].parents && o < m->op_count; o++)
            c.outside_parent_keys += m->keys[k].parents[o].model != -1;
    return c;
}

static uint32_t follow_keys(const mmd_pmm *p)
{
    uint32_t n = 0;
    for (uint32_t i = 0; i < p->camera_key_count; i++)
        n += p->camera_keys[i].look_at.model >= 0;
    return n;
}

/* A file's status: none (not named or not enabled), found, missing or refused
 * (outside the project's folder and the asset roots, or a name a scene cannot
 * hold: project.h); upper case for the text form's MISSING and REFUSED. */
static const char *file_status(const char *stored, mmd_project_file_state state, bool enabled, bool text)
{
    if (!enabled || !stored || !*stored)
        return "none";
    if (state == MMD_PROJECT_FILE_FOUND)
        return "found";
    if (state == MMD_PROJECT_FILE_REFUSED)
        return text ? "REFUSED" : "refused";
    return text ? "MISSING" : "missing";
}

/* "key":{"path","status"[,"resolved"] without the closing brace. */
static void json_file_open(FILE *f, const char *key, const char *stored, const char *found,
                           mmd_project_file_state state, bool enabled)
{
    fprintf(f, "\"%s\":{\"path\":", key);
    mmd_json_str(f, stored);
    fprintf(f, ",\"status\":\"%s\"", file_status(stored, state, enabled, false));
    if (found) {
        fprintf(f, ",\"resolved\":");
        mmd_json_str(f, found);
    }
}

/* ,"effect": the found file of the object's .emm line (PmdN, AcsN), or null. */
static void json_effect(FILE *f, const mmd_project *pr, const char *prefix, uint32_t i)
{
    const char *fx = mmd_project_effect_of(pr, prefix, i + 1);
    fprintf(f, ",\"effect\":");
    if (fx)
        mmd_json_str(f, fx);
    else
        fprintf(f, "null");
}

/* Accessory i's effect as a render takes it (the stage's rule): its .emm
 * line's, else MME's file-name rules on its found file; NULL: none. */
static const char *acc_effect(const mmd_project *pr, uint32_t i, char *beside, size_t n, mmd_effect_origin *origin)
{
    const char *fx = mmd_project_effect_of(pr, "Acs", i + 1);
    *origin = MMD_EFFECT_EMM;
    if (fx)
        return fx;
    *origin = pr->accessory_files[i] ? mmd_scene_effect_beside(pr->accessory_files[i], beside, n) : MMD_EFFECT_NONE;
    return *origin != MMD_EFFECT_NONE ? beside : NULL;
}

/* MME's order of an effect file; false when it does not parse (why). */
static bool effect_order(const char *file, mmd_fx_order *order, mmd_error *why)
{
    mmd_fx *fx = NULL;
    if (mmd_effect_file_load(file, &fx, why) != MMD_OK)
        return false;
    *order = mmd_fx_script_order(fx);
    mmd_fx_free(fx);
    return true;
}

/* ,"effect_beside": the effect MME's file-name rules give a render (no .emm line), or
 * null; ,"effect_order": MME's ScriptOrder of the effect a render takes
 * ("postprocess": a post effect, applied), null when none or it does not parse. */
static void json_acc_effect(FILE *f, const mmd_project *pr, uint32_t i)
{
    char beside[4096];
    mmd_effect_origin origin;
    const char *fx = acc_effect(pr, i, beside, sizeof beside, &origin);
    mmd_fx_order order;
    mmd_error why = {0};
    fprintf(f, ",\"effect_beside\":");
    if (mmd_effect_by_file_name(origin))
        mmd_json_str(f, fx);
    else
        fprintf(f, "null");
    fprintf(f, ",\"effect_order\":");
    if (fx && effect_order(fx, &order, &why))
        mmd_json_str(f, mmd_fx_order_name(order));
    else
        fprintf(f, "null");
}

/* "    effect: FILE (where from): what a render does with it". */
static void print_acc_effect(FILE *f, const mmd_project *pr, uint32_t i)
{
    char beside[4096], from[64];
    mmd_effect_origin origin;
    const char *fx = acc_effect(pr, i, beside, sizeof beside, &origin);
    if (!fx)
        return;
    if (origin == MMD_EFFECT_EMM)
        snprintf(from, sizeof from, ".emm Acs%u", i + 1);
    else
        snprintf(from, sizeof from, "%s", mmd_effect_origin_name(origin));
    mmd_fx_order order;
    mmd_error why = {0};
    if (!effect_order(fx, &order, &why))
        mmd_msg_print(f, "    effect: %s (%s): does not parse, not applied: %s\n", fx, from, why.msg);
    else if (order == MMD_FX_ORDER_POSTPROCESS)
        mmd_msg_print(f, "    effect: %s (%s): a post effect, applied over each frame with this accessory as its "
                         "controller\n", fx, from);
    else if (order == MMD_FX_ORDER_PREPROCESS)
        mmd_msg_print(f, "    effect: %s (%s): a preprocess effect, applied before the objects of each frame with "
                         "this accessory as its controller\n", fx, from);
    else
        mmd_msg_print(f, "    effect: %s (%s): ScriptOrder \"%s\", an object effect drawn on its subsets\n", fx, from,
                      mmd_fx_order_name(order));
}

static void json_file(FILE *f, const char *key, const char *stored, const char *found, mmd_project_file_state state,
                      bool enabled)
{
    json_file_open(f, key, stored, found, state, enabled);
    fputc('}', f);
}

/* A background image or video: the file plus MMD's placement. */
static void json_media(FILE *f, const char *key, const char *stored, const char *found, mmd_project_file_state state,
                       bool enabled, const int32_t offset[2], float scale)
{
    json_file_open(f, key, stored, found, state, enabled);
    fprintf(f, ",\"offset\":[%d,%d],\"scale\":%g}", (int)offset[0], (int)offset[1], (double)scale);
}

static void json_models(FILE *f, const mmd_project *pr)
{
    const mmd_pmm *p = pr->pmm;
    fprintf(f, "\"models\":[");
    for (uint32_t i = 0; i < p->model_count; i++) {
        const mmd_pmm_model *m = &p->models[i];
        model_counts c = count_model(m);
        fprintf(f, "%s{\"name\":", i ? "," : "");
        mmd_json_str(f, m->name);
        fprintf(f, ",\"name_en\":");
        mmd_json_str(f, m->name_en);
        fputc(',', f);
        json_file(f, "file", m->path, pr->model_files[i], pr->model_states[i], true);
        json_effect(f, pr, "Pmd", i);
        fprintf(f, ",\"draw_order\":%u,\"calc_order\":%u,\"edge_width\":%g,\"add_blend\":%s,\"self_shadow\":%s,"
                   "\"bones\":%u,\"morphs\":%u,\"ik_bones\":%u,"
                   "\"keys\":{\"bone\":%u,\"bone_tracks\":%u,\"morph\":%u,\"morph_tracks\":%u,\"model\":%u,"
                   "\"outside_parent\":%u}}",
                m->draw_order, m->calc_order, (double)m->look.edge_width, m->look.add_blend ? "true" : "false",
                m->look.self_shadow ? "true" : "false", m->bone_count, m->morph_count, m->ik_count, c.bone_keys,
                c.bone_tracks, c.morph_keys, c.morph_tracks, m->key_count, c.outside_parent_keys);
    }
    fprintf(f, "],\"accessories\":[");
    for (uint32_t i = 0; i < p->accessory_count; i++) {
        const mmd_pmm_accessory *a = &p->accessories[i];
        fprintf(f, "%s{\"name\":", i ? "," : "");
        mmd_json_str(f, a->name);
        fputc(',', f);
        json_file(f, "file", a->path, pr->accessory_files[i], pr->accessory_states[i], true);
        json_effect(f, pr, "Acs", i);
        json_acc_effect(f, pr, i);
        fprintf(f, ",\"draw_order\":%u,\"add_blend\":%s,\"keys\":%u}", a->draw_order, a->add_blend ? "true" : "false",
                a->key_count);
    }
    fputc(']', f);
}

/* The scene the project becomes (mmd_project_scene), as the key table's
 * writer puts it (what export writes, paths relative to the project's folder,
 * no comment line); NULL when it cannot be built, the reason in err. */
static char *scene_text(const mmd_project *pr, mmd_error *err)
{
    mmd_scene *s = NULL;
    char *text = NULL;
    if (mmd_project_scene(pr, &s, err) == MMD_OK)
        mmd_scene_write(s, pr->dir, NULL, &text, NULL, err);
    mmd_scene_free(s);
    return text;
}

static void print_json(FILE *f, const mmd_project *pr)
{
    const mmd_pmm *p = pr->pmm;
    int64_t first, last;
    mmd_project_range(pr, &first, &last);
    fprintf(f, "{\"file\":");
    mmd_json_str(f, pr->path);
    fprintf(f, ",\"format\":\"pmm\",\"version\":%d,\"output\":{\"width\":%d,\"height\":%d,\"fps\":%g,"
               "\"first_frame\":%lld,\"last_frame\":%lld,\"begin_enabled\":%s,\"end_enabled\":%s},",
            p->version, p->width, p->height, (double)p->fps, (long long)first, (long long)last,
            p->begin_enabled ? "true" : "false", p->end_enabled ? "true" : "false");
    json_file(f, "audio", p->audio_path, pr->audio_file, pr->audio_state, p->audio_enabled);
    fputc(',', f);
    json_media(f, "background_image", p->image_path, pr->image_file, pr->image_state, p->image_enabled,
               p->image_offset, p->image_scale);
    fputc(',', f);
    json_media(f, "background_video", p->video_path, pr->video_file, pr->video_state, p->video_enabled,
               p->video_offset, p->video_scale);
    fprintf(f, ",\"render\":{\"black_background\":%s,\"ground_shadow\":%s,\"ground_shadow_brightness\":%g,"
               "\"ground_shadow_translucent\":%s,\"edge_color\":[%g,%g,%g],\"physics\":\"%s\","
               "\"accessories_after_models\":%d},",
            p->black_background ? "true" : "false", p->ground_shadow ? "true" : "false",
            (double)p->ground_shadow_brightness, p->ground_shadow_translucent ? "true" : "false",
            (double)p->edge_color[0], (double)p->edge_color[1], (double)p->edge_color[2], physics_name(p->physics),
            p->accessories_after_models);
    fprintf(f, "\"keys\":{\"camera\":%u,\"camera_follow\":%u,\"light\":%u,\"self_shadow\":%u,\"gravity\":%u},"
               "\"self_shadow\":%s,",
            p->camera_key_count, follow_keys(p), p->light_key_count, p->shadow_key_count, p->gravity_key_count,
            p->self_shadow ? "true" : "false");
    json_models(f, pr);
    fprintf(f, ",\"effects\":{\"file\":");
    if (pr->emm_file)
        mmd_json_str(f, pr->emm_file);
    else
        fprintf(f, "null");
    fprintf(f, ",\"assignments\":[");
    for (size_t i = 0; i < pr->effect_count; i++) {
        fprintf(f, "%s{\"object\":", i ? "," : "");
        mmd_json_str(f, pr->effects[i].object);
        fprintf(f, ",\"file\":");
        mmd_json_str(f, pr->effects[i].file);
        if (pr->effects[i].material >= 0) /* PmdN[k] / AcsN[k] of [Effect]: k; null otherwise */
            fprintf(f, ",\"material\":%lld}", (long long)pr->effects[i].material);
        else
            fprintf(f, ",\"material\":null}");
    }
    fprintf(f, "]},\"warnings\":[");
    for (size_t i = 0; i < pr->warning_count; i++) {
        if (i)
            fputc(',', f);
        mmd_json_str(f, pr->warnings[i]);
    }
    mmd_error err;
    char *scene = scene_text(pr, &err);
    fprintf(f, "],\"scene\":");
    if (scene)
        mmd_json_str(f, scene);
    else
        fprintf(f, "null");
    free(scene);
    fprintf(f, "}\n");
}

static void print_text(FILE *f, const mmd_project *pr)
{
    const mmd_pmm *p = pr->pmm;
    int64_t first, last;
    mmd_project_range(pr, &first, &last);
    mmd_msg_print(f, "%s: MikuMikuDance project (PMM version %d)\n", pr->path, p->version);
    mmd_msg_print(f, "  output: %dx%d, %g fps, frames %lld-%lld%s\n", p->width, p->height, (double)p->fps,
                  (long long)first, (long long)last, p->begin_enabled || p->end_enabled ? " (begin/end set)" : "");
    mmd_msg_print(f, "  audio: %s [%s]\n", p->audio_path,
                  file_status(p->audio_path, pr->audio_state, p->audio_enabled, true));
    mmd_msg_print(f, "  background: %s; image %s [%s]; video %s [%s]\n", p->black_background ? "black" : "white",
                  p->image_path, file_status(p->image_path, pr->image_state, p->image_enabled, true), p->video_path,
                  file_status(p->video_path, pr->video_state, p->video_enabled, true));
    mmd_msg_print(f, "  ground shadow: %s (brightness %g%s); edge colour %g %g %g; physics: %s\n",
                  p->ground_shadow ? "on" : "off", (double)p->ground_shadow_brightness,
                  p->ground_shadow_translucent ? ", translucent" : "", (double)p->edge_color[0],
                  (double)p->edge_color[1], (double)p->edge_color[2], physics_name(p->physics));
    mmd_msg_print(f, "  keys: camera %u (following a bone: %u), light %u, self-shadow %u (%s), gravity %u\n",
                  p->camera_key_count, follow_keys(p), p->light_key_count, p->shadow_key_count,
                  p->self_shadow ? "on" : "off", p->gravity_key_count);
    for (uint32_t i = 0; i < p->model_count; i++) {
        const mmd_pmm_model *m = &p->models[i];
        model_counts c = count_model(m);
        mmd_msg_print(f, "  model %u: %s  %s [%s]\n", i + 1, m->name, m->path,
                      file_status(m->path, pr->model_states[i], true, true));
        if (mmd_project_effect_of(pr, "Pmd", i + 1))
            mmd_msg_print(f, "    effect: %s (.emm Pmd%u)\n", mmd_project_effect_of(pr, "Pmd", i + 1),
                          i + 1);
        mmd_msg_print(f, "    draw %u, calculation %u, edge %g, add-blend %s, self-shadow %s\n", m->draw_order,
                      m->calc_order, (double)m->look.edge_width, m->look.add_blend ? "on" : "off",
                      m->look.self_shadow ? "on" : "off");
        mmd_msg_print(f, "    keys: bone %u (%u tracks animated of %u), morph %u (%u of %u), model %u, "
                         "outside parents %u\n",
                      c.bone_keys, c.bone_tracks, m->bone_count, c.morph_keys, c.morph_tracks, m->morph_count,
                      m->key_count, c.outside_parent_keys);
    }
    for (uint32_t i = 0; i < p->accessory_count; i++) {
        mmd_msg_print(f, "  accessory %u: %s  %s [%s], %u keys\n", i + 1, p->accessories[i].name,
                      p->accessories[i].path, file_status(p->accessories[i].path, pr->accessory_states[i], true, true),
                      p->accessories[i].key_count);
        print_acc_effect(f, pr, i);
    }
    if (pr->emm_file)
        mmd_msg_print(f, "  effects (%s: [Effect]'s PmdN and AcsN become the objects' effect; an accessory's post "
                         "effect is applied over the frame, the others on the objects):\n",
                      pr->emm_file);
    for (size_t i = 0; i < pr->effect_count; i++)
        mmd_msg_print(f, "    %s = %s\n", pr->effects[i].object, pr->effects[i].file);
    for (size_t i = 0; i < pr->warning_count; i++)
        mmd_msg_print(f, "  warning: %s\n", pr->warnings[i]);
    mmd_error err;
    char *scene = scene_text(pr, &err);
    if (!scene) {
        mmd_msg_print(f, "  as a scene: not available: %s\n", err.msg);
        return;
    }
    mmd_msg_print(f, "  as a scene (what export writes; paths relative to the project's folder):\n");
    for (char *line = strtok(scene, "\n"); line; line = strtok(NULL, "\n"))
        mmd_msg_print(f, "    %s\n", line);
    free(scene);
}

int mmd_cmd_info_project(int argc, char **argv)
{
    static const char usage[] =
        "usage: mmdrender info PROJECT.pmm [--json] [--asset-root DIR]... [--allow-outside-assets]\n";
    const char *path = NULL;
    mmd_project_search search = {{0}, 0, false};
    bool json = false;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (!strcmp(a, "--json")) {
            json = true;
        } else if (!strcmp(a, "--allow-outside-assets")) {
            search.allow_outside = true;
        } else if (!strcmp(a, "--asset-root") && i + 1 < argc && search.root_count < MMD_PROJECT_MAX_ROOTS) {
            search.roots[search.root_count++] = argv[++i];
        } else if (a[0] == '-' || path) {
            fputs(usage, stderr);
            return MMD_EXIT_USAGE;
        } else {
            path = a;
        }
    }
    if (!path) {
        fputs(usage, stderr);
        return MMD_EXIT_USAGE;
    }
    mmd_error err;
    mmd_project *p = NULL;
    if (mmd_project_load(path, &search, &p, &err) != MMD_OK) {
        mmd_msg_print(stderr, "mmdrender: %s\n", err.msg);
        return MMD_EXIT_INPUT;
    }
    if (json)
        print_json(stdout, p);
    else
        print_text(stdout, p);
    mmd_project_free(p);
    return MMD_EXIT_OK;
}
