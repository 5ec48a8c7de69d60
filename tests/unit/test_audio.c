/* tests/unit/test_audio.c - renderer/audio: offsets, cut to the end, copy vs encode,
 * whole-frame writing; every track written to a real file and decoded back. */
#include <libavcodec/avcodec.h>
#include <libavformat/avformat.h>
#include <libavutil/log.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "renderer/output/audio.h"
#include "renderer/cli/commands.h"
#include "tests/util/test.h"

TEST_STATE_DEFINE

static char g_dir[64];
static char g_wav[128]; /* 3 s, 44.1 kHz mono: silence, then a 1 kHz tone from 1.0 s */

static const AVRational k_ms = {1, 1000};

static void put_le(FILE *f, uint32_t v, int bytes)
{
    for (int i = 0; i < bytes; i++)
        fputc((int)(v >> (8 * i)) & 0xff, f);
}

static int write_tone_wav(const char *path)
{
    const int rate = 44100, n = rate * 3;
    FILE *f = fopen(path, "wb");
    if (!f)
        return -1;
    fputs("RIFF", f);
    put_le(f, 36 + (uint32_t)n * 2, 4);
    fputs("WAVEfmt ", f);
    put_le(f, 16, 4);           /* fmt chunk size */
    put_le(f, 1, 2);            /* PCM */
    put_le(f, 1, 2);            /* mono */
    put_le(f, (uint32_t)rate, 4);
    put_le(f, (uint32_t)rate * 2, 4);
    put_le(f, 2, 2);            /* block align */
    put_le(f, 16, 2);           /* bits */
    fputs("data", f);
    put_le(f, (uint32_t)n * 2, 4);
    for (int i = 0; i < n; i++) {
        double t = (double)i / rate;
        double x = t >= 1.0 ? 16000 * sin(2 * M_PI * 1000 * t) : 0;
        put_le(f, (uint32_t)(uint16_t)(int16_t)lrint(x), 2);
    }
    return fclose(f);
}

typedef struct track {
    enum AVCodecID codec;
    int sample_rate, packets;
    int64_t samples;   /* decoded */
    double first_loud; /* seconds, -1 when silent */
} track;

/* Decode the file's audio track. */
static int read_track(const char *path, track *t)
{
    memset(t, 0, sizeof *t);
    t->first_loud = -1;
    AVFormatContext *ic = NULL;
    if (avformat_open_input(&ic, path, NULL, NULL) < 0)
        return -1;
    int rc = -1;
    AVCodecContext *dec = NULL;
    AVPacket *pkt = av_packet_alloc();
    AVFrame *fr = av_frame_alloc();
    const AVCodec *dc = NULL;
    int s = avformat_find_stream_info(ic, NULL) < 0 ? -1
                                                    : av_find_best_stream(ic, AVMEDIA_TYPE_AUDIO, -1, -1, &dc, 0);
    if (s < 0 || !dc || !pkt || !fr || !(dec = avcodec_alloc_context3(dc)) ||
        avcodec_parameters_to_context(dec, ic->streams[s]->codecpar) < 0 || avcodec_open2(dec, dc, NULL) < 0)
        goto done;
    t->codec = ic->streams[s]->codecpar->codec_id;
    t->sample_rate = dec->sample_rate;
    bool eof = false;
    while (!eof) {
        if (av_read_frame(ic, pkt) < 0) {
            avcodec_send_packet(dec, NULL);
            eof = true;
        } else if (pkt->stream_index == s) {
            t->packets++;
            avcodec_send_packet(dec, pkt);
        }
        av_packet_unref(pkt);
        while (avcodec_receive_frame(dec, fr) >= 0) {
            bool flt = fr->format == AV_SAMPLE_FMT_FLTP || fr->format == AV_SAMPLE_FMT_FLT;
            int step = fr->format == AV_SAMPLE_FMT_FLT ? fr->ch_layout.nb_channels : 1;
            for (int i = 0; flt && i < fr->nb_samples && t->first_loud < 0; i++)
                if (fabsf(((const float *)fr->data[0])[i * step]) > 0.2f)
                    t->first_loud = (double)(t->samples + i) / fr->sample_rate;
            t->samples += fr->nb_samples;
            av_frame_unref(fr);
        }
    }
    rc = 0;
done:
    av_frame_free(&fr);
    av_packet_free(&pkt);
    avcodec_free_context(&dec);
    avformat_close_input(&ic);
    return rc;
}

typedef struct mux_result {
    int rc; /* an mmd_status, or -1 for the test's own muxer */
    bool copied;
    char codec[32];
    char msg[sizeof ((mmd_error *)0)->msg];
} mux_result;

/* src -> dst (container from the name) through the module, an audio-only file
 * ending at end_ms. */
static mux_result mux(const char *src, const char *dst_name, double offset, bool allow_copy, int64_t end_ms)
{
    mux_result r = {0};
    char dst[160];
    snprintf(dst, sizeof dst, "%s/%s", g_dir, dst_name);
    AVFormatContext *oc = NULL;
    if (avformat_alloc_output_context2(&oc, NULL, NULL, dst) < 0) {
        r.rc = -1;
        return r;
    }
    mmd_audio *a = NULL;
    mmd_audio_options ao = {.path = src, .offset = offset, .allow_copy = allow_copy};
    mmd_error err;
    r.rc = mmd_audio_open(&a, oc, &ao, &err);
    if (!r.rc) {
        r.copied = mmd_audio_is_copy(a);
        snprintf(r.codec, sizeof r.codec, "%s", mmd_audio_codec_name(a));
        if (avio_open(&oc->pb, dst, AVIO_FLAG_WRITE) < 0 || avformat_write_header(oc, NULL) < 0)
            r.rc = -1;
        mmd_audio_set_end(a, end_ms, k_ms);
        if (!r.rc)
            r.rc = mmd_audio_finish(a, &err);
        if (!r.rc && av_write_trailer(oc) < 0)
            r.rc = -1;
        avio_closep(&oc->pb);
    } else {
        CHECK(a == NULL); /* out-parameter untouched on failure */
    }
    if (r.rc > 0)
        snprintf(r.msg, sizeof r.msg, "%s", err.msg);
    mmd_audio_free(a);
    avformat_free_context(oc);
    return r;
}

static const char *in_dir(const char *name)
{
    static char buf[160]; /* test-only scratch */
    snprintf(buf, sizeof buf, "%s/%s", g_dir, name);
    return buf;
}

TEST(copy_decision)
{
    const AVOutputFormat *mp4 = av_guess_format("mp4", NULL, NULL);
    const AVOutputFormat *mkv = av_guess_format("matroska", NULL, NULL);
    const AVOutputFormat *webm = av_guess_format("webm", NULL, NULL);
    const AVOutputFormat *mov = av_guess_format("mov", NULL, NULL);
    REQUIRE(mp4 && mkv && webm && mov);
    CHECK(mmd_audio_can_copy(mov, AV_CODEC_ID_MP3, 0.0));
    CHECK(!mmd_audio_can_copy(mov, AV_CODEC_ID_OPUS, 0.0)); /* libavformat says yes, then fails */
    CHECK(!mmd_audio_can_copy(mp4, AV_CODEC_ID_OPUS, 0.0)); /* players: AAC there */
    CHECK(!mmd_audio_can_copy(mkv, AV_CODEC_ID_FLAC, 0.0)); /* 93 ms packets: cannot be cut to a frame */
    CHECK(mmd_audio_can_copy(mp4, AV_CODEC_ID_AAC, 0.0));
    CHECK(mmd_audio_can_copy(mkv, AV_CODEC_ID_MP3, 0.0));
    CHECK(mmd_audio_can_copy(webm, AV_CODEC_ID_OPUS, 0.0));
    CHECK(!mmd_audio_can_copy(mp4, AV_CODEC_ID_AAC, 0.5));   /* an offset needs re-timing */
    CHECK(!mmd_audio_can_copy(mp4, AV_CODEC_ID_AAC, -0.25));
    CHECK(!mmd_audio_can_copy(webm, AV_CODEC_ID_AAC, 0.0));  /* WebM takes no AAC */
    CHECK(!mmd_audio_can_copy(mkv, AV_CODEC_ID_PCM_S16LE, 0.0)); /* raw PCM: always encoded */

    /* a WAV is PCM: encoded even where copying is allowed */
    mux_result r = mux(g_wav, "pcm.mp4", 0.0, true, 500);
    CHECK_EQ_INT(r.rc, MMD_OK);
    CHECK(!r.copied);
    CHECK_STR(r.codec, "aac");
    /* AAC into MP4: copied; with an offset, or not allowed: encoded */
    r = mux(g_wav, "src.m4a", 0.0, false, 3000);
    REQUIRE(r.rc == MMD_OK);
    char src[160];
    snprintf(src, sizeof src, "%s", in_dir("src.m4a"));
    r = mux(src, "copy.mp4", 0.0, true, 1500);
    CHECK_EQ_INT(r.rc, MMD_OK);
    CHECK(r.copied);
    CHECK_STR(r.codec, "aac");
    track t;
    REQUIRE(read_track(in_dir("copy.mp4"), &t) == 0);
    CHECK_EQ_INT(t.codec, AV_CODEC_ID_AAC);
    CHECK_NEAR((double)t.samples / t.sample_rate, 1.5, 1024.0 / 48000); /* cut at the end */
    CHECK_NEAR(t.first_loud, 1.0, 1.0 / 30);                            /* timing kept */
    r = mux(src, "recode.mp4", 0.5, true, 2000);
    CHECK_EQ_INT(r.rc, MMD_OK);
    CHECK(!r.copied);
    REQUIRE(read_track(in_dir("recode.mp4"), &t) == 0);
    CHECK_NEAR(t.first_loud, 1.5, 1.0 / 30);
    r = mux(src, "nocopy.mp4", 0.0, false, 1000);
    CHECK(!r.copied);
    /* WebM: Opus */
    r = mux(g_wav, "o.webm", -0.25, true, 1500);
    CHECK_EQ_INT(r.rc, MMD_OK);
    CHECK_STR(r.codec, "libopus");
    REQUIRE(read_track(in_dir("o.webm"), &t) == 0);
    CHECK_EQ_INT(t.codec, AV_CODEC_ID_OPUS);
    CHECK_NEAR(t.first_loud, 0.75, 1.0 / 30);
}

TEST(offsets)
{
    /* output time t plays file time t - offset; the file's tone starts at 1.0 s */
    struct { const char *name; double offset, loud; } cases[] = {
        {"pos.mp4", 0.25, 1.25},  /* silence first */
        {"neg.mp4", -0.5, 0.5},   /* the file's start trimmed */
        {"zero.mp4", 0.0, 1.0},
        {"late.mp4", 2.0, -1.0},  /* the tone would start at 3.0 s: after the end */
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        mux_result r = mux(g_wav, cases[i].name, cases[i].offset, false, 1500);
        CHECK_EQ_INT(r.rc, MMD_OK);
        track t;
        REQUIRE(read_track(in_dir(cases[i].name), &t) == 0);
        printf("#   %s: %lld samples, tone at %.4f s\n", cases[i].name, (long long)t.samples, t.first_loud);
        CHECK_EQ_INT(t.sample_rate, 48000);
        CHECK_NEAR(t.first_loud, cases[i].loud, 1.0 / 30);
        /* 1.5 s = 72000 samples, rounded up to whole 1024-sample AAC frames */
        CHECK(t.samples >= 72000 && t.samples <= 72000 + 1024);
    }
}

TEST(cut_to_duration)
{
    /* the end decides the length, whether the file is longer or shorter */
    struct { const char *name; double offset; int64_t end_ms; double loud; } cases[] = {
        {"short.mp4", 0.0, 400, -1.0}, /* cut before the tone */
        {"pad.mp4", -2.5, 1500, 0.0},  /* 0.5 s of file, then silence to 1.5 s */
        {"long.mp4", 0.0, 4000, 1.0},  /* past the file's 3 s: silence */
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        mux_result r = mux(g_wav, cases[i].name, cases[i].offset, false, cases[i].end_ms);
        CHECK_EQ_INT(r.rc, MMD_OK);
        track t;
        REQUIRE(read_track(in_dir(cases[i].name), &t) == 0);
        int64_t want = cases[i].end_ms * 48;
        printf("#   %s: %lld samples (want %lld)\n", cases[i].name, (long long)t.samples, (long long)want);
        CHECK(t.samples >= want && t.samples <= want + 1024);
        CHECK_NEAR(t.first_loud, cases[i].loud, 1.0 / 30);
    }
}

TEST(whole_frames_then_end)
{
    /* write_to writes only frames that end by t; write_next runs to the end and flushes */
    char dst[160];
    snprintf(dst, sizeof dst, "%s", in_dir("steps.mkv"));
    AVFormatContext *oc = NULL;
    REQUIRE(avformat_alloc_output_context2(&oc, NULL, NULL, dst) >= 0);
    mmd_audio *a = NULL;
    mmd_error err;
    mmd_audio_options ao = {.path = g_wav};
    REQUIRE(mmd_audio_open(&a, oc, &ao, &err) == MMD_OK);
    REQUIRE(avio_open(&oc->pb, dst, AVIO_FLAG_WRITE) >= 0);
    REQUIRE(avformat_write_header(oc, NULL) >= 0);
    int64_t t = -1;
    CHECK_EQ_INT(mmd_audio_next_time(a, &t, &err), MMD_OK);
    CHECK_EQ_INT(t, 0);
    /* 3 video frames at 30 fps = 0.1 s = 4800 samples: 4 whole frames of 1024 */
    CHECK_EQ_INT(mmd_audio_write_to(a, 3, (AVRational){1, 30}, &err), MMD_OK);
    mmd_audio_next_time(a, &t, &err);
    CHECK_EQ_INT(t, 85333); /* 4096 / 48000 s in microseconds */
    CHECK_EQ_INT(mmd_audio_write_to(a, 3, (AVRational){1, 30}, &err), MMD_OK);
    mmd_audio_next_time(a, &t, &err);
    CHECK_EQ_INT(t, 85333); /* idempotent */
    /* end at 0.2 s = 9600 samples: frames at 4096 ... 8192, a short one of 384 at 9216
     * (the AAC encoder takes a small last frame), then the flush */
    mmd_audio_set_end(a, 200, k_ms);
    int steps = 0;
    while (!mmd_audio_next_time(a, &t, &err) && t != INT64_MAX && steps < 100) {
        int64_t at = 4096 + 1024 * steps;
        CHECK_EQ_INT(t, av_rescale(at < 9600 ? at : 9600, 1000000, 48000));
        CHECK_EQ_INT(mmd_audio_write_next(a, &err), MMD_OK);
        steps++;
    }
    CHECK_EQ_INT(steps, 7);
    CHECK_EQ_INT(mmd_audio_finish(a, &err), MMD_OK); /* nothing left */
    CHECK(av_write_trailer(oc) >= 0);
    avio_closep(&oc->pb);
    mmd_audio_free(a);
    avformat_free_context(oc);
    track tr;
    REQUIRE(read_track(dst, &tr) == 0);
    CHECK_EQ_INT(tr.packets, 11); /* 10 frames cover 9600 samples, +1 for the AAC priming */
}

/* A file in the test directory holding text; its path into out. */
static int write_text(const char *name, const char *text, char *out, size_t n)
{
    snprintf(out, n, "%s", in_dir(name));
    FILE *f = fopen(out, "wb");
    if (!f)
        return -1;
    fputs(text, f);
    return fclose(f);
}

/* A Matroska file whose only stream is one SubRip subtitle. */
static int write_subtitle_mkv(const char *path)
{
    AVFormatContext *oc = NULL;
    if (avformat_alloc_output_context2(&oc, NULL, "matroska", path) < 0)
        return -1;
    AVStream *st = avformat_new_stream(oc, NULL);
    AVPacket *pkt = av_packet_alloc();
    static char text[] = "hello";
    int rc = -1;
    if (!st || !pkt)
        goto done;
    st->codecpar->codec_type = AVMEDIA_TYPE_SUBTITLE;
    st->codecpar->codec_id = AV_CODEC_ID_SUBRIP;
    st->time_base = k_ms;
    if (avio_open(&oc->pb, path, AVIO_FLAG_WRITE) < 0)
        goto done;
    pkt->data = (uint8_t *)text;
    pkt->size = (int)strlen(text);
    pkt->pts = pkt->dts = 0;
    pkt->duration = 1000;
    if (avformat_write_header(oc, NULL) >= 0 && av_write_frame(oc, pkt) >= 0 && av_write_trailer(oc) >= 0)
        rc = 0;
    avio_closep(&oc->pb);
done:
    av_packet_free(&pkt);
    avformat_free_context(oc);
    return rc;
}

TEST(errors)
{
    mux_result r = mux("/nonexistent/beat.wav", "x.mp4", 0.0, true, 1000);
    CHECK_EQ_INT(r.rc, MMD_E_IO);
    CHECK_EQ_INT(mmd_exit_code(r.rc), MMD_EXIT_INPUT);
    CHECK(strstr(r.msg, "/nonexistent/beat.wav: cannot open audio") != NULL);
    char path[160];
    REQUIRE(write_text("junk.wav", "not audio at all", path, sizeof path) == 0);
    r = mux(path, "y.mp4", 0.0, true, 1000);
    CHECK_EQ_INT(mmd_exit_code(r.rc), MMD_EXIT_INPUT);
    CHECK(strstr(r.msg, "junk.wav") != NULL);
    /* readable, but not an audio container: an SRT subtitle file is refused for what it is */
    REQUIRE(write_text("subs.srt", "1\n00:00:00,000 --> 00:00:01,000\nhello\n\n", path, sizeof path) == 0);
    r = mux(path, "z.mp4", 0.0, true, 1000);
    CHECK_EQ_INT(r.rc, MMD_E_UNSUPPORTED);
    CHECK_EQ_INT(mmd_exit_code(r.rc), MMD_EXIT_INPUT);
    CHECK(strstr(r.msg, "subs.srt: is a SubRip subtitle (srt), not an audio file") != NULL);
    /* an audio container without an audio stream: Matroska holding the subtitle */
    REQUIRE(write_subtitle_mkv(in_dir("subs.mkv")) == 0);
    r = mux(in_dir("subs.mkv"), "z.mp4", 0.0, true, 1000);
    CHECK_EQ_INT(r.rc, MMD_E_BAD_STRUCTURE);
    CHECK_EQ_INT(mmd_exit_code(r.rc), MMD_EXIT_INPUT);
    CHECK(strstr(r.msg, "no audio stream") != NULL);
    mmd_audio_free(NULL);
}

static void rm_dir(void)
{
    const char *names[] = {"pcm.mp4", "src.m4a", "copy.mp4", "recode.mp4", "nocopy.mp4", "o.webm", "pos.mp4",
                           "neg.mp4", "zero.mp4", "late.mp4", "short.mp4", "pad.mp4", "long.mp4", "steps.mkv",
                           "x.mp4", "y.mp4", "z.mp4", "junk.wav", "subs.srt", "subs.mkv", "tone.wav"};
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
        unlink(in_dir(names[i]));
    rmdir(g_dir);
}

int main(void)
{
    av_log_set_level(AV_LOG_QUIET);
    snprintf(g_dir, sizeof g_dir, "/tmp/mmd_audio_XXXXXX");
    if (!mkdtemp(g_dir))
        return 1;
    snprintf(g_wav, sizeof g_wav, "%s/tone.wav", g_dir);
    if (write_tone_wav(g_wav) != 0)
        return 1;
    RUN(copy_decision);
    RUN(offsets);
    RUN(cut_to_duration);
    RUN(whole_frames_then_end);
    RUN(errors);
    rm_dir();
    return test_finish();
}
