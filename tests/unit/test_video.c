/* tests/unit/test_video.c - the video sink: containers, codecs, read back with libavformat. */
#include <libavcodec/avcodec.h>
#include <libavformat/avformat.h>
#include <libavutil/log.h>
#include <libavutil/pixdesc.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "renderer/cli/commands.h"
#include "renderer/output/sink_video.h"
#include "tests/util/test.h"

TEST_STATE_DEFINE

static char g_dir[64];

static void path_in(char *out, size_t n, const char *name) { snprintf(out, n, "%s/%s", g_dir, name); }

/* Mono 16-bit WAV: silence, then a 1 kHz tone from `tone_at` seconds to the end. */
static void write_wav(const char *path, int rate, double seconds, double tone_at)
{
    int n = (int)(rate * seconds);
    FILE *f = fopen(path, "wb");
    if (!f)
        return;
    uint32_t data = (uint32_t)n * 2, riff = 36 + data, fmt_len = 16, byte_rate = (uint32_t)rate * 2;
    uint16_t pcm = 1, ch = 1, align = 2, bits = 16;
    uint32_t r = (uint32_t)rate;
    fwrite("RIFF", 1, 4, f);
    fwrite(&riff, 4, 1, f);
    fwrite("WAVEfmt ", 1, 8, f);
    fwrite(&fmt_len, 4, 1, f);
    fwrite(&pcm, 2, 1, f);
    fwrite(&ch, 2, 1, f);
    fwrite(&r, 4, 1, f);
    fwrite(&byte_rate, 4, 1, f);
    fwrite(&align, 2, 1, f);
    fwrite(&bits, 2, 1, f);
    fwrite("data", 1, 4, f);
    fwrite(&data, 4, 1, f);
    for (int i = 0; i < n; i++) {
        double t = (double)i / rate;
        int16_t s = t >= tone_at ? (int16_t)(20000 * sin(2 * M_PI * 1000 * t)) : 0;
        fwrite(&s, 2, 1, f);
    }
    fclose(f);
}

/* A frame with a gradient, a moving square and (optionally) varying alpha. */
static void fill_frame(uint8_t *px, int w, int h, int i)
{
    for (int y = 0; y < h; y++)
        for (int x = 0; x < w; x++) {
            uint8_t *p = px + ((size_t)y * w + x) * 4;
            bool sq = x >= i * 2 && x < i * 2 + 16 && y >= 8 && y < 24;
            p[0] = sq ? 255 : (uint8_t)(x * 255 / w);
            p[1] = sq ? 0 : (uint8_t)(y * 255 / h);
            p[2] = (uint8_t)(i * 20);
            p[3] = (uint8_t)(x < w / 2 ? 255 : 64);
        }
}

static void count_done(void *user, int64_t frame)
{
    (void)frame;
    (*(int *)user)++;
}

/* Encode `frames` frames; returns the sink's close status (or 99 if open
 * failed, *open_code then holds the open's mmd_status). */
static int encode(mmd_video_options *o, int frames, int *open_code, int *done)
{
    mmd_error err;
    err.status = MMD_OK;
    mmd_sink *s = mmd_sink_video_open(o, &err);
    if (open_code)
        *open_code = err.status;
    if (!s) {
        if (!open_code)
            printf("#   open failed: %s\n", err.msg);
        return 99;
    }
    if (done) {
        s->on_done = count_done;
        s->user = done;
    }
    uint8_t *px = malloc((size_t)o->width * o->height * 4);
    for (int i = 0; i < frames; i++) {
        fill_frame(px, o->width, o->height, i);
        if (mmd_sink_write(s, px, o->width, o->height, (size_t)o->width * 4, 100 + i, &err) != MMD_OK) {
            printf("#   write failed: %s\n", err.msg);
            mmd_sink_abort(s);
            free(px);
            return 98;
        }
    }
    free(px);
    int rc = mmd_sink_close(s, &err);
    if (rc)
        printf("#   close failed: %s\n", err.msg);
    return rc;
}

typedef struct probe {
    int vpackets, apackets;
    int width, height, pix_fmt, profile;
    unsigned vtag;          /* the container's video codec tag */
    enum AVCodecID vcodec, acodec;
    AVRational fps;
    enum AVColorPrimaries primaries;
    enum AVColorRange range;
    double audio_duration;  /* seconds of decoded audio */
    double first_loud;      /* seconds, -1 when none */
    bool alpha_mode;        /* webm alpha tag */
    bool first_key;
    uint8_t first_pixel[4]; /* decoded first frame, pixel (0,0) as RGBA (RGB codecs) */
    int sample_rate;
} probe;

static int probe_file(const char *path, probe *p)
{
    memset(p, 0, sizeof *p);
    p->first_loud = -1;
    AVFormatContext *ic = NULL;
    if (avformat_open_input(&ic, path, NULL, NULL) < 0)
        return -1;
    if (avformat_find_stream_info(ic, NULL) < 0) {
        avformat_close_input(&ic);
        return -1;
    }
    int vs = av_find_best_stream(ic, AVMEDIA_TYPE_VIDEO, -1, -1, NULL, 0);
    int as = av_find_best_stream(ic, AVMEDIA_TYPE_AUDIO, -1, -1, NULL, 0);
    AVCodecContext *adec = NULL;
    if (vs >= 0) {
        AVStream *st = ic->streams[vs];
        p->width = st->codecpar->width;
        p->height = st->codecpar->height;
        p->pix_fmt = st->codecpar->format;
        p->vcodec = st->codecpar->codec_id;
        p->profile = st->codecpar->profile;
        p->vtag = st->codecpar->codec_tag;
        p->fps = st->avg_frame_rate;
        p->primaries = st->codecpar->color_primaries;
        p->range = st->codecpar->color_range;
        AVDictionaryEntry *e = av_dict_get(st->metadata, "alpha_mode", NULL, 0);
        p->alpha_mode = e && !strcmp(e->value, "1");
    }
    if (as >= 0) {
        AVStream *st = ic->streams[as];
        p->acodec = st->codecpar->codec_id;
        p->sample_rate = st->codecpar->sample_rate;
        const AVCodec *dc = avcodec_find_decoder(st->codecpar->codec_id);
        adec = avcodec_alloc_context3(dc);
        avcodec_parameters_to_context(adec, st->codecpar);
        avcodec_open2(adec, dc, NULL);
    }
    AVPacket *pkt = av_packet_alloc();
    AVFrame *fr = av_frame_alloc();
    int64_t samples = 0;
    while (av_read_frame(ic, pkt) >= 0) {
        if (pkt->stream_index == vs) {
            if (p->vpackets == 0)
                p->first_key = (pkt->flags & AV_PKT_FLAG_KEY) != 0;
            p->vpackets++;
        } else if (pkt->stream_index == as) {
            p->apackets++;
            if (avcodec_send_packet(adec, pkt) >= 0) {
                while (avcodec_receive_frame(adec, fr) >= 0) {
                    for (int i = 0; i < fr->nb_samples && p->first_loud < 0; i++) {
                        float x = fr->format == AV_SAMPLE_FMT_FLTP || fr->format == AV_SAMPLE_FMT_FLT
                                      ? ((float *)fr->data[0])[fr->format == AV_SAMPLE_FMT_FLT ? i * fr->ch_layout.nb_channels : i]
                                  : fr->format == AV_SAMPLE_FMT_S16
                                      ? ((int16_t *)fr->data[0])[i * fr->ch_layout.nb_channels] / 32768.0f
                                      : 0.0f;
                        if (fabsf(x) > 0.2f)
                            p->first_loud = (double)(samples + i) / fr->sample_rate;
                    }
                    samples += fr->nb_samples;
                    av_frame_unref(fr);
                }
            }
        }
        av_packet_unref(pkt);
    }
    if (adec)
        p->audio_duration = (double)samples / adec->sample_rate;
    av_frame_free(&fr);
    av_packet_free(&pkt);
    avcodec_free_context(&adec);
    avformat_close_input(&ic);
    return 0;
}

/* Decode the first video frame to RGBA pixel (x,y). */
static int first_frame_pixel(const char *path, int x, int y, uint8_t out[4])
{
    AVFormatContext *ic = NULL;
    int rc = -1;
    if (avformat_open_input(&ic, path, NULL, NULL) < 0)
        return -1;
    avformat_find_stream_info(ic, NULL);
    int vs = av_find_best_stream(ic, AVMEDIA_TYPE_VIDEO, -1, -1, NULL, 0);
    const AVCodec *dc = avcodec_find_decoder(ic->streams[vs]->codecpar->codec_id);
    AVCodecContext *d = avcodec_alloc_context3(dc);
    avcodec_parameters_to_context(d, ic->streams[vs]->codecpar);
    avcodec_open2(d, dc, NULL);
    AVPacket *pkt = av_packet_alloc();
    AVFrame *fr = av_frame_alloc();
    bool got = false;
    while (!got && av_read_frame(ic, pkt) >= 0) {
        if (pkt->stream_index == vs && avcodec_send_packet(d, pkt) >= 0 && avcodec_receive_frame(d, fr) >= 0)
            got = true;
        av_packet_unref(pkt);
    }
    if (!got) {
        avcodec_send_packet(d, NULL);
        got = avcodec_receive_frame(d, fr) >= 0;
    }
    if (got) {
        const uint8_t *row = fr->data[0] + (size_t)y * fr->linesize[0];
        switch (fr->format) {
        case AV_PIX_FMT_BGR0: case AV_PIX_FMT_BGRA:
            out[0] = row[x * 4 + 2]; out[1] = row[x * 4 + 1]; out[2] = row[x * 4]; out[3] = fr->format == AV_PIX_FMT_BGRA ? row[x * 4 + 3] : 255;
            rc = 0;
            break;
        case AV_PIX_FMT_ARGB:
            out[0] = row[x * 4 + 1]; out[1] = row[x * 4 + 2]; out[2] = row[x * 4 + 3]; out[3] = row[x * 4];
            rc = 0;
            break;
        case AV_PIX_FMT_RGB24:
            out[0] = row[x * 3]; out[1] = row[x * 3 + 1]; out[2] = row[x * 3 + 2]; out[3] = 255;
            rc = 0;
            break;
        case AV_PIX_FMT_GBRP: case AV_PIX_FMT_GBRAP:
            out[0] = fr->data[2][(size_t)y * fr->linesize[2] + x];
            out[1] = fr->data[0][(size_t)y * fr->linesize[0] + x];
            out[2] = fr->data[1][(size_t)y * fr->linesize[1] + x];
            out[3] = fr->format == AV_PIX_FMT_GBRAP ? fr->data[3][(size_t)y * fr->linesize[3] + x] : 255;
            rc = 0;
            break;
        default:
            printf("#   first frame format %s\n", av_get_pix_fmt_name(fr->format));
        }
    }
    av_frame_free(&fr);
    av_packet_free(&pkt);
    avcodec_free_context(&d);
    avformat_close_input(&ic);
    return rc;
}

static mmd_video_options opts(const char *name)
{
    static char path[8][160];
    static int k;
    char *p = path[k++ % 8];
    path_in(p, 160, name);
    unlink(p);
    mmd_video_options o;
    mmd_video_options_default(&o);
    o.path = p;
    o.width = 64;
    o.height = 48;
    o.threads = 1;
    return o;
}

static bool no_leftovers(void)
{
    char cmd[160];
    snprintf(cmd, sizeof cmd, "ls -a %s | grep -q '\\.part-'", g_dir);
    return system(cmd) != 0;
}

TEST(mp4_h264_ntsc_rate)
{
    mmd_video_options o = opts("a.mp4");
    o.fps_num = 30000;
    o.fps_den = 1001;
    int done = 0;
    REQUIRE(encode(&o, 12, NULL, &done) == 0);
    CHECK_EQ_INT(done, 12);
    probe p;
    REQUIRE(probe_file(o.path, &p) == 0);
    CHECK_EQ_INT(p.vpackets, 12);
    CHECK_EQ_INT(p.vcodec, AV_CODEC_ID_H264);
    CHECK_EQ_INT(p.width, 64);
    CHECK_EQ_INT(p.height, 48);
    CHECK_EQ_INT(p.pix_fmt, AV_PIX_FMT_YUV420P);
    CHECK_EQ_INT(p.fps.num, 30000);
    CHECK_EQ_INT(p.fps.den, 1001);
    CHECK_EQ_INT(p.primaries, AVCOL_PRI_BT709);
    CHECK_EQ_INT(p.range, AVCOL_RANGE_MPEG);
    CHECK_EQ_INT(p.apackets, 0);
    CHECK(p.first_key);
    CHECK(no_leftovers());
}

TEST(lossless_rgb)
{
    uint8_t src[4], got[4];
    uint8_t *px = malloc(64 * 48 * 4);
    fill_frame(px, 64, 48, 0);
    memcpy(src, px + (10 * 64 + 40) * 4, 4);
    free(px);
    const char *names[] = {"l.mkv", "l.mp4", "l.mov"};
    const char *codecs[] = {"ffv1", "x264rgb", "qtrle"};
    const enum AVCodecID ids[] = {AV_CODEC_ID_FFV1, AV_CODEC_ID_H264, AV_CODEC_ID_QTRLE};
    for (int i = 0; i < 3; i++) {
        mmd_video_options o = opts(names[i]);
        o.codec = codecs[i];
        REQUIRE(encode(&o, 3, NULL, NULL) == 0);
        probe p;
        REQUIRE(probe_file(o.path, &p) == 0);
        CHECK_EQ_INT(p.vpackets, 3);
        CHECK_EQ_INT(p.vcodec, ids[i]);
        REQUIRE(first_frame_pixel(o.path, 40, 10, got) == 0);
        CHECK_EQ_INT(got[0], src[0]);
        CHECK_EQ_INT(got[1], src[1]);
        CHECK_EQ_INT(got[2], src[2]);
    }
}

TEST(alpha_codecs)
{
    uint8_t got[4];
    mmd_video_options o = opts("t.mov");
    o.alpha = true; /* default qtrle ARGB */
    REQUIRE(encode(&o, 3, NULL, NULL) == 0);
    probe p;
    REQUIRE(probe_file(o.path, &p) == 0);
    CHECK_EQ_INT(p.vcodec, AV_CODEC_ID_QTRLE);
    CHECK_EQ_INT(p.pix_fmt, AV_PIX_FMT_ARGB);
    REQUIRE(first_frame_pixel(o.path, 60, 40, got) == 0);
    CHECK_EQ_INT(got[3], 64);
    REQUIRE(first_frame_pixel(o.path, 2, 40, got) == 0);
    CHECK_EQ_INT(got[3], 255);

    o = opts("t.mkv");
    o.alpha = true; /* default ffv1 with alpha */
    REQUIRE(encode(&o, 3, NULL, NULL) == 0);
    REQUIRE(probe_file(o.path, &p) == 0);
    CHECK_EQ_INT(p.vcodec, AV_CODEC_ID_FFV1);
    REQUIRE(first_frame_pixel(o.path, 60, 40, got) == 0);
    CHECK_EQ_INT(got[3], 64);

    o = opts("t.webm");
    o.alpha = true; /* vp9 yuva420p: alpha as a side channel, tagged alpha_mode */
    REQUIRE(encode(&o, 5, NULL, NULL) == 0);
    REQUIRE(probe_file(o.path, &p) == 0);
    CHECK_EQ_INT(p.vcodec, AV_CODEC_ID_VP9);
    CHECK_EQ_INT(p.vpackets, 5);
    CHECK(p.alpha_mode);
    CHECK_EQ_INT(p.fps.num, 30);
}

/* The editing and delivery codecs of issue 19: UtVideo AVI (+ PCM), ProRes
 * 422 HQ / 4444, HEVC, H.264 High 10 and 4:4:4. */
TEST(editing_codecs)
{
    char wav[160];
    path_in(wav, sizeof wav, "edit.wav");
    write_wav(wav, 44100, 2.0, 0.5);
    uint8_t src[4], got[4];
    uint8_t *px = malloc(64 * 48 * 4);
    fill_frame(px, 64, 48, 0);
    memcpy(src, px + (10 * 64 + 40) * 4, 4);
    free(px);
    probe p;
    mmd_video_options o = opts("e.avi"); /* default utvideo, RGB, PCM audio */
    o.audio_path = wav;
    REQUIRE(encode(&o, 30, NULL, NULL) == 0);
    REQUIRE(probe_file(o.path, &p) == 0);
    CHECK_EQ_INT(p.vcodec, AV_CODEC_ID_UTVIDEO);
    CHECK_EQ_INT(p.pix_fmt, AV_PIX_FMT_GBRP);
    CHECK_EQ_INT(p.vpackets, 30);
    CHECK_EQ_INT(p.acodec, AV_CODEC_ID_PCM_S16LE);
    CHECK_EQ_INT(p.sample_rate, 48000);
    CHECK(fabs(p.audio_duration - 1.0) < 0.001);
    CHECK(fabs(p.first_loud - 0.5) < 0.005);
    REQUIRE(first_frame_pixel(o.path, 40, 10, got) == 0);
    CHECK(!memcmp(got, src, 3) && got[3] == 255); /* lossless RGB */

    o = opts("ta.avi");
    o.alpha = true; /* utvideo gbrap: alpha kept exactly */
    REQUIRE(encode(&o, 3, NULL, NULL) == 0);
    REQUIRE(probe_file(o.path, &p) == 0);
    CHECK_EQ_INT(p.pix_fmt, AV_PIX_FMT_GBRAP);
    REQUIRE(first_frame_pixel(o.path, 60, 40, got) == 0);
    CHECK_EQ_INT(got[3], 64);

    o = opts("p.mov");
    o.codec = "prores";
    o.audio_path = wav;
    REQUIRE(encode(&o, 3, NULL, NULL) == 0);
    REQUIRE(probe_file(o.path, &p) == 0);
    CHECK_EQ_INT(p.vcodec, AV_CODEC_ID_PRORES);
    CHECK_EQ_INT(p.profile, FF_PROFILE_PRORES_HQ);
    CHECK_EQ_INT(p.pix_fmt, AV_PIX_FMT_YUV422P10LE);
    CHECK_EQ_INT(p.primaries, AVCOL_PRI_BT709);
    CHECK_EQ_INT(p.acodec, AV_CODEC_ID_PCM_S16LE);
    o = opts("pa.mov");
    o.codec = "prores";
    o.alpha = true;
    REQUIRE(encode(&o, 3, NULL, NULL) == 0);
    REQUIRE(probe_file(o.path, &p) == 0);
    CHECK_EQ_INT(p.profile, FF_PROFILE_PRORES_4444);
    const AVPixFmtDescriptor *d = av_pix_fmt_desc_get(p.pix_fmt);
    CHECK(d && (d->flags & AV_PIX_FMT_FLAG_ALPHA));

    o = opts("h.mp4");
    o.codec = "hevc";
    REQUIRE(encode(&o, 5, NULL, NULL) == 0);
    REQUIRE(probe_file(o.path, &p) == 0);
    CHECK_EQ_INT(p.vcodec, AV_CODEC_ID_HEVC);
    CHECK_EQ_INT(p.vpackets, 5);
    CHECK_EQ_INT(p.vtag, MKTAG('h', 'v', 'c', '1'));
    CHECK_EQ_INT(p.primaries, AVCOL_PRI_BT709);
    CHECK_EQ_INT(p.range, AVCOL_RANGE_MPEG);

    const char *names[] = {"h10.mp4", "h444.mkv"};
    const char *codecs[] = {"h264-10", "h264-444"};
    const int profiles[] = {FF_PROFILE_H264_HIGH_10, FF_PROFILE_H264_HIGH_444_PREDICTIVE};
    const int pixs[] = {AV_PIX_FMT_YUV420P10LE, AV_PIX_FMT_YUV444P};
    for (int i = 0; i < 2; i++) {
        o = opts(names[i]);
        o.codec = codecs[i];
        REQUIRE(encode(&o, 3, NULL, NULL) == 0);
        REQUIRE(probe_file(o.path, &p) == 0);
        CHECK_EQ_INT(p.vcodec, AV_CODEC_ID_H264);
        CHECK_EQ_INT(p.profile, profiles[i]);
        CHECK_EQ_INT(p.pix_fmt, pixs[i]);
    }

    /* wrong pairs are usage errors */
    int code = 0;
    const char *bad_names[] = {"x.mp4", "x.avi", "x.mp4", "x.mov", "x.avi"};
    const char *bad_codecs[] = {"prores", "h264", "hevc", "h264-10", "utvideo"};
    const bool bad_alpha[] = {false, false, true, true, false};
    for (int i = 0; i < 5; i++) {
        o = opts(bad_names[i]);
        o.codec = bad_codecs[i];
        o.alpha = bad_alpha[i];
        if (i == 4)
            o.preset = "fast"; /* utvideo has no preset */
        CHECK_EQ_INT(encode(&o, 1, &code, NULL), 99);
        CHECK_EQ_INT(code, MMD_E_USAGE);
    }
    o = opts("odd.mov");
    o.codec = "prores";
    o.width = 63; /* 4:2:2 needs an even width */
    CHECK_EQ_INT(encode(&o, 1, &code, NULL), 99);
    CHECK(no_leftovers());
}

TEST(audio_offsets)
{
    char wav[160];
    path_in(wav, sizeof wav, "beat.wav");
    write_wav(wav, 44100, 3.0, 1.0); /* tone starts 1.0 s into the file */
    /* 45 frames at 30 fps = 1.5 s of video */
    struct { const char *name; double offset, start, loud; enum AVCodecID id; } cases[] = {
        {"d.mp4", 0.25, 0.0, 1.25, AV_CODEC_ID_AAC},   /* delayed: tone at 1.25 s */
        {"e.mp4", -0.5, 0.0, 0.5, AV_CODEC_ID_AAC},    /* trimmed: tone at 0.5 s */
        {"f.mkv", 0.0, 0.5, 0.5, AV_CODEC_ID_AAC},     /* render starts at scene 0.5 s */
        {"g.webm", -0.25, 0.0, 0.75, AV_CODEC_ID_OPUS},
        {"h.mov", 0.0, 0.0, 1.0, AV_CODEC_ID_AAC},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        mmd_video_options o = opts(cases[i].name);
        o.audio_path = wav;
        o.audio_offset = cases[i].offset;
        o.start_time = cases[i].start;
        REQUIRE(encode(&o, 45, NULL, NULL) == 0);
        probe p;
        REQUIRE(probe_file(o.path, &p) == 0);
        printf("#   %s: audio %.4f s, tone at %.4f s\n", cases[i].name, p.audio_duration, p.first_loud);
        CHECK_EQ_INT(p.vpackets, 45);
        CHECK_EQ_INT(p.acodec, cases[i].id);
        CHECK_EQ_INT(p.sample_rate, 48000);
        CHECK(p.apackets > 0);
        /* decoded length: the video's 1.5 s plus at most the encoder's padding of the last
         * frame and, in MKV, the AAC priming (1024 samples) */
        CHECK(p.audio_duration >= 1.5 - 1.0 / 30 && p.audio_duration <= 1.5 + 2048.0 / 48000);
        CHECK_NEAR(p.first_loud, cases[i].loud, 1.0 / 30); /* in sync within one frame */
    }
    /* audio shorter than the video: padded with silence to the video's length */
    mmd_video_options o = opts("short.mp4");
    o.audio_path = wav;
    o.audio_offset = -2.5;
    REQUIRE(encode(&o, 45, NULL, NULL) == 0);
    probe p;
    REQUIRE(probe_file(o.path, &p) == 0);
    CHECK_NEAR(p.audio_duration, 1.5, 1.0 / 30);
    CHECK_NEAR(p.first_loud, 0.0, 1.0 / 30);
}

TEST(chunk_is_video_only)
{
    char wav[160];
    path_in(wav, sizeof wav, "beat.wav");
    mmd_video_options o = opts("chunk.mp4");
    o.audio_path = wav;
    o.chunk = true;
    REQUIRE(encode(&o, 10, NULL, NULL) == 0);
    probe p;
    REQUIRE(probe_file(o.path, &p) == 0);
    CHECK_EQ_INT(p.apackets, 0);
    CHECK_EQ_INT(p.vpackets, 10);
    CHECK(p.first_key);
}

TEST(errors)
{
    int code = 0;
    mmd_video_options o = opts("x.webm");
    o.codec = "h264";
    CHECK_EQ_INT(encode(&o, 1, &code, NULL), 99);
    CHECK_EQ_INT(code, MMD_E_USAGE);
    o = opts("x.mp4");
    o.alpha = true;
    CHECK_EQ_INT(encode(&o, 1, &code, NULL), 99);
    CHECK_EQ_INT(code, MMD_E_USAGE);
    o = opts("x.flv"); /* not a container of ours (.avi is, since UtVideo) */
    CHECK_EQ_INT(encode(&o, 1, &code, NULL), 99);
    CHECK_EQ_INT(code, MMD_E_USAGE);
    o = opts("x.mp4");
    o.width = 63;
    CHECK_EQ_INT(encode(&o, 1, &code, NULL), 99);
    CHECK_EQ_INT(code, MMD_E_ENCODER);
    o = opts("x.mp4");
    o.audio_path = "/nonexistent/beat.wav";
    CHECK_EQ_INT(encode(&o, 1, &code, NULL), 99);
    CHECK_EQ_INT(code, MMD_E_IO);
    mmd_video_options_default(&o);
    o.path = "/nonexistent-dir/out.mp4";
    o.width = 64;
    o.height = 48;
    CHECK_EQ_INT(encode(&o, 1, &code, NULL), 99);
    CHECK_EQ_INT(code, MMD_E_OUTPUT);
    /* the CLI's table keeps the exit codes users see */
    CHECK_EQ_INT(mmd_exit_code(MMD_E_USAGE), MMD_EXIT_USAGE);
    CHECK_EQ_INT(mmd_exit_code(MMD_E_IO), MMD_EXIT_INPUT);
    CHECK_EQ_INT(mmd_exit_code(MMD_E_ENCODER), MMD_EXIT_ENCODER);
    CHECK_EQ_INT(mmd_exit_code(MMD_E_OUTPUT), MMD_EXIT_OUTPUT);
    CHECK(mmd_sink_video_is_video_path("a/b.MP4"));
    CHECK(!mmd_sink_video_is_video_path("a.mp4/b"));
    CHECK(!mmd_sink_video_is_video_path("frames/"));
    CHECK(no_leftovers());
}

TEST(abort_and_interrupt)
{
    /* abort: nothing left behind */
    mmd_video_options o = opts("ab.mp4");
    mmd_error err;
    mmd_sink *s = mmd_sink_video_open(&o, &err);
    REQUIRE(s);
    uint8_t *px = calloc(64 * 48, 4);
    for (int i = 0; i < 4; i++)
        CHECK(mmd_sink_write(s, px, 64, 48, 64 * 4, i, &err) == MMD_OK);
    mmd_sink_abort(s);
    CHECK(access(o.path, F_OK) != 0);
    CHECK(no_leftovers());
    /* an "interrupted" render closes after whatever it wrote: every queued frame is in the file */
    o = opts("int.mp4");
    o.queue_frames = 3;
    s = mmd_sink_video_open(&o, &err);
    REQUIRE(s);
    for (int i = 0; i < 7; i++) {
        fill_frame(px, 64, 48, i);
        CHECK(mmd_sink_write(s, px, 64, 48, 64 * 4, i, &err) == MMD_OK);
    }
    mmd_video_stats st;
    mmd_sink_video_stats(s, &st);
    CHECK(st.frames <= 7);
    CHECK(mmd_sink_close(s, &err) == MMD_OK);
    probe p;
    REQUIRE(probe_file(o.path, &p) == 0);
    CHECK_EQ_INT(p.vpackets, 7);
    /* a signal (options.cancel) before close: frames still queued are dropped, the
     * encoder's flush is bounded; every frame reported done is in the file, which plays */
    volatile sig_atomic_t stop = 0;
    int done = 0;
    o = opts("cancel.mp4");
    o.cancel = &stop;
    s = mmd_sink_video_open(&o, &err);
    REQUIRE(s);
    s->on_done = count_done;
    s->user = &done;
    for (int i = 0; i < 7; i++) {
        fill_frame(px, 64, 48, i);
        CHECK(mmd_sink_write(s, px, 64, 48, 64 * 4, i, &err) == MMD_OK);
        for (int k = 0; i == 2 && k < 1000 && __atomic_load_n(&done, __ATOMIC_ACQUIRE) < 3; k++)
            usleep(10000); /* the first three are encoded (at most 10 s) */
    }
    stop = 1;
    CHECK(mmd_sink_close(s, &err) == MMD_OK);
    REQUIRE(probe_file(o.path, &p) == 0);
    printf("#   cancelled close: %d of 7 frames reported done, %d in the file\n", done, p.vpackets);
    CHECK(done >= 3 && p.vpackets >= done && p.vpackets <= 7);
    CHECK(no_leftovers());
    free(px);
}

int main(void)
{
    av_log_set_level(AV_LOG_ERROR);
    snprintf(g_dir, sizeof g_dir, "/tmp/mmd_video_XXXXXX");
    if (!mkdtemp(g_dir))
        return 1;
    RUN(mp4_h264_ntsc_rate);
    RUN(lossless_rgb);
    RUN(alpha_codecs);
    RUN(editing_codecs);
    RUN(audio_offsets);
    RUN(chunk_is_video_only);
    RUN(errors);
    RUN(abort_and_interrupt);
    char cmd[128];
    snprintf(cmd, sizeof cmd, "rm -rf %s", g_dir);
    if (system(cmd) != 0)
        printf("# could not remove %s\n", g_dir);
    return test_finish();
}
