/* core/luminous.c - AutoLuminous 4's emission marks (see luminous.h). */
#include "core/luminous.h"

#include <math.h>
#include <string.h>

float mmd_luminous_strength(const mmd_material_state *s)
{
    const float *c = s->specular;
    float len2 = c[0] * c[0] + c[1] * c[1] + c[2] * c[2];
    /* NaN-safe: a NaN power or colour fails both comparisons */
    if (!(s->specular_power > MMD_LUMINOUS_MIN_POWER) ||
        !(len2 < MMD_LUMINOUS_MAX_SPECULAR * MMD_LUMINOUS_MAX_SPECULAR))
        return 0.0f;
    float k = (s->specular_power - MMD_LUMINOUS_MIN_POWER) / MMD_LUMINOUS_POWER_SCALE;
    return isfinite(k) ? k : 0.0f;
}

void mmd_luminous_color(const mmd_material_state *s, float rgb[3])
{
    for (int i = 0; i < 3; i++) {
        float v = s->diffuse[i] + s->ambient[i];
        rgb[i] = v > 1.0f ? 1.0f : (v > 0.0f ? v : 0.0f); /* NaN -> 0 */
    }
}

bool mmd_luminous_vertex_marked(const float add_uv1[4])
{
    return fabsf(add_uv1[0] - 0.2f) < 0.005f && fabsf(add_uv1[1] - 0.7f) < 0.005f;
}

static int32_t morph_named(const mmd_model *m, const char *name)
{
    for (uint32_t i = 0; i < m->morph_count; i++) {
        const mmd_morph *mo = &m->morphs[i];
        if ((mo->name && !strcmp(mo->name, name)) || (mo->name_en && !strcmp(mo->name_en, name)))
            return (int32_t)i;
    }
    return -1;
}

void mmd_luminous_find_morphs(const mmd_model *m, mmd_luminous_morphs *out)
{
    out->light_up = morph_named(m, "LightUp");
    out->light_off = morph_named(m, "LightOff");
    out->light_blink = morph_named(m, "LightBlink");
}

static float weight(const float *w, int32_t i)
{
    if (!w || i < 0)
        return 0.0f;
    float v = w[i];
    return v > 1.0f ? 1.0f : (v > 0.0f ? v : 0.0f);
}

float mmd_luminous_model_factor(const mmd_luminous_morphs *lm, const float *weights, double t_seconds)
{
    float up = weight(weights, lm->light_up), off = weight(weights, lm->light_off);
    float blink = weight(weights, lm->light_blink);
    double ph = isfinite(t_seconds) ? t_seconds - floor(t_seconds) : 0.0; /* one blink per second */
    float wave = (float)(0.5 - 0.5 * cos(2.0 * M_PI * ph));
    return (1.0f + 2.0f * up) * (1.0f - off) * (1.0f - blink * wave);
}
