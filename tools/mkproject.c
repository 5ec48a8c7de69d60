/* tools/mkproject.c - MikuMikuDance projects for the CLI tests (tests/cli/project.sh),
 * written by our own writers (core/pmm.h, core/pmx_write.h):
 *
 *   mkproject DIR
 *
 * DIR/assets/Model/dancer.pmx   bones センター, 右腕 (child), 右手首 (child of 右腕);
 *                                a triangle on each bone
 * DIR/assets/Model/Fan.pmx      bone センター with a flat fan (two triangles)
 * DIR/proj/song.pmm             v2: dancer as "C:\MMD\UserFile\Model\dancer.pmx",
 *                                the fan as "UserFile\model\fan.pmx" (other case),
 *                                a missing accessory and a box accessory in the
 *                                dancer's right wrist (key 0) then in the world (key 30:
 *                                y 2, no rotation, Si 1, opaque), gravity up at 5 from
 *                                frame 20, begin/end 0-40, black background,
 *                                no ground shadow;
 *                                dancer: センター moves, 右腕 swings (0..40);
 *                                fan: センター's outside parent is dancer 右手首 from
 *                                frame 0; camera follows dancer センター from frame 20;
 *                                v2 also: dancer edge width 2 and self-shadow off, fan
 *                                add-blend, edge colour, translucent ground shadow at
 *                                brightness 0.5, background image "UserFile\BackGround\sky.bmp"
 *                                at offset (10, 5) and scale 0.5, background video
 *                                "UserFile\BackGround\clip.mkv" at (-20, -10) x 0.25 (the
 *                                test renders that file)
 * DIR/assets/BackGround/sky.bmp 16x12 24-bit BMP: a blue top half, an orange bottom half
 * DIR/assets/Accessory/fan.x    a small box (.x text)
 * DIR/proj/song.emm             MME assignments (one effect for Pmd1); links.emm the same
 * DIR/proj/AutoLuminous.fx       Pmd1's effect (found by its bare name), an empty object
 *                                technique: the dancer not drawn (also with the self-shadow on)
 * DIR/proj/song_v1.pmm          the same project as version 1 (no outside parents)
 * DIR/proj/cycle.pmm            dancer センター follows fan センター: a cycle
 * DIR/proj/links.pmm, links_v1.pmm  song.pmm and song_v1.pmm with the key-link shape of MMD's
 *                                own samples: 右腕's last key links to key 16, which does not exist
 * DIR/proj/media.pmm            song.pmm with the song "song.wav" and the background
 *                                video "clip.avi", both beside it (tests/cli/hostile.sh
 *                                writes them: playlists that must not be followed)
 *
 *   mkproject --one OUT.pmm KIND=PATH...
 *
 * A v2 project naming the files given, each PATH stored as written (any bytes:
 * absolute, "..\", "\\srv\share\...", control characters): KIND model (named
 * m1, m2, ... with one bone センター), accessory (a1, ...), image, video or
 * audio (the background image, video and song, enabled). For the path tests
 * of tests/cli/project.sh.
 * DIR/proj/music.pmm            song.pmm with its song "UserFile\Wave\song.wav" on (the
 *                                test writes that file: tests/cli/encode.sh)
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "core/model.h"
#include "core/pmm.h"
#include "core/pmx_write.h"
#include "tests/util/x_fixture.h"

static int save(const char *dir, const char *name, const void *buf, size_t n)
{
    char path[1024];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    FILE *f = fopen(path, "wb");
    if (!f || fwrite(buf, 1, n, f) != n || fclose(f) != 0) {
        perror(path);
        return 1;
    }
    return 0;
}

/* One triangle per bone around its position, coloured. */
static int write_model(const char *dir, const char *name, const char *const *bones, const float (*pos)[3],
                       const int32_t *parents, uint32_t nb, const float color[3])
{
    mmd_model *m = mmd_model_new();
    if (!m)
        return 1;
    m->name = mmd_model_str(m, name);
    mmd_bone *b = mmd_model_add_bones(m, nb);
    mmd_vertex *v = mmd_model_add_vertices(m, 3 * nb);
    uint32_t *ix = mmd_model_add_indices(m, 3 * nb);
    mmd_material *mt = mmd_model_add_materials(m, 1);
    for (uint32_t i = 0; i < nb; i++) {
        b[i].name = mmd_model_str(m, bones[i]);
        memcpy(b[i].position, pos[i], sizeof pos[i]);
        b[i].parent = parents[i];
        for (int k = 0; k < 3; k++) {
            mmd_vertex *x = &v[3 * i + k];
            memcpy(x->position, pos[i], sizeof x->position);
            x->position[0] += k == 1 ? 1.5f : 0;
            x->position[1] += k == 2 ? 1.5f : 0;
            x->normal[2] = -1;
            x->bones[0] = (int32_t)i;
            ix[3 * i + k] = 3 * i + (uint32_t)k;
        }
    }
    memcpy(mt[0].diffuse, color, 3 * sizeof *color);
    mt[0].diffuse[3] = 1;
    mt[0].index_count = 3 * nb;
    mt[0].flags |= MMD_MAT_DOUBLE_SIDED;
    uint8_t *buf = NULL;
    size_t n = 0;
    mmd_error err;
    int rc = mmd_pmx_write(m, &buf, &n, &err) == MMD_OK ? save(dir, name, buf, n) : 1;
    free(buf);
    mmd_model_free(m);
    return rc;
}

static const char *const DANCER_BONES[3] = {"センター", "右腕", "右手首"};
static const char *const FAN_BONES[1] = {"センター"};

static mmd_pmm *project(int version, bool cycle)
{
    static const int32_t op[2] = {-1, 0};
    mmd_pmm *p = mmd_pmm_new();
    if (!p)
        exit(1);
    p->version = version;
    p->width = 160;
    p->height = 120;
    p->begin_enabled = p->end_enabled = true;
    p->end_frame = 40;
    p->black_background = true;
    p->ground_shadow = false;
    uint32_t ops = version > 1 ? 2 : 0;
    mmd_pmm_model *d = mmd_pmm_add_model(p, "dancer", "C:\\MMD\\UserFile\\Model\\dancer.pmx", DANCER_BONES, 3,
                                         NULL, 0, NULL, 0, op, ops);
    mmd_pmm_model *f = mmd_pmm_add_model(p, "fan", "UserFile\\model\\fan.pmx", FAN_BONES, 1, NULL, 0, NULL, 0, op, ops);
    if (!d || !f)
        exit(1);
    d = &p->models[0];
    f = &p->models[1];
    mmd_pmm_add_bone_key(p, d, 0, 40)->position[0] = 4;
    mmd_pmm_bone_key *k = mmd_pmm_add_bone_key(p, d, 1, 40);
    k->rotation[2] = 0.7071068f; /* 90 degrees about Z */
    k->rotation[3] = 0.7071068f;
    mmd_pmm_bone_key *fk = &f->bones[0].keys[0]; /* the fan's own pose in the hand */
    fk->position[1] = 0.5f;
    fk->rotation[0] = 0.2588190f; /* 30 degrees about X */
    fk->rotation[3] = 0.9659258f;
    if (version > 1) {
        f->keys[0].parents[1] = (mmd_pmm_parent){0, 2};
        if (cycle)
            d->keys[0].parents[1] = (mmd_pmm_parent){1, 0};
        mmd_pmm_camera_key *c = mmd_pmm_add_camera_key(p, 20);
        c->look_at = (mmd_pmm_parent){0, 0};
    }
    mmd_pmm_add_camera_key(p, 0)->target[1] = 10;
    if (version > 1) { /* appearance (issue 16) */
        d->look.edge_width = 2;
        d->look.self_shadow = false;
        f->look.add_blend = true;
        p->edge_color[0] = 1;
        p->edge_color[1] = 0.5f;
        p->ground_shadow_brightness = 0.5f;
        p->ground_shadow_translucent = true;
        p->image_enabled = true;
        p->image_path = "UserFile\\BackGround\\sky.bmp";
        p->image_offset[0] = 10;
        p->image_offset[1] = 5;
        p->image_scale = 0.5f;
        p->video_enabled = true; /* written by tests/cli/project.sh (mkproject has no encoder) */
        p->video_path = "UserFile\\BackGround\\clip.mkv";
        p->video_offset[0] = -20;
        p->video_offset[1] = -10;
        p->video_scale = 0.25f;
    }
    mmd_pmm_add_accessory(p, "stage", "UserFile\\Accessory\\stage.x");
    mmd_pmm_accessory *x = mmd_pmm_add_accessory(p, "fan", "UserFile\\Accessory\\Fan.x");
    if (!x)
        exit(1);
    x->keys[0].parent = (mmd_pmm_parent){0, 2};
    x->keys[0].position[1] = 1;
    x->keys[0].rotation[2] = 1.5707964f; /* 90 degrees */
    x->keys[0].scale = 0.5f;              /* Si 0.5 */
    x->keys[0].opacity = 0.5f;
    x->add_blend = version > 1;
    mmd_pmm_accessory_key *x30 = mmd_pmm_add_accessory_key(p, x, 30); /* a copy of the first, then: */
    mmd_pmm_gravity_key *g20 = version > 1 ? mmd_pmm_add_gravity_key(p, 20) : NULL;
    if (!x30 || (version > 1 && !g20))
        exit(1);
    x30->parent = (mmd_pmm_parent){-1, -1}; /* off the hand: back in the world */
    x30->position[1] = 2;
    x30->rotation[2] = 0;
    x30->scale = 1;                       /* Si 1 */
    x30->opacity = 1;
    if (g20) {                            /* from frame 20 gravity pulls up, at 5 */
        g20->acceleration = 5;
        g20->direction[1] = 1;
    }
    return p;
}

/* The key-link shape of MMD's own sample projects (issue 25): a track's last key links on to a
 * key index that does not exist. Our writer gives the dancer's 右腕 key at 40 data index 4
 * (3 initial keys, then センター@40) with previous 1 and next 0; its next becomes 16, past every
 * key of the model. 0 when that record is found exactly once. */
static int dangle_link(uint8_t *buf, size_t n)
{
    const int32_t want[4] = {4, 40, 1, 0}, dangling = 16;
    size_t hits = 0, at = 0;
    for (size_t i = 0; i + sizeof want <= n; i++)
        if (memcmp(buf + i, want, sizeof want) == 0)
            hits++, at = i;
    if (hits != 1)
        return 1;
    memcpy(buf + at + 12, &dangling, 4);
    return 0;
}

static int write_project(const char *dir, const char *name, mmd_pmm *p, bool dangling)
{
    uint8_t *buf = NULL;
    size_t n = 0;
    mmd_error err;
    int rc = mmd_pmm_write(p, &buf, &n, &err) == MMD_OK ? 0 : 1;
    rc = rc || (dangling && dangle_link(buf, n)) || save(dir, name, buf, n);
    free(buf);
    mmd_pmm_free(p);
    return rc;
}

/* 16x12 24-bit BMP (bottom-up rows): blue top half, orange bottom half. */
static int write_bmp(const char *dir, const char *name)
{
    enum { BW = 16, BH = 12, ROW = BW * 3, SIZE = 54 + ROW * BH };
    uint8_t b[SIZE] = {'B', 'M'};
    const uint32_t hdr[] = {SIZE, 0, 54, 40, BW, BH};
    for (int i = 0; i < 6; i++)
        for (int k = 0; k < 4; k++)
            b[2 + i * 4 + k] = (uint8_t)(hdr[i] >> (8 * k));
    b[26] = 1;  /* planes */
    b[28] = 24; /* bits per pixel */
    for (int y = 0; y < BH; y++)
        for (int x = 0; x < BW; x++) {
            uint8_t *q = b + 54 + y * ROW + x * 3; /* B, G, R; row 0 is the bottom */
            bool top = y >= BH / 2;
            q[0] = top ? 230 : 40, q[1] = top ? 120 : 140, q[2] = top ? 40 : 240;
        }
    return save(dir, name, b, sizeof b);
}

/* mkproject --one OUT.pmm KIND=PATH... (see the top). */
static int one_project(int argc, char **argv)
{
    mmd_pmm *p = mmd_pmm_new();
    if (!p)
        return 1;
    unsigned models = 0, accessories = 0;
    for (int i = 3; i < argc; i++) {
        char name[16];
        const char *eq = strchr(argv[i], '='), *v = eq ? eq + 1 : "";
        size_t k = eq ? (size_t)(eq - argv[i]) : 0;
        bool ok = true;
        if (k == 5 && !strncmp(argv[i], "model", 5)) {
            snprintf(name, sizeof name, "m%u", ++models);
            ok = mmd_pmm_add_model(p, name, v, FAN_BONES, 1, NULL, 0, NULL, 0, NULL, 0) != NULL;
        } else if (k == 9 && !strncmp(argv[i], "accessory", 9)) {
            snprintf(name, sizeof name, "a%u", ++accessories);
            ok = mmd_pmm_add_accessory(p, name, v) != NULL;
        } else if (k == 5 && !strncmp(argv[i], "image", 5)) {
            p->image_enabled = true, p->image_path = argv[i] + 6;
        } else if (k == 5 && !strncmp(argv[i], "video", 5)) {
            p->video_enabled = true, p->video_path = argv[i] + 6;
        } else if (k == 5 && !strncmp(argv[i], "audio", 5)) {
            p->audio_enabled = true, p->audio_path = argv[i] + 6;
        } else {
            fprintf(stderr, "mkproject --one: expected model=, accessory=, image=, video= or audio=PATH, got '%s'\n",
                    argv[i]);
            ok = false;
        }
        if (!ok) {
            mmd_pmm_free(p);
            return 1;
        }
    }
    const char *slash = strrchr(argv[2], '/');
    char dir[1024];
    snprintf(dir, sizeof dir, "%.*s", slash ? (int)(slash - argv[2]) : 1, slash ? argv[2] : ".");
    return write_project(dir, slash ? slash + 1 : argv[2], p, false);
}

int main(int argc, char **argv)
{
    if (argc >= 3 && !strcmp(argv[1], "--one"))
        return one_project(argc, argv);
    if (argc != 2) {
        fprintf(stderr, "usage: mkproject DIR | mkproject --one OUT.pmm KIND=PATH...\n");
        return 1;
    }
    char assets[1024], model[1024], proj[1024];
    snprintf(assets, sizeof assets, "%s/assets", argv[1]);
    snprintf(model, sizeof model, "%s/assets/Model", argv[1]);
    snprintf(proj, sizeof proj, "%s/proj", argv[1]);
    const char *dirs[4] = {argv[1], assets, model, proj};
    for (int i = 0; i < 4; i++)
        if (mkdir(dirs[i], 0755) != 0 && errno != EEXIST) {
            perror(dirs[i]);
            return 1;
        }
    static const float dpos[3][3] = {{0, 0, 0}, {1, 10, 0}, {4, 10, 0}}, fpos[1][3] = {{0, 0, 0}};
    static const int32_t dpar[3] = {-1, 0, 1}, fpar[1] = {-1};
    static const float red[3] = {1, 0.2f, 0.2f}, blue[3] = {0.2f, 0.3f, 1};
    static const char emm[] = "[Info]\r\nVersion = 3\r\n\r\n[Effect]\r\nOwner = 0\r\nPmd1 = ..\\fx\\AutoLuminous.fx\r\n"
                              "Pmd2 = none\r\n\r\n[Effect@ShadowBuffer]\r\nPmd1 = ..\\fx\\shadow.fx\r\n";
    int rc = write_model(model, "dancer.pmx", DANCER_BONES, dpos, dpar, 3, red);
    rc |= write_model(model, "Fan.pmx", FAN_BONES, fpos, fpar, 1, blue);
    rc |= write_project(proj, "song.pmm", project(2, false), false);
    rc |= write_project(proj, "song_v1.pmm", project(1, false), false);
    rc |= write_project(proj, "cycle.pmm", project(2, true), false);
    rc |= write_project(proj, "links.pmm", project(2, false), true);
    rc |= write_project(proj, "links_v1.pmm", project(1, false), true);
    mmd_pmm *media = project(2, false);
    media->audio_enabled = true;
    media->audio_path = "song.wav";
    media->video_path = "clip.avi";
    rc |= write_project(proj, "media.pmm", media, false);
    mmd_pmm *music = project(2, false);
    music->audio_enabled = true;
    music->audio_path = "UserFile\\Wave\\song.wav";
    rc |= write_project(proj, "music.pmm", music, false);
    rc |= save(proj, "song.emm", emm, sizeof emm - 1);
    rc |= save(proj, "links.emm", emm, sizeof emm - 1); /* links.pmm draws as song.pmm: its effects too */
    static const char fx[] = "technique T < string MMDPass = \"object\"; > { }\n"; /* Pmd1's, found by its bare name */
    rc |= save(proj, "AutoLuminous.fx", fx, sizeof fx - 1);
    mmd_xmesh *box = x_fixture_box(0, 0, 0, 0.1f, 0.1f, 0.1f);
    size_t xn = 0;
    uint8_t *xb = box ? x_fixture_bytes(box, 0, 32, true, NULL, &xn) : NULL;
    char acc[1024];
    snprintf(acc, sizeof acc, "%s/assets/Accessory", argv[1]);
    rc |= !xb || (mkdir(acc, 0755) != 0 && errno != EEXIST) || save(acc, "fan.x", xb, xn);
    char bg[1024];
    snprintf(bg, sizeof bg, "%s/assets/BackGround", argv[1]);
    rc |= (mkdir(bg, 0755) != 0 && errno != EEXIST) || write_bmp(bg, "sky.bmp");
    free(xb);
    mmd_x_free(box);
    return rc;
}
