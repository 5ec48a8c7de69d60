/* renderer/output/sink_video.c - video sink: queue -> encoder thread -> libav muxer (+ audio). */
#include "renderer/output/sink_video.h"

#include <errno.h>
#include <libavcodec/avcodec.h>
#include <libavformat/avformat.h>
#include <libavutil/imgutils.h>
#include <libavutil/opt.h>
#include <libavutil/pixdesc.h>
#include <libswscale/swscale.h>
#include <limits.h>
#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>

#include "renderer/output/audio.h"
#include "renderer/output/codecs.h"
#include "renderer/base/fs.h"
#include "renderer/output/yuv.h"

#define ENCODER_NICE 10 /* the encoder thread's nice value (see encoder_main) */

typedef struct video_sink {
    mmd_sink base; /* first: mmd_sink * <-> video_sink * */
    mmd_video_options o;
    char *final_path, *tmp_path, *audio_path;
    int tmp_fd; /* the temporary, created exclusively (renderer/base/fs.h); -1 none */
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
    return mmd_codec_is_container(path_ext(path));
}

/* ---- muxing ------------------------------------------------------------- */

static bool cancelled(const video_sink *v) { return v->o.cancel && *v->o.cancel; }

/* Packets the encoder has ready into the file. give_up >= 0 (the final flush):
 * once cancelled and past that time, stop; the frames the encoder still holds
 * are lost, the file stays playable. */
static int drain(video_sink *v, AVCodecContext *enc, AVStream *st, double give_up)
{
    for (;;) {
        if (give_up >= 0 && cancelled(v) && now_s() > give_up)
            return 0;
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

/* A write to the file that failed (disk full, file too large, I/O error) is
 * an output error (exit 5), whatever stage noticed it; else the encoder's. */
static mmd_status failure_status(const video_sink *v, int e)
{
    if ((v->oc && v->oc->pb && v->oc->pb->error < 0) || e == AVERROR(ENOSPC) || e == AVERROR(EFBIG) ||
        e == AVERROR(EIO) || e == AVERROR(EDQUOT))
        return MMD_E_OUTPUT;
    return MMD_E_ENCODER;
}

/* The audio track's time base for a frame count: 1 / fps. */
static AVRational frame_tb(const video_sink *v) { return (AVRational){v->o.fps_den, v->o.fps_num}; }

/* Audio in whole encoder frames up to the video's time (encoder thread). */
static mmd_status write_audio(video_sink *v, mmd_error *err)
{
    mmd_error ae;
    if (mmd_audio_write_to(v->audio, v->vpts, frame_tb(v), &ae) == MMD_OK)
        return MMD_OK;
    return mmd_fail(err, failure_status(v, 0), "%s: %s", v->final_path, ae.msg);
}

/* A libav step of encoding that failed with e: "PATH: encoding failed: REASON". */
static mmd_status encode_failed(const video_sink *v, int e, mmd_error *err)
{
    char eb[128];
    return mmd_fail(err, failure_status(v, e), "%s: encoding failed: %s", v->final_path, averr(e, eb, sizeof eb));
}

/* Frame slot idx through the encoder (and the audio up to its time). */
static mmd_status encode_video(video_sink *v, int idx, mmd_error *err)
{
    AVFrame *f = v->vframe;
    if (v->yuv) {
        f = v->yuv[idx]; /* converted by vs_write */
    } else {
        int e = av_frame_make_writable(f);
        if (e < 0)
            return encode_failed(v, e, err);
        const uint8_t *src[1] = {v->slots[idx]};
        int stride[1] = {v->o.width * 4};
        sws_scale(v->sws, src, stride, 0, v->o.height, f->data, f->linesize);
    }
    f->pts = v->vpts++;
    int e = avcodec_send_frame(v->venc, f);
    if (e >= 0)
        e = drain(v, v->venc, v->vst, -1);
    if (e < 0)
        return encode_failed(v, e, err);
    return v->audio ? write_audio(v, err) : MMD_OK;
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
        if (!failed && !cancelled(v)) { /* a signal: what is still queued is dropped */
            double t0 = now_s();
            mmd_error fe;
            mmd_status st = encode_video(v, idx, &fe);
            v->encode_s += now_s() - t0;
            if (st != MMD_OK)
                set_failed_text(v, st, fe.msg);
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
    if (v->tmp_fd >= 0)
        close(v->tmp_fd);
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
        e = drain(v, v->venc, v->vst, now_s() + MMD_VIDEO_STOP_GRACE_MS / 1000.0);
    if (e < 0)
        return mmd_fail(err, failure_status(v, e), "%s: flushing the video encoder failed: %s", v->final_path,
                        averr(e, eb, sizeof eb));
    if (v->audio) {
        mmd_error ae;
        mmd_audio_set_end(v->audio, v->vpts, frame_tb(v)); /* audio ends with the video */
        if (mmd_audio_finish(v->audio, &ae) != MMD_OK)
            return mmd_fail(err, failure_status(v, 0), "%s: %s", v->final_path, ae.msg);
    }
    if ((e = av_write_trailer(v->oc)) < 0 || (e = avio_closep(&v->oc->pb)) < 0)
        return mmd_fail(err, MMD_E_OUTPUT, "%s: finishing the file failed: %s", v->final_path,
                        averr(e, eb, sizeof eb));
    if (mmd_temp_commit(v->tmp_path, v->final_path) != 0)
        return mmd_fail(err, MMD_E_OUTPUT, "%s: cannot rename from %s: %s", v->final_path, v->tmp_path,
                        errno == ELOOP ? "the name is a symbolic link (not replaced)" : strerror(errno));
    free(v->tmp_path);
    v->tmp_path = NULL; /* done: destroy must not unlink */
    v->base.temp_path = NULL;
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

/* The codec context for row k: size, rate, pixel format, threads, colour tags. */
static AVCodecContext *encoder_context(video_sink *v, const mmd_codec *k, const AVCodec *c, enum AVPixelFormat pf)
{
    const mmd_video_options *o = &v->o;
    AVCodecContext *e = avcodec_alloc_context3(c);
    if (!e)
        return NULL;
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
     * instead of slowing the renderer. libx265 likewise (codecs.c). The others
     * keep --threads: their slices or frames are coded independently. */
    e->thread_count = mmd_codec_threads(k, o->threads);
    if (k->flags & MMD_CODEC_YUV) {
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
    if (o->chunk)
        e->flags |= AV_CODEC_FLAG_CLOSED_GOP;
    return e;
}

/* Subsampled chroma (4:2:x) needs even sizes. */
static bool size_fits(enum AVPixelFormat pf, int w, int h)
{
    const AVPixFmtDescriptor *d = av_pix_fmt_desc_get(pf);
    return !d || (!(d->log2_chroma_w && (w & 1)) && !(d->log2_chroma_h && (h & 1)));
}

mmd_status mmd_sink_video_check(const mmd_video_options *o, mmd_error *err)
{
    const mmd_codec *k = mmd_codec_pick(o->path, o->codec, o->alpha, o->preset, err);
    if (!k)
        return MMD_E_USAGE;
    const AVCodec *c = avcodec_find_encoder_by_name(k->encoder);
    if (!c)
        return mmd_fail(err, MMD_E_ENCODER, "encoder %s is not available in this libavcodec", k->encoder);
    enum AVPixelFormat pf = mmd_codec_pix_fmt(k, c, o->alpha);
    if (pf != AV_PIX_FMT_NONE && !size_fits(pf, o->width, o->height))
        return mmd_fail(err, MMD_E_USAGE, "%s (%s) needs an even width and height for its subsampled chroma, "
                        "got %dx%d", k->name, av_get_pix_fmt_name(pf), o->width, o->height);
    /* libavutil's own frame size rule ((w + 128) * (h + 128) < INT_MAX / 8: 16384x16384 is past it), which
     * every encoder and frame allocation applies at open, after the scene is loaded: say so now */
    if (av_image_check_size((unsigned)o->width, (unsigned)o->height, 0, NULL) < 0)
        return mmd_fail(err, MMD_E_USAGE, "%dx%d is larger than libavcodec takes for a video frame "
                        "((w + 128) x (h + 128) must stay under %d): use a smaller --size or PNG output",
                        o->width, o->height, INT_MAX / 8);
    return MMD_OK;
}

static mmd_status open_video_encoder(video_sink *v, const mmd_codec *k, mmd_error *err)
{
    const mmd_video_options *o = &v->o;
    const AVCodec *c = avcodec_find_encoder_by_name(k->encoder);
    if (!c)
        return mmd_fail(err, MMD_E_ENCODER, "encoder %s is not available in this libavcodec", k->encoder);
    enum AVPixelFormat pf = mmd_codec_pix_fmt(k, c, o->alpha);
    if (pf == AV_PIX_FMT_NONE)
        return mmd_fail(err, MMD_E_ENCODER, "encoder %s has no suitable pixel format", k->encoder);
    if (!size_fits(pf, o->width, o->height))
        return mmd_fail(err, MMD_E_ENCODER, "%s (%s) needs an even width and height for its subsampled chroma, "
                        "got %dx%d", k->name, av_get_pix_fmt_name(pf), o->width, o->height);
    AVCodecContext *e = v->venc = encoder_context(v, k, c, pf);
    if (!e)
        return mmd_fail(err, MMD_E_ENCODER, "out of memory");
    AVDictionary *opts = NULL;
    mmd_codec_args args = {.crf = o->crf, .preset = o->preset, .alpha = o->alpha, .threads = o->threads};
    if (mmd_codec_options(k, &args, &opts)) {
        av_dict_free(&opts);
        return mmd_fail(err, MMD_E_ENCODER, "out of memory");
    }
    int r = avcodec_open2(e, c, &opts);
    av_dict_free(&opts);
    if (r < 0) {
        char eb[128];
        return mmd_fail(err, MMD_E_ENCODER, "cannot open encoder %s: %s", k->encoder, averr(r, eb, sizeof eb));
    }
    v->vst = avformat_new_stream(v->oc, NULL);
    if (!v->vst || avcodec_parameters_from_context(v->vst->codecpar, e) < 0)
        return mmd_fail(err, MMD_E_ENCODER, "out of memory");
    v->vst->time_base = e->time_base;
    v->vst->avg_frame_rate = e->framerate;
    v->vst->r_frame_rate = e->framerate;
    v->vst->sample_aspect_ratio = e->sample_aspect_ratio;
    const char *mux = v->oc->oformat->name;
    if ((k->flags & MMD_CODEC_HVC1) && (!strcmp(mux, "mp4") || !strcmp(mux, "mov")))
        v->vst->codecpar->codec_tag = MKTAG('h', 'v', 'c', '1');

    bool direct = pf == AV_PIX_FMT_YUV420P; /* mmd_rgba_to_yuv420_bt709 in vs_write, not swscale */
    if (direct)
        goto slots;
    v->sws = sws_getContext(o->width, o->height, AV_PIX_FMT_RGBA, o->width, o->height, pf,
                            SWS_BILINEAR | SWS_ACCURATE_RND | SWS_FULL_CHR_H_INT, NULL, NULL, NULL);
    if (!v->sws) {
        return mmd_fail(err, MMD_E_ENCODER, "cannot convert RGBA to %s", av_get_pix_fmt_name(pf));
    }
    if (k->flags & MMD_CODEC_YUV) {
        const int *k709 = sws_getCoefficients(SWS_CS_ITU709);
        sws_setColorspaceDetails(v->sws, k709, 1, k709, 0, 0, 1 << 16, 1 << 16);
    }
slots:
    if ((!direct && !(v->vframe = new_frame(v->venc))) || alloc_slots(v, direct)) {
        return mmd_fail(err, MMD_E_ENCODER, "out of memory for the frame queue");
    }
    return MMD_OK;
}

uint64_t mmd_sink_video_memory(const mmd_video_options *o)
{
    const mmd_codec *c = mmd_codec_pick(o->path, o->codec, o->alpha, o->preset, NULL);
    if (!c || o->width <= 0 || o->height <= 0)
        return 0;
    int threads = mmd_codec_threads(c, o->threads);
    if (threads <= 0) { /* libavcodec's automatic count: the CPUs, at most 16 */
        long n = sysconf(_SC_NPROCESSORS_ONLN);
        threads = n < 1 ? 1 : n > 16 ? 16 : (int)n;
    }
    uint64_t per_px = (o->alpha && c->sink_bytes_alpha ? c->sink_bytes_alpha : c->sink_bytes) +
                      (uint64_t)c->sink_bytes_thread * (uint64_t)(threads - 1);
    return (uint64_t)o->width * (uint64_t)o->height * per_px;
}

mmd_sink *mmd_sink_video_open(const mmd_video_options *o, mmd_error *err)
{
    if (!o || !o->path || o->width <= 0 || o->height <= 0 || o->fps_num <= 0 || o->fps_den <= 0) {
        mmd_fail(err, MMD_E_USAGE, "video: bad options (path, size and frame rate are required)");
        return NULL;
    }
    const mmd_codec *kind = mmd_codec_pick(o->path, o->codec, o->alpha, o->preset, err);
    if (!kind)
        return NULL;
    video_sink *v = calloc(1, sizeof *v);
    if (!v) {
        mmd_fail(err, MMD_E_ENCODER, "out of memory");
        return NULL;
    }
    v->tmp_fd = -1;
    pthread_mutex_init(&v->mu, NULL);
    pthread_cond_init(&v->can_put, NULL);
    pthread_cond_init(&v->can_get, NULL);
    v->o = *o;
    v->base.vt = &k_video_vt;
    v->final_path = strdup(o->path);
    v->tmp_fd = mmd_temp_create(o->path, "part", &v->tmp_path);
    if (v->tmp_fd < 0) {
        mmd_fail(err, MMD_E_OUTPUT, "%s: cannot create the video file: %s", o->path, strerror(errno));
        v->tmp_path = NULL;
        goto fail;
    }
    v->base.temp_path = v->tmp_path;
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
    /* no random Matroska segment UID, no date, no library version: the same
     * frames give the same file bytes on every run and machine */
    v->oc->flags |= AVFMT_FLAG_BITEXACT;
    if (open_video_encoder(v, kind, err) != MMD_OK)
        goto fail;
    v->o.preset = NULL; /* the caller's string: not kept past open */
    if (v->audio_path) {
        /* scene time s plays file time s - audio_offset; the first frame is at start_time.
         * When those line up (offset 0) and the container takes the file's codec (AAC or
         * MP3 in MP4/MOV, Opus or Vorbis in WebM, ...) with packets no longer than a frame
         * (the copy ends on a packet), packets are copied: no second lossy generation.
         * WAV and other PCM are always encoded. Editing codecs (UtVideo, ProRes) and
         * AVI get 16-bit PCM, what editors expect beside them, never a copy. */
        bool pcm = (kind->flags & MMD_CODEC_PCM) || !strcmp(v->oc->oformat->name, "avi");
        mmd_audio_options ao = {.path = v->audio_path, .offset = o->audio_offset - o->start_time,
                                .allow_copy = !pcm, .max_packet_s = (double)o->fps_den / o->fps_num,
                                .pcm = pcm};
        if (mmd_audio_open(&v->audio, v->oc, &ao, err) != MMD_OK)
            goto fail; /* the audio's status: unreadable input or the encoder */
    }
    char eb[128];
    char fdpath[32];
    mmd_fd_path(v->tmp_fd, fdpath, sizeof fdpath); /* the file created above, whatever its name is now */
    int e = avio_open(&v->oc->pb, fdpath, AVIO_FLAG_WRITE);
    if (e < 0) {
        mmd_fail(err, MMD_E_OUTPUT, "%s: cannot create the video file: %s", v->final_path,
                 averr(e, eb, sizeof eb));
        goto fail;
    }
    if (o->chunk && o->chunk_tag && av_dict_set(&v->oc->metadata, "comment", o->chunk_tag, 0) < 0) {
        mmd_fail(err, MMD_E_ENCODER, "out of memory");
        goto fail;
    }
    if ((e = mmd_mux_write_header(v->oc, fdpath)) < 0) {
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
