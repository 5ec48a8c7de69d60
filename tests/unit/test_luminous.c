/* tests/unit/test_luminous.c - AutoLuminous 4's emission rule (core/luminous.h). */
#include <math.h>
#include <string.h>

#include "core/luminous.h"
#include "tests/util/test.h"

TEST_STATE_DEFINE

static mmd_material_state mat(float spec, float power)
{
    mmd_material_state s;
    memset(&s, 0, sizeof s);
    s.diffuse[0] = 0.8f, s.diffuse[1] = 0.4f, s.diffuse[2] = 0.1f, s.diffuse[3] = 1.0f;
    s.ambient[0] = 0.4f, s.ambient[1] = 0.2f, s.ambient[2] = 0.05f;
    s.specular[0] = s.specular[1] = s.specular[2] = spec;
    s.specular_power = power;
    return s;
}

TEST(material_rule)
{
    mmd_material_state s = mat(0, 110); /* the readme's standard AL value */
    CHECK_NEAR(mmd_luminous_strength(&s), 10.0 / 7.0, 1e-6);
    s = mat(0, 170);
    CHECK_NEAR(mmd_luminous_strength(&s), 10.0, 1e-6);
    s = mat(0, 100); /* "above 100": exactly 100 is an ordinary material */
    CHECK(mmd_luminous_strength(&s) == 0.0f);
    s = mat(0, 100.5f);
    CHECK_NEAR(mmd_luminous_strength(&s), 0.5 / 7.0, 1e-6);
    s = mat(0, 50); /* ordinary shiny black */
    CHECK(mmd_luminous_strength(&s) == 0.0f);
    s = mat(0.5f, 150); /* a real specular colour: a very sharp highlight, no glow */
    CHECK(mmd_luminous_strength(&s) == 0.0f);
    s = mat(0.005f, 150); /* |spec| = 0.0087 < 0.01: still black enough */
    CHECK_NEAR(mmd_luminous_strength(&s), 50.0 / 7.0, 1e-5);
    s = mat(0.006f, 150); /* |spec| = 0.0104 */
    CHECK(mmd_luminous_strength(&s) == 0.0f);
    s = mat(0, NAN);
    CHECK(mmd_luminous_strength(&s) == 0.0f);
    s = mat(NAN, 150);
    CHECK(mmd_luminous_strength(&s) == 0.0f);
    s = mat(0, INFINITY);
    CHECK(mmd_luminous_strength(&s) == 0.0f);
}

TEST(material_color)
{
    mmd_material_state s = mat(0, 110);
    float c[3];
    mmd_luminous_color(&s, c);
    CHECK_NEAR(c[0], 1.0, 1e-6); /* 0.8 + 0.4 saturates */
    CHECK_NEAR(c[1], 0.6, 1e-6);
    CHECK_NEAR(c[2], 0.15, 1e-6);
    s.diffuse[1] = NAN;
    mmd_luminous_color(&s, c);
    CHECK(c[1] == 0.0f);
}

TEST(vertex_mark)
{
    float a[4] = {0.2f, 0.7f, 0, 0};
    CHECK(mmd_luminous_vertex_marked(a));
    a[0] = 0.204f;
    CHECK(mmd_luminous_vertex_marked(a));
    a[0] = 0.21f;
    CHECK(!mmd_luminous_vertex_marked(a));
    float b[4] = {0.7f, 0.2f, 0, 0};
    CHECK(!mmd_luminous_vertex_marked(b));
    float z[4] = {0};
    CHECK(!mmd_luminous_vertex_marked(z));
}

TEST(morph_factor)
{
    mmd_morph morphs[4];
    memset(morphs, 0, sizeof morphs);
    morphs[0].name = "まばたき";
    morphs[1].name = "LightOff";
    morphs[2].name = "発光";
    morphs[2].name_en = "LightUp";
    morphs[3].name = "LightBlink";
    mmd_model m;
    memset(&m, 0, sizeof m);
    m.morphs = morphs;
    m.morph_count = 4;
    mmd_luminous_morphs lm;
    mmd_luminous_find_morphs(&m, &lm);
    CHECK_EQ_INT(lm.light_off, 1);
    CHECK_EQ_INT(lm.light_up, 2);
    CHECK_EQ_INT(lm.light_blink, 3);
    float w[4] = {1, 0, 0, 0};
    CHECK_NEAR(mmd_luminous_model_factor(&lm, w, 0.0), 1.0, 1e-6);
    CHECK_NEAR(mmd_luminous_model_factor(&lm, NULL, 0.3), 1.0, 1e-6);
    w[1] = 1; /* LightOff at 1: no glow at all */
    CHECK(mmd_luminous_model_factor(&lm, w, 0.0) == 0.0f);
    w[1] = 0.25f;
    CHECK_NEAR(mmd_luminous_model_factor(&lm, w, 0.0), 0.75, 1e-6);
    w[1] = 0;
    w[2] = 1; /* LightUp: up to 3x */
    CHECK_NEAR(mmd_luminous_model_factor(&lm, w, 0.0), 3.0, 1e-6);
    w[2] = 5; /* weights are clamped to 0..1 */
    CHECK_NEAR(mmd_luminous_model_factor(&lm, w, 0.0), 3.0, 1e-6);
    w[2] = 0;
    w[3] = 1; /* LightBlink: full at whole seconds, dark half-way */
    CHECK_NEAR(mmd_luminous_model_factor(&lm, w, 2.0), 1.0, 1e-6);
    CHECK_NEAR(mmd_luminous_model_factor(&lm, w, 2.5), 0.0, 1e-6);
    CHECK_NEAR(mmd_luminous_model_factor(&lm, w, 2.25), 0.5, 1e-6);
    CHECK_NEAR(mmd_luminous_model_factor(&lm, w, NAN), 1.0, 1e-6); /* a bad time never makes NaN glow */
    CHECK_NEAR(mmd_luminous_model_factor(&lm, w, INFINITY), 1.0, 1e-6);
    m.morph_count = 1; /* none of the names */
    mmd_luminous_find_morphs(&m, &lm);
    CHECK(lm.light_up == -1 && lm.light_off == -1 && lm.light_blink == -1);
    CHECK_NEAR(mmd_luminous_model_factor(&lm, w, 2.5), 1.0, 1e-6);
}

int main(void)
{
    RUN(material_rule);
    RUN(material_color);
    RUN(vertex_mark);
    RUN(morph_factor);
    return test_finish();
}
