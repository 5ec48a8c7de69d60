/* renderer/output/codecs.h - the video codecs that `--codec NAME` picks: one table row each.
 *
 *     const mmd_codec *c = mmd_codec_pick("out.avi", NULL, alpha, NULL, &err);  // utvideo
 *     enum AVPixelFormat pf = mmd_codec_pix_fmt(c, avcodec, alpha);
 *     mmd_codec_options(c, &args, &dict);   // CRF, preset, profile, x264/x265 params
 *
 * The codecs are the rows of k_codecs (codecs.c).
 * The containers, with their default codec and codec with alpha, are the rows
 * of MMD_CONTAINER_LIST below. Editing codecs (utvideo, prores) carry PCM
 * audio (MMD_CODEC_PCM).
 */
#ifndef MMD_RENDERER_CODECS_H
#define MMD_RENDERER_CODECS_H

#include <libavcodec/avcodec.h>
#include <libavformat/avformat.h>
#include <libavutil/dict.h>
#include <stdbool.h>
#include <stddef.h>

#include "core/status.h"

/* The video containers, one row each: F(extension, default codec, default
 * codec with a transparent background or NULL), SEP between rows, in the order
 * messages, usage and docs/cli.md list them (tests/unit/test_codecs.c checks
 * the docs). A new container is a row here; a new codec a row of k_codecs. */
#define MMD_CONTAINER_LIST(F, SEP)                                                          \
    F("mp4", "h264", NULL) SEP F("mkv", "h264", "ffv1") SEP F("mov", "h264", "qtrle") SEP \
    F("webm", "vp9", "vp9") SEP F("avi", "utvideo", "utvideo")
#define MMD_CONTAINER_DOT(ext, codec, alpha) "." ext
/* The list as one string literal, dot first, a space between (usage, messages). */
#define MMD_CONTAINERS_SPACED MMD_CONTAINER_LIST(MMD_CONTAINER_DOT, " ")
/* The same with '/' between. */
#define MMD_CONTAINERS_SLASHED MMD_CONTAINER_LIST(MMD_CONTAINER_DOT, "/")

enum {
    MMD_CODEC_YUV = 1,        /* YUV output: BT.709 matrix, limited range, tagged so */
    MMD_CODEC_PRESET = 2,     /* takes --preset (x264/x265 names) and --crf */
    MMD_CODEC_ONE_THREAD = 4, /* --threads 0 encodes on one thread: its bytes depend on the count */
    MMD_CODEC_PCM = 8,        /* editing codec: PCM audio, never copied */
    MMD_CODEC_HVC1 = 16,      /* HEVC: tag 'hvc1' in MP4/MOV (what Apple players take) */
};

typedef struct mmd_codec_args {
    int crf;            /* < 0: the row's default */
    const char *preset; /* NULL: veryfast */
    bool alpha;
    int threads;        /* 0 = auto (one thread for MMD_CODEC_ONE_THREAD rows) */
} mmd_codec_args;

typedef struct mmd_codec {
    const char *name;       /* --codec NAME */
    const char *encoder;    /* libavcodec encoder name */
    const char *containers; /* extensions it goes in, space-separated */
    enum AVPixelFormat pix[3], pix_alpha[3]; /* wanted, first supported wins; NONE ends */
    unsigned flags;         /* MMD_CODEC_* */
    int crf;                /* default CRF, -1: not a CRF codec */
    /* bytes per frame pixel the video sink holds with this codec (its 6-frame queue, the
     * conversion, the encoder's own frames): sink_bytes on one encoder thread (sink_bytes_alpha
     * when the frames keep alpha, 0: the same) + sink_bytes_thread for each further thread.
     * RSS over `-o null`, 1080p, 2 cores, + 10% (docs/limits.md); mmd_sink_video_memory's figures */
    unsigned sink_bytes, sink_bytes_alpha, sink_bytes_thread;
} mmd_codec;

/* NULL when unknown ("libx264" is h264). */
const mmd_codec *mmd_codec_find(const char *name);
/* Row i of the codec table; NULL past the last. */
const mmd_codec *mmd_codec_at(size_t i);
/* The codec for a video path, --codec name (NULL: the container's default)
 * and alpha; NULL with err (NULL allowed) set to MMD_E_USAGE when the
 * container is unknown, the codec does not go in it, has no alpha, or preset
 * is set for a codec without presets or is not a preset name. */
const mmd_codec *mmd_codec_pick(const char *path, const char *name, bool alpha, const char *preset,
                                mmd_error *err);
/* The pixel format to encode in: the first of the row's list the encoder
 * supports; AV_PIX_FMT_NONE when none. */
enum AVPixelFormat mmd_codec_pix_fmt(const mmd_codec *c, const AVCodec *enc, bool alpha);
/* The encoder's thread count for --threads. */
int mmd_codec_threads(const mmd_codec *c, int threads);
/* Encoder options into *d (CRF, preset, profile, x264/x265 params). */
int mmd_codec_options(const mmd_codec *c, const mmd_codec_args *a, AVDictionary **d);
/* true when ext (no dot, any case) is a container of the table. */
bool mmd_codec_is_container(const char *ext);
/* Writes oc's header with the options every file of ours gets: MP4 and MOV
 * put their index (moov) before the media (movflags +faststart: a browser or
 * player starts before the whole file is there); the trailer then moves the
 * data once, rereading the file through fd_path ("/proc/self/fd/N", the file
 * the caller created, whatever its name is now). Deterministic: the same
 * packets give the same bytes. avformat_write_header's result. */
int mmd_mux_write_header(AVFormatContext *oc, const char *fd_path);

#endif
