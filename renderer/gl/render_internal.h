/* renderer/gl/render_internal.h - the renderer's state, shared by the files of
 * renderer/gl/ and by nothing outside it (not public).
 *
 *   render.c            lifecycle: options, create/free, models, the frame (mmd_renderer_draw)
 *   pool.c              the fixed worker pool (mmd_renderer_parallel)
 *   textures.c          texture upload, GL names of the texlib's textures (image/texlib.h)
 *   targets.c           colour/MSAA/shadow framebuffers, clear at frame start, resolve + readback
 *   pass_shadow_map.c   self-shadow light camera and depth pass
 *   pass_colour.c       MMD's material pass (toon, sphere, texture, specular, self-shadow)
 *   pass_edge.c         inverted-hull edges
 *   pass_ground_shadow.c the projected ground shadow
 *   pass_background.c   the background image, drawn first
 *   accessory.c         accessories: upload, placement, worlds
 *   pass_accessory.c    MMD's accessory colour pass, accessory casters, the live screen
 *   render_anim.c       skinning mmd_anim instances across the pool, then the frame
 */
#ifndef MMD_RENDERER_RENDER_INTERNAL_H
#define MMD_RENDERER_RENDER_INTERNAL_H

#include <cglm/cglm.h>
#include <math.h>
#include <pthread.h>
#include <string.h>

#include "core/luminous.h"
#include "renderer/gl/context.h"
#include "renderer/gl/pass_post.h"
#include "renderer/base/filemap.h"
#include "renderer/gl/render.h"
#include "renderer/image/decode.h"
#include "renderer/image/texlib.h"

#define MAX_THREADS 16

/* Program variants: one row per GLSL #define a variant sets, (name, bits),
 * packed into the variant key from bit 0 in row order. The key's layout
 * (CV_x / AV_x: the shift of field x), the number of variants, the encoding
 * (CV(x, v), AV(x, v)) and the #define text (mmd_gl_variant_defines with the
 * rows MMD_X_VARIANT_ROW_CV / _AV make) all come from these lists. */
#define MMD_COLOUR_VARIANT(X) \
    X(HAS_TEX, 1) X(SPHERE_MODE, 2) X(SELF_SHADOW, 1) X(VERTEX_COLOR, 1) X(SPECULAR, 1) X(TINT, 1)
#define MMD_ACC_VARIANT(X) X(HAS_TEX, 1) X(SPHERE_MODE, 2) X(SELF_SHADOW, 1) X(SPECULAR, 1)
#define MMD_X_VARIANT_SHIFT_CV(name, bits) CV_##name, CV_##name##_LAST = CV_##name + (bits) - 1,
#define MMD_X_VARIANT_SHIFT_AV(name, bits) AV_##name, AV_##name##_LAST = AV_##name + (bits) - 1,
#define MMD_X_VARIANT_ROW_CV(name, bits) {#name, CV_##name, bits},
#define MMD_X_VARIANT_ROW_AV(name, bits) {#name, AV_##name, bits},
enum { MMD_COLOUR_VARIANT(MMD_X_VARIANT_SHIFT_CV) CV_BITS };
enum { MMD_ACC_VARIANT(MMD_X_VARIANT_SHIFT_AV) AV_BITS };
#define CV(name, v) ((int)(v) << CV_##name) /* v must fit the field's bits */
#define AV(name, v) ((int)(v) << AV_##name)
#define MAIN_VARIANTS (1 << CV_BITS)
#define ACC_VARIANTS (1 << AV_BITS)

/* Uniforms, one row each (slot, GLSL name): the slot enum and the name array
 * both come from the list (MMD_X_UNIFORM_SLOT, MMD_X_UNIFORM_NAME). */
#define MMD_MAIN_UNIFORMS(X)                                                                                      \
    X(U_WORLD, "u_world") X(U_VIEW, "u_view") X(U_PROJ, "u_proj") X(U_SHADOW_VP, "u_shadow_vp")                   \
    X(U_DIFFUSE, "u_diffuse") X(U_AMBIENT, "u_ambient") X(U_SPECULAR, "u_specular") X(U_POWER, "u_power")         \
    X(U_LIGHT_COLOR, "u_light_color") X(U_LIGHT_DIR, "u_light_dir") X(U_EYE, "u_eye") X(U_TEX, "u_tex")           \
    X(U_SPHERE, "u_sphere") X(U_TOON, "u_toon") X(U_SHADOW_MAP, "u_shadow_map") X(U_SHADOW_MODE, "u_shadow_mode") \
    X(U_TEX_MUL, "u_tex_mul") X(U_TEX_ADD, "u_tex_add") X(U_SPH_MUL, "u_sph_mul") X(U_SPH_ADD, "u_sph_add")       \
    X(U_TOON_MUL, "u_toon_mul") X(U_TOON_ADD, "u_toon_add") X(U_SHADOW_CMP, "u_shadow_cmp") X(U_SOFT, "u_soft")
/* the flat programs (edges, ground shadow, depth) */
#define MMD_FLAT_UNIFORMS(X) \
    X(F_WORLD, "u_world") X(F_VIEWPROJ, "u_viewproj") X(F_EDGE, "u_edge_offset") X(F_COLOR, "u_color")
/* the accessory program (pass_accessory.c) */
#define MMD_ACC_UNIFORMS(X)                                                                                       \
    X(A_ACC_WORLD, "u_acc_world") X(A_WORLD, "u_world") X(A_VIEW, "u_view") X(A_PROJ, "u_proj")                   \
    X(A_SHADOW_VP, "u_shadow_vp") X(A_DIFFUSE, "u_diffuse") X(A_EMISSIVE, "u_emissive")                           \
    X(A_SPECULAR, "u_specular") X(A_POWER, "u_power") X(A_LIGHT_COLOR, "u_light_color")                           \
    X(A_LIGHT_DIR, "u_light_dir") X(A_EYE, "u_eye") X(A_TEX, "u_tex") X(A_SPHERE, "u_sphere")                     \
    X(A_SHADOW_MAP, "u_shadow_map") X(A_SHADOW_MODE, "u_shadow_mode")
#define MMD_X_UNIFORM_SLOT(slot, name) slot,
#define MMD_X_UNIFORM_NAME(slot, name) name,
enum { MMD_MAIN_UNIFORMS(MMD_X_UNIFORM_SLOT) U_MAIN_COUNT };
enum { MMD_FLAT_UNIFORMS(MMD_X_UNIFORM_SLOT) F_COUNT };
enum { MMD_ACC_UNIFORMS(MMD_X_UNIFORM_SLOT) A_COUNT };

/* fn(ctx, first, count) over [0, n) split into one fixed chunk per thread
 * (chunk bounds depend only on n and the thread count; results must not). */
typedef void (*mmd_render_job)(void *ctx, uint32_t first, uint32_t count);

typedef struct gpu_material {
    GLuint tex, sphere, toon; /* 0 = none (white bound) */
} gpu_material;

typedef struct gpu_model {
    const mmd_model *m;
    GLuint vao, vbo_pos, vbo_nrm, vbo_uv, vbo_add, vbo_edge, ebo;
    GLuint vao_fx;            /* the same buffers at the effect translator's locations (Draw=Geometry), or 0 */
    GLuint vao_hull, vbo_hull; /* Draw=Geometry in the edge pass: the hull's positions at location 0, or 0 */
    float *hull;              /* vertex_count x 3: the hull on the CPU (made on first use) */
    const float *cur_pos, *cur_nrm; /* the instance's positions and normals while a frame is drawn */
    gpu_material *mats;
    mmd_material_state *base; /* the model's own material values */
    float *skin_pos, *skin_nrm;
    GLuint vbo_glow;          /* per-vertex AL glow (effects.glow and some marked vertex), else 0 */
    mmd_luminous_morphs lum;  /* LightUp / LightOff / LightBlink */
    double *prof_mat; /* options.profile: colour-pass CPU ms per material, last frame */
    mmd_model_look look; /* edge width, add-blend, self-shadow (mmd_renderer_set_look) */
} gpu_model;

typedef struct gpu_acc_material {
    GLuint tex, sphere; /* 0 = none */
    bool screen;        /* the texture is MMD's live screen (the previous frame) */
} gpu_acc_material;

typedef struct gpu_accessory {
    const mmd_accessory_mesh *mesh;
    char *name;
    GLuint vao, vbo, ebo;
    gpu_acc_material *mats;
    mmd_render_accessory a;
    float world[16];    /* .x units -> LH world, this frame */
} gpu_accessory;

typedef struct pool {
    pthread_t th[MAX_THREADS];
    int n; /* worker threads (the caller is one more) */
    pthread_mutex_t mu;
    pthread_cond_t cv_go, cv_done;
    unsigned gen;
    int pending;
    bool quit;
    mmd_render_job fn;
    void *ctx;
    uint32_t total;
} pool;

typedef struct worker_arg {
    pool *p;
    int index;
} worker_arg;

struct mmd_renderer {
    mmd_render_options o;
    mmd_texlib *texlib; /* texture files: resolution, decoding, sharing, budget, warnings */
    GLuint *tex_names;  /* by texlib id; 0 = none (white) */
    unsigned *tex_target; /* by texlib id: GL_TEXTURE_2D, or _3D / _CUBE_MAP (a volume or cube DDS) */
    size_t tex_name_cap;
    GLint tex_anisotropy; /* textures.c: what mipmapped textures get (1: none); 0 until asked */
    mmd_gl_context *ctx;
    const mmd_gl *gl;
    GLuint prog_main[MAIN_VARIANTS], prog_flat, prog_depth, prog_ground;
    GLint u_main[MAIN_VARIANTS][U_MAIN_COUNT], u_flat[F_COUNT], u_depth[F_COUNT], u_ground[F_COUNT];
    GLuint fbo_ms, rb_ms_color, rb_ms_depth;    /* multisampled target (samples > 1) */
    GLuint fbo_res, rb_res_color, rb_res_depth; /* resolve target (or the target itself) */
    /* effects (issue 18): render size rw x rh = output x ssaa; with post passes
     * the resolve target's colour is tex_res (read by pass_post.c); glow draws
     * emission into tex_glow (a quarter of the output size, pass_glow.c) */
    int rw, rh;
    bool post, glow_drawn;
    GLuint tex_res, smp_shadow_cmp;
    GLuint fbo_glow, tex_glow, rb_glow_depth, prog_glow;
    GLint u_glow[8];
    mmd_post *postfx;
    double time_s;
    mmd_pre_hook_fn pre_hook;     /* mmd_renderer_set_pre_hook */
    void *pre_hook_user;
    mmd_frame_hook_fn frame_hook; /* mmd_renderer_set_frame_hook */
    void *frame_hook_user;
    GLuint fbo_shadow, tex_shadow;
    GLuint fbo_shadow_fx, tex_shadow_fx; /* the map in MME's row order (mmd_renderer_shadow_map), made on use */
    bool shadow_fx_stale;                /* the map was drawn since tex_shadow_fx was copied */
    bool shadow_hooked;                  /* a pass hook drew a caster (zplot) into the map this frame */
    int shadow_dirty[4]; /* x0, y0, x1, y1: shadow map texels drawn since the last clear */
    GLuint tex_white, toon_shared[10];
    gpu_model *models;
    size_t model_count, model_cap;
    gpu_accessory *accs;
    size_t acc_count, acc_cap;
    GLuint prog_acc[ACC_VARIANTS];
    GLint u_acc[ACC_VARIANTS][A_COUNT];
    GLuint tex_screen;  /* the previous frame, when an accessory shows screen.bmp */
    struct bg_layer {   /* background image [0] (a cached texture), video frame [1] (owned) */
        GLuint tex;     /* 0 = none */
        int w, h;       /* of the owned texture */
        float rect[4];  /* NDC x0, y0, x1, y1 */
    } bg[2];
    GLuint prog_bg, vao_bg; /* pass_background.c */
    GLint u_bg[2];
    mmd_render_timings timings;
    pool pool;
    worker_arg wargs[MAX_THREADS];
    int threads;
    mmd_render_profile prof; /* options.profile (profile.c) */
    double prof_cpu, prof_wall; /* at the last mark */
    bool prof_open;             /* a frame's profile has begun */
};


/* What every pass of one frame shares. */
typedef struct frame_ctx {
    const mmd_render_view *v;
    float proj_flip[16], viewproj[16], world[16], light_dir[3], light_color[3], shadow_vp[16];
    int shadow_mode;
    const float *hook_world; /* a pass hook's mmd_pass_frame.object_world (LH, column-major): NULL the
                                model's identity or the accessory's placement; the ground shadow's
                                flattening (pass_ground_shadow.c) */
} frame_ctx;

/* The per-object pass interface (render.h): does options.pass_hook draw
 * material `material` of model `slot` (indices first .. first + count) for
 * this pass kind? False at once without a hook (no cost); true: the hook
 * drew it and the caller sets its own GL state again. */
bool mmd_pass_hook_call(mmd_renderer *r, size_t slot, uint32_t material, size_t first, size_t count,
                        mmd_fx_pass_kind kind, const mmd_material_state *s, bool self_shadow, float edge_offset,
                        const frame_ctx *f);
static inline bool mmd_pass_hook_enabled(const mmd_renderer *r)
{
    return r->o.pass_hook != NULL;
}
/* The same for subset `material` of accessory `slot` in its colour pass
 * (pass_accessory.c: object or object_ss), its self-shadow map caster (zplot)
 * and its ground shadow (shadow); s: its values (mmd_accessory_state). The
 * drawable's object_world is f's hook_world, else the accessory's placement. */
bool mmd_pass_hook_accessory(mmd_renderer *r, size_t slot, uint32_t material, size_t first, size_t count,
                             mmd_fx_pass_kind kind, const mmd_material_state *s, const frame_ctx *f);
static inline bool mmd_pass_hook(mmd_renderer *r, size_t slot, uint32_t material, size_t first, size_t count,
                                 mmd_fx_pass_kind kind, const mmd_material_state *s, bool self_shadow,
                                 float edge_offset, const frame_ctx *f)
{
    return r->o.pass_hook && mmd_pass_hook_call(r, slot, material, first, count, kind, s, self_shadow, edge_offset, f);
}

void mmd_renderer_parallel(mmd_renderer *r, mmd_render_job fn, void *ctx, uint32_t n);
size_t mmd_renderer_model_count(const mmd_renderer *r);
const mmd_model *mmd_renderer_model(const mmd_renderer *r, size_t slot);
/* Per-slot skinning output (vertex_count x 3 each), owned by the renderer. */
void mmd_renderer_scratch(mmd_renderer *r, size_t slot, float **pos, float **nrm);
mmd_render_timings *mmd_renderer_timings_mut(mmd_renderer *r);
const mmd_render_options *mmd_renderer_options(const mmd_renderer *r);
double mmd_render_now_ms(void);
/* options.cancel is set: the frame's passes stop between material draws. */
static inline bool mmd_render_cancelled(const mmd_renderer *r) { return r->o.cancel && *r->o.cancel; }

/* pool.c: start `threads` - 1 workers (the caller is the last one); stop joins them. */
void mmd_pool_start(mmd_renderer *r, int threads);
void mmd_pool_stop(pool *p);

/* profile.c (options.profile; no-ops otherwise): begin zeroes the frame's
 * figures unless already begun; mark finishes the GL work, charges the time
 * since the last mark to `pass` and returns that CPU ms; end closes the frame. */
void mmd_prof_begin(mmd_renderer *r);
double mmd_prof_mark(mmd_renderer *r, int pass);
void mmd_prof_end(mmd_renderer *r);

/* textures.c */
GLuint mmd_tex_upload_rgba(mmd_renderer *r, int w, int h, const uint8_t *px, bool repeat, bool mip);
/* The textures of model g's materials (g->mats: texture, sphere, toon; 0 =
 * white), from the texlib (mmd_texlib_model) and uploaded as it hands them
 * out; MMD_E_NOMEM when there is no memory. */
mmd_status mmd_tex_model(mmd_renderer *r, gpu_model *g, const char *model_dir, mmd_error *err);
/* A texture by name relative to dir (resolved like models' textures); 0 when
 * it cannot be found or decoded (a warning naming owner when warn). */
GLuint mmd_tex_file(mmd_renderer *r, const char *dir, const char *name, bool repeat, bool warn, const char *owner);
/* mmd_tex_file for any kind of texture, confined to root unless NULL
 * (texlib.h mmd_texlib_file_in): *target is its GL target
 * (GL_TEXTURE_2D, _3D for a volume, _CUBE_MAP; mmd_tex_file itself gives 0
 * for the last two: its users bind 2D). */
GLuint mmd_tex_file_kind(mmd_renderer *r, const char *dir, const char *root, const char *name, bool repeat, bool warn,
                         const char *owner, unsigned *target);

/* targets.c: the colour target (MSAA when samples > 1), the shadow map, the
 * frame's clear, and the resolve + readback into rgba (straight alpha).
 * mmd_targets_create: MMD_E_USAGE when the size or MSAA level is more than
 * this GL can hold (exit 1), MMD_E_GL on any other GL failure. */
mmd_status mmd_targets_create(mmd_renderer *r, mmd_error *err);
mmd_status mmd_shadow_target_create(mmd_renderer *r, mmd_error *err);
void mmd_target_begin(mmd_renderer *r);
mmd_status mmd_target_finish(mmd_renderer *r, uint8_t *rgba, mmd_error *err);

/* The passes, in frame order. */
void mmd_shadow_matrix(const mmd_render_view *v, const float light_dir[3], int mode, float dist_param,
                       float out[16]);
bool mmd_shadow_any_receiver(const mmd_renderer *r, const mmd_render_instance *ins, size_t count);
void mmd_pass_shadow_map(mmd_renderer *r, const mmd_render_instance *ins, size_t count, const frame_ctx *f);
/* Colour-pass program for a variant key into *out (built on first use);
 * MMD_E_GL with the GLSL log. */
mmd_status mmd_colour_program(mmd_renderer *r, int key, GLuint *out, mmd_error *err);
mmd_status mmd_pass_colour(mmd_renderer *r, gpu_model *g, const mmd_render_instance *in, const frame_ctx *f,
                           mmd_error *err);
/* pass_glow.c: the emission target and program; the pass returns whether
 * anything emitted (false: nothing drawn, the glow is skipped). */
mmd_status mmd_glow_target_create(mmd_renderer *r, mmd_error *err);
bool mmd_pass_glow(mmd_renderer *r, const mmd_render_instance *ins, size_t count, const frame_ctx *f);
void mmd_pass_edges(mmd_renderer *r, gpu_model *g, const mmd_render_instance *in, const frame_ctx *f);
/* pass_background.c: draws the background image when one is set; free releases it. */
void mmd_pass_background(mmd_renderer *r);
void mmd_background_free(mmd_renderer *r);
/* pass_ground_shadow.c: the ground shadows of models [first, end) (their slots) and,
 * with `accessories`, of the accessories. MMD draws a model's right after the model,
 * so a later model's translucent pixels blend over it (mmd_renderer_draw). */
void mmd_pass_ground_shadows(mmd_renderer *r, const mmd_render_instance *ins, size_t first, size_t end,
                             bool accessories, const frame_ctx *f);
/* Draws, with the bound program and state, the triangle materials of every
 * shown instance in slots [first, end) that have `flag` set and are not fully
 * transparent. zplot: the frame whose pass hook each self-shadow caster is
 * asked with kind zplot first (pass_shadow_map.c); NULL: none asked. */
void mmd_draw_casters(mmd_renderer *r, const mmd_render_instance *ins, size_t first, size_t end, uint8_t flag,
                      const frame_ctx *zplot);

/* accessory.c: upload, placement, worlds; pass_accessory.c: the colour pass
 * (after_models selects which of the two draw times), casters for the shadow
 * passes (pass_world x accessory world into u_world_loc), the live screen. */
void mmd_accessories_free(mmd_renderer *r);
void mmd_accessories_update_worlds(mmd_renderer *r, mmd_anim *const *anims, size_t count);
bool mmd_accessories_any_visible(const mmd_renderer *r);
/* MMD_E_GL when an accessory program does not build. */
mmd_status mmd_pass_accessories(mmd_renderer *r, const frame_ctx *f, bool after_models, mmd_error *err);
void mmd_accessories_draw_casters(mmd_renderer *r, GLint u_world_loc, const float pass_world[16],
                                  const frame_ctx *zplot);
/* Whether accessory g casts shadows this frame (shown, shadow on, not fully transparent). */
static inline bool mmd_accessory_casts(const gpu_accessory *g)
{
    return g->a.place.visible && g->a.place.shadow && g->a.place.opacity > 0;
}
/* Subset k of g as the pass hook reads a material (its diffuse alpha x the
 * accessory's opacity; EMISSIVE in ambient, the field a model's EMISSIVE reads). */
void mmd_accessory_state(const gpu_accessory *g, uint32_t k, mmd_material_state *s);
void mmd_accessories_copy_screen(mmd_renderer *r);

/* Small column-major maths shared by the passes: cglm (mat4 = float[16]
 * column-major; the Makefile builds with CGLM_ALL_UNALIGNED). */
static inline void mat_mul(const float a[16], const float b[16], float out[16])
{
    glm_mat4_mul((vec4 *)a, (vec4 *)b, (vec4 *)out);
}

static inline void mat_identity(float m[16]) { glm_mat4_identity((vec4 *)m); }

static inline void vec_norm(float v[3])
{
    if (glm_vec3_norm2(v) > 1e-24f) /* else left as it is (callers check for zero) */
        glm_vec3_normalize(v);
}

static inline void vec_cross(const float a[3], const float b[3], float o[3])
{
    glm_vec3_cross((float *)a, (float *)b, o);
}

static inline float vec_dot(const float a[3], const float b[3]) { return glm_vec3_dot((float *)a, (float *)b); }
static inline GLenum prim_of(uint8_t flags)
{
    if (flags & MMD_MAT_POINTS)
        return GL_POINTS;
    if (flags & MMD_MAT_LINES)
        return GL_LINES;
    return GL_TRIANGLES;
}

#endif
