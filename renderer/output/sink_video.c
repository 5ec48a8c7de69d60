/* renderer/output/sink_video.c - video sink: queue -> encoder thread -> libav muxer (+ audio). */
#include "renderer/output/sink_video.h"

#include <errno.h>
#include <libavcodec/avcodec.h>
#include <libavformat/avformat.h>
#include <libavutil/opt.h>
#include <libavutil/pixdesc.h>
#include <libswscale/swscale.h>
#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>

#include "renderer/output/audio.h"
#include "renderer/base/fs.h"
#include "renderer/output/yuv.h"

#define ENCODER_NICE 10 /* the encoder thread's nice value (see encoder_main) */

typedef struct video_sink {
    mmd_sink base; /* first: mmd_sink * <-> video_sink * */
    mmd_video_options o;
    char *final_path, *tmp_path, *audio_path;
    AVFormatContext *oc;
    AVCodecContext *venc;
    AVStream *vst;
    struct SwsContext *sws;
    AVFrame *vframe;
    AVPacket *pkt;
    int64_t vpts;
    bool header_written;
    mmd_audio *audio; /* NULL: no audio */
    /* queue: YUV 4:2:0 codecs get frames converted by the writer (yuv, no
     * RGBA copy); the others RGBA copies that the encoder thread converts */
    AVFrame **yuv;
    pthread_t thread;
    bool thread_started;
    pthread_mutex_t mu;
    pthread_cond_t can_put, can_get;
    uint8_t **slots;
    int64_t *slot_frame;
    int nslots, head, count;
    bool closing, aborting, failed;
    mmd_error fail; /* the first failure (failed set), sticky */
    double wait_s, encode_s;
    int64_t frames;
} video_sink;

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static const char *averr(int e, char *buf, size_t n)
{
    av_strerror(e, buf, n);
    return buf;
}

void mmd_video_options_default(mmd_video_options *o)
{
    memset(o, 0, sizeof *o);
    o->fps_num = 30;
    o->fps_den = 1;
    o->crf = -1;
    o->queue_frames = 6;
}

static const char *path_ext(const char *path)
{
    const char *slash = strrchr(path, '/');
    const char *dot = strrchr(slash ? slash : path, '.');
    return dot ? dot + 1 : "";
}

bool mmd_sink_video_is_video_path(const char *path)
{
    const char *e = path_ext(path);
    return !strcasecmp(e, "mp4") || !strcasecmp(e, "mkv") || !strcasecmp(e, "mov") ||
           !strcasecmp(e, "webm");
}

/* ---- codec choice ------------------------------------------------------ */

typedef enum { C_H264, C_X264RGB, C_FFV1, C_VP9, C_QTRLE } codec_kind;
static const char *const k_codec_names[] = {"h264", "x264rgb", "ffv1", "vp9", "qtrle"};
static const char *const k_encoder_names[] = {"libx264", "libx264rgb", "ffv1", "libvpx-vp9", "qtrle"};

/* libx264's presets, fastest first. */
static const char k_x264_presets[] = "ultrafast superfast veryfast faster fast medium slow slower veryslow placebo";

/* Allowed codecs per container, default first. */
static const char *container_codecs(const char *ext)
{
    if (!strcasecmp(ext, "mp4"))
        return "h264 x264rgb";
    if (!strcasecmp(ext, "mov"))
        return "h264 x264rgb qtrle";
    if (!strcasecmp(ext, "mkv"))
        return "h264 x264rgb ffv1 vp9";
    if (!strcasecmp(ext, "webm"))
        return "vp9";
    return "";
}

static bool word_in(const char *list, const char *w)
{
    size_t n = strlen(w);
    for (const char *p = list; (p = strstr(p, w)); p += n)
        if ((p == list || p[-1] == ' ') && (p[n] == ' ' || p[n] == 0))
            return true;
    return false;
}

static mmd_status pick_codec(const mmd_video_options *o, codec_kind *out, mmd_error *err)
{
    const char *ext = path_ext(o->path);
    const char *allowed = container_codecs(ext);
    const char *name = o->codec && *o->codec ? o->codec : NULL;
    if (!*allowed) {
        return mmd_fail(err, MMD_E_USAGE, "%s: unknown video container '.%s' (expected .mp4 .mkv .mov or .webm)", o->path, ext);
    }
    if (!strcmp(name ? name : "", "libx264"))
        name = "h264";
    if (!name && o->alpha) {
        if (!strcasecmp(ext, "webm"))
            name = "vp9";
        else if (!strcasecmp(ext, "mov"))
            name = "qtrle";
        else if (!strcasecmp(ext, "mkv"))
            name = "ffv1";
        else {
            return mmd_fail(err, MMD_E_USAGE, "%s: MP4 cannot hold a transparent video: use .webm (vp9), .mov (qtrle) or .mkv (ffv1)",
                     o->path);
        }
    }
    if (!name)
        name = !strcasecmp(ext, "webm") ? "vp9" : "h264";
    if (!word_in(allowed, name)) {
        return mmd_fail(err, MMD_E_USAGE, "codec '%s' does not go in .%s (expected one of: %s)", name, ext, allowed);
    }
    for (int i = 0; i < 5; i++)
        if (!strcmp(name, k_codec_names[i])) {
            *out = (codec_kind)i;
            if (o->preset && i != C_H264 && i != C_X264RGB) {
                return mmd_fail(err, MMD_E_USAGE, "a preset applies to h264 and x264rgb only, not to '%s'", name);
            }
            if (o->preset && !word_in(k_x264_presets, o->preset)) {
                return mmd_fail(err, MMD_E_USAGE, "unknown x264 preset '%s' (expected one of: %s)", o->preset, k_x264_presets);
            }
            if (o->alpha && (i == C_H264 || i == C_X264RGB)) {
                return mmd_fail(err, MMD_E_USAGE, "codec '%s' has no alpha: use vp9 (.webm/.mkv), qtrle (.mov) or ffv1 (.mkv)", name);
            }
            return MMD_OK;
        }
    return mmd_fail(err, MMD_E_USAGE, "unknown codec '%s'", name);
}

/* First of want[] that the encoder supports. */
static enum AVPixelFormat pick_pix(const AVCodec *c, const enum AVPixelFormat *want, int nwant)
{
    for (int i = 0; i < nwant; i++) {
        if (!c->pix_fmts)
            return want[i];
        for (const enum AVPixelFormat *p = c->pix_fmts; *p != AV_PIX_FMT_NONE; p++)
            if (*p == want[i])
                return want[i];
    }
    return AV_PIX_FMT_NONE;
}

/* ---- muxing ------------------------------------------------------------- */

static int drain(video_sink *v, AVCodecContext *enc, AVStream *st)
{
    for (;;) {
        int e = avcodec_receive_packet(enc, v->pkt);
        if (e == AVERROR(EAGAIN) || e == AVERROR_EOF)
            return 0;
        if (e < 0)
            return e;
        av_packet_rescale_ts(v->pkt, enc->time_base, st->time_base);
        v->pkt->stream_index = st->index;
        e = av_interleaved_write_frame(v->oc, v->pkt);
        if (e < 0)
            return e;
    }
}

static void set_failed_text(video_sink *v, mmd_status code, const char *text);

/* The audio track's time base for a frame count: 1 / fps. */
static AVRational frame_tb(const video_sink *v) { return (AVRational){v->o.fps_den, v->o.fps_num}; }

/* Audio in whole encoder frames up to the video's time (encoder thread). */
static int write_audio(video_sink *v)
{
    mmd_error ae;
    char text[sizeof v->fail.msg + sizeof ae.msg];
    if (mmd_audio_write_to(v->audio, v->vpts, frame_tb(v), &ae) == MMD_OK)
        return 0;
    snprintf(text, sizeof text, "%s: %s", v->final_path, ae.msg);
    set_failed_text(v, MMD_E_ENCODER, text); /* first: the caller's set_failed keeps it */
    return AVERROR_EXTERNAL;
}

static int encode_video(video_sink *v, int idx)
{
    AVFrame *f = v->vframe;
    if (v->yuv) {
        f = v->yuv[idx]; /* converted by vs_write */
    } else {
        int e = av_frame_make_writable(f);
        if (e < 0)
            return e;
        const uint8_t *src[1] = {v->slots[idx]};
        int stride[1] = {v->o.width * 4};
        sws_scale(v->sws, src, stride, 0, v->o.height, f->data, f->linesize);
    }
    f->pts = v->vpts++;
    int e = avcodec_send_frame(v->venc, f);
    if (e < 0)
        return e;
    if ((e = drain(v, v->venc, v->vst)) < 0)
        return e;
    if (v->audio)
        return write_audio(v);
    return 0;
}

/* Records the first failure only. */
static void set_failed_text(video_sink *v, mmd_status code, const char *text)
{
    pthread_mutex_lock(&v->mu);
    if (!v->failed) {
        v->failed = true;
        mmd_fail(&v->fail, code, "%s", text);
    }
    pthread_cond_broadcast(&v->can_put);
    pthread_mutex_unlock(&v->mu);
}

static void set_failed(video_sink *v, mmd_status code, const char *what, int e)
{
    char eb[128], text[256];
    snprintf(text, sizeof text, "%s: %s failed: %s", v->final_path, what, averr(e, eb, sizeof eb));
    set_failed_text(v, code, text);
}

static void *encoder_main(void *arg)
{
    video_sink *v = arg;
    /* Linux: the nice value is per thread. Failure only costs speed. */
    errno = 0;
    int prio = getpriority(PRIO_PROCESS, (id_t)gettid());
    if (errno == 0 && prio < ENCODER_NICE)
        (void)setpriority(PRIO_PROCESS, (id_t)gettid(), ENCODER_NICE);
    for (;;) {
        pthread_mutex_lock(&v->mu);
        while (v->count == 0 && !v->closing)
            pthread_cond_wait(&v->can_get, &v->mu);
        if (v->count == 0 || v->aborting) {
            pthread_mutex_unlock(&v->mu);
            break;
        }
        int idx = v->head;
        bool failed = v->failed;
        pthread_mutex_unlock(&v->mu);
        if (!failed) {
            double t0 = now_s();
            int e = encode_video(v, idx);
            v->encode_s += now_s() - t0;
            if (e < 0)
                set_failed(v, MMD_E_ENCODER, "encoding", e);
            else {
                v->frames++;
                if (v->base.on_done)
                    v->base.on_done(v->base.user, v->slot_frame[idx]);
            }
        }
        pthread_mutex_lock(&v->mu);
        v->head = (v->head + 1) % v->nslots;
        v->count--;
        pthread_cond_broadcast(&v->can_put);
        pthread_mutex_unlock(&v->mu);
    }
    return NULL;
}

/* ---- sink vtable -------------------------------------------------------- */

static mmd_status vs_write(mmd_sink *s, const uint8_t *rgba, int width, int height, size_t stride,
                           int64_t frame_index, mmd_error *err)
{
    video_sink *v = (video_sink *)s;
    if (width != v->o.width || height != v->o.height)
        return mmd_fail(err, MMD_E_ENCODER, "frame is %dx%d, the video is %dx%d", width, height, v->o.width,
                        v->o.height);
    double t0 = now_s();
    pthread_mutex_lock(&v->mu);
    while (v->count == v->nslots && !v->failed)
        pthread_cond_wait(&v->can_put, &v->mu);
    v->wait_s += now_s() - t0;
    if (v->failed) {
        mmd_status code = mmd_fail(err, v->fail.status, "%s", v->fail.msg);
        pthread_mutex_unlock(&v->mu);
        return code;
    }
    int idx = (v->head + v->count) % v->nslots;
    pthread_mutex_unlock(&v->mu);
    if (v->yuv) {
        AVFrame *f = v->yuv[idx];
        /* a no-op: the encoder copied the frame before the slot came free */
        int e = av_frame_make_writable(f);
        if (e < 0) {
            char eb[128];
            return mmd_fail(err, MMD_E_ENCODER, "%s: no frame buffer: %s", v->final_path, averr(e, eb, sizeof eb));
        }
        mmd_rgba_to_yuv420_bt709(rgba, stride, width, height, f->data, f->linesize);
    } else {
        size_t row = (size_t)width * 4;
        for (int y = 0; y < height; y++)
            memcpy(v->slots[idx] + row * (size_t)y, rgba + stride * (size_t)y, row);
    }
    v->slot_frame[idx] = frame_index;
    pthread_mutex_lock(&v->mu);
    v->count++;
    pthread_cond_signal(&v->can_get);
    pthread_mutex_unlock(&v->mu);
    return MMD_OK;
}

static void stop_thread(video_sink *v, bool abort)
{
    if (!v->thread_started)
        return;
    pthread_mutex_lock(&v->mu);
    v->closing = true;
    v->aborting = abort;
    pthread_cond_broadcast(&v->can_get);
    pthread_mutex_unlock(&v->mu);
    pthread_join(v->thread, NULL);
    v->thread_started = false;
}

static void destroy(video_sink *v)
{
    if (v->oc && v->oc->pb)
        avio_closep(&v->oc->pb);
    avformat_free_context(v->oc);
    avcodec_free_context(&v->venc);
    sws_freeContext(v->sws);
    av_frame_free(&v->vframe);
    av_packet_free(&v->pkt);
    mmd_audio_free(v->audio);
    for (int i = 0; v->slots && i < v->nslots; i++)
        free(v->slots[i]);
    free(v->slots);
    for (int i = 0; v->yuv && i < v->nslots; i++)
        av_frame_free(&v->yuv[i]);
    free(v->yuv);
    free(v->slot_frame);
    if (v->tmp_path)
        unlink(v->tmp_path);
    free(v->tmp_path);
    free(v->final_path);
    free(v->audio_path);
    pthread_mutex_destroy(&v->mu);
    pthread_cond_destroy(&v->can_put);
    pthread_cond_destroy(&v->can_get);
    free(v);
}

static mmd_status finish(video_sink *v, mmd_error *err)
{
    char eb[128];
    int e = avcodec_send_frame(v->venc, NULL);
    if (e >= 0)
        e = drain(v, v->venc, v->vst);
    if (e < 0)
        return mmd_fail(err, MMD_E_ENCODER, "%s: flushing the video encoder failed: %s", v->final_path,
                        averr(e, eb, sizeof eb));
    if (v->audio) {
        mmd_error ae;
        mmd_audio_set_end(v->audio, v->vpts, frame_tb(v)); /* audio ends with the video */
        if (mmd_audio_finish(v->audio, &ae) != MMD_OK)
            return mmd_fail(err, MMD_E_ENCODER, "%s: %s", v->final_path, ae.msg);
    }
    if ((e = av_write_trailer(v->oc)) < 0 || (e = avio_closep(&v->oc->pb)) < 0)
        return mmd_fail(err, MMD_E_OUTPUT, "%s: finishing the file failed: %s", v->final_path,
                        averr(e, eb, sizeof eb));
    if (rename(v->tmp_path, v->final_path) != 0)
        return mmd_fail(err, MMD_E_OUTPUT, "%s: cannot rename from %s: %s", v->final_path, v->tmp_path,
                        strerror(errno));
    free(v->tmp_path);
    v->tmp_path = NULL; /* done: destroy must not unlink */
    return MMD_OK;
}

static mmd_status vs_close(mmd_sink *s, mmd_error *err)
{
    video_sink *v = (video_sink *)s;
    stop_thread(v, false);
    mmd_status rc;
    if (v->failed)
        rc = mmd_fail(err, v->fail.status, "%s", v->fail.msg);
    else
        rc = finish(v, err);
    destroy(v);
    return rc;
}

static void vs_abort(mmd_sink *s)
{
    video_sink *v = (video_sink *)s;
    stop_thread(v, true);
    destroy(v);
}

static const mmd_sink_vtable k_video_vt = {vs_write, vs_close, vs_abort};

void mmd_sink_video_stats(const mmd_sink *s, mmd_video_stats *out)
{
    const video_sink *v = (const video_sink *)s;
    out->writer_wait_s = v->wait_s;
    out->encode_s = v->encode_s;
    out->frames = v->frames;
}

/* ---- open --------------------------------------------------------------- */

/* A frame in the encoder's pixel format and colour tags, with its buffer. */
static AVFrame *new_frame(const AVCodecContext *e)
{
    AVFrame *f = av_frame_alloc();
    if (!f)
        return NULL;
    f->format = e->pix_fmt;
    f->width = e->width;
    f->height = e->height;
    f->color_primaries = e->color_primaries;
    f->color_trc = e->color_trc;
    f->colorspace = e->colorspace;
    f->color_range = e->color_range;
    if (av_frame_get_buffer(f, 0) < 0)
        av_frame_free(&f);
    return f;
}

/* The queue's slots: encoder frames (direct) or RGBA copies. */
static int alloc_slots(video_sink *v, bool direct)
{
    if (direct) {
        if (!(v->yuv = calloc((size_t)v->nslots, sizeof *v->yuv)))
            return -1;
        for (int i = 0; i < v->nslots; i++)
            if (!(v->yuv[i] = new_frame(v->venc)))
                return -1;
        return 0;
    }
    if (!(v->slots = calloc((size_t)v->nslots, sizeof *v->slots)))
        return -1;
    for (int i = 0; i < v->nslots; i++)
        if (!(v->slots[i] = malloc((size_t)v->o.width * (size_t)v->o.height * 4)))
            return -1;
    return 0;
}

static mmd_status open_video_encoder(video_sink *v, codec_kind kind, mmd_error *err)
{
    const mmd_video_options *o = &v->o;
    const AVCodec *c = avcodec_find_encoder_by_name(k_encoder_names[kind]);
    if (!c)
        return mmd_fail(err, MMD_E_ENCODER, "encoder %s is not available in this libavcodec", k_encoder_names[kind]);
    enum AVPixelFormat pf = AV_PIX_FMT_NONE;
    bool yuv = false;
    switch (kind) {
    case C_H264: pf = AV_PIX_FMT_YUV420P; yuv = true; break;
    case C_X264RGB: {
        const enum AVPixelFormat w[] = {AV_PIX_FMT_BGR0, AV_PIX_FMT_RGB24, AV_PIX_FMT_BGR24};
        pf = pick_pix(c, w, 3);
        break;
    }
    case C_FFV1: {
        const enum AVPixelFormat wa[] = {AV_PIX_FMT_RGB32, AV_PIX_FMT_GBRAP};
        const enum AVPixelFormat wo[] = {AV_PIX_FMT_0RGB32, AV_PIX_FMT_GBRP};
        pf = o->alpha ? pick_pix(c, wa, 2) : pick_pix(c, wo, 2);
        break;
    }
    case C_VP9: pf = o->alpha ? AV_PIX_FMT_YUVA420P : AV_PIX_FMT_YUV420P; yuv = true; break;
    case C_QTRLE: {
        const enum AVPixelFormat wa[] = {AV_PIX_FMT_ARGB};
        const enum AVPixelFormat wo[] = {AV_PIX_FMT_RGB24};
        pf = o->alpha ? pick_pix(c, wa, 1) : pick_pix(c, wo, 1);
        break;
    }
    }
    if (pf == AV_PIX_FMT_NONE) {
        return mmd_fail(err, MMD_E_ENCODER, "encoder %s has no suitable pixel format", k_encoder_names[kind]);
    }
    if (yuv && ((o->width & 1) || (o->height & 1))) {
        return mmd_fail(err, MMD_E_ENCODER, "%s needs an even width and height (4:2:0 chroma), got %dx%d", k_codec_names[kind],
                 o->width, o->height);
    }
    AVCodecContext *e = v->venc = avcodec_alloc_context3(c);
    if (!e)
        return mmd_fail(err, MMD_E_ENCODER, "out of memory");
    e->width = o->width;
    e->height = o->height;
    e->pix_fmt = pf;
    e->time_base = (AVRational){o->fps_den, o->fps_num};
    e->framerate = (AVRational){o->fps_num, o->fps_den};
    e->sample_aspect_ratio = (AVRational){1, 1};
    /* libx264 runs on our encoder thread alone unless threads are asked for:
     * x264's bytes depend on its thread count, so one thread gives the same
     * file on every machine; its frame and lookahead threads would compete
     * with llvmpipe's for the same cores anyway (measured: no faster on 2
     * cores). The thread runs at a lower priority (encoder_main), so it fills
     * the cores' idle gaps between the renderer's serial and parallel phases
     * instead of slowing the renderer. The other encoders keep --threads. */
    bool x264 = kind == C_H264 || kind == C_X264RGB;
    e->thread_count = x264 && o->threads <= 0 ? 1 : o->threads;
    if (yuv) {
        e->color_primaries = AVCOL_PRI_BT709;
        e->color_trc = AVCOL_TRC_BT709;
        e->colorspace = AVCOL_SPC_BT709;
        e->color_range = AVCOL_RANGE_MPEG;
    } else {
        e->colorspace = AVCOL_SPC_RGB;
        e->color_range = AVCOL_RANGE_JPEG;
    }
    if (v->oc->oformat->flags & AVFMT_GLOBALHEADER)
        e->flags |= AV_CODEC_FLAG_GLOBAL_HEADER;
    AVDictionary *opts = NULL;
    char num[32];
    switch (kind) {
    case C_H264:
        snprintf(num, sizeof num, "%d", o->crf >= 0 ? o->crf : 18);
        av_dict_set(&opts, "crf", num, 0);
        av_dict_set(&opts, "preset", o->preset ? o->preset : "veryfast", 0);
        av_dict_set(&opts, "x264-params", "open-gop=0", 0);
        break;
    case C_X264RGB:
        av_dict_set(&opts, "qp", "0", 0);
        av_dict_set(&opts, "preset", o->preset ? o->preset : "veryfast", 0);
        av_dict_set(&opts, "x264-params", "open-gop=0", 0);
        break;
    case C_VP9:
        snprintf(num, sizeof num, "%d", o->crf >= 0 ? o->crf : 24);
        av_dict_set(&opts, "crf", num, 0);
        av_dict_set(&opts, "b", "0", 0);
        av_dict_set(&opts, "deadline", "realtime", 0);
        av_dict_set(&opts, "cpu-used", "8", 0);
        av_dict_set(&opts, "row-mt", "1", 0);
        break;
    case C_FFV1:
        av_dict_set(&opts, "level", "3", 0);
        av_dict_set(&opts, "g", "1", 0);
        break;
    case C_QTRLE:
        break;
    }
    if (o->chunk)
        e->flags |= AV_CODEC_FLAG_CLOSED_GOP;
    int r = avcodec_open2(e, c, &opts);
    av_dict_free(&opts);
    if (r < 0) {
        char eb[128];
        return mmd_fail(err, MMD_E_ENCODER, "cannot open encoder %s: %s", k_encoder_names[kind], averr(r, eb, sizeof eb));
    }
    v->vst = avformat_new_stream(v->oc, NULL);
    if (!v->vst || avcodec_parameters_from_context(v->vst->codecpar, e) < 0)
        return mmd_fail(err, MMD_E_ENCODER, "out of memory");
    v->vst->time_base = e->time_base;
    v->vst->avg_frame_rate = e->framerate;
    v->vst->r_frame_rate = e->framerate;
    v->vst->sample_aspect_ratio = e->sample_aspect_ratio;

    bool direct = pf == AV_PIX_FMT_YUV420P; /* mmd_rgba_to_yuv420_bt709 in vs_write, not swscale */
    if (direct)
        goto slots;
    v->sws = sws_getContext(o->width, o->height, AV_PIX_FMT_RGBA, o->width, o->height, pf,
                            SWS_BILINEAR | SWS_ACCURATE_RND | SWS_FULL_CHR_H_INT, NULL, NULL, NULL);
    if (!v->sws) {
        return mmd_fail(err, MMD_E_ENCODER, "cannot convert RGBA to %s", av_get_pix_fmt_name(pf));
    }
    if (yuv) {
        const int *k709 = sws_getCoefficients(SWS_CS_ITU709);
        sws_setColorspaceDetails(v->sws, k709, 1, k709, 0, 0, 1 << 16, 1 << 16);
    }
slots:
    if ((!direct && !(v->vframe = new_frame(v->venc))) || alloc_slots(v, direct)) {
        return mmd_fail(err, MMD_E_ENCODER, "out of memory for the frame queue");
    }
    return MMD_OK;
}

mmd_sink *mmd_sink_video_open(const mmd_video_options *o, mmd_error *err)
{
    if (!o || !o->path || o->width <= 0 || o->height <= 0 || o->fps_num <= 0 || o->fps_den <= 0) {
        mmd_fail(err, MMD_E_USAGE, "video: bad options (path, size and frame rate are required)");
        return NULL;
    }
    codec_kind kind = C_H264;
    if (pick_codec(o, &kind, err) != MMD_OK)
        return NULL;
    video_sink *v = calloc(1, sizeof *v);
    if (!v) {
        mmd_fail(err, MMD_E_ENCODER, "out of memory");
        return NULL;
    }
    pthread_mutex_init(&v->mu, NULL);
    pthread_cond_init(&v->can_put, NULL);
    pthread_cond_init(&v->can_get, NULL);
    v->o = *o;
    v->base.vt = &k_video_vt;
    v->final_path = strdup(o->path);
    v->tmp_path = mmd_temp_path_dup(o->path, "part");
    v->audio_path = o->audio_path && !o->chunk ? strdup(o->audio_path) : NULL;
    v->o.path = v->final_path;
    v->o.codec = NULL;
    v->o.audio_path = v->audio_path;
    v->nslots = o->queue_frames > 0 ? o->queue_frames : 6;
    v->slot_frame = calloc((size_t)v->nslots, sizeof *v->slot_frame);
    v->pkt = av_packet_alloc();
    if (!v->final_path || !v->tmp_path || (o->audio_path && !o->chunk && !v->audio_path) || !v->slot_frame ||
        !v->pkt)
        goto oom;
    const AVOutputFormat *fmt = av_guess_format(NULL, v->final_path, NULL);
    if (!fmt || avformat_alloc_output_context2(&v->oc, fmt, NULL, v->tmp_path) < 0 || !v->oc) {
        mmd_fail(err, MMD_E_ENCODER, "%s: no muxer for this file name", v->final_path);
        goto fail;
    }
    if (open_video_encoder(v, kind, err) != MMD_OK)
        goto fail;
    v->o.preset = NULL; /* the caller's string: not kept past open */
    if (v->audio_path) {
        /* scene time s plays file time s - audio_offset; the first frame is at start_time.
         * When those line up (offset 0) and the container takes the file's codec (AAC or
         * MP3 in MP4/MOV, Opus or Vorbis in WebM, ...) with packets no longer than a frame
         * (the copy ends on a packet), packets are copied: no second lossy generation.
         * WAV and other PCM are always encoded. */
        mmd_audio_options ao = {.path = v->audio_path, .offset = o->audio_offset - o->start_time,
                                .allow_copy = true, .max_packet_s = (double)o->fps_den / o->fps_num};
        if (mmd_audio_open(&v->audio, v->oc, &ao, err) != MMD_OK)
            goto fail; /* the audio's status: unreadable input or the encoder */
    }
    char eb[128];
    int e = avio_open(&v->oc->pb, v->tmp_path, AVIO_FLAG_WRITE);
    if (e < 0) {
        mmd_fail(err, MMD_E_OUTPUT, "%s: cannot create the video file: %s", v->final_path,
                 averr(e, eb, sizeof eb));
        free(v->tmp_path); /* nothing to delete */
        v->tmp_path = NULL;
        goto fail;
    }
    if ((e = avformat_write_header(v->oc, NULL)) < 0) {
        mmd_fail(err, MMD_E_ENCODER, "%s: cannot write the header: %s", v->final_path, averr(e, eb, sizeof eb));
        goto fail;
    }
    v->header_written = true;
    if (pthread_create(&v->thread, NULL, encoder_main, v) != 0) {
        mmd_fail(err, MMD_E_ENCODER, "cannot start the encoder thread");
        goto fail;
    }
    v->thread_started = true;
    return &v->base;
oom:
    mmd_fail(err, MMD_E_ENCODER, "out of memory");
fail:
    destroy(v);
    return NULL;
}
