/* renderer/gl/render.c - MMD passes on a headless GL context (DESIGN E).
 *
 * Per frame: [self-shadow map] -> per model in the order added: colour pass
 * (materials in file order, alpha-blended, depth write, no sorting) then the
 * edge pass of that model (inverted hull) -> ground shadows -> MSAA resolve ->
 * readback. Colour before edge per model is MMD's own order: the hull sits
 * behind the surface, so only the silhouette band survives the depth test.
 *
 * Geometry arrives in MMD's left-handed space and stays so in the buffers;
 * u_world mirrors z for GL (with the camera mirrored the same way in
 * mmd_camera_matrices, the on-screen image is MMD's, so MMD's clockwise front
 * faces stay clockwise on screen). The projection is also mirrored in y, so the
 * image lands in GL's bottom-up framebuffer upside down and glReadPixels
 * returns the top row first without a CPU flip; that mirror turns the front
 * faces counter-clockwise: glFrontFace(GL_CCW).
 */
#include "renderer/gl/render.h"

#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "renderer/gl/context.h"
#include "renderer/gl/shader.h"
#include "renderer/image/decode.h"
#include "renderer/gl/render_internal.h"
#include "renderer/image/texpath.h"
#include "renderer/gl/toon.h"

/* Edge width: offset = n * vertex scale * material size * k with
 * k = |eye - bone#1| * clamp(fov/30, 0, 1) * 0.001 * EDGE_K (nanoem's rule).
 * With EDGE_K = 1 a 1.0 edge is about 2 px wide at 1080p (1.3 px at 720p),
 * whatever the camera distance, which is what MMD shows. */
#define EDGE_K 1.0f
#define MAX_THREADS 16
/* colour-pass program variants: tex(1) | sphere mode(2) | self-shadow(1) | vertex colour(1) | specular(1) | tint(1) */
#define MAIN_VARIANTS 128

typedef struct gpu_material {
    GLuint tex, sphere, toon; /* 0 = none (white bound) */
} gpu_material;

typedef struct gpu_model {
    const mmd_model *m;
    GLuint vao, vbo_pos, vbo_nrm, vbo_uv, vbo_add, vbo_edge, ebo;
    GLuint *tex_repeat, *tex_clamp; /* per model texture, lazily loaded; 0 = not tried */
    bool *tex_tried_r, *tex_tried_c;
    gpu_material *mats;
    mmd_material_state *base; /* the model's own material values */
    float *skin_pos, *skin_nrm;
} gpu_model;

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
    mmd_gl_context *ctx;
    const mmd_gl *gl;
    GLuint prog_main[MAIN_VARIANTS], prog_flat, prog_depth, prog_ground;
    GLint u_main[MAIN_VARIANTS][40], u_flat[4], u_depth[4], u_ground[4];
    GLuint fbo_ms, rb_ms_color, rb_ms_depth;    /* multisampled target (samples > 1) */
    GLuint fbo_res, rb_res_color, rb_res_depth; /* resolve target (or the target itself) */
    GLuint fbo_shadow, tex_shadow;
    int shadow_dirty[4]; /* x0, y0, x1, y1: shadow map texels drawn since the last clear */
    GLuint tex_white, toon_shared[10];
    gpu_model *models;
    size_t model_count, model_cap;
    mmd_render_timings timings;
    pool pool;
    worker_arg wargs[MAX_THREADS];
    int threads;
};

/* uniform slots of the main program */
enum {
    U_WORLD, U_VIEW, U_PROJ, U_SHADOW_VP, U_DIFFUSE, U_AMBIENT, U_SPECULAR, U_POWER, U_LIGHT_COLOR,
    U_LIGHT_DIR, U_EYE, U_TEX, U_SPHERE, U_TOON, U_SHADOW_MAP, U_SHADOW_MODE, U_TEX_MUL, U_TEX_ADD, U_SPH_MUL, U_SPH_ADD, U_TOON_MUL,
    U_TOON_ADD, U_MAIN_COUNT
};
static const char *const main_uniforms[U_MAIN_COUNT] = {
    "u_world", "u_view", "u_proj", "u_shadow_vp", "u_diffuse", "u_ambient", "u_specular", "u_power",
    "u_light_color", "u_light_dir", "u_eye", "u_tex", "u_sphere", "u_toon", "u_shadow_map",
    "u_shadow_mode", "u_tex_mul", "u_tex_add",
    "u_sph_mul", "u_sph_add", "u_toon_mul", "u_toon_add"};
enum { F_WORLD, F_VIEWPROJ, F_EDGE, F_COLOR };

double mmd_render_now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec * 1e-6;
}

/* ---------------------------------------------------------------- thread pool */

static void chunk(uint32_t total, int parts, int i, uint32_t *first, uint32_t *count)
{
    uint64_t a = (uint64_t)total * (uint64_t)i / (uint64_t)parts;
    uint64_t b = (uint64_t)total * (uint64_t)(i + 1) / (uint64_t)parts;
    *first = (uint32_t)a;
    *count = (uint32_t)(b - a);
}

static void *worker_main(void *arg)
{
    worker_arg *w = arg;
    pool *p = w->p;
    unsigned seen = 0;
    for (;;) {
        pthread_mutex_lock(&p->mu);
        while (!p->quit && p->gen == seen)
            pthread_cond_wait(&p->cv_go, &p->mu);
        if (p->quit) {
            pthread_mutex_unlock(&p->mu);
            return NULL;
        }
        seen = p->gen;
        mmd_render_job fn = p->fn;
        void *ctx = p->ctx;
        uint32_t total = p->total;
        pthread_mutex_unlock(&p->mu);
        uint32_t first, count;
        chunk(total, p->n + 1, w->index + 1, &first, &count);
        if (count)
            fn(ctx, first, count);
        pthread_mutex_lock(&p->mu);
        if (--p->pending == 0)
            pthread_cond_signal(&p->cv_done);
        pthread_mutex_unlock(&p->mu);
    }
}

void mmd_renderer_parallel(mmd_renderer *r, mmd_render_job fn, void *ctx, uint32_t n)
{
    pool *p = &r->pool;
    if (p->n == 0 || n < 1024) {
        if (n)
            fn(ctx, 0, n);
        return;
    }
    pthread_mutex_lock(&p->mu);
    p->fn = fn;
    p->ctx = ctx;
    p->total = n;
    p->pending = p->n;
    p->gen++;
    pthread_cond_broadcast(&p->cv_go);
    pthread_mutex_unlock(&p->mu);
    uint32_t first, count;
    chunk(n, p->n + 1, 0, &first, &count);
    if (count)
        fn(ctx, first, count);
    pthread_mutex_lock(&p->mu);
    while (p->pending > 0)
        pthread_cond_wait(&p->cv_done, &p->mu);
    pthread_mutex_unlock(&p->mu);
}

static void pool_start(mmd_renderer *r, int threads)
{
    pool *p = &r->pool;
    pthread_mutex_init(&p->mu, NULL);
    pthread_cond_init(&p->cv_go, NULL);
    pthread_cond_init(&p->cv_done, NULL);
    int want = threads - 1;
    if (want > MAX_THREADS)
        want = MAX_THREADS;
    for (int i = 0; i < want; i++) {
        r->wargs[i].p = p;
        r->wargs[i].index = i;
        if (pthread_create(&p->th[i], NULL, worker_main, &r->wargs[i]) != 0)
            break;
        p->n++;
    }
}

static void pool_stop(pool *p)
{
    pthread_mutex_lock(&p->mu);
    p->quit = true;
    pthread_cond_broadcast(&p->cv_go);
    pthread_mutex_unlock(&p->mu);
    for (int i = 0; i < p->n; i++)
        pthread_join(p->th[i], NULL);
    pthread_mutex_destroy(&p->mu);
    pthread_cond_destroy(&p->cv_go);
    pthread_cond_destroy(&p->cv_done);
}

/* ---------------------------------------------------------------- small maths */

static void mat_mul(const float a[16], const float b[16], float out[16])
{
    float t[16];
    for (int c = 0; c < 4; c++)
        for (int rr = 0; rr < 4; rr++) {
            float s = 0;
            for (int k = 0; k < 4; k++)
                s += a[k * 4 + rr] * b[c * 4 + k];
            t[c * 4 + rr] = s;
        }
    memcpy(out, t, sizeof t);
}

static void mat_identity(float m[16])
{
    memset(m, 0, 16 * sizeof(float));
    m[0] = m[5] = m[10] = m[15] = 1;
}

static void vec_norm(float v[3])
{
    float l = sqrtf(v[0] * v[0] + v[1] * v[1] + v[2] * v[2]);
    if (l > 1e-12f) {
        v[0] /= l;
        v[1] /= l;
        v[2] /= l;
    }
}

static void vec_cross(const float a[3], const float b[3], float o[3])
{
    float t[3] = {a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]};
    memcpy(o, t, sizeof t);
}

static float vec_dot(const float a[3], const float b[3]) { return a[0] * b[0] + a[1] * b[1] + a[2] * b[2]; }

/* MMD's self-shadow light camera (nanoem ShadowCamera, LH): view basis from
 * the camera and light directions, trapezoidal projection in light-view y. */
static void shadow_matrix(const mmd_render_view *v, const float light_dir[3], int mode, float dist_param,
                          float out[16])
{
    float cd[3] = {v->target[0] - v->eye[0], v->target[1] - v->eye[1], v->target[2] - v->eye[2]};
    if (vec_dot(cd, cd) < 1e-12f) {
        cd[0] = 0;
        cd[1] = 0;
        cd[2] = 1;
    }
    vec_norm(cd);
    float ld[3] = {light_dir[0], light_dir[1], light_dir[2]};
    vec_norm(ld);
    float x[3];
    vec_cross(cd, ld, x);
    if (vec_dot(x, x) < 1e-10f) { /* camera along the light: any perpendicular */
        float up[3] = {0, 1, 0};
        if (fabsf(ld[1]) > 0.9f) {
            up[1] = 0;
            up[0] = 1;
        }
        vec_cross(up, ld, x);
    }
    vec_norm(x);
    float y[3];
    vec_cross(ld, x, y);
    float o[3] = {v->eye[0] - 50 * ld[0], v->eye[1] - 50 * ld[1], v->eye[2] - 50 * ld[2]};
    float view[16] = {x[0], y[0], ld[0], 0, x[1], y[1], ld[1], 0, x[2], y[2], ld[2], 0,
                      -vec_dot(x, o), -vec_dot(y, o), -vec_dot(ld, o), 1};
    float d = dist_param;
    float angle = fabsf(vec_dot(cd, ld));
    float p[16] = {0};
    float c0, c1, c2;
    if (mode == 2) {
        p[0] = 3 * d;
        p[5] = 3 * d;
        p[6] = 1.5f * d;
        p[7] = 3 * d;
        c0 = 3.0f, c1 = -4.7f, c2 = 1.8f;
    } else {
        p[0] = 2 * d;
        p[5] = 2 * d;
        p[6] = 0.5f * d;
        p[7] = d;
        c0 = 1.0f, c1 = -1.3f, c2 = 0.4f;
    }
    p[10] = 0.15f * d;
    p[13] = -1;
    p[15] = 1;
    if (angle > 0.9f) {
        memset(p, 0, sizeof p);
        p[0] = d;
        p[5] = d;
        p[6] = 0.5f * d * (1 - angle);
        p[7] = d * (1 - angle);
        p[10] = 0.15f * d;
        p[13] = angle - 1;
        p[15] = 1;
    } else if (angle > 0.8f) {
        float t = 10 * (angle - 0.8f);
        p[0] += (d - p[0]) * t;
        p[5] += (d - p[5]) * t;
        p[7] = d * (c0 + c1 * t + c2 * t * t);
        p[6] = 0.5f * p[7];
        p[13] = -1.0f + 0.9f * t;
    }
    mat_mul(p, view, out);
}

/* ---------------------------------------------------------------- textures */

static GLuint upload_rgba(mmd_renderer *r, int w, int h, const uint8_t *px, bool repeat, bool mip)
{
    const mmd_gl *gl = r->gl;
    GLuint t;
    gl->GenTextures(1, &t);
    gl->BindTexture(GL_TEXTURE_2D, t);
    gl->PixelStorei(GL_UNPACK_ALIGNMENT, 1);
    /* top row first: texture row 0 is v = 0, MMD's D3D top-left UV origin */
    gl->TexImage2D(GL_TEXTURE_2D, 0, GL_RGBA8, w, h, 0, GL_RGBA, GL_UNSIGNED_BYTE, px);
    GLint wrap = repeat ? GL_REPEAT : GL_CLAMP_TO_EDGE;
    gl->TexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_S, wrap);
    gl->TexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_T, wrap);
    gl->TexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_LINEAR);
    if (mip) {
        gl->GenerateMipmap(GL_TEXTURE_2D);
        gl->TexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_LINEAR_MIPMAP_LINEAR);
    } else {
        gl->TexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_LINEAR);
    }
    return t;
}

static GLuint upload_image(mmd_renderer *r, const mmd_image *img, bool repeat, bool mip)
{
    if (img->format == MMD_IMAGE_RGBA8)
        return upload_rgba(r, img->width, img->height, img->data, repeat, mip);
    const mmd_gl *gl = r->gl;
    GLenum fmt = img->format == MMD_IMAGE_DXT1   ? GL_COMPRESSED_RGBA_S3TC_DXT1_EXT
                 : img->format == MMD_IMAGE_DXT3 ? GL_COMPRESSED_RGBA_S3TC_DXT3_EXT
                                                 : GL_COMPRESSED_RGBA_S3TC_DXT5_EXT;
    GLuint t;
    gl->GenTextures(1, &t);
    gl->BindTexture(GL_TEXTURE_2D, t);
    int levels = mip ? img->levels : 1;
    for (int i = 0; i < levels; i++) {
        int w = img->width >> i, h = img->height >> i;
        gl->CompressedTexImage2D(GL_TEXTURE_2D, i, fmt, w > 0 ? w : 1, h > 0 ? h : 1, 0,
                                 (GLsizei)img->level_size[i], img->data + img->level_offset[i]);
    }
    GLint wrap = repeat ? GL_REPEAT : GL_CLAMP_TO_EDGE;
    gl->TexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAX_LEVEL, levels - 1);
    gl->TexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_S, wrap);
    gl->TexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_T, wrap);
    gl->TexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_LINEAR);
    gl->TexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, levels > 1 ? GL_LINEAR_MIPMAP_LINEAR : GL_LINEAR);
    return t;
}

static GLuint model_texture(mmd_renderer *r, gpu_model *g, const char *model_dir, int32_t idx, bool repeat)
{
    if (idx < 0 || (uint32_t)idx >= g->m->texture_count)
        return 0;
    GLuint *slot = repeat ? &g->tex_repeat[idx] : &g->tex_clamp[idx];
    bool *tried = repeat ? &g->tex_tried_r[idx] : &g->tex_tried_c[idx];
    if (*tried)
        return *slot;
    *tried = true;
    bool warned = repeat ? g->tex_tried_c[idx] : g->tex_tried_r[idx]; /* other wrap failed before */
    char path[4096], why[512];
    const char *dir = model_dir && *model_dir ? model_dir : ".";
    int rc = mmd_texpath_resolve(dir, g->m->textures[idx], r->o.allow_outside_assets, path, sizeof path,
                                 why, sizeof why);
    mmd_image img;
    if (rc == MMD_TEXPATH_FOUND && mmd_image_load_file(path, &img, why, sizeof why) == 0) {
        *slot = upload_image(r, &img, repeat, repeat);
        mmd_image_free(&img);
        return *slot;
    }
    if (!warned)
        fprintf(stderr, "warning: texture \"%s\" of model \"%s\": %s (drawn white)\n", g->m->textures[idx],
                g->m->name, why);
    return 0;
}

/* ---------------------------------------------------------------- targets */

static int make_targets(mmd_renderer *r, char *msg, size_t msg_size)
{
    const mmd_gl *gl = r->gl;
    int w = r->o.width, h = r->o.height;
    gl->GenFramebuffers(1, &r->fbo_res);
    gl->BindFramebuffer(GL_FRAMEBUFFER, r->fbo_res);
    gl->GenRenderbuffers(1, &r->rb_res_color);
    gl->BindRenderbuffer(GL_RENDERBUFFER, r->rb_res_color);
    gl->RenderbufferStorageMultisample(GL_RENDERBUFFER, 0, GL_RGBA8, w, h);
    gl->FramebufferRenderbuffer(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_RENDERBUFFER, r->rb_res_color);
    if (r->o.samples <= 1) {
        gl->GenRenderbuffers(1, &r->rb_res_depth);
        gl->BindRenderbuffer(GL_RENDERBUFFER, r->rb_res_depth);
        gl->RenderbufferStorageMultisample(GL_RENDERBUFFER, 0, GL_DEPTH24_STENCIL8, w, h);
        gl->FramebufferRenderbuffer(GL_FRAMEBUFFER, GL_DEPTH_STENCIL_ATTACHMENT, GL_RENDERBUFFER,
                                    r->rb_res_depth);
    }
    if (gl->CheckFramebufferStatus(GL_FRAMEBUFFER) != GL_FRAMEBUFFER_COMPLETE) {
        snprintf(msg, msg_size, "GL: resolve framebuffer %dx%d incomplete", w, h);
        return -1;
    }
    if (r->o.samples > 1) {
        gl->GenFramebuffers(1, &r->fbo_ms);
        gl->BindFramebuffer(GL_FRAMEBUFFER, r->fbo_ms);
        gl->GenRenderbuffers(1, &r->rb_ms_color);
        gl->BindRenderbuffer(GL_RENDERBUFFER, r->rb_ms_color);
        gl->RenderbufferStorageMultisample(GL_RENDERBUFFER, r->o.samples, GL_RGBA8, w, h);
        gl->FramebufferRenderbuffer(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_RENDERBUFFER, r->rb_ms_color);
        gl->GenRenderbuffers(1, &r->rb_ms_depth);
        gl->BindRenderbuffer(GL_RENDERBUFFER, r->rb_ms_depth);
        gl->RenderbufferStorageMultisample(GL_RENDERBUFFER, r->o.samples, GL_DEPTH24_STENCIL8, w, h);
        gl->FramebufferRenderbuffer(GL_FRAMEBUFFER, GL_DEPTH_STENCIL_ATTACHMENT, GL_RENDERBUFFER,
                                    r->rb_ms_depth);
        if (gl->CheckFramebufferStatus(GL_FRAMEBUFFER) != GL_FRAMEBUFFER_COMPLETE) {
            snprintf(msg, msg_size, "GL: %dx MSAA framebuffer %dx%d incomplete", r->o.samples, w, h);
            return -1;
        }
    }
    return 0;
}

static int make_shadow_target(mmd_renderer *r, char *msg, size_t msg_size)
{
    const mmd_gl *gl = r->gl;
    int s = r->o.shadow_map_size;
    gl->GenTextures(1, &r->tex_shadow);
    gl->BindTexture(GL_TEXTURE_2D, r->tex_shadow);
    gl->TexImage2D(GL_TEXTURE_2D, 0, GL_DEPTH_COMPONENT32F, s, s, 0, GL_DEPTH_COMPONENT, GL_FLOAT, NULL);
    gl->TexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_NEAREST);
    gl->TexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_NEAREST);
    gl->TexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_S, GL_CLAMP_TO_EDGE);
    gl->TexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_T, GL_CLAMP_TO_EDGE);
    gl->GenFramebuffers(1, &r->fbo_shadow);
    gl->BindFramebuffer(GL_FRAMEBUFFER, r->fbo_shadow);
    gl->FramebufferTexture2D(GL_FRAMEBUFFER, GL_DEPTH_ATTACHMENT, GL_TEXTURE_2D, r->tex_shadow, 0);
    gl->DrawBuffer(GL_NONE);
    gl->ReadBuffer(GL_NONE);
    if (gl->CheckFramebufferStatus(GL_FRAMEBUFFER) != GL_FRAMEBUFFER_COMPLETE) {
        snprintf(msg, msg_size, "GL: shadow map %dx%d incomplete", s, s);
        return -1;
    }
    r->shadow_dirty[0] = r->shadow_dirty[1] = 0; /* contents undefined: the first frame clears it all */
    r->shadow_dirty[2] = r->shadow_dirty[3] = s;
    return 0;
}

/* Colour-pass program for a variant key (built on first use). 0 on failure. */
static GLuint main_program(mmd_renderer *r, int key, char *msg, size_t msg_size)
{
    if (r->prog_main[key])
        return r->prog_main[key];
    const mmd_gl *gl = r->gl;
    char defs[256];
    snprintf(defs, sizeof defs,
             "#define HAS_TEX %d\n#define SPHERE_MODE %d\n#define SELF_SHADOW %d\n#define VERTEX_COLOR %d\n"
             "#define SPECULAR %d\n#define TINT %d\n",
             key & 1, (key >> 1) & 3, (key >> 3) & 1, (key >> 4) & 1, (key >> 5) & 1, (key >> 6) & 1);
    GLuint p = mmd_gl_program_build(gl, "mmd_vs", "mmd_fs", defs, msg, msg_size);
    if (!p)
        return 0;
    for (int i = 0; i < U_MAIN_COUNT; i++)
        r->u_main[key][i] = gl->GetUniformLocation(p, main_uniforms[i]);
    gl->UseProgram(p);
    gl->Uniform1i(r->u_main[key][U_TEX], 0);
    gl->Uniform1i(r->u_main[key][U_SPHERE], 1);
    gl->Uniform1i(r->u_main[key][U_TOON], 2);
    gl->Uniform1i(r->u_main[key][U_SHADOW_MAP], 3);
    r->prog_main[key] = p;
    return p;
}

/* ---------------------------------------------------------------- lifecycle */

void mmd_render_options_default(mmd_render_options *o)
{
    memset(o, 0, sizeof *o);
    o->width = 1280;
    o->height = 720;
    o->samples = 4;
    o->background[0] = o->background[1] = o->background[2] = o->background[3] = 1.0f;
    o->backend = MMD_GL_OSMESA;
    o->edges = o->ground_shadow = o->self_shadow = true;
    o->shadow_map_size = 2048;
}

int mmd_renderer_create(const mmd_render_options *o, mmd_renderer **out, char *msg, size_t msg_size)
{
    if (o->width < 1 || o->height < 1 || o->width > 16384 || o->height > 16384) {
        snprintf(msg, msg_size, "render size %dx%d out of range (1..16384)", o->width, o->height);
        return -1;
    }
    if (o->samples != 1 && o->samples != 2 && o->samples != 4) {
        snprintf(msg, msg_size, "MSAA samples must be 1, 2 or 4 (got %d)", o->samples);
        return -1;
    }
    if (o->self_shadow && (o->shadow_map_size < 64 || o->shadow_map_size > 8192)) {
        snprintf(msg, msg_size, "shadow map size %d out of range (64..8192)", o->shadow_map_size);
        return -1;
    }
    mmd_renderer *r = calloc(1, sizeof *r);
    if (!r) {
        snprintf(msg, msg_size, "out of memory");
        return -1;
    }
    r->o = *o;
    if (mmd_gl_context_create(o->backend, o->threads, &r->ctx, msg, msg_size)) {
        free(r);
        return -1;
    }
    r->gl = mmd_gl_context_api(r->ctx);
    const mmd_gl *gl = r->gl;
    r->prog_flat = mmd_gl_program_build(gl, "flat_vs", "flat_fs", NULL, msg, msg_size);
    /* position-only vertex stage for the passes without an edge offset (fewer attributes fetched per vertex) */
    const char *pos_only = "#define POSITION_ONLY 1\n";
    r->prog_depth = r->prog_flat ? mmd_gl_program_build(gl, "flat_vs", "depth_fs", pos_only, msg, msg_size) : 0;
    r->prog_ground = r->prog_depth ? mmd_gl_program_build(gl, "flat_vs", "flat_fs", pos_only, msg, msg_size) : 0;
    if (!r->prog_ground || make_targets(r, msg, msg_size) ||
        (o->self_shadow && make_shadow_target(r, msg, msg_size))) {
        mmd_renderer_free(r);
        return -1;
    }
    static const char *const flat_names[4] = {"u_world", "u_viewproj", "u_edge_offset", "u_color"};
    for (int i = 0; i < 4; i++) {
        r->u_flat[i] = gl->GetUniformLocation(r->prog_flat, flat_names[i]);
        r->u_depth[i] = gl->GetUniformLocation(r->prog_depth, flat_names[i]);
        r->u_ground[i] = gl->GetUniformLocation(r->prog_ground, flat_names[i]);
    }
    if (!main_program(r, 0, msg, msg_size)) { /* the plainest variant: fail early on GLSL errors */
        mmd_renderer_free(r);
        return -1;
    }
    const uint8_t white[4] = {255, 255, 255, 255};
    r->tex_white = upload_rgba(r, 1, 1, white, false, false);
    for (int i = 0; i < 10; i++) { /* shared toon01..toon10 */
        uint8_t toon[MMD_TOON_SIZE * MMD_TOON_SIZE * 4];
        mmd_toon_generate(i + 1, toon);
        r->toon_shared[i] = upload_rgba(r, MMD_TOON_SIZE, MMD_TOON_SIZE, toon, false, false);
    }
    int threads = o->threads;
    if (threads <= 0) {
        long n = sysconf(_SC_NPROCESSORS_ONLN);
        threads = n > 0 ? (int)n : 1;
    }
    if (threads > MAX_THREADS + 1)
        threads = MAX_THREADS + 1;
    r->threads = threads;
    pool_start(r, threads);
    if (gl->GetError() != GL_NO_ERROR) {
        snprintf(msg, msg_size, "GL error while setting up the renderer");
        mmd_renderer_free(r);
        return -1;
    }
    *out = r;
    return 0;
}

static void free_model(const mmd_gl *gl, gpu_model *g)
{
    GLuint bufs[6] = {g->vbo_pos, g->vbo_nrm, g->vbo_uv, g->vbo_add, g->vbo_edge, g->ebo};
    gl->DeleteBuffers(6, bufs);
    gl->DeleteVertexArrays(1, &g->vao);
    for (uint32_t i = 0; i < g->m->texture_count; i++) {
        if (g->tex_repeat && g->tex_repeat[i])
            gl->DeleteTextures(1, &g->tex_repeat[i]);
        if (g->tex_clamp && g->tex_clamp[i])
            gl->DeleteTextures(1, &g->tex_clamp[i]);
    }
    free(g->tex_repeat);
    free(g->tex_clamp);
    free(g->tex_tried_r);
    free(g->tex_tried_c);
    free(g->mats);
    free(g->base);
    free(g->skin_pos);
    free(g->skin_nrm);
}

void mmd_renderer_free(mmd_renderer *r)
{
    if (!r)
        return;
    if (r->threads)
        pool_stop(&r->pool);
    if (r->ctx) {
        const mmd_gl *gl = r->gl;
        for (size_t i = 0; i < r->model_count; i++)
            free_model(gl, &r->models[i]);
        GLuint fbos[3] = {r->fbo_ms, r->fbo_res, r->fbo_shadow};
        GLuint rbs[4] = {r->rb_ms_color, r->rb_ms_depth, r->rb_res_color, r->rb_res_depth};
        GLuint texs[2] = {r->tex_shadow, r->tex_white};
        gl->DeleteFramebuffers(3, fbos);
        gl->DeleteRenderbuffers(4, rbs);
        gl->DeleteTextures(2, texs);
        gl->DeleteTextures(10, r->toon_shared);
        for (int i = 0; i < MAIN_VARIANTS; i++)
            if (r->prog_main[i])
                gl->DeleteProgram(r->prog_main[i]);
        gl->DeleteProgram(r->prog_flat);
        gl->DeleteProgram(r->prog_depth);
        gl->DeleteProgram(r->prog_ground);
        mmd_gl_context_free(r->ctx);
    }
    free(r->models);
    free(r);
}

/* ---------------------------------------------------------------- models */

static void material_base(const mmd_material *m, mmd_material_state *s)
{
    memset(s, 0, sizeof *s);
    memcpy(s->diffuse, m->diffuse, sizeof s->diffuse);
    memcpy(s->specular, m->specular, sizeof s->specular);
    s->specular_power = m->specular_power;
    memcpy(s->ambient, m->ambient, sizeof s->ambient);
    memcpy(s->edge_color, m->edge_color, sizeof s->edge_color);
    s->edge_size = m->edge_size;
    for (int i = 0; i < 4; i++)
        s->texture_mul[i] = s->sphere_mul[i] = s->toon_mul[i] = 1.0f;
}

static GLuint make_buffer(const mmd_gl *gl, GLenum target, size_t bytes, const void *data, GLenum usage)
{
    GLuint b;
    gl->GenBuffers(1, &b);
    gl->BindBuffer(target, b);
    gl->BufferData(target, (GLsizeiptr)bytes, data, usage);
    return b;
}

int mmd_renderer_add_model(mmd_renderer *r, const mmd_model *m, const char *model_dir, char *msg,
                           size_t msg_size)
{
    if (r->model_count == r->model_cap) {
        size_t cap = r->model_cap ? r->model_cap * 2 : 4;
        gpu_model *n = realloc(r->models, cap * sizeof *n);
        if (!n) {
            snprintf(msg, msg_size, "out of memory");
            return -1;
        }
        r->models = n;
        r->model_cap = cap;
    }
    gpu_model *g = &r->models[r->model_count];
    memset(g, 0, sizeof *g);
    g->m = m;
    size_t vc = m->vertex_count, tc = m->texture_count ? m->texture_count : 1;
    g->tex_repeat = calloc(tc, sizeof(GLuint));
    g->tex_clamp = calloc(tc, sizeof(GLuint));
    g->tex_tried_r = calloc(tc, sizeof(bool));
    g->tex_tried_c = calloc(tc, sizeof(bool));
    g->mats = calloc(m->material_count ? m->material_count : 1, sizeof *g->mats);
    g->base = calloc(m->material_count ? m->material_count : 1, sizeof *g->base);
    g->skin_pos = malloc((vc ? vc : 1) * 3 * sizeof(float));
    g->skin_nrm = malloc((vc ? vc : 1) * 3 * sizeof(float));
    float *uv = malloc((vc ? vc : 1) * 2 * sizeof(float));
    float *add = malloc((vc ? vc : 1) * 4 * sizeof(float));
    float *edge = malloc((vc ? vc : 1) * sizeof(float));
    if (!g->tex_repeat || !g->tex_clamp || !g->tex_tried_r || !g->tex_tried_c || !g->mats || !g->base ||
        !g->skin_pos || !g->skin_nrm || !uv || !add || !edge) {
        free(uv);
        free(add);
        free(edge);
        const mmd_gl *gl = r->gl;
        free_model(gl, g);
        snprintf(msg, msg_size, "out of memory for model buffers (%zu vertices)", vc);
        return -1;
    }
    for (size_t i = 0; i < vc; i++) {
        const mmd_vertex *v = &m->vertices[i];
        memcpy(&g->skin_pos[i * 3], v->position, 3 * sizeof(float));
        memcpy(&g->skin_nrm[i * 3], v->normal, 3 * sizeof(float));
        memcpy(&uv[i * 2], v->uv, 2 * sizeof(float));
        memcpy(&add[i * 4], v->add_uv[0], 4 * sizeof(float));
        edge[i] = v->edge_scale;
    }
    const mmd_gl *gl = r->gl;
    gl->GenVertexArrays(1, &g->vao);
    gl->BindVertexArray(g->vao);
    g->vbo_pos = make_buffer(gl, GL_ARRAY_BUFFER, vc * 12, g->skin_pos, GL_STREAM_DRAW);
    gl->VertexAttribPointer(MMD_ATTR_POSITION, 3, GL_FLOAT, GL_FALSE, 0, NULL);
    gl->EnableVertexAttribArray(MMD_ATTR_POSITION);
    g->vbo_nrm = make_buffer(gl, GL_ARRAY_BUFFER, vc * 12, g->skin_nrm, GL_STREAM_DRAW);
    gl->VertexAttribPointer(MMD_ATTR_NORMAL, 3, GL_FLOAT, GL_FALSE, 0, NULL);
    gl->EnableVertexAttribArray(MMD_ATTR_NORMAL);
    g->vbo_uv = make_buffer(gl, GL_ARRAY_BUFFER, vc * 8, uv, GL_DYNAMIC_DRAW);
    gl->VertexAttribPointer(MMD_ATTR_UV, 2, GL_FLOAT, GL_FALSE, 0, NULL);
    gl->EnableVertexAttribArray(MMD_ATTR_UV);
    g->vbo_add = make_buffer(gl, GL_ARRAY_BUFFER, vc * 16, add, GL_DYNAMIC_DRAW);
    gl->VertexAttribPointer(MMD_ATTR_ADD_UV1, 4, GL_FLOAT, GL_FALSE, 0, NULL);
    gl->EnableVertexAttribArray(MMD_ATTR_ADD_UV1);
    g->vbo_edge = make_buffer(gl, GL_ARRAY_BUFFER, vc * 4, edge, GL_STATIC_DRAW);
    gl->VertexAttribPointer(MMD_ATTR_EDGE, 1, GL_FLOAT, GL_FALSE, 0, NULL);
    gl->EnableVertexAttribArray(MMD_ATTR_EDGE);
    g->ebo = make_buffer(gl, GL_ELEMENT_ARRAY_BUFFER, (size_t)m->index_count * 4, m->indices, GL_STATIC_DRAW);
    gl->BindVertexArray(0);
    free(uv);
    free(add);
    free(edge);
    for (uint32_t i = 0; i < m->material_count; i++) {
        const mmd_material *mt = &m->materials[i];
        material_base(mt, &g->base[i]);
        g->mats[i].tex = model_texture(r, g, model_dir, mt->texture, true);
        if (mt->sphere_mode != MMD_SPHERE_NONE)
            g->mats[i].sphere = model_texture(r, g, model_dir, mt->sphere_texture, false);
        if (mt->toon_shared)
            g->mats[i].toon = mt->toon >= 0 && mt->toon < 10 ? r->toon_shared[mt->toon] : 0;
        else
            g->mats[i].toon = model_texture(r, g, model_dir, mt->toon, false);
    }
    if (gl->GetError() != GL_NO_ERROR) {
        free_model(gl, g);
        snprintf(msg, msg_size, "GL error while uploading model");
        return -1;
    }
    return (int)r->model_count++;
}

size_t mmd_renderer_model_count(const mmd_renderer *r) { return r->model_count; }
const mmd_model *mmd_renderer_model(const mmd_renderer *r, size_t slot) { return r->models[slot].m; }
void mmd_renderer_scratch(mmd_renderer *r, size_t slot, float **pos, float **nrm)
{
    *pos = r->models[slot].skin_pos;
    *nrm = r->models[slot].skin_nrm;
}
mmd_render_timings *mmd_renderer_timings_mut(mmd_renderer *r) { return &r->timings; }
const mmd_render_options *mmd_renderer_options(const mmd_renderer *r) { return &r->o; }
const mmd_render_timings *mmd_renderer_timings(const mmd_renderer *r) { return &r->timings; }
const char *mmd_renderer_gl_version(const mmd_renderer *r) { return mmd_gl_context_version(r->ctx); }

/* ---------------------------------------------------------------- drawing */

static GLenum prim_of(uint8_t flags)
{
    if (flags & MMD_MAT_POINTS)
        return GL_POINTS;
    if (flags & MMD_MAT_LINES)
        return GL_LINES;
    return GL_TRIANGLES;
}

static void bind_tex(const mmd_gl *gl, int unit, GLuint t)
{
    gl->ActiveTexture(GL_TEXTURE0 + (GLenum)unit);
    gl->BindTexture(GL_TEXTURE_2D, t);
}

typedef struct frame_ctx {
    const mmd_render_view *v;
    float proj_flip[16], viewproj[16], world[16], light_dir[3], light_color[3], shadow_vp[16];
    int shadow_mode;
} frame_ctx;

static void upload_instance(mmd_renderer *r, gpu_model *g, const mmd_render_instance *in)
{
    const mmd_gl *gl = r->gl;
    size_t vc = g->m->vertex_count;
    gl->BindBuffer(GL_ARRAY_BUFFER, g->vbo_pos);
    gl->BufferSubData(GL_ARRAY_BUFFER, 0, (GLsizeiptr)(vc * 12), in->positions);
    gl->BindBuffer(GL_ARRAY_BUFFER, g->vbo_nrm);
    gl->BufferSubData(GL_ARRAY_BUFFER, 0, (GLsizeiptr)(vc * 12), in->normals);
    if (in->uvs) {
        gl->BindBuffer(GL_ARRAY_BUFFER, g->vbo_uv);
        gl->BufferSubData(GL_ARRAY_BUFFER, 0, (GLsizeiptr)(vc * 8), in->uvs);
    }
    if (in->add_uv1) {
        gl->BindBuffer(GL_ARRAY_BUFFER, g->vbo_add);
        gl->BufferSubData(GL_ARRAY_BUFFER, 0, (GLsizeiptr)(vc * 16), in->add_uv1);
    }
}

/* Texel rectangle [x0,x1) x [y0,y1) of the shadow map that this frame's
 * casters can touch: the light-space bounds of every vertex of every model
 * with a casting material, plus a texel of margin. The whole map when a vertex
 * is behind the light camera (w <= 0: clipping makes the bounds unknowable). */
static void shadow_bounds(const mmd_renderer *r, const mmd_render_instance *ins, size_t count, const float vp[16],
                          int out[4])
{
    int s = r->o.shadow_map_size;
    float lo[2] = {1, 1}, hi[2] = {-1, -1};
    for (size_t i = 0; i < count; i++) {
        const mmd_model *m = r->models[i].m;
        const mmd_material_state *ms = ins[i].materials ? ins[i].materials : r->models[i].base;
        bool casts = false;
        for (uint32_t k = 0; k < m->material_count && !casts; k++)
            casts = (m->materials[k].flags & MMD_MAT_CAST_SHADOW) && ms[k].diffuse[3] > 0;
        if (ins[i].hidden || !casts)
            continue;
        const float *p = ins[i].positions;
        for (size_t v = 0; v < m->vertex_count; v++, p += 3) {
            float w = vp[3] * p[0] + vp[7] * p[1] + vp[11] * p[2] + vp[15];
            if (!(w > 1e-6f)) {
                out[0] = out[1] = 0;
                out[2] = out[3] = s;
                return;
            }
            float x = (vp[0] * p[0] + vp[4] * p[1] + vp[8] * p[2] + vp[12]) / w;
            float y = (vp[1] * p[0] + vp[5] * p[1] + vp[9] * p[2] + vp[13]) / w;
            lo[0] = x < lo[0] ? x : lo[0];
            hi[0] = x > hi[0] ? x : hi[0];
            lo[1] = y < lo[1] ? y : lo[1];
            hi[1] = y > hi[1] ? y : hi[1];
        }
    }
    for (int a = 0; a < 2; a++) {
        if (!(lo[a] <= hi[a])) { /* nothing (or NaN): an empty rectangle */
            out[0] = out[1] = out[2] = out[3] = 0;
            return;
        }
        float t0 = (lo[a] * 0.5f + 0.5f) * (float)s - 2.0f, t1 = (hi[a] * 0.5f + 0.5f) * (float)s + 2.0f;
        out[a] = t0 <= 0 ? 0 : t0 >= (float)s ? s : (int)t0;
        out[a + 2] = t1 <= 0 ? 0 : t1 >= (float)s ? s : (int)t1 + 1;
    }
}

/* Whether any drawn triangle material receives the self-shadow. */
static bool any_receiver(const mmd_renderer *r, const mmd_render_instance *ins, size_t count)
{
    for (size_t i = 0; i < count; i++) {
        const mmd_model *m = r->models[i].m;
        const mmd_material_state *ms = ins[i].materials ? ins[i].materials : r->models[i].base;
        for (uint32_t k = 0; k < m->material_count && !ins[i].hidden; k++)
            if ((m->materials[k].flags & MMD_MAT_RECEIVE_SHADOW) && ms[k].diffuse[3] > 0 &&
                m->materials[k].index_count > 0)
                return true;
    }
    return false;
}

/* Draws, with the bound program and state, the triangle materials of every
 * shown instance that have `flag` set and are not fully transparent. */
static void draw_casters(mmd_renderer *r, const mmd_render_instance *ins, size_t count, uint8_t flag)
{
    const mmd_gl *gl = r->gl;
    for (size_t i = 0; i < count; i++) {
        if (ins[i].hidden)
            continue;
        gpu_model *g = &r->models[i];
        const mmd_material_state *ms = ins[i].materials ? ins[i].materials : g->base;
        gl->BindVertexArray(g->vao);
        size_t off = 0;
        for (uint32_t k = 0; k < g->m->material_count; k++) {
            const mmd_material *mt = &g->m->materials[k];
            size_t n = mt->index_count;
            if ((mt->flags & flag) && ms[k].diffuse[3] > 0 && prim_of(mt->flags) == GL_TRIANGLES)
                gl->DrawElements(GL_TRIANGLES, (GLsizei)n, GL_UNSIGNED_INT, (const void *)(off * 4));
            off += n;
        }
    }
}

static void draw_shadow_map(mmd_renderer *r, const mmd_render_instance *ins, size_t count, const frame_ctx *f)
{
    const mmd_gl *gl = r->gl;
    gl->BindFramebuffer(GL_FRAMEBUFFER, r->fbo_shadow);
    gl->Viewport(0, 0, r->o.shadow_map_size, r->o.shadow_map_size);
    gl->DepthMask(GL_TRUE);
    gl->ClearDepth(1.0);
    /* Clear only what the last frame drew plus what this one can draw: the
     * rest of the map is still 1.0 from earlier clears. A full 2048^2 float
     * clear is most of this pass's cost on llvmpipe, and casters usually cover
     * a few percent of the map. Same texels as a full clear. */
    int now[4], *d = r->shadow_dirty;
    shadow_bounds(r, ins, count, f->shadow_vp, now);
    int c[4] = {d[0] < now[0] ? d[0] : now[0], d[1] < now[1] ? d[1] : now[1], d[2] > now[2] ? d[2] : now[2],
                d[3] > now[3] ? d[3] : now[3]};
    if (d[2] <= d[0] || d[3] <= d[1]) /* nothing drawn last frame */
        memcpy(c, now, sizeof c);
    else if (now[2] <= now[0] || now[3] <= now[1]) /* nothing to draw now */
        memcpy(c, d, sizeof c);
    if (c[2] > c[0] && c[3] > c[1]) {
        gl->Enable(GL_SCISSOR_TEST);
        gl->Scissor(c[0], c[1], c[2] - c[0], c[3] - c[1]);
        gl->Clear(GL_DEPTH_BUFFER_BIT);
        gl->Disable(GL_SCISSOR_TEST);
    }
    memcpy(d, now, sizeof now);
    gl->Disable(GL_CULL_FACE);
    gl->Disable(GL_BLEND);
    gl->Disable(GL_STENCIL_TEST);
    gl->Enable(GL_DEPTH_TEST);
    gl->DepthFunc(GL_LESS);
    gl->UseProgram(r->prog_depth);
    float id[16];
    mat_identity(id);
    gl->UniformMatrix4fv(r->u_depth[F_WORLD], 1, GL_FALSE, id);
    gl->UniformMatrix4fv(r->u_depth[F_VIEWPROJ], 1, GL_FALSE, f->shadow_vp);
    draw_casters(r, ins, count, MMD_MAT_CAST_SHADOW);
}

/* Whether a material morph moved any texture / sphere / toon factor off
 * identity (mul 1, add 0); when none did, the TINT 0 program skips that maths. */
static bool tinted(const mmd_material_state *s)
{
    const float *mul[3] = {s->texture_mul, s->sphere_mul, s->toon_mul};
    const float *add[3] = {s->texture_add, s->sphere_add, s->toon_add};
    for (int i = 0; i < 3; i++)
        for (int c = 0; c < 4; c++)
            if (mul[i][c] != 1.0f || add[i][c] != 0.0f)
                return true;
    return false;
}

static int draw_colour(mmd_renderer *r, gpu_model *g, const mmd_render_instance *in, const frame_ctx *f,
                       char *msg, size_t msg_size)
{
    const mmd_gl *gl = r->gl;
    const mmd_material_state *ms = in->materials ? in->materials : g->base;
    bind_tex(gl, 3, f->shadow_mode ? r->tex_shadow : r->tex_white);
    gl->BindVertexArray(g->vao);
    size_t off = 0;
    for (uint32_t k = 0; k < g->m->material_count; k++) {
        const mmd_material *mt = &g->m->materials[k];
        const mmd_material_state *s = &ms[k];
        size_t n = mt->index_count;
        size_t at = off;
        off += n;
        if (s->diffuse[3] <= 0.0f || n == 0)
            continue; /* MMD hides materials whose alpha is 0 (material morphs) */
        const gpu_material *gm = &g->mats[k];
        int sphere_mode = gm->sphere && mt->sphere_mode <= MMD_SPHERE_SUB_TEXTURE ? mt->sphere_mode : 0;
        bool shadow = (mt->flags & MMD_MAT_RECEIVE_SHADOW) && f->shadow_mode;
        bool spec = s->specular_power > 0 && (s->specular[0] > 0 || s->specular[1] > 0 || s->specular[2] > 0);
        int key = (gm->tex != 0) | sphere_mode << 1 | (int)shadow << 3 |
                  (int)((mt->flags & MMD_MAT_VERTEX_COLOR) != 0) << 4 | (int)spec << 5 | (int)tinted(s) << 6;
        GLuint prog = main_program(r, key, msg, msg_size);
        if (!prog)
            return -1;
        const GLint *u = r->u_main[key];
        gl->UseProgram(prog);
        gl->UniformMatrix4fv(u[U_WORLD], 1, GL_FALSE, f->world);
        gl->UniformMatrix4fv(u[U_VIEW], 1, GL_FALSE, f->v->view);
        gl->UniformMatrix4fv(u[U_PROJ], 1, GL_FALSE, f->proj_flip);
        gl->UniformMatrix4fv(u[U_SHADOW_VP], 1, GL_FALSE, f->shadow_vp);
        gl->Uniform3fv(u[U_LIGHT_COLOR], 1, f->light_color);
        gl->Uniform3fv(u[U_LIGHT_DIR], 1, f->light_dir);
        gl->Uniform3fv(u[U_EYE], 1, f->v->eye);
        gl->Uniform1i(u[U_SHADOW_MODE], f->shadow_mode);
        if (mt->flags & MMD_MAT_DOUBLE_SIDED)
            gl->Disable(GL_CULL_FACE);
        else
            gl->Enable(GL_CULL_FACE);
        gl->Uniform4fv(u[U_DIFFUSE], 1, s->diffuse);
        gl->Uniform3fv(u[U_AMBIENT], 1, s->ambient);
        gl->Uniform3fv(u[U_SPECULAR], 1, s->specular);
        gl->Uniform1f(u[U_POWER], s->specular_power);
        gl->Uniform4fv(u[U_TEX_MUL], 1, s->texture_mul);
        gl->Uniform4fv(u[U_TEX_ADD], 1, s->texture_add);
        gl->Uniform4fv(u[U_SPH_MUL], 1, s->sphere_mul);
        gl->Uniform4fv(u[U_SPH_ADD], 1, s->sphere_add);
        gl->Uniform4fv(u[U_TOON_MUL], 1, s->toon_mul);
        gl->Uniform4fv(u[U_TOON_ADD], 1, s->toon_add);
        bind_tex(gl, 0, gm->tex ? gm->tex : r->tex_white);
        bind_tex(gl, 1, gm->sphere ? gm->sphere : r->tex_white);
        bind_tex(gl, 2, gm->toon ? gm->toon : r->tex_white);
        gl->DrawElements(prim_of(mt->flags), (GLsizei)n, GL_UNSIGNED_INT, (const void *)(at * 4));
    }
    return 0;
}

static void draw_edges(mmd_renderer *r, gpu_model *g, const mmd_render_instance *in, const frame_ctx *f)
{
    const mmd_gl *gl = r->gl;
    const mmd_material_state *ms = in->materials ? in->materials : g->base;
    float dx = f->v->eye[0] - in->edge_origin[0], dy = f->v->eye[1] - in->edge_origin[1],
          dz = f->v->eye[2] - in->edge_origin[2];
    float fovk = f->v->fov / 30.0f;
    fovk = fovk < 0 ? 0 : (fovk > 1 ? 1 : fovk);
    float k = sqrtf(dx * dx + dy * dy + dz * dz) * fovk * 0.001f * EDGE_K;
    gl->UseProgram(r->prog_flat);
    gl->UniformMatrix4fv(r->u_flat[F_WORLD], 1, GL_FALSE, f->world);
    gl->UniformMatrix4fv(r->u_flat[F_VIEWPROJ], 1, GL_FALSE, f->viewproj);
    gl->Enable(GL_CULL_FACE);
    gl->CullFace(GL_FRONT);
    gl->BindVertexArray(g->vao);
    size_t off = 0;
    for (uint32_t i = 0; i < g->m->material_count; i++) {
        const mmd_material *mt = &g->m->materials[i];
        const mmd_material_state *s = &ms[i];
        size_t n = mt->index_count, at = off;
        off += n;
        if (!(mt->flags & MMD_MAT_EDGE) || (mt->flags & (MMD_MAT_POINTS | MMD_MAT_LINES)) ||
            s->diffuse[3] <= 0.0f || s->edge_size <= 0.0f || s->edge_color[3] <= 0.0f || n == 0)
            continue;
        gl->Uniform1f(r->u_flat[F_EDGE], s->edge_size * k);
        gl->Uniform4fv(r->u_flat[F_COLOR], 1, s->edge_color);
        gl->DrawElements(GL_TRIANGLES, (GLsizei)n, GL_UNSIGNED_INT, (const void *)(at * 4));
    }
    gl->CullFace(GL_BACK);
}

static void draw_ground_shadows(mmd_renderer *r, const mmd_render_instance *ins, size_t count, const frame_ctx *f)
{
    const mmd_gl *gl = r->gl;
    /* l = -d points at the light; p' = p - l * (p.y / l.y) (DESIGN E.4) */
    float l[3] = {-f->light_dir[0], -f->light_dir[1], -f->light_dir[2]};
    if (l[1] < 1e-3f)
        return; /* light at or below the horizon: no ground shadow */
    float proj[16] = {1, 0, 0, 0, -l[0] / l[1], 0, -l[2] / l[1], 0, 0, 0, 1, 0, 0, 0, 0, 1};
    float w[16];
    mat_mul(f->world, proj, w);
    gl->UseProgram(r->prog_ground);
    gl->UniformMatrix4fv(r->u_ground[F_WORLD], 1, GL_FALSE, w);
    gl->UniformMatrix4fv(r->u_ground[F_VIEWPROJ], 1, GL_FALSE, f->viewproj);
    float color[4] = {f->light_color[0], f->light_color[1], f->light_color[2], 1.0f};
    gl->Uniform4fv(r->u_ground[F_COLOR], 1, color);
    gl->Disable(GL_CULL_FACE);
    /* An opaque shadow colour needs neither blending nor the stencil that keeps
     * overlapping triangles from blending twice: every covered pixel gets the
     * same colour either way, and the per-sample stencil and blend work is the
     * dearest part of this pass on llvmpipe (MSAA 4 above all). */
    bool translucent = color[3] < 1.0f;
    if (translucent) {
        gl->Enable(GL_STENCIL_TEST);
        gl->StencilMask(0xff);
        gl->StencilFunc(GL_NOTEQUAL, 1, 0xff);
        gl->StencilOp(GL_KEEP, GL_KEEP, GL_REPLACE);
    } else {
        gl->Disable(GL_BLEND);
    }
    gl->DepthMask(GL_FALSE);
    gl->Enable(GL_POLYGON_OFFSET_FILL);
    gl->PolygonOffset(-1.0f, -1.0f);
    draw_casters(r, ins, count, MMD_MAT_GROUND_SHADOW);
    gl->Disable(GL_POLYGON_OFFSET_FILL);
    gl->Disable(GL_STENCIL_TEST);
    gl->Enable(GL_BLEND);
    gl->DepthMask(GL_TRUE);
}

static void begin_target(mmd_renderer *r)
{
    const mmd_gl *gl = r->gl;
    gl->BindFramebuffer(GL_FRAMEBUFFER, r->o.samples > 1 ? r->fbo_ms : r->fbo_res);
    gl->Viewport(0, 0, r->o.width, r->o.height);
    const float *bg = r->o.background;
    if (r->o.transparent)
        gl->ClearColor(0, 0, 0, 0);
    else
        gl->ClearColor(bg[0], bg[1], bg[2], 1.0f);
    gl->ClearDepth(1.0);
    gl->ClearStencil(0);
    gl->DepthMask(GL_TRUE);
    gl->StencilMask(0xff);
    gl->ColorMask(GL_TRUE, GL_TRUE, GL_TRUE, GL_TRUE);
    gl->Clear(GL_COLOR_BUFFER_BIT | GL_DEPTH_BUFFER_BIT | GL_STENCIL_BUFFER_BIT);
}

static int finish_target(mmd_renderer *r, uint8_t *rgba, char *msg, size_t msg_size)
{
    const mmd_gl *gl = r->gl;
    int w = r->o.width, h = r->o.height;
    if (r->o.samples > 1) {
        gl->BindFramebuffer(GL_READ_FRAMEBUFFER, r->fbo_ms);
        gl->BindFramebuffer(GL_DRAW_FRAMEBUFFER, r->fbo_res);
        gl->BlitFramebuffer(0, 0, w, h, 0, 0, w, h, GL_COLOR_BUFFER_BIT, GL_NEAREST);
    }
    gl->BindFramebuffer(GL_READ_FRAMEBUFFER, r->fbo_res);
    gl->ReadBuffer(GL_COLOR_ATTACHMENT0);
    gl->PixelStorei(GL_PACK_ALIGNMENT, 1);
    gl->ReadPixels(0, 0, w, h, GL_RGBA, GL_UNSIGNED_BYTE, rgba);
    GLenum e = gl->GetError();
    if (e != GL_NO_ERROR) {
        snprintf(msg, msg_size, "GL error 0x%x during the frame", (unsigned)e);
        return -1;
    }
    if (r->o.transparent) { /* blending left premultiplied colour: make it straight */
        size_t n = (size_t)w * (size_t)h;
        for (size_t i = 0; i < n; i++) {
            uint8_t *p = rgba + i * 4;
            unsigned a = p[3];
            if (a == 0) {
                p[0] = p[1] = p[2] = 0;
            } else if (a < 255) {
                for (int c = 0; c < 3; c++) {
                    unsigned v = (p[c] * 255u + a / 2) / a;
                    p[c] = (uint8_t)(v > 255 ? 255 : v);
                }
            }
        }
    }
    return 0;
}

int mmd_renderer_clear_readback(mmd_renderer *r, uint8_t *rgba, char *msg, size_t msg_size)
{
    double t0 = mmd_render_now_ms();
    begin_target(r);
    r->gl->Finish();
    double t1 = mmd_render_now_ms();
    int rc = finish_target(r, rgba, msg, msg_size);
    r->timings.draw_ms = t1 - t0;
    r->timings.readback_ms = mmd_render_now_ms() - t1;
    return rc;
}

int mmd_renderer_draw(mmd_renderer *r, const mmd_render_instance *ins, size_t count,
                      const mmd_render_view *v, const mmd_light_state *light,
                      const mmd_shadow_state *shadow, uint8_t *rgba, char *msg, size_t msg_size)
{
    const mmd_gl *gl = r->gl;
    if (count > r->model_count) {
        snprintf(msg, msg_size, "%zu instances for %zu models", count, r->model_count);
        return -1;
    }
    double t0 = mmd_render_now_ms();
    for (size_t i = 0; i < count; i++)
        if (!ins[i].hidden)
            upload_instance(r, &r->models[i], &ins[i]);
    double t1 = mmd_render_now_ms();

    frame_ctx f;
    memset(&f, 0, sizeof f);
    f.v = v;
    mmd_light_state def_light = {{154 / 255.0f, 154 / 255.0f, 154 / 255.0f}, {-0.5f, -1.0f, 0.5f}};
    if (!light)
        light = &def_light;
    memcpy(f.light_color, light->color, sizeof f.light_color);
    memcpy(f.light_dir, light->direction, sizeof f.light_dir);
    if (vec_dot(f.light_dir, f.light_dir) < 1e-12f)
        memcpy(f.light_dir, def_light.direction, sizeof f.light_dir);
    vec_norm(f.light_dir);
    const float flip[16] = {1, 0, 0, 0, 0, -1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1};
    mat_mul(flip, v->proj, f.proj_flip);
    mat_mul(f.proj_flip, v->view, f.viewproj);
    mat_identity(f.world);
    f.world[10] = -1.0f; /* LH -> GL */
    f.shadow_mode = r->o.self_shadow && shadow && (shadow->mode == 1 || shadow->mode == 2) ? shadow->mode : 0;
    if (f.shadow_mode) {
        shadow_matrix(v, f.light_dir, f.shadow_mode, shadow->distance, f.shadow_vp);
        if (any_receiver(r, ins, count)) /* else nothing samples the map */
            draw_shadow_map(r, ins, count, &f);
    } else {
        mat_identity(f.shadow_vp);
    }

    begin_target(r);
    gl->Enable(GL_DEPTH_TEST);
    gl->DepthFunc(GL_LEQUAL);
    gl->Enable(GL_BLEND);
    gl->BlendFuncSeparate(GL_SRC_ALPHA, GL_ONE_MINUS_SRC_ALPHA, GL_ONE, GL_ONE_MINUS_SRC_ALPHA);
    gl->FrontFace(GL_CCW); /* see the top comment: two mirrors */
    gl->CullFace(GL_BACK);
    for (size_t i = 0; i < count; i++) {
        if (ins[i].hidden)
            continue;
        if (draw_colour(r, &r->models[i], &ins[i], &f, msg, msg_size))
            return -1;
        /* Start llvmpipe's rasteriser threads on what is queued (glFlush is
         * asynchronous there) while this thread transforms and bins the next
         * pass, instead of leaving them idle until glFinish. No extra CPU
         * measured; same pixels. */
        gl->Flush();
        if (r->o.edges)
            draw_edges(r, &r->models[i], &ins[i], &f);
    }
    gl->Flush(); /* the same for the edges while the ground shadow is binned */
    if (r->o.ground_shadow)
        draw_ground_shadows(r, ins, count, &f);
    gl->BindVertexArray(0);
    gl->Finish();
    double t2 = mmd_render_now_ms();
    int rc = finish_target(r, rgba, msg, msg_size);
    double t3 = mmd_render_now_ms();
    r->timings.upload_ms = t1 - t0;
    r->timings.draw_ms = t2 - t1;
    r->timings.readback_ms = t3 - t2;
    return rc;
}
