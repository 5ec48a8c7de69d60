/* renderer/cli/outputs.c - the output kinds' table (see outputs.h). */
#include "renderer/cli/outputs.h"

#include <string.h>
#include <strings.h>
#include <sys/stat.h>

#include "renderer/base/fs.h"
#include "renderer/output/sink_png.h"
#include "renderer/output/sink_still.h"

static bool is_null(const char *target)
{
    return !strcmp(target, "null");
}

static bool is_dir(const char *target)
{
    size_t n = strlen(target);
    struct stat st;
    return (n && target[n - 1] == '/') || (stat(target, &st) == 0 && S_ISDIR(st.st_mode));
}

/* A folder (trailing '/', or an existing directory) or a %d pattern. */
static bool is_png(const char *target)
{
    return is_dir(target) || strchr(target, '%');
}

/* One file: a name ending in .png that is neither a folder nor a pattern. */
static bool is_still(const char *target)
{
    size_t n = strlen(target);
    return n > 4 && !strcasecmp(target + n - 4, ".png") && !is_png(target);
}

static mmd_sink *open_still(const mmd_output_request *r, mmd_error *err)
{
    if (r->first_frame != r->last_frame) {
        mmd_fail(err, MMD_E_USAGE, "-o %s is one PNG file, for a one-frame range (--frames N); frames %lld-%lld "
                 "need a folder/ or a pattern like frames/%%05d.png", r->target, (long long)r->first_frame,
                 (long long)r->last_frame);
        return NULL;
    }
    return mmd_sink_still_open(r->target, r->alpha, err);
}

static bool still_exists(const char *target, int64_t frame, int width, int height)
{
    (void)frame;
    return mmd_sink_still_exists(target, width, height);
}

static void video_options(const mmd_output_request *r, mmd_video_options *out)
{
    mmd_video_options vo;
    mmd_video_options_default(&vo);
    vo.path = r->target;
    vo.width = r->width;
    vo.height = r->height;
    vo.fps_num = r->fps_num;
    vo.fps_den = r->fps_den;
    vo.codec = r->codec;
    vo.crf = r->crf;
    vo.preset = r->preset;
    vo.alpha = r->alpha;
    vo.threads = r->threads;
    vo.audio_path = r->audio_path;
    vo.audio_offset = r->audio_offset;
    vo.start_time = r->start_time;
    vo.chunk = r->chunk;
    vo.chunk_tag = r->chunk_tag;
    vo.cancel = r->cancel;
    *out = vo;
}

static mmd_sink *open_video(const mmd_output_request *r, mmd_error *err)
{
    mmd_video_options vo;
    video_options(r, &vo);
    return mmd_sink_video_open(&vo, err);
}

static mmd_status check_video(const mmd_output_request *r, mmd_error *err)
{
    mmd_video_options vo;
    video_options(r, &vo);
    return mmd_sink_video_check(&vo, err);
}

static uint64_t video_memory(const mmd_output_request *r)
{
    mmd_video_options vo;
    video_options(r, &vo);
    return mmd_sink_video_memory(&vo);
}

static uint64_t png_memory(const mmd_output_request *r)
{
    return mmd_sink_png_memory(r->width, r->height, r->threads);
}

static uint64_t still_memory(const mmd_output_request *r)
{
    return mmd_sink_still_memory(r->width, r->height);
}

static mmd_sink *open_png(const mmd_output_request *r, mmd_error *err)
{
    return mmd_sink_png_open_range(r->target, r->threads, r->alpha, r->first_frame, r->last_frame, err);
}

/* One file: it replaces path when they are the same file (by inode). */
static bool writes_file(const char *target, const char *path, int64_t *frame)
{
    *frame = -1;
    return mmd_same_file(target, path);
}

static const mmd_output_kind k_kinds[] = {
    {.name = "null", .recognises = is_null},
    {.name = "video", .recognises = mmd_sink_video_is_video_path, .open = open_video,
     .stats = mmd_sink_video_stats, .check = check_video, .writes = writes_file, .memory = video_memory,
     .encodes = true},
    {.name = "still", .recognises = is_still, .open = open_still, .frame_exists = still_exists,
     .writes = writes_file, .memory = still_memory},
    {.name = "png", .recognises = is_png, .open = open_png, .frame_exists = mmd_sink_png_frame_exists,
     .writes = mmd_sink_png_writes, .memory = png_memory},
};

const mmd_output_kind *mmd_output_kind_for(const char *target)
{
    for (size_t i = 0; i < sizeof k_kinds / sizeof *k_kinds; i++)
        if (k_kinds[i].recognises(target))
            return &k_kinds[i];
    return NULL;
}

mmd_output_request mmd_output_request_for(const mmd_scene *s, const mmd_render_plan *p, const char *target)
{
    return (mmd_output_request){.target = target, .width = s->width, .height = s->height,
                                .fps_num = p->video_fps_num, .fps_den = p->video_fps_den, .alpha = s->transparent,
                                .audio_path = s->audio_file, .audio_offset = s->audio_offset,
                                .start_time = p->start_time, .first_frame = p->begin, .last_frame = p->end,
                                .crf = -1};
}
