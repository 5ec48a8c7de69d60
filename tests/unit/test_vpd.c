/* tests/unit/test_vpd.c - VPD poses: parse into keys at frame 0, errors with line numbers. */
#include <stdlib.h>
#include <string.h>

#include "core/motion.h"
#include "core/text.h"
#include "tests/util/test.h"

TEST_STATE_DEFINE

/* Build VPD bytes: the template is UTF-8, converted line by line to CP932. */
static uint8_t *to_sjis(const char *utf8, size_t *n)
{
    mmd_text *t = mmd_text_create();
    size_t len = strlen(utf8);
    uint8_t *out = malloc(len * 2 + 1);
    size_t o = 0;
    const char *p = utf8;
    while (*p) {
        const char *e = strchr(p, '\n');
        size_t k = e ? (size_t)(e - p) : strlen(p);
        char line[512];
        memcpy(line, p, k);
        line[k] = 0;
        o += mmd_text_to_sjis(t, line, out + o, 500);
        if (e)
            out[o++] = '\n';
        p += k + (e ? 1 : 0);
    }
    mmd_text_destroy(t);
    *n = o;
    return out;
}

static const char *POSE =
    "Vocaloid Pose Data file\r\n"
    "\r\n"
    "miku.osm;\t\t// parent file\r\n"
    "2;\t\t\t\t// bones\r\n"
    "\r\n"
    "Bone0{センター\r\n"
    "  0.500000,1.000000,-2.000000;\t// trans x,y,z\r\n"
    "  0.000000,0.707107,0.000000,0.707107;\t// Quaternion x,y,z,w\r\n"
    "}\r\n"
    "\r\n"
    "Bone1{左ひじ捩れ先のさらに先\r\n"
    "  0,0,0;\r\n"
    "  0,0,0,1;\r\n"
    "}\r\n"
    "Morph0{まばたき\r\n"
    "  0.25;\r\n"
    "}\r\n";

TEST(parses_bones_and_morphs)
{
    size_t n;
    uint8_t *d = to_sjis(POSE, &n);
    mmd_motion *m = NULL;
    mmd_error e;
    REQUIRE(mmd_motion_load(d, n, &m, &e) == MMD_OK);
    CHECK_EQ_INT(m->format, MMD_MOTION_VPD);
    CHECK_STR(m->model_name, "miku");
    REQUIRE(m->bone_key_count == 2);
    const mmd_bone_key *b = &m->bone_keys[0];
    CHECK_STR(b->name, "センター");
    CHECK_EQ_INT(b->frame, 0);
    CHECK_NEAR(b->position[0], 0.5, 1e-6);
    CHECK_NEAR(b->position[2], -2, 1e-6);
    CHECK_NEAR(b->rotation[1], 0.707107, 1e-6);
    CHECK_NEAR(b->rotation[3], 0.707107, 1e-6);
    /* linear curves in every row */
    CHECK_EQ_INT(b->interp[0], 20);
    CHECK_EQ_INT(b->interp[4], 20);
    CHECK_EQ_INT(b->interp[8], 107);
    CHECK_EQ_INT(b->interp[12], 107);
    CHECK_EQ_INT(b->interp[16 * 3 + 0], 20);
    CHECK_EQ_INT(b->interp[16 * 3 + 12], 107);
    const uint8_t center[8] = {0x83, 0x5A, 0x83, 0x93, 0x83, 0x5E, 0x81, 0x5B};
    CHECK(!memcmp(b->raw_name, center, 8) && b->raw_name[8] == 0);
    /* long name: full in UTF-8, raw cut at 15 bytes */
    CHECK_STR(m->bone_keys[1].name, "左ひじ捩れ先のさらに先");
    CHECK(m->bone_keys[1].raw_name[14] != 0 && m->bone_keys[1].raw_name[15] == 0);
    CHECK_NEAR(m->bone_keys[1].rotation[3], 1, 0);
    REQUIRE(m->morph_key_count == 1);
    CHECK_STR(m->morph_keys[0].name, "まばたき");
    CHECK_NEAR(m->morph_keys[0].weight, 0.25, 1e-7);
    CHECK_EQ_INT(m->last_frame, 0);
    mmd_motion_free(m);
    free(d);
}

static void expect_error(const char *text, mmd_status st, const char *line_tag)
{
    size_t n;
    uint8_t *d = to_sjis(text, &n);
    mmd_motion *m = NULL;
    mmd_error e;
    mmd_status got = mmd_vpd_load(d, n, &m, &e);
    CHECK_EQ_INT(got, st);
    if (got == st && line_tag && !strstr(e.msg, line_tag))
        printf("#   message \"%s\" lacks \"%s\"\n", e.msg, line_tag), test_g.cur_failed++;
    if (got == MMD_OK)
        mmd_motion_free(m);
    free(d);
}

TEST(errors_have_line_numbers)
{
    expect_error("Vocaloid Motion Data\n", MMD_E_BAD_MAGIC, "line 1");
    expect_error("Vocaloid Pose Data file\nmiku.osm\n", MMD_E_BAD_STRUCTURE, "line 2");
    expect_error("Vocaloid Pose Data file\nmiku.osm;\nx;\n", MMD_E_BAD_STRUCTURE, "line 3");
    expect_error("Vocaloid Pose Data file\nmiku.osm;\n1;\nBone0{a\n0,0;\n0,0,0,1;\n}\n", MMD_E_BAD_STRUCTURE,
                 "line 5");
    expect_error("Vocaloid Pose Data file\nmiku.osm;\n1;\nBone0{a\n0,0,0;\n0,0,0,1;\n", MMD_E_TRUNCATED, "line 7");
    expect_error("Vocaloid Pose Data file\nmiku.osm;\n1;\nBone0{a\n0,0,0;\n0,0,0,1;\n]\n", MMD_E_BAD_STRUCTURE,
                 "line 7");
    expect_error("Vocaloid Pose Data file\nmiku.osm;\n0;\nWhat{a\n", MMD_E_BAD_STRUCTURE, "line 4");
    expect_error("Vocaloid Pose Data file\nmiku.osm;\n0;\nMorph0{a\n0.5\n}\n", MMD_E_BAD_STRUCTURE, "line 5");
    expect_error("Vocaloid Pose Data file\nmiku.osm;\n0;\n", MMD_OK, NULL);
}

TEST(every_prefix_is_handled)
{
    size_t n;
    uint8_t *d = to_sjis(POSE, &n);
    for (size_t len = 0; len < n; len++) {
        uint8_t *cut = malloc(len ? len : 1);
        memcpy(cut, d, len);
        mmd_motion *m = NULL;
        mmd_error e;
        if (mmd_vpd_load(cut, len, &m, &e) == MMD_OK)
            mmd_motion_free(m);
        else
            CHECK(strstr(e.msg, "line ") != NULL);
        free(cut);
    }
    free(d);
}

int main(void)
{
    RUN(parses_bones_and_morphs);
    RUN(errors_have_line_numbers);
    RUN(every_prefix_is_handled);
    return test_finish();
}
