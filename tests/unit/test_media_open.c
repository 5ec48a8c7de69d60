/* tests/unit/test_media_open.c - renderer/output/media_open: a media path is a file
 * name, never a URL; playlists, scripts and other non-containers are refused naming
 * what they are; an opened file can open nothing else (issue 24). */
#include <libavformat/avformat.h>
#include <libavutil/log.h>
#include <libavutil/opt.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "renderer/output/media_open.h"
#include "tests/util/test.h"

TEST_STATE_DEFINE

static char g_dir[64];

static void put_le(FILE *f, uint32_t v, int bytes)
{
    for (int i = 0; i < bytes; i++)
        fputc((int)(v >> (8 * i)) & 0xff, f);
}

/* A 48 kHz stereo 16-bit WAV holding `bytes` bytes of samples, each byte `fill`. */
static int write_wav(const char *name, uint32_t bytes, int fill)
{
    FILE *f = fopen(name, "wb");
    if (!f)
        return -1;
    fputs("RIFF", f);
    put_le(f, 36 + bytes, 4);
    fputs("WAVEfmt ", f);
    put_le(f, 16, 4);
    put_le(f, 1, 2);      /* PCM */
    put_le(f, 2, 2);      /* stereo */
    put_le(f, 48000, 4);
    put_le(f, 192000, 4);
    put_le(f, 4, 2);      /* block align */
    put_le(f, 16, 2);     /* bits */
    fputs("data", f);
    put_le(f, bytes, 4);
    for (uint32_t i = 0; i < bytes; i++)
        fputc(fill, f);
    return fclose(f);
}

static int write_text(const char *name, const char *text)
{
    FILE *f = fopen(name, "wb");
    if (!f)
        return -1;
    fputs(text, f);
    return fclose(f);
}

/* Opens path as a song and sums its packets' bytes; -1 when it is refused,
 * -2 when a packet holds a byte other than `fill`. */
static long audio_bytes(const char *path, int fill)
{
    AVFormatContext *ic = NULL;
    mmd_error err;
    if (mmd_media_open(path, MMD_MEDIA_AUDIO, &ic, &err) != MMD_OK)
        return -1;
    long n = 0;
    AVPacket *pkt = av_packet_alloc();
    while (pkt && av_read_frame(ic, pkt) >= 0) {
        for (int i = 0; i < pkt->size && n >= 0; i++)
            if (pkt->data[i] != fill)
                n = -2;
        if (n >= 0)
            n += pkt->size;
        av_packet_unref(pkt);
    }
    av_packet_free(&pkt);
    mmd_media_close(&ic);
    CHECK(ic == NULL);
    return n;
}

TEST(names_are_file_names)
{
    /* a.wav and b.wav hold 400 bytes each; the files literally named after the
     * URLs hold 1000 bytes of another value: what must be read */
    REQUIRE(write_wav("a.wav", 400, 0x11) == 0);
    REQUIRE(write_wav("b.wav", 400, 0x22) == 0);
    REQUIRE(write_wav("concat:a.wav|b.wav", 1000, 0x33) == 0);
    REQUIRE(write_wav("file:a.wav", 1000, 0x44) == 0);
    CHECK_EQ_INT(audio_bytes("a.wav", 0x11), 400);
    CHECK_EQ_INT(audio_bytes("concat:a.wav|b.wav", 0x33), 1000);
    CHECK_EQ_INT(audio_bytes("file:a.wav", 0x44), 1000);
    /* a URL naming existing files, with no file of that name: nothing is opened */
    AVFormatContext *ic = NULL;
    mmd_error err;
    CHECK_EQ_INT(mmd_media_open("file:b.wav", MMD_MEDIA_AUDIO, &ic, &err), MMD_E_IO);
    CHECK(strstr(err.msg, "file:b.wav: cannot open audio") != NULL);
    CHECK_EQ_INT(mmd_media_open("concat:b.wav|a.wav", MMD_MEDIA_VIDEO, &ic, &err), MMD_E_IO);
    CHECK(strstr(err.msg, "cannot open the background video") != NULL);
    CHECK(ic == NULL);
}

/* path refused for use with MMD_E_UNSUPPORTED and a message holding want. */
static void expect_refused(const char *path, mmd_media_use use, const char *want)
{
    AVFormatContext *ic = NULL;
    mmd_error err = {0};
    CHECK_EQ_INT(mmd_media_open(path, use, &ic, &err), MMD_E_UNSUPPORTED);
    CHECK(ic == NULL);
    if (!strstr(err.msg, want)) {
        fprintf(stderr, "#   message '%s' lacks '%s'\n", err.msg, want);
        CHECK(!"the message names the file and what it is");
    }
}

TEST(indirections_refused)
{
    static const char hls[] = "#EXTM3U\n#EXT-X-TARGETDURATION:10\n#EXTINF:1,\nb.wav\n#EXT-X-ENDLIST\n";
    REQUIRE(write_text("song.wav", hls) == 0);
    REQUIRE(write_text("clip.avi", hls) == 0);
    REQUIRE(write_text("script.wav", "ffconcat version 1.0\nfile b.wav\n") == 0);
    REQUIRE(write_text("subs.srt", "1\n00:00:00,000 --> 00:00:01,000\nhello\n\n") == 0);
    expect_refused("song.wav", MMD_MEDIA_AUDIO, "song.wav: is an Apple HTTP Live Streaming (hls), not an audio file");
    expect_refused("clip.avi", MMD_MEDIA_VIDEO, "clip.avi: is an Apple HTTP Live Streaming (hls), not a video file");
    expect_refused("clip.avi", MMD_MEDIA_CHUNK, "not a video chunk");
    expect_refused("script.wav", MMD_MEDIA_AUDIO, "script.wav: is a Virtual concatenation script (concat)");
    expect_refused("script.wav", MMD_MEDIA_VIDEO, "(concat), not a video file");
    expect_refused("subs.srt", MMD_MEDIA_AUDIO, "(srt), not an audio file");
    /* a real container, for another use: a WAV is no background video or chunk */
    expect_refused("a.wav", MMD_MEDIA_VIDEO, "a.wav: is a WAV / WAVE (Waveform Audio) (wav), not a video file");
    expect_refused("a.wav", MMD_MEDIA_CHUNK, "(wav), not a video chunk");
    /* the message lists what the use takes */
    expect_refused("song.wav", MMD_MEDIA_AUDIO, "(taken: WAV, ");
}

TEST(nothing_nested)
{
    AVFormatContext *ic = NULL;
    mmd_error err;
    REQUIRE(mmd_media_open("a.wav", MMD_MEDIA_AUDIO, &ic, &err) == MMD_OK);
    CHECK_STR(ic->iformat->name, "wav");
    /* what a playlist or a MOV data reference would do: open another file */
    AVIOContext *pb = NULL;
    CHECK(ic->io_open(ic, &pb, "b.wav", AVIO_FLAG_READ, NULL) < 0);
    CHECK(pb == NULL);
    uint8_t *v = NULL;
    REQUIRE(av_opt_get(ic, "protocol_whitelist", 0, &v) >= 0);
    CHECK_STR(v ? (const char *)v : "(null)", "");
    av_freep(&v);
    char list[256];
    REQUIRE(av_opt_get(ic, "format_whitelist", 0, &v) >= 0 && v);
    CHECK_STR((const char *)v, mmd_media_formats(MMD_MEDIA_AUDIO, list, sizeof list));
    av_freep(&v);
    /* the file is seekable through our descriptor: its size and a seek back */
    CHECK_EQ_INT(avio_size(ic->pb), 444);
    CHECK(avio_seek(ic->pb, 44, SEEK_SET) == 44);
    mmd_media_close(&ic);
    mmd_media_close(&ic); /* NULL: no-op */
    mmd_media_close(NULL);
}

/* Each use's list: known to this libavformat, and none of the indirections. */
TEST(lists)
{
    static const char *const never[] = {"hls", "dash", "concat", "tee", "image2", "image2pipe", "subfile",
                                        "data", "sdp", "rtp", "rtsp", "imf", "srt"};
    for (int u = 0; u < MMD_MEDIA_USE_COUNT; u++) {
        char list[256], one[64];
        mmd_media_formats((mmd_media_use)u, list, sizeof list);
        CHECK(strlen(list) > 0);
        for (const char *p = list; *p;) {
            size_t n = strcspn(p, ",");
            snprintf(one, sizeof one, "%.*s", (int)n, p);
            if (!av_find_input_format(one)) {
                fprintf(stderr, "#   '%s' is no demuxer of this libavformat\n", one);
                CHECK(!"every listed name is a demuxer");
            }
            for (size_t i = 0; i < sizeof never / sizeof never[0]; i++)
                CHECK(strcmp(one, never[i]) != 0);
            p += n + (p[n] == ',');
        }
    }
    char list[256];
    CHECK(strncmp(mmd_media_formats(MMD_MEDIA_AUDIO, list, sizeof list), "wav,", 4) == 0);
    CHECK(strstr(mmd_media_formats(MMD_MEDIA_VIDEO, list, sizeof list), "avi") != NULL);
    CHECK(strstr(mmd_media_formats(MMD_MEDIA_CHUNK, list, sizeof list), "matroska,webm") != NULL);
}

TEST(not_regular)
{
    REQUIRE(mkfifo("fifo.wav", 0600) == 0);
    AVFormatContext *ic = NULL;
    mmd_error err;
    CHECK_EQ_INT(mmd_media_open("fifo.wav", MMD_MEDIA_AUDIO, &ic, &err), MMD_E_IO);
    CHECK(strstr(err.msg, "FIFO") != NULL);
    CHECK_EQ_INT(mmd_media_open(".", MMD_MEDIA_VIDEO, &ic, &err), MMD_E_IO);
    CHECK_EQ_INT(mmd_media_open("gone.wav", MMD_MEDIA_AUDIO, &ic, &err), MMD_E_IO);
    CHECK(strstr(err.msg, "gone.wav: cannot open audio") != NULL);
    CHECK(ic == NULL);
}

static void rm_dir(void)
{
    const char *names[] = {"a.wav", "b.wav", "concat:a.wav|b.wav", "file:a.wav", "song.wav", "clip.avi",
                           "script.wav", "subs.srt", "fifo.wav"};
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
        unlink(names[i]);
    if (chdir("/") == 0)
        rmdir(g_dir);
}

int main(void)
{
    av_log_set_level(AV_LOG_QUIET);
    snprintf(g_dir, sizeof g_dir, "/tmp/mmd_media_XXXXXX");
    if (!mkdtemp(g_dir) || chdir(g_dir) != 0) /* the URL-shaped names are relative */
        return 1;
    RUN(names_are_file_names);
    RUN(indirections_refused);
    RUN(nothing_nested);
    RUN(lists);
    RUN(not_regular);
    rm_dir();
    return test_finish();
}
