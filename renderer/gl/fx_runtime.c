/* renderer/gl/fx_runtime.c - an effect instance and its Script (fx_runtime.h). */
#include "renderer/gl/fx_runtime.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "renderer/fx/select.h"
#include "renderer/fx/translate.h"
#include "renderer/gl/fx_program.h"
#include "renderer/gl/fx_states.h"

#define MAX_TARGETS 4 /* RenderColorTarget0..3 */

/* --------------------------------------------------------------- the tables */

/* D3D format names → GL (one row each; unknown: A8R8G8B8). */
static const struct format_row {
    const char *name;
    GLenum internal, format, type;
    unsigned bytes; /* a texel's */
} k_formats[] = {
    {"A8R8G8B8", GL_RGBA8, GL_RGBA, GL_UNSIGNED_BYTE, 4},        {"X8R8G8B8", GL_RGBA8, GL_RGBA, GL_UNSIGNED_BYTE, 4},
    {"A8B8G8R8", GL_RGBA8, GL_RGBA, GL_UNSIGNED_BYTE, 4},        {"A2R10G10B10", GL_RGB10_A2, GL_RGBA, GL_UNSIGNED_BYTE, 4},
    {"A16B16G16R16", GL_RGBA16, GL_RGBA, GL_UNSIGNED_SHORT, 8},  {"A16B16G16R16F", GL_RGBA16F, GL_RGBA, GL_FLOAT, 8},
    {"A32B32G32R32F", GL_RGBA32F, GL_RGBA, GL_FLOAT, 16},        {"R16F", GL_R16F, GL_RED, GL_FLOAT, 2},
    {"R32F", GL_R32F, GL_RED, GL_FLOAT, 4},                      {"G16R16F", GL_RG16F, GL_RG, GL_FLOAT, 4},
    {"G32R32F", GL_RG32F, GL_RG, GL_FLOAT, 8},                   {"G16R16", GL_RG16, GL_RG, GL_UNSIGNED_SHORT, 4},
    {"L8", GL_R8, GL_RED, GL_UNSIGNED_BYTE, 1},                  {"A8", GL_R8, GL_RED, GL_UNSIGNED_BYTE, 1},
};

/* DX9 sampler_state filter and address names → GL. */
static const struct { const char *name; GLint v; } k_address[] = {
    {"WRAP", GL_REPEAT}, {"CLAMP", GL_CLAMP_TO_EDGE}, {"MIRROR", GL_MIRRORED_REPEAT},
    {"BORDER", GL_CLAMP_TO_BORDER}, {"MIRRORONCE", GL_MIRRORED_REPEAT},
};
enum { F_NONE, F_POINT, F_LINEAR };
static const struct { const char *name; int v; } k_filters[] = {
    {"NONE", F_NONE}, {"POINT", F_POINT}, {"LINEAR", F_LINEAR}, {"ANISOTROPIC", F_LINEAR},
    {"PYRAMIDALQUAD", F_LINEAR}, {"GAUSSIANQUAD", F_LINEAR},
};
/* ---------------------------------------------------------------- instance */

typedef struct target {
    const mmd_fx_param *tex; /* the texture declaration */
    bool depth;
    GLuint name;              /* texture (colour) or renderbuffer (depth) */
    int w, h, levels;
    bool dirty;               /* drawn since its mip levels were made */
} target;

typedef struct uniform_slot {
    GLint loc;
    const mmd_fx_param *param; /* NULL: not an effect global (stays 0) */
    unsigned comps;            /* 1..4 floats, 16 a matrix, 0 a uint (bool) / int */
    bool is_uint, is_int;
} uniform_slot;

typedef struct sampler_slot {
    GLint unit;
    GLuint sampler;
    GLenum bind;    /* GL_TEXTURE_2D, _3D or _CUBE_MAP: the sampler's dimension */
    int target;     /* index in e->targets, -1 when a file */
    GLuint file;    /* a ResourceName texture of that dimension (0: none, or another dimension) */
    int material;   /* MATERIALTEXTURE, MATERIALSPHEREMAP, MATERIALTOONTEXTURE: 1..3 (k_material_textures), 0 none */
    bool shadow_map; /* no texture, register(s0): MMD's self-shadow map (mmd_fx_object_draw.shadow_map) */
} sampler_slot;

/* The textures an object effect's sampler may name by semantic: the drawn
 * material's (mmd_fx_object_draw.textures, in this order). */
static const char *const k_material_textures[MMD_FX_MATERIAL_TEXTURES] = {"MATERIALTEXTURE", "MATERIALSPHEREMAP",
                                                                           "MATERIALTOONTEXTURE"};

typedef struct pass_prog {
    const mmd_fx_pass *pass;
    GLuint program;
    GLint half_pixel;
    GLint alpha_func, alpha_ref; /* the translator's alpha test (cross.c), -1 when the pass has no COLOR0 */
    uniform_slot *uniforms;
    uint32_t uniform_count;
    sampler_slot *samplers;
    uint32_t sampler_count;
    mmd_fx_script_cmd *script;
    uint32_t script_count;
} pass_prog;

/* A technique's passes and Script (linked: the ones the effect draws with). */
typedef struct tech_prog {
    const mmd_fx_technique *tech;
    pass_prog *passes; /* into mmd_fx_effect.passes */
    uint32_t pass_count;
    mmd_fx_script_cmd *script;
    uint32_t script_count;
    bool linked;
} tech_prog;

struct mmd_fx_effect {
    const mmd_fx *fx;
    mmd_fx_effect_config c;
    tech_prog *techs;   /* one per technique of fx */
    pass_prog *passes;  /* every linked pass */
    uint32_t pass_count;
    target *targets;
    uint32_t target_count;
    GLuint fbo, vao, vbo, out_tex, out_depth;
    uint32_t max_units; /* samplers of the pass with the most */
    bool reads_shadow_map; /* a pass samples register(s0) with no texture (mmd_fx_object_draw.shadow_map) */
    mmd_arena *arena;
    /* a run's state */
    const mmd_fx_frame *frame;
    GLuint scene; /* the post effect's input: a framebuffer, colour attachment 0 */
    const mmd_fx_object_draw *object; /* an object effect's draw, NULL for a post effect */
    GLint host_fbo, host_viewport[4];  /* the framebuffer an object draw found bound: its default target */
    bool on_host;                      /* a preprocess run: the host's framebuffer is the default target too */
    int colour[MAX_TARGETS]; /* target index, -1 the default (0) or none (1..3) */
    int depth;
    float clear_colour[4], clear_depth;
    float loop_index;
    const mmd_fx_param *loop_param; /* LoopGetIndex's parameter: the loop's index instead of its value */
};

static const mmd_fx_param *find_param(const mmd_fx *fx, const char *name)
{
    for (uint32_t i = 0; i < fx->param_count; i++)
        if (!strcmp(fx->params[i].name, name))
            return &fx->params[i];
    return mmd_fx_fixed_param(name); /* one the translator added */
}

static const mmd_fx_param *find_named(const mmd_fx_param *list, uint32_t n, const char *name)
{
    for (uint32_t i = 0; i < n; i++)
        if (!strcmp(list[i].name, name))
            return &list[i];
    return NULL;
}

static int find_target(const mmd_fx_effect *e, const char *name)
{
    for (uint32_t i = 0; i < e->target_count; i++)
        if (!strcmp(e->targets[i].tex->name, name))
            return (int)i;
    return -1;
}

static const struct format_row *format_of(const mmd_fx_param *t)
{
    const mmd_fx_annotation *a = mmd_fx_annotation_find(t->annotations, t->annotation_count, "Format");
    if (a && a->kind == MMD_FX_VALUE_STRING) {
        const char *f = a->text;
        if (!strncasecmp(f, "D3DFMT_", 7))
            f += 7;
        for (size_t i = 0; i < sizeof k_formats / sizeof k_formats[0]; i++)
            if (!strcasecmp(f, k_formats[i].name))
                return &k_formats[i];
    }
    return &k_formats[0];
}

/* A target's size: Dimensions, Width/Height, or ViewportRatio (any spelling's case) of the viewport. */
static void target_size(const mmd_fx_param *t, int vw, int vh, int *w, int *h)
{
    const mmd_fx_annotation *a = mmd_fx_annotation_find(t->annotations, t->annotation_count, "Dimensions");
    if (a && a->kind == MMD_FX_VALUE_NUMBER && a->value_count >= 2) {
        *w = (int)a->values[0];
        *h = (int)a->values[1];
    } else {
        float rx = 1, ry = 1;
        a = mmd_fx_annotation_find(t->annotations, t->annotation_count, "ViewportRatio");
        if (a && a->kind == MMD_FX_VALUE_NUMBER && a->value_count >= 1) {
            rx = a->values[0];
            ry = a->value_count >= 2 ? a->values[1] : rx;
        }
        *w = (int)((float)vw * rx + 0.5f);
        *h = (int)((float)vh * ry + 0.5f);
    }
    *w = *w < 1 ? 1 : *w > 16384 ? 16384 : *w;
    *h = *h < 1 ? 1 : *h > 16384 ? 16384 : *h;
}

static int mip_count(int w, int h)
{
    int n = 1;
    while ((w > 1 || h > 1) && n < 16) {
        w = w > 1 ? w / 2 : 1;
        h = h > 1 ? h / 2 : 1;
        n++;
    }
    return n;
}

static mmd_status make_target(mmd_fx_effect *e, target *t, mmd_error *err)
{
    const mmd_gl *gl = e->c.gl;
    target_size(t->tex, e->c.width, e->c.height, &t->w, &t->h);
    if (t->depth) {
        gl->GenRenderbuffers(1, &t->name);
        gl->BindRenderbuffer(GL_RENDERBUFFER, t->name);
        gl->RenderbufferStorageMultisample(GL_RENDERBUFFER, 0, GL_DEPTH24_STENCIL8, t->w, t->h);
        gl->BindRenderbuffer(GL_RENDERBUFFER, 0);
    } else {
        const struct format_row *f = format_of(t->tex);
        const mmd_fx_annotation *a = mmd_fx_annotation_find(t->tex->annotations, t->tex->annotation_count, "MipLevels");
        int want = a && a->kind == MMD_FX_VALUE_NUMBER && a->value_count ? (int)a->values[0] : 1;
        int full = mip_count(t->w, t->h);
        t->levels = want <= 0 || want > full ? full : want;
        gl->GenTextures(1, &t->name);
        gl->BindTexture(GL_TEXTURE_2D, t->name);
        for (int l = 0, w = t->w, h = t->h; l < t->levels; l++, w = w > 1 ? w / 2 : 1, h = h > 1 ? h / 2 : 1)
            gl->TexImage2D(GL_TEXTURE_2D, l, (GLint)f->internal, w, h, 0, f->format, f->type, NULL);
        gl->TexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAX_LEVEL, t->levels - 1);
        gl->BindTexture(GL_TEXTURE_2D, 0);
    }
    if (gl->GetError() != GL_NO_ERROR)
        return mmd_fail(err, MMD_E_GL, "%s:%d: target %s (%dx%d) refused by GL", t->tex->loc.file, t->tex->loc.line,
                        t->tex->name, t->w, t->h);
    return MMD_OK;
}

/* A render target's bytes as made (its format's texel, mip levels: a third more; depth 4 B/px). */
static uint64_t target_bytes(const mmd_fx_param *t, bool depth, int vw, int vh)
{
    int w, h;
    target_size(t, vw, vh, &w, &h);
    uint64_t px = (uint64_t)w * (uint64_t)h;
    if (depth)
        return px * 4;
    const mmd_fx_annotation *a = mmd_fx_annotation_find(t->annotations, t->annotation_count, "MipLevels");
    bool mips = a && a->kind == MMD_FX_VALUE_NUMBER && a->value_count && a->values[0] != 1; /* absent: 1 level */
    return px * format_of(t)->bytes * (mips ? 4 : 3) / 3;
}

/* What the effect's render targets take in all, charged against the
 * config's budget (MMD_E_LIMIT over it: none is made). */
static mmd_status charge_targets(mmd_fx_effect *e, mmd_error *err)
{
    uint64_t need = 0;
    const mmd_fx_param *first = NULL;
    for (uint32_t i = 0; i < e->fx->texture_count; i++) {
        const mmd_fx_param *t = &e->fx->textures[i];
        bool colour = t->semantic && !strcasecmp(t->semantic, "RENDERCOLORTARGET");
        if (!colour && !(t->semantic && !strcasecmp(t->semantic, "RENDERDEPTHSTENCILTARGET")))
            continue;
        need += target_bytes(t, !colour, e->c.width, e->c.height);
        first = first ? first : t;
    }
    uint64_t *left = e->c.target_bytes_left;
    if (left && need > *left)
        return mmd_fail(err, MMD_E_LIMIT, "%s:%u: its render targets need %llu MiB, %llu MiB are left of --max-memory",
                        first->loc.file, (unsigned)first->loc.line, (unsigned long long)(need >> 20),
                        (unsigned long long)(*left >> 20));
    if (left)
        *left -= need;
    return MMD_OK;
}

static mmd_status make_targets(mmd_fx_effect *e, mmd_error *err)
{
    const mmd_fx *fx = e->fx;
    mmd_status cs = charge_targets(e, err);
    if (cs != MMD_OK)
        return cs;
    e->targets = calloc(fx->texture_count ? fx->texture_count : 1, sizeof *e->targets);
    if (!e->targets)
        return mmd_fail(err, MMD_E_NOMEM, "out of memory");
    for (uint32_t i = 0; i < fx->texture_count; i++) {
        const mmd_fx_param *t = &fx->textures[i];
        if (!t->semantic)
            continue;
        bool colour = !strcasecmp(t->semantic, "RENDERCOLORTARGET");
        if (!colour && strcasecmp(t->semantic, "RENDERDEPTHSTENCILTARGET"))
            continue;
        target *tg = &e->targets[e->target_count++];
        tg->tex = t;
        tg->depth = !colour;
        mmd_status s = make_target(e, tg, err);
        if (s != MMD_OK)
            return s;
    }
    return MMD_OK;
}

/* ------------------------------------------------------------- passes */

static unsigned type_comps(const char *type, bool *is_uint, bool *is_int)
{
    *is_uint = !strcasecmp(type, "bool");
    *is_int = !strcasecmp(type, "int");
    if (*is_uint || *is_int || !strcasecmp(type, "float") || !strcasecmp(type, "half"))
        return 1;
    if (!strcasecmp(type, "float4x4") || !strcasecmp(type, "matrix"))
        return 16;
    size_t n = strlen(type);
    if (n == 6 && (!strncasecmp(type, "float", 5) || !strncasecmp(type, "half", 4)) && type[5] >= '2' && type[5] <= '4')
        return (unsigned)(type[5] - '0');
    return 0; /* not set: stays 0 */
}

/* A DX9 sampler_state as a GL sampler object. */
static GLuint make_sampler(const mmd_gl *gl, const mmd_fx_param *s)
{
    int minf = F_POINT, magf = F_POINT, mipf = F_NONE;
    GLint wrap[3] = {GL_REPEAT, GL_REPEAT, GL_REPEAT};
    for (uint32_t i = 0; s && i < s->state_count; i++) {
        const mmd_fx_state *st = &s->states[i];
        for (size_t k = 0; k < sizeof k_filters / sizeof k_filters[0]; k++)
            if (!strcasecmp(st->value, k_filters[k].name)) {
                if (!strcasecmp(st->name, "MinFilter"))
                    minf = k_filters[k].v;
                else if (!strcasecmp(st->name, "MagFilter"))
                    magf = k_filters[k].v;
                else if (!strcasecmp(st->name, "MipFilter"))
                    mipf = k_filters[k].v;
            }
        for (size_t k = 0; k < sizeof k_address / sizeof k_address[0]; k++)
            if (!strcasecmp(st->value, k_address[k].name) && !strncasecmp(st->name, "Address", 7) && st->name[7] &&
                strchr("UVWuvw", st->name[7]))
                wrap[st->name[7] == 'U' || st->name[7] == 'u' ? 0 : st->name[7] == 'V' || st->name[7] == 'v' ? 1 : 2] =
                    k_address[k].v;
    }
    static const GLint k_min[3][3] = {{GL_NEAREST, GL_NEAREST, GL_LINEAR},
                                      {GL_NEAREST_MIPMAP_NEAREST, GL_NEAREST_MIPMAP_NEAREST, GL_LINEAR_MIPMAP_NEAREST},
                                      {GL_NEAREST_MIPMAP_LINEAR, GL_NEAREST_MIPMAP_LINEAR, GL_LINEAR_MIPMAP_LINEAR}};
    GLuint name = 0;
    gl->GenSamplers(1, &name);
    gl->SamplerParameteri(name, GL_TEXTURE_MIN_FILTER, k_min[mipf][minf]);
    gl->SamplerParameteri(name, GL_TEXTURE_MAG_FILTER, magf == F_LINEAR ? GL_LINEAR : GL_NEAREST);
    gl->SamplerParameteri(name, GL_TEXTURE_WRAP_S, wrap[0]);
    gl->SamplerParameteri(name, GL_TEXTURE_WRAP_T, wrap[1]);
    gl->SamplerParameteri(name, GL_TEXTURE_WRAP_R, wrap[2]);
    return name;
}

/* MMD's self-shadow map as MME hands it at register s0: point-sampled
 * (nanoem's ShadowCamera image: R32F, NEAREST), clamped, no depth compare
 * (the effect compares z itself: full.fx's object_ss). */
static GLuint shadow_sampler(const mmd_gl *gl)
{
    GLuint name = 0;
    gl->GenSamplers(1, &name);
    gl->SamplerParameteri(name, GL_TEXTURE_MIN_FILTER, GL_NEAREST);
    gl->SamplerParameteri(name, GL_TEXTURE_MAG_FILTER, GL_NEAREST);
    gl->SamplerParameteri(name, GL_TEXTURE_WRAP_S, GL_CLAMP_TO_EDGE);
    gl->SamplerParameteri(name, GL_TEXTURE_WRAP_T, GL_CLAMP_TO_EDGE);
    return name;
}

/* The texture a sampler reads: a target of the effect, or a ResourceName file. */
static void sampler_source(mmd_fx_effect *e, const char *texture, sampler_slot *s)
{
    s->target = -1;
    if (!texture)
        return;
    s->target = find_target(e, texture);
    const mmd_fx_param *t = find_named(e->fx->textures, e->fx->texture_count, texture);
    for (int k = 0; t && t->semantic && k < MMD_FX_MATERIAL_TEXTURES; k++)
        if (!strcasecmp(t->semantic, k_material_textures[k]))
            s->material = k + 1;
    if (s->target >= 0 || s->material || !t || !e->c.texture)
        return;
    const mmd_fx_annotation *a = mmd_fx_annotation_find(t->annotations, t->annotation_count, "ResourceName");
    GLenum file_target = GL_TEXTURE_2D;
    if (a && a->kind == MMD_FX_VALUE_STRING && a->text[0])
        s->file = e->c.texture(e->c.texture_user, e->c.dir ? e->c.dir : ".", a->text, &file_target);
    if (file_target != s->bind)
        s->file = 0; /* a volume read as 2D or the like: the sampler reads 0, as an unset texture */
}

static mmd_status bind_program(mmd_fx_effect *e, pass_prog *pp, const mmd_fx_program *p, mmd_error *err)
{
    const mmd_gl *gl = e->c.gl;
    pp->uniforms = mmd_arena_alloc(e->arena, (p->uniform_count + 1) * sizeof *pp->uniforms);
    pp->samplers = mmd_arena_alloc(e->arena, (p->sampler_count + 1) * sizeof *pp->samplers);
    if (!pp->uniforms || !pp->samplers)
        return mmd_fail(err, MMD_E_NOMEM, "out of memory");
    memset(pp->uniforms, 0, (p->uniform_count + 1) * sizeof *pp->uniforms);
    memset(pp->samplers, 0, (p->sampler_count + 1) * sizeof *pp->samplers);
    gl->UseProgram(pp->program);
    pp->half_pixel = gl->GetUniformLocation(pp->program, "mmd_half_pixel");
    pp->alpha_func = gl->GetUniformLocation(pp->program, "mmd_alpha_func");
    pp->alpha_ref = gl->GetUniformLocation(pp->program, "mmd_alpha_ref");
    for (uint32_t i = 0; i < p->uniform_count; i++) {
        const mmd_fx_uniform *u = &p->uniforms[i];
        uniform_slot *s = &pp->uniforms[pp->uniform_count];
        s->loc = gl->GetUniformLocation(pp->program, u->glsl);
        s->param = find_param(e->fx, u->name);
        s->comps = type_comps(u->type, &s->is_uint, &s->is_int);
        if (s->loc >= 0 && s->param && s->comps && !s->param->array)
            pp->uniform_count++;
    }
    for (uint32_t i = 0; i < p->sampler_count; i++) {
        const mmd_fx_sampler_use *u = &p->samplers[i];
        GLint loc = gl->GetUniformLocation(pp->program, u->name);
        if (loc < 0)
            continue;
        sampler_slot *s = &pp->samplers[pp->sampler_count];
        s->unit = (GLint)pp->sampler_count++;
        gl->Uniform1i(loc, s->unit);
        const mmd_fx_param *sp = find_named(e->fx->samplers, e->fx->sampler_count, u->name);
        s->bind = u->dim == MMD_FX_SAMPLER_3D ? GL_TEXTURE_3D : u->dim == MMD_FX_SAMPLER_CUBE ? GL_TEXTURE_CUBE_MAP
                                                                                          : GL_TEXTURE_2D;
        s->shadow_map = !u->texture && s->bind == GL_TEXTURE_2D && mmd_fx_sampler_register(sp) == 0;
        e->reads_shadow_map |= s->shadow_map;
        s->sampler = s->shadow_map ? shadow_sampler(gl) : make_sampler(gl, sp);
        sampler_source(e, u->texture, s);
    }
    if (pp->sampler_count > e->max_units)
        e->max_units = pp->sampler_count;
    gl->UseProgram(0);
    return MMD_OK;
}

/* The Script annotation of a technique or pass, split; none: dflt. */
static mmd_status script_of(mmd_fx_effect *e, const mmd_fx_annotation *list, uint32_t n, const char *dflt,
                            mmd_fx_script_cmd **cmds, uint32_t *count, mmd_error *err)
{
    const mmd_fx_annotation *a = mmd_fx_annotation_find(list, n, "Script");
    const char *text = a && a->kind == MMD_FX_VALUE_STRING ? a->text : dflt;
    return mmd_fx_script_parse(text, e->arena, cmds, count, err);
}

static mmd_status make_pass(mmd_fx_effect *e, const mmd_fx_pass *pass, pass_prog *pp, mmd_error *err)
{
    mmd_fx_translate_options opt = {.cache_dir = e->c.cache_dir};
    mmd_fx_program *p = NULL;
    mmd_error why = {0};
    pp->pass = pass;
    mmd_status s = mmd_fx_translate(e->fx, pass, &opt, &p, &why);
    const char *draw = e->c.object_kinds ? "Draw=Geometry;" : "Draw=Buffer;"; /* a pass without a Script */
    if (s != MMD_OK) { /* "FILE:LINE: what" -> "FILE:LINE: pass P: what" */
        const char *rest = strstr(why.msg, ": ");
        if (!rest)
            return mmd_fail(err, s, "%s:%d: pass %s: %s", pass->loc.file, pass->loc.line, pass->name, why.msg);
        return mmd_fail(err, s, "%.*s: pass %s: %s", (int)(rest - why.msg), why.msg, pass->name, rest + 2);
    }
    s = mmd_gl_fx_program_link(e->c.gl, p->vs, p->fs, &pp->program, &why);
    if (s != MMD_OK) {
        mmd_fx_program_free(p);
        return mmd_fail(err, s, "%s:%d: pass %s: %s", pass->loc.file, pass->loc.line, pass->name, why.msg);
    }
    s = bind_program(e, pp, p, err);
    mmd_fx_program_free(p);
    if (s == MMD_OK && (s = script_of(e, pass->annotations, pass->annotation_count, draw, &pp->script,
                                      &pp->script_count, &why)) != MMD_OK)
        mmd_fail(err, s, "%s:%d: pass %s: Script: %s", pass->loc.file, pass->loc.line, pass->name, why.msg);
    return s;
}

/* A technique's passes linked and its Script split. */
static mmd_status make_technique(mmd_fx_effect *e, tech_prog *tp, const mmd_fx_technique *t, mmd_error *err)
{
    tp->tech = t;
    tp->passes = &e->passes[e->pass_count];
    mmd_status s = MMD_OK;
    for (uint32_t i = 0; s == MMD_OK && i < t->pass_count; i++, e->pass_count++, tp->pass_count++)
        s = make_pass(e, &t->passes[i], &tp->passes[i], err);
    if (s != MMD_OK)
        return s;
    mmd_error why;
    s = script_of(e, t->annotations, t->annotation_count, NULL, &tp->script, &tp->script_count, &why);
    if (s != MMD_OK)
        return mmd_fail(err, s, "%s:%d: technique %s: Script: %s", t->loc.file, t->loc.line, t->name, why.msg);
    tp->linked = true;
    return MMD_OK;
}

/* Which techniques are linked: a post effect's first (MME draws it with
 * that one); an object effect's of the kinds asked for. */
static bool wanted(const mmd_fx_effect *e, uint32_t t)
{
    mmd_fx_pass_kind kind;
    if (!e->c.object_kinds)
        return t == 0;
    return mmd_fx_technique_kind(&e->fx->techniques[t], &kind) && (e->c.object_kinds & (1u << kind));
}

/* The full-screen quad of Draw=Buffer: D3D's corners with their texture
 * coordinates (0,0 at the top left), POSITION at 0 and TEXCOORD0 at 2. */
static void make_quad(mmd_fx_effect *e)
{
    static const float k_quad[] = {-1, 1, 0, 1, 0, 0, 1, 1, 0, 1, 1, 0, -1, -1, 0, 1, 0, 1, 1, -1, 0, 1, 1, 1};
    const mmd_gl *gl = e->c.gl;
    gl->GenVertexArrays(1, &e->vao);
    gl->GenBuffers(1, &e->vbo);
    gl->BindVertexArray(e->vao);
    gl->BindBuffer(GL_ARRAY_BUFFER, e->vbo);
    gl->BufferData(GL_ARRAY_BUFFER, sizeof k_quad, k_quad, GL_STATIC_DRAW);
    gl->EnableVertexAttribArray(0);
    gl->VertexAttribPointer(0, 4, GL_FLOAT, GL_FALSE, 6 * sizeof(float), (void *)0);
    gl->EnableVertexAttribArray(2);
    gl->VertexAttribPointer(2, 2, GL_FLOAT, GL_FALSE, 6 * sizeof(float), (void *)(4 * sizeof(float)));
    gl->BindVertexArray(0);
    gl->BindBuffer(GL_ARRAY_BUFFER, 0);
}

static mmd_status make_output(mmd_fx_effect *e, mmd_error *err)
{
    const mmd_gl *gl = e->c.gl;
    gl->GenFramebuffers(1, &e->fbo);
    gl->GenTextures(1, &e->out_tex);
    gl->BindTexture(GL_TEXTURE_2D, e->out_tex);
    /* MME's screen is X8R8G8B8: alpha reads 1 unless the render keeps it */
    gl->TexImage2D(GL_TEXTURE_2D, 0, e->c.alpha ? GL_RGBA8 : GL_RGB8, e->c.width, e->c.height, 0, GL_RGBA,
                   GL_UNSIGNED_BYTE, NULL);
    gl->TexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAX_LEVEL, 0);
    gl->BindTexture(GL_TEXTURE_2D, 0);
    gl->GenRenderbuffers(1, &e->out_depth);
    gl->BindRenderbuffer(GL_RENDERBUFFER, e->out_depth);
    gl->RenderbufferStorageMultisample(GL_RENDERBUFFER, 0, GL_DEPTH24_STENCIL8, e->c.width, e->c.height);
    gl->BindRenderbuffer(GL_RENDERBUFFER, 0);
    make_quad(e);
    if (gl->GetError() != GL_NO_ERROR)
        return mmd_fail(err, MMD_E_GL, "effect output %dx%d refused by GL", e->c.width, e->c.height);
    return MMD_OK;
}

mmd_status mmd_fx_effect_create(const mmd_fx *fx, const mmd_fx_effect_config *c, mmd_fx_effect **out,
                                mmd_error *err)
{
    *out = NULL;
    if (!fx->technique_count)
        return mmd_fail(err, MMD_E_UNSUPPORTED, "no technique");
    mmd_fx_effect *e = calloc(1, sizeof *e);
    if (!e || !(e->arena = mmd_arena_create())) {
        free(e);
        return mmd_fail(err, MMD_E_NOMEM, "out of memory");
    }
    e->fx = fx;
    e->c = *c;
    uint32_t passes = 0;
    for (uint32_t i = 0; i < fx->technique_count; i++)
        passes += fx->techniques[i].pass_count;
    e->techs = calloc(fx->technique_count, sizeof *e->techs);
    e->passes = calloc(passes + 1, sizeof *e->passes);
    mmd_status s = e->passes && e->techs ? make_targets(e, err) : mmd_fail(err, MMD_E_NOMEM, "out of memory");
    if (s == MMD_OK)
        s = make_output(e, err);
    for (uint32_t i = 0; s == MMD_OK && i < fx->technique_count; i++)
        if (wanted(e, i))
            s = make_technique(e, &e->techs[i], &fx->techniques[i], err);
    if (s != MMD_OK) {
        mmd_fx_effect_free(e);
        return s;
    }
    *out = e;
    return MMD_OK;
}

void mmd_fx_effect_free(mmd_fx_effect *e)
{
    if (!e)
        return;
    const mmd_gl *gl = e->c.gl;
    for (uint32_t i = 0; i < e->pass_count; i++) {
        pass_prog *pp = &e->passes[i];
        for (uint32_t k = 0; k < pp->sampler_count; k++)
            gl->DeleteSamplers(1, &pp->samplers[k].sampler);
        if (pp->program)
            gl->DeleteProgram(pp->program);
    }
    for (uint32_t i = 0; i < e->target_count; i++) {
        if (e->targets[i].depth)
            gl->DeleteRenderbuffers(1, &e->targets[i].name);
        else
            gl->DeleteTextures(1, &e->targets[i].name);
    }
    if (e->fbo) {
        gl->DeleteFramebuffers(1, &e->fbo);
        gl->DeleteTextures(1, &e->out_tex);
        gl->DeleteRenderbuffers(1, &e->out_depth);
        gl->DeleteVertexArrays(1, &e->vao);
        gl->DeleteBuffers(1, &e->vbo);
    }
    free(e->passes);
    free(e->techs);
    free(e->targets);
    mmd_arena_destroy(e->arena);
    free(e);
}

/* ------------------------------------------------------------------ drawing */

/* The framebuffer as the script set it; returns the viewport's size. */
static void bind_targets(mmd_fx_effect *e, int *w, int *h)
{
    const mmd_gl *gl = e->c.gl;
    if ((e->object || e->on_host) && e->colour[0] < 0) { /* an object or preprocess effect's: the renderer's */
        gl->BindFramebuffer(GL_FRAMEBUFFER, (GLuint)e->host_fbo);
        *w = e->host_viewport[2];
        *h = e->host_viewport[3];
        gl->Viewport(e->host_viewport[0], e->host_viewport[1], *w, *h);
        return;
    }
    gl->BindFramebuffer(GL_FRAMEBUFFER, e->fbo);
    GLenum bufs[MAX_TARGETS];
    int n = 0;
    *w = e->c.width;
    *h = e->c.height;
    for (int i = 0; i < MAX_TARGETS; i++) {
        int t = e->colour[i];
        GLuint tex = t >= 0 ? e->targets[t].name : i == 0 ? e->out_tex : 0;
        gl->FramebufferTexture2D(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0 + (GLenum)i, GL_TEXTURE_2D, tex, 0);
        bufs[i] = tex ? GL_COLOR_ATTACHMENT0 + (GLenum)i : GL_NONE;
        n = tex ? i + 1 : n;
        if (t >= 0) {
            e->targets[t].dirty = true;
            if (i == 0) {
                *w = e->targets[t].w;
                *h = e->targets[t].h;
            }
        }
    }
    gl->DrawBuffers(n ? n : 1, bufs);
    GLuint depth = e->depth >= 0 ? e->targets[e->depth].name : e->out_depth;
    gl->FramebufferRenderbuffer(GL_FRAMEBUFFER, GL_DEPTH_STENCIL_ATTACHMENT, GL_RENDERBUFFER, depth);
    gl->Viewport(0, 0, *w, *h);
}

/* The pass's render states, and its program in use with the alpha test's uniforms. */
static void apply_states(const mmd_fx_effect *e, const pass_prog *pp)
{
    const mmd_fx_pass *pass = pp->pass;
    mmd_fx_states s;
    mmd_fx_states_default(&s);
    if (e->object) { /* MME: the material's culling (double-sided: none), the edge's front faces */
        s.cull_ccw = !e->object->edge && !e->object->double_sided;
        s.cull_cw = e->object->edge;
    }
    if (e->object && e->object->ground_shadow) { /* our built-in pass's state (MME's not verified) */
        s.cull_ccw = s.cull_cw = s.zwrite = false;
        s.stencil = e->object->translucent;
        s.stencil_func = GL_NOTEQUAL, s.stencil_ref = 1, s.stencil_mask = s.stencil_write_mask = 0xff;
        s.stencil_fail = s.stencil_zfail = GL_KEEP, s.stencil_pass = GL_REPLACE;
    }
    mmd_fx_states_set(e->fx, pass, &s);
    mmd_fx_states_apply(e->c.gl, &s);
    if (e->object && e->object->rows_up)
        e->c.gl->FrontFace(GL_CW);
    e->c.gl->UseProgram(pp->program);
    if (pp->alpha_func >= 0)
        e->c.gl->Uniform1i(pp->alpha_func, mmd_fx_states_alpha_func(&s));
    if (pp->alpha_ref >= 0)
        e->c.gl->Uniform1f(pp->alpha_ref, (float)(s.alpha_ref & 255u));
}

static void set_uniforms(mmd_fx_effect *e, const pass_prog *pp, int w, int h)
{
    const mmd_gl *gl = e->c.gl;
    if (pp->half_pixel >= 0)
        gl->Uniform2f(pp->half_pixel, 1.0f / (float)w, 1.0f / (float)h);
    for (uint32_t i = 0; i < pp->uniform_count; i++) {
        const uniform_slot *s = &pp->uniforms[i];
        float v[16];
        mmd_fx_param_value(s->param, e->frame, v);
        if (s->param == e->loop_param)
            v[0] = e->loop_index;
        if (s->is_uint)
            gl->Uniform1ui(s->loc, v[0] != 0.0f);
        else if (s->is_int)
            gl->Uniform1i(s->loc, (GLint)v[0]);
        else if (s->comps == 16)
            gl->UniformMatrix4fv(s->loc, 1, GL_FALSE, v);
        else if (s->comps == 1)
            gl->Uniform1f(s->loc, v[0]);
        else if (s->comps == 2)
            gl->Uniform2fv(s->loc, 1, v);
        else if (s->comps == 3)
            gl->Uniform3fv(s->loc, 1, v);
        else
            gl->Uniform4fv(s->loc, 1, v);
    }
}

static void bind_samplers(mmd_fx_effect *e, const pass_prog *pp)
{
    const mmd_gl *gl = e->c.gl;
    for (uint32_t i = 0; i < pp->sampler_count; i++) {
        const sampler_slot *s = &pp->samplers[i];
        GLuint tex = s->file;
        if (s->material)
            tex = e->object ? e->object->textures[s->material - 1] : 0;
        else if (s->shadow_map)
            tex = e->object ? e->object->shadow_map : 0;
        if (s->target >= 0 && s->bind != GL_TEXTURE_2D) {
            tex = 0; /* a render target is 2D */
        } else if (s->target >= 0) {
            target *t = &e->targets[s->target];
            tex = t->name;
            if (t->dirty && t->levels > 1) {
                gl->BindTexture(GL_TEXTURE_2D, tex);
                gl->GenerateMipmap(GL_TEXTURE_2D);
            }
            t->dirty = false;
        }
        gl->ActiveTexture(GL_TEXTURE0 + (GLenum)s->unit);
        gl->BindTexture(s->bind, tex);
        gl->BindSampler((GLuint)s->unit, s->sampler);
    }
    gl->ActiveTexture(GL_TEXTURE0);
}

/* Draw=Buffer: the pass's program over the whole target. */
static void draw_buffer(mmd_fx_effect *e, const pass_prog *pp)
{
    const mmd_gl *gl = e->c.gl;
    int w, h;
    bind_samplers(e, pp); /* before the targets: a target's mips are made as it is read */
    bind_targets(e, &w, &h);
    apply_states(e, pp);
    set_uniforms(e, pp, w, h);
    gl->BindVertexArray(e->vao);
    gl->DrawArrays(GL_TRIANGLE_STRIP, 0, 4);
    gl->BindVertexArray(0);
}

static void draw_geometry(mmd_fx_effect *e, const pass_prog *pp)
{
    if (!e->c.geometry || !e->object)
        return;
    int w, h;
    bind_samplers(e, pp);
    bind_targets(e, &w, &h);
    apply_states(e, pp);
    set_uniforms(e, pp, w, h);
    e->c.geometry(e->c.geometry_user, e->object->geometry, pp->program);
}

/* ------------------------------------------------------------------ Script */

typedef struct script_run {
    mmd_fx_effect *e;
    const tech_prog *tech; /* the technique drawn */
    const pass_prog *pass; /* inside a pass's script, else NULL */
    struct { uint32_t at; int left, index; const mmd_fx_param *param; } loops[8];
    int depth;
    uint32_t steps;
} script_run;

static float param_number(const mmd_fx_effect *e, const char *name, float dflt)
{
    const mmd_fx_param *p = find_param(e->fx, name);
    float v[16];
    if (p && mmd_fx_param_value(p, e->frame, v))
        return v[0];
    float lit;
    return mmd_fx_init_numbers(name, &lit, 1) ? lit : dflt;
}

static void cmd_colour_target(script_run *r, const mmd_fx_script_cmd *c)
{
    size_t n = strlen("RenderColorTarget");
    int i = c->name[n] ? c->name[n] - '0' : 0;
    if (i < 0 || i >= MAX_TARGETS)
        return;
    r->e->colour[i] = c->value[0] ? find_target(r->e, c->value) : -1;
}

static void cmd_depth_target(script_run *r, const mmd_fx_script_cmd *c)
{
    int t = c->value[0] ? find_target(r->e, c->value) : -1;
    r->e->depth = t >= 0 && r->e->targets[t].depth ? t : -1;
}

static void cmd_clear_set_colour(script_run *r, const mmd_fx_script_cmd *c)
{
    const mmd_fx_param *p = find_param(r->e->fx, c->value);
    float v[16];
    if (p && mmd_fx_param_value(p, r->e->frame, v))
        memcpy(r->e->clear_colour, v, sizeof r->e->clear_colour);
}

static void cmd_clear_set_depth(script_run *r, const mmd_fx_script_cmd *c)
{
    r->e->clear_depth = param_number(r->e, c->value, 1.0f);
}

static void cmd_clear(script_run *r, const mmd_fx_script_cmd *c)
{
    mmd_fx_effect *e = r->e;
    const mmd_gl *gl = e->c.gl;
    int w, h;
    bind_targets(e, &w, &h);
    if (!strcasecmp(c->value, "Color")) {
        const float *k = e->clear_colour;
        gl->ColorMask(GL_TRUE, GL_TRUE, GL_TRUE, GL_TRUE);
        gl->ClearColor(k[0], k[1], k[2], k[3]);
        gl->Clear(GL_COLOR_BUFFER_BIT);
    } else if (!strcasecmp(c->value, "Depth")) {
        gl->DepthMask(GL_TRUE);
        gl->ClearDepth(e->clear_depth);
        gl->ClearStencil(0);
        gl->StencilMask(0xffffffffu);
        gl->Clear(GL_DEPTH_BUFFER_BIT | GL_STENCIL_BUFFER_BIT);
    }
}

/* ScriptExternal=Color: the scene (a post effect's input) into the current colour target. */
static void cmd_external(script_run *r, const mmd_fx_script_cmd *c)
{
    (void)c;
    mmd_fx_effect *e = r->e;
    const mmd_gl *gl = e->c.gl;
    if (!e->scene)
        return; /* an object effect's: the scene is what it draws into */
    int w, h;
    bind_targets(e, &w, &h);
    gl->BindFramebuffer(GL_READ_FRAMEBUFFER, e->scene);
    gl->ReadBuffer(GL_COLOR_ATTACHMENT0);
    GLenum one = GL_COLOR_ATTACHMENT0;
    gl->DrawBuffers(1, &one);
    gl->BlitFramebuffer(0, 0, e->c.width, e->c.height, 0, 0, w, h, GL_COLOR_BUFFER_BIT,
                        w == e->c.width && h == e->c.height ? GL_NEAREST : GL_LINEAR);
    gl->BindFramebuffer(GL_FRAMEBUFFER, e->fbo);
}

static void run_script(script_run *r, const mmd_fx_script_cmd *cmds, uint32_t count);

static void cmd_pass(script_run *r, const mmd_fx_script_cmd *c)
{
    if (r->pass)
        return; /* Pass inside a pass: DX9 refuses it */
    for (uint32_t i = 0; i < r->tech->pass_count; i++) {
        const pass_prog *pp = &r->tech->passes[i];
        if (strcmp(pp->pass->name, c->value))
            continue;
        script_run inner = {.e = r->e, .tech = r->tech, .pass = pp, .steps = r->steps};
        run_script(&inner, pp->script, pp->script_count);
        r->steps = inner.steps;
        return;
    }
}

static void cmd_draw(script_run *r, const mmd_fx_script_cmd *c)
{
    if (!r->pass)
        return;
    if (!strcasecmp(c->value, "Buffer"))
        draw_buffer(r->e, r->pass);
    else if (!strcasecmp(c->value, "Geometry"))
        draw_geometry(r->e, r->pass);
}

static void cmd_loop_get_index(script_run *r, const mmd_fx_script_cmd *c)
{
    r->e->loop_param = find_param(r->e->fx, c->value);
    r->e->loop_index = r->depth > 0 ? (float)r->loops[r->depth - 1].index : 0.0f;
}

static const struct script_row {
    const char *name;
    bool prefix;
    void (*run)(script_run *r, const mmd_fx_script_cmd *c);
} k_script[] = {
    {"RenderColorTarget", true, cmd_colour_target},
    {"RenderDepthStencilTarget", false, cmd_depth_target},
    {"ClearSetColor", false, cmd_clear_set_colour},
    {"ClearSetDepth", false, cmd_clear_set_depth},
    {"Clear", false, cmd_clear},
    {"ScriptExternal", false, cmd_external},
    {"Pass", false, cmd_pass},
    {"Draw", false, cmd_draw},
    {"LoopGetIndex", false, cmd_loop_get_index},
};

/* LoopByCount / LoopEnd move the command index; the rest is the table's. */
static void run_script(script_run *r, const mmd_fx_script_cmd *cmds, uint32_t count)
{
    for (uint32_t i = 0; i < count && r->steps < MMD_FX_MAX_SCRIPT_STEPS; i++, r->steps++) {
        const mmd_fx_script_cmd *c = &cmds[i];
        if (!strcasecmp(c->name, "LoopByCount")) {
            int n = (int)param_number(r->e, c->value, 0);
            n = n < 0 ? 0 : n > MMD_FX_MAX_LOOP ? MMD_FX_MAX_LOOP : n;
            if (n == 0 || r->depth == 8) { /* skip to the matching LoopEnd */
                for (int d = 1; d > 0 && ++i < count;)
                    d += !strcasecmp(cmds[i].name, "LoopByCount") - !strcasecmp(cmds[i].name, "LoopEnd");
                continue;
            }
            r->loops[r->depth].at = i;
            r->loops[r->depth].left = n - 1;
            r->loops[r->depth].index = 0;
            r->depth++;
            continue;
        }
        if (!strcasecmp(c->name, "LoopEnd")) {
            if (r->depth > 0 && r->loops[r->depth - 1].left > 0) {
                r->loops[r->depth - 1].left--;
                r->loops[r->depth - 1].index++;
                i = r->loops[r->depth - 1].at;
            } else if (r->depth > 0) {
                r->depth--;
            }
            continue;
        }
        for (size_t k = 0; k < sizeof k_script / sizeof k_script[0]; k++) {
            const struct script_row *row = &k_script[k];
            bool hit = row->prefix ? !strncasecmp(c->name, row->name, strlen(row->name)) : !strcasecmp(c->name, row->name);
            if (hit) {
                row->run(r, c);
                break;
            }
        }
    }
}

/* A run's state at its start: every target the default, MME's clear values. */
static void reset_run(mmd_fx_effect *e, const mmd_fx_frame *f)
{
    e->frame = f;
    for (int i = 0; i < MAX_TARGETS; i++)
        e->colour[i] = -1;
    e->depth = -1;
    memset(e->clear_colour, 0, sizeof e->clear_colour);
    e->clear_depth = 1.0f;
    e->loop_index = 0;
    e->loop_param = NULL;
}

/* The technique's Script, or without one each of its passes in order. */
static void run_technique(mmd_fx_effect *e, const tech_prog *tp)
{
    script_run r = {.e = e, .tech = tp};
    if (tp->script_count) {
        run_script(&r, tp->script, tp->script_count);
        return;
    }
    for (uint32_t i = 0; i < tp->pass_count; i++) {
        script_run inner = {.e = e, .tech = tp, .pass = &tp->passes[i], .steps = r.steps};
        run_script(&inner, tp->passes[i].script, tp->passes[i].script_count);
        r.steps = inner.steps;
    }
}

static mmd_status gl_result(const mmd_gl *gl, mmd_error *err)
{
    GLenum ge = gl->GetError();
    if (ge != GL_NO_ERROR)
        return mmd_fail(err, MMD_E_GL, "GL error 0x%x in the effect", (unsigned)ge);
    return MMD_OK;
}

mmd_status mmd_fx_effect_post(mmd_fx_effect *e, GLuint scene, const mmd_fx_frame *f, GLuint *out, mmd_error *err)
{
    const mmd_gl *gl = e->c.gl;
    reset_run(e, f);
    e->scene = scene;
    /* the output starts cleared (0, depth 1) every frame: what an effect leaves
     * undrawn is the same in a whole run and in a chunk */
    int w, h;
    bind_targets(e, &w, &h);
    gl->ColorMask(GL_TRUE, GL_TRUE, GL_TRUE, GL_TRUE);
    gl->DepthMask(GL_TRUE);
    gl->ClearColor(0, 0, 0, 0);
    gl->ClearDepth(1.0);
    gl->ClearStencil(0);
    gl->StencilMask(0xffffffffu);
    gl->Clear(GL_COLOR_BUFFER_BIT | GL_DEPTH_BUFFER_BIT | GL_STENCIL_BUFFER_BIT);
    if (e->techs[0].linked)
        run_technique(e, &e->techs[0]);
    for (uint32_t i = 0; i < e->max_units; i++)
        gl->BindSampler(i, 0);
    gl->UseProgram(0);
    mmd_fx_states_reset(gl);
    gl->BindFramebuffer(GL_FRAMEBUFFER, 0);
    mmd_status s = gl_result(gl, err);
    if (s == MMD_OK)
        *out = e->out_tex;
    return s;
}

mmd_status mmd_fx_effect_preprocess(mmd_fx_effect *e, const mmd_fx_frame *f, mmd_error *err)
{
    const mmd_gl *gl = e->c.gl;
    reset_run(e, f);
    e->scene = 0;
    e->on_host = true;
    gl->GetIntegerv(GL_DRAW_FRAMEBUFFER_BINDING, &e->host_fbo);
    gl->GetIntegerv(GL_VIEWPORT, e->host_viewport);
    if (e->techs[0].linked)
        run_technique(e, &e->techs[0]);
    e->on_host = false;
    for (uint32_t i = 0; i < e->max_units; i++)
        gl->BindSampler(i, 0);
    gl->UseProgram(0);
    mmd_fx_states_reset(gl);
    gl->BindFramebuffer(GL_FRAMEBUFFER, (GLuint)e->host_fbo);
    gl->Viewport(e->host_viewport[0], e->host_viewport[1], e->host_viewport[2], e->host_viewport[3]);
    return gl_result(gl, err);
}

bool mmd_fx_effect_has_technique(const mmd_fx_effect *e, int technique)
{
    return technique >= 0 && (uint32_t)technique < e->fx->technique_count && e->techs[technique].linked;
}

uint32_t mmd_fx_effect_units(const mmd_fx_effect *e)
{
    return e->max_units;
}

bool mmd_fx_effect_reads_shadow_map(const mmd_fx_effect *e)
{
    return e->reads_shadow_map;
}

mmd_status mmd_fx_effect_object(mmd_fx_effect *e, const mmd_fx_object_draw *d, const mmd_fx_frame *f, mmd_error *err)
{
    const mmd_gl *gl = e->c.gl;
    if (!mmd_fx_effect_has_technique(e, d->technique))
        return mmd_fail(err, MMD_E_USAGE, "technique %d is not linked", d->technique);
    reset_run(e, f);
    e->scene = 0;
    e->object = d;
    gl->GetIntegerv(GL_DRAW_FRAMEBUFFER_BINDING, &e->host_fbo);
    gl->GetIntegerv(GL_VIEWPORT, e->host_viewport);
    run_technique(e, &e->techs[d->technique]);
    e->object = NULL;
    gl->BindFramebuffer(GL_FRAMEBUFFER, (GLuint)e->host_fbo);
    gl->Viewport(e->host_viewport[0], e->host_viewport[1], e->host_viewport[2], e->host_viewport[3]);
    return gl_result(gl, err);
}
