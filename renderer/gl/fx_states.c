/* renderer/gl/fx_states.c - DX9 render states of an effect pass as GL state
 * (fx_states.h). A value is a D3D name ("INVSRCALPHA", "LESSEQUAL", "RED |
 * GREEN"), its D3D number ("6", "0x0f"), or a global of the effect, whose
 * initializer then gives the number. */
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "renderer/fx/semantics.h"
#include "renderer/gl/fx_states.h"

typedef struct named { const char *name; unsigned d3d; GLenum gl; } named;

/* D3DBLEND, D3DCMPFUNC, D3DBLENDOP, D3DSTENCILOP, D3DCULL: name, D3D's number, GL's value. */
static const named k_blend[] = {
    {"ZERO", 1, GL_ZERO}, {"ONE", 2, GL_ONE}, {"SRCCOLOR", 3, GL_SRC_COLOR}, {"INVSRCCOLOR", 4, GL_ONE_MINUS_SRC_COLOR},
    {"SRCALPHA", 5, GL_SRC_ALPHA}, {"INVSRCALPHA", 6, GL_ONE_MINUS_SRC_ALPHA}, {"DESTALPHA", 7, GL_DST_ALPHA},
    {"INVDESTALPHA", 8, GL_ONE_MINUS_DST_ALPHA}, {"DESTCOLOR", 9, GL_DST_COLOR},
    {"INVDESTCOLOR", 10, GL_ONE_MINUS_DST_COLOR}, {"SRCALPHASAT", 11, GL_SRC_ALPHA_SATURATE},
    {NULL, 0, 0},
};
static const named k_cmp[] = {
    {"NEVER", 1, GL_NEVER}, {"LESS", 2, GL_LESS}, {"EQUAL", 3, GL_EQUAL}, {"LESSEQUAL", 4, GL_LEQUAL},
    {"GREATER", 5, GL_GREATER}, {"NOTEQUAL", 6, GL_NOTEQUAL}, {"GREATEREQUAL", 7, GL_GEQUAL},
    {"ALWAYS", 8, GL_ALWAYS}, {NULL, 0, 0},
};
static const named k_op[] = {
    {"ADD", 1, GL_FUNC_ADD}, {"SUBTRACT", 2, GL_FUNC_SUBTRACT}, {"REVSUBTRACT", 3, GL_FUNC_REVERSE_SUBTRACT},
    {"MIN", 4, GL_MIN}, {"MAX", 5, GL_MAX}, {NULL, 0, 0},
};
static const named k_stencil_op[] = {
    {"KEEP", 1, GL_KEEP}, {"ZERO", 2, GL_ZERO}, {"REPLACE", 3, GL_REPLACE}, {"INCRSAT", 4, GL_INCR},
    {"DECRSAT", 5, GL_DECR}, {"INVERT", 6, GL_INVERT}, {"INCR", 7, GL_INCR_WRAP}, {"DECR", 8, GL_DECR_WRAP},
    {NULL, 0, 0},
};
/* D3DCULL: 1 none, 2 clockwise, 3 counter-clockwise (kept as D3D's number) */
static const named k_cull[] = {{"NONE", 1, 1}, {"CW", 2, 2}, {"CCW", 3, 3}, {NULL, 0, 0}};
/* D3DFILLMODE: 1 point, 2 wireframe, 3 solid, as glPolygonMode's */
static const named k_fill[] = {{"POINT", 1, GL_POINT}, {"WIREFRAME", 2, GL_LINE}, {"SOLID", 3, GL_FILL}, {NULL, 0, 0}};
/* D3DCOLORWRITEENABLE bits */
static const named k_colour[] = {{"RED", 1, 1}, {"GREEN", 2, 2}, {"BLUE", 4, 4}, {"ALPHA", 8, 8}, {NULL, 0, 0}};

/* A number as written, or a global's initializer; false when neither. */
static bool number_of(const mmd_fx *fx, const char *v, long *out)
{
    char *end;
    long n = strtol(v, &end, 0);
    if (end != v && *end == '\0') {
        *out = n;
        return true;
    }
    if (!strcasecmp(v, "TRUE") || !strcasecmp(v, "FALSE")) {
        *out = !strcasecmp(v, "TRUE");
        return true;
    }
    for (uint32_t i = 0; fx && i < fx->param_count; i++)
        if (!strcmp(fx->params[i].name, v) && fx->params[i].init) {
            float f[4];
            if (mmd_fx_init_numbers(fx->params[i].init, f, 4) < 1)
                return false;
            *out = (long)f[0];
            return true;
        }
    return false;
}

/* A value of table t (a name, or D3D's number) as GL's; def when unknown. */
static GLenum enum_of(const mmd_fx *fx, const named *t, const char *v, GLenum def)
{
    for (const named *r = t; r->name; r++)
        if (!strcasecmp(v, r->name))
            return r->gl;
    long n;
    if (number_of(fx, v, &n))
        for (const named *r = t; r->name; r++)
            if ((long)r->d3d == n)
                return r->gl;
    return def;
}

static bool bool_of(const mmd_fx *fx, const char *v, bool def)
{
    long n;
    return number_of(fx, v, &n) ? n != 0 : def;
}

/* "RED | GREEN", "0x0f", "15": D3D's colour-write bits. */
static unsigned bits_of(const mmd_fx *fx, const char *v, unsigned def)
{
    long n;
    if (number_of(fx, v, &n))
        return (unsigned)n & 15u;
    unsigned bits = 0;
    const char *p = v;
    while (*p) {
        while (*p == ' ' || *p == '|' || *p == '\t')
            p++;
        size_t len = strcspn(p, " |\t");
        if (!len)
            break;
        bool known = false;
        for (const named *r = k_colour; r->name; r++)
            if (strlen(r->name) == len && !strncasecmp(p, r->name, len)) {
                bits |= r->d3d;
                known = true;
            }
        if (!known)
            return def;
        p += len;
    }
    return bits;
}

typedef enum { K_BOOL, K_BLEND, K_CMP, K_CMP_D3D, K_OP, K_STENCIL_OP, K_CULL, K_COLOUR, K_INT, K_FILL } kind;

/* One row per DX9 render state we apply; others are ignored (docs/effects.md). */
static const struct {
    const char *name;
    kind k;
    size_t offset;
} k_states[] = {
    {"AlphaBlendEnable", K_BOOL, offsetof(mmd_fx_states, blend)},
    {"SeparateAlphaBlendEnable", K_BOOL, offsetof(mmd_fx_states, separate_alpha)},
    {"SrcBlend", K_BLEND, offsetof(mmd_fx_states, src)},
    {"DestBlend", K_BLEND, offsetof(mmd_fx_states, dst)},
    {"BlendOp", K_OP, offsetof(mmd_fx_states, op)},
    {"SrcBlendAlpha", K_BLEND, offsetof(mmd_fx_states, src_alpha)},
    {"DestBlendAlpha", K_BLEND, offsetof(mmd_fx_states, dst_alpha)},
    {"BlendOpAlpha", K_OP, offsetof(mmd_fx_states, op_alpha)},
    {"ZEnable", K_BOOL, offsetof(mmd_fx_states, ztest)},
    {"ZWriteEnable", K_BOOL, offsetof(mmd_fx_states, zwrite)},
    {"ZFunc", K_CMP, offsetof(mmd_fx_states, zfunc)},
    {"CullMode", K_CULL, 0},
    {"ColorWriteEnable", K_COLOUR, offsetof(mmd_fx_states, colour_write)},
    {"StencilEnable", K_BOOL, offsetof(mmd_fx_states, stencil)},
    {"StencilFunc", K_CMP, offsetof(mmd_fx_states, stencil_func)},
    {"StencilRef", K_INT, offsetof(mmd_fx_states, stencil_ref)},
    {"StencilMask", K_INT, offsetof(mmd_fx_states, stencil_mask)},
    {"StencilWriteMask", K_INT, offsetof(mmd_fx_states, stencil_write_mask)},
    {"StencilFail", K_STENCIL_OP, offsetof(mmd_fx_states, stencil_fail)},
    {"StencilZFail", K_STENCIL_OP, offsetof(mmd_fx_states, stencil_zfail)},
    {"StencilPass", K_STENCIL_OP, offsetof(mmd_fx_states, stencil_pass)},
    {"AlphaTestEnable", K_BOOL, offsetof(mmd_fx_states, alpha_test)},
    {"AlphaFunc", K_CMP_D3D, offsetof(mmd_fx_states, alpha_func)},
    {"AlphaRef", K_INT, offsetof(mmd_fx_states, alpha_ref)},
    {"FillMode", K_FILL, offsetof(mmd_fx_states, fill)},
};

static const mmd_fx_states k_default = {
    .blend = true, .ztest = true, .zwrite = true,
    .src = GL_SRC_ALPHA, .dst = GL_ONE_MINUS_SRC_ALPHA, .op = GL_FUNC_ADD,
    .src_alpha = GL_ONE, .dst_alpha = GL_ZERO, .op_alpha = GL_FUNC_ADD,
    .zfunc = GL_LEQUAL, .colour_write = 15,
    .stencil_func = GL_ALWAYS, .stencil_fail = GL_KEEP, .stencil_zfail = GL_KEEP, .stencil_pass = GL_KEEP,
    .stencil_mask = 0xffffffffu, .stencil_write_mask = 0xffffffffu,
    .alpha_func = 8, .fill = GL_FILL, /* D3D9's defaults: alpha test off, D3DCMP_ALWAYS, ref 0; solid */
};

static void set_one(const mmd_fx *fx, size_t row, const char *v, mmd_fx_states *s)
{
    char *field = (char *)s + k_states[row].offset;
    GLenum *e = (GLenum *)(void *)field;
    long n;
    switch (k_states[row].k) {
    case K_BOOL: *(bool *)(void *)field = bool_of(fx, v, *(bool *)(void *)field); break;
    case K_BLEND: *e = enum_of(fx, k_blend, v, *e); break;
    case K_CMP: *e = enum_of(fx, k_cmp, v, *e); break;
    case K_CMP_D3D: /* D3D's number, which the translator's alpha test compares by */
        for (const named *r = k_cmp; r->name; r++)
            if (enum_of(fx, k_cmp, v, 0) == r->gl)
                *(unsigned *)(void *)field = r->d3d;
        break;
    case K_FILL: *e = enum_of(fx, k_fill, v, *e); break;
    case K_OP: *e = enum_of(fx, k_op, v, *e); break;
    case K_STENCIL_OP: *e = enum_of(fx, k_stencil_op, v, *e); break;
    case K_COLOUR: *(unsigned *)(void *)field = bits_of(fx, v, *(unsigned *)(void *)field); break;
    case K_INT:
        if (number_of(fx, v, &n))
            *(unsigned *)(void *)field = (unsigned)n;
        break;
    case K_CULL: {
        GLenum c = enum_of(fx, k_cull, v, 0);
        if (c) {
            s->cull_cw = c == 2;
            s->cull_ccw = c == 3;
        }
        break;
    }
    }
}

void mmd_fx_states_default(mmd_fx_states *out)
{
    *out = k_default;
}

void mmd_fx_states_set(const mmd_fx *fx, const mmd_fx_pass *pass, mmd_fx_states *s)
{
    for (uint32_t i = 0; i < pass->state_count; i++)
        for (size_t k = 0; k < sizeof k_states / sizeof k_states[0]; k++)
            if (!strcasecmp(pass->states[i].name, k_states[k].name))
                set_one(fx, k, pass->states[i].value, s);
}

void mmd_fx_states_of(const mmd_fx *fx, const mmd_fx_pass *pass, mmd_fx_states *out)
{
    mmd_fx_states_default(out);
    mmd_fx_states_set(fx, pass, out);
}

void mmd_fx_states_apply(const mmd_gl *gl, const mmd_fx_states *s)
{
    (s->blend ? gl->Enable : gl->Disable)(GL_BLEND);
    if (s->separate_alpha) {
        gl->BlendFuncSeparate(s->src, s->dst, s->src_alpha, s->dst_alpha);
        gl->BlendEquationSeparate(s->op, s->op_alpha);
    } else {
        gl->BlendFuncSeparate(s->src, s->dst, s->src, s->dst);
        gl->BlendEquationSeparate(s->op, s->op);
    }
    (s->ztest ? gl->Enable : gl->Disable)(GL_DEPTH_TEST);
    gl->DepthFunc(s->zfunc);
    gl->DepthMask(s->zwrite ? GL_TRUE : GL_FALSE);
    unsigned c = s->colour_write;
    gl->ColorMask((c & 1) != 0, (c & 2) != 0, (c & 4) != 0, (c & 8) != 0);
    (s->stencil ? gl->Enable : gl->Disable)(GL_STENCIL_TEST);
    gl->StencilFunc(s->stencil_func, s->stencil_ref, s->stencil_mask);
    gl->StencilOp(s->stencil_fail, s->stencil_zfail, s->stencil_pass);
    gl->StencilMask(s->stencil_write_mask);
    /* D3D's clockwise front faces, seen through the y flip: counter-clockwise on GL's screen */
    (s->cull_cw || s->cull_ccw ? gl->Enable : gl->Disable)(GL_CULL_FACE);
    gl->FrontFace(GL_CCW); /* D3D's clockwise front faces, through the y flip (test_render object_effect_...) */
    gl->CullFace(s->cull_ccw ? GL_BACK : GL_FRONT);
    gl->PolygonMode(GL_FRONT_AND_BACK, s->fill);
}

int mmd_fx_states_alpha_func(const mmd_fx_states *s)
{
    return s->alpha_test && s->alpha_func != 8 ? (int)s->alpha_func : 0;
}

void mmd_fx_states_reset(const mmd_gl *gl)
{
    gl->BlendEquationSeparate(GL_FUNC_ADD, GL_FUNC_ADD);
    gl->ColorMask(GL_TRUE, GL_TRUE, GL_TRUE, GL_TRUE);
    gl->Disable(GL_STENCIL_TEST);
    gl->StencilMask(0xffffffffu);
    gl->PolygonMode(GL_FRONT_AND_BACK, GL_FILL);
}
