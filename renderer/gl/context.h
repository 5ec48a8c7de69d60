/* renderer/gl/context.h - a headless OpenGL 3.3+ core context behind one small interface.
 *
 * Two backends give the same llvmpipe pixels: OSMesa (Mesa <= 25.0) and EGL
 * surfaceless (the successor; software device). gl_context.c is the only file
 * that includes GL/osmesa.h or EGL headers. The context has no default
 * framebuffer worth drawing into: render into FBOs.
 *
 * GL entry points are called through the table in the context (loaded with the
 * backend's GetProcAddress), never by their global names, because libOSMesa and
 * libGL both export gl* symbols and only the backend's own are valid for it.
 *
 *     mmd_gl_context *c; mmd_gl_context_create(MMD_GL_OSMESA, 2, &c, &err);
 *     const mmd_gl *gl = mmd_gl_context_api(c); gl->Clear(GL_COLOR_BUFFER_BIT);
 *     mmd_gl_context_free(c);
 */
#ifndef MMD_RENDERER_GL_CONTEXT_H
#define MMD_RENDERER_GL_CONTEXT_H

#ifndef GL_GLEXT_PROTOTYPES
#define GL_GLEXT_PROTOTYPES 1
#endif
#include <GL/gl.h>
#include <GL/glext.h>
#include <stddef.h>

#include "core/status.h"
#include "renderer/gl/backend.h"

#define MMD_GL_FUNCS(X)                                                                        \
    X(ActiveTexture) X(AttachShader) X(BindAttribLocation) X(BindBuffer) X(BindFramebuffer)     \
    X(BindRenderbuffer) X(BindTexture) X(BindVertexArray) X(BlendEquationSeparate) X(BlendFuncSeparate) \
    X(BlitFramebuffer) X(BufferData) X(BufferSubData) X(CheckFramebufferStatus) X(Clear)        \
    X(ClearColor) X(ClearDepth) X(ClearStencil) X(ColorMask) X(CompileShader)                   \
    X(CompressedTexImage2D) X(CopyTexSubImage2D) X(CreateProgram) X(CreateShader) X(CullFace) X(DeleteBuffers)       \
    X(DeleteFramebuffers) X(DeleteProgram) X(DeleteRenderbuffers) X(DeleteShader)               \
    X(DeleteTextures) X(DeleteVertexArrays) X(DepthFunc) X(DepthMask) X(Disable)                \
    X(DisableVertexAttribArray) X(DrawArrays) X(DrawBuffer) X(DrawBuffers) X(DrawElements) X(Enable) \
    X(EnableVertexAttribArray) X(Finish) X(Flush) X(FramebufferRenderbuffer) X(FramebufferTexture2D)     \
    X(FrontFace) X(GenBuffers) X(GenFramebuffers) X(GenRenderbuffers) X(GenTextures)            \
    X(GenVertexArrays) X(GenerateMipmap) X(GetError) X(GetIntegerv) X(GetProgramInfoLog)        \
    X(GetProgramiv) X(GetShaderInfoLog) X(GetShaderiv) X(GetString) X(GetUniformLocation)       \
    X(LinkProgram) X(PixelStorei) X(PolygonOffset) X(ReadBuffer) X(ReadPixels) X(Scissor)                  \
    X(RenderbufferStorageMultisample) X(ShaderSource) X(StencilFunc) X(StencilMask)             \
    X(StencilOp) X(TexImage2D) X(TexParameteri) X(Uniform1f) X(Uniform1i) X(Uniform3fv)         \
    X(Uniform4fv) X(UniformMatrix4fv) X(UseProgram) X(VertexAttrib4f) X(VertexAttribPointer)    \
    X(Viewport) X(GenSamplers) X(DeleteSamplers) X(BindSampler)   \
    X(SamplerParameteri) X(Uniform2f) X(GetStringi) X(Uniform1ui) X(Uniform2fv) X(TexSubImage2D) \
    X(TexImage3D) X(ClipControl) X(PolygonMode)

/* Function table: gl->Clear(...) etc. */
typedef struct mmd_gl {
#define MMD_GL_FIELD(n) __typeof__(&gl##n) n;
    MMD_GL_FUNCS(MMD_GL_FIELD)
#undef MMD_GL_FIELD
} mmd_gl;

typedef struct mmd_gl_context mmd_gl_context;

/* Create and make current a core 3.3+ context. threads > 0 sets LP_NUM_THREADS
 * (llvmpipe's rasteriser threads) before Mesa starts. Returns MMD_OK, or
 * MMD_E_GL with err (NULL allowed) saying why. */
mmd_status mmd_gl_context_create(mmd_gl_backend backend, int threads, mmd_gl_context **out, mmd_error *err);
void mmd_gl_context_free(mmd_gl_context *c); /* NULL is a no-op */
/* Make c current on the calling thread again (after another context was
 * used); MMD_E_GL naming the backend when it cannot. */
mmd_status mmd_gl_context_make_current(mmd_gl_context *c, mmd_error *err);
const mmd_gl *mmd_gl_context_api(const mmd_gl_context *c);
/* "4.5 (Core Profile) Mesa 22.3.6 (llvmpipe ...)" */
const char *mmd_gl_context_version(const mmd_gl_context *c);

#endif
