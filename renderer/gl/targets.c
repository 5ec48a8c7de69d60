/* renderer/gl/targets.c - framebuffers: the colour target (a multisampled one
 * resolved into a single-sample one when samples > 1), the self-shadow depth
 * map, the clear that starts a frame and the resolve + readback that ends it.
 * With post effects (effects.h) the target is ssaa times the output size, its
 * resolved colour is a texture, and the frame is read back from pass_post.c's
 * output instead. */
#include "renderer/gl/render_internal.h"

/* Bytes a pixel of each target format takes: GL_RGBA8, GL_DEPTH24_STENCIL8,
 * GL_DEPTH_COMPONENT24 (padded to 4), GL_DEPTH_COMPONENT32F, MMD_POST_HDR. */
enum { COLOUR_BYTES = 4, DEPTH_STENCIL_BYTES = 4, GLOW_BYTES = 4 + 4, SHADOW_BYTES = 4 };

uint64_t mmd_renderer_memory(const mmd_render_options *o)
{
    int ssaa = o->effects.ssaa > 1 ? o->effects.ssaa : 1;
    uint64_t px = (uint64_t)o->width * (uint64_t)ssaa * (uint64_t)o->height * (uint64_t)ssaa;
    /* llvmpipe stores MSAA 2 as 4 samples (measured: 4096x4096 takes 790 MB either way) */
    uint64_t samples = o->samples > 1 ? 4 : 0;
    /* resolved colour (+ its depth without MSAA), then the multisampled pair */
    uint64_t n = px * (COLOUR_BYTES + (samples ? 0 : DEPTH_STENCIL_BYTES)) +
                 px * samples * (COLOUR_BYTES + DEPTH_STENCIL_BYTES);
    if (o->effects.glow)
        n += (uint64_t)mmd_post_level_size(o->width, 2) * (uint64_t)mmd_post_level_size(o->height, 2) * GLOW_BYTES;
    if (o->self_shadow)
        n += (uint64_t)o->shadow_map_size * (uint64_t)o->shadow_map_size * SHADOW_BYTES;
    if (mmd_effects_post(&o->effects))
        n += mmd_post_memory(&o->effects, o->width, o->height);
    return n;
}

mmd_status mmd_targets_create(mmd_renderer *r, mmd_error *err)
{
    const mmd_gl *gl = r->gl;
    int w = r->rw, h = r->rh;
    GLint max_rb = 0, max_samples = 0;
    gl->GetIntegerv(GL_MAX_RENDERBUFFER_SIZE, &max_rb);
    gl->GetIntegerv(GL_MAX_SAMPLES, &max_samples);
    if (max_rb > 0 && (w > max_rb || h > max_rb))
        return mmd_fail(err, MMD_E_USAGE, "%dx%d is larger than this GL's largest render target (%d a side)", w, h,
                        max_rb);
    if (r->o.samples > 1 && max_samples > 0 && r->o.samples > max_samples)
        return mmd_fail(err, MMD_E_USAGE, "MSAA %d is more than this GL offers (%d)", r->o.samples, max_samples);
    if (r->post) {
        r->tex_res = mmd_post_texture_target(gl, GL_RGBA8, w, h, &r->fbo_res);
        if (!r->tex_res)
            return mmd_fail(err, MMD_E_GL, "GL: effect target %dx%d incomplete", w, h);
    } else {
        gl->GenFramebuffers(1, &r->fbo_res);
        gl->BindFramebuffer(GL_FRAMEBUFFER, r->fbo_res);
        gl->GenRenderbuffers(1, &r->rb_res_color);
        gl->BindRenderbuffer(GL_RENDERBUFFER, r->rb_res_color);
        gl->RenderbufferStorageMultisample(GL_RENDERBUFFER, 0, GL_RGBA8, w, h);
        gl->FramebufferRenderbuffer(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_RENDERBUFFER, r->rb_res_color);
    }
    if (r->o.samples <= 1) {
        gl->GenRenderbuffers(1, &r->rb_res_depth);
        gl->BindRenderbuffer(GL_RENDERBUFFER, r->rb_res_depth);
        gl->RenderbufferStorageMultisample(GL_RENDERBUFFER, 0, GL_DEPTH24_STENCIL8, w, h);
        gl->FramebufferRenderbuffer(GL_FRAMEBUFFER, GL_DEPTH_STENCIL_ATTACHMENT, GL_RENDERBUFFER,
                                    r->rb_res_depth);
    }
    if (gl->CheckFramebufferStatus(GL_FRAMEBUFFER) != GL_FRAMEBUFFER_COMPLETE)
        return mmd_fail(err, MMD_E_USAGE, "a %dx%d render target cannot be created (framebuffer incomplete): use a "
                        "smaller --size", w, h);
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
        if (gl->CheckFramebufferStatus(GL_FRAMEBUFFER) != GL_FRAMEBUFFER_COMPLETE)
            return mmd_fail(err, MMD_E_USAGE, "a %dx%d render target with MSAA %d cannot be created (framebuffer "
                            "incomplete, %.1f GiB): use a smaller --size or --aa", w, h, r->o.samples,
                            (double)w * h * r->o.samples * 8 / (1 << 30));
    }
    if (r->post)
        return mmd_post_create(gl, &r->o.effects, r->o.width, r->o.height, &r->postfx, err);
    return MMD_OK;
}

mmd_status mmd_shadow_target_create(mmd_renderer *r, mmd_error *err)
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
    if (gl->CheckFramebufferStatus(GL_FRAMEBUFFER) != GL_FRAMEBUFFER_COMPLETE)
        return mmd_fail(err, MMD_E_GL, "GL: shadow map %dx%d incomplete", s, s);
    r->shadow_dirty[0] = r->shadow_dirty[1] = 0; /* contents undefined: the first frame clears it all */
    r->shadow_dirty[2] = r->shadow_dirty[3] = s;
    return MMD_OK;
}

void mmd_target_begin(mmd_renderer *r)
{
    const mmd_gl *gl = r->gl;
    gl->BindFramebuffer(GL_FRAMEBUFFER, r->o.samples > 1 ? r->fbo_ms : r->fbo_res);
    gl->Viewport(0, 0, r->rw, r->rh);
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

/* Post effects: resolve, run pass_post.c (with this frame's emission when
 * something glowed); the framebuffer holding the result. */
static GLuint finish_post(mmd_renderer *r)
{
    const mmd_gl *gl = r->gl;
    if (r->o.samples > 1) {
        gl->BindFramebuffer(GL_READ_FRAMEBUFFER, r->fbo_ms);
        gl->BindFramebuffer(GL_DRAW_FRAMEBUFFER, r->fbo_res);
        gl->BlitFramebuffer(0, 0, r->rw, r->rh, 0, 0, r->rw, r->rh, GL_COLOR_BUFFER_BIT, GL_NEAREST);
        mmd_prof_mark(r, MMD_PASS_RESOLVE);
    }
    /* screen.bmp gets the frame before the effects (they blend into fbo_res) */
    mmd_accessories_copy_screen(r);
    GLuint glow = r->glow_drawn ? r->tex_glow : 0;
    if (!mmd_post_needed(r->postfx, glow)) /* nothing glowed this frame: the frame as drawn */
        return r->fbo_res;
    GLuint out = mmd_post_run(r->postfx, r->tex_res, r->fbo_res, glow);
    mmd_prof_mark(r, MMD_PASS_POST);
    return out;
}

mmd_status mmd_target_finish(mmd_renderer *r, uint8_t *rgba, mmd_error *err)
{
    const mmd_gl *gl = r->gl;
    int w = r->o.width, h = r->o.height;
    GLuint frame = r->fbo_res;
    if (r->post) {
        frame = finish_post(r);
    } else if (r->o.samples > 1) {
        gl->BindFramebuffer(GL_READ_FRAMEBUFFER, r->fbo_ms);
        gl->BindFramebuffer(GL_DRAW_FRAMEBUFFER, r->fbo_res);
        gl->BlitFramebuffer(0, 0, w, h, 0, 0, w, h, GL_COLOR_BUFFER_BIT, GL_NEAREST);
        mmd_prof_mark(r, MMD_PASS_RESOLVE);
    }
    if (r->frame_hook) {
        mmd_status hs = r->frame_hook(r->frame_hook_user, frame, &frame, err);
        if (hs != MMD_OK)
            return hs;
    }
    gl->BindFramebuffer(GL_READ_FRAMEBUFFER, frame);
    gl->ReadBuffer(GL_COLOR_ATTACHMENT0);
    gl->PixelStorei(GL_PACK_ALIGNMENT, 1);
    gl->ReadPixels(0, 0, w, h, GL_RGBA, GL_UNSIGNED_BYTE, rgba);
    GLenum e = gl->GetError();
    if (e != GL_NO_ERROR)
        return mmd_fail(err, MMD_E_GL, "GL error 0x%x during the frame", (unsigned)e);
    mmd_prof_mark(r, MMD_PASS_READBACK); /* with the straightening below, when transparent */
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
    return MMD_OK;
}

mmd_status mmd_renderer_clear_readback(mmd_renderer *r, uint8_t *rgba, mmd_error *err)
{
    double t0 = mmd_render_now_ms();
    mmd_target_begin(r);
    r->gl->Finish();
    double t1 = mmd_render_now_ms();
    mmd_status st = mmd_target_finish(r, rgba, err);
    r->timings.draw_ms = t1 - t0;
    r->timings.readback_ms = mmd_render_now_ms() - t1;
    return st;
}
