/* renderer/gl/backend.h - which GL window-system backend makes the context.
 *
 * Its own header so that renderer/gl/context.h (GL headers, the function
 * table) and renderer/gl/render.h (the renderer API, no GL types) share the
 * enum without either including the other.
 */
#ifndef MMD_RENDERER_GL_BACKEND_H
#define MMD_RENDERER_GL_BACKEND_H

/* MMD_GL_EGL_GPU: EGL's device platform on the first hardware device (a GPU;
 * pixels may differ from llvmpipe's); an error where there is none. */
typedef enum mmd_gl_backend { MMD_GL_OSMESA = 0, MMD_GL_EGL = 1, MMD_GL_EGL_GPU = 2 } mmd_gl_backend;

/* OSMesa, or EGL when this build has no OSMesa (`make GL=egl`; Mesa >= 25.1). */
mmd_gl_backend mmd_gl_default_backend(void);

#endif
