/* renderer/gl/shader.h - build GL programs from the GLSL embedded from shaders/.
 *
 * Shader files carry no #version line: the builder prepends "#version 330 core"
 * and the caller's #defines, and binds the vertex attributes to the fixed
 * locations below, so every program shares one vertex layout.
 */
#ifndef MMD_RENDERER_GL_SHADER_H
#define MMD_RENDERER_GL_SHADER_H

#include <stdbool.h>
#include <stddef.h>

#include "renderer/gl/context.h"

enum {
    MMD_ATTR_POSITION = 0, /* vec3, LH model space */
    MMD_ATTR_NORMAL = 1,   /* vec3, LH */
    MMD_ATTR_UV = 2,       /* vec2, D3D top-left */
    MMD_ATTR_ADD_UV1 = 3,  /* vec4: sub-texture UV or vertex colour */
    MMD_ATTR_EDGE = 4,     /* float: per-vertex edge scale */
    MMD_ATTR_GLOW = 5,     /* vec4: per-vertex AutoLuminous glow (rgb add, material-colour weight) */
};

/* Embedded source by name (file name without .glsl), NULL when absent. */
const char *mmd_gl_shader_source(const char *name);
/* Compile and link vs_name + fs_name with `defines` (may be NULL) prepended
 * into *out; MMD_E_GL with the compiler log in err (*out untouched). */
mmd_status mmd_gl_program_build(const mmd_gl *gl, const char *vs_name, const char *fs_name, const char *defines,
                                GLuint *out, mmd_error *err);
/* What every program goes through: each stage compiled from its GLSL parts
 * (concatenated), linked into *out, the fixed attribute locations above bound
 * first when fixed_attributes. MMD_E_GL with err->section "vertex shader",
 * "pixel shader" or "link" and err->msg the driver's info log (*out untouched). */
mmd_status mmd_gl_program_link(const mmd_gl *gl, const char *const *vs, int vs_count, const char *const *fs,
                               int fs_count, bool fixed_attributes, GLuint *out, mmd_error *err);

/* One field of a program variant key: GLSL macro name, shift, width in bits
 * (rows made from a variant list, renderer/gl/render_internal.h). */
typedef struct mmd_variant_bit {
    const char *name;
    int shift, bits;
} mmd_variant_bit;
/* "#define NAME value\n" for each of rows[0..n), the value read from key, into
 * out (size bytes, NUL-terminated); returns the length written (snprintf's). */
int mmd_gl_variant_defines(const mmd_variant_bit *rows, size_t n, int key, char *out, size_t size);

#endif
