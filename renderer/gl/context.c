/* renderer/gl/context.c - OSMesa and EGL-surfaceless core contexts (the only GL window-system code).
 *
 * Mesa 25.1 removed OSMesa: built with MMD_NO_OSMESA (`make GL=egl`, chosen by
 * the Makefile when pkg-config finds no osmesa) this file has EGL alone, EGL is
 * the default backend and asking for OSMesa is a clear error. */
#include "renderer/gl/context.h"

#include <EGL/egl.h>
#include <EGL/eglext.h>
#ifndef MMD_NO_OSMESA
#include <GL/osmesa.h>
#endif
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "renderer/base/sanitizer.h"

struct mmd_gl_context {
    mmd_gl_backend backend;
#ifndef MMD_NO_OSMESA
    OSMesaContext osmesa;
    unsigned char osmesa_buf[4 * 4 * 4]; /* 4x4 RGBA: OSMesa needs a bound buffer */
#endif
    EGLDisplay egl_display;
    EGLContext egl_context;
    mmd_gl gl;
    char version[256];
};

typedef void (*any_proc)(void);

mmd_gl_backend mmd_gl_default_backend(void)
{
#ifdef MMD_NO_OSMESA
    return MMD_GL_EGL;
#else
    return MMD_GL_OSMESA;
#endif
}

static any_proc get_proc(const mmd_gl_context *c, const char *name)
{
#ifndef MMD_NO_OSMESA
    if (c->backend == MMD_GL_OSMESA)
        return (any_proc)OSMesaGetProcAddress(name);
#endif
    (void)c;
    return (any_proc)eglGetProcAddress(name);
}

static mmd_status load_table(mmd_gl_context *c, mmd_error *err)
{
#define MMD_GL_LOAD(n)                                                                 \
    c->gl.n = (__typeof__(c->gl.n))get_proc(c, "gl" #n);                              \
    if (!c->gl.n)                                                                      \
        return mmd_fail(err, MMD_E_GL, "GL: entry point gl%s missing", #n);
    MMD_GL_FUNCS(MMD_GL_LOAD)
#undef MMD_GL_LOAD
    return MMD_OK;
}

static mmd_status create_osmesa(mmd_gl_context *c, mmd_error *err)
{
#ifdef MMD_NO_OSMESA
    (void)c;
    return mmd_fail(err, MMD_E_GL, "OSMesa is not built in (this mmdrender was built with GL=egl): use --gl egl");
#else
    const int attribs[] = {OSMESA_FORMAT, OSMESA_RGBA, OSMESA_DEPTH_BITS, 0,
                           OSMESA_PROFILE, OSMESA_CORE_PROFILE,
                           OSMESA_CONTEXT_MAJOR_VERSION, 3, OSMESA_CONTEXT_MINOR_VERSION, 3, 0};
    c->osmesa = OSMesaCreateContextAttribs(attribs, NULL);
    if (!c->osmesa)
        return mmd_fail(err, MMD_E_GL, "OSMesa: cannot create a core 3.3 context");
    return mmd_gl_context_make_current(c, err);
#endif
}

/* Prefer Mesa's software EGL device (never a hardware driver, so pixels match
 * OSMesa's llvmpipe); else the surfaceless platform. gpu: the first device that
 * is not Mesa's software one, and nothing else. */
static EGLDisplay open_egl_display(bool gpu)
{
    const char *cext = eglQueryString(EGL_NO_DISPLAY, EGL_EXTENSIONS);
    PFNEGLGETPLATFORMDISPLAYEXTPROC get_display =
        (PFNEGLGETPLATFORMDISPLAYEXTPROC)eglGetProcAddress("eglGetPlatformDisplayEXT");
    if (!cext || !get_display)
        return EGL_NO_DISPLAY;
    if (strstr(cext, "EGL_EXT_device_enumeration") && strstr(cext, "EGL_EXT_platform_device")) {
        PFNEGLQUERYDEVICESEXTPROC query_devices =
            (PFNEGLQUERYDEVICESEXTPROC)eglGetProcAddress("eglQueryDevicesEXT");
        PFNEGLQUERYDEVICESTRINGEXTPROC device_string =
            (PFNEGLQUERYDEVICESTRINGEXTPROC)eglGetProcAddress("eglQueryDeviceStringEXT");
        EGLDeviceEXT devices[16];
        EGLint n = 0;
        if (query_devices && device_string && query_devices(16, devices, &n)) {
            for (EGLint i = 0; i < n; i++) {
                const char *dext = device_string(devices[i], EGL_EXTENSIONS);
                bool software = dext && strstr(dext, "EGL_MESA_device_software");
                if (dext && software != gpu) {
                    EGLDisplay d = get_display(EGL_PLATFORM_DEVICE_EXT, devices[i], NULL);
                    if (d != EGL_NO_DISPLAY)
                        return d;
                }
            }
        }
    }
    if (!gpu && strstr(cext, "EGL_MESA_platform_surfaceless"))
        return get_display(EGL_PLATFORM_SURFACELESS_MESA, EGL_DEFAULT_DISPLAY, NULL);
    return EGL_NO_DISPLAY;
}

/* Mesa's EGL loads swrast_dri.so, which keeps a few blocks after eglTerminate
 * and is then unloaded, so LeakSanitizer cannot name (or suppress) it: under
 * ASan, allocations made on the EGL context's thread between create and free
 * are not leak-checked (tests/fuzz/lsan.supp covers OSMesa by library name). */
#ifdef MMD_ASAN
#include <sanitizer/lsan_interface.h>
#define LSAN_OFF() __lsan_disable()
#define LSAN_ON() __lsan_enable()
#else
#define LSAN_OFF() ((void)0)
#define LSAN_ON() ((void)0)
#endif

static mmd_status create_egl_inner(mmd_gl_context *c, mmd_error *err);
static mmd_status create_egl(mmd_gl_context *c, mmd_error *err)
{
    LSAN_OFF(); /* LSAN_ON() in mmd_gl_context_free */
    return create_egl_inner(c, err);
}

static mmd_status create_egl_inner(mmd_gl_context *c, mmd_error *err)
{
    bool gpu = c->backend == MMD_GL_EGL_GPU;
    c->egl_display = open_egl_display(gpu);
    EGLint major = 0, minor = 0;
    if (c->egl_display == EGL_NO_DISPLAY || !eglInitialize(c->egl_display, &major, &minor)) {
        c->egl_display = EGL_NO_DISPLAY;
        return mmd_fail(err, MMD_E_GL, "%s",
                        gpu ? "EGL: no GPU device (EGL_EXT_device_enumeration lists none but Mesa's software one)"
                            : "EGL: no software/surfaceless display");
    }
    if (!eglBindAPI(EGL_OPENGL_API))
        return mmd_fail(err, MMD_E_GL, "EGL: desktop OpenGL API unavailable");
    const EGLint attribs[] = {EGL_CONTEXT_MAJOR_VERSION, 3, EGL_CONTEXT_MINOR_VERSION, 3,
                              EGL_CONTEXT_OPENGL_PROFILE_MASK, EGL_CONTEXT_OPENGL_CORE_PROFILE_BIT,
                              EGL_NONE};
    c->egl_context = eglCreateContext(c->egl_display, EGL_NO_CONFIG_KHR, EGL_NO_CONTEXT, attribs);
    if (c->egl_context == EGL_NO_CONTEXT)
        return mmd_fail(err, MMD_E_GL, "EGL: cannot create a core 3.3 context (0x%x)", (unsigned)eglGetError());
    return mmd_gl_context_make_current(c, err);
}

mmd_status mmd_gl_context_create(mmd_gl_backend backend, int threads, mmd_gl_context **out, mmd_error *err)
{
    if (threads > 0) {
        char v[16];
        snprintf(v, sizeof v, "%d", threads);
        setenv("LP_NUM_THREADS", v, 1); /* read by llvmpipe when its screen is created */
    }
    mmd_gl_context *c = calloc(1, sizeof *c);
    if (!c)
        return mmd_fail(err, MMD_E_GL, "out of memory");
    c->backend = backend;
    c->egl_display = EGL_NO_DISPLAY;
    c->egl_context = EGL_NO_CONTEXT;
    mmd_status rc = backend != MMD_GL_OSMESA ? create_egl(c, err) : create_osmesa(c, err);
    if (rc == MMD_OK)
        rc = load_table(c, err);
    if (rc == MMD_OK) {
        const char *v = (const char *)c->gl.GetString(GL_VERSION);
        const char *r = (const char *)c->gl.GetString(GL_RENDERER);
        GLint maj = 0, min = 0;
        c->gl.GetIntegerv(GL_MAJOR_VERSION, &maj);
        c->gl.GetIntegerv(GL_MINOR_VERSION, &min);
        snprintf(c->version, sizeof c->version, "%s (%s)", v ? v : "?", r ? r : "?");
        if (maj * 10 + min < 33)
            rc = mmd_fail(err, MMD_E_GL, "GL: need 3.3 core, got %s", c->version);
    }
    if (rc != MMD_OK) {
        mmd_gl_context_free(c);
        return rc;
    }
    *out = c;
    return MMD_OK;
}

mmd_status mmd_gl_context_make_current(mmd_gl_context *c, mmd_error *err)
{
#ifndef MMD_NO_OSMESA
    if (c->backend == MMD_GL_OSMESA)
        return OSMesaMakeCurrent(c->osmesa, c->osmesa_buf, GL_UNSIGNED_BYTE, 4, 4)
                   ? MMD_OK
                   : mmd_fail(err, MMD_E_GL, "OSMesa: make current failed");
#endif
    return eglMakeCurrent(c->egl_display, EGL_NO_SURFACE, EGL_NO_SURFACE, c->egl_context)
               ? MMD_OK
               : mmd_fail(err, MMD_E_GL, "EGL: make current failed");
}

void mmd_gl_context_free(mmd_gl_context *c)
{
    if (!c)
        return;
#ifndef MMD_NO_OSMESA
    if (c->osmesa)
        OSMesaDestroyContext(c->osmesa);
#endif
    if (c->egl_display != EGL_NO_DISPLAY) {
        eglMakeCurrent(c->egl_display, EGL_NO_SURFACE, EGL_NO_SURFACE, EGL_NO_CONTEXT);
        if (c->egl_context != EGL_NO_CONTEXT)
            eglDestroyContext(c->egl_display, c->egl_context);
        eglReleaseThread(); /* no eglTerminate: Mesa would dlclose its driver, hiding its frames from LeakSanitizer suppressions */
    }
    if (c->backend != MMD_GL_OSMESA)
        LSAN_ON();
    free(c);
}

const mmd_gl *mmd_gl_context_api(const mmd_gl_context *c) { return &c->gl; }
const char *mmd_gl_context_version(const mmd_gl_context *c) { return c->version; }
