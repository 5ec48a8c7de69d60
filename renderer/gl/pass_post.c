/* renderer/gl/pass_post.c - post passes: SSAA box resolve, bloom chains
 * (AutoLuminous glow of the emission target, Diffusion of the whole frame),
 * composite and FXAA. Each step is one full-screen triangle into a texture;
 * the chains run at quarter size and below, so their cost is a fraction of a
 * full-size pass. Every read is texel-exact or a fixed bilinear tap: the same
 * bytes on every run, thread count and chunking. */
#include "renderer/gl/pass_post.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "renderer/gl/shader.h"

#define MAX_LEVELS 8

typedef struct chain {
    int first, levels;               /* levels first..levels exist; levels 0 = unused */
    GLuint tex[MAX_LEVELS + 1], fbo[MAX_LEVELS + 1]; /* [0] unused: the source; [i] size >> i */
    int w[MAX_LEVELS + 1], h[MAX_LEVELS + 1];
} chain;

struct mmd_post {
    const mmd_gl *gl;
    mmd_effects e;
    int w, h;
    GLuint vao;
    GLuint prog_ssaa, prog_down, prog_down_pre, prog_up, prog_up4, prog_comb, prog_comp, prog_fxaa;
    GLuint tex_scene, fbo_scene; /* ssaa > 1: the box-filtered frame */
    GLuint rb_out, fbo_out;      /* fxaa: w x h RGBA8, what is read back */
    GLuint tex_add, tex_dim, fbo_add; /* glow or diffusion: combined at cw x ch (post_combine_fs) */
    int cw, ch;
    GLuint black;                /* 1x1 black: the glow inputs of a frame where nothing glowed */
    chain glow, diff;
};

GLuint mmd_post_texture_target(const mmd_gl *gl, GLenum format, int w, int h, GLuint *fbo)
{
    GLuint t;
    gl->GenTextures(1, &t);
    gl->BindTexture(GL_TEXTURE_2D, t);
    if (format == MMD_POST_HDR)
        gl->TexImage2D(GL_TEXTURE_2D, 0, (GLint)format, w, h, 0, GL_RGB, GL_FLOAT, NULL);
    else
        gl->TexImage2D(GL_TEXTURE_2D, 0, (GLint)format, w, h, 0, GL_RGBA, GL_UNSIGNED_BYTE, NULL);
    gl->TexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_LINEAR);
    gl->TexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_LINEAR);
    gl->TexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_S, GL_CLAMP_TO_EDGE);
    gl->TexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_T, GL_CLAMP_TO_EDGE);
    gl->GenFramebuffers(1, fbo);
    gl->BindFramebuffer(GL_FRAMEBUFFER, *fbo);
    gl->FramebufferTexture2D(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_TEXTURE_2D, t, 0);
    if (gl->CheckFramebufferStatus(GL_FRAMEBUFFER) != GL_FRAMEBUFFER_COMPLETE) {
        gl->DeleteFramebuffers(1, fbo);
        gl->DeleteTextures(1, &t);
        *fbo = 0;
        return 0;
    }
    return t;
}

/* Levels of a chain for a halo of about radius * 8% of the frame height: the
 * level whose texel is that wide is the last (at least 1, at most 8, and no
 * level smaller than 2 px). */
static int chain_levels(int w, int h, float radius, int first)
{
    double px = (double)h * 0.08 * radius;
    int n = (int)lround(log2(px > 2.0 ? px : 2.0));
    n = n < first ? first : (n > MAX_LEVELS ? MAX_LEVELS : n);
    while (n > first && ((w >> n) < 2 || (h >> n) < 2))
        n--;
    return n;
}

int mmd_post_level_size(int n, int k)
{
    return n >> k > 0 ? n >> k : 1;
}

/* Levels first..n of a chain over a w x h frame (level i is (w, h) >> i). */
/* RGBA8 and MMD_POST_HDR (R11F_G11F_B10F) both take 4 bytes a texel. */
#define POST_TEXEL_BYTES 4u

static uint64_t chain_memory(int w, int h, float radius, int first)
{
    uint64_t n = 0;
    for (int i = first, levels = chain_levels(w, h, radius, first); i <= levels; i++)
        n += (uint64_t)mmd_post_level_size(w, i) * (uint64_t)mmd_post_level_size(h, i) * POST_TEXEL_BYTES;
    return n;
}

uint64_t mmd_post_memory(const mmd_effects *e, int width, int height)
{
    uint64_t frame = (uint64_t)width * (uint64_t)height * POST_TEXEL_BYTES;
    uint64_t quarter = (uint64_t)mmd_post_level_size(width, 2) * (uint64_t)mmd_post_level_size(height, 2) *
                       POST_TEXEL_BYTES;
    uint64_t n = 0;
    if (e->ssaa > 1)
        n += frame; /* tex_scene */
    if (e->glow || e->diffusion)
        n += quarter * (e->glow && e->diffusion ? 2 : 1); /* tex_add (+ tex_dim) */
    if (e->glow)
        n += chain_memory(width, height, e->glow_radius, 2);
    if (e->diffusion)
        n += chain_memory(width, height, 1.0f, 2);
    if (e->fxaa)
        n += frame; /* rb_out */
    return n;
}

/* Whether every level's target was made (false: GL could not). */
static bool chain_create(const mmd_gl *gl, chain *c, int w, int h, float radius, int first)
{
    c->first = first;
    c->levels = chain_levels(w, h, radius, first);
    for (int i = first; i <= c->levels; i++) {
        c->w[i] = mmd_post_level_size(w, i);
        c->h[i] = mmd_post_level_size(h, i);
        c->tex[i] = mmd_post_texture_target(gl, MMD_POST_HDR, c->w[i], c->h[i], &c->fbo[i]);
        if (!c->tex[i])
            return false;
    }
    return true;
}

static void chain_free(const mmd_gl *gl, chain *c)
{
    for (int i = c->first; i <= c->levels && c->levels; i++) {
        gl->DeleteFramebuffers(1, &c->fbo[i]);
        gl->DeleteTextures(1, &c->tex[i]);
    }
}

static mmd_status build(const mmd_gl *gl, const char *fs, const char *defs, GLuint *out, mmd_error *err)
{
    return mmd_gl_program_build(gl, "post_vs", fs, defs, out, err);
}

static void set_sampler(const mmd_gl *gl, GLuint prog, const char *name, int unit)
{
    gl->UseProgram(prog);
    gl->Uniform1i(gl->GetUniformLocation(prog, name), unit);
}

static mmd_status programs(mmd_post *p, mmd_error *err)
{
    const mmd_gl *gl = p->gl;
    char defs[96], dim[32];
    snprintf(defs, sizeof defs, "#define GLOW %d\n#define DIFFUSION %d\n", p->e.glow ? 1 : 0, p->e.diffusion ? 1 : 0);
    snprintf(dim, sizeof dim, "#define DIM %d\n", p->e.glow && p->e.diffusion ? 1 : p->e.diffusion ? 2 : 0);
    mmd_status st;
    if ((st = build(gl, "post_ssaa_fs", NULL, &p->prog_ssaa, err)) != MMD_OK ||
        (st = build(gl, "post_down_fs", "#define PREFILTER 0\n", &p->prog_down, err)) != MMD_OK ||
        (st = build(gl, "post_down_fs", "#define PREFILTER 1\n", &p->prog_down_pre, err)) != MMD_OK ||
        (st = build(gl, "post_up_fs", "#define TAPS 8\n", &p->prog_up, err)) != MMD_OK ||
        (st = build(gl, "post_up_fs", "#define TAPS 4\n", &p->prog_up4, err)) != MMD_OK ||
        (st = build(gl, "post_combine_fs", defs, &p->prog_comb, err)) != MMD_OK ||
        (st = build(gl, "post_composite_fs", dim, &p->prog_comp, err)) != MMD_OK ||
        (st = build(gl, "post_fxaa_fs", NULL, &p->prog_fxaa, err)) != MMD_OK)
        return st;
    set_sampler(gl, p->prog_ssaa, "u_src", 0);
    set_sampler(gl, p->prog_down, "u_src", 0);
    set_sampler(gl, p->prog_down_pre, "u_src", 0);
    set_sampler(gl, p->prog_up, "u_src", 0);
    set_sampler(gl, p->prog_up4, "u_src", 0);
    set_sampler(gl, p->prog_fxaa, "u_src", 0);
    set_sampler(gl, p->prog_comb, "u_glow_src", 1);
    set_sampler(gl, p->prog_comb, "u_glow", 2);
    set_sampler(gl, p->prog_comb, "u_diff", 3);
    set_sampler(gl, p->prog_comp, "u_add", 0);
    set_sampler(gl, p->prog_comp, "u_dim", 1);
    return MMD_OK;
}

/* The combine targets: quarter size (the glow's emission and both chains
 * start there); a second one for d with both. Whether they were made. */
static bool combine_create(mmd_post *p)
{
    const mmd_gl *gl = p->gl;
    p->cw = mmd_post_level_size(p->w, 2);
    p->ch = mmd_post_level_size(p->h, 2);
    p->tex_add = mmd_post_texture_target(gl, GL_RGBA8, p->cw, p->ch, &p->fbo_add);
    if (!p->tex_add)
        return false;
    if (!(p->e.glow && p->e.diffusion))
        return true;
    GLuint fbo;
    p->tex_dim = mmd_post_texture_target(gl, GL_RGBA8, p->cw, p->ch, &fbo);
    gl->DeleteFramebuffers(1, &fbo);
    gl->BindFramebuffer(GL_FRAMEBUFFER, p->fbo_add);
    gl->FramebufferTexture2D(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT1, GL_TEXTURE_2D, p->tex_dim, 0);
    const GLenum bufs[2] = {GL_COLOR_ATTACHMENT0, GL_COLOR_ATTACHMENT1};
    gl->DrawBuffers(2, bufs);
    return p->tex_dim && gl->CheckFramebufferStatus(GL_FRAMEBUFFER) == GL_FRAMEBUFFER_COMPLETE;
}

/* The targets after the programs; whether GL made them all. */
static bool targets(mmd_post *p)
{
    const mmd_gl *gl = p->gl;
    const mmd_effects *e = &p->e;
    bool ok = true;
    if (e->ssaa > 1)
        ok = (p->tex_scene = mmd_post_texture_target(gl, GL_RGBA8, p->w, p->h, &p->fbo_scene)) != 0;
    if (ok && (e->glow || e->diffusion))
        ok = combine_create(p);
    if (ok && e->glow) /* from the emission at quarter size (pass_glow.c) */
        ok = chain_create(gl, &p->glow, p->w, p->h, e->glow_radius, 2);
    if (ok && e->diffusion)
        ok = chain_create(gl, &p->diff, p->w, p->h, 1.0f, 2);
    if (ok && e->fxaa) {
        gl->GenFramebuffers(1, &p->fbo_out);
        gl->BindFramebuffer(GL_FRAMEBUFFER, p->fbo_out);
        gl->GenRenderbuffers(1, &p->rb_out);
        gl->BindRenderbuffer(GL_RENDERBUFFER, p->rb_out);
        gl->RenderbufferStorageMultisample(GL_RENDERBUFFER, 0, GL_RGBA8, p->w, p->h);
        gl->FramebufferRenderbuffer(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_RENDERBUFFER, p->rb_out);
        ok = gl->CheckFramebufferStatus(GL_FRAMEBUFFER) == GL_FRAMEBUFFER_COMPLETE;
    }
    return ok;
}

mmd_status mmd_post_create(const mmd_gl *gl, const mmd_effects *e, int width, int height, mmd_post **out,
                           mmd_error *err)
{
    mmd_post *p = calloc(1, sizeof *p);
    if (!p)
        return mmd_fail(err, MMD_E_GL, "out of memory");
    p->gl = gl;
    p->e = *e;
    p->w = width;
    p->h = height;
    gl->GenVertexArrays(1, &p->vao);
    GLuint fbo_black;
    p->black = mmd_post_texture_target(gl, GL_RGBA8, 1, 1, &fbo_black);
    if (p->black) {
        const float zero[4] = {0, 0, 0, 0};
        gl->ClearColor(zero[0], zero[1], zero[2], zero[3]);
        gl->Clear(GL_COLOR_BUFFER_BIT);
        gl->DeleteFramebuffers(1, &fbo_black);
    }
    mmd_status st = p->black ? programs(p, err) : MMD_OK;
    if (st == MMD_OK && (!p->black || !targets(p)))
        st = mmd_fail(err, MMD_E_GL, "GL: effect targets %dx%d incomplete", width, height);
    if (st != MMD_OK) {
        mmd_post_free(p);
        return st;
    }
    *out = p;
    return MMD_OK;
}

void mmd_post_free(mmd_post *p)
{
    if (!p)
        return;
    const mmd_gl *gl = p->gl;
    chain_free(gl, &p->glow);
    chain_free(gl, &p->diff);
    GLuint fbos[3] = {p->fbo_scene, p->fbo_out, p->fbo_add};
    GLuint texs[4] = {p->tex_scene, p->black, p->tex_add, p->tex_dim};
    gl->DeleteFramebuffers(3, fbos);
    gl->DeleteTextures(4, texs);
    gl->DeleteRenderbuffers(1, &p->rb_out);
    GLuint progs[8] = {p->prog_ssaa, p->prog_down, p->prog_down_pre, p->prog_up, p->prog_up4, p->prog_comb,
                       p->prog_comp, p->prog_fxaa};
    for (int i = 0; i < 8; i++)
        if (progs[i])
            gl->DeleteProgram(progs[i]);
    gl->DeleteVertexArrays(1, &p->vao);
    free(p);
}

static void draw_into(const mmd_post *p, GLuint fbo, int w, int h)
{
    p->gl->BindFramebuffer(GL_FRAMEBUFFER, fbo);
    p->gl->Viewport(0, 0, w, h);
    p->gl->DrawArrays(GL_TRIANGLES, 0, 3);
}

static void bind(const mmd_gl *gl, int unit, GLuint tex)
{
    gl->ActiveTexture(GL_TEXTURE0 + (GLenum)unit);
    gl->BindTexture(GL_TEXTURE_2D, tex);
}

/* Down the chain from src (sw x sh) into levels first..levels, then back up,
 * adding each level onto the next larger; leaves the blurred sum in level first.
 * at_first (src is already level first's size, and there is a level below):
 * no copy of src into level first; the down steps start from src and the last
 * up step (4 taps, post_up_fs) overwrites level first, which ends as the sum
 * without src itself. */
static void run_chain(const mmd_post *p, const chain *c, GLuint src, int sw, int sh, bool prefilter,
                      float threshold, bool at_first)
{
    const mmd_gl *gl = p->gl;
    gl->Disable(GL_BLEND);
    GLuint tex = src;
    for (int i = c->first + (at_first ? 1 : 0); i <= c->levels; i++) {
        GLuint prog = i == c->first && prefilter ? p->prog_down_pre : p->prog_down;
        gl->UseProgram(prog);
        gl->Uniform2f(gl->GetUniformLocation(prog, "u_texel"), 1.0f / (float)sw, 1.0f / (float)sh);
        gl->Uniform1f(gl->GetUniformLocation(prog, "u_threshold"), threshold);
        bind(gl, 0, tex);
        draw_into(p, c->fbo[i], c->w[i], c->h[i]);
        tex = c->tex[i];
        sw = c->w[i];
        sh = c->h[i];
    }
    gl->Enable(GL_BLEND);
    gl->BlendFuncSeparate(GL_ONE, GL_ONE, GL_ONE, GL_ONE);
    for (int i = c->levels; i > c->first; i--) {
        bool last = at_first && i - 1 == c->first;
        GLuint prog = last ? p->prog_up4 : p->prog_up;
        gl->UseProgram(prog);
        gl->Uniform2f(gl->GetUniformLocation(prog, "u_texel"), 1.0f / (float)c->w[i], 1.0f / (float)c->h[i]);
        bind(gl, 0, c->tex[i]);
        if (last)
            gl->Disable(GL_BLEND);
        draw_into(p, c->fbo[i - 1], c->w[i - 1], c->h[i - 1]);
    }
    gl->Disable(GL_BLEND);
}

/* Whether the glow's chain starts below its quarter-size emission (run_chain at_first). */
static bool glow_at_first(const mmd_post *p)
{
    return p->glow.levels > p->glow.first;
}

bool mmd_post_needed(const mmd_post *p, GLuint glow)
{
    return (p->e.glow && glow) || p->e.diffusion || p->e.fxaa || p->e.ssaa > 1;
}

/* The glows over the frame in fbo: gathered at reduced size
 * (post_combine_fs), then blended in at full size (post_composite_fs,
 * dual-source: the frame is never read by a shader). */
static void composite(const mmd_post *p, GLuint fbo, GLuint glow)
{
    const mmd_gl *gl = p->gl;
    bool do_glow = p->e.glow && glow;
    gl->UseProgram(p->prog_comb);
    /* emitters at full strength, the halo (a sum over its levels) at strength / levels;
     * its top level, the emission itself, is in the emitters' weight when the chain skipped it */
    int halo_levels = p->glow.levels - p->glow.first + 1;
    float hk = do_glow && halo_levels > 0 ? p->e.glow_strength / (float)halo_levels : 0.0f;
    float gk[2] = {do_glow ? p->e.glow_strength + (glow_at_first(p) ? hk : 0.0f) : 0.0f, hk};
    gl->Uniform2f(gl->GetUniformLocation(p->prog_comb, "u_glow_k"), gk[0], gk[1]);
    gl->Uniform1f(gl->GetUniformLocation(p->prog_comb, "u_diff_k"),
                  p->diff.levels ? 2.0f * p->e.diffusion_strength / (float)(p->diff.levels - p->diff.first + 1)
                                 : 0.0f);
    bind(gl, 1, do_glow ? glow : p->black);
    bind(gl, 2, do_glow ? p->glow.tex[p->glow.first] : p->black);
    bind(gl, 3, p->e.diffusion ? p->diff.tex[p->diff.first] : p->black);
    draw_into(p, p->fbo_add, p->cw, p->ch);
    gl->UseProgram(p->prog_comp);
    bind(gl, 0, p->tex_add);
    bind(gl, 1, p->tex_dim);
    gl->Enable(GL_BLEND);
    gl->BlendEquationSeparate(GL_FUNC_ADD, GL_MAX);
    gl->BlendFuncSeparate(GL_ONE, GL_ONE_MINUS_SRC1_COLOR, GL_ONE, GL_ONE);
    draw_into(p, fbo, p->w, p->h);
    gl->BlendEquationSeparate(GL_FUNC_ADD, GL_FUNC_ADD);
    gl->Disable(GL_BLEND);
}

GLuint mmd_post_run(mmd_post *p, GLuint scene, GLuint scene_fbo, GLuint glow)
{
    const mmd_gl *gl = p->gl;
    bool do_glow = p->e.glow && glow;
    gl->Disable(GL_DEPTH_TEST);
    gl->Disable(GL_CULL_FACE);
    gl->Disable(GL_STENCIL_TEST);
    gl->Disable(GL_BLEND);
    gl->BindVertexArray(p->vao);
    if (p->e.ssaa > 1) { /* box-filter down to the output size first */
        gl->UseProgram(p->prog_ssaa);
        gl->Uniform1i(gl->GetUniformLocation(p->prog_ssaa, "u_scale"), p->e.ssaa);
        bind(gl, 0, scene);
        draw_into(p, p->fbo_scene, p->w, p->h);
        scene = p->tex_scene;
        scene_fbo = p->fbo_scene;
    }
    if (do_glow) /* the halo: from the quarter-size emission down and back */
        run_chain(p, &p->glow, glow, p->glow.w[2], p->glow.h[2], false, 0.0f, glow_at_first(p));
    if (p->e.diffusion)
        run_chain(p, &p->diff, scene, p->w, p->h, true, p->e.diffusion_threshold, false);
    if (do_glow || p->e.diffusion)
        composite(p, scene_fbo, glow);
    GLuint out = scene_fbo;
    if (p->e.fxaa) {
        gl->UseProgram(p->prog_fxaa);
        gl->Uniform2f(gl->GetUniformLocation(p->prog_fxaa, "u_texel"), 1.0f / (float)p->w, 1.0f / (float)p->h);
        bind(gl, 0, scene);
        draw_into(p, p->fbo_out, p->w, p->h);
        out = p->fbo_out;
    }
    for (int u = 3; u >= 0; u--)
        bind(gl, u, 0);
    gl->BindVertexArray(0);
    return out;
}
