/* renderer/gl/fx_runtime.h - a MikuMikuEffect effect instance on the current
 * GL context: the parsed effect (core/fx.h), every pass of its technique
 * translated (renderer/fx/translate.h) and linked once, its render targets,
 * sampler objects and render states, and the Script interpreter that draws it
 * (docs/effects.md, "Runtime").
 *
 *     mmd_fx_effect_config c = {.gl = gl, .width = w, .height = h};
 *     mmd_fx_effect *e;
 *     if (mmd_fx_effect_create(fx, &c, &e, &err) != MMD_OK) ... err.msg "FILE:LINE: pass P: why"
 *     GLuint out;
 *     mmd_fx_effect_post(e, scene_fbo, &frame, &out, &err);   (a post effect, per frame)
 *     mmd_fx_effect_free(e);
 *
 * Pixels: the textures are D3D's way up (row 0 is the top row); the
 * translator negates clip-space y and the runtime sets mmd_half_pixel, so
 * an effect's own half-texel offsets land on texel centres as under DX9.
 * Draw=Geometry calls config.geometry (the object effects' hook; NULL: skipped).
 */
#ifndef MMD_RENDERER_GL_FX_RUNTIME_H
#define MMD_RENDERER_GL_FX_RUNTIME_H

#include "core/fx.h"
#include "core/status.h"
#include "renderer/fx/semantics.h"
#include "renderer/gl/context.h"

#define MMD_FX_MAX_LOOP 1024      /* LoopByCount's count is clamped to it */
#define MMD_FX_MAX_SCRIPT_STEPS (1u << 20) /* commands one frame's script may run */

/* A ResourceName file as a GL texture (dir: the effect's folder); 0 when it
 * cannot be read (the sampler reads 0); *target: its GL target
 * (GL_TEXTURE_2D, _3D for a volume DDS, _CUBE_MAP). A sampler binds it only
 * when its dimension is that target. */
typedef GLuint (*mmd_fx_texture_fn)(void *user, const char *dir, const char *name, GLenum *target);
/* Draw=Geometry: the object's geometry (mmd_fx_object_draw.geometry) with
 * program bound (its uniforms set). */
typedef void (*mmd_fx_geometry_fn)(void *user, const void *geometry, GLuint program);

typedef struct mmd_fx_effect_config {
    const mmd_gl *gl;
    int width, height;      /* the viewport: targets' ViewportRatio is of it */
    bool alpha;             /* the output keeps the effect's alpha (a transparent render) */
    const char *cache_dir;  /* glslang's SPIR-V cache (translate.h), NULL: none */
    const char *dir;        /* the effect's folder: ResourceName files are read from it */
    mmd_fx_texture_fn texture;
    void *texture_user;
    mmd_fx_geometry_fn geometry;
    void *geometry_user;
    /* An object effect: a bit (1 << mmd_fx_pass_kind, renderer/fx/select.h)
     * per pass kind whose techniques are linked (every one of those kinds);
     * a pass without a Script is Draw=Geometry. 0: a post effect (the first
     * technique; a pass without a Script is Draw=Buffer). */
    unsigned object_kinds;
    /* What the effect's render targets may take in all (colour at their
     * format's bytes with mip levels, depth 4 B/px), charged here when they
     * are made; over it the effect is refused (MMD_E_LIMIT). NULL: no cap. */
    uint64_t *target_bytes_left;
} mmd_fx_effect_config;

typedef struct mmd_fx_effect mmd_fx_effect;

/* The effect's first technique (an object effect's: those of its kinds),
 * every pass translated and linked. fx must
 * outlive the instance. MMD_E_UNSUPPORTED (a pass does not translate or link:
 * err->msg "FILE:LINE: pass NAME: why"), MMD_E_GL (a target GL refuses),
 * MMD_E_LIMIT (its targets over c->target_bytes_left),
 * MMD_E_BAD_VALUE (a Script that does not split), MMD_E_NOMEM. */
mmd_status mmd_fx_effect_create(const mmd_fx *fx, const mmd_fx_effect_config *c, mmd_fx_effect **out,
                                mmd_error *err);
void mmd_fx_effect_free(mmd_fx_effect *e); /* NULL is a no-op */

/* Run the technique's Script as a post effect on scene (a framebuffer whose
 * colour attachment 0 holds the frame, the viewport's size): ScriptExternal=
 * Color copies it into the current target; the default colour target is the
 * effect's output, *out (a texture). GL state the renderer relies on is
 * restored. MMD_E_GL on a GL error. */
mmd_status mmd_fx_effect_post(mmd_fx_effect *e, GLuint scene, const mmd_fx_frame *f, GLuint *out, mmd_error *err);

/* One draw of an object effect: a technique of its kinds (select.h's choice)
 * for one drawable. */
#define MMD_FX_MATERIAL_TEXTURES 3
typedef struct mmd_fx_object_draw {
    int technique;       /* index in fx->techniques */
    bool double_sided;   /* the material's: MME's culling where a pass sets no CullMode */
    bool edge;           /* the edge pass: front faces culled where a pass sets no CullMode */
    bool rows_up;        /* the target keeps GL's row order (zplot into the self-shadow map, whose
                            light matrices undo the translator's y flip): D3D's front faces are
                            clockwise there, not counter-clockwise */
    bool ground_shadow;  /* the shadow pass: MMD's ground-shadow state where a pass sets none (no
                            culling, no depth write; with `translucent` the stencil that darkens
                            each pixel once, as gl/pass_ground_shadow.c draws it) */
    bool translucent;
    /* MATERIALTEXTURE, MATERIALSPHEREMAP, MATERIALTOONTEXTURE: the material's
     * uploaded textures (white where it has none) */
    GLuint textures[MMD_FX_MATERIAL_TEXTURES];
    /* what a sampler bound at register(s0) with no texture reads (MME's
     * DefSampler): MMD's self-shadow map, depth in R (mmd_renderer_shadow_map) */
    GLuint shadow_map;
    const void *geometry; /* handed to config.geometry at Draw=Geometry */
} mmd_fx_object_draw;

/* A ScriptOrder "preprocess" effect (MME runs it before the objects: a sky,
 * a background): its technique as a post effect's, with the framebuffer
 * bound now (its viewport) as the default colour and depth target, as an
 * object effect's; ScriptExternal draws nothing. Leaves that framebuffer
 * bound, no program, samplers unbound, GL's blend, colour mask, stencil and
 * fill defaults; MMD_E_GL on a GL error. */
mmd_status mmd_fx_effect_preprocess(mmd_fx_effect *e, const mmd_fx_frame *f, mmd_error *err);
/* Whether the technique is linked (mmd_fx_effect_object may draw it). */
bool mmd_fx_effect_has_technique(const mmd_fx_effect *e, int technique);
/* Texture units the effect's passes use at most (0 .. n-1). */
uint32_t mmd_fx_effect_units(const mmd_fx_effect *e);
/* Whether a linked pass reads mmd_fx_object_draw.shadow_map (a sampler at
 * register(s0) with no texture): the caller makes that texture only then. */
bool mmd_fx_effect_reads_shadow_map(const mmd_fx_effect *e);
/* Run the technique for one drawable into the framebuffer bound now (its
 * viewport): the default colour and depth target is that framebuffer, a
 * RenderColorTarget the effect's own; MME's render states (alpha blending,
 * depth test and write on, culling per d) where a pass sets none. The GL
 * state it changes is the caller's to restore (gl/fx_object.c). MMD_E_USAGE
 * for a technique not linked, MMD_E_GL on a GL error. */
mmd_status mmd_fx_effect_object(mmd_fx_effect *e, const mmd_fx_object_draw *d, const mmd_fx_frame *f,
                                mmd_error *err);

/* Post effects over the renderer's frame on the GPU (fx_post.c), as its frame
 * hook (render.h) runs them: each effect reads the previous one's output. */
typedef struct mmd_fx_post mmd_fx_post;
mmd_status mmd_fx_post_create(const mmd_gl *gl, mmd_fx_post **out, mmd_error *err);
void mmd_fx_post_free(mmd_fx_post *p); /* NULL is a no-op */
/* e over *frame (a framebuffer, colour attachment 0); *frame becomes the
 * framebuffer holding e's output. */
mmd_status mmd_fx_post_apply(mmd_fx_post *p, mmd_fx_effect *e, const mmd_fx_frame *f, GLuint *frame, mmd_error *err);

#endif
