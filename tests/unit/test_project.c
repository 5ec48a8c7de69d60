/* tests/unit/test_project.c - a project (.pmm) exported and its scene parsed back
 * gives the project's values (a render of a .pmm is that round trip:
 * renderer/cli/cmd_project.c); names a scene line cannot hold are never written
 * (issue 24); export writes nothing when an output is an input. */
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/pmm.h"
#include "renderer/scene/project.h"
#include "renderer/scene/scene.h"
#include "tests/util/scene_dump.h"
#include "tests/util/test.h"

TEST_STATE_DEFINE

static char root[64]; /* /tmp/test_project_XXXXXX: proj/ (the project, exported into itself), assets/ */

static void put(const char *rel, const char *text)
{
    char p[PATH_MAX];
    snprintf(p, sizeof p, "%s/%s", root, rel);
    FILE *f = fopen(p, "wb");
    if (f) {
        fputs(text, f);
        fclose(f);
    }
}

static void mkd(const char *rel)
{
    char p[PATH_MAX];
    snprintf(p, sizeof p, "%s/%s", root, rel);
    mkdir(p, 0755);
}

/* Do a and b name the same file (their real paths equal)? */
static bool same_real(const char *a, const char *b)
{
    char ra[PATH_MAX], rb[PATH_MAX];
    return a && b && realpath(a, ra) && realpath(b, rb) && !strcmp(ra, rb);
}

static int save_pmm(mmd_pmm *p, const char *rel)
{
    uint8_t *buf = NULL;
    size_t n = 0;
    mmd_error err;
    char path[PATH_MAX];
    snprintf(path, sizeof path, "%s/%s", root, rel);
    FILE *f = mmd_pmm_write(p, &buf, &n, &err) == MMD_OK ? fopen(path, "wb") : NULL;
    int rc = f && fwrite(buf, 1, n, f) == n ? 0 : -1;
    if (f)
        fclose(f);
    free(buf);
    mmd_pmm_free(p);
    return rc;
}

static const char *const DANCER[3] = {"センター", "右腕", "右手首"};
static const char *const FAN[1] = {"センター"};

/* Every kind of value export carries, files under the asset root (UserFile\),
 * in the project folder, and one whose relative name starts with a space. */
static mmd_pmm *round_trip_project(void)
{
    static const int32_t op[2] = {-1, 0};
    mmd_pmm *p = mmd_pmm_new();
    p->width = 320, p->height = 240, p->fps = 60;
    p->begin_enabled = p->end_enabled = true, p->begin_frame = 10, p->end_frame = 50;
    p->black_background = true, p->ground_shadow = false, p->ground_shadow_brightness = 0.5f;
    p->ground_shadow_translucent = true, p->physics = MMD_PMM_PHYSICS_OFF;
    p->edge_color[0] = 1, p->edge_color[1] = 0.5f;
    mmd_pmm_add_model(p, "dancer", "C:\\MMD\\UserFile\\Model\\dancer.pmx", DANCER, 3, NULL, 0, NULL, 0, op, 2);
    mmd_pmm_add_model(p, "扇 fan", " my fan.pmx", FAN, 1, NULL, 0, NULL, 0, op, 2);
    mmd_pmm_model *d = &p->models[0], *f = &p->models[1];
    d->look.edge_width = 2, d->look.self_shadow = false, f->look.add_blend = true;
    f->keys[0].parents[1] = (mmd_pmm_parent){0, 2};
    mmd_pmm_add_camera_key(p, 20)->look_at = (mmd_pmm_parent){0, 0};
    mmd_pmm_accessory *x = mmd_pmm_add_accessory(p, "fan", "UserFile\\Accessory\\扇.x");
    x->keys[0] = (mmd_pmm_accessory_key){0, 0.5f, true, {0, 2}, {0, 1, 0}, {0, 0, 1.5707964f}, 0.5f, true};
    mmd_pmm_accessory_key *k30 = mmd_pmm_add_accessory_key(p, x, 30);
    *k30 = (mmd_pmm_accessory_key){30, 1, true, {-1, -1}, {0, 2, 0}, {0.25f, 0, 0}, 1, false};
    x = mmd_pmm_add_accessory(p, "stage", "stage.x");
    x->keys[0] = (mmd_pmm_accessory_key){0, 0.75f, true, {-1, -1}, {1, 2, 3}, {0.1f, 0.2f, 0.3f}, 1.5f, false};
    x->add_blend = true;
    mmd_pmm_gravity_key *g = mmd_pmm_add_gravity_key(p, 20);
    g->acceleration = 5, g->direction[1] = 1;
    p->image_enabled = p->video_enabled = p->audio_enabled = true;
    p->image_path = "UserFile\\BackGround\\sky.bmp", p->image_offset[0] = 10, p->image_offset[1] = 5;
    p->image_scale = 0.5f;
    p->video_path = "clip.mkv", p->video_offset[0] = -20, p->video_offset[1] = -10, p->video_scale = 0.25f;
    p->audio_path = "UserFile\\Music\\song.wav";
    return p;
}

static void check_output(const mmd_scene *s, const mmd_pmm *p)
{
    CHECK_EQ_INT(s->width, p->width);
    CHECK_EQ_INT(s->height, p->height);
    CHECK_EQ_INT(s->fps_num, 60);
    CHECK_EQ_INT(s->fps_den, 1);
    CHECK(s->has_frames);
    CHECK_EQ_INT(s->frame_first, p->begin_frame * 2); /* 60 fps: output frames are half VMD frames */
    CHECK_EQ_INT(s->frame_last, p->end_frame * 2);
    for (int i = 0; i < 3; i++) {
        CHECK_NEAR(s->background[i], 0, 0);
        CHECK_NEAR(s->edge_color[i], lroundf(p->edge_color[i] * 255) / 255.0, 1e-6); /* #rrggbb */
    }
    CHECK(s->has_edge_color);
    CHECK(s->ground_shadow == p->ground_shadow);
    CHECK_NEAR(s->ground_shadow_brightness, p->ground_shadow_brightness, 0);
    CHECK(s->ground_shadow_translucent == p->ground_shadow_translucent);
    REQUIRE(s->follow_count == 1);
    CHECK_STR(s->follows[0].model, "dancer");
    CHECK_STR(s->follows[0].parent_bone, DANCER[0]);
    CHECK_NEAR(s->follows[0].frame, 20, 0);
    REQUIRE(s->gravity_count == (int)p->gravity_key_count);
    for (int i = 0; i < s->gravity_count; i++) {
        CHECK_NEAR(s->gravity[i].frame, p->gravity_keys[i].frame, 0);
        CHECK_NEAR(s->gravity[i].acceleration, p->gravity_keys[i].acceleration, 0);
        for (int c = 0; c < 3; c++)
            CHECK_NEAR(s->gravity[i].direction[c], p->gravity_keys[i].direction[c], 0);
    }
}

static void check_models(const mmd_scene *s, const mmd_project *pr, const char *dir)
{
    const mmd_pmm *p = pr->pmm;
    REQUIRE(s->model_count == 2);
    for (int i = 0; i < 2; i++) {
        const mmd_scene_model *m = &s->models[i];
        const mmd_pmm_model *pm = &p->models[i];
        char vmd[PATH_MAX + 32];
        snprintf(vmd, sizeof vmd, "%s/model_%d.vmd", dir, i + 1);
        CHECK_STR(m->name, pm->name);
        CHECK(same_real(m->file, pr->model_files[i]));
        REQUIRE(m->motion_count == 1);
        CHECK(same_real(m->motions[0], vmd));
        CHECK(!m->physics); /* the project's physics is off */
        CHECK_NEAR(m->look.edge_width, pm->look.edge_width, 0);
        CHECK(m->look.add_blend == pm->look.add_blend);
        CHECK(m->look.self_shadow == pm->look.self_shadow);
        CHECK_EQ_INT(m->calc_order, pm->calc_order);
    }
    CHECK(strchr(s->models[1].file, ' ') != NULL); /* " my fan.pmx": named by its absolute path */
    CHECK_EQ_INT(s->models[0].parent_count, 0);
    REQUIRE(s->models[1].parent_count == 1);
    const mmd_scene_link *l = &s->models[1].parents[0];
    CHECK_STR(l->bone, FAN[0]);
    CHECK_STR(l->model, "dancer");
    CHECK_STR(l->parent_bone, DANCER[2]);
    CHECK_NEAR(l->frame, 0, 0);
}

/* The scene's placement equals the project key's (Si = the stored scale, degrees). */
static void check_place(const mmd_accessory_place *a, const mmd_pmm_accessory_key *k)
{
    for (int c = 0; c < 3; c++) {
        CHECK_NEAR(a->position[c], k->position[c], 0);
        CHECK_NEAR(a->rotation[c], k->rotation[c] * (180.0 / M_PI), 1e-4);
    }
    CHECK_NEAR(a->scale, k->scale, 0);
    CHECK_NEAR(a->opacity, k->opacity, 0);
    CHECK(a->visible == k->visible);
    CHECK(a->shadow == k->shadow);
}

static void check_accessories(const mmd_scene *s, const mmd_project *pr)
{
    const mmd_pmm *p = pr->pmm;
    REQUIRE(s->accessory_count == 2);
    const mmd_scene_accessory *a = &s->accessories[0], *b = &s->accessories[1];
    CHECK(same_real(a->file, pr->accessory_files[0]));
    CHECK(same_real(b->file, pr->accessory_files[1]));
    REQUIRE(a->key_count == 2);
    for (int k = 0; k < 2; k++) {
        CHECK_NEAR(a->keys[k].frame, p->accessories[0].keys[k].frame, 0);
        check_place(&a->keys[k].place, &p->accessories[0].keys[k]);
    }
    REQUIRE(a->parent_count == 2);
    CHECK_STR(a->parents[0].model, "dancer");
    CHECK_STR(a->parents[0].parent_bone, DANCER[2]);
    CHECK(a->parents[1].model == NULL); /* none @30 */
    CHECK_NEAR(a->parents[1].frame, 30, 0);
    CHECK(!a->place.add_blend);
    CHECK_EQ_INT(b->key_count, 0);
    check_place(&b->place, &p->accessories[1].keys[0]);
    CHECK(b->place.add_blend);
    CHECK_EQ_INT(b->parent_count, 0);
}

static void check_media(const mmd_scene *s, const mmd_project *pr)
{
    const mmd_pmm *p = pr->pmm;
    CHECK(same_real(s->bg_image, pr->image_file));
    CHECK(same_real(s->bg_video, pr->video_file));
    CHECK(same_real(s->audio_file, pr->audio_file));
    CHECK_NEAR(s->audio_offset, 0, 0);
    for (int c = 0; c < 2; c++) {
        CHECK_EQ_INT(s->bg_offset[c], p->image_offset[c]);
        CHECK_EQ_INT(s->bg_video_offset[c], p->video_offset[c]);
    }
    CHECK_NEAR(s->bg_scale, p->image_scale, 0);
    CHECK_NEAR(s->bg_video_scale, p->video_scale, 0);
}

/* The project's scene value (mmd_project_scene) written by the key table's
 * writer and read back is the same scene; export writes that text. */
static void value_round_trip(const mmd_project *pr, const char *dir)
{
    mmd_scene *a = NULL, *b = NULL;
    mmd_error err;
    char *text = NULL, path[PATH_MAX + 32];
    mmd_status st = mmd_project_scene(pr, &a, &err);
    if (st != MMD_OK)
        printf("#   %s\n", err.msg);
    REQUIRE(st == MMD_OK);
    CHECK(a->camera_motion_data != NULL);
    for (int i = 0; i < a->model_count; i++)
        CHECK(a->models[i].motion_count == 1 && a->models[i].motion_data[0] != NULL);
    REQUIRE(mmd_scene_write(a, dir, NULL, &text, NULL, &err) == MMD_OK);
    snprintf(path, sizeof path, "%s/scene.ini", dir);
    st = mmd_scene_parse(text, path, true, &b, &err); /* the export wrote the VMDs beside it */
    if (st != MMD_OK)
        printf("#   %s\n", err.msg);
    REQUIRE(st == MMD_OK);
    char *da = mmd_test_scene_dump(a), *db = mmd_test_scene_dump(b);
    REQUIRE(da && db);
    if (strcmp(da, db))
        printf("#   value:\n%s#   read back:\n%s", da, db);
    CHECK_STR(db, da);
    snprintf(path, sizeof path, "%s/scene.ini", dir);
    FILE *f = fopen(path, "rb");
    static char exported[1 << 16];
    size_t n = f ? fread(exported, 1, sizeof exported - 1, f) : 0;
    exported[n] = 0;
    if (f)
        fclose(f);
    const char *body = strstr(exported, "\n\n"); /* after the comment line */
    CHECK(body && !strcmp(body + 2, text));
    free(da);
    free(db);
    free(text);
    mmd_scene_free(a);
    mmd_scene_free(b);
}

TEST(exported_scene_parses_back_to_the_project)
{
    const char *files[] = {"assets/Model/dancer.pmx", "proj/ my fan.pmx", "assets/Accessory/扇.x", "proj/stage.x",
                           "assets/BackGround/sky.bmp", "proj/clip.mkv", "assets/Music/song.wav"};
    mkd("assets/Model"), mkd("assets/Accessory"), mkd("assets/BackGround"), mkd("assets/Music");
    for (size_t i = 0; i < sizeof files / sizeof *files; i++)
        put(files[i], "x"); /* a scene checks that its files are regular files; nothing here decodes them */
    REQUIRE(save_pmm(round_trip_project(), "proj/song.pmm") == 0);
    char path[PATH_MAX + 32], assets[PATH_MAX], dir[PATH_MAX];
    snprintf(path, sizeof path, "%s/proj/song.pmm", root);
    snprintf(assets, sizeof assets, "%s/assets", root);
    snprintf(dir, sizeof dir, "%s/proj", root);
    mmd_project_search search = {{assets}, 1, false};
    mmd_project *pr = NULL;
    REQUIRE(mmd_project_load(path, &search, &pr, NULL) == MMD_OK);
    CHECK_EQ_INT(pr->warning_count, 0);
    for (uint32_t i = 0; i < 2; i++)
        CHECK(pr->model_files[i] && pr->accessory_files[i]);
    REQUIRE(mmd_project_export(pr, dir, NULL) == MMD_OK); /* into the project's own folder */
    snprintf(path, sizeof path, "%s/scene.ini", dir);
    mmd_scene *s = NULL;
    mmd_error err;
    mmd_status st = mmd_scene_load_file(path, &s, &err);
    if (st != MMD_OK)
        printf("#   %s\n", err.msg);
    if (st == MMD_OK) {
        check_output(s, pr->pmm);
        check_models(s, pr, dir);
        check_accessories(s, pr);
        check_media(s, pr);
        CHECK(same_real(s->camera_motion, "camera.vmd") || strstr(s->camera_motion, "/camera.vmd"));
    }
    CHECK_EQ_INT(st, MMD_OK);
    mmd_scene_free(s);
    value_round_trip(pr, dir);
    mmd_project_free(pr);
}

TEST(scene_can_hold)
{
    static const char *const yes[] = {"", "a b.pmx", "扇.pmx", "../x;y.pmx", "a#b", "C:\\x", "a\x80" "b"};
    static const char *const no[] = {"a\nb", "a\rb", "a\tb", "a\x1b[31m", "a\x7f", " a", "a ", "a ;b", "\n"};
    for (size_t i = 0; i < sizeof yes / sizeof *yes; i++)
        CHECK(mmd_scene_can_hold(yes[i]));
    for (size_t i = 0; i < sizeof no / sizeof *no; i++)
        CHECK(!mmd_scene_can_hold(no[i]));
}

/* A bone name with a newline would add lines to the scene: the export fails
 * and writes nothing. */
TEST(bone_name_with_a_newline_is_not_written)
{
    static const char *const bones[1] = {"センター\n[effects]\nglow = on"};
    static const int32_t op[2] = {-1, 0};
    mkd("nl");
    put("nl/a.pmx", "x");
    put("nl/b.pmx", "x");
    mmd_pmm *p = mmd_pmm_new();
    mmd_pmm_add_model(p, "a", "a.pmx", bones, 1, NULL, 0, NULL, 0, op, 2);
    mmd_pmm_add_model(p, "b", "b.pmx", FAN, 1, NULL, 0, NULL, 0, op, 2);
    p->models[1].keys[0].parents[1] = (mmd_pmm_parent){0, 0}; /* b's センター follows a's bad bone */
    REQUIRE(save_pmm(p, "nl/p.pmm") == 0);
    char path[PATH_MAX + 32], out[PATH_MAX];
    snprintf(path, sizeof path, "%s/nl/p.pmm", root);
    snprintf(out, sizeof out, "%s/nl/out", root);
    mmd_project_search search = {{0}, 0, false};
    mmd_project *pr = NULL;
    REQUIRE(mmd_project_load(path, &search, &pr, NULL) == MMD_OK);
    mmd_error err;
    CHECK_EQ_INT(mmd_project_export(pr, out, &err), MMD_E_OUTPUT);
    CHECK_EQ_INT(err.status, MMD_E_OUTPUT);
    CHECK(strstr(err.msg, "\\x0a[effects]\\x0aglow = on") != NULL);
    snprintf(path, sizeof path, "%s/scene.ini", out);
    CHECK(access(path, F_OK) != 0);
    snprintf(path, sizeof path, "%s/model_1.vmd", out);
    CHECK(access(path, F_OK) != 0); /* the scene is built before any file is written */
    mmd_project_free(pr);
}

int main(void)
{
    snprintf(root, sizeof root, "/tmp/test_project_XXXXXX");
    if (!mkdtemp(root)) {
        perror("mkdtemp");
        return 1;
    }
    mkd("assets");
    mkd("proj");
    RUN(scene_can_hold);
    RUN(exported_scene_parses_back_to_the_project);
    RUN(bone_name_with_a_newline_is_not_written);
    char cmd[128];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", root);
    if (system(cmd) != 0)
        printf("# could not remove %s\n", root);
    return test_finish();
}
