/* tests/unit/test_stage.c - the stage (renderer/scene/stage.h): a scene's
 * motions taken from memory (a project's), and render and `pose --scene`
 * evaluating the same thing: on a scene with an outside parent, a keyed and
 * parented accessory and physics, the stage stepped through a render's plan
 * gives, frame by frame, bit for bit the matrices `pose --scene --physics`
 * prints for those frames. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/pmx_write.h"
#include "core/vmd_write.h"
#include "renderer/cli/commands.h"
#include "renderer/scene/plan.h"
#include "renderer/scene/stage.h"
#include "tests/util/json.h"
#include "tests/util/skirt_fixture.h"
#include "tests/util/test.h"
#include "tests/util/x_fixture.h"

TEST_STATE_DEFINE

static char g_dir[64];
static int g_warnings;

static void count_warning(void *ctx, const char *sentence)
{
    (void)ctx;
    (void)sentence;
    g_warnings++;
}

static void save(const char *name, const void *data, size_t n)
{
    char path[128];
    snprintf(path, sizeof path, "%s/%s", g_dir, name);
    FILE *f = fopen(path, "wb");
    REQUIRE(f && fwrite(data, 1, n, f) == n);
    fclose(f);
}

static void save_model(const char *name, const mmd_model *m)
{
    uint8_t *b = NULL;
    size_t n = 0;
    mmd_error err;
    REQUIRE(mmd_pmx_write(m, &b, &n, &err) == MMD_OK);
    save(name, b, n);
    free(b);
}

static void save_motion(const char *name, const mmd_motion *m)
{
    uint8_t *b = NULL;
    size_t n = 0;
    mmd_error err;
    REQUIRE(mmd_vmd_write(m, &b, &n, &err) == MMD_OK);
    save(name, b, n);
    free(b);
}

static mmd_scene *parse(const char *text, bool check_files)
{
    char path[128];
    snprintf(path, sizeof path, "%s/scene.ini", g_dir);
    mmd_scene *s = NULL;
    mmd_error err;
    if (mmd_scene_parse(text, path, check_files, &s, &err) != MMD_OK)
        printf("#   %s\n", err.msg);
    return s;
}

/* motion_data / camera_motion_data: the stage takes the motion in memory and
 * never opens the file its name gives; mmd_scene_free frees it. */
TEST(motion_data_in_memory)
{
    mmd_model *m = mmd_test_skirt_model();
    REQUIRE(m);
    save_model("skirt.pmx", m);
    mmd_model_free(m);
    mmd_scene *s = parse("[camera]\nmotion = nowhere_cam.vmd\n[model:a]\nfile = skirt.pmx\nmotion = nowhere.vmd\n"
                         "physics = off\n", false);
    REQUIRE(s && s->models[0].motion_count == 1);
    const float up[3] = {0, 7, 0};
    mmd_motion *mo = mmd_motion_new("skirt fixture");
    REQUIRE(mo && mmd_motion_add_bone_key(mo, "センター", 0, up, NULL));
    s->models[0].motion_data[0] = mo;
    mmd_motion *cam = mmd_motion_new("カメラ・照明");
    mmd_camera_key *ck = cam ? mmd_motion_add_camera_key(cam, 0) : NULL;
    REQUIRE(ck);
    ck->distance = -80;
    s->camera_motion_data = cam;
    mmd_stage *st = NULL;
    mmd_error err;
    mmd_stage_options o = {.warn = count_warning};
    REQUIRE(mmd_stage_open(s, &o, &st, &err) == MMD_OK);
    CHECK_EQ_INT(st->files_loaded, 1); /* the model only */
    CHECK_EQ_INT((int)mmd_stage_last_key(st), 0);
    mmd_stage_evaluate(st, 0);
    const float *w = mmd_anim_world(st->anims[0]);
    CHECK_NEAR(w[13], 7, 1e-5); /* センター moved up by the in-memory key */
    mmd_camera_state c;
    mmd_light_state l;
    mmd_shadow_state sh;
    mmd_stage_view(st, 0, &c, &l, &sh);
    CHECK_NEAR(c.distance, -80, 1e-5);
    mmd_stage_free(st);
    mmd_scene_free(s); /* frees mo and cam (ASan: no leak) */
    /* without the data, the named file is opened: and is missing */
    s = parse("[model:a]\nfile = skirt.pmx\nmotion = nowhere.vmd\n", false);
    REQUIRE(s);
    CHECK(mmd_stage_open(s, NULL, &st, &err) == MMD_E_IO);
    CHECK(strstr(err.msg, "nowhere.vmd") != NULL);
    mmd_scene_free(s);
}

/* Two skirts: b hangs from a's leg by an outside parent, both simulate; a box
 * accessory rides a's leg with two keys. */
static void write_linked_scene(void)
{
    mmd_model *m = mmd_test_skirt_model();
    mmd_motion *leg = mmd_test_leg_motion(60, 30);
    REQUIRE(m && leg);
    save_model("skirt.pmx", m);
    save_motion("leg.vmd", leg);
    mmd_model_free(m);
    mmd_motion_free(leg);
    mmd_xmesh *x = x_fixture_box(0, 0.5f, 0, 0.5f, 0.5f, 0.5f);
    size_t n = 0;
    uint8_t *xb = x_fixture_bytes(x, MMD_X_TEXT, 32, true, NULL, &n);
    save("box.x", xb, n);
    free(xb);
    mmd_x_free(x);
    const char *ini = "[output]\nsize = 64x36\nframes = 0-40\n"
                      "[model:a]\nfile = skirt.pmx\nmotion = leg.vmd\n"
                      "[model:b]\nfile = skirt.pmx\noutside_parent = センター -> a:leg @0\n"
                      "[accessory:box]\nfile = box.x\nparent = a:leg\n"
                      "key = 0 0 0 0 0 0 0 1 1 on on\nkey = 30 0 -5 2 0 90 0 2 0.5 on on\n"
                      "[gravity]\nkey = 20 9.8 1 -1 0\n";
    save("linked.ini", ini, strlen(ini));
}

/* pose --scene's JSON for frames 0..last (stdout captured into a file). */
static json_value *pose_json(const char *scene, int last)
{
    char out[128];
    snprintf(out, sizeof out, "%s/pose.json", g_dir);
    double *frames = malloc(sizeof *frames * (size_t)(last + 1));
    REQUIRE(frames);
    for (int f = 0; f <= last; f++)
        frames[f] = f;
    fflush(stdout);
    int saved = dup(1);
    REQUIRE(saved >= 0 && freopen(out, "w", stdout));
    int rc = mmd_pose_scene(scene, frames, (size_t)last + 1, true, false);
    fflush(stdout);
    dup2(saved, 1);
    close(saved);
    free(frames);
    CHECK_EQ_INT(rc, 0);
    return json_read_file(out);
}

/* Frame k of the JSON against the stage's state: every bone of every model and
 * the accessory's world, exactly (%.9g gives a float back bit for bit). */
static int compare_frame(const json_value *frame, const mmd_stage *st)
{
    int bad = 0;
    const json_value *models = json_get(frame, "models");
    for (int i = 0; i < st->scene->model_count; i++) {
        const json_value *world = json_get(json_at(models, (size_t)i), "world");
        const float *w = mmd_anim_world(st->anims[i]);
        for (uint32_t b = 0; b < st->models[i]->bone_count; b++)
            for (int c = 0; c < 16; c++)
                bad += (float)json_num(json_at(json_at(world, b), (size_t)c)) != w[16 * b + c];
    }
    const mmd_render_accessory *ra = &st->acc.place[0];
    float aw[16];
    mmd_accessory_world(&ra->place, mmd_anim_world(st->anims[ra->parent_slot]) + 16 * ra->parent_bone, aw);
    const json_value *acc = json_get(json_at(json_get(frame, "accessories"), 0), "world");
    for (int c = 0; c < 16; c++)
        bad += (float)json_num(json_at(acc, (size_t)c)) != aw[c];
    return bad;
}

TEST(render_and_pose_scene_agree)
{
    write_linked_scene();
    char path[128];
    snprintf(path, sizeof path, "%s/linked.ini", g_dir);
    const int last = 40;
    json_value *doc = pose_json(path, last);
    REQUIRE(doc);
    mmd_scene *s = NULL;
    mmd_error err;
    REQUIRE(mmd_scene_load_file(path, &s, &err) == MMD_OK);
    mmd_stage *st = NULL, *still = NULL;
    mmd_stage_options o = {.warn = count_warning};
    REQUIRE(mmd_stage_open(s, &o, &st, &err) == MMD_OK);
    CHECK(mmd_stage_simulates(st) && st->physics[0] && st->physics[1]);
    CHECK_EQ_INT(st->files_loaded, 2); /* skirt.pmx once for both models, leg.vmd */
    CHECK(st->models[0] == st->models[1]);
    /* the render's plan and loop (cmd_render.c plan_input, render_loop.c run_frames) */
    mmd_plan_input in = {.has_frames = s->has_frames, .frame_first = s->frame_first, .frame_last = s->frame_last,
                         .step = 1, .fps_num = s->fps_num, .fps_den = s->fps_den, .chunk_count = 1,
                         .last_key = mmd_stage_last_key(st), .physics = mmd_stage_evaluates_in_order(st)};
    mmd_render_plan p;
    REQUIRE(mmd_render_plan_make(&in, &p) && p.physics && p.sim_begin == 0 && p.end == last);
    mmd_stage_preroll(st, p.preroll_time);
    const json_value *frames = json_get(doc, "frames");
    REQUIRE(json_len(frames) == (size_t)last + 1);
    int bad = 0;
    float acc0[16], tip_moved = 0;
    for (int64_t f = p.sim_begin; f <= p.end; f++) {
        mmd_stage_evaluate(st, mmd_plan_time(&p, f));
        bad += compare_frame(json_at(frames, (size_t)f), st);
        const mmd_render_accessory *ra = &st->acc.place[0];
        float aw[16];
        mmd_accessory_world(&ra->place, mmd_anim_world(st->anims[0]) + 16 * ra->parent_bone, aw);
        if (f == 0)
            memcpy(acc0, aw, sizeof aw);
        if (f == 20)
            CHECK(memcmp(acc0, aw, sizeof aw) != 0); /* keyed and parented: it moves */
    }
    CHECK_EQ_INT(bad, 0);
    /* the same scene without physics poses b's skirt elsewhere: the comparison above saw physics */
    mmd_stage_options np = {.no_physics = true};
    REQUIRE(mmd_stage_open(s, &np, &still, &err) == MMD_OK);
    for (int64_t f = 0; f <= last; f++)
        mmd_stage_evaluate(still, (double)f);
    const float *a = mmd_anim_world(st->anims[1]) + 16 * 3, *b = mmd_anim_world(still->anims[1]) + 16 * 3;
    for (int c = 12; c < 15; c++)
        tip_moved += (a[c] - b[c]) * (a[c] - b[c]);
    printf("#   b's skirt tip at frame %d: %.3f units from where it hangs without physics\n", last,
           (double)sqrtf(tip_moved));
    CHECK(tip_moved > 0.01f);
    /* b follows a's leg (outside parent): b's centre is a's leg bone */
    const float *bc = mmd_anim_world(st->anims[1]), *al = mmd_anim_world(st->anims[0]) + 16;
    CHECK_NEAR(bc[13], al[13], 1e-4);
    mmd_stage_free(still);
    mmd_stage_free(st);
    mmd_scene_free(s);
    json_free(doc);
}

/* An error names the file and the line, and nothing is left half open. */
TEST(errors_name_the_place)
{
    mmd_scene *s = parse("[model:a]\nfile = skirt.pmx\n[model:b]\nfile = skirt.pmx\n"
                         "outside_parent = nobone -> a:leg\n", true);
    REQUIRE(s);
    mmd_stage *st = NULL;
    mmd_error err;
    CHECK(mmd_stage_open(s, NULL, &st, &err) == MMD_E_BAD_VALUE);
    CHECK(strstr(err.msg, "scene.ini:5: model 'b' has no bone 'nobone'") != NULL);
    CHECK(st == NULL);
    mmd_scene_free(s);
}

/* Each drawable's effect with its origin: the scene's key, else MME's
 * same-named .fx beside the model (Skirt.FX beside skirt.pmx: Windows' letter
 * case); one warning per effect, naming it and where it came from. */
static char g_last[512], g_all[4096];
static void keep_warning(void *ctx, const char *sentence)
{
    (void)ctx;
    g_warnings++;
    if (strstr(sentence, "effect"))
        snprintf(g_last, sizeof g_last, "%s", sentence);
    size_t n = strlen(g_all);
    snprintf(g_all + n, sizeof g_all - n, "%s\n", sentence);
}

TEST(effects_and_their_origin)
{
    mmd_model *m = mmd_test_skirt_model();
    REQUIRE(m);
    save_model("skirt.pmx", m);
    save_model("plain.pmx", m);
    mmd_model_free(m);
    save("Skirt.FX", "technique T { }\n", 16);
    save("own.fx", "technique T { }\n", 16);
    mmd_scene *s = parse("[model:a]\nfile = skirt.pmx\nphysics = off\n[model:b]\nfile = skirt.pmx\neffect = own.fx\n"
                         "physics = off\n[model:c]\nfile = plain.pmx\nphysics = off\n", true);
    REQUIRE(s);
    mmd_stage *st = NULL;
    mmd_error err;
    g_warnings = 0;
    mmd_stage_options o = {.warn = keep_warning};
    REQUIRE(mmd_stage_open(s, &o, &st, &err) == MMD_OK);
    char want[160];
    snprintf(want, sizeof want, "%s/Skirt.FX", g_dir);
    CHECK_STR(st->model_effects[0].file ? st->model_effects[0].file : "", want);
    CHECK(st->model_effects[0].origin == MMD_EFFECT_BESIDE);
    snprintf(want, sizeof want, "%s/own.fx", g_dir);
    CHECK_STR(st->model_effects[1].file ? st->model_effects[1].file : "", want); /* the key wins */
    CHECK(st->model_effects[1].origin == MMD_EFFECT_SCENE);
    CHECK(st->model_effects[2].file == NULL && st->model_effects[2].origin == MMD_EFFECT_NONE);
    CHECK_EQ_INT(g_warnings, 0); /* a model's effect is the render's to apply (render_fx_object.c) */
    mmd_stage_free(st);
    mmd_scene_free(s);
}

/* An accessory's effect is parsed once by the stage and classified by MME's
 * ScriptOrder: a post effect (same-named .fx here) and an object effect are
 * kept for the render with no warning, a preprocess one too (the render
 * runs it before the objects); one that does not parse keeps one "not
 * applied" warning, saying why. */
TEST(accessory_effects_classified)
{
    static const char tri[] = "xof 0302txt 0064\nMesh {\n3;\n0;0;0;,\n0;0;0;,\n0;0;0;;\n1;\n3;0,1,2;;\n}\n";
    static const char post[] = "float Script : STANDARDSGLOBAL < string ScriptClass = \"scene\";\n"
                               "    string ScriptOrder = \"postprocess\"; > = 0.8;\ntechnique T { }\n";
    static const char pre[] = "float Script : STANDARDSGLOBAL < string ScriptClass = \"scene\";\n"
                              "    string ScriptOrder = \"preprocess\"; > = 0.8;\ntechnique T { }\n";
    static const char *const xs[] = {"post.x", "obj.x", "pre.x", "bad.x"};
    for (int i = 0; i < 4; i++)
        save(xs[i], tri, sizeof tri - 1);
    save("post.fx", post, sizeof post - 1);
    save("obj_fx.fx", "technique T { }\n", 16);
    save("pre_fx.fx", pre, sizeof pre - 1);
    save("bad_fx.fx", "float x = ;\n", 12);
    mmd_model *m = mmd_test_skirt_model();
    REQUIRE(m);
    save_model("plain.pmx", m);
    mmd_model_free(m);
    mmd_scene *s = parse("[model]\nfile = plain.pmx\nphysics = off\n[accessory:p]\nfile = post.x\n[accessory:o]\nfile = obj.x\neffect = obj_fx.fx\n"
                         "[accessory:r]\nfile = pre.x\neffect = pre_fx.fx\n[accessory:b]\nfile = bad.x\n"
                         "effect = bad_fx.fx\n", true);
    REQUIRE(s);
    mmd_stage *st = NULL;
    mmd_error err;
    g_warnings = 0;
    g_all[0] = 0;
    mmd_stage_options o = {.warn = keep_warning};
    REQUIRE(mmd_stage_open(s, &o, &st, &err) == MMD_OK);
    const mmd_stage_effect *e = st->acc_effects;
    CHECK(e[0].origin == MMD_EFFECT_BESIDE && e[0].fx && e[0].order == MMD_FX_ORDER_POSTPROCESS && !e[0].error);
    CHECK(e[1].fx && e[1].order == MMD_FX_ORDER_STANDARD && !e[1].error);
    CHECK(e[2].fx && e[2].order == MMD_FX_ORDER_PREPROCESS);
    CHECK(!e[3].fx && e[3].error && strstr(e[3].error, "bad_fx.fx:1:"));
    CHECK_EQ_INT(g_warnings, 1);
    CHECK(!strstr(g_all, "accessory 'p'"));
    CHECK(!strstr(g_all, "accessory 'o'")); /* an object effect: the render draws it on the subsets */
    CHECK(!strstr(g_all, "accessory 'r'"));
    CHECK(strstr(g_all, "accessory 'b': effect ") && strstr(g_all, "is not applied: ") && strstr(g_all, "bad_fx.fx:1:"));
    mmd_stage_free(st);
    mmd_scene_free(s);
}

int main(void)
{
    snprintf(g_dir, sizeof g_dir, "/tmp/mmd_stage_XXXXXX");
    if (!mkdtemp(g_dir))
        return 1;
    RUN(motion_data_in_memory);
    RUN(render_and_pose_scene_agree);
    RUN(errors_name_the_place);
    RUN(effects_and_their_origin);
    RUN(accessory_effects_classified);
    char cmd[128];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", g_dir);
    if (system(cmd) != 0)
        printf("#   could not remove %s\n", g_dir);
    return test_finish();
}
