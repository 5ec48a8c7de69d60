/* tests/unit/test_pmm.c - PMM reader and writer: round trips (v2, v1), the
 * two real projects in ../shared/assets/pmm, truncation, hostile links. */
#include <stdlib.h>
#include <string.h>

#include "core/file.h"
#include "core/pmm.h"
#include "tests/util/test.h"

TEST_STATE_DEFINE

static const char *BONES[] = {"センター", "右手首", "左足ＩＫ", "全ての親"};
static const char *MORPHS[] = {"あ", "まばたき"};

/* A project using every field the reader carries. */
static mmd_pmm *full_project(int version)
{
    mmd_pmm *p = mmd_pmm_new();
    p->version = version;
    p->width = 640;
    p->height = 360;
    p->fps = 60;
    p->begin_enabled = p->end_enabled = true;
    p->begin_frame = 10;
    p->end_frame = 90;
    p->audio_enabled = true;
    p->audio_path = "C:\\MMD\\UserFile\\Wave\\曲.wav";
    p->image_enabled = true;
    p->image_path = "UserFile\\BackGround\\bg.png";
    p->image_scale = 1.5f;
    p->image_offset[0] = -12, p->image_offset[1] = 34;
    p->video_enabled = true;
    p->video_path = "UserFile\\BackGround\\bg.avi";
    p->video_offset[0] = 7, p->video_offset[1] = -8;
    p->video_scale = 0.75f;
    p->ground_shadow_brightness = 0.5f;
    p->accessories_after_models = 1;
    if (version > 1) {
        p->physics = MMD_PMM_PHYSICS_ALWAYS;
        p->edge_color[1] = 1;
        p->black_background = true;
        p->ground_shadow_translucent = true;
        p->self_shadow_distance = 0.02f;
    }
    const int32_t ik[1] = {2}, op[2] = {-1, 0};
    mmd_pmm_model *a = mmd_pmm_add_model(p, "ミク", "C:\\MMD\\UserFile\\Model\\miku.pmx", BONES, 4, MORPHS, 2,
                                         ik, 1, op, version > 1 ? 2 : 0);
    mmd_pmm_model *b = mmd_pmm_add_model(p, "扇子", "UserFile\\Model\\fan.pmx", BONES, 1, NULL, 0, NULL, 0,
                                         op, version > 1 ? 2 : 0);
    a = &p->models[0];
    (void)b;
    if (version == 1)
        p->models[0].calc_order = p->models[1].calc_order = 0; /* v1 does not store it */
    mmd_pmm_bone_key *k = mmd_pmm_add_bone_key(p, a, 0, 30);
    k->position[1] = 2.5f;
    k->interp[4] = 64;
    k->physics_off = version > 1;
    k = mmd_pmm_add_bone_key(p, a, 0, 15);
    k->position[0] = -1;
    k = mmd_pmm_add_bone_key(p, a, 1, 20);
    k->rotation[0] = 0.5f;
    k->rotation[3] = 0.8660254f;
    mmd_pmm_add_morph_key(p, a, 1, 12)->weight = 1;
    mmd_pmm_model_key *mk = mmd_pmm_add_model_key(p, a, 40);
    mk->visible = false;
    mk->ik_enabled[0] = false;
    if (version > 1) {
        mmd_pmm_model_key *bk = mmd_pmm_add_model_key(p, &p->models[1], 5);
        bk->parents[1] = (mmd_pmm_parent){0, 1}; /* fan's centre follows miku's right wrist */
        p->models[0].look.add_blend = true;
        p->models[0].look.edge_width = 1.25f;
        p->models[0].look.self_shadow = false;
        p->models[0].calc_order = 2;
        p->models[1].calc_order = 1;
    }
    mmd_pmm_camera_key *c = mmd_pmm_add_camera_key(p, 50);
    c->distance = -20;
    c->fov = 45;
    c->perspective = false;
    c->interp[20] = 1;
    if (version > 1)
        c->look_at = (mmd_pmm_parent){0, 0};
    mmd_pmm_light_key *l = mmd_pmm_add_light_key(p, 25);
    l->color[0] = 1;
    mmd_pmm_accessory *x = mmd_pmm_add_accessory(p, "stage", "UserFile\\Accessory\\stage.x");
    mmd_pmm_accessory_key *xk = mmd_pmm_add_accessory_key(p, x, 8);
    xk->opacity = 0.5f;
    xk->parent = (mmd_pmm_parent){1, 0};
    xk->scale = 2;
    xk->visible = false;
    x->add_blend = version > 1;
    if (version > 1) {
        mmd_pmm_gravity_key *g = mmd_pmm_add_gravity_key(p, 33);
        g->acceleration = 4;
        g->direction[0] = 1; /* sideways from frame 33 */
        g->direction[1] = 0;
        g->noise = true;
        mmd_pmm_shadow_key *s = mmd_pmm_add_shadow_key(p, 44);
        s->mode = 2;
        s->distance = 0.03f;
    }
    return p;
}

static bool v1_model(void *user, const char *path, mmd_pmm_v1_model *out)
{
    (void)user;
    static const int32_t ik[1] = {2};
    if (strstr(path, "miku")) {
        *out = (mmd_pmm_v1_model){BONES, 4, MORPHS, 2, ik, 1};
        return true;
    }
    if (strstr(path, "fan")) {
        *out = (mmd_pmm_v1_model){BONES, 1, NULL, 0, NULL, 0};
        return true;
    }
    return false;
}

static void same_project(const mmd_pmm *a, const mmd_pmm *b)
{
    CHECK_EQ_INT(a->version, b->version);
    CHECK_EQ_INT(a->width, b->width);
    CHECK_EQ_INT(a->height, b->height);
    CHECK(a->fps == b->fps);
    CHECK_EQ_INT(a->begin_frame, b->begin_frame);
    CHECK_EQ_INT(a->end_frame, b->end_frame);
    CHECK(a->begin_enabled == b->begin_enabled && a->end_enabled == b->end_enabled);
    CHECK(a->audio_enabled == b->audio_enabled);
    CHECK_STR(a->audio_path, b->audio_path);
    CHECK_STR(a->image_path, b->image_path);
    CHECK(a->image_scale == b->image_scale);
    CHECK(a->image_offset[0] == b->image_offset[0] && a->image_offset[1] == b->image_offset[1]);
    CHECK(a->video_enabled == b->video_enabled && a->image_enabled == b->image_enabled);
    CHECK_STR(a->video_path, b->video_path);
    CHECK(a->video_offset[0] == b->video_offset[0] && a->video_offset[1] == b->video_offset[1]);
    CHECK(a->video_scale == b->video_scale);
    CHECK(a->ground_shadow_translucent == b->ground_shadow_translucent);
    CHECK(a->ground_shadow_brightness == b->ground_shadow_brightness);
    CHECK_EQ_INT(a->accessories_after_models, b->accessories_after_models);
    CHECK_EQ_INT(a->physics, b->physics);
    CHECK(!memcmp(a->edge_color, b->edge_color, sizeof a->edge_color));
    CHECK(a->black_background == b->black_background);
    CHECK(a->self_shadow_distance == b->self_shadow_distance);
    REQUIRE(a->model_count == b->model_count);
    for (uint32_t i = 0; i < a->model_count; i++) {
        const mmd_pmm_model *x = &a->models[i], *y = &b->models[i];
        CHECK_STR(x->name, y->name);
        CHECK_STR(x->path, y->path);
        REQUIRE(x->bone_count == y->bone_count && x->morph_count == y->morph_count);
        CHECK(x->ik_count == y->ik_count && x->op_count == y->op_count);
        CHECK_EQ_INT(x->draw_order, y->draw_order);
        CHECK_EQ_INT(x->calc_order, y->calc_order);
        CHECK(x->look.add_blend == y->look.add_blend && x->look.self_shadow == y->look.self_shadow);
        CHECK(x->look.edge_width == y->look.edge_width);
        for (uint32_t j = 0; j < x->bone_count; j++) {
            CHECK_STR(x->bones[j].name, y->bones[j].name);
            REQUIRE(x->bones[j].key_count == y->bones[j].key_count);
            CHECK(!memcmp(x->bones[j].keys, y->bones[j].keys, x->bones[j].key_count * sizeof *x->bones[j].keys));
        }
        for (uint32_t j = 0; j < x->morph_count; j++) {
            REQUIRE(x->morphs[j].key_count == y->morphs[j].key_count);
            CHECK(!memcmp(x->morphs[j].keys, y->morphs[j].keys, x->morphs[j].key_count * sizeof *x->morphs[j].keys));
        }
        REQUIRE(x->key_count == y->key_count);
        for (uint32_t j = 0; j < x->key_count; j++) {
            CHECK_EQ_INT(x->keys[j].frame, y->keys[j].frame);
            CHECK(x->keys[j].visible == y->keys[j].visible);
            for (uint32_t q = 0; q < x->ik_count; q++)
                CHECK(x->keys[j].ik_enabled[q] == y->keys[j].ik_enabled[q]);
            for (uint32_t q = 0; q < x->op_count; q++)
                CHECK(!memcmp(&x->keys[j].parents[q], &y->keys[j].parents[q], sizeof(mmd_pmm_parent)));
        }
    }
    REQUIRE(a->camera_key_count == b->camera_key_count);
    CHECK(!memcmp(a->camera_keys, b->camera_keys, a->camera_key_count * sizeof *a->camera_keys));
    REQUIRE(a->light_key_count == b->light_key_count);
    CHECK(!memcmp(a->light_keys, b->light_keys, a->light_key_count * sizeof *a->light_keys));
    REQUIRE(a->gravity_key_count == b->gravity_key_count);
    for (uint32_t i = 0; i < a->gravity_key_count; i++) {
        CHECK(a->gravity_keys[i].frame == b->gravity_keys[i].frame);
        CHECK(a->gravity_keys[i].acceleration == b->gravity_keys[i].acceleration);
        CHECK(!memcmp(a->gravity_keys[i].direction, b->gravity_keys[i].direction, sizeof a->gravity_keys[i].direction));
        CHECK(a->gravity_keys[i].noise == b->gravity_keys[i].noise);
    }
    REQUIRE(a->shadow_key_count == b->shadow_key_count);
    for (uint32_t i = 0; i < a->shadow_key_count; i++)
        CHECK(a->shadow_keys[i].mode == b->shadow_keys[i].mode && a->shadow_keys[i].distance == b->shadow_keys[i].distance);
    REQUIRE(a->accessory_count == b->accessory_count);
    for (uint32_t i = 0; i < a->accessory_count; i++) {
        const mmd_pmm_accessory *x = &a->accessories[i], *y = &b->accessories[i];
        CHECK_STR(x->path, y->path);
        CHECK(x->add_blend == y->add_blend);
        REQUIRE(x->key_count == y->key_count);
        CHECK(!memcmp(x->keys, y->keys, x->key_count * sizeof *x->keys));
    }
}

static uint8_t *write_project(const mmd_pmm *p, size_t *n)
{
    uint8_t *buf = NULL;
    mmd_error err;
    REQUIRE(mmd_pmm_write(p, &buf, n, &err) == MMD_OK);
    return buf;
}

TEST(round_trip_v2)
{
    mmd_pmm *p = full_project(2), *q = NULL;
    size_t n;
    uint8_t *buf = write_project(p, &n);
    mmd_error err;
    mmd_status st = mmd_pmm_load(buf, n, NULL, &q, &err);
    if (st != MMD_OK)
        printf("#   %s at 0x%llx: %s\n", err.section, (unsigned long long)err.offset, err.msg);
    REQUIRE(st == MMD_OK);
    same_project(p, q);
    /* real values, not only equality */
    CHECK_EQ_INT(q->models[0].bones[0].key_count, 3);
    CHECK_EQ_INT(q->models[0].bones[0].keys[1].frame, 15);
    CHECK_NEAR(q->models[0].bones[0].keys[2].position[1], 2.5, 0);
    CHECK_EQ_INT(q->models[1].keys[1].parents[1].model, 0);
    CHECK_EQ_INT(q->models[1].keys[1].parents[1].bone, 1);
    CHECK_EQ_INT(q->camera_keys[1].look_at.model, 0);
    CHECK_EQ_INT(q->camera_keys[0].look_at.model, -1);
    CHECK_NEAR(q->accessories[0].keys[1].opacity, 0.5, 1e-6);
    CHECK_EQ_INT(q->accessories[0].keys[1].frame, 8);
    CHECK_NEAR(q->accessories[0].keys[1].scale, 2, 0);
    CHECK(!q->accessories[0].keys[1].visible && q->accessories[0].keys[0].visible);
    REQUIRE(q->gravity_key_count == 2);
    CHECK_EQ_INT(q->gravity_keys[1].frame, 33);
    CHECK_NEAR(q->gravity_keys[1].acceleration, 4, 0);
    CHECK_NEAR(q->gravity_keys[1].direction[0], 1, 0);
    CHECK_NEAR(q->gravity_keys[0].acceleration, 9.8, 1e-6);
    CHECK_EQ_INT(q->warnings, 0);
    /* written again: the same bytes */
    size_t n2;
    uint8_t *buf2 = write_project(q, &n2);
    CHECK(n2 == n && !memcmp(buf, buf2, n));
    free(buf2);
    free(buf);
    mmd_pmm_free(q);
    mmd_pmm_free(p);
}

TEST(round_trip_v1_needs_model_counts)
{
    mmd_pmm *p = full_project(1), *q = NULL;
    size_t n;
    uint8_t *buf = write_project(p, &n);
    mmd_error err;
    CHECK(!memcmp(buf, "Polygon Movie maker 0001", 24));
    CHECK(mmd_pmm_load(buf, n, NULL, &q, &err) == MMD_E_UNSUPPORTED);
    CHECK(strstr(err.msg, "miku.pmx") != NULL);
    mmd_pmm_options opts = {v1_model, NULL};
    mmd_status st = mmd_pmm_load(buf, n, &opts, &q, &err);
    if (st != MMD_OK)
        printf("#   %s at 0x%llx: %s\n", err.section, (unsigned long long)err.offset, err.msg);
    REQUIRE(st == MMD_OK);
    CHECK_EQ_INT(q->version, 1);
    same_project(p, q);
    CHECK_EQ_INT(q->physics, MMD_PMM_PHYSICS_TRACE);
    free(buf);
    mmd_pmm_free(q);
    mmd_pmm_free(p);
}

TEST(every_truncation_fails_cleanly)
{
    mmd_pmm *p = full_project(2);
    size_t n;
    uint8_t *buf = write_project(p, &n);
    int ok_cuts = 0;
    for (size_t cut = 0; cut < n; cut++) {
        uint8_t *c = malloc(cut ? cut : 1);
        memcpy(c, buf, cut);
        mmd_pmm *q = NULL;
        mmd_error err;
        mmd_status st = mmd_pmm_load(c, cut, NULL, &q, &err);
        if (st == MMD_OK) {
            ok_cuts++; /* only the optional 9.24 tail may be missing */
            CHECK(cut >= n - 1 - 5 * p->model_count);
            mmd_pmm_free(q);
        } else {
            CHECK(q == NULL);
            CHECK(st == MMD_E_TRUNCATED || st == MMD_E_BAD_MAGIC || st == MMD_E_BAD_COUNT);
        }
        free(c);
    }
    CHECK(ok_cuts <= 1);
    free(buf);
    mmd_pmm_free(p);
}

/* One model, one bone, keys at 10 and 20 with positions 1111 and 2222: their
 * records are found by the position bytes. */
static uint8_t *link_project(size_t *n, size_t *key_a, size_t *key_b)
{
    mmd_pmm *p = mmd_pmm_new();
    mmd_pmm_model *m = mmd_pmm_add_model(p, "m", "m.pmx", BONES, 1, NULL, 0, NULL, 0, NULL, 0);
    mmd_pmm_add_bone_key(p, m, 0, 10)->position[0] = 1111;
    mmd_pmm_add_bone_key(p, m, 0, 20)->position[0] = 2222;
    uint8_t *buf = write_project(p, n);
    mmd_pmm_free(p);
    float fa = 1111, fb = 2222;
    uint8_t *a = memmem(buf, *n, &fa, 4), *b = memmem(buf, *n, &fb, 4);
    REQUIRE(a && b);
    *key_a = (size_t)(a - buf) - 32; /* index, frame, prev, next, interp[16] */
    *key_b = (size_t)(b - buf) - 32;
    return buf;
}

static void put32(uint8_t *p, int32_t v) { memcpy(p, &v, 4); }

static mmd_status load_err(const uint8_t *buf, size_t n, mmd_error *err)
{
    mmd_pmm *q = NULL;
    mmd_status st = mmd_pmm_load(buf, n, NULL, &q, err);
    mmd_pmm_free(q);
    return st;
}

TEST(hostile_links)
{
    size_t n, a, b;
    mmd_error err;
    uint8_t *buf = link_project(&n, &a, &b);
    CHECK(load_err(buf, n, &err) == MMD_OK);
    int32_t ia, ib;
    memcpy(&ia, buf + a, 4);
    memcpy(&ib, buf + b, 4);
    CHECK_EQ_INT(ia, 1);
    CHECK_EQ_INT(ib, 2);

    put32(buf + b + 12, ia); /* b -> a: a cycle */
    CHECK(load_err(buf, n, &err) == MMD_E_BAD_STRUCTURE);
    CHECK(strstr(err.msg, "second time") != NULL);
    CHECK_EQ_INT(err.offset, (int64_t)b);

    put32(buf + b + 12, 77); /* b -> a key that does not exist: the track ends at b (MMD's samples) */
    mmd_pmm *q = NULL;
    REQUIRE(mmd_pmm_load(buf, n, NULL, &q, &err) == MMD_OK);
    CHECK_EQ_INT(q->models[0].bones[0].key_count, 3);
    CHECK_EQ_INT(q->models[0].bones[0].keys[2].frame, 20);
    CHECK_EQ_INT(q->dangling_links, 1);
    CHECK_EQ_INT(q->warnings, 0);
    mmd_pmm_free(q);
    put32(buf + a + 12, 16); /* a -> 16, past every key: the track ends at a, b is an orphan */
    REQUIRE(mmd_pmm_load(buf, n, NULL, &q, &err) == MMD_OK);
    CHECK_EQ_INT(q->models[0].bones[0].key_count, 2);
    CHECK_EQ_INT(q->models[0].bones[0].keys[1].frame, 10);
    CHECK_EQ_INT(q->dangling_links, 1);
    CHECK_EQ_INT(q->warnings, 1);
    mmd_pmm_free(q);
    put32(buf + a + 12, ib);

    put32(buf + b + 12, 0);
    put32(buf + b + 4, 5); /* b's frame 5 after a's 10 */
    CHECK(load_err(buf, n, &err) == MMD_E_BAD_STRUCTURE);
    CHECK(strstr(err.msg, "follows frame 10") != NULL);

    put32(buf + b + 4, 20);
    put32(buf + b, 1); /* data index used twice */
    CHECK(load_err(buf, n, &err) == MMD_E_BAD_INDEX);
    CHECK(strstr(err.msg, "used twice") != NULL);

    put32(buf + b, 2);
    put32(buf + a + 12, 0); /* a ends the track: b is an orphan, dropped with a warning */
    REQUIRE(mmd_pmm_load(buf, n, NULL, &q, &err) == MMD_OK);
    CHECK_EQ_INT(q->models[0].bones[0].key_count, 2);
    CHECK_EQ_INT(q->warnings, 1);
    mmd_pmm_free(q);

    put32(buf + a + 4, -3); /* negative frame */
    CHECK(load_err(buf, n, &err) == MMD_E_BAD_VALUE);
    free(buf);
}

TEST(hostile_header_and_counts)
{
    mmd_pmm *p = full_project(2);
    size_t n;
    uint8_t *buf = write_project(p, &n);
    mmd_pmm_free(p);
    mmd_error err;
    buf[23] = '3';
    CHECK(load_err(buf, n, &err) == MMD_E_BAD_VERSION);
    CHECK(strstr(err.msg, "0003") != NULL);
    buf[23] = '2';
    buf[0] = 'X';
    CHECK(load_err(buf, n, &err) == MMD_E_BAD_MAGIC);
    buf[0] = 'P';
    CHECK(load_err((const uint8_t *)"Poly", 4, &err) == MMD_E_TRUNCATED);
    CHECK(load_err(NULL, 0, &err) == MMD_E_BAD_MAGIC);
    put32(buf + 30, 0); /* width 0 */
    CHECK(load_err(buf, n, &err) == MMD_E_BAD_HEADER);
    put32(buf + 30, 640);
    /* the first model's bone count (after id, two names, 256-byte path, rows) */
    size_t at = 30 + 4 * 4 + 7 + 2 + 1;
    at += 1 + buf[at] ; /* name */
    at += 1 + buf[at];  /* english name */
    at += 256 + 1;
    int32_t bones;
    memcpy(&bones, buf + at, 4);
    CHECK_EQ_INT(bones, 4);
    put32(buf + at, 0x7fffffff);
    CHECK(load_err(buf, n, &err) != MMD_OK);
    CHECK_EQ_INT(err.offset, (int64_t)at);
    put32(buf + at, -1);
    CHECK(load_err(buf, n, &err) == MMD_E_BAD_COUNT);
    free(buf);
}

static mmd_pmm *load_shared(const char *name, mmd_status *st, mmd_error *err)
{
    char path[512];
    snprintf(path, sizeof path, "%s/pmm/%s", MMD_SHARED_ASSETS, name);
    void *data = NULL;
    size_t size = 0;
    if (mmd_file_read(path, &data, &size, err) != MMD_OK)
        return NULL;
    mmd_pmm *p = NULL;
    *st = mmd_pmm_load(data, size, NULL, &p, err);
    free(data);
    return p;
}

TEST(shared_real_projects)
{
    mmd_status st = MMD_OK;
    mmd_error err;
    char probe[512];
    snprintf(probe, sizeof probe, "%s/pmm/t.pmm", MMD_SHARED_ASSETS);
    FILE *f = fopen(probe, "rb");
    if (!f)
        SKIP("skipped: no ../shared");
    fclose(f);
    mmd_pmm *p = load_shared("t.pmm", &st, &err);
    if (st != MMD_OK)
        printf("#   t.pmm: %s at 0x%llx: %s\n", err.section, (unsigned long long)err.offset, err.msg);
    REQUIRE(p);
    CHECK_EQ_INT(p->version, 2);
    CHECK_EQ_INT(p->width, 1280);
    CHECK_EQ_INT(p->height, 720);
    REQUIRE(p->model_count == 1);
    CHECK_STR(p->models[0].name, "初音ミク");
    CHECK(strstr(p->models[0].path, "UserFile\\Model\\") != NULL);
    CHECK(p->models[0].bone_count > 100);
    CHECK_EQ_INT(p->camera_keys[0].fov, 30);
    CHECK_NEAR(p->camera_keys[0].distance, -45, 0);
    CHECK_NEAR(p->gravity_keys[0].acceleration, 9.8, 1e-5);
    CHECK_NEAR(p->shadow_keys[0].distance, 0.01125, 1e-7);
    mmd_pmm_free(p);
    p = load_shared("a_truncated.pmm", &st, &err);
    CHECK(p == NULL);
    CHECK(st == MMD_E_TRUNCATED);
    CHECK_EQ_INT(err.offset, 0x37); /* the camera's initial key starts there and does not fit */
    CHECK_STR(err.section, "pmm.camera");
}

int main(void)
{
    RUN(round_trip_v2);
    RUN(round_trip_v1_needs_model_counts);
    RUN(every_truncation_fails_cleanly);
    RUN(hostile_links);
    RUN(hostile_header_and_counts);
    RUN(shared_real_projects);
    return test_finish();
}
