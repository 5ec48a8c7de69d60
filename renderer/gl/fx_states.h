/* renderer/gl/fx_states.h - a MikuMikuEffect pass's DX9 render states as GL
 * state: one table of the states we apply (docs/effects.md "Render states"),
 * their D3D names and numbers, and MME's defaults for what a pass does not set.
 *
 *     mmd_fx_states s;
 *     mmd_fx_states_of(fx, pass, &s);   (a value may name a global: its initializer)
 *     mmd_fx_states_apply(gl, &s);      (before the pass's draw)
 *     mmd_fx_states_reset(gl);          (after the effect: GL's defaults the renderer assumes)
 *
 * A state outside the table, or a value it does not know, keeps its default. */
#ifndef MMD_RENDERER_GL_FX_STATES_H
#define MMD_RENDERER_GL_FX_STATES_H

#include <stdbool.h>

#include "core/fx.h"
#include "renderer/gl/context.h"

typedef struct mmd_fx_states {
    bool blend, separate_alpha, ztest, zwrite, stencil, cull_cw, cull_ccw;
    GLenum src, dst, op, src_alpha, dst_alpha, op_alpha;
    GLenum zfunc;
    unsigned colour_write; /* D3D's bits: 1 red, 2 green, 4 blue, 8 alpha */
    GLenum stencil_func, stencil_fail, stencil_zfail, stencil_pass;
    int stencil_ref;
    unsigned stencil_mask, stencil_write_mask;
    bool alpha_test;       /* AlphaTestEnable: the translator's discard (uniforms, mmd_fx_states_alpha_func) */
    unsigned alpha_func;   /* D3DCMPFUNC's number, 1 NEVER .. 8 ALWAYS */
    unsigned alpha_ref;    /* AlphaRef, 0..255 against the colour's alpha x 255 */
    GLenum fill;           /* FillMode: GL_POINT, GL_LINE or GL_FILL (glPolygonMode) */
} mmd_fx_states;

/* pass's states over MME's defaults (alpha blending SRCALPHA/INVSRCALPHA, depth
 * test LESSEQUAL and write on, no culling, all colours written, no stencil). */
void mmd_fx_states_of(const mmd_fx *fx, const mmd_fx_pass *pass, mmd_fx_states *out);
/* The two halves of mmd_fx_states_of: MME's defaults, and pass's states over
 * what s holds (an object effect's draw starts from the material's culling). */
void mmd_fx_states_default(mmd_fx_states *out);
void mmd_fx_states_set(const mmd_fx *fx, const mmd_fx_pass *pass, mmd_fx_states *s);
void mmd_fx_states_apply(const mmd_gl *gl, const mmd_fx_states *s);
/* The translator's alpha test uniform mmd_alpha_func (renderer/fx/cross.c):
 * D3DCMPFUNC's number while AlphaTestEnable holds and the function is not
 * ALWAYS, else 0 (no test). */
int mmd_fx_states_alpha_func(const mmd_fx_states *s);
/* Blend equation ADD, all colours written, no stencil test, polygons filled. */
void mmd_fx_states_reset(const mmd_gl *gl);

#endif
