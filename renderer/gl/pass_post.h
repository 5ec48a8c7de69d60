/* renderer/gl/pass_post.h - the passes after the colour pass (issue 18):
 * supersampling resolve, AutoLuminous glow and Diffusion blooms (blur chains
 * at quarter size and below), composite, FXAA. Used by targets.c when
 * mmd_effects_post() is true; nothing here runs when every effect is off.
 *
 *     mmd_post_create(gl, &effects, w, h, &p, err);   // output size w x h
 *     per frame: fbo = mmd_post_run(p, scene_tex, scene_fbo, glow_tex); // ssaa-sized inputs
 *                read back from fbo
 *     mmd_post_free(p);
 */
#ifndef MMD_RENDERER_GL_PASS_POST_H
#define MMD_RENDERER_GL_PASS_POST_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "renderer/gl/context.h"

#include "renderer/gl/effects.h"

/* The float format of emission and bloom targets: packed 11/11/10-bit floats
 * (HDR up to 65000, 4 bytes a texel; alpha is not stored, blending takes the
 * fragment's). Half of RGBA16F's memory traffic, which dominates the glow's
 * cost on llvmpipe with MSAA 4. */
#define MMD_POST_HDR GL_R11F_G11F_B10F

typedef struct mmd_post mmd_post;

/* MMD_OK, or MMD_E_GL with err (GLSL or framebuffer failure). */
mmd_status mmd_post_create(const mmd_gl *gl, const mmd_effects *e, int width, int height, mmd_post **out,
                           mmd_error *err);
void mmd_post_free(mmd_post *p); /* NULL is a no-op */
/* A side of n output pixels at blur-chain level k: n >> k, at least 1 (the
 * glow's emission is level 2, quarter size). */
int mmd_post_level_size(int n, int k);
/* Bytes of GL storage mmd_post_create allocates for e at width x height (the
 * output size): the SSAA-filtered frame, the combine targets, both blur
 * chains, FXAA's output. Pure (no GL); mmd_renderer_memory adds it. */
uint64_t mmd_post_memory(const mmd_effects *e, int width, int height);
/* scene: RGBA8 texture of (width * ssaa) x (height * ssaa) attached to
 * scene_fbo; glow: the MMD_POST_HDR emission at quarter the output size
 * (pass_glow.c), 0 when nothing glowed. The glows are blended into the frame
 * in place (scene_fbo itself when ssaa is 1). Returns the FBO that holds the
 * width x height result, to read back. */
GLuint mmd_post_run(mmd_post *p, GLuint scene, GLuint scene_fbo, GLuint glow);
/* Whether mmd_post_run has work with this glow input; when not, the caller
 * reads the scene itself (glow on but nothing glowed, no other effect). */
bool mmd_post_needed(const mmd_post *p, GLuint glow);
/* A texture + FBO of the given format and size (linear, clamped), for the
 * colour target and here. Returns the texture, 0 on failure. */
GLuint mmd_post_texture_target(const mmd_gl *gl, GLenum format, int w, int h, GLuint *fbo);

#endif
