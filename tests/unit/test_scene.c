/* tests/unit/test_scene.c - scene INI: every key, defaults, errors with file:line. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "renderer/scene/scene.h"
#include "renderer/scene/mme_assign.h"
#include "renderer/scene/scene_keys.h"
#include "tests/util/scene_dump.h"
#include "tests/util/test.h"

TEST_STATE_DEFINE

static char g_dir[64];

static void touch(const char *name)
{
    char p[256];
    snprintf(p, sizeof p, "%s/%s", g_dir, name);
    FILE *f = fopen(p, "wb");
    if (f) {
        fputs("x", f);
        fclose(f);
    }
}

/* Parse text as g_dir/scene.ini (files checked); the status, err filled. */
static mmd_status parse(const char *text, mmd_scene **s, mmd_error *err)
{
    char path[128];
    snprintf(path, sizeof path, "%s/scene.ini", g_dir);
    *s = NULL;
    return mmd_scene_parse(text, path, true, s, err);
}

/* Expect failure whose message contains "scene.ini:LINE: " and needle. */
static void expect_error(const char *text, int line, const char *needle)
{
    mmd_scene *s;
    mmd_error err = {0};
    const char *msg = err.msg;
    int rc = parse(text, &s, &err);
    CHECK_EQ_INT(rc, MMD_E_BAD_VALUE);
    CHECK(s == NULL);
    CHECK(err.section && !strcmp(err.section, "scene.line"));
    CHECK_EQ_INT(err.item, line);
    char want[64];
    snprintf(want, sizeof want, "scene.ini:%d: ", line);
    if (!strstr(msg, want) || !strstr(msg, needle))
        printf("#   message was: %s (wanted line %d, '%s')\n", msg, line, needle);
    CHECK(strstr(msg, want) != NULL);
    CHECK(strstr(msg, needle) != NULL);
    if (rc == 0)
        mmd_scene_free(s);
}

TEST(every_key)
{
    const char *text = "; a full scene\n"
                       "[output]\n"
                       "width = 640\n"
                       "height = 360\n"
                       "fps = 30000/1001\n"
                       "frames = 10-20\n"
                       "antialias = 2\n"
                       "background = #ff8000\n"
                       "[camera]\n"
                       "motion = cam.vmd\n"
                       "position = 1 2.5, -3\n"
                       "rotation = 90 0 -180\n"
                       "distance = -30\n"
                       "fov = 45\n"
                       "[light]\n"
                       "color = 0.5 0.25 1\n"
                       "direction = 0 -1 0\n"
                       "[model]\n"
                       "file = a.pmx\n"
                       "motion = d1.vmd\n"
                       "motion = d2.vmd\n"
                       "physics = off\n"
                       "[model:stage]\n"
                       "file = sub/b.pmx\n"
                       "[audio]\n"
                       "file = beat.wav\n"
                       "offset = -1.25\n";
    mmd_scene *s;
    mmd_error err;
    int rc = parse(text, &s, &err);
    if (rc)
        printf("#   %s\n", err.msg);
    REQUIRE(rc == 0);
    CHECK_EQ_INT(s->width, 640);
    CHECK_EQ_INT(s->height, 360);
    CHECK_EQ_INT(s->fps_num, 30000);
    CHECK_EQ_INT(s->fps_den, 1001);
    CHECK(s->has_frames);
    CHECK_EQ_INT(s->frame_first, 10);
    CHECK_EQ_INT(s->frame_last, 20);
    CHECK_EQ_INT(s->antialias, 2);
    CHECK_NEAR(s->background[0], 1.0, 1e-6);
    CHECK_NEAR(s->background[1], 128.0 / 255.0, 1e-6);
    CHECK_NEAR(s->background[2], 0.0, 1e-6);
    CHECK(!s->transparent);
    char want[160];
    snprintf(want, sizeof want, "%s/cam.vmd", g_dir);
    CHECK_STR(s->camera_motion, want);
    CHECK_NEAR(s->cam_target[0], 1.0, 1e-6);
    CHECK_NEAR(s->cam_target[1], 2.5, 1e-6);
    CHECK_NEAR(s->cam_target[2], -3.0, 1e-6);
    CHECK_NEAR(s->cam_rotation[0], M_PI / 2, 1e-6);
    CHECK_NEAR(s->cam_rotation[2], -M_PI, 1e-6);
    CHECK_NEAR(s->cam_distance, -30.0, 1e-6);
    CHECK_NEAR(s->cam_fov, 45.0, 1e-6);
    CHECK(s->has_light_color && s->has_light_direction);
    CHECK_NEAR(s->light_color[1], 0.25, 1e-6);
    CHECK_NEAR(s->light_direction[1], -1.0, 1e-6);
    REQUIRE(s->model_count == 2);
    CHECK_STR(s->models[0].name, "");
    snprintf(want, sizeof want, "%s/a.pmx", g_dir);
    CHECK_STR(s->models[0].file, want);
    CHECK_EQ_INT(s->models[0].motion_count, 2);
    snprintf(want, sizeof want, "%s/d2.vmd", g_dir);
    CHECK_STR(s->models[0].motions[1], want);
    CHECK(!s->models[0].physics);
    CHECK_EQ_INT(s->models[0].line, 18);
    CHECK_STR(s->models[1].name, "stage");
    snprintf(want, sizeof want, "%s/sub/b.pmx", g_dir);
    CHECK_STR(s->models[1].file, want);
    CHECK_EQ_INT(s->models[1].motion_count, 0);
    CHECK(s->models[1].physics);
    snprintf(want, sizeof want, "%s/beat.wav", g_dir);
    CHECK_STR(s->audio_file, want);
    CHECK_NEAR(s->audio_offset, -1.25, 1e-12);
    mmd_scene_free(s);
}

TEST(defaults)
{
    mmd_scene *s;
    mmd_error err;
    REQUIRE(parse("[model]\nfile = a.pmx\n", &s, &err) == 0);
    CHECK_EQ_INT(s->width, 1920);
    CHECK_EQ_INT(s->height, 1080);
    CHECK_EQ_INT(s->fps_num, 30);
    CHECK_EQ_INT(s->fps_den, 1);
    CHECK(!s->has_frames);
    CHECK_EQ_INT(s->antialias, 4);
    CHECK_NEAR(s->background[0] + s->background[1] + s->background[2], 3.0, 1e-6);
    CHECK(!s->transparent);
    CHECK(s->camera_motion == NULL);
    CHECK_NEAR(s->cam_target[1], 10.0, 0);
    CHECK_NEAR(s->cam_distance, -45.0, 0);
    CHECK_NEAR(s->cam_fov, 30.0, 0);
    CHECK(!s->has_light_color && !s->has_light_direction);
    CHECK(s->audio_file == NULL);
    CHECK_NEAR(s->audio_offset, 0.0, 0);
    CHECK(s->models[0].physics);
    CHECK_EQ_INT(s->texture_filter, MMD_TEXTURE_FILTER_MMD);
    mmd_scene_free(s);
}

/* [output] texture_filter: the names the CLI's --texture-filter takes too (render.h). */
TEST(texture_filter)
{
    mmd_scene *s;
    mmd_error err;
    REQUIRE(parse("[output]\ntexture_filter = trilinear\n[model]\nfile = a.pmx\n", &s, &err) == 0);
    CHECK_EQ_INT(s->texture_filter, MMD_TEXTURE_FILTER_TRILINEAR);
    mmd_scene_free(s);
    REQUIRE(parse("[output]\ntexture_filter = mmd\n[model]\nfile = a.pmx\n", &s, &err) == 0);
    CHECK_EQ_INT(s->texture_filter, MMD_TEXTURE_FILTER_MMD);
    mmd_scene_free(s);
    mmd_texture_filter f = MMD_TEXTURE_FILTER_TRILINEAR;
    CHECK_STR(mmd_texture_filter_name(MMD_TEXTURE_FILTER_MMD), "mmd");
    CHECK_STR(mmd_texture_filter_name(MMD_TEXTURE_FILTER_TRILINEAR), "trilinear");
    CHECK_STR(mmd_texture_filter_name(MMD_TEXTURE_FILTER_ANISO4), "aniso4");
    CHECK_EQ_INT(mmd_texture_filter_parse("aniso4", &f, &err), MMD_OK);
    CHECK_EQ_INT(f, MMD_TEXTURE_FILTER_ANISO4);
    f = MMD_TEXTURE_FILTER_TRILINEAR;
    CHECK_EQ_INT(mmd_texture_filter_parse("MMD", &f, &err), MMD_E_BAD_VALUE); /* names are lower case */
    CHECK_EQ_INT(f, MMD_TEXTURE_FILTER_TRILINEAR);                             /* untouched on failure */
    CHECK_EQ_INT(mmd_texture_filter_parse(NULL, &f, NULL), MMD_E_BAD_VALUE);
}

/* A UTF-8 byte order mark before the first section (Notepad writes one). */
TEST(utf8_bom)
{
    mmd_scene *s;
    mmd_error err;
    mmd_status rc = parse("\xEF\xBB\xBF[output]\nwidth = 640\n[model]\nfile = a.pmx\n", &s, &err);
    printf("#   %s\n", rc ? err.msg : "accepted");
    REQUIRE(rc == 0);
    CHECK_EQ_INT(s->width, 640);
    CHECK_EQ_INT(s->model_count, 1);
    mmd_scene_free(s);
}

TEST(comments_and_transparent)
{
    mmd_scene *s;
    mmd_error err;
    REQUIRE(parse("# hash comment\n[output] ; trailing\nbackground = transparent ; inline\n"
                  "fps = 59.94\nsize = 320x240\nframes = 7\n\n[model:a]\nfile=a.pmx\n",
                  &s, &err) == 0);
    CHECK(s->transparent);
    CHECK_EQ_INT(s->fps_num, 2997);
    CHECK_EQ_INT(s->fps_den, 50);
    CHECK_EQ_INT(s->width, 320);
    CHECK_EQ_INT(s->height, 240);
    CHECK_EQ_INT(s->frame_first, 7);
    CHECK_EQ_INT(s->frame_last, 7);
    mmd_scene_free(s);
}

TEST(errors_with_line)
{
    expect_error("[output]\nwidth = 10\nwibble = 3\n[model]\nfile=a.pmx\n", 3, "unknown key 'wibble'");
    expect_error("[model]\nfile=a.pmx\n\n[cameras]\nfov=3\n", 4, "unknown section [cameras]");
    expect_error("[output]\nwidth = abc\n[model]\nfile=a.pmx\n", 2, "expected width in pixels");
    expect_error("[output]\nheight = 99999\n[model]\nfile=a.pmx\n", 2, "expected height");
    expect_error("[output]\nfps = 0\n[model]\nfile=a.pmx\n", 2, "frame rate above 0");
    expect_error("[output]\nfps = 30/x\n[model]\nfile=a.pmx\n", 2, "expected a frame rate");
    expect_error("[output]\nframes = 20-10\n[model]\nfile=a.pmx\n", 2, "first <= last");
    expect_error("[output]\nframes = 1-2:3\n[model]\nfile=a.pmx\n", 2, "expected A-B");
    expect_error("[output]\nantialias = 3\n[model]\nfile=a.pmx\n", 2, "antialias 1, 2 or 4");
    expect_error("[output]\nbackground = #12345g\n[model]\nfile=a.pmx\n", 2, "#rrggbb or transparent");
    expect_error("[output]\ntexture_filter = bilinear\n[model]\nfile=a.pmx\n", 2,
                 "expected texture_filter mmd (MikuMikuDance's look), aniso4 (near it, faster) or trilinear "
                 "(fastest), got 'bilinear'");
    expect_error("[camera]\nfov = 200\n[model]\nfile=a.pmx\n", 2, "fov in degrees");
    expect_error("[camera]\nposition = 1 2\n[model]\nfile=a.pmx\n", 2, "three numbers");
    expect_error("[light]\ncolor = 2 0 0\n[model]\nfile=a.pmx\n", 2, "light color");
    expect_error("[light]\ndirection = 0 0 0\n[model]\nfile=a.pmx\n", 2, "not all 0");
    expect_error("[model]\nfile=a.pmx\nphysics = maybe\n", 3, "physics = on or off");
    expect_error("[model]\nfile=a.pmx\n[audio]\nfile=beat.wav\noffset = soon\n", 5, "offset in seconds");
    expect_error("[model]\nfile=a.pmx\nfile=a.pmx\n", 3, "given twice");
    expect_error("[output]\n[output]\n[model]\nfile=a.pmx\n", 2, "appears twice");
    expect_error("width = 3\n[model]\nfile=a.pmx\n", 1, "outside any section");
    expect_error("[model]\nfile=a.pmx\njust words\n", 3, "expected 'key = value'");
    expect_error("[model]\nmotion=d1.vmd\n[model]\nfile=a.pmx\n", 1, "has no 'file' key");
    expect_error("[model:x]\nfile=a.pmx\n[model:x]\nfile=a.pmx\n", 3, "already used on line 1");
    expect_error("[model]\nfile=a.pmx\n[model:]\n", 3, "expected a name");
    expect_error("[output]\nwidth=2\n", 2, "no [model] section");
}

TEST(effects_section)
{
    mmd_scene *s;
    mmd_error err;
    REQUIRE(parse("[model]\nfile = a.pmx\n", &s, &err) == 0);
    const mmd_effects *e = &s->effects; /* all off by default */
    CHECK(!e->glow && !e->soft_shadow && !e->diffusion && !e->fxaa);
    CHECK_EQ_INT(e->ssaa, 1);
    CHECK(!mmd_effects_post(e));
    mmd_scene_free(s);
    REQUIRE(parse("[effects]\nglow = on\nglow_strength = 2.5\nglow_radius = 0.5\nsoft_shadow = contact\n"
                  "soft_shadow_radius = 3\ndiffusion = on\ndiffusion_strength = 0.25\n"
                  "diffusion_threshold = 0.75\nssaa = 3\nfxaa = on\n[model]\nfile = a.pmx\n",
                  &s, &err) == 0);
    e = &s->effects;
    CHECK(e->glow && e->soft_shadow && e->diffusion && e->fxaa);
    CHECK_NEAR(e->glow_strength, 2.5, 1e-6);
    CHECK_NEAR(e->glow_radius, 0.5, 1e-6);
    CHECK_EQ_INT(e->soft_shadow_mode, MMD_SOFT_SHADOW_CONTACT);
    CHECK_NEAR(e->soft_shadow_radius, 3.0, 1e-6);
    CHECK_NEAR(e->diffusion_strength, 0.25, 1e-6);
    CHECK_NEAR(e->diffusion_threshold, 0.75, 1e-6);
    CHECK_EQ_INT(e->ssaa, 3);
    CHECK(mmd_effects_post(e));
    mmd_scene_free(s);
    REQUIRE(parse("[effects]\nsoft_shadow = on\n[model]\nfile = a.pmx\n", &s, &err) == 0);
    CHECK(s->effects.soft_shadow);
    CHECK_EQ_INT(s->effects.soft_shadow_mode, MMD_SOFT_SHADOW_PCF);
    CHECK(!mmd_effects_post(&s->effects)); /* soft shadow lives in the colour pass */
    mmd_scene_free(s);
    expect_error("[effects]\nglow = bright\n[model]\nfile=a.pmx\n", 2, "glow = on or off");
    expect_error("[effects]\nglow_strength = 11\n[model]\nfile=a.pmx\n", 2, "glow_strength as a number 0..10");
    expect_error("[effects]\nglow_radius = nan\n[model]\nfile=a.pmx\n", 2, "glow_radius");
    expect_error("[effects]\nsoft_shadow = soft\n[model]\nfile=a.pmx\n", 2, "on, off or contact");
    expect_error("[effects]\nssaa = 8\n[model]\nfile=a.pmx\n", 2, "ssaa 1, 2, 3 or 4");
    expect_error("[effects]\nfxaa = on\nfxaa = off\n[model]\nfile=a.pmx\n", 3, "given twice");
    expect_error("[effects]\nbloom = on\n[model]\nfile=a.pmx\n", 2, "unknown key 'bloom' in [effects]");
    /* post = FILE.fx: repeatable, in order, resolved; at most MMD_SCENE_MAX_POST_EFFECTS */
    REQUIRE(parse("[effects]\npost = fan.x\npost = sky.png\npost = fan.x\n[model]\nfile = a.pmx\n", &s, &err) == 0);
    CHECK_EQ_INT(s->post_effect_count, 3);
    CHECK(strstr(s->post_effects[0], "/fan.x") && strstr(s->post_effects[1], "/sky.png"));
    CHECK(!mmd_effects_post(&s->effects)); /* the built-in chain stays off */
    mmd_scene_free(s);
    char many[1024] = "[effects]\n";
    for (int i = 0; i <= MMD_SCENE_MAX_POST_EFFECTS; i++)
        strcat(many, "post = fan.x\n");
    strcat(many, "[model]\nfile = a.pmx\n");
    expect_error(many, 18, "too many post effects (at most 16)");
    expect_error("[effects]\npost = nothere.fx\n[model]\nfile=a.pmx\n", 2, "cannot read effect file");
    expect_error("[effects]\n[effects]\n[model]\nfile=a.pmx\n", 2, "appears twice");
}

TEST(missing_files)
{
    expect_error("[model]\nfile = nothere.pmx\n", 2, "cannot read model file");
    expect_error("[model]\nfile = a.pmx\nmotion = gone.vmd\n", 3, "cannot read motion file");
    expect_error("[camera]\nmotion = gone.vmd\n[model]\nfile = a.pmx\n", 2, "cannot read camera motion file");
    expect_error("[model]\nfile = a.pmx\n[audio]\nfile = gone.wav\n", 4, "cannot read audio file");
    /* without checking, paths are only resolved */
    mmd_scene *s;
    mmd_error err;
    REQUIRE(mmd_scene_parse("[model]\nfile = /abs/x.pmx\n", "rel/dir/s.ini", false, &s, &err) == 0);
    CHECK_STR(s->models[0].file, "/abs/x.pmx");
    CHECK_STR(s->dir, "rel/dir");
    mmd_scene_free(s);
    REQUIRE(mmd_scene_parse("[model]\nfile = x.pmx\n", "s.ini", false, &s, &err) == 0);
    CHECK_STR(s->models[0].file, "x.pmx");
    mmd_scene_free(s);
}

TEST(load_file)
{
    char path[128];
    mmd_error err;
    snprintf(path, sizeof path, "%s/disk.ini", g_dir);
    FILE *f = fopen(path, "w");
    REQUIRE(f);
    fputs("[model]\nfile = a.pmx\n[output]\nsize = 64x48\n", f);
    fclose(f);
    mmd_scene *s;
    REQUIRE(mmd_scene_load_file(path, &s, &err) == 0);
    CHECK_EQ_INT(s->width, 64);
    mmd_scene_free(s);
    snprintf(path, sizeof path, "%s/none.ini", g_dir);
    CHECK(mmd_scene_load_file(path, &s, &err) == MMD_E_IO);
    CHECK(strstr(err.msg, "none.ini: cannot read scene") != NULL);
    mmd_scene_free(NULL);
}

TEST(value_parsers)
{
    mmd_error err;
    int w, h, num, den, step, aa;
    int64_t a, b;
    float rgb[3];
    bool tr;
    CHECK(mmd_scene_parse_size("1920x1080", &w, &h, &err) == 0 && w == 1920 && h == 1080);
    CHECK(mmd_scene_parse_size("1920", &w, &h, &err) == MMD_E_BAD_VALUE);
    CHECK(mmd_scene_parse_size("-2x4", &w, &h, &err) == MMD_E_BAD_VALUE);
    CHECK(mmd_scene_parse_size("0x4", &w, &h, &err) == MMD_E_BAD_VALUE);
    CHECK(mmd_scene_parse_fps("60", &num, &den, &err) == 0 && num == 60 && den == 1);
    CHECK(mmd_scene_parse_fps("23.976", &num, &den, &err) == 0 && num == 2997 && den == 125);
    CHECK(mmd_scene_parse_fps("60/2", &num, &den, &err) == 0 && num == 30 && den == 1);
    CHECK(mmd_scene_parse_fps("1e3", &num, &den, &err) == MMD_E_BAD_VALUE);
    CHECK(mmd_scene_parse_fps("5000", &num, &den, &err) == MMD_E_BAD_VALUE);
    CHECK(mmd_scene_parse_fps(".", &num, &den, &err) == MMD_E_BAD_VALUE);
    CHECK(mmd_scene_parse_frames("0-299:10", &a, &b, &step, &err) == 0 && a == 0 &&
          b == 299 && step == 10);
    CHECK(mmd_scene_parse_frames("5", &a, &b, &step, &err) == 0 && a == 5 && b == 5 &&
          step == 1);
    CHECK(mmd_scene_parse_frames("0-9:0", &a, &b, &step, &err) == MMD_E_BAD_VALUE);
    CHECK(mmd_scene_parse_frames("-3-9", &a, &b, &step, &err) == MMD_E_BAD_VALUE);
    CHECK(mmd_scene_parse_background("#000000", rgb, &tr, &err) == 0 && rgb[0] == 0 && !tr);
    CHECK(mmd_scene_parse_background("black", rgb, &tr, &err) == MMD_E_BAD_VALUE);
    CHECK(strstr(err.msg, "#rrggbb") != NULL);
    CHECK(mmd_scene_parse_antialias("4", &aa, &err) == 0 && aa == 4);
    CHECK(mmd_scene_parse_antialias("8", &aa, &err) == MMD_E_BAD_VALUE);
}

TEST(long_line)
{
    char text[600];
    memset(text, 'a', sizeof text);
    memcpy(text, "[model]\nfile = ", 15);
    text[sizeof text - 1] = 0;
    expect_error(text, 2, "line longer than");
}

TEST(accessories)
{
    const char *text = "[accessory]\nfile = stage.x\n"
                       "[model:miku]\nfile = a.pmx\n"
                       "[accessory:fan]\nfile = fan.vac\nposition = 1 2 -3\nrotation = 0 90 0\nscale = 0.5\n"
                       "opacity = 0.25\nparent = miku:右手首\nshadow = off\nadd_blend = on\nafter_models = yes\n"
                       "visible = on\n";
    mmd_scene *s;
    mmd_error err = {0};
    int rc = parse(text, &s, &err);
    if (rc)
        printf("#   %s\n", err.msg);
    REQUIRE(rc == 0);
    CHECK_EQ_INT(s->accessory_count, 2);
    const mmd_scene_accessory *a = &s->accessories[0], *b = &s->accessories[1];
    CHECK_STR(a->name, "");
    CHECK(strstr(a->file, "/stage.x") != NULL);
    CHECK_EQ_INT(a->set, 0);
    CHECK_EQ_INT(a->parent_model, -1);
    CHECK(a->parent_bone == NULL);
    CHECK(a->place.visible && a->place.shadow && !a->place.add_blend && !a->place.after_models);
    CHECK_NEAR(a->place.scale, 1, 0);
    CHECK_NEAR(a->place.opacity, 1, 0);
    CHECK_EQ_INT(a->line, 1);
    CHECK_STR(b->name, "fan");
    CHECK_NEAR(b->place.position[2], -3, 0);
    CHECK_NEAR(b->place.rotation[1], 90, 0);
    CHECK_NEAR(b->place.scale, 0.5, 0);
    CHECK_NEAR(b->place.opacity, 0.25, 0);
    CHECK_EQ_INT(b->parent_model, 0);
    CHECK_STR(b->parent_bone, "右手首");
    CHECK_EQ_INT(b->parent_line, 11);
    CHECK_EQ_INT(b->set, MMD_SCENE_ACC_POSITION | MMD_SCENE_ACC_ROTATION | MMD_SCENE_ACC_SCALE | MMD_SCENE_ACC_PARENT);
    CHECK(!b->place.shadow && b->place.add_blend && b->place.after_models && b->place.visible);
    mmd_scene_free(s);
}

TEST(accessory_errors)
{
    const char *m = "[model:miku]\nfile=a.pmx\n";
    char t[512];
    snprintf(t, sizeof t, "%s[accessory]\nposition = 1 2 3\n", m);
    expect_error(t, 3, "accessory section has no 'file' key");
    snprintf(t, sizeof t, "%s[accessory]\nfile = stage.x\nparent = rin:head\n", m);
    expect_error(t, 5, "parent model 'rin' is not a [model:NAME]");
    snprintf(t, sizeof t, "%s[accessory]\nfile = stage.x\nparent = head\n", m);
    expect_error(t, 5, "expected parent = MODEL:BONE");
    snprintf(t, sizeof t, "%s[accessory]\nfile = stage.x\nopacity = 2\n", m);
    expect_error(t, 5, "opacity (MMD's Tr)");
    snprintf(t, sizeof t, "%s[accessory]\nfile = stage.x\nscale = -1\n", m);
    expect_error(t, 5, "scale (MMD's Si)");
    snprintf(t, sizeof t, "%s[accessory]\nfile = stage.x\nadd_blend = sometimes\n", m);
    expect_error(t, 5, "add_blend = on or off");
    snprintf(t, sizeof t, "%s[accessory]\nfile = stage.x\ncolour = red\n", m);
    expect_error(t, 5, "unknown key 'colour' in [accessory]");
    snprintf(t, sizeof t, "%s[accessory:a]\nfile = stage.x\n[accessory:a]\nfile = stage.x\n", m);
    expect_error(t, 5, "accessory name 'a' already used on line 3");
    snprintf(t, sizeof t, "%s[accessory]\nfile = nope.x\n", m);
    expect_error(t, 4, "cannot read accessory file");
    snprintf(t, sizeof t, "%s[accessory:]\nfile = stage.x\n", m);
    expect_error(t, 3, "expected a name after 'accessory:'");
}

/* Accessory keys, timed parents and [gravity] (issue 16). */
TEST(accessory_keys_and_gravity)
{
    const char *text = "[model:miku]\nfile = a.pmx\n"
                       "[accessory:fan]\nfile = fan.x\n"
                       "key = 30 0 2 0 0 0 0 1 1 on off\n"
                       "key = 0 0 1 0 0 0 90 0.5 0.5 off on\n"
                       "key = 30 0 3 0 0 0 0 1 1 on off\n" /* same frame: the later line wins */
                       "parent = miku:右手首 @0\nparent = none @30\n"
                       "[gravity]\nkey = 20 5 0 1 0\nkey = 0 9.8 0 -1 0\n";
    mmd_scene *s;
    mmd_error err = {0};
    int rc = parse(text, &s, &err);
    if (rc)
        printf("#   %s\n", err.msg);
    REQUIRE(rc == 0);
    const mmd_scene_accessory *a = &s->accessories[0];
    REQUIRE(a->key_count == 2);
    CHECK_NEAR(a->keys[0].frame, 0, 0);
    CHECK_NEAR(a->keys[0].place.rotation[2], 90, 0);
    CHECK_NEAR(a->keys[0].place.scale, 0.5, 0);
    CHECK(!a->keys[0].place.visible && a->keys[0].place.shadow);
    CHECK_NEAR(a->keys[1].frame, 30, 0);
    CHECK_NEAR(a->keys[1].place.position[1], 3, 0);
    CHECK(a->keys[1].place.visible && !a->keys[1].place.shadow);
    REQUIRE(a->parent_count == 2);
    CHECK_STR(a->parents[0].model, "miku");
    CHECK(a->parents[1].model == NULL && a->parents[1].frame == 30);
    CHECK_EQ_INT(a->parent_model, 0);
    REQUIRE(s->gravity_count == 2);
    CHECK_NEAR(s->gravity[0].frame, 0, 0);
    CHECK_NEAR(s->gravity[1].acceleration, 5, 0);
    float g[3];
    mmd_scene_gravity_at(s, 19.9, g);
    CHECK_NEAR(g[1], -98, 1e-4);
    mmd_scene_gravity_at(s, 20, g); /* stepped */
    CHECK_NEAR(g[1], 50, 1e-4);
    CHECK_NEAR(g[0], 0, 0);
    mmd_scene_free(s);
    REQUIRE(parse("[model]\nfile = a.pmx\n[gravity]\nkey = 0 9.8 0 0 0\n", &s, &err) == 0);
    mmd_scene_gravity_at(s, 5, g); /* no direction: straight down */
    CHECK_NEAR(g[1], -98, 1e-4);
    mmd_scene_free(s);
    REQUIRE(parse("[model]\nfile = a.pmx\n", &s, &err) == 0);
    mmd_scene_gravity_at(s, 5, g); /* no [gravity]: MMD's default */
    CHECK_NEAR(g[1], -98, 1e-4);
    mmd_scene_free(s);
    const char *m = "[model:miku]\nfile=a.pmx\n[accessory]\nfile = fan.x\n";
    char t[512];
    snprintf(t, sizeof t, "%skey = 0 1 2 3 0 0 0 1 1 on\n", m);
    expect_error(t, 5, "expected key = FRAME X Y Z RX RY RZ SI TR VISIBLE SHADOW");
    snprintf(t, sizeof t, "%skey = -1 1 2 3 0 0 0 1 1 on on\n", m);
    expect_error(t, 5, "frame >= 0");
    snprintf(t, sizeof t, "%skey = 0 1 2 3 0 0 0 1 1.5 on on\n", m);
    expect_error(t, 5, "opacity 0..1");
    snprintf(t, sizeof t, "%sparent = miku:頭 @soon\n", m);
    expect_error(t, 5, "with a frame number after '@'");
    snprintf(t, sizeof t, "%sparent = rin:頭 @10\n", m);
    expect_error(t, 5, "parent model 'rin' is not a [model:NAME]");
    snprintf(t, sizeof t, "%sparent = none @10\nparent = rin:頭 @20\n", m);
    expect_error(t, 6, "no model named 'rin'");
    expect_error("[model]\nfile=a.pmx\n[gravity]\nkey = 0 9.8 0 -1\n", 4, "expected key = FRAME ACCELERATION X Y Z");
    expect_error("[model]\nfile=a.pmx\n[gravity]\nkey = 0 9.8 0 -1 0 7\n", 4, "expected key = FRAME ACCELERATION");
    expect_error("[model]\nfile=a.pmx\n[gravity]\nacceleration = 3\n", 4, "unknown key 'acceleration' in [gravity]");
    REQUIRE(parse("[model]\nfile = a.pmx\ncalc_order = 3\n[model]\nfile = a.pmx\n", &s, &err) == 0);
    CHECK_EQ_INT(s->models[0].calc_order, 3);
    CHECK_EQ_INT(s->models[1].calc_order, 0);
    mmd_scene_free(s);
    expect_error("[model]\nfile=a.pmx\ncalc_order = 0\n", 3, "expected calc_order as a whole number");
    expect_error("[model]\nfile=a.pmx\ncalc_order = 2\ncalc_order = 2\n", 4, "given twice");
}

/* [model] position / rotation / scale: parsed, defaults, ranges; the matrix
 * (mmd_scene_model_place) is tested with the anim (test_skin placement). */
TEST(model_placement)
{
    mmd_scene *s;
    mmd_error err;
    REQUIRE(parse("[model]\nfile = a.pmx\nposition = 1 -2 3.5\nrotation = 0 90 -45\nscale = 1.5\n"
                  "[model:b]\nfile = a.pmx\n", &s, &err) == 0);
    CHECK(s->models[0].placed);
    CHECK(s->models[0].position[0] == 1 && s->models[0].position[1] == -2 && s->models[0].position[2] == 3.5f);
    CHECK(s->models[0].rotation[0] == 0 && s->models[0].rotation[1] == 90 && s->models[0].rotation[2] == -45);
    CHECK(s->models[0].scale == 1.5f);
    CHECK(!s->models[1].placed && s->models[1].scale == 1 && s->models[1].position[0] == 0);
    mmd_scene_free(s);
    expect_error("[model]\nfile=a.pmx\nscale = 0\n", 3, "expected scale as a number above 0, at most 1000");
    expect_error("[model]\nfile=a.pmx\nscale = 1001\n", 3, "expected scale");
    expect_error("[model]\nfile=a.pmx\nposition = 1 2\n", 3, "expected position as three numbers");
    expect_error("[model]\nfile=a.pmx\nrotation = 0 0 40000\n", 3, "expected rotation as three angles");
    expect_error("[model]\nfile=a.pmx\nposition = 1 2 3\nposition = 1 2 3\n", 4, "given twice");
    expect_error("[model]\nfile=a.pmx\nsize = 2\n", 3, "calc_order, position, rotation, scale, effect, material_effect)");
}

/* effect = FILE.fx on [model] and [accessory]: resolved like the other
 * files, origin left NONE (the key's); MME's same-named rule
 * (mmd_scene_effect_beside) finds "a.fx" beside "a.pmx", in any letter case. */
TEST(object_effects)
{
    mmd_scene *s;
    mmd_error err;
    REQUIRE(parse("[model]\nfile = a.pmx\neffect = sub/obj.fx\n[model]\nfile = a.pmx\n[accessory]\nfile = fan.x\n"
                  "effect = fan.fx\n",
                  &s, &err) == MMD_OK);
    char want[128];
    snprintf(want, sizeof want, "%s/sub/obj.fx", g_dir);
    CHECK_STR(s->models[0].effect ? s->models[0].effect : "", want);
    CHECK(s->models[0].effect_origin == MMD_EFFECT_NONE);
    CHECK(s->models[1].effect == NULL);
    snprintf(want, sizeof want, "%s/fan.fx", g_dir);
    CHECK_STR(s->accessories[0].effect ? s->accessories[0].effect : "", want);
    mmd_scene_free(s);
    expect_error("[model]\nfile = a.pmx\neffect = none.fx\n", 3, "cannot read effect file");
    expect_error("[model]\nfile = a.pmx\neffect = sub/obj.fx\neffect = fan.fx\n", 4, "given twice");
    expect_error("[accessory]\nfile = fan.x\neffect =\n", 3, "expected a effect path");
    /* material_effect = K FILE.fx | K none: in material order, a later line for one material wins */
    REQUIRE(parse("[model]\nfile = a.pmx\nmaterial_effect = 3 fan.fx\nmaterial_effect = 1\tNONE\n"
                  "material_effect = 3 sub/obj.fx\n[accessory]\nfile = fan.x\nmaterial_effect = 0 fan.fx\n",
                  &s, &err) == MMD_OK);
    const mmd_scene_material_effects *me = &s->models[0].material_effects;
    REQUIRE(me->count == 2);
    CHECK(me->items[0].material == 1 && me->items[0].effect == NULL && me->items[0].line == 4);
    snprintf(want, sizeof want, "%s/sub/obj.fx", g_dir);
    CHECK(me->items[1].material == 3 && me->items[1].line == 5);
    CHECK_STR(me->items[1].effect ? me->items[1].effect : "", want);
    CHECK(me->origin == MMD_EFFECT_NONE);
    CHECK(s->accessories[0].material_effects.count == 1 && s->accessories[0].material_effects.items[0].effect);
    mmd_scene_free(s);
    expect_error("[model]\nfile = a.pmx\nmaterial_effect = fan.fx\n", 3,
                 "material_effect = MATERIAL FILE.fx or MATERIAL none");
    expect_error("[model]\nfile = a.pmx\nmaterial_effect = -1 fan.fx\n", 3, "MATERIAL: a 0-based index 0..65535");
    expect_error("[model]\nfile = a.pmx\nmaterial_effect = 65536 fan.fx\n", 3, "material_effect =");
    expect_error("[model]\nfile = a.pmx\nmaterial_effect = 2\n", 3, "material_effect =");
    expect_error("[model]\nfile = a.pmx\nmaterial_effect = 2 nothere.fx\n", 3, "cannot read effect file");
    char many[16384] = "[model]\nfile = a.pmx\n";
    for (int i = 0; i <= MMD_SCENE_MAX_MATERIAL_EFFECTS; i++)
        snprintf(many + strlen(many), sizeof many - strlen(many), "material_effect = %d none\n", i);
    expect_error(many, 3 + MMD_SCENE_MAX_MATERIAL_EFFECTS, "too many material_effect keys (at most 256)");
    char path[128], out[160];
    snprintf(path, sizeof path, "%s/fan.x", g_dir);
    CHECK(mmd_scene_effect_beside(path, out, sizeof out) == MMD_EFFECT_BESIDE);
    snprintf(want, sizeof want, "%s/fan.fx", g_dir);
    CHECK_STR(out, want);
    snprintf(path, sizeof path, "%s/sub/Obj.PMX", g_dir); /* "obj.fx" beside it, in another letter case */
    CHECK(mmd_scene_effect_beside(path, out, sizeof out) == MMD_EFFECT_BESIDE);
    snprintf(want, sizeof want, "%s/sub/obj.fx", g_dir);
    CHECK_STR(out, want);
    snprintf(path, sizeof path, "%s/a.pmx", g_dir);
    CHECK(mmd_scene_effect_beside(path, out, sizeof out) == MMD_EFFECT_NONE);
    snprintf(path, sizeof path, "%s/fan.x", g_dir);
    CHECK(mmd_scene_effect_beside(path, out, 8) == MMD_EFFECT_NONE); /* too small for the name */
    CHECK_STR(mmd_effect_origin_name(MMD_EFFECT_BESIDE), "same-named .fx beside the file");
}

static void write_text(const char *name, const char *text)
{
    char p[256];
    snprintf(p, sizeof p, "%s/%s", g_dir, name);
    FILE *f = fopen(p, "wb");
    if (f) {
        fputs(text, f);
        fclose(f);
    }
}

/* Collects mmd_scene_emd_materials's calls as "k=file-name;" text. */
static void collect_material(void *user, uint32_t material, const char *effect)
{
    char *out = user;
    const char *b = effect ? strrchr(effect, '/') : NULL;
    snprintf(out + strlen(out), 256 - strlen(out), "%u=%s;", material, effect ? (b ? b + 1 : effect) : "none");
}

/* MME's file-name rules, the first that applies: "NAME[EFFECT.fx].pmx",
 * the model's NAME.emd ([Effect] Obj, relative to its folder, '\' and any
 * letter case; "none" stops the rules; Obj[k] is a material's), a same-named
 * .fx; none leaves the model's folder. */
TEST(effect_file_name_rules)
{
    char path[160], out[200], want[200];
    touch("rules/ink.FX");
    touch("rules/m[Ink.fx].pmx");
    touch("rules/m[Ink.fx].fx"); /* the bracket rule comes first */
    snprintf(path, sizeof path, "%s/rules/m[Ink.fx].pmx", g_dir);
    CHECK(mmd_scene_effect_beside(path, out, sizeof out) == MMD_EFFECT_NAME);
    snprintf(want, sizeof want, "%s/rules/ink.FX", g_dir);
    CHECK_STR(out, want);
    touch("rules/q[gone.fx].pmx"); /* no such effect: the next rules */
    touch("rules/q[gone.fx].fx");
    snprintf(path, sizeof path, "%s/rules/q[gone.fx].pmx", g_dir);
    CHECK(mmd_scene_effect_beside(path, out, sizeof out) == MMD_EFFECT_BESIDE);
    touch("rules/fx/Edge.fx");
    touch("rules/a.fx");
    write_text("rules/A.EMD", "[Info]\r\nVersion = 3\r\n[Effect]\r\nObj[2] = a.fx\r\nObj = FX\\edge.fx\r\n");
    snprintf(path, sizeof path, "%s/rules/a.pmx", g_dir);
    CHECK(mmd_scene_effect_beside(path, out, sizeof out) == MMD_EFFECT_EMD);
    snprintf(want, sizeof want, "%s/rules/fx/Edge.fx", g_dir);
    CHECK_STR(out, want);
    /* its per-material lines: one index each (nanoem's reader), none kept, a missing file or a range skipped */
    write_text("rules/A.EMD", "[Effect]\r\nObj[2] = a.fx\r\nObj = FX\\edge.fx\r\nObj[0] = NONE\r\n"
                              "Obj[1] = gone.fx\r\nObj[0-3] = a.fx\r\nObj[1,4] = a.fx\r\nObj[3]x = a.fx\r\n"
                              "[Effect@Mask]\r\nObj[5] = a.fx\r\n");
    char got[256] = "";
    mmd_scene_emd_materials(path, collect_material, got);
    CHECK_STR(got, "2=a.fx;0=none;");
    got[0] = '\0';
    snprintf(path, sizeof path, "%s/rules/none.pmx", g_dir);
    mmd_scene_emd_materials(path, collect_material, got); /* no .emd: nothing */
    CHECK_STR(got, "");
    uint32_t n;
    int64_t m;
    CHECK(mmd_mme_assign_key("Pmd12[3]", "Pmd", &n, &m) && n == 12 && m == 3);
    CHECK(mmd_mme_assign_key("acs2", "Acs", &n, &m) && n == 2 && m == -1);
    CHECK(mmd_mme_assign_key("Obj[0]", "Obj", &n, &m) && n == 0 && m == 0);
    CHECK(!mmd_mme_assign_key("Pmd1[0-3]", "Pmd", &n, &m) && !mmd_mme_assign_key("Pmd1[]", "Pmd", &n, &m));
    CHECK(!mmd_mme_assign_key("Pmd1[1,4]", "Pmd", &n, &m) && !mmd_mme_assign_key("Pmd1[2", "Pmd", &n, &m));
    CHECK(!mmd_mme_assign_key("Pmd1[12345678901]", "Pmd", &n, &m) && !mmd_mme_assign_key("Acs1", "Pmd", &n, &m));
    touch("rules/b.fx");
    write_text("rules/b.emd", "[Effect]\nObj = none\n");
    snprintf(path, sizeof path, "%s/rules/b.pmx", g_dir);
    CHECK(mmd_scene_effect_beside(path, out, sizeof out) == MMD_EFFECT_NONE);
    touch("outside.fx");
    write_text("rules/c.emd", "[Effect]\nObj = ..\\outside.fx\n");
    snprintf(path, sizeof path, "%s/rules/c.pmx", g_dir);
    CHECK(mmd_scene_effect_beside(path, out, sizeof out) == MMD_EFFECT_NONE);
    CHECK_STR(mmd_effect_origin_name(MMD_EFFECT_EMD), "the file's .emd");
    CHECK(mmd_effect_by_file_name(MMD_EFFECT_NAME) && !mmd_effect_by_file_name(MMD_EFFECT_EMM));
}

/* Paths as Windows writes them: '\' and other letter case resolve as project
 * paths do (image/texpath.h), Shift-JIS byte names too; a missing file is
 * still named as written. */
TEST(windows_paths)
{
    mmd_scene *s;
    mmd_error err;
    char want[160];
    REQUIRE(parse("[model]\nfile = SUB\\B.PMX\nmotion = D1.VMD\n", &s, &err) == 0);
    snprintf(want, sizeof want, "%s/sub/b.pmx", g_dir);
    CHECK_STR(s->models[0].file, want);
    snprintf(want, sizeof want, "%s/d1.vmd", g_dir);
    CHECK_STR(s->models[0].motions[0], want);
    mmd_scene_free(s);
    /* a folder whose on-disk name is the Shift-JIS bytes of "モデル" */
    char dir[128], file[160];
    snprintf(dir, sizeof dir, "%s/\x83\x82\x83\x66\x83\x8b", g_dir);
    mkdir(dir, 0755);
    snprintf(file, sizeof file, "%s/m.pmx", dir);
    FILE *f = fopen(file, "wb");
    REQUIRE(f);
    fclose(f);
    REQUIRE(parse("[model]\nfile = モデル\\M.pmx\n", &s, &err) == 0);
    CHECK_STR(s->models[0].file, file);
    mmd_scene_free(s);
    expect_error("[model]\nfile = SUB\\nothere.pmx\n", 2, "cannot read model file");
    /* the exact name wins and keeps its spelling */
    REQUIRE(parse("[model]\nfile = ./a.pmx\n", &s, &err) == 0);
    snprintf(want, sizeof want, "%s/./a.pmx", g_dir);
    CHECK_STR(s->models[0].file, want);
    mmd_scene_free(s);
}

static mmd_status load_bytes(const char *bytes, mmd_scene **s, mmd_error *err)
{
    char path[128];
    snprintf(path, sizeof path, "%s/enc.ini", g_dir);
    FILE *f = fopen(path, "wb");
    if (!f)
        return MMD_E_IO;
    fputs(bytes, f);
    fclose(f);
    *s = NULL;
    return mmd_scene_load_file(path, s, err);
}

/* A Shift-JIS scene.ini is read converted (with the warning); bytes valid in
 * neither encoding are refused naming both. */
TEST(scene_encodings)
{
    mmd_scene *s;
    mmd_error err;
    /* "[model:踊り手]" in CP932 */
    REQUIRE(load_bytes("[model:\x97\x78\x82\xe8\x8e\xe8]\nfile = a.pmx\n", &s, &err) == 0);
    CHECK_STR(s->models[0].name, "踊り手");
    CHECK(s->read_as_sjis);
    char buf[256] = "";
    FILE *f = fmemopen(buf, sizeof buf, "w");
    REQUIRE(f);
    mmd_scene_warn(s, f, "x: ");
    fclose(f);
    CHECK(strstr(buf, "x: warning: ") && strstr(buf, "enc.ini: not UTF-8; read as Shift-JIS (CP932): save it as UTF-8"));
    mmd_scene_free(s);
    REQUIRE(load_bytes("[model:踊り手]\nfile = a.pmx\n", &s, &err) == 0);
    CHECK(!s->read_as_sjis);
    buf[0] = 0;
    f = fmemopen(buf, sizeof buf, "w");
    mmd_scene_warn(s, f, "x: ");
    fclose(f);
    CHECK_STR(buf, "");
    mmd_scene_free(s);
    CHECK_EQ_INT(load_bytes("[model]\nfile = a\x80\x80.pmx\n", &s, &err), MMD_E_BAD_STRING);
    CHECK(strstr(err.msg, "enc.ini: not UTF-8 text (") && strstr(err.msg, "nor Shift-JIS: save the scene as UTF-8"));
    CHECK(s == NULL);
}

/* text -> scene -> scene.ini text (mmd_scene_write) -> scene: the two scenes
 * hold the same values; writing is deterministic; *written the text. */
static void round_trip(const char *text, char **written)
{
    mmd_scene *a = NULL, *b = NULL;
    mmd_error err;
    char *t1 = NULL, *t2 = NULL, path[128];
    int rc = parse(text, &a, &err);
    if (rc)
        printf("#   %s\n", err.msg);
    REQUIRE(rc == MMD_OK);
    REQUIRE(mmd_scene_write(a, g_dir, "round trip", &t1, NULL, &err) == MMD_OK);
    snprintf(path, sizeof path, "%s/written.ini", g_dir);
    rc = mmd_scene_parse(t1, path, true, &b, &err);
    if (rc)
        printf("#   %s\n#   in:\n%s\n", err.msg, t1);
    REQUIRE(rc == MMD_OK);
    char *da = mmd_test_scene_dump(a), *db = mmd_test_scene_dump(b);
    REQUIRE(da && db);
    if (strcmp(da, db))
        printf("#   before:\n%s#   after:\n%s#   text:\n%s", da, db, t1);
    CHECK_STR(db, da);
    REQUIRE(mmd_scene_write(b, g_dir, "round trip", &t2, NULL, &err) == MMD_OK);
    CHECK_STR(t2, t1);
    free(da);
    free(db);
    free(t2);
    mmd_scene_free(a);
    mmd_scene_free(b);
    *written = t1;
}

TEST(writer_round_trip)
{
    const char *rich = "[output]\nsize = 640x360\nfps = 30000/1001\nframes = 10-20\nantialias = 2\n"
                       "background = transparent\nground_shadow = off\nground_shadow_brightness = 0.3\n"
                       "ground_shadow_translucent = on\nedge_color = #ff8000\ntexture_filter = trilinear\n"
                       "[camera]\nmotion = cam.vmd\ntarget = 1 2.5, -3\nrotation = 90 0.1 -180\ndistance = -30.7\n"
                       "fov = 45\nprojection = orthographic\nfollow = miku:センター @5\nfollow = none @9.5\n"
                       "[light]\ncolor = #9a9a9a\ndirection = -0.5 -1 0.5\n"
                       "[model:miku]\nfile = a.pmx\nmotion = d1.vmd\nmotion = d2.vmd\nphysics = off\nedge_width = 1.5\n"
                       "add_blend = on\nself_shadow = off\ncalc_order = 3\nposition = 0 0 0\neffect = sub/obj.fx\n"
                       "material_effect = 7 fan.fx\nmaterial_effect = 2 none\n"
                       "[model:stage]\nfile = sub/b.pmx\nrotation = 0 90 0\nscale = 0.1\n"
                       "outside_parent = センター -> miku:右手首 @2\noutside_parent = センター -> none @7\n"
                       "[accessory:fan]\nfile = fan.x\nscale = 0\nopacity = 0.25\nparent = miku:右手首\n"
                       "visible = off\nshadow = off\nadd_blend = on\nafter_models = on\neffect = fan.fx\n"
                       "material_effect = 0 sub/obj.fx\n"
                       "[accessory]\nfile = stage.x\nposition = 1 2 3\nparent = miku:頭 @1\nparent = none @30\n"
                       "key = 30 0 2 0 0 0 0 1 1 on on\nkey = 0 0.1 1 0 0 0 90.5 0.5 0.5 on off\n"
                       "[audio]\nfile = beat.wav\noffset = -1.25\n"
                       "[background]\nimage = sky.png\noffset = 10 -5\nscale = 0.5\nvideo = clip.avi\n"
                       "video_offset = -20 -10\nvideo_scale = 0.25\n"
                       "[effects]\nglow = on\nglow_strength = 2\nglow_radius = 0.25\nsoft_shadow = contact\n"
                       "soft_shadow_radius = 3\ndiffusion = on\ndiffusion_strength = 1.5\ndiffusion_threshold = 0.7\n"
                       "ssaa = 3\nfxaa = on\npost = sky.png\npost = fan.x\n"
                       "[gravity]\nkey = 20 5 0 1 0\nkey = 0 9.8 0 -1 0\n";
    char *t = NULL;
    round_trip(rich, &t);
    REQUIRE(t);
    CHECK(strstr(t, "; round trip\n\n[output]\nsize = 640x360\nfps = 30000/1001\nframes = 10-20\n") == t);
    CHECK(strstr(t, "\n[model:stage]\nfile = sub/b.pmx\nposition = 0 0 0\nrotation = 0 90 0\nscale = 0.1\n"
                    "outside_parent = センター -> miku:右手首 @2\noutside_parent = センター -> none @7\n\n"));
    CHECK(strstr(t, "\nparent = miku:右手首 @0\nmaterial_effect = 0 sub/obj.fx\n\n[accessory]\nfile = stage.x\nposition = 1 2 3\n"
                    "parent = miku:頭 @1\nparent = none @30\nkey = 0 0.1 1 0 0 0 90.5 0.5 0.5 on off\n"));
    CHECK(strstr(t, "\nmotion = d2.vmd\nmaterial_effect = 2 none\nmaterial_effect = 7 fan.fx\n") != NULL);
    CHECK(strstr(t, "\n[camera]\nmotion = cam.vmd\nposition = 1 2.5 -3\nrotation = 90 0.1 -180\ndistance = -30.7\n") != NULL);
    free(t);
    /* the comparison sees a typed row's field (from the table) and a custom one */
    mmd_scene *x;
    mmd_error err;
    REQUIRE(parse(rich, &x, &err) == MMD_OK);
    char *d0 = mmd_test_scene_dump(x);
    x->accessories[0].place.opacity = 0.5f;
    char *d1 = mmd_test_scene_dump(x);
    x->models[1].parents[1].frame = 8;
    char *d2 = mmd_test_scene_dump(x);
    CHECK(d0 && d1 && d2 && strcmp(d0, d1) && strcmp(d1, d2));
    free(d0), free(d1), free(d2);
    mmd_scene_free(x);
    /* the defaults: nothing but the model's file */
    round_trip("[model]\nfile = a.pmx\n", &t);
    CHECK_STR(t ? t : "", "; round trip\n\n[model]\nfile = a.pmx\n\n");
    free(t);
    /* colours, rates and a placement that is all defaults */
    round_trip("[output]\nbackground = #000000\nfps = 60\n[light]\ncolor = 0.5 0.25 1\n[model]\nfile = a.pmx\n"
               "scale = 1\n[accessory]\nfile = stage.x\nrotation = 0 0 0\n[effects]\nsoft_shadow = on\n", &t);
    CHECK(t && strstr(t, "[model]\nfile = a.pmx\nposition = 0 0 0\nrotation = 0 0 0\nscale = 1\n"));
    CHECK(t && strstr(t, "[accessory]\nfile = stage.x\nrotation = 0 0 0\n\n"));
    free(t);
}

/* A value the writer cannot put on a line (a bone name with a newline) is
 * refused, nothing written. */
TEST(writer_refuses_what_a_line_cannot_hold)
{
    mmd_scene *s;
    mmd_error err;
    REQUIRE(parse("[model:a]\nfile = a.pmx\noutside_parent = x -> a:y\n", &s, &err) == MMD_OK);
    s->models[0].parents[0].bone = "bad\nname";
    char *t = (char *)"unset";
    CHECK_EQ_INT(mmd_scene_write(s, NULL, NULL, &t, NULL, &err), MMD_E_OUTPUT);
    CHECK(t == NULL);
    CHECK(strstr(err.msg, "outside_parent") && strstr(err.msg, "cannot hold"));
    mmd_scene_free(s);
}

/* The whole file as a string (NULL when it cannot be read). */
static char *slurp(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    static char buf[1 << 18];
    size_t n = fread(buf, 1, sizeof buf - 1, f);
    fclose(f);
    buf[n] = 0;
    return strdup(buf);
}

/* docs/scenes.md (the scene reference README links) shows every key of the
 * table as "name = " in its section's example, with its range on that line;
 * the fuzz dictionary's generated part (mmd_scene_keys_dict) names every key. */
TEST(table_is_documented)
{
    char *doc = slurp("docs/scenes.md"), *dict = NULL;
    size_t dict_size = 0;
    FILE *df = open_memstream(&dict, &dict_size);
    REQUIRE(df);
    mmd_scene_keys_dict(df);
    fclose(df);
    REQUIRE(doc && dict);
    size_t n;
    const mmd_scene_key *k = mmd_scene_keys(&n);
    for (size_t i = 0; i < n; i++) {
        char want[96], range[64];
        /* the section's example: from its first header to the next other section or the code block's end */
        const char *sec = mmd_scene_section_names[k[i].section], *from = doc, *end = NULL;
        snprintf(want, sizeof want, "\n[%s", sec);
        from = strstr(doc, want);
        for (const char *h = from ? strstr(from + 1, "\n[") : NULL; h && !end; h = strstr(h + 1, "\n["))
            if (strncmp(h + 2, sec, strlen(sec)))
                end = h;
        const char *fence = from ? strstr(from, "\n```") : NULL;
        if (!end || (fence && fence < end))
            end = fence;
        snprintf(want, sizeof want, "\n%s = ", k[i].name);
        const char *line = from ? strstr(from, want) : NULL;
        if (line && end && line > end)
            line = NULL;
        if (!line)
            printf("#   docs/scenes.md: [%s] does not show '%s = '\n", sec, k[i].name);
        CHECK(line != NULL);
        if (line && k[i].expect && strstr(k[i].expect, "%R")) {
            mmd_scene_key_range(&k[i], range, sizeof range);
            const char *eol = strchr(line + 1, '\n'), *r = strstr(line, range);
            if (!r || !eol || r > eol)
                printf("#   docs/scenes.md: [%s] '%s' without its range %s on its line\n", sec, k[i].name, range);
            CHECK(r && eol && r < eol);
        }
        snprintf(want, sizeof want, "k_%s=\"%s = \"\n", k[i].name, k[i].name);
        if (!strstr(dict, want))
            printf("#   the dictionary lacks %s", want);
        CHECK(strstr(dict, want) != NULL);
    }
    free(doc);
    free(dict);
}

int main(void)
{
    snprintf(g_dir, sizeof g_dir, "/tmp/mmd_scene_XXXXXX");
    if (!mkdtemp(g_dir))
        return 1;
    char sub[96];
    snprintf(sub, sizeof sub, "%s/sub", g_dir);
    mkdir(sub, 0755);
    snprintf(sub, sizeof sub, "%s/rules", g_dir);
    mkdir(sub, 0755);
    snprintf(sub, sizeof sub, "%s/rules/fx", g_dir);
    mkdir(sub, 0755);
    touch("a.pmx");
    touch("sub/b.pmx");
    touch("d1.vmd");
    touch("d2.vmd");
    touch("cam.vmd");
    touch("beat.wav");
    touch("stage.x");
    touch("fan.vac");
    touch("fan.x");
    touch("sky.png");
    touch("clip.avi");
    touch("sub/obj.fx");
    touch("fan.fx");
    RUN(every_key);
    RUN(defaults);
    RUN(texture_filter);
    RUN(comments_and_transparent);
    RUN(errors_with_line);
    RUN(effects_section);
    RUN(missing_files);
    RUN(load_file);
    RUN(value_parsers);
    RUN(long_line);
    RUN(utf8_bom);
    RUN(accessories);
    RUN(accessory_errors);
    RUN(accessory_keys_and_gravity);
    RUN(model_placement);
    RUN(windows_paths);
    RUN(scene_encodings);
    RUN(object_effects);
    RUN(effect_file_name_rules);
    RUN(writer_round_trip);
    RUN(writer_refuses_what_a_line_cannot_hold);
    RUN(table_is_documented);
    char cmd[128];
    snprintf(cmd, sizeof cmd, "rm -rf %s", g_dir);
    if (system(cmd) != 0)
        printf("# could not remove %s\n", g_dir);
    return test_finish();
}
