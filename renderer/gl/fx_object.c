/* renderer/gl/fx_object.c - object effects through the pass hook (fx_object.h). */
#include "renderer/gl/fx_object.h"

#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "renderer/fx/select.h"
#include "renderer/gl/fx_states.h"
#include "renderer/gl/toon.h"

/* An effect a slot or one of its materials draws with. */
typedef struct fx_use {
    mmd_fx_effect *effect; /* NULL: the built-in passes */
    bool owned;            /* made here (others share it) */
    const mmd_fx *fx;
} fx_use;

typedef struct material_use {
    uint32_t material;
    fx_use use; /* fx NULL: "none", the built-in passes for this material */
} material_use;

typedef struct slot_effect {
    fx_use main;                     /* the object's effect */
    material_use *materials;         /* per-material overrides, in the order added */
    size_t material_count;
    const mmd_model *model;          /* a model's slot */
    const mmd_accessory_mesh *mesh;  /* an accessory's slot */
    const char *name;                /* a model's file name: CONTROLOBJECT "(self)" */
    bool add_blend;
} slot_effect;

typedef struct slot_list {
    slot_effect *slots;
    size_t count;
} slot_list;

struct mmd_fx_objects {
    mmd_fx_objects_options opt;
    slot_list lists[2]; /* models, accessories */
    mmd_fx_frame frame;
    mmd_error failure; /* the first draw that failed since the last status */
};

mmd_status mmd_fx_objects_create(const mmd_fx_objects_options *opt, mmd_fx_objects **out, mmd_error *err)
{
    mmd_fx_objects *o = calloc(1, sizeof *o);
    if (!o)
        return mmd_fail(err, MMD_E_NOMEM, "out of memory");
    if (opt)
        o->opt = *opt;
    *out = o;
    return MMD_OK;
}

void mmd_fx_objects_free(mmd_fx_objects *o)
{
    if (!o)
        return;
    for (int l = 0; l < 2; l++) {
        for (size_t i = 0; i < o->lists[l].count; i++) {
            slot_effect *se = &o->lists[l].slots[i];
            if (se->main.owned)
                mmd_fx_effect_free(se->main.effect);
            for (size_t m = 0; m < se->material_count; m++)
                if (se->materials[m].use.owned)
                    mmd_fx_effect_free(se->materials[m].use.effect);
            free(se->materials);
        }
        free(o->lists[l].slots);
    }
    free(o);
}

/* Draw=Geometry: the drawable the hook is drawing. */
static void draw_geometry(void *user, const void *geometry, GLuint program)
{
    (void)program;
    mmd_renderer_draw_geometry(user, geometry);
}

/* The slot's entry in list l, made (zeroed) when new; NULL: out of memory. */
static slot_effect *slot_at(mmd_fx_objects *o, int l, size_t slot)
{
    slot_list *sl = &o->lists[l];
    if (slot >= sl->count) {
        slot_effect *s = realloc(sl->slots, (slot + 1) * sizeof *s);
        if (!s)
            return NULL;
        memset(s + sl->count, 0, (slot + 1 - sl->count) * sizeof *s);
        sl->slots = s;
        sl->count = slot + 1;
    }
    return &sl->slots[slot];
}

/* An instance of fx already made (for any slot or material), NULL when none. */
static mmd_fx_effect *shared(const mmd_fx_objects *o, const mmd_fx *fx)
{
    for (int l = 0; l < 2; l++)
        for (size_t i = 0; i < o->lists[l].count; i++) {
            const slot_effect *s = &o->lists[l].slots[i];
            if (s->main.effect && s->main.fx == fx)
                return s->main.effect;
            for (size_t m = 0; m < s->material_count; m++)
                if (s->materials[m].use.effect && s->materials[m].use.fx == fx)
                    return s->materials[m].use.effect;
        }
    return NULL;
}

/* u's instance of u->fx (set before), shared or made. */
static mmd_status add(mmd_fx_objects *o, mmd_renderer *r, fx_use *u, const mmd_fx_effect_config *config,
                      mmd_error *err)
{
    if (!u->fx || (u->effect = shared(o, u->fx)))
        return MMD_OK;
    mmd_fx_effect_config c = *config;
    c.object_kinds = 1u << MMD_FX_PASS_ZPLOT | 1u << MMD_FX_PASS_OBJECT | 1u << MMD_FX_PASS_OBJECT_SS |
                     1u << MMD_FX_PASS_EDGE | 1u << MMD_FX_PASS_SHADOW;
    c.geometry = draw_geometry;
    c.geometry_user = r;
    mmd_status s = mmd_fx_effect_create(u->fx, &c, &u->effect, err);
    u->owned = s == MMD_OK;
    return s;
}

mmd_status mmd_fx_objects_add(mmd_fx_objects *o, mmd_renderer *r, size_t slot, const mmd_model *m, bool add_blend,
                              const char *name, const mmd_fx *fx, const mmd_fx_effect_config *config,
                              mmd_error *err)
{
    slot_effect *se = slot_at(o, 0, slot);
    if (!se)
        return mmd_fail(err, MMD_E_NOMEM, "out of memory");
    *se = (slot_effect){.main = {.fx = fx}, .model = m, .name = name, .add_blend = add_blend};
    return add(o, r, &se->main, config, err);
}

mmd_status mmd_fx_objects_add_accessory(mmd_fx_objects *o, mmd_renderer *r, size_t slot,
                                        const mmd_accessory_mesh *mesh, bool add_blend, const mmd_fx *fx,
                                        const mmd_fx_effect_config *config, mmd_error *err)
{
    slot_effect *se = slot_at(o, 1, slot);
    if (!se)
        return mmd_fail(err, MMD_E_NOMEM, "out of memory");
    *se = (slot_effect){.main = {.fx = fx}, .mesh = mesh, .add_blend = add_blend};
    return add(o, r, &se->main, config, err);
}

mmd_status mmd_fx_objects_add_material(mmd_fx_objects *o, mmd_renderer *r, bool accessory, size_t slot,
                                       uint32_t material, const mmd_fx *fx, const mmd_fx_effect_config *config,
                                       mmd_error *err)
{
    slot_list *sl = &o->lists[accessory];
    if (slot >= sl->count || (!sl->slots[slot].model && !sl->slots[slot].mesh))
        return mmd_fail(err, MMD_E_USAGE, "object slot %zu was not added", slot);
    slot_effect *se = &sl->slots[slot];
    material_use *mu = realloc(se->materials, (se->material_count + 1) * sizeof *mu);
    if (!mu)
        return mmd_fail(err, MMD_E_NOMEM, "out of memory");
    se->materials = mu;
    mu += se->material_count++;
    *mu = (material_use){.material = material, .use = {.fx = fx}};
    return add(o, r, &mu->use, config, err);
}

bool mmd_fx_objects_any(const mmd_fx_objects *o)
{
    for (int l = 0; o && l < 2; l++)
        for (size_t i = 0; i < o->lists[l].count; i++) {
            const slot_effect *s = &o->lists[l].slots[i];
            bool any = s->main.effect != NULL;
            for (size_t m = 0; m < s->material_count && !any; m++)
                any = s->materials[m].use.effect != NULL;
            if (any)
                return true;
        }
    return false;
}

void mmd_fx_objects_frame(mmd_fx_objects *o, const mmd_fx_frame *f)
{
    o->frame = *f;
}

mmd_status mmd_fx_objects_status(mmd_fx_objects *o, mmd_error *err)
{
    mmd_status s = o->failure.status;
    if (s != MMD_OK)
        mmd_fail(err, s, "%s", o->failure.msg);
    memset(&o->failure, 0, sizeof o->failure);
    return s;
}

/* ------------------------------------------------------------- values */

/* TOONCOLOR: the shade end (bottom row) of a shared toon; white otherwise
 * (a model's own toon file is not read back). */
static void toon_colour(const mmd_model *m, const mmd_material *mt, float out[3])
{
    int index = 0;
    if (mt->toon_shared && mt->toon >= 0)
        index = mt->toon + 1;
    else if (mt->toon >= 0 && (uint32_t)mt->toon < m->texture_count)
        index = mmd_toon_shared_index(m->textures[mt->toon]);
    uint8_t px[4];
    mmd_toon_row(index, MMD_TOON_SIZE - 1, px);
    for (int i = 0; i < 3; i++)
        out[i] = (float)px[i] / 255.0f;
}

/* The values of a drawable's material (a model's or an accessory's subset). */
static void material_values(const mmd_fx_objects *o, const slot_effect *se, const mmd_drawable *d,
                            const mmd_material_state *s, const mmd_pass_frame *f, mmd_fx_material *out)
{
    memset(out, 0, sizeof *out);
    memcpy(out->diffuse, s->diffuse, sizeof out->diffuse);
    memcpy(out->ambient, s->ambient, sizeof out->ambient);
    memcpy(out->specular, s->specular, sizeof out->specular);
    out->power = s->specular_power;
    memcpy(out->edge, s->edge_color, sizeof out->edge);
    memcpy(out->texture_add, s->texture_add, sizeof out->texture_add);
    memcpy(out->texture_mul, s->texture_mul, sizeof out->texture_mul);
    memcpy(out->sphere_add, s->sphere_add, sizeof out->sphere_add);
    memcpy(out->sphere_mul, s->sphere_mul, sizeof out->sphere_mul);
    float k = o->opt.ground_shadow_brightness;
    for (int i = 0; i < 3; i++) {
        float v = f->light_color[i] * k;
        out->ground_shadow[i] = v < 0 ? 0 : v > 1 ? 1 : v;
    }
    out->ground_shadow[3] = o->opt.ground_shadow_translucent ? 0.5f : 1.0f;
    out->transp = o->opt.ground_shadow_translucent;
    out->opadd = se->add_blend;
    out->parthf = f->shadow_mode == 2;
    out->use_texture = d->use.texture;
    out->use_toon = d->use.toon;
    int sphere = MMD_SPHERE_NONE;
    if (se->mesh) { /* nanoem: an accessory's specular x 0.1, no toon (white) */
        const mmd_accessory_material *am = &se->mesh->materials[d->material];
        for (int i = 0; i < 3; i++) {
            out->specular[i] *= 0.1f;
            out->toon[i] = 1.0f;
        }
        sphere = d->use.sphere ? am->sphere_mode : MMD_SPHERE_NONE;
        out->vertex_count = (int)se->mesh->vertex_count;
        out->subset_count = (int)se->mesh->material_count;
    } else {
        const mmd_material *mt = &se->model->materials[d->material];
        toon_colour(se->model, mt, out->toon);
        sphere = d->use.sphere ? mt->sphere_mode : MMD_SPHERE_NONE;
        out->vertex_count = (int)se->model->vertex_count;
        out->subset_count = (int)se->model->material_count;
    }
    out->use_spheremap = sphere != MMD_SPHERE_NONE;
    out->use_subtexture = sphere == MMD_SPHERE_SUB_TEXTURE;
    out->spadd = sphere == MMD_SPHERE_ADD;
}

/* The self-shadow map's view-projection (LH world -> GL clip) as D3D's:
 * column-major GL is D3D's row-major order; depth from -1..1 to 0..1. */
static void light_matrix(const float *gl_vp, float out[16])
{
    memcpy(out, gl_vp, 16 * sizeof *out);
    for (int c = 0; c < 4; c++)
        out[c * 4 + 2] = 0.5f * (out[c * 4 + 2] + out[c * 4 + 3]);
}

/* The light matrix of a zplot draw: the translator's vertex epilogue turns
 * clip (x, y) into (x, -y) + w / size (docs/effects.md "DX9 versus GL
 * pixels"); drawn into the renderer's map, whose rows run up as GL's, this
 * matrix undoes both, so the effect's caster lands on the very texels the
 * built-in caster would (and D3D's winding reads clockwise: rows_up). */
static void zplot_matrix(float m[16], int size)
{
    float k = 1.0f / (float)size;
    for (int c = 0; c < 4; c++) {
        m[c * 4 + 0] -= k * m[c * 4 + 3];
        m[c * 4 + 1] = k * m[c * 4 + 3] - m[c * 4 + 1];
    }
}

/* ------------------------------------------------------------ GL state */

/* What an effect's draw may change that the renderer relies on. */
typedef struct gl_saved {
    GLint blend, depth_test, cull, depth_func, depth_mask, front_face, cull_mode, program, vao, active;
    GLint blend_src_rgb, blend_dst_rgb, blend_src_a, blend_dst_a, colour_mask[4];
    GLint textures[32], samplers[32];
    uint32_t units;
} gl_saved;

static void save_state(const mmd_gl *gl, uint32_t units, gl_saved *s)
{
    static const struct { GLenum name; size_t off; } k_ints[] = {
        {GL_BLEND, offsetof(gl_saved, blend)},           {GL_DEPTH_TEST, offsetof(gl_saved, depth_test)},
        {GL_CULL_FACE, offsetof(gl_saved, cull)},        {GL_DEPTH_FUNC, offsetof(gl_saved, depth_func)},
        {GL_DEPTH_WRITEMASK, offsetof(gl_saved, depth_mask)}, {GL_FRONT_FACE, offsetof(gl_saved, front_face)},
        {GL_CULL_FACE_MODE, offsetof(gl_saved, cull_mode)}, {GL_CURRENT_PROGRAM, offsetof(gl_saved, program)},
        {GL_VERTEX_ARRAY_BINDING, offsetof(gl_saved, vao)}, {GL_ACTIVE_TEXTURE, offsetof(gl_saved, active)},
        {GL_BLEND_SRC_RGB, offsetof(gl_saved, blend_src_rgb)}, {GL_BLEND_DST_RGB, offsetof(gl_saved, blend_dst_rgb)},
        {GL_BLEND_SRC_ALPHA, offsetof(gl_saved, blend_src_a)}, {GL_BLEND_DST_ALPHA, offsetof(gl_saved, blend_dst_a)},
        {GL_COLOR_WRITEMASK, offsetof(gl_saved, colour_mask)},
    };
    for (size_t i = 0; i < sizeof k_ints / sizeof k_ints[0]; i++)
        gl->GetIntegerv(k_ints[i].name, (GLint *)(void *)((char *)s + k_ints[i].off));
    s->units = units < 32 ? units : 32;
    for (uint32_t u = 0; u < s->units; u++) {
        gl->ActiveTexture(GL_TEXTURE0 + u);
        gl->GetIntegerv(GL_TEXTURE_BINDING_2D, &s->textures[u]);
        gl->GetIntegerv(GL_SAMPLER_BINDING, &s->samplers[u]);
    }
}

static void restore_state(const mmd_gl *gl, const gl_saved *s)
{
    mmd_fx_states_reset(gl); /* blend equation, stencil: GL's defaults the renderer assumes */
    for (uint32_t u = 0; u < s->units; u++) {
        gl->ActiveTexture(GL_TEXTURE0 + u);
        gl->BindTexture(GL_TEXTURE_2D, (GLuint)s->textures[u]);
        gl->BindSampler(u, (GLuint)s->samplers[u]);
    }
    gl->ActiveTexture((GLenum)s->active);
    (s->blend ? gl->Enable : gl->Disable)(GL_BLEND);
    (s->depth_test ? gl->Enable : gl->Disable)(GL_DEPTH_TEST);
    (s->cull ? gl->Enable : gl->Disable)(GL_CULL_FACE);
    gl->BlendFuncSeparate((GLenum)s->blend_src_rgb, (GLenum)s->blend_dst_rgb, (GLenum)s->blend_src_a,
                          (GLenum)s->blend_dst_a);
    gl->DepthFunc((GLenum)s->depth_func);
    gl->DepthMask((GLboolean)s->depth_mask);
    gl->FrontFace((GLenum)s->front_face);
    gl->CullFace((GLenum)s->cull_mode);
    gl->ColorMask((GLboolean)s->colour_mask[0], (GLboolean)s->colour_mask[1], (GLboolean)s->colour_mask[2],
                  (GLboolean)s->colour_mask[3]);
    gl->UseProgram((GLuint)s->program);
    gl->BindVertexArray((GLuint)s->vao);
    gl->ClipControl(GL_LOWER_LEFT, GL_NEGATIVE_ONE_TO_ONE);
}

/* ----------------------------------------------------------------- hook */

bool mmd_fx_objects_hook(void *user, struct mmd_renderer *r, const mmd_drawable *d, mmd_fx_pass_kind kind,
                         const mmd_material_state *material, const mmd_pass_frame *f)
{
    mmd_fx_objects *o = user;
    const slot_list *sl = &o->lists[d->accessory];
    const slot_effect *se = d->model_slot < sl->count ? &sl->slots[d->model_slot] : NULL;
    if (!se || (!se->model && !se->mesh) ||
        d->material >= (se->mesh ? se->mesh->material_count : se->model->material_count))
        return false;
    const fx_use *u = &se->main;
    for (size_t m = se->material_count; m-- > 0;) /* the last entry for the material wins */
        if (se->materials[m].material == d->material) {
            u = &se->materials[m].use;
            break;
        }
    if (!u->effect)
        return false; /* none, or it did not link: the built-in passes */
    mmd_fx_select_query q = {kind, d->use, d->material, se->mesh ? se->mesh->material_count : se->model->material_count,
                             material->diffuse[3] <= 0.0f};
    int t = mmd_fx_select_technique(u->fx, &q);
    if (t == MMD_FX_SELECT_NOTHING)
        return true; /* a hidden material, or past the first of a ScriptExternal effect: nothing drawn */
    if (t < 0)
        return false; /* no technique for it: the built-in pass */
    if (u->fx->techniques[t].pass_count == 0)
        return true; /* MME's idiom: the effect draws nothing there */
    if (!mmd_fx_effect_has_technique(u->effect, t))
        return false;
    mmd_fx_material mv;
    material_values(o, se, d, material, f, &mv);
    mmd_fx_frame fr = o->frame;
    fr.material = &mv;
    fr.world = f->object_world;
    fr.self_model = se->name;
    fr.light_matrices = f->shadow_mode != 0;
    bool zplot = kind == MMD_FX_PASS_ZPLOT;
    if (fr.light_matrices)
        light_matrix(f->shadow_vp, fr.light_view_projection);
    if (zplot && fr.light_matrices)
        zplot_matrix(fr.light_view_projection, f->width);
    /* an accessory: D3D's default culling, as the built-in accessory pass (back faces) */
    bool double_sided = !se->mesh && (se->model->materials[d->material].flags & MMD_MAT_DOUBLE_SIDED);
    mmd_fx_object_draw draw = {.technique = t, .double_sided = double_sided, .edge = kind == MMD_FX_PASS_EDGE,
                               .rows_up = zplot, .ground_shadow = kind == MMD_FX_PASS_SHADOW,
                               .translucent = o->opt.ground_shadow_translucent, .geometry = d};
    mmd_renderer_material_textures(r, d, draw.textures);
    /* MME's s0: the map (white while a zplot draws into it, or the self-shadow is off), copied
     * only for an effect that reads it */
    if (mmd_fx_effect_reads_shadow_map(u->effect))
        draw.shadow_map = mmd_renderer_shadow_map(r, zplot ? 0 : f->shadow_mode);
    const mmd_gl *gl = mmd_renderer_api(r);
    gl_saved saved;
    save_state(gl, mmd_fx_effect_units(u->effect), &saved);
    /* D3D's depth (0..w) kept as the window depth, as the built-in passes' GL depth lands there */
    gl->ClipControl(GL_LOWER_LEFT, GL_ZERO_TO_ONE);
    mmd_error why = {0};
    mmd_status s = mmd_fx_effect_object(u->effect, &draw, &fr, &why);
    restore_state(gl, &saved);
    if (s != MMD_OK && o->failure.status == MMD_OK)
        mmd_fail(&o->failure, s, "effect %s: %s", u->fx->techniques[t].loc.file, why.msg);
    return true;
}
