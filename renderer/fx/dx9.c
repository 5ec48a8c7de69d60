/* renderer/fx/dx9.c - DX9's arithmetic where GLSL's differs (docs/effects.md,
 * "DX9's arithmetic"): SPIRV-Cross's GLSL calls to a few built-ins become
 * calls to helpers that compute what ps_3_0 / vs_3_0 compute (or accept what
 * HLSL accepts), so a real MME effect gives on Mesa what it gives under MME. Each row cites its
 * source; GLSL built-ins not listed are left alone. */
#include <ctype.h>
#include <string.h>

#include "renderer/fx/translate_internal.h"

/* One overload per type; "$" is the type (float, vec2, vec3, vec4). The
 * helpers use mmd_dx9_is0 / mmd_dx9_ge0 (k_prelude): componentwise tests
 * that give a bool for float and a bvec for vectors, for mix()'s selector. */
static const struct dx9_rule {
    const char *glsl;   /* the built-in SPIRV-Cross emits */
    const char *helper; /* what it becomes */
    const char *body;
} k_rules[] = {
    /* HLSL fmod (glslang emits GLSL's floor-based mod for it; DXC #2990, glslang #1960):
     * ps_3_0 has no fmod or divide, fxc computes q = x * rcp(y), f = frc(|q|), the sign of
     * q, times y: the sign of x, and y = 0 gives rcp(0) = +inf (rcp docs) times y = 0, and
     * D3D9's 0 * anything = 0 (DXVK #2294) makes that 0 where GLSL's mod is NaN */
    {"mod", "mmd_dx9_fmod",
     "$ mmd_dx9_fmod($ x, $ y) { $ q = x / y; $ f = fract(abs(q)); "
     "return mix(mix(-f, f, mmd_dx9_ge0(q)) * y, $(0.0), mmd_dx9_is0(y)); }\n"},
    /* pow - ps/vs: abs(src0)^src1, "could be expanded as exp(src1 * log(src0))": x^0 = 1 */
    {"pow", "mmd_dx9_pow", "$ mmd_dx9_pow($ x, $ y) { return mix(pow(abs(x), y), $(1.0), mmd_dx9_is0(y)); }\n"},
    /* log - ps/vs: log2 of abs(src), -FLT_MAX for 0 (GLSL: -inf; NaN below 0); HLSL log is log2 * ln 2 */
    {"log2", "mmd_dx9_log2", "$ mmd_dx9_log2($ x) { return max(log2(abs(x)), $(-3.402823466e38)); }\n"},
    {"log", "mmd_dx9_log", "$ mmd_dx9_log($ x) { return max(log2(abs(x)), $(-3.402823466e38)) * 0.6931471806; }\n"},
    /* rsq - ps/vs: "the absolute value is taken before processing"; ps_3_0 has no sqrt:
     * fxc's sqrt is rcp(rsq(x)), so it also reads |x| (GLSL: NaN below 0) */
    {"inversesqrt", "mmd_dx9_rsqrt", "$ mmd_dx9_rsqrt($ x) { return inversesqrt(abs(x)); }\n"},
    {"sqrt", "mmd_dx9_sqrt", "$ mmd_dx9_sqrt($ x) { return sqrt(abs(x)); }\n"},
    /* normalize: dp, rsq, mul: rsq(0) = +inf, and D3D9's 0 * inf = 0 gives the zero vector
     * where GLSL's normalize(0) is NaN */
    {"normalize", "mmd_dx9_normalize",
     "$ mmd_dx9_normalize($ v) { float d = dot(v, v); return d == 0.0 ? $(0.0) : v * inversesqrt(d); }\n"},
    /* any, all - HLSL's take a scalar too ("any: Determines if any components of the specified
     * value are non-zero", HLSL intrinsics reference: scalar, vector or matrix), which glslang
     * keeps as a bool for SPIRV-Cross's any(bool); GLSL's take a bvec only. A body without "$"
     * is written once. */
    {"any", "mmd_dx9_any",
     "bool mmd_dx9_any(bool v) { return v; }\nbool mmd_dx9_any(bvec2 v) { return any(v); }\n"
     "bool mmd_dx9_any(bvec3 v) { return any(v); }\nbool mmd_dx9_any(bvec4 v) { return any(v); }\n"},
    {"all", "mmd_dx9_all",
     "bool mmd_dx9_all(bool v) { return v; }\nbool mmd_dx9_all(bvec2 v) { return all(v); }\n"
     "bool mmd_dx9_all(bvec3 v) { return all(v); }\nbool mmd_dx9_all(bvec4 v) { return all(v); }\n"},
};

static const char k_prelude[] =
    "bool mmd_dx9_is0(float v) { return v == 0.0; }\n"
    "bvec2 mmd_dx9_is0(vec2 v) { return equal(v, vec2(0.0)); }\n"
    "bvec3 mmd_dx9_is0(vec3 v) { return equal(v, vec3(0.0)); }\n"
    "bvec4 mmd_dx9_is0(vec4 v) { return equal(v, vec4(0.0)); }\n"
    "bool mmd_dx9_ge0(float v) { return v >= 0.0; }\n"
    "bvec2 mmd_dx9_ge0(vec2 v) { return greaterThanEqual(v, vec2(0.0)); }\n"
    "bvec3 mmd_dx9_ge0(vec3 v) { return greaterThanEqual(v, vec3(0.0)); }\n"
    "bvec4 mmd_dx9_ge0(vec4 v) { return greaterThanEqual(v, vec4(0.0)); }\n";

#define RULE_COUNT (sizeof k_rules / sizeof k_rules[0])

static bool ident(char c)
{
    return isalnum((unsigned char)c) || c == '_';
}

/* The rule whose built-in is called at p (a whole identifier followed by
 * '('), -1 when none. */
static int rule_at(const char *text, const char *p)
{
    if (p > text && (ident(p[-1]) || p[-1] == '.'))
        return -1;
    for (size_t k = 0; k < RULE_COUNT; k++) {
        size_t n = strlen(k_rules[k].glsl);
        if (!strncmp(p, k_rules[k].glsl, n) && p[n] == '(')
            return (int)k;
    }
    return -1;
}

/* Each used rule's helper, one overload per type (a body without "$" once). */
static void put_helpers(mmd_fx_text *out, const bool *used)
{
    static const char *const k_types[] = {"float", "vec2", "vec3", "vec4"};
    mmd_fx_text_add(out, k_prelude, sizeof k_prelude - 1);
    for (size_t k = 0; k < RULE_COUNT; k++)
        for (size_t t = 0; used[k] && t < (strchr(k_rules[k].body, '$') ? 4u : 1u); t++)
            for (const char *b = k_rules[k].body; *b; b++) {
                if (*b == '$')
                    mmd_fx_text_add(out, k_types[t], strlen(k_types[t]));
                else
                    mmd_fx_text_add(out, b, 1);
            }
}

bool mmd_fx_dx9_arithmetic(const char *glsl, mmd_fx_text *out)
{
    bool used[RULE_COUNT] = {false}, any = false;
    for (const char *p = glsl; *p; p++) {
        int k = rule_at(glsl, p);
        if (k >= 0)
            used[k] = any = true;
    }
    if (!any) {
        mmd_fx_text_add(out, glsl, strlen(glsl));
        return !out->oom;
    }
    /* the header (#version, #extension, SPIRV-Cross's #defines) first, then the helpers */
    const char *body = glsl;
    while (*body == '#' || *body == '\n') {
        const char *nl = strchr(body, '\n');
        body = nl ? nl + 1 : body + strlen(body);
    }
    mmd_fx_text_add(out, glsl, (size_t)(body - glsl));
    put_helpers(out, used);
    for (const char *p = body; *p;) {
        int k = rule_at(glsl, p);
        if (k >= 0) {
            mmd_fx_text_add(out, k_rules[k].helper, strlen(k_rules[k].helper));
            p += strlen(k_rules[k].glsl);
            continue;
        }
        const char *q = p + 1; /* to the next character a rule could start at */
        while (*q && ident(*q) && ident(q[-1]))
            q++;
        mmd_fx_text_add(out, p, (size_t)(q - p));
        p = q;
    }
    return !out->oom;
}
