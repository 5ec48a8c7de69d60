/* renderer/fx/cross.c - SPIR-V of a pass's two stages to GLSL 330 through
 * SPIRV-Cross's C API, with the names, locations and conversions of
 * renderer/fx/translate.h, and the reflection record. */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <spirv_cross_c.h>

#include "renderer/fx/translate_internal.h"

#define MAX_IO 32 /* interface variables per stage (DX9 has 16 texcoord registers) */

/* Vertex inputs the runtime feeds, by semantic family: first location, how many. */
static const struct {
    const char *family;
    int32_t location, count;
} k_vertex_inputs[] = {
    {"POSITION", 0, 1}, {"NORMAL", 1, 1},    {"TEXCOORD", 2, 8},     {"COLOR", 10, 2},
    {"TANGENT", 12, 1}, {"BINORMAL", 13, 1}, {"BLENDWEIGHT", 14, 1}, {"BLENDINDICES", 15, 1},
};

/* How an interface variable becomes GLSL 330 (renderer/fx/translate.h). */
typedef enum fix_kind {
    FIX_NONE,      /* named as it is */
    FIX_POSITION,  /* VS POSITION not made gl_Position by glslang (a struct member) */
    FIX_WIDEN,     /* VS varying narrower than vec4 */
    FIX_NARROW,    /* PS varying narrower than vec4 */
    FIX_FRAGCOORD, /* PS VPOS */
    FIX_FACE,      /* PS VFACE */
    FIX_VERTEXID,  /* VS _INDEX (MME: the vertex's index) */
} fix_kind;

typedef struct iface {
    SpvId id;
    char sem[40];
    unsigned comps; /* 1..4 for a float scalar or vector, 0 otherwise */
    fix_kind fix;
    char name[64];
} iface;

typedef struct stage_ir {
    mmd_fx_stage stage;
    spvc_context ctx;
    spvc_compiler comp;
    spvc_resources res;
    iface in[MAX_IO], out[MAX_IO];
    unsigned in_count, out_count;
    char error[256]; /* SPIRV-Cross's last error */
} stage_ir;

bool mmd_fx_semantic_normalise(const char *sem, char *out, size_t out_size)
{
    size_t n = sem ? strlen(sem) : 0;
    if (!n || n + 2 > out_size || !(isalpha((unsigned char)sem[0]) || sem[0] == '_'))
        return false;
    for (size_t i = 0; i < n; i++) {
        if (!isalnum((unsigned char)sem[i]) && sem[i] != '_')
            return false;
        out[i] = (char)toupper((unsigned char)sem[i]);
    }
    out[n] = '\0';
    if (!strncmp(out, "SV_TARGET", 9)) {
        memmove(out, "COLOR", 5);
        memmove(out + 5, out + 9, n - 9 + 1);
        n -= 4;
    }
    size_t base = n;
    while (base && isdigit((unsigned char)out[base - 1]))
        base--;
    bool indexed = (base == 8 && !strncmp(out, "TEXCOORD", 8)) || (base == 5 && !strncmp(out, "COLOR", 5));
    if (base == n && indexed) {
        out[n] = '0';
        out[n + 1] = '\0';
    } else if (!indexed && base < n && !strcmp(out + base, "0"))
        out[base] = '\0';
    return true;
}

int32_t mmd_fx_vertex_location(const char *sem)
{
    size_t base = strlen(sem);
    while (base && isdigit((unsigned char)sem[base - 1]))
        base--;
    long index = sem[base] ? strtol(sem + base, NULL, 10) : 0;
    for (size_t i = 0; i < sizeof k_vertex_inputs / sizeof k_vertex_inputs[0]; i++)
        if (strlen(k_vertex_inputs[i].family) == base && !strncmp(sem, k_vertex_inputs[i].family, base))
            return index < k_vertex_inputs[i].count ? k_vertex_inputs[i].location + (int32_t)index : -1;
    return -1;
}

static void on_error(void *user, const char *msg)
{
    stage_ir *s = user;
    snprintf(s->error, sizeof s->error, "%s", msg);
}

static const char *stage_word(mmd_fx_stage st)
{
    return st == MMD_FX_STAGE_VERTEX ? "vertex shader" : "pixel shader";
}

static unsigned float_comps(spvc_compiler comp, spvc_type_id tid)
{
    spvc_type t = spvc_compiler_get_type_handle(comp, tid);
    if (spvc_type_get_basetype(t) != SPVC_BASETYPE_FP32 || spvc_type_get_columns(t) != 1 ||
        spvc_type_get_num_array_dimensions(t) != 0)
        return 0;
    return spvc_type_get_vector_size(t);
}

/* Inputs or outputs of one stage, with their normalised semantics. */
static mmd_status list_io(stage_ir *s, spvc_resource_type type, iface *out, unsigned *count, mmd_fx_loc at,
                          mmd_error *err)
{
    const spvc_reflected_resource *list = NULL;
    size_t n = 0;
    spvc_resources_get_resource_list_for_type(s->res, type, &list, &n);
    if (n > MAX_IO)
        return mmd_fx_fail(err, MMD_E_UNSUPPORTED, at, "%s: %zu interface variables (at most %d)", stage_word(s->stage),
                           n, MAX_IO);
    for (size_t i = 0; i < n; i++) {
        iface *v = &out[i];
        memset(v, 0, sizeof *v);
        v->id = list[i].id;
        const char *sem = spvc_compiler_get_decoration_string(s->comp, v->id, SpvDecorationUserSemantic);
        if (!mmd_fx_semantic_normalise(sem, v->sem, sizeof v->sem))
            return mmd_fx_fail(err, MMD_E_UNSUPPORTED, at, "%s: %s '%s' has no semantic", stage_word(s->stage),
                               type == SPVC_RESOURCE_TYPE_STAGE_INPUT ? "input" : "output", list[i].name);
        v->comps = float_comps(s->comp, list[i].type_id);
        for (size_t k = 0; k < i; k++)
            if (!strcmp(out[k].sem, v->sem))
                return mmd_fx_fail(err, MMD_E_UNSUPPORTED, at, "%s: semantic %s used twice", stage_word(s->stage),
                                   v->sem);
    }
    *count = (unsigned)n;
    return MMD_OK;
}

static mmd_status stage_open(stage_ir *s, const uint32_t *words, size_t n, mmd_fx_loc at, mmd_error *err)
{
    if (spvc_context_create(&s->ctx) != SPVC_SUCCESS)
        return mmd_fx_fail(err, MMD_E_NOMEM, at, "SPIRV-Cross: no context");
    spvc_context_set_error_callback(s->ctx, on_error, s);
    spvc_parsed_ir ir = NULL;
    spvc_compiler_options opt = NULL;
    if (spvc_context_parse_spirv(s->ctx, words, n, &ir) != SPVC_SUCCESS ||
        spvc_context_create_compiler(s->ctx, SPVC_BACKEND_GLSL, ir, SPVC_CAPTURE_MODE_TAKE_OWNERSHIP, &s->comp) !=
            SPVC_SUCCESS ||
        spvc_compiler_create_compiler_options(s->comp, &opt) != SPVC_SUCCESS ||
        spvc_compiler_options_set_uint(opt, SPVC_COMPILER_OPTION_GLSL_VERSION, 330) != SPVC_SUCCESS ||
        spvc_compiler_options_set_bool(opt, SPVC_COMPILER_OPTION_GLSL_ES, SPVC_FALSE) != SPVC_SUCCESS ||
        spvc_compiler_options_set_bool(opt, SPVC_COMPILER_OPTION_GLSL_ENABLE_420PACK_EXTENSION, SPVC_FALSE) !=
            SPVC_SUCCESS ||
        spvc_compiler_options_set_bool(opt, SPVC_COMPILER_OPTION_GLSL_EMIT_UNIFORM_BUFFER_AS_PLAIN_UNIFORMS,
                                       SPVC_TRUE) != SPVC_SUCCESS ||
        spvc_compiler_install_compiler_options(s->comp, opt) != SPVC_SUCCESS ||
        spvc_compiler_create_shader_resources(s->comp, &s->res) != SPVC_SUCCESS)
        return mmd_fx_fail(err, MMD_E_UNSUPPORTED, at, "%s: SPIRV-Cross: %s", stage_word(s->stage), s->error);
    const spvc_reflected_resource *list = NULL;
    size_t count = 0;
    spvc_resources_get_resource_list_for_type(s->res, SPVC_RESOURCE_TYPE_SEPARATE_IMAGE, &list, &count);
    if (count)
        return mmd_fx_fail(err, MMD_E_UNSUPPORTED, at, "%s: texture object '%s' read without a DX9 sampler",
                           stage_word(s->stage), list[0].name);
    mmd_status st = list_io(s, SPVC_RESOURCE_TYPE_STAGE_INPUT, s->in, &s->in_count, at, err);
    return st == MMD_OK ? list_io(s, SPVC_RESOURCE_TYPE_STAGE_OUTPUT, s->out, &s->out_count, at, err) : st;
}

static const iface *find_sem(const iface *list, unsigned n, const char *sem)
{
    for (unsigned i = 0; i < n; i++)
        if (!strcmp(list[i].sem, sem))
            return &list[i];
    return NULL;
}

/* v->name = prefix + v->sem (through a copy: GCC's -Wrestrict cannot tell the
 * two arrays of one struct apart). */
static void name_as(iface *v, const char *prefix)
{
    char sem[sizeof v->sem];
    memcpy(sem, v->sem, sizeof sem);
    snprintf(v->name, sizeof v->name, "%s%s", prefix, sem);
}

/* Names (and fixes) of the vertex stage's interface. */
static mmd_status name_vertex(stage_ir *s, mmd_fx_loc at, mmd_error *err)
{
    for (unsigned i = 0; i < s->in_count; i++) {
        iface *v = &s->in[i];
        int32_t loc = mmd_fx_vertex_location(v->sem);
        if (!strcmp(v->sem, "_INDEX")) { /* "mmd_vi" + "_INDEX": GLSL keeps no "__" */
            v->fix = FIX_VERTEXID;
            name_as(v, "mmd_vi");
            spvc_compiler_unset_decoration(s->comp, v->id, SpvDecorationLocation);
            continue;
        }
        if (loc < 0)
            return mmd_fx_fail(err, MMD_E_UNSUPPORTED, at,
                               "vertex shader: input %s is no vertex data (POSITION, NORMAL, "
                               "TEXCOORD0..7, ...)",
                               v->sem);
        name_as(v, "a_");
        spvc_compiler_set_decoration(s->comp, v->id, SpvDecorationLocation, (unsigned)loc);
    }
    for (unsigned i = 0; i < s->out_count; i++) {
        iface *v = &s->out[i];
        if (!v->comps)
            return mmd_fx_fail(err, MMD_E_UNSUPPORTED, at, "vertex shader: output %s is not a float vector", v->sem);
        if (!strcmp(v->sem, "POSITION") || !strcmp(v->sem, "SV_POSITION"))
            v->fix = FIX_POSITION;
        else if (v->comps < 4)
            v->fix = FIX_WIDEN;
        name_as(v, v->fix == FIX_NONE ? "v_" : "mmd_vo_");
    }
    return MMD_OK;
}

/* Names (and fixes) of the pixel stage's interface. */
static mmd_status name_fragment(stage_ir *s, mmd_fx_loc at, mmd_error *err)
{
    for (unsigned i = 0; i < s->in_count; i++) {
        iface *v = &s->in[i];
        if (!v->comps)
            return mmd_fx_fail(err, MMD_E_UNSUPPORTED, at, "pixel shader: input %s is not a float vector", v->sem);
        if (!strcmp(v->sem, "VPOS"))
            v->fix = FIX_FRAGCOORD;
        else if (!strcmp(v->sem, "VFACE"))
            v->fix = FIX_FACE;
        else if (v->comps < 4)
            v->fix = FIX_NARROW;
        name_as(v, v->fix == FIX_NONE ? "v_" : "mmd_vi_");
    }
    for (unsigned i = 0; i < s->out_count; i++) {
        iface *v = &s->out[i];
        if (strncmp(v->sem, "COLOR", 5) || v->sem[5] < '0' || v->sem[5] > '3' || v->sem[6])
            return mmd_fx_fail(err, MMD_E_UNSUPPORTED, at, "pixel shader: output %s (COLOR0..3 are drawn)", v->sem);
        name_as(v, "o_");
        spvc_compiler_set_decoration(s->comp, v->id, SpvDecorationLocation, (unsigned)(v->sem[5] - '0'));
    }
    return MMD_OK;
}

static void apply_names(stage_ir *s)
{
    for (unsigned i = 0; i < s->in_count; i++)
        spvc_compiler_set_name(s->comp, s->in[i].id, s->in[i].name);
    for (unsigned i = 0; i < s->out_count; i++)
        spvc_compiler_set_name(s->comp, s->out[i].id, s->out[i].name);
    const spvc_reflected_resource *list = NULL;
    size_t n = 0;
    spvc_resources_get_resource_list_for_type(s->res, SPVC_RESOURCE_TYPE_UNIFORM_BUFFER, &list, &n);
    const char *prefix = s->stage == MMD_FX_STAGE_VERTEX ? "mmd_vs" : "mmd_ps";
    for (size_t i = 0; i < n; i++) {
        char name[32], type[40];
        snprintf(name, sizeof name, i ? "%s%zu" : "%s", prefix, i);
        snprintf(type, sizeof type, "%s_globals", name);
        spvc_compiler_set_name(s->comp, list[i].id, name);
        spvc_compiler_set_name(s->comp, list[i].base_type_id, type);
    }
}

static const char *glsl_float_type(unsigned comps)
{
    static const char *const k[] = {"float", "float", "vec2", "vec3", "vec4"};
    return k[comps <= 4 ? comps : 0];
}

/* "vec4(x, 0.0, 1.0)": a narrower float vector as DX9's register holds it. */
static void widen(mmd_fx_text *b, const char *x, unsigned comps)
{
    static const char *const pad[] = {"", ", 0.0, 0.0, 1.0", ", 0.0, 1.0", ", 1.0", ""};
    mmd_fx_text_printf(b, "vec4(%s%s)", x, pad[comps <= 4 ? comps : 0]);
}

static const char *swizzle(unsigned comps)
{
    static const char *const k[] = {"", ".x", ".xy", ".xyz", ""};
    return k[comps <= 4 ? comps : 0];
}

/* The text edits one stage's GLSL needs: a declaration line replaced,
 * lines before main, lines at main's start and end. */
typedef struct edits {
    mmd_fx_text decls, pre, post;
    char from[MAX_IO * 2][96];
    char to[MAX_IO * 2][160];
    unsigned count;
} edits;

static void edit_decl(edits *e, const char *from, const char *to)
{
    if (e->count < MAX_IO * 2) {
        snprintf(e->from[e->count], sizeof e->from[0], "%s", from);
        snprintf(e->to[e->count], sizeof e->to[0], "%s", to);
        e->count++;
    }
}

static void vertex_edits(const stage_ir *vs, const stage_ir *ps, edits *e)
{
    char from[96], to[160];
    for (unsigned i = 0; i < vs->in_count; i++) { /* _INDEX: gl_VertexID, the index drawn */
        const iface *v = &vs->in[i];
        if (v->fix != FIX_VERTEXID)
            continue;
        const char *t = v->comps ? glsl_float_type(v->comps) : "int";
        snprintf(from, sizeof from, "in %s %s;", t, v->name);
        snprintf(to, sizeof to, "%s %s;", t, v->name);
        edit_decl(e, from, to);
        mmd_fx_text_printf(&e->pre, "    %s = %s(gl_VertexID);\n", v->name, t);
    }
    for (unsigned i = 0; i < vs->out_count; i++) {
        const iface *v = &vs->out[i];
        if (v->fix == FIX_NONE)
            continue;
        const char *t = glsl_float_type(v->comps);
        snprintf(from, sizeof from, "out %s %s;", t, v->name);
        if (v->fix == FIX_POSITION)
            snprintf(to, sizeof to, "%s %s;", t, v->name);
        else
            snprintf(to, sizeof to, "%s %s;\nout vec4 v_%s;", t, v->name, v->sem);
        edit_decl(e, from, to);
        mmd_fx_text_printf(&e->post, "    %s%s = ", v->fix == FIX_POSITION ? "gl_Position" : "v_",
                           v->fix == FIX_POSITION ? "" : v->sem);
        widen(&e->post, v->name, v->comps);
        mmd_fx_text_add(&e->post, ";\n", 2);
    }
    for (unsigned i = 0; i < ps->in_count; i++) { /* read by the pixel shader, never written: zero */
        const iface *v = &ps->in[i];
        if (v->fix == FIX_FRAGCOORD || v->fix == FIX_FACE || find_sem(vs->out, vs->out_count, v->sem))
            continue;
        mmd_fx_text_printf(&e->decls, "out vec4 v_%s;\n", v->sem);
        mmd_fx_text_printf(&e->post, "    v_%s = vec4(0.0);\n", v->sem);
    }
    /* DX9's pixels on GL's (docs/effects.md, "DX9 versus GL pixels"): clip-space
     * y negated, so texture row 0 is D3D's top row, and the position moved by
     * half a pixel (mmd_half_pixel = 1/width, 1/height; the runtime sets it)
     * so a vertex at D3D's -1 lands on a pixel centre as under DX9 */
    mmd_fx_text_printf(&e->decls, "uniform vec2 mmd_half_pixel;\n");
    mmd_fx_text_printf(&e->post, "    gl_Position.xy = vec2(gl_Position.x, -gl_Position.y) + mmd_half_pixel * gl_Position.w;\n");
}

/* DX9's alpha test (AlphaTestEnable, AlphaFunc, AlphaRef: GL 3.3 core has
 * none): COLOR0's alpha, as D3D's 8-bit value, against mmd_alpha_ref by
 * D3DCMPFUNC mmd_alpha_func (1 NEVER .. 8 ALWAYS; 0, the default, no test);
 * a pixel that fails is discarded. The runtime sets both per pass from the
 * render states (gl/fx_states.h mmd_fx_states_alpha_func). */
static void alpha_test_edits(const stage_ir *ps, edits *e)
{
    const iface *c0 = find_sem(ps->out, ps->out_count, "COLOR0");
    if (!c0)
        return;
    mmd_fx_text_printf(&e->decls, "uniform int mmd_alpha_func;\nuniform float mmd_alpha_ref;\n"
                                  "bool mmd_alpha_pass(float a)\n{\n"
                                  "    float v = floor(clamp(a, 0.0, 1.0) * 255.0 + 0.5), r = mmd_alpha_ref;\n"
                                  "    int f = mmd_alpha_func;\n"
                                  "    return f == 0 || f == 8 || (f == 2 && v < r) || (f == 3 && v == r) ||\n"
                                  "           (f == 4 && v <= r) || (f == 5 && v > r) || (f == 6 && v != r) ||\n"
                                  "           (f == 7 && v >= r);\n}\n");
    mmd_fx_text_printf(&e->post, "    if (!mmd_alpha_pass(%s%s))\n        discard;\n", c0->comps == 4 ? c0->name : "1.0",
                       c0->comps == 4 ? ".w" : "");
}

static void fragment_edits(const stage_ir *ps, edits *e)
{
    char from[96], to[160];
    alpha_test_edits(ps, e);
    for (unsigned i = 0; i < ps->in_count; i++) {
        const iface *v = &ps->in[i];
        if (v->fix == FIX_NONE)
            continue;
        const char *t = glsl_float_type(v->comps);
        snprintf(from, sizeof from, "in %s %s;", t, v->name);
        if (v->fix == FIX_NARROW) {
            snprintf(to, sizeof to, "in vec4 v_%s;\n%s %s;", v->sem, t, v->name);
            mmd_fx_text_printf(&e->pre, "    %s = v_%s%s;\n", v->name, v->sem, swizzle(v->comps));
        } else {
            snprintf(to, sizeof to, "%s %s;", t, v->name);
            if (v->fix == FIX_FRAGCOORD)
                mmd_fx_text_printf(&e->pre, "    %s = (gl_FragCoord - vec4(0.5, 0.5, 0.0, 0.0))%s;\n", v->name,
                                   swizzle(v->comps));
            else
                mmd_fx_text_printf(&e->pre, "    %s = %s(gl_FrontFacing ? 1.0 : -1.0);\n", v->name, t);
        }
        edit_decl(e, from, to);
    }
}

/* glsl with e applied, into out; false when a declaration or main was not found. */
static bool apply_edits(const char *glsl, const edits *e, mmd_fx_text *out)
{
    const char *main_at = strstr(glsl, "\nvoid main()\n{\n");
    const char *end = strrchr(glsl, '}');
    if (!main_at || !end || end < main_at)
        return false;
    unsigned done = 0;
    for (const char *p = glsl; *p;) {
        const char *nl = strchr(p, '\n');
        size_t n = nl ? (size_t)(nl - p) : strlen(p);
        if (p == main_at + 1) {
            mmd_fx_text_add(out, e->decls.p ? e->decls.p : "", e->decls.len);
            mmd_fx_text_add(out, "void main()\n{\n", 14);
            mmd_fx_text_add(out, e->pre.p ? e->pre.p : "", e->pre.len);
            p = main_at + 15;
            continue;
        }
        if (p == end) {
            mmd_fx_text_add(out, e->post.p ? e->post.p : "", e->post.len);
            mmd_fx_text_add(out, p, strlen(p));
            break;
        }
        unsigned k = 0;
        while (k < e->count && (strlen(e->from[k]) != n || strncmp(p, e->from[k], n)))
            k++;
        if (k < e->count) {
            mmd_fx_text_add(out, e->to[k], strlen(e->to[k]));
            done++;
        } else
            mmd_fx_text_add(out, p, n);
        mmd_fx_text_add(out, "\n", nl ? 1 : 0);
        p = nl ? nl + 1 : p + n;
    }
    return done == e->count && !out->oom;
}

static mmd_status emit(stage_ir *s, const edits *e, const char **glsl, mmd_arena *a, mmd_fx_loc at, mmd_error *err)
{
    const char *src = NULL;
    if (spvc_compiler_compile(s->comp, &src) != SPVC_SUCCESS)
        return mmd_fx_fail(err, MMD_E_UNSUPPORTED, at, "%s: SPIRV-Cross: %s", stage_word(s->stage), s->error);
    size_t len = strlen(src);
    if (len > MMD_FX_MAX_GLSL_BYTES)
        return mmd_fx_fail(err, MMD_E_LIMIT, at, "%s: SPIRV-Cross made %zu bytes of GLSL (at most %u)",
                           stage_word(s->stage), len, MMD_FX_MAX_GLSL_BYTES);
    mmd_fx_text out = {0}, dx9 = {0};
    bool ok = apply_edits(src, e, &out) && mmd_fx_dx9_arithmetic(out.p, &dx9);
    if (ok)
        *glsl = mmd_arena_strdup(a, dx9.p);
    out.oom |= dx9.oom;
    free(out.p);
    free(dx9.p);
    if (!ok)
        return mmd_fx_fail(err, out.oom ? MMD_E_NOMEM : MMD_E_UNSUPPORTED, at,
                           "%s: a varying's declaration or main "
                           "not found in SPIRV-Cross's GLSL",
                           stage_word(s->stage));
    return *glsl ? MMD_OK : mmd_fx_fail(err, MMD_E_NOMEM, at, "out of memory");
}

static const mmd_fx_param *find_param(const mmd_fx_param *list, uint32_t n, const char *name)
{
    for (uint32_t i = 0; i < n; i++)
        if (!strcmp(list[i].name, name))
            return &list[i];
    return NULL;
}

/* The texture a sampler's sampler_state names, NULL when none. */
static const char *sampler_texture(const mmd_fx *fx, const char *sampler)
{
    const mmd_fx_param *p = find_param(fx->samplers, fx->sampler_count, sampler);
    for (uint32_t i = 0; p && i < p->state_count; i++)
        if (!strcasecmp(p->states[i].name, "Texture"))
            return p->states[i].value;
    return NULL;
}

static void reflect_uniforms(const stage_ir *s, const mmd_fx *fx, mmd_fx_program *p, uint32_t cap)
{
    const spvc_reflected_resource *list = NULL;
    size_t n = 0;
    spvc_resources_get_resource_list_for_type(s->res, SPVC_RESOURCE_TYPE_UNIFORM_BUFFER, &list, &n);
    for (size_t b = 0; b < n; b++) {
        spvc_type t = spvc_compiler_get_type_handle(s->comp, list[b].base_type_id);
        const char *var = spvc_compiler_get_name(s->comp, list[b].id);
        for (unsigned m = 0; m < spvc_type_get_num_member_types(t) && p->uniform_count < cap; m++) {
            mmd_fx_uniform *u = &p->uniforms[p->uniform_count++];
            const char *member = spvc_compiler_get_member_name(s->comp, list[b].base_type_id, m);
            size_t wp = strlen(MMD_FX_WRITTEN_PREFIX); /* core's copy of a global the code writes */
            const char *name = strncmp(member, MMD_FX_WRITTEN_PREFIX, wp) ? member : member + wp;
            const char *sem =
                spvc_compiler_get_member_decoration_string(s->comp, list[b].base_type_id, m, SpvDecorationUserSemantic);
            const mmd_fx_param *decl = find_param(fx->params, fx->param_count, name);
            if (!decl)
                decl = mmd_fx_fixed_param(name);
            char glsl[160];
            snprintf(glsl, sizeof glsl, "%s.%s", var, member);
            unsigned off = 0;
            size_t size = 0;
            spvc_compiler_type_struct_member_offset(s->comp, t, m, &off);
            spvc_compiler_get_declared_struct_member_size(s->comp, t, m, &size);
            u->name = mmd_arena_strdup(p->arena, name);
            u->glsl = mmd_arena_strdup(p->arena, glsl);
            u->type = decl ? decl->type : "";
            u->semantic = sem && sem[0] ? mmd_arena_strdup(p->arena, sem) : decl ? decl->semantic : NULL;
            u->offset = off;
            u->size = (uint32_t)size;
            u->stage = s->stage;
        }
    }
}

static void reflect_samplers(const stage_ir *s, const mmd_fx *fx, mmd_fx_program *p, uint32_t cap)
{
    const spvc_reflected_resource *list = NULL;
    size_t n = 0;
    spvc_resources_get_resource_list_for_type(s->res, SPVC_RESOURCE_TYPE_SAMPLED_IMAGE, &list, &n);
    for (size_t i = 0; i < n && p->sampler_count < cap; i++) {
        mmd_fx_sampler_use *u = &p->samplers[p->sampler_count++];
        u->name = mmd_arena_strdup(p->arena, spvc_compiler_get_name(s->comp, list[i].id));
        u->texture = sampler_texture(fx, list[i].name);
        SpvDim d = spvc_type_get_image_dimension(spvc_compiler_get_type_handle(s->comp, list[i].type_id));
        u->dim = d == SpvDim3D ? MMD_FX_SAMPLER_3D : d == SpvDimCube ? MMD_FX_SAMPLER_CUBE : MMD_FX_SAMPLER_2D;
        u->stage = s->stage;
    }
}

/* The interface as the program's inputs or outputs; *count of them (an
 * _INDEX input is gl_VertexID, no attribute: not listed). */
static mmd_fx_io *reflect_io(const iface *list, unsigned n, bool with_location, mmd_arena *a, uint32_t *count)
{
    mmd_fx_io *io = n ? mmd_arena_array(a, n, sizeof *io) : NULL;
    *count = 0;
    for (unsigned i = 0; io && i < n; i++) {
        if (list[i].fix == FIX_VERTEXID)
            continue;
        mmd_fx_io *o = &io[(*count)++];
        o->semantic = mmd_arena_strdup(a, list[i].sem);
        o->glsl = mmd_arena_strdup(a, list[i].name);
        o->location = with_location ? mmd_fx_vertex_location(list[i].sem) : list[i].sem[5] - '0';
    }
    return io;
}

static uint32_t resource_count(const stage_ir *s, spvc_resource_type type, bool members)
{
    const spvc_reflected_resource *list = NULL;
    size_t n = 0, total = 0;
    spvc_resources_get_resource_list_for_type(s->res, type, &list, &n);
    for (size_t i = 0; i < n; i++)
        total +=
            members ? spvc_type_get_num_member_types(spvc_compiler_get_type_handle(s->comp, list[i].base_type_id)) : 1;
    return (uint32_t)total;
}

static mmd_status reflect(const stage_ir st[2], const mmd_fx *fx, mmd_fx_program *p, mmd_fx_loc at, mmd_error *err)
{
    uint32_t nu = resource_count(&st[0], SPVC_RESOURCE_TYPE_UNIFORM_BUFFER, true) +
                  resource_count(&st[1], SPVC_RESOURCE_TYPE_UNIFORM_BUFFER, true);
    uint32_t ns = resource_count(&st[0], SPVC_RESOURCE_TYPE_SAMPLED_IMAGE, false) +
                  resource_count(&st[1], SPVC_RESOURCE_TYPE_SAMPLED_IMAGE, false);
    p->uniforms = nu ? mmd_arena_array(p->arena, nu, sizeof *p->uniforms) : NULL;
    p->samplers = ns ? mmd_arena_array(p->arena, ns, sizeof *p->samplers) : NULL;
    p->inputs = reflect_io(st[0].in, st[0].in_count, true, p->arena, &p->input_count);
    p->outputs = reflect_io(st[1].out, st[1].out_count, false, p->arena, &p->output_count);
    if ((nu && !p->uniforms) || (ns && !p->samplers) || (st[0].in_count && !p->inputs) ||
        (st[1].out_count && !p->outputs))
        return mmd_fx_fail(err, MMD_E_NOMEM, at, "out of memory");
    for (int i = 0; i < 2; i++) {
        reflect_uniforms(&st[i], fx, p, nu);
        reflect_samplers(&st[i], fx, p, ns);
    }
    return MMD_OK;
}

static mmd_status cross_stages(stage_ir st[2], const mmd_fx *fx, mmd_fx_loc at, mmd_fx_program *p, mmd_error *err)
{
    mmd_status s = name_vertex(&st[0], at, err);
    if (s == MMD_OK)
        s = name_fragment(&st[1], at, err);
    if (s != MMD_OK)
        return s;
    apply_names(&st[0]);
    apply_names(&st[1]);
    edits *e = calloc(2, sizeof *e);
    if (!e)
        return mmd_fx_fail(err, MMD_E_NOMEM, at, "out of memory");
    vertex_edits(&st[0], &st[1], &e[0]);
    fragment_edits(&st[1], &e[1]);
    s = emit(&st[0], &e[0], &p->vs, p->arena, at, err);
    if (s == MMD_OK)
        s = emit(&st[1], &e[1], &p->fs, p->arena, at, err);
    for (int i = 0; i < 2; i++) {
        free(e[i].decls.p);
        free(e[i].pre.p);
        free(e[i].post.p);
    }
    free(e);
    return s == MMD_OK ? reflect(st, fx, p, at, err) : s;
}

mmd_status mmd_fx_cross(const uint32_t *vs, size_t vs_words, const uint32_t *fs, size_t fs_words, const mmd_fx *fx,
                        mmd_fx_loc at, mmd_fx_program *p, mmd_error *err)
{
    stage_ir *st = calloc(2, sizeof *st);
    if (!st)
        return mmd_fx_fail(err, MMD_E_NOMEM, at, "out of memory");
    st[0].stage = MMD_FX_STAGE_VERTEX;
    st[1].stage = MMD_FX_STAGE_FRAGMENT;
    mmd_status s = stage_open(&st[0], vs, vs_words, at, err);
    if (s == MMD_OK)
        s = stage_open(&st[1], fs, fs_words, at, err);
    if (s == MMD_OK)
        s = cross_stages(st, fx, at, p, err);
    for (int i = 0; i < 2; i++)
        if (st[i].ctx)
            spvc_context_destroy(st[i].ctx);
    free(st);
    return s;
}
