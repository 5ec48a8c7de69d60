/* renderer/output/media_open.c - media files opened by us and handed to libavformat
 * as a descriptor, probed against one table of plain containers (media_open.h). */
#include "renderer/output/media_open.h"

#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/file.h"

#define IO_BUFFER 32768 /* libavformat's own read buffer for files */

enum { USE_A = 1u << MMD_MEDIA_AUDIO, USE_V = 1u << MMD_MEDIA_VIDEO, USE_C = 1u << MMD_MEDIA_CHUNK };

/* The demuxers each use takes (libavformat's names, and what a user calls them):
 * plain containers that read nothing but the bytes of the file they are given.
 * Everything else is refused, among them the indirections: playlists and
 * scripts naming other files or URLs (hls, dash, concat/ffconcat, imf, tee),
 * image sequences and patterns (image2, image2pipe), subfile, data, sdp, rtp,
 * rtsp, and any demuxer a future libavformat adds. A song may also be the sound
 * of a video file (a music video); a background video needs a video container.
 * Chunks are what our video outputs write (MMD_CONTAINER_LIST in codecs.h;
 * tests/unit/test_codecs.c checks that each one's muxer is read back here). */
static const struct demuxer {
    const char *name;
    const char *label;
    unsigned uses;
} k_demuxers[] = {
    {"wav", "WAV", USE_A},
    {"w64", "Wave64", USE_A},
    {"aiff", "AIFF", USE_A},
    {"caf", "CAF", USE_A},
    {"mp3", "MP3", USE_A},
    {"aac", "AAC", USE_A},
    {"flac", "FLAC", USE_A},
    {"ogg", "Ogg", USE_A | USE_V},
    {"mov,mp4,m4a,3gp,3g2,mj2", "MP4/M4A/MOV", USE_A | USE_V | USE_C},
    {"matroska,webm", "MKV/MKA/WebM", USE_A | USE_V | USE_C},
    {"asf", "WMA/WMV", USE_A | USE_V},
    {"avi", "AVI", USE_A | USE_V | USE_C},
    {"mpeg", "MPEG-PS", USE_A | USE_V},
    {"mpegts", "MPEG-TS", USE_A | USE_V},
};
#define DEMUXER_COUNT (sizeof k_demuxers / sizeof k_demuxers[0])
#define LIST_CAP 256 /* room for every row's name or label, joined */

static const struct use {
    const char *noun; /* "cannot open <noun>" */
    const char *kind; /* "not <kind>" */
} k_uses[MMD_MEDIA_USE_COUNT] = {
    [MMD_MEDIA_AUDIO] = {"audio", "an audio file"},
    [MMD_MEDIA_VIDEO] = {"the background video", "a video file"},
    [MMD_MEDIA_CHUNK] = {"the chunk", "a video chunk"},
};

/* The use's rows' names (sep ",") or labels (sep ", ") joined into buf. */
static const char *join(mmd_media_use use, bool labels, char *buf, size_t cap)
{
    size_t n = 0;
    buf[0] = '\0';
    for (size_t i = 0; i < DEMUXER_COUNT; i++) {
        if (!(k_demuxers[i].uses & (1u << use)))
            continue;
        int w = snprintf(buf + n, cap - n, "%s%s", n ? (labels ? ", " : ",") : "",
                         labels ? k_demuxers[i].label : k_demuxers[i].name);
        if (w < 0 || (size_t)w >= cap - n)
            break; /* LIST_CAP holds the whole table: never reached */
        n += (size_t)w;
    }
    return buf;
}

const char *mmd_media_formats(mmd_media_use use, char *buf, size_t cap)
{
    return cap ? join(use, false, buf, cap) : buf;
}

static bool takes(const AVInputFormat *fmt, mmd_media_use use)
{
    for (size_t i = 0; i < DEMUXER_COUNT; i++)
        if ((k_demuxers[i].uses & (1u << use)) && !strcmp(fmt->name, k_demuxers[i].name))
            return true;
    return false;
}

/* ---- the descriptor behind the AVIOContext -------------------------------- */

/* The AVIOContext's opaque: our descriptor, and the first file or URL a
 * demuxer asked to open from inside the media (refused; said in the error, as
 * data: nothing here prints). */
typedef struct media_io {
    int fd;
    char refused[256];
} media_io;

static int io_read(void *opaque, uint8_t *buf, int size)
{
    const media_io *io = opaque;
    ssize_t r;
    do
        r = read(io->fd, buf, (size_t)size);
    while (r < 0 && errno == EINTR);
    if (r < 0)
        return AVERROR(errno);
    return r == 0 ? AVERROR_EOF : (int)r;
}

static int64_t io_seek(void *opaque, int64_t offset, int whence)
{
    const media_io *io = opaque;
    if (whence & AVSEEK_SIZE) {
        struct stat st;
        return fstat(io->fd, &st) == 0 ? (int64_t)st.st_size : AVERROR(errno);
    }
    off_t r = lseek(io->fd, (off_t)offset, whence & ~AVSEEK_FORCE);
    return r < 0 ? AVERROR(errno) : (int64_t)r;
}

/* A demuxer's own open of another file or URL (a playlist's segment, a MOV
 * data reference): never. The first one is kept for the error sentence. */
static int refuse_nested(AVFormatContext *s, AVIOContext **pb, const char *url, int flags, AVDictionary **options)
{
    (void)pb, (void)flags, (void)options;
    const AVIOContext *own = s->opaque;
    media_io *io = own ? own->opaque : NULL;
    if (io && !io->refused[0])
        snprintf(io->refused, sizeof io->refused, "%s", url ? url : "");
    return AVERROR(EPERM);
}

static void free_io(AVIOContext *pb)
{
    if (!pb)
        return;
    media_io *io = pb->opaque;
    av_freep(&pb->buffer);
    avio_context_free(&pb);
    close(io->fd);
    free(io);
}

/* ---- open ------------------------------------------------------------------ */

static const char *averr(int e, char *buf, size_t n)
{
    av_strerror(e, buf, n);
    return buf;
}

static mmd_status refuse(const char *path, mmd_media_use use, const AVInputFormat *fmt, mmd_error *err)
{
    char labels[LIST_CAP];
    const char *what = fmt->long_name ? fmt->long_name : fmt->name;
    return mmd_fail(err, MMD_E_UNSUPPORTED, "%s: is %s %s (%s), not %s (taken: %s)", path,
                    strchr("AEIOUaeiou", what[0]) ? "an" : "a", what, fmt->name, k_uses[use].kind,
                    join(use, true, labels, sizeof labels));
}

/* Probe pb's bytes, check the demuxer against the use's rows, open it. */
static mmd_status open_demuxer(const char *path, mmd_media_use use, AVIOContext *pb, AVFormatContext **out,
                               mmd_error *err)
{
    char eb[128], list[LIST_CAP];
    const AVInputFormat *fmt = NULL;
    int e = av_probe_input_buffer2(pb, &fmt, path, NULL, 0, 0);
    if (e < 0)
        return mmd_fail(err, MMD_E_IO, "%s: cannot open %s: %s", path, k_uses[use].noun, averr(e, eb, sizeof eb));
    if (!takes(fmt, use))
        return refuse(path, use, fmt, err);
    AVFormatContext *ic = avformat_alloc_context();
    AVDictionary *opt = NULL;
    if (!ic || av_dict_set(&opt, "protocol_whitelist", "", 0) < 0 ||
        av_dict_set(&opt, "format_whitelist", join(use, false, list, sizeof list), 0) < 0) {
        avformat_free_context(ic);
        av_dict_free(&opt);
        return mmd_fail(err, MMD_E_NOMEM, "out of memory");
    }
    ic->pb = pb;
    ic->opaque = pb; /* what mmd_media_close frees, whatever a demuxer does with ic->pb */
    ic->io_open = refuse_nested;
    e = avformat_open_input(&ic, path, fmt, &opt); /* frees ic on failure */
    av_dict_free(&opt);
    const media_io *io = pb->opaque;
    if (e < 0 && io->refused[0])
        return mmd_fail(err, MMD_E_IO,
                        "%s: cannot open %s: %s (mmdrender opens no file or URL named inside a media file ('%.200s'))",
                        path, k_uses[use].noun, averr(e, eb, sizeof eb), io->refused);
    if (e < 0)
        return mmd_fail(err, MMD_E_IO, "%s: cannot open %s: %s", path, k_uses[use].noun, averr(e, eb, sizeof eb));
    *out = ic;
    return MMD_OK;
}

mmd_status mmd_media_open(const char *path, mmd_media_use use, AVFormatContext **ic, mmd_error *err)
{
    mmd_error ferr;
    media_io *io = calloc(1, sizeof *io);
    if (!io)
        return mmd_fail(err, MMD_E_NOMEM, "out of memory");
    if ((io->fd = mmd_file_open_regular(path, &ferr)) < 0) { /* a FIFO would block libavformat */
        free(io);
        return mmd_fail(err, MMD_E_IO, "%s: cannot open %s: %s", path, k_uses[use].noun, ferr.msg);
    }
    unsigned char *buf = av_malloc(IO_BUFFER);
    AVIOContext *pb = buf ? avio_alloc_context(buf, IO_BUFFER, 0, io, io_read, NULL, io_seek) : NULL;
    if (!pb) {
        av_free(buf);
        close(io->fd);
        free(io);
        return mmd_fail(err, MMD_E_NOMEM, "out of memory");
    }
    mmd_status st = open_demuxer(path, use, pb, ic, err);
    if (st != MMD_OK)
        free_io(pb);
    return st;
}

void mmd_media_close(AVFormatContext **ic)
{
    if (!ic || !*ic)
        return;
    AVIOContext *pb = (*ic)->opaque;
    avformat_close_input(ic);
    free_io(pb);
}
