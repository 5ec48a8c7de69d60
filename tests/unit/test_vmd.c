/* tests/unit/test_vmd.c - VMD reader, writer, builder; damage handling. */
#include <stdlib.h>
#include <string.h>

#include "core/motion.h"
#include "core/vmd_write.h"
#include "tests/util/pmd_writer.h"
#include "tests/util/test.h"

TEST_STATE_DEFINE

/* "センターセンター" in CP932 is 16 bytes: cut at 15 ends on a lead byte. */
static const uint8_t CUT_NAME[15] = {0x83, 0x5A, 0x83, 0x93, 0x83, 0x5E, 0x81, 0x5B,
                                     0x83, 0x5A, 0x83, 0x93, 0x83, 0x5E, 0x81};

/* A motion with keys in every section (builder), with odd bytes to keep. */
static mmd_motion *full_motion(void)
{
    mmd_motion *m = mmd_motion_new("初音ミク");
    float pos[3] = {1, 2, 3}, rot[4] = {0, 0.5f, 0, 0.8660254f};
    mmd_bone_key *k = mmd_motion_add_bone_key(m, "センター", 0, pos, rot);
    k = mmd_motion_add_bone_key(m, "センター", 30, pos, rot);
    mmd_vmd_set_bone_curve(k->interp, 3, 10, 20, 30, 127);
    k->interp[2] = 0x63; /* MMD's physics-off marker in row 0 */
    k->interp[3] = 0x0F;
    k = mmd_motion_add_bone_key(m, "センターセンタ", 15, NULL, NULL);
    memcpy(k->raw_name, CUT_NAME, 15);
    mmd_motion_add_morph_key(m, "まばたき", 5, 0.75f);
    mmd_motion_add_morph_key(m, "あ", 45, 1.0f);
    mmd_camera_key *c = mmd_motion_add_camera_key(m, 10);
    c->distance = -30;
    c->rotation[0] = 0.25f;
    c->fov = 45;
    c->perspective = 1;
    mmd_vmd_set_camera_curve(c->interp, 5, 1, 2, 3, 4);
    float col[3] = {0.6f, 0.6f, 0.6f}, dir[3] = {-0.5f, -1, 0.5f};
    mmd_motion_add_light_key(m, 20, col, dir);
    mmd_motion_add_shadow_key(m, 25, 1, 0.01125f);
    const char *iks[2] = {"左足ＩＫ", "右足ＩＫ"};
    bool en[2] = {true, false};
    mmd_motion_add_property_key(m, 100, true, iks, en, 2);
    mmd_motion_add_property_key(m, 3, false, NULL, NULL, 0);
    return m;
}

static void same_motion(const mmd_motion *a, const mmd_motion *b)
{
    CHECK_STR(a->model_name, b->model_name);
    CHECK(!memcmp(a->raw_model_name, b->raw_model_name, 20));
    CHECK_EQ_INT(a->last_frame, b->last_frame);
    REQUIRE(a->bone_key_count == b->bone_key_count);
    for (uint32_t i = 0; i < a->bone_key_count; i++) {
        const mmd_bone_key *x = &a->bone_keys[i], *y = &b->bone_keys[i];
        CHECK_STR(x->name, y->name);
        CHECK(!memcmp(x->raw_name, y->raw_name, 15));
        CHECK_EQ_INT(x->frame, y->frame);
        CHECK(!memcmp(x->position, y->position, sizeof x->position));
        CHECK(!memcmp(x->rotation, y->rotation, sizeof x->rotation));
        CHECK(!memcmp(x->interp, y->interp, 64));
    }
    REQUIRE(a->morph_key_count == b->morph_key_count);
    for (uint32_t i = 0; i < a->morph_key_count; i++) {
        CHECK_STR(a->morph_keys[i].name, b->morph_keys[i].name);
        CHECK_EQ_INT(a->morph_keys[i].frame, b->morph_keys[i].frame);
        CHECK(a->morph_keys[i].weight == b->morph_keys[i].weight);
    }
    REQUIRE(a->camera_key_count == b->camera_key_count);
    for (uint32_t i = 0; i < a->camera_key_count; i++)
        CHECK(!memcmp(&a->camera_keys[i], &b->camera_keys[i], sizeof a->camera_keys[i]));
    REQUIRE(a->light_key_count == b->light_key_count);
    for (uint32_t i = 0; i < a->light_key_count; i++)
        CHECK(!memcmp(&a->light_keys[i], &b->light_keys[i], sizeof a->light_keys[i]));
    REQUIRE(a->shadow_key_count == b->shadow_key_count);
    for (uint32_t i = 0; i < a->shadow_key_count; i++) {
        CHECK_EQ_INT(a->shadow_keys[i].frame, b->shadow_keys[i].frame);
        CHECK_EQ_INT(a->shadow_keys[i].mode, b->shadow_keys[i].mode);
        CHECK(a->shadow_keys[i].distance == b->shadow_keys[i].distance);
    }
    REQUIRE(a->property_key_count == b->property_key_count);
    for (uint32_t i = 0; i < a->property_key_count; i++) {
        const mmd_property_key *x = &a->property_keys[i], *y = &b->property_keys[i];
        CHECK_EQ_INT(x->frame, y->frame);
        CHECK_EQ_INT(x->visible, y->visible);
        REQUIRE(x->ik_count == y->ik_count);
        for (uint32_t j = 0; j < x->ik_count; j++) {
            CHECK_STR(x->ik[j].name, y->ik[j].name);
            CHECK(!memcmp(x->ik[j].raw_name, y->ik[j].raw_name, 20));
            CHECK_EQ_INT(x->ik[j].enabled, y->ik[j].enabled);
        }
    }
}

TEST(builder_write_parse_roundtrip)
{
    mmd_motion *m = full_motion();
    REQUIRE(m);
    CHECK_EQ_INT(m->last_frame, 100);
    uint8_t *bytes = NULL;
    size_t n = 0;
    mmd_error e;
    REQUIRE(mmd_vmd_write(m, &bytes, &n, &e) == MMD_OK);
    CHECK_EQ_INT(n, 50 + 24 + 3 * 111 + 2 * 23 + 61 + 28 + 9 + (9 + 2 * 21) + 9);
    CHECK(!memcmp(bytes, "Vocaloid Motion Data 0002", 26));
    mmd_motion *p = NULL;
    REQUIRE(mmd_motion_load(bytes, n, &p, &e) == MMD_OK);
    CHECK_EQ_INT(p->format, MMD_MOTION_VMD);
    CHECK_EQ_INT(p->version, 2);
    CHECK_STR(p->model_name, "初音ミク");
    CHECK_STR(p->bone_keys[0].name, "センター");
    CHECK(!memcmp(p->bone_keys[0].raw_name, CUT_NAME, 8));
    CHECK_EQ_INT(p->bone_keys[0].raw_name[8], 0);
    /* interpolation bytes kept exactly (physics marker, curve rows) */
    CHECK_EQ_INT(p->bone_keys[1].interp[2], 0x63);
    CHECK_EQ_INT(p->bone_keys[1].interp[3], 0x0F);
    CHECK_EQ_INT(p->bone_keys[1].interp[48 + 0], 10); /* row 3 starts with the rotation x1 */
    CHECK_EQ_INT(p->bone_keys[1].interp[48 + 12], 127);
    CHECK_EQ_INT(p->bone_keys[0].interp[0], 20);
    CHECK_EQ_INT(p->bone_keys[0].interp[12], 107);
    /* name cut mid-character: raw bytes kept, text drops the cut lead byte */
    CHECK(!memcmp(p->bone_keys[2].raw_name, CUT_NAME, 15));
    CHECK_STR(p->bone_keys[2].name, "センターセンタ");
    CHECK_EQ_INT(p->camera_keys[0].interp[20], 1);
    CHECK_EQ_INT(p->camera_keys[0].interp[21], 3); /* [x1, x2, y1, y2] */
    CHECK_EQ_INT(p->camera_keys[0].fov, 45);
    CHECK_STR(p->property_keys[0].ik[0].name, "左足ＩＫ");
    CHECK_EQ_INT(p->property_keys[0].ik[1].enabled, 0);
    same_motion(m, p);
    /* write(parse(write(m))) is byte-identical */
    uint8_t *again = NULL;
    size_t n2 = 0;
    REQUIRE(mmd_vmd_write(p, &again, &n2, &e) == MMD_OK);
    CHECK(n2 == n && !memcmp(again, bytes, n));
    free(again);
    free(bytes);
    mmd_motion_free(p);
    mmd_motion_free(m);
    mmd_motion_free(NULL);
}

TEST(builder_grows)
{
    mmd_motion *m = mmd_motion_new(NULL);
    for (uint32_t i = 0; i < 1000; i++) {
        float pos[3] = {(float)i, 0, 0};
        REQUIRE(mmd_motion_add_bone_key(m, i % 2 ? "左腕" : "右腕", i, pos, NULL));
    }
    CHECK_EQ_INT(m->bone_key_count, 1000);
    CHECK_NEAR(m->bone_keys[999].position[0], 999, 0);
    CHECK_NEAR(m->bone_keys[500].rotation[3], 1, 0);
    CHECK_STR(m->bone_keys[7].name, "左腕");
    CHECK_EQ_INT(m->last_frame, 999);
    mmd_motion_free(m);
}

/* v1 file: 10-byte model name, only a bone section, then EOF. */
TEST(v1_and_sections_absent)
{
    tbuf b = {0};
    uint8_t magic[30] = "Vocaloid Motion Data file";
    tb_bytes(&b, magic, 30);
    tb_sjis(&b, "ミク", 10);
    tb_u32(&b, 1);
    tb_sjis(&b, "頭", 15);
    tb_u32(&b, 7);
    float v[7] = {0, 0, 0, 0, 0, 0, 1};
    tb_f32v(&b, v, 7);
    uint8_t interp[64];
    for (int i = 0; i < 64; i++)
        interp[i] = (uint8_t)i;
    tb_bytes(&b, interp, 64);
    mmd_motion *m = NULL;
    mmd_error e;
    REQUIRE(mmd_vmd_load(b.p, b.n, &m, &e) == MMD_OK);
    CHECK_EQ_INT(m->version, 1);
    CHECK_STR(m->model_name, "ミク");
    CHECK_EQ_INT(m->bone_key_count, 1);
    CHECK_STR(m->bone_keys[0].name, "頭");
    CHECK_EQ_INT(m->bone_keys[0].frame, 7);
    CHECK(!memcmp(m->bone_keys[0].interp, interp, 64));
    CHECK_EQ_INT(m->morph_key_count + m->camera_key_count + m->light_key_count + m->shadow_key_count +
                     m->property_key_count, 0);
    CHECK_EQ_INT(m->last_frame, 7);
    mmd_motion_free(m);
    /* a partial count (2 bytes of the morph count) after complete bone keys:
     * the bone keys are kept, one warning names the morph section and offset */
    size_t morph_at = b.n;
    tb_u16(&b, 0);
    REQUIRE(mmd_vmd_load(b.p, b.n, &m, &e) == MMD_OK);
    CHECK_EQ_INT(m->bone_key_count, 1);
    CHECK_EQ_INT(m->warning_list.kind_count, 1);
    CHECK_STR(m->warning_list.kinds[0].section, "vmd.morph");
    CHECK_EQ_INT(m->warning_list.kinds[0].offset, (int64_t)morph_at);
    mmd_motion_free(m);
    /* with no bone key before it, the same cut is truncation */
    tbuf c = {0};
    tb_bytes(&c, b.p, 30 + 10);
    tb_u32(&c, 0);
    tb_u16(&c, 0);
    CHECK_EQ_INT(mmd_vmd_load(c.p, c.n, &m, &e), MMD_E_TRUNCATED);
    CHECK_STR(e.section, "vmd.morph");
    free(c.p);
    free(b.p);
}

static size_t section_ends(const mmd_motion *m, size_t out[7])
{
    size_t at = 50;
    out[0] = at;
    at += 4 + (size_t)m->bone_key_count * 111;
    out[1] = at;
    at += 4 + (size_t)m->morph_key_count * 23;
    out[2] = at;
    at += 4 + (size_t)m->camera_key_count * 61;
    out[3] = at;
    at += 4 + (size_t)m->light_key_count * 28;
    out[4] = at;
    at += 4 + (size_t)m->shadow_key_count * 9;
    out[5] = at;
    for (uint32_t i = 0; i < m->property_key_count; i++)
        at += 9 + (size_t)m->property_keys[i].ik_count * 21;
    out[6] = at + 4;
    return 7;
}

TEST(truncation_sweep)
{
    mmd_motion *m = full_motion();
    uint8_t *bytes;
    size_t n;
    mmd_error e;
    REQUIRE(mmd_vmd_write(m, &bytes, &n, &e) == MMD_OK);
    size_t ends[7];
    section_ends(m, ends);
    CHECK_EQ_INT(ends[6], n);
    int bad = 0;
    for (size_t len = 0; len < n; len++) {
        uint8_t *cut = malloc(len ? len : 1);
        memcpy(cut, bytes, len);
        mmd_motion *p = NULL;
        mmd_status st = mmd_vmd_load(cut, len, &p, &e);
        bool boundary = false;
        for (int i = 0; i < 6; i++)
            boundary |= len == ends[i];
        if (boundary) {
            if (st != MMD_OK)
                bad++;
            else
                mmd_motion_free(p);
        } else if (len > ends[1] && st == MMD_OK && p->bone_key_count == m->bone_key_count &&
                   p->warning_list.kind_count == 1 && p->warning_list.kinds[0].offset >= (int64_t)ends[1] &&
                   p->warning_list.kinds[0].offset < (int64_t)len) {
            mmd_motion_free(p); /* cut after the bone keys: complete sections kept, one warning */
        } else if (st != MMD_E_TRUNCATED) {
            printf("#   prefix %zu: %s\n", len, mmd_status_str(st));
            bad++;
            if (st == MMD_OK)
                mmd_motion_free(p);
        }
        free(cut);
    }
    CHECK_EQ_INT(bad, 0);
    /* section cut at the camera boundary: camera and later sections empty */
    mmd_motion *p = NULL;
    REQUIRE(mmd_vmd_load(bytes, ends[2], &p, &e) == MMD_OK);
    CHECK_EQ_INT(p->bone_key_count, 3);
    CHECK_EQ_INT(p->morph_key_count, 2);
    CHECK_EQ_INT(p->camera_key_count, 0);
    CHECK_EQ_INT(p->last_frame, 45);
    mmd_motion_free(p);
    free(bytes);
    mmd_motion_free(m);
}

TEST(random_byte_flips)
{
    mmd_motion *m = full_motion();
    uint8_t *bytes;
    size_t n;
    mmd_error e;
    REQUIRE(mmd_vmd_write(m, &bytes, &n, &e) == MMD_OK);
    uint8_t *x = malloc(n);
    uint32_t s = 777;
    int okc = 0;
    for (int it = 0; it < 2000; it++) {
        memcpy(x, bytes, n);
        for (int k = 0; k < 1 + it % 3; k++) {
            s = s * 1664525u + 1013904223u;
            size_t at = (s >> 8) % n;
            s = s * 1664525u + 1013904223u;
            x[at] ^= (uint8_t)(1u << ((s >> 16) % 8));
        }
        mmd_motion *p = NULL;
        if (mmd_motion_load(x, n, &p, &e) == MMD_OK) {
            okc++;
            mmd_motion_free(p);
        }
    }
    CHECK(okc > 0);
    free(x);
    free(bytes);
    mmd_motion_free(m);
}

TEST(bad_input)
{
    mmd_motion *m = NULL;
    mmd_error e;
    CHECK_EQ_INT(mmd_motion_load("hello", 5, &m, &e), MMD_E_BAD_MAGIC);
    CHECK_EQ_INT(mmd_motion_load(NULL, 0, &m, &e), MMD_E_BAD_MAGIC);
    uint8_t hdr[54] = "Vocaloid Motion Data 0002";
    hdr[50] = 0xFF; /* bone count 0xFFFFFFFF */
    hdr[51] = 0xFF;
    hdr[52] = 0xFF;
    hdr[53] = 0xFF;
    CHECK_EQ_INT(mmd_vmd_load(hdr, sizeof hdr, &m, &e), MMD_E_LIMIT);
    CHECK_EQ_INT(e.offset, 50);
    hdr[51] = hdr[52] = hdr[53] = 0;
    CHECK_EQ_INT(mmd_vmd_load(hdr, sizeof hdr, &m, &e), MMD_E_TRUNCATED);
    char buf[200];
    mmd_error_format(&e, "m.vmd", buf, sizeof buf);
    CHECK(strstr(buf, "m.vmd: offset 0x32, vmd.bone: ") != NULL);
    CHECK_EQ_INT(mmd_motion_load_file("/nonexistent/x.vmd", &m, &e), MMD_E_IO);
    /* NaN position */
    mmd_motion *b = mmd_motion_new("a");
    float nan_pos[3] = {0, 0, 0};
    mmd_motion_add_bone_key(b, "a", 0, nan_pos, NULL);
    uint8_t *bytes;
    size_t n;
    REQUIRE(mmd_vmd_write(b, &bytes, &n, &e) == MMD_OK);
    memset(bytes + 50 + 4 + 15 + 4, 0xFF, 4);
    /* bone/morph keys: NaN repaired to a neutral key with a warning (docs/compat.md) */
    REQUIRE(mmd_vmd_load(bytes, n, &m, &e) == MMD_OK);
    CHECK_EQ_INT(m->warnings, 1);
    CHECK_EQ_INT(m->bone_keys[0].position[0], 0);
    mmd_motion_free(m);
    free(bytes);
    mmd_motion_free(b);
    /* camera keys stay strict */
    b = mmd_motion_new("a");
    mmd_motion_add_camera_key(b, 0);
    REQUIRE(mmd_vmd_write(b, &bytes, &n, &e) == MMD_OK);
    memset(bytes + 50 + 4 + 4 + 4 + 4, 0xFF, 4); /* after bone 0, morph 0, camera count, frame: distance */
    CHECK_EQ_INT(mmd_vmd_load(bytes, n, &m, &e), MMD_E_BAD_VALUE);
    CHECK_STR(e.section, "vmd.camera");
    CHECK_EQ_INT(e.item, 0);
    free(bytes);
    mmd_motion_free(b);
}

int main(void)
{
    RUN(builder_write_parse_roundtrip);
    RUN(builder_grows);
    RUN(v1_and_sections_absent);
    RUN(truncation_sweep);
    RUN(random_byte_flips);
    RUN(bad_input);
    return test_finish();
}
