/* renderer/gl/fx_program.h - link a translated effect pass (GLSL 330 from
 * renderer/fx/translate.h) on the current GL context (OSMesa or EGL, no window).
 *
 * The vertex inputs and fragment outputs carry their locations in the GLSL
 * (layout(location)), so nothing is bound here. gl/ stays free of the
 * translator: it is handed two strings.
 */
#ifndef MMD_RENDERER_GL_FX_PROGRAM_H
#define MMD_RENDERER_GL_FX_PROGRAM_H

#include "core/status.h"
#include "renderer/gl/context.h"

/* Compile vs and fs and link them. On MMD_OK *out is the program (the
 * caller deletes it). Otherwise MMD_E_UNSUPPORTED with err->msg "vertex
 * shader: ...", "pixel shader: ..." or "link: ..." and the first error line
 * of the driver's info log (Mesa: "0:12(3): error: ..."). */
mmd_status mmd_gl_fx_program_link(const mmd_gl *gl, const char *vs, const char *fs, GLuint *out, mmd_error *err);

#endif
