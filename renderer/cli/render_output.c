/* renderer/cli/render_output.c - the render command's output (render_run.h):
 * which kind -o names, the output's own limits, the inputs it must not
 * overwrite, and opening it with the progress over the frames to write. */
#include <stdio.h>
#include <string.h>

#include "renderer/base/msg.h"
#include "renderer/cli/render_run.h"
#include "renderer/image/texpath.h"
#include "renderer/output/codecs.h"

const mmd_output_kind *mmd_render_output_kind(const render_args *a, mmd_error *err)
{
    const mmd_output_kind *k = mmd_output_kind_for(a->out);
    if (!k)
        mmd_fail(err, MMD_E_USAGE, "cannot tell what '%s' is: use a " MMD_CONTAINERS_SLASHED " file, a folder/ "
                 "or a pattern like frames/%%05d.png", a->out);
    else if (a->skip_existing && !k->frame_exists)
        mmd_fail(err, MMD_E_USAGE, "--skip-existing works with PNG output only");
    else if ((a->codec || a->preset) && !k->encodes && !a->print_plan) /* the farm's line, without -o */
        mmd_fail(err, MMD_E_USAGE, "--%s needs a video output", a->codec ? "codec" : "preset");
    else
        return k;
    return NULL;
}

mmd_output_request mmd_render_base_request(const render_job *j, const render_args *a)
{
    const mmd_scene *s = j->scene;
    return (mmd_output_request){.target = a->out, .width = s->width, .height = s->height, .fps_num = s->fps_num,
                                .fps_den = s->fps_den, .alpha = s->transparent, .codec = a->codec,
                                .preset = a->preset, .crf = a->crf, .threads = a->threads};
}

mmd_status mmd_render_check_sizes(const render_job *j, const render_args *a, const mmd_output_kind *kind,
                                  mmd_error *err)
{
    mmd_output_request r = mmd_render_base_request(j, a);
    return kind->check ? kind->check(&r, err) : MMD_OK;
}

/* True (err set) when writing the output would replace the input file `in`
 * in a frame this run renders. */
static bool clashes(const mmd_output_kind *k, const render_args *a, const mmd_render_plan *p, const char *in,
                    mmd_error *err)
{
    int64_t f = -1;
    if (!in || !k->writes || !k->writes(a->out, in, &f) || (f >= 0 && !mmd_plan_renders(p, f)))
        return false;
    if (f >= 0)
        mmd_fail(err, MMD_E_USAGE, "the output '%s' would overwrite the input '%s' (frame %lld)", a->out, in,
                 (long long)f);
    else
        mmd_fail(err, MMD_E_USAGE, "the output '%s' is also an input of the scene ('%s')", a->out, in);
    return true;
}

/* Every file the run reads (scene, models, motions, camera, audio and the
 * textures the renderer will open, resolved as it resolves them) against
 * what the output writes, by inode. */
mmd_status mmd_render_output_is_input(const render_job *j, const render_args *a, const mmd_output_kind *k,
                                      const mmd_render_plan *p, mmd_error *err)
{
    const mmd_scene *s = j->scene;
    if (clashes(k, a, p, a->scene, err) || clashes(k, a, p, s->audio_file, err) ||
        clashes(k, a, p, s->camera_motion, err))
        return MMD_E_USAGE;
    for (int i = 0; i < s->model_count; i++) {
        if (clashes(k, a, p, s->models[i].file, err))
            return MMD_E_USAGE;
        for (int m = 0; m < s->models[i].motion_count; m++)
            if (clashes(k, a, p, s->models[i].motions[m], err))
                return MMD_E_USAGE;
        char dir[4096], path[4096];
        mmd_error why;
        if (mmd_texpath_model_dir(s->models[i].file, dir, sizeof dir) != 0)
            continue;
        const mmd_model *mo = j->stage ? j->stage->models[i] : NULL;
        for (uint32_t t = 0; mo && t < mo->texture_count; t++)
            if (mmd_texpath_resolve(dir, mo->textures[t], a->allow_outside, path, sizeof path, &why) == MMD_OK &&
                clashes(k, a, p, path, err))
                return MMD_E_USAGE;
    }
    return MMD_OK;
}

static void on_frame_done(void *user, int64_t frame)
{
    mmd_progress_frame(user, frame);
}

/* The step's note: a video's rate is fps / step, or kept when that does not fit. */
static void say_step(const render_args *a, const mmd_output_kind *kind, const mmd_render_plan *p,
                     const mmd_output_request *r)
{
    if (kind->encodes && p->step > 1 && !a->quiet && p->video_rate_kept)
        mmd_msg_print(stderr, "mmdrender: warning: step %d: fps / step does not fit a video's rate, so the video "
                      "keeps %d/%d fps and plays %d times faster than the song\n", p->step, r->fps_num, r->fps_den,
                      p->step);
    else if (kind->encodes && p->step > 1 && !a->quiet)
        mmd_msg_print(stderr, "mmdrender: step %d: the video plays at %d/%d fps (fps / step), in sync with the "
                      "song\n", p->step, r->fps_num, r->fps_den);
}

/* Progress over the frames still to render, then the output's sink. */
mmd_status mmd_render_open_output(render_job *j, const render_args *a, const mmd_output_kind *kind,
                                  const mmd_render_plan *p, int chunk_index, int chunk_count, mmd_error *err)
{
    const mmd_scene *s = j->scene;
    int64_t to_render = p->frames; /* O(1): a range may be 100 million frames long */
    if (a->skip_existing)
        for (int64_t f = p->begin; f <= p->end; f += p->step)
            to_render -= kind->frame_exists(a->out, f, s->width, s->height);
    j->progress = mmd_progress_create(a->quiet ? MMD_PROGRESS_NONE : (mmd_progress_mode)a->progress, stderr,
                                      to_render);
    if (!kind->open)
        return MMD_OK;
    char tag[200];
    snprintf(tag, sizeof tag, MMD_CHUNK_TAG_FORMAT, chunk_index, chunk_count, (long long)p->begin,
             (long long)p->end, (long long)p->first, (long long)p->last, p->step, s->fps_num, s->fps_den);
    mmd_output_request r = mmd_output_request_for(s, p, a->out);
    r.codec = a->codec;
    r.preset = a->preset;
    r.crf = a->crf;
    r.threads = a->threads;
    r.chunk = chunk_count > 1;
    r.chunk_tag = tag;
    r.cancel = mmd_render_stop_flag();
    say_step(a, kind, p, &r);
    j->sink = kind->open(&r, err);
    if (!j->sink)
        return err->status;
    j->sink->on_done = on_frame_done;
    j->sink->user = j->progress;
    return MMD_OK;
}
