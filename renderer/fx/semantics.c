/* renderer/fx/semantics.c - the table of MME semantics (semantics.h). */
#include "renderer/fx/semantics.h"

#include <ctype.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include <cglm/cglm.h>

typedef unsigned (*value_fn)(const mmd_fx_param *p, const mmd_fx_frame *f, float out[16]);

/* Annotation `string NAME = "..."`, NULL when none. */
static const char *annotation_text(const mmd_fx_param *p, const char *name)
{
    const mmd_fx_annotation *a = mmd_fx_annotation_find(p->annotations, p->annotation_count, name);
    return a && a->kind == MMD_FX_VALUE_STRING ? a->text : NULL;
}

/* Object = "Light" picks the light; anything else (and none) the camera. */
static bool of_light(const mmd_fx_param *p)
{
    const char *o = annotation_text(p, "Object");
    return o && !strcasecmp(o, "Light");
}

static unsigned put(float out[16], const float *v, unsigned n, float w)
{
    memcpy(out, v, n * sizeof *out);
    out[n] = w;
    return n + 1;
}

static unsigned v_viewport(const mmd_fx_param *p, const mmd_fx_frame *f, float out[16])
{
    (void)p;
    out[0] = (float)f->width;
    out[1] = (float)f->height;
    return 2;
}

static unsigned v_time(const mmd_fx_param *p, const mmd_fx_frame *f, float out[16])
{
    (void)p;
    out[0] = (float)f->time;
    return 1;
}

static unsigned v_elapsed(const mmd_fx_param *p, const mmd_fx_frame *f, float out[16])
{
    (void)p;
    out[0] = (float)f->elapsed;
    return 1;
}

static unsigned v_position(const mmd_fx_param *p, const mmd_fx_frame *f, float out[16])
{
    return put(out, of_light(p) ? f->light_position : f->camera_position, 3, 1.0f);
}

static unsigned v_direction(const mmd_fx_param *p, const mmd_fx_frame *f, float out[16])
{
    return put(out, of_light(p) ? f->light_direction : f->camera_direction, 3, 0.0f);
}

/* DIFFUSE, AMBIENT, SPECULAR: the light's with Object = "Light", else the
 * drawn material's (Object = "Geometry", and when none is said). A post
 * effect has no material (0) and each of the light's three is its colour.
 * For an object MME gives a model what nanoem's emapp (Effect.cc,
 * setLightParameters and setMaterialParameters) gives: MMD's lighting,
 * ambient + diffuse x light, spelled through the light's AMBIENT (its colour)
 * and DIFFUSE (0) and the material's AMBIENT (its diffuse colour) and
 * EMISSIVE (its ambient colour). */
static unsigned v_light_or_material(const mmd_fx_param *p, const mmd_fx_frame *f, float out[16], int which)
{
    const mmd_fx_material *m = f->material;
    if (of_light(p)) {
        if (m && which == 0) /* DIFFUSE of the light: 0 for a model */
            return put(out, (const float[3]){0, 0, 0}, 3, 0.0f);
        return put(out, f->light_color, 3, 1.0f);
    }
    if (!m)
        return 0;
    if (which == 0)
        return put(out, m->diffuse, 3, m->diffuse[3]);
    return put(out, which == 1 ? m->diffuse : m->specular, 3, 1.0f);
}

static unsigned v_diffuse(const mmd_fx_param *p, const mmd_fx_frame *f, float out[16])
{
    return v_light_or_material(p, f, out, 0);
}

static unsigned v_ambient(const mmd_fx_param *p, const mmd_fx_frame *f, float out[16])
{
    return v_light_or_material(p, f, out, 1);
}

static unsigned v_specular(const mmd_fx_param *p, const mmd_fx_frame *f, float out[16])
{
    return v_light_or_material(p, f, out, 2);
}

/* The material's values without a light's form (0 without a material). */
static unsigned v_material(const mmd_fx_param *p, const mmd_fx_frame *f, float out[16])
{
    static const struct { const char *semantic; size_t off; unsigned n; } k_rows[] = {
        {"EMISSIVE", offsetof(mmd_fx_material, ambient), 3},
        {"SPECULARPOWER", offsetof(mmd_fx_material, power), 1},
        {"TOONCOLOR", offsetof(mmd_fx_material, toon), 3},
        {"EDGECOLOR", offsetof(mmd_fx_material, edge), 4},
        {"GROUNDSHADOWCOLOR", offsetof(mmd_fx_material, ground_shadow), 4},
        {"ADDINGTEXTURE", offsetof(mmd_fx_material, texture_add), 4},
        {"MULTIPLYINGTEXTURE", offsetof(mmd_fx_material, texture_mul), 4},
        {"ADDINGSPHERETEXTURE", offsetof(mmd_fx_material, sphere_add), 4},
        {"MULTIPLYINGSPHERETEXTURE", offsetof(mmd_fx_material, sphere_mul), 4},
    };
    if (!f->material)
        return 0;
    for (size_t i = 0; i < sizeof k_rows / sizeof k_rows[0]; i++) {
        if (strcasecmp(p->semantic, k_rows[i].semantic))
            continue;
        const float *v = (const float *)(const void *)((const char *)f->material + k_rows[i].off);
        if (k_rows[i].n == 1) { /* nanoem: a power of 0 is 1 (pow(x, 0) reads as no highlight) */
            out[0] = v[0] == 0.0f ? 1.0f : v[0];
            return 1;
        }
        if (k_rows[i].n == 3)
            return put(out, v, 3, 1.0f);
        memcpy(out, v, 4 * sizeof *out);
        return 4;
    }
    return 0;
}

/* An accessory's item (MME's names, case-insensitive); 0 when unknown. */
static unsigned control_item(const mmd_fx_control *c, const char *item, float out[16])
{
    static const struct { const char *name; int what, k; } k_items[] = {
        {"X", 0, 0}, {"Y", 0, 1}, {"Z", 0, 2}, {"XYZ", 0, 3}, {"Rx", 1, 0}, {"Ry", 1, 1}, {"Rz", 1, 2},
        {"Rxyz", 1, 3}, {"Si", 2, 0}, {"Tr", 3, 0},
    };
    for (size_t i = 0; i < sizeof k_items / sizeof k_items[0]; i++) {
        if (strcasecmp(item, k_items[i].name))
            continue;
        const float *v = k_items[i].what == 0 ? c->position : c->rotation;
        if (k_items[i].what >= 2) {
            out[0] = k_items[i].what == 2 ? c->si : c->tr;
            return 1;
        }
        if (k_items[i].k < 3) {
            out[0] = v[k_items[i].k];
            return 1;
        }
        return put(out, v, 3, 0.0f);
    }
    return 0;
}

static unsigned v_control(const mmd_fx_param *p, const mmd_fx_frame *f, float out[16])
{
    const char *name = annotation_text(p, "name"), *item = annotation_text(p, "item");
    if (!name)
        return 0;
    bool self = !strcasecmp(name, "(self)") || (f->self_name && !strcasecmp(name, f->self_name));
    if (self && f->self_model) /* a model's object effect: "(self)" is the model (nanoem's rule) */
        name = f->self_model, self = false;
    if (!self)
        return f->item ? f->item(f->item_user, name, item, p->type, out) : 0;
    const mmd_fx_control *c = &f->self;
    if (!c->found)
        return 0;
    if (item)
        return control_item(c, item, out);
    if (!strcasecmp(p->type, "bool")) {
        out[0] = c->visible ? 1.0f : 0.0f;
        return 1;
    }
    if (!strcasecmp(p->type, "float")) { /* MME: an object's scale */
        out[0] = c->si;
        return 1;
    }
    return put(out, c->position, 3, 1.0f);
}

/* ------------------------------------------------------------------ matrices */

static void mat_mul(const float *a, const float *b, float *out) /* row vectors: a then b */
{
    float r[16];
    for (int i = 0; i < 4; i++)
        for (int j = 0; j < 4; j++)
            r[i * 4 + j] = a[i * 4] * b[j] + a[i * 4 + 1] * b[4 + j] + a[i * 4 + 2] * b[8 + j] + a[i * 4 + 3] * b[12 + j];
    memcpy(out, r, sizeof r);
}

/* WORLD/VIEW/PROJECTION products, then INVERSE and/or TRANSPOSE (MME's
 * names). The world is the drawn object's (a post effect's and a model's:
 * the identity); Object = "Light" takes the self-shadow map's view-projection
 * when the frame has it (VIEW holds it whole, PROJECTION is the identity:
 * every product that has both is the light's), else the camera's. */
static unsigned v_matrix(const mmd_fx_param *p, const mmd_fx_frame *f, float out[16])
{
    static const struct { const char *name; bool world, view, proj; } k_bases[] = {
        {"WORLDVIEWPROJECTION", true, true, true}, {"VIEWPROJECTION", false, true, true},
        {"WORLDVIEW", true, true, false}, {"PROJECTION", false, false, true}, {"VIEW", false, true, false},
        {"WORLD", true, false, false},
    };
    bool light = f->light_matrices && of_light(p);
    const float *view = light ? f->light_view_projection : f->view;
    const float *proj = light ? GLM_MAT4_IDENTITY[0] : f->projection;
    const char *s = p->semantic;
    for (size_t i = 0; i < sizeof k_bases / sizeof k_bases[0]; i++) {
        size_t n = strlen(k_bases[i].name);
        if (strncasecmp(s, k_bases[i].name, n))
            continue;
        const char *rest = s + n;
        bool inv = !strncasecmp(rest, "INVERSE", 7);
        if (inv)
            rest += 7;
        bool tr = !strcasecmp(rest, "TRANSPOSE");
        if (*rest && !tr)
            continue;
        CGLM_ALIGN_MAT mat4 m = GLM_MAT4_IDENTITY_INIT;
        float *mf = m[0];
        bool have = k_bases[i].world && f->world; /* no world: the identity, no product */
        if (have)
            memcpy(mf, f->world, 16 * sizeof *mf);
        if (k_bases[i].view && have)
            mat_mul(mf, view, mf);
        else if (k_bases[i].view)
            memcpy(mf, view, 16 * sizeof *mf);
        have |= k_bases[i].view;
        if (k_bases[i].proj)
            mat_mul(have ? mf : (float *)GLM_MAT4_IDENTITY[0], proj, mf);
        if (inv)
            glm_mat4_inv(m, m);
        if (tr)
            glm_mat4_transpose(m);
        memcpy(out, mf, 16 * sizeof *out);
        return 16;
    }
    return 0;
}

/* The table: one row per semantic (docs/effects.md lists them). A prefix row
 * matches every semantic starting so (the matrix family). */
static const struct semantic_row {
    const char *semantic;
    bool prefix;
    value_fn fn;
} k_semantics[] = {
    {"VIEWPORTPIXELSIZE", false, v_viewport},
    {"TIME", false, v_time},
    {"ELAPSEDTIME", false, v_elapsed},
    {"POSITION", false, v_position},
    {"DIRECTION", false, v_direction},
    {"DIFFUSE", false, v_diffuse},
    {"AMBIENT", false, v_ambient},
    {"SPECULAR", false, v_specular},
    {"SPECULARPOWER", false, v_material},
    {"EMISSIVE", false, v_material},
    {"TOONCOLOR", false, v_material},
    {"EDGECOLOR", false, v_material},
    {"GROUNDSHADOWCOLOR", false, v_material},
    {"ADDINGTEXTURE", false, v_material},
    {"MULTIPLYINGTEXTURE", false, v_material},
    {"ADDINGSPHERETEXTURE", false, v_material},
    {"MULTIPLYINGSPHERETEXTURE", false, v_material},
    {"CONTROLOBJECT", false, v_control},
    {"WORLD", true, v_matrix},
    {"VIEW", true, v_matrix},
    {"PROJECTION", true, v_matrix},
};

static const struct semantic_row *find_row(const char *semantic)
{
    for (size_t i = 0; i < sizeof k_semantics / sizeof k_semantics[0]; i++) {
        const struct semantic_row *r = &k_semantics[i];
        if (r->prefix ? !strncasecmp(semantic, r->semantic, strlen(r->semantic)) : !strcasecmp(semantic, r->semantic))
            return r;
    }
    return NULL;
}

/* The z mirror undone (m -> M m M, M = diag(1, 1, -1, 1)); the projection's
 * depth also taken from GL's -1..1 to D3D's 0..1. Column-major GL is the
 * row-major float order of the row-vector matrix. */
void mmd_fx_frame_camera(mmd_fx_frame *f, const float gl_view[16], const float gl_proj[16])
{
    float *view = f->view, *proj = f->projection;
    memcpy(view, gl_view, sizeof f->view);
    memcpy(proj, gl_proj, sizeof f->projection);
    for (int c = 0; c < 4; c++)
        for (int r = 0; r < 4; r++) {
            float sv = (r == 2) != (c == 2) ? -1.0f : 1.0f;
            view[c * 4 + r] *= sv;
            proj[c * 4 + r] *= c == 2 ? -1.0f : 1.0f; /* P M: the eye's z mirrored */
        }
    for (int c = 0; c < 4; c++) /* z_d3d = (z + w) / 2 */
        proj[c * 4 + 2] = 0.5f * (proj[c * 4 + 2] + proj[c * 4 + 3]);
}

bool mmd_fx_semantic_known(const char *semantic)
{
    return semantic && find_row(semantic);
}

unsigned mmd_fx_init_numbers(const char *init, float *out, unsigned max)
{
    unsigned n = 0;
    const char *s = init;
    while (s && *s && n < max) {
        if (isalpha((unsigned char)*s) || *s == '_') { /* a name: true/false, or a type to skip */
            const char *b = s;
            while (isalnum((unsigned char)*s) || *s == '_')
                s++;
            if ((size_t)(s - b) == 4 && !strncmp(b, "true", 4))
                out[n++] = 1.0f;
            else if ((size_t)(s - b) == 5 && !strncmp(b, "false", 5))
                out[n++] = 0.0f;
            continue;
        }
        if (isdigit((unsigned char)*s) || ((*s == '-' || *s == '+' || *s == '.') && s[1] && strchr("0123456789.", s[1]))) {
            char *end;
            double v = strtod(s, &end);
            if (end == s) {
                s++;
                continue;
            }
            out[n++] = (float)v;
            s = end;
            while (*s == 'f' || *s == 'F' || *s == 'h' || *s == 'H')
                s++;
            continue;
        }
        s++;
    }
    return n;
}

/* The globals MME sets by name for an object (no semantic; nanoem's emapp
 * Effect.cc writes the same names): bools, and two ints. */
static const struct material_global {
    const char *name;
    size_t off;
    bool is_int;
} k_globals[] = {
    {"use_texture", offsetof(mmd_fx_material, use_texture), false},       /* it has a texture */
    {"use_spheremap", offsetof(mmd_fx_material, use_spheremap), false},   /* a sphere map (any mode) */
    {"use_subtexture", offsetof(mmd_fx_material, use_subtexture), false}, /* the sphere is a sub-texture (PMX mode 3) */
    {"use_toon", offsetof(mmd_fx_material, use_toon), false},             /* a toon texture */
    {"spadd", offsetof(mmd_fx_material, spadd), false},                   /* the sphere map adds (mode 2) */
    {"transp", offsetof(mmd_fx_material, transp), false},                 /* the translucent ground shadow */
    {"opadd", offsetof(mmd_fx_material, opadd), false},                   /* the object is add-blended */
    {"parthf", offsetof(mmd_fx_material, parthf), false},                 /* self-shadow mode 2 */
    {"VertexCount", offsetof(mmd_fx_material, vertex_count), true},
    {"SubsetCount", offsetof(mmd_fx_material, subset_count), true},
};

static unsigned global_value(const mmd_fx_param *p, const mmd_fx_material *m, float out[16])
{
    for (size_t i = 0; m && i < sizeof k_globals / sizeof k_globals[0]; i++) {
        if (strcmp(p->name, k_globals[i].name))
            continue;
        const char *at = (const char *)m + k_globals[i].off;
        if (k_globals[i].is_int) {
            int v;
            memcpy(&v, at, sizeof v);
            out[0] = (float)v;
        } else {
            bool v;
            memcpy(&v, at, sizeof v);
            out[0] = v ? 1.0f : 0.0f;
        }
        return 1;
    }
    return 0;
}

unsigned mmd_fx_param_value(const mmd_fx_param *p, const mmd_fx_frame *f, float out[16])
{
    memset(out, 0, 16 * sizeof *out);
    unsigned n;
    if (!p->semantic && f->material && (n = global_value(p, f->material, out)) > 0)
        return n;
    if (!p->semantic)
        return p->init ? mmd_fx_init_numbers(p->init, out, 16) : 0;
    const struct semantic_row *r = find_row(p->semantic);
    if (r)
        return r->fn(p, f, out);
    return p->init ? mmd_fx_init_numbers(p->init, out, 16) : 0; /* unknown: its initializer, as MME */
}
