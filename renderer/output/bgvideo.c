/* renderer/output/bgvideo.c - MMD's background video read frame by frame
 * (bgvideo.h): libavformat demuxes, libavcodec decodes, swscale converts to
 * RGBA; a time before the shown frame or far past it seeks. */
#include "renderer/output/bgvideo.h"

#include <libavcodec/avcodec.h>
#include <libavformat/avformat.h>
#include <libavutil/imgutils.h>
#include <libswscale/swscale.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "renderer/image/decode.h"
#include "renderer/output/media_open.h"

#define TIME_EPS 2e-3   /* seconds: a frame at t +- this is the frame at t (Matroska rounds to 1 ms) */
#define SEEK_AHEAD 10.0 /* seconds: further ahead than this, seek instead of decoding through */

struct mmd_bgvideo {
    char *path;
    AVFormatContext *ic;
    AVCodecContext *dec;
    int stream;
    double tb, start;       /* stream time base and start time, seconds */
    AVPacket *pkt;
    AVFrame *pending;       /* decoded, not shown yet (when have_pending) */
    bool have_pending, eof, drained;
    struct SwsContext *sws;
    int w, h;               /* output size: the first frame's */
    uint8_t *rgba;
    bool have_frame;
    double shown_t;         /* time of the frame in rgba */
    double next_guess;      /* time for a frame without a timestamp */
    unsigned serial, given; /* frames converted / the serial of the last frame handed out */
};

static const char *averr(int e, char *buf, size_t n)
{
    av_strerror(e, buf, n);
    return buf;
}

static mmd_status open_decoder(mmd_bgvideo *v, mmd_error *err)
{
    char eb[128];
    mmd_status rc = mmd_media_open(v->path, MMD_MEDIA_VIDEO, &v->ic, err);
    if (rc != MMD_OK)
        return rc;
    int e = avformat_find_stream_info(v->ic, NULL);
    if (e < 0)
        return mmd_fail(err, MMD_E_BAD_STRUCTURE, "%s: cannot read the background video: %s", v->path,
                        averr(e, eb, sizeof eb));
    const AVCodec *dc = NULL;
    v->stream = av_find_best_stream(v->ic, AVMEDIA_TYPE_VIDEO, -1, -1, &dc, 0);
    if (v->stream < 0)
        return mmd_fail(err, MMD_E_BAD_STRUCTURE, "%s: no video stream", v->path);
    AVStream *st = v->ic->streams[v->stream];
    if (!dc)
        return mmd_fail(err, MMD_E_UNSUPPORTED, "%s: no decoder for its video (%s)", v->path,
                        avcodec_get_name(st->codecpar->codec_id));
    long long w = st->codecpar->width, h = st->codecpar->height;
    if (w < 1 || h < 1 || w > MMD_IMAGE_MAX_SIDE || h > MMD_IMAGE_MAX_SIDE || w * h > MMD_BGVIDEO_MAX_PIXELS)
        return mmd_fail(err, MMD_E_LIMIT, "%s: video size %lldx%lld out of range (1..%d a side, %u pixels)", v->path,
                        w, h, MMD_IMAGE_MAX_SIDE, (unsigned)MMD_BGVIDEO_MAX_PIXELS);
    v->dec = avcodec_alloc_context3(dc);
    if (!v->dec || avcodec_parameters_to_context(v->dec, st->codecpar) < 0)
        return mmd_fail(err, MMD_E_NOMEM, "out of memory");
    v->dec->thread_count = 1; /* frames come out in order, the same on every machine */
    /* it keeps up to 16 reference frames: a size change inside the stream stays in the cap too */
    v->dec->max_pixels = MMD_BGVIDEO_MAX_PIXELS;
    if (avcodec_open2(v->dec, dc, NULL) < 0)
        return mmd_fail(err, MMD_E_UNSUPPORTED, "%s: cannot open the video decoder", v->path);
    v->w = (int)w;
    v->h = (int)h;
    v->tb = av_q2d(st->time_base);
    v->start = st->start_time != AV_NOPTS_VALUE ? (double)st->start_time * v->tb : 0.0;
    v->pkt = av_packet_alloc();
    v->pending = av_frame_alloc();
    v->rgba = malloc((size_t)v->w * (size_t)v->h * 4);
    if (!v->pkt || !v->pending || !v->rgba)
        return mmd_fail(err, MMD_E_NOMEM, "out of memory");
    return MMD_OK;
}

mmd_status mmd_bgvideo_open(const char *path, mmd_bgvideo **out, mmd_error *err)
{
    mmd_bgvideo *v = calloc(1, sizeof *v);
    if (!v || !(v->path = strdup(path))) {
        free(v);
        return mmd_fail(err, MMD_E_NOMEM, "out of memory");
    }
    mmd_status st = open_decoder(v, err);
    if (st != MMD_OK) {
        mmd_bgvideo_free(v);
        return st;
    }
    *out = v;
    return MMD_OK;
}

/* The next decoded frame into v->pending: 1, 0 at the end, or an AVERROR. */
static int decode_one(mmd_bgvideo *v)
{
    for (;;) {
        int r = avcodec_receive_frame(v->dec, v->pending);
        if (r == 0)
            return 1;
        if (r == AVERROR_EOF)
            return 0;
        if (r != AVERROR(EAGAIN))
            return r;
        if (v->eof) {
            if (v->drained)
                return 0;
            v->drained = true;
            avcodec_send_packet(v->dec, NULL); /* flush: the frames the decoder holds */
            continue;
        }
        if (av_read_frame(v->ic, v->pkt) < 0) {
            v->eof = true;
            continue;
        }
        r = v->pkt->stream_index == v->stream ? avcodec_send_packet(v->dec, v->pkt) : 0;
        av_packet_unref(v->pkt);
        if (r < 0 && r != AVERROR(EAGAIN) && r != AVERROR_INVALIDDATA)
            return r; /* a damaged packet is skipped; anything else ends the decode */
    }
}

static double frame_time(mmd_bgvideo *v, const AVFrame *f)
{
    int64_t ts = f->best_effort_timestamp;
    if (ts == AV_NOPTS_VALUE)
        return v->next_guess;
    return (double)ts * v->tb - v->start;
}

/* The frame f into v->rgba; MMD_E_UNSUPPORTED when swscale cannot convert it. */
static mmd_status convert(mmd_bgvideo *v, const AVFrame *f, mmd_error *err)
{
    v->sws = sws_getCachedContext(v->sws, f->width, f->height, (enum AVPixelFormat)f->format, v->w, v->h,
                                  AV_PIX_FMT_RGBA, SWS_BILINEAR | SWS_ACCURATE_RND | SWS_BITEXACT, NULL, NULL,
                                  NULL);
    if (!v->sws || f->width < 1 || f->height < 1)
        return mmd_fail(err, MMD_E_UNSUPPORTED, "%s: cannot convert its frames to RGBA", v->path);
    uint8_t *dst[4] = {v->rgba, NULL, NULL, NULL};
    int stride[4] = {v->w * 4, 0, 0, 0};
    sws_scale(v->sws, (const uint8_t *const *)f->data, f->linesize, 0, f->height, dst, stride);
    return MMD_OK;
}

/* To the key frame at or before t; false when the stream cannot seek. */
static bool seek(mmd_bgvideo *v, double t)
{
    int64_t ts = (int64_t)((t + v->start) / v->tb);
    if (av_seek_frame(v->ic, v->stream, ts, AVSEEK_FLAG_BACKWARD) < 0)
        return false;
    avcodec_flush_buffers(v->dec);
    av_frame_unref(v->pending);
    v->have_pending = v->eof = v->drained = false;
    v->have_frame = false; /* rgba keeps the old frame until a new one is converted */
    return true;
}

mmd_status mmd_bgvideo_frame(mmd_bgvideo *v, double seconds, const uint8_t **rgba, int *w, int *h, bool *changed,
                             mmd_error *err)
{
    bool had = v->serial > 0;
    if (v->have_frame && (seconds < v->shown_t - TIME_EPS || seconds > v->shown_t + SEEK_AHEAD))
        seek(v, seconds);
    for (;;) {
        if (!v->have_pending) {
            int r = decode_one(v);
            if (r <= 0) {
                if (!had && v->serial == 0) {
                    char eb[128];
                    return mmd_fail(err, MMD_E_BAD_STRUCTURE, "%s: no frame could be decoded%s%s", v->path,
                                    r < 0 ? ": " : "", r < 0 ? averr(r, eb, sizeof eb) : "");
                }
                break; /* the end (or a broken tail): the last frame stays */
            }
            v->have_pending = true;
        }
        double pt = frame_time(v, v->pending);
        if (v->have_frame && pt > seconds + TIME_EPS)
            break;
        mmd_status st = convert(v, v->pending, err);
        if (st != MMD_OK)
            return st;
        v->have_frame = true;
        v->shown_t = pt;
        v->serial++;
        double d = v->pending->pkt_duration > 0 ? (double)v->pending->pkt_duration * v->tb : 1.0 / 30.0;
        v->next_guess = pt + d;
        v->have_pending = false;
        av_frame_unref(v->pending);
        if (pt > seconds + TIME_EPS)
            break; /* the first frame, shown before its time */
    }
    *rgba = v->rgba;
    *w = v->w;
    *h = v->h;
    *changed = v->serial != v->given;
    v->given = v->serial;
    return MMD_OK;
}

void mmd_bgvideo_free(mmd_bgvideo *v)
{
    if (!v)
        return;
    sws_freeContext(v->sws);
    av_frame_free(&v->pending);
    av_packet_free(&v->pkt);
    avcodec_free_context(&v->dec);
    mmd_media_close(&v->ic);
    free(v->rgba);
    free(v->path);
    free(v);
}
