/* renderer/gl/render.h - draw animated models with MMD's look into an RGBA image.
 *
 *     mmd_render_options o; mmd_render_options_default(&o); o.width = 1280; ...
 *     mmd_renderer *r; mmd_renderer_create(&o, &r, &err);
 *     mmd_renderer_add_model(r, model, "dir/of/model", &err);  // textures, buffers
 *     per frame: mmd_anim_evaluate(anim_i, t) for each model, then
 *                mmd_renderer_render(r, anims, &cam, &light, &shadow, rgba);
 *     mmd_renderer_free(r);
 *
 * The renderer skins on the CPU (mmd_anim_skin, split across its threads),
 * uploads, runs the passes (shadow map, edges, colour, ground shadow), resolves
 * MSAA and reads back RGBA8, top row first; straight alpha when the background
 * is transparent. Models are drawn in the order they were added.
 */
#ifndef MMD_RENDERER_RENDER_H
#define MMD_RENDERER_RENDER_H

#include <signal.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/accessory.h"
#include "core/anim.h"
#include "core/camera.h"
#include "core/look.h"
#include "core/model.h"
#include "renderer/gl/backend.h"
#include "renderer/base/msg.h"
#include "renderer/fx/select.h"
#include "renderer/gl/effects.h"

#define MMD_TEXTURE_BUDGET_DEFAULT ((size_t)2 << 30) /* 2 GiB */

/* How mipmapped textures are minified (issue 25). MMD: anisotropically, up to 16 taps, as
 * MikuMikuDance's own frames show (thin translucent hair-card tips, grazing striped walls;
 * tests/fidelity); on llvmpipe some 3x the CPU of a textured scene (docs/benchmarks.md).
 * TRILINEAR: isotropic mipmapping, the cheap look (hair tips more opaque, grazing detail
 * blurred). ANISO4: models' material textures filtered anisotropically in the shader, at
 * most MMD_TEXTURE_FILTER_ANISO4_TAPS trilinear taps (GL's rule), the rest trilinear: near
 * MMD's look (every fidelity pair at its goal, below mmd's figures) at some 1.2x trilinear. */
typedef enum mmd_texture_filter {
    MMD_TEXTURE_FILTER_MMD,
    MMD_TEXTURE_FILTER_TRILINEAR,
    MMD_TEXTURE_FILTER_ANISO4,
    MMD_TEXTURE_FILTER_COUNT
} mmd_texture_filter;
#define MMD_TEXTURE_FILTER_ANISO4_TAPS 4

/* The filter's name ("mmd", "trilinear", "aniso4") as the CLI and scene.ini spell it. */
const char *mmd_texture_filter_name(mmd_texture_filter f);
/* A name into *out: MMD_OK, or MMD_E_BAD_VALUE with "expected ..." in err->msg (err may be NULL). */
mmd_status mmd_texture_filter_parse(const char *v, mmd_texture_filter *out, mmd_error *err);

/* The per-object pass interface (docs/effects.md "Passes of a drawable"):
 * the renderer draws each drawable (a model material's index range) per pass
 * kind in MMD's order (renderer/fx/select.h: object or object_ss, edge, shadow); with
 * options.pass_hook set it first asks the hook, and draws its built-in pass
 * only when the hook returns false. The effect runtime implements the hook
 * (technique choice: mmd_fx_select_technique with d->use and d->material); a hook that draws
 * calls mmd_renderer_draw_geometry for MME's Draw=Geometry. NULL (default):
 * the built-in passes alone, the very pixels and cost of a renderer without it. */
typedef struct mmd_drawable {
    size_t model_slot;              /* the model (mmd_renderer_add_model's order), or with accessory
                                       the accessory (mmd_renderer_add_accessory's order) */
    uint32_t material;              /* material index in the model or accessory mesh */
    uint32_t first_index, index_count; /* its range of the model's indices */
    mmd_fx_material_use use;        /* what MME's Use* annotations ask of it */
    float edge_offset;              /* the edge pass: world units per unit of vertex edge scale, the
                                       hull Draw=Geometry draws (as MMD hands MME); 0 otherwise */
    bool accessory;                 /* an accessory's subset (its colour pass; no edge) */
} mmd_drawable;
/* The frame's state a pass is drawn with (GL matrices, column-major). */
typedef struct mmd_pass_frame {
    const float *view, *proj;       /* proj: y flipped, MMD's pixel centres (as the built-in passes) */
    const float *world;             /* model (LH) -> GL world */
    const float *object_world;      /* an accessory's placement (.x units -> LH world, column-major:
                                       D3D's row-major order); NULL for a model (the identity); in the
                                       shadow pass the flattening onto y = 0 along the light (x the
                                       placement), MME's WORLD there */
    const float *shadow_vp;         /* the self-shadow map's view-projection (shadow_mode != 0) */
    const float *light_dir, *light_color, *eye;
    int shadow_mode;                /* 0 off, 1 or 2: MMD's self-shadow modes */
    int width, height;              /* the render target's pixels (zplot: the self-shadow map's) */
} mmd_pass_frame;
struct mmd_renderer;
typedef bool (*mmd_pass_hook_fn)(void *user, struct mmd_renderer *r, const mmd_drawable *d, mmd_fx_pass_kind kind,
                                 const mmd_material_state *material, const mmd_pass_frame *f);

typedef struct mmd_render_options {
    int width, height;         /* pixels */
    int samples;               /* MSAA: 1, 2 or 4 (default 4) */
    float background[4];       /* RGBA 0..1 (default white, opaque) */
    bool transparent;          /* background alpha 0, straight-alpha output */
    mmd_gl_backend backend;    /* default OSMesa */
    int threads;               /* skinning threads and LP_NUM_THREADS; 0 = auto */
    bool allow_outside_assets; /* texture paths may leave the model's folder */
    bool edges, ground_shadow, self_shadow; /* passes (default on) */
    float ground_shadow_brightness; /* MMD's 地面影の明るさ: shadow colour = light colour x this,
                                       each channel clamped to 0..1 (default 1) */
    bool ground_shadow_translucent; /* MMD's 半透明: the ground shadow at alpha 0.5 (nanoem) (default off) */
    bool pmd_edge_color_set;   /* a project's edge colour: the edges of PMD models, which carry */
    float pmd_edge_color[3];   /* no colour of their own (PMX materials keep theirs) (default off) */
    int shadow_map_size;       /* default 2048 */
    bool gl_pixel_centres;     /* sample pixels at GL's centres (i + 0.5); default off: MMD's
                                  Direct3D 9 ones, the picture half a pixel right and down */
    size_t texture_budget;     /* decoded texture bytes incl. mip levels, all models together
                                  (default MMD_TEXTURE_BUDGET_DEFAULT); a texture that does not fit
                                  is halved until it does, else drawn white, with a warning */
    mmd_texture_filter texture_filter; /* default MMD_TEXTURE_FILTER_MMD (MikuMikuDance's look) */
    mmd_effects effects;       /* glow, soft shadow, diffusion, SSAA, FXAA (default all off) */
    bool profile;              /* benchmarks: finish and time every pass (mmd_renderer_profile) */
    bool quiet;                /* no texture warnings (drawn white or scaled down) */
    mmd_warn_fn warn;          /* where the renderer's warnings go, one sentence each (the CLI prints
                                  them); NULL (default): nowhere. The renderer prints nothing itself */
    void *warn_ctx;            /* passed to warn */
    const volatile sig_atomic_t *cancel; /* while *cancel is non-zero, a frame being drawn stops
                                  between material draws and render returns MMD_E_INTERRUPTED
                                  (the image is then unspecified); NULL (default): never */
    mmd_pass_hook_fn pass_hook; /* the per-object pass interface (above); NULL (default): none */
    void *pass_hook_user;       /* passed to pass_hook */
} mmd_render_options;

typedef struct mmd_renderer mmd_renderer;

/* Per-stage wall time of the last mmd_renderer_render, milliseconds. */
typedef struct mmd_render_timings {
    double skin_ms, upload_ms, draw_ms, readback_ms;
} mmd_render_timings;

void mmd_render_options_default(mmd_render_options *o);
/* Every function that can fail returns MMD_OK or MMD_E_GL with err (NULL
 * allowed) saying why: no GL context, bad options, a GL error; create
 * returns MMD_E_USAGE when the size or MSAA level is more than this GL can
 * hold (its largest render target, its sample count, or a target it cannot
 * allocate), so a caller can refuse it before loading anything. */
mmd_status mmd_renderer_create(const mmd_render_options *o, mmd_renderer **out, mmd_error *err);
/* Bytes of GL storage mmd_renderer_create allocates for o's size, MSAA,
 * effects and shadow map (colour and depth targets, the resolve target, the
 * glow target, effect chains, the shadow map), before any model: the part of
 * a render's memory its options decide (renderer/cli/memory.h adds the rest).
 * Pure: no GL context; o's ranges as create checks them. */
uint64_t mmd_renderer_memory(const mmd_render_options *o);
void mmd_renderer_free(mmd_renderer *r); /* NULL is a no-op */
/* Upload a model; textures resolve relative to model_dir (image/texlib.h). Missing textures warn
 * once (options.warn) and render white. Slots are numbered in the order models are
 * added (the first is slot 0). */
mmd_status mmd_renderer_add_model(mmd_renderer *r, const mmd_model *m, const char *model_dir, mmd_error *err);
/* MMD's per-model display switches (core/look.h), per slot; a slot starts
 * with mmd_model_look_default. */
void mmd_renderer_set_look(mmd_renderer *r, size_t slot, const mmd_model_look *l);
/* MMD's background image (背景画像): drawn over the clear colour before
 * everything else, stretched to the output size x scale, centred, then moved
 * by offset output pixels (x right, y down). A file that cannot be found or
 * decoded warns once and nothing is drawn (returns MMD_OK: the render goes
 * on). Replaces the previous background. */
mmd_status mmd_renderer_set_background(mmd_renderer *r, const char *path, const int offset[2], float scale,
                                       mmd_error *err);
/* A frame of MMD's background video (背景AVI), w x h RGBA top row first, drawn
 * over the background image with the same placement rule until the next call;
 * rgba NULL removes it. */
mmd_status mmd_renderer_set_background_frame(mmd_renderer *r, const uint8_t *rgba, int w, int h, const int offset[2],
                                             float scale, mmd_error *err);
/* anims[i] belongs to slot i (already evaluated for this frame). rgba receives
 * width*height*4 bytes. */
mmd_status mmd_renderer_render(mmd_renderer *r, mmd_anim *const *anims, size_t count,
                               const mmd_camera_state *cam, const mmd_light_state *light,
                               const mmd_shadow_state *shadow, uint8_t *rgba, mmd_error *err);
const mmd_render_timings *mmd_renderer_timings(const mmd_renderer *r);
/* Decoded texture bytes this renderer holds (mip levels included): what
 * texture_budget bounds. Distinct texture files and wrap modes uploaded: count. */
size_t mmd_renderer_texture_bytes(const mmd_renderer *r, size_t *count);
/* Scene time in seconds of the next frame (AutoLuminous' LightBlink; default 0). */
void mmd_renderer_set_time(mmd_renderer *r, double seconds);
/* The frame hook: called once per frame after the renderer's own passes and
 * built-in effects, before the readback, with a framebuffer whose colour
 * attachment 0 holds the frame (the output's size, top row first, D3D's way
 * up; premultiplied alpha when transparent); it leaves the picture to read
 * back in *out (a framebuffer, colour attachment 0: frame itself or its own;
 * GL names as unsigned, GLuint).
 * MikuMikuEffect's post effects run there, on the GPU's copy of the frame.
 * fn NULL removes it. An error fails the frame with its sentence. */
typedef mmd_status (*mmd_frame_hook_fn)(void *user, unsigned frame, unsigned *out, mmd_error *err);
void mmd_renderer_set_frame_hook(mmd_renderer *r, mmd_frame_hook_fn fn, void *user);

/* The pre hook: called once per frame after the frame's target is cleared
 * (background colour, depth 1) and before the colour passes (accessories,
 * then models), with that target bound (the MSAA framebuffer when
 * multisampled) and its viewport: MikuMikuEffect's ScriptOrder "preprocess"
 * effects draw there. The renderer sets its own depth, blend and cull state
 * after it. fn NULL removes it. An error fails the frame with its sentence. */
typedef mmd_status (*mmd_pre_hook_fn)(void *user, mmd_error *err);
void mmd_renderer_set_pre_hook(mmd_renderer *r, mmd_pre_hook_fn fn, void *user);

/* Per-pass cost of the last frame when options.profile is set (benchmarks
 * only, pixels unchanged): every pass is finished (glFinish) before the next
 * starts, so llvmpipe's threads do not overlap passes and the parts add up to
 * more than an unprofiled frame. cpu_ms is the whole process's CPU time (all
 * threads, getrusage), steadier than wall_ms on a shared machine. */
enum {
    MMD_PASS_SKIN, MMD_PASS_UPLOAD, MMD_PASS_SHADOW_MAP, MMD_PASS_CLEAR, MMD_PASS_COLOUR, MMD_PASS_EDGE,
    MMD_PASS_GROUND_SHADOW, MMD_PASS_RESOLVE, MMD_PASS_READBACK,
    MMD_PASS_GLOW, /* effects: AutoLuminous emission (pass_glow.c) */
    MMD_PASS_POST, /* effects: blooms, composite, SSAA resolve, FXAA (pass_post.c) */
    MMD_PASS_COUNT
};
typedef struct mmd_render_profile {
    double cpu_ms[MMD_PASS_COUNT], wall_ms[MMD_PASS_COUNT];
} mmd_render_profile;
const mmd_render_profile *mmd_renderer_profile(const mmd_renderer *r);
/* CPU ms of material k of model `slot` in the last profiled colour pass (0 when none). */
double mmd_renderer_profile_material(const mmd_renderer *r, size_t slot, uint32_t material);

/* Lower level, used by mmd_renderer_render after skinning and by tests/tools
 * that have posed geometry but no mmd_anim. */
typedef struct mmd_render_view {
    float view[16], proj[16]; /* GL, column-major (as from mmd_camera_matrices) */
    float eye[3], target[3];  /* LH world */
    float fov;                /* degrees, vertical (edge width rule) */
} mmd_render_view;

typedef struct mmd_render_instance {
    const float *positions, *normals;    /* vertex_count x 3, LH world, required */
    const float *uvs;                    /* vertex_count x 2, NULL = the model's */
    const float *add_uv1;                /* vertex_count x 4, NULL = the model's */
    const mmd_material_state *materials; /* material_count, NULL = the model's own values */
    float edge_origin[3];                /* LH world position of bone #1 (edge width rule) */
    const float *morph_weights;          /* morph_count, NULL = all 0 (glow's LightUp/LightOff/LightBlink) */
    bool hidden;
} mmd_render_instance;

/* Fill v from a camera state for aspect = width/height. */
void mmd_render_view_from_camera(const mmd_camera_state *cam, float aspect, mmd_render_view *v);
/* Draw instances[i] for slot i (count <= models added) and read back like
 * mmd_renderer_render. light/shadow NULL = MMD defaults / no self-shadow. */
mmd_status mmd_renderer_draw(mmd_renderer *r, const mmd_render_instance *instances, size_t count,
                             const mmd_render_view *view, const mmd_light_state *light,
                             const mmd_shadow_state *shadow, uint8_t *rgba, mmd_error *err);
/* Floor measurement: clear, resolve and read back with nothing drawn. */
mmd_status mmd_renderer_clear_readback(mmd_renderer *r, uint8_t *rgba, mmd_error *err);
/* Accessories (the neutral mesh of core/accessory.h), drawn with MMD's accessory
 * shading: before the models, or after them with place.after_models. The mesh
 * must outlive the renderer; textures resolve relative to dir ("screen.bmp" is
 * the previous frame, black before the first). Slot i is the i-th added. */
mmd_status mmd_renderer_add_accessory(mmd_renderer *r, const mmd_accessory_mesh *mesh, const char *dir,
                                      const char *name, mmd_error *err);
typedef struct mmd_render_accessory {
    mmd_accessory_place place;
    int parent_slot;     /* model slot carrying it, -1 none (mmd_renderer_render reads its bone) */
    int32_t parent_bone; /* bone index in that model */
} mmd_render_accessory;
/* Placement of accessory slot i (count <= accessories added), kept until the
 * next call. mmd_renderer_render applies the parent bone of each frame;
 * mmd_renderer_draw uses the placement alone. */
void mmd_renderer_place_accessories(mmd_renderer *r, const mmd_render_accessory *a, size_t count);
/* Sets (or with fn NULL removes) the per-object pass hook after creation, as
 * options.pass_hook does at it (an effect found once the scene is open). */
void mmd_renderer_set_pass_hook(struct mmd_renderer *r, mmd_pass_hook_fn fn, void *user);
/* MME's Draw=Geometry for a pass hook: draws d's index range of its model's
 * skinned vertices with the program bound now, vertex inputs at the
 * translator's fixed locations (renderer/fx/translate.h: POSITION 0, NORMAL 1,
 * TEXCOORD0 2 the UV, TEXCOORD1 3 the first additional UV; the others unset,
 * read as 0 0 0 1); in the edge pass (d->edge_offset > 0) POSITION is the
 * hull: each vertex moved along its normal by its edge scale x edge_offset,
 * MMD's edge geometry. The render's own state is restored by the renderer
 * after the hook. */
void mmd_renderer_draw_geometry(struct mmd_renderer *r, const mmd_drawable *d);
/* MMD's self-shadow map as MME hands an effect's sampler at register(s0) with
 * no texture (full.fx's DefSampler): a depth texture read with the compare off,
 * R = D3D's z/w of the Object = "Light" matrices (mmd_pass_frame.shadow_vp with
 * depth 0..1), far 1 where nothing casts; its rows in D3D's order (row 0 at the
 * light's clip y = +1, where an effect's uv 0.5 + xy / w x (0.5, -0.5) reads
 * through the translator's y flip). shadow_mode 0 (self-shadow off): the white
 * texture (all far), as nanoem's fallback. The copy is made once per frame on
 * first use; the framebuffer bindings are kept. 0 when it cannot be made. */
unsigned mmd_renderer_shadow_map(struct mmd_renderer *r, int shadow_mode);
/* The GL textures of d's material as MME's MATERIALTEXTURE, MATERIALSPHEREMAP
 * and MATERIALTOONTEXTURE read them: its texture, sphere map and toon (the
 * renderer's white texture where it has none). */
void mmd_renderer_material_textures(const struct mmd_renderer *r, const mmd_drawable *d, unsigned out[3]);
/* "4.5 (Core Profile) Mesa 22.3.6" etc., for reports and golden notes. */
const char *mmd_renderer_gl_version(const mmd_renderer *r);
/* The renderer's GL (its context is current on the rendering thread): what
 * effects (gl/fx_runtime.h) draw with, after mmd_renderer_render. */
struct mmd_gl;
const struct mmd_gl *mmd_renderer_api(const mmd_renderer *r);
/* A texture file through the renderer's texture library (its budget; an
 * effect's ResourceName), relative to dir and confined to root (the effect's
 * root, image/texpath.h; NULL: the model rule, confined to dir; neither with
 * --allow-outside-assets): the GL texture, 0 with a warning
 * naming owner when it cannot be read; *target: its GL target
 * (GL_TEXTURE_2D; GL_TEXTURE_3D for a volume DDS, GL_TEXTURE_CUBE_MAP for a
 * cube map). */
unsigned mmd_renderer_texture_file(mmd_renderer *r, const char *dir, const char *root, const char *name,
                                   const char *owner, unsigned *target);

#endif
