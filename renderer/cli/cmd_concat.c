/* renderer/cli/cmd_concat.c - `mmdrender concat CHUNK... -o OUT [--audio FILE]`.
 *
 * Joins farm chunk videos (video only, each starting on a keyframe with
 * closed GOPs, see sink_video.h) without re-encoding: packets are copied and
 * their timestamps rebased so the chunks play back to back. Every chunk must
 * carry the same codec parameters as the first (codec, size, pixel format,
 * profile, colour tags, frame rate, extradata); otherwise exit 2 naming the
 * field. The audio is muxed once (renderer/output/audio.h): copied when the container
 * takes its codec and no offset is asked for, otherwise decoded and encoded
 * (48 kHz stereo AAC, Opus in WebM); it is cut to the video's length. Video time
 * t plays audio-file time start_time + t - audio_offset (the render's own convention).
 *
 * Two passes over the chunks: a scan (packets only, no decoding) that checks
 * every chunk and measures it, then the copy. Output goes to DIR/.NAME.part-PID
 * and is renamed when complete; removed on failure.
 */
#include <errno.h>
#include <signal.h>
#include <libavcodec/avcodec.h>
#include <libavformat/avformat.h>
#include <libavutil/mathematics.h>
#include <libavutil/pixdesc.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include "renderer/output/audio.h"
#include "renderer/output/media_open.h"
#include "renderer/output/codecs.h"
#include "renderer/output/sink_video.h"
#include "renderer/cli/commands.h"
#include "renderer/cli/outputs.h"
#include "renderer/base/fs.h"
#include "renderer/base/msg.h"
#include "core/file.h"
#include "renderer/base/parse.h"

#define MAX_LIST_LINE 4096

typedef struct chunk {
    const char *path;
    AVRational tb;      /* the video stream's time base */
    int64_t start, end; /* first presented time, end of the last frame (tb) */
    int64_t lead;       /* start - first decode time (B-frame reorder delay, tb) */
    int64_t packets;
    /* the chunk metadata written at render time (MMD_CHUNK_TAG_FORMAT) */
    bool tagged;
    int index, count, step, fps_num, fps_den;
    long long first, last, range_first, range_last;
    char format[64]; /* the demuxer's name ("mov,mp4,m4a,3gp,3g2,mj2", "matroska,webm") */
} chunk;

typedef struct concat_opts {
    const char *out;
    const char *audio;
    double audio_offset, start_time;
    bool quiet;
    char **inputs;
    int input_count, input_cap;
    char *list_buf; /* storage for --list names */
} concat_opts;

/* CLI-only globals: the temporary being written, removed by the signal
 * handler (unlink and _exit are async-signal-safe), so SIGINT/SIGTERM during
 * a join leave no .part file; the exit code is 130 as for render. */
static char g_tmp[4096];
static volatile sig_atomic_t g_tmp_armed;

static void on_signal(int sig)
{
    (void)sig;
    if (g_tmp_armed)
        unlink(g_tmp);
    _exit(MMD_EXIT_INTERRUPTED);
}

static void arm_cleanup(const char *tmp)
{
    snprintf(g_tmp, sizeof g_tmp, "%s", tmp);
    g_tmp_armed = strlen(tmp) < sizeof g_tmp;
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_signal;
    sigemptyset(&sa.sa_mask);
    sigaction(SIGINT, &sa, NULL);
    sigaction(SIGTERM, &sa, NULL);
}

static void disarm_cleanup(void)
{
    signal(SIGINT, SIG_DFL);
    signal(SIGTERM, SIG_DFL);
    g_tmp_armed = 0;
}

static const char *averr(int e, char *buf, size_t n)
{
    av_strerror(e, buf, n);
    return buf;
}

static void usage(FILE *f)
{
    fprintf(f,
            "usage: mmdrender concat CHUNK... -o OUT [--audio FILE] [--audio-offset S]\n"
            "                        [--start-time S] [--list FILE] [-q]\n"
            "Joins chunk videos (rendered with a chunk video sink: video only, closed GOPs)\n"
            "in the order given, without re-encoding, and muxes the audio once.\n"
            "  -o, --output OUT    " MMD_CONTAINERS_SPACED " (written as .OUT.part-PID, then renamed)\n"
            "  --audio FILE        audio track; copied when it fits, else AAC (Opus in .webm;\n"
            "                      16-bit PCM in .avi and beside utvideo or prores)\n"
            "  --audio-offset S    seconds; > 0 delays the audio, < 0 trims its start\n"
            "  --start-time S      scene time of the first frame (default 0)\n"
            "  --list FILE         read chunk paths from FILE, one per line (after any given)\n"
            "  -q, --quiet         no summary line\n"
            "exit: 0 ok, 1 usage, 2 bad input (unreadable or mismatched chunk, audio),\n"
            "      4 encoder, 5 output\n");
}

static bool add_input(concat_opts *o, char *path)
{
    if (o->input_count == o->input_cap) {
        int cap = o->input_cap ? o->input_cap * 2 : 16;
        char **p = realloc(o->inputs, (size_t)cap * sizeof *p);
        if (!p)
            return false;
        o->inputs = p;
        o->input_cap = cap;
    }
    o->inputs[o->input_count++] = path;
    return true;
}

/* Read a list file (one path per line, blank lines and '#' comments skipped). */
static mmd_status read_list(concat_opts *o, const char *path, mmd_error *err)
{
    mmd_error fe;
    FILE *f = mmd_file_fopen_regular(path, &fe);
    if (!f)
        return mmd_fail(err, MMD_E_IO, "%s: %s", path, fe.msg);
    char line[MAX_LIST_LINE];
    mmd_status st = MMD_OK;
    while (fgets(line, sizeof line, f)) {
        size_t len = strlen(line);
        if (len == sizeof line - 1 && line[len - 1] != '\n') {
            st = mmd_fail(err, MMD_E_LIMIT, "%s: line longer than %d bytes", path, MAX_LIST_LINE - 2);
            break;
        }
        while (len && (line[len - 1] == '\n' || line[len - 1] == '\r'))
            line[--len] = 0;
        if (!len || line[0] == '#')
            continue;
        char *dup = strdup(line);
        if (!dup || !add_input(o, dup)) {
            free(dup);
            st = mmd_fail(err, MMD_E_NOMEM, "out of memory");
            break;
        }
        /* list names are owned: remember them by chaining through list_buf */
        char **cell = malloc(sizeof(char *) * 2);
        if (!cell) {
            st = mmd_fail(err, MMD_E_NOMEM, "out of memory");
            break;
        }
        cell[0] = dup;
        cell[1] = o->list_buf;
        o->list_buf = (char *)cell;
    }
    if (ferror(f))
        st = mmd_fail(err, MMD_E_IO, "%s: read error", path);
    fclose(f);
    return st;
}

static void free_opts(concat_opts *o)
{
    char *c = o->list_buf;
    while (c) {
        char **cell = (char **)c;
        c = cell[1];
        free(cell[0]);
        free(cell);
    }
    free(o->inputs);
}

static mmd_status parse_seconds(const char *opt, const char *v, double *out, mmd_error *err)
{
    double d;
    if (!mmd_parse_double(v, -1e7, 1e7, &d))
        return mmd_fail(err, MMD_E_USAGE, "%s: expected seconds, got '%s'", opt, v);
    *out = d;
    return MMD_OK;
}

/* An option's value into o. */
static mmd_status set_value(concat_opts *o, const char *a, char *v, mmd_error *err)
{
    if (!strcmp(a, "-o") || !strcmp(a, "--output"))
        o->out = v;
    else if (!strcmp(a, "--audio"))
        o->audio = v;
    else if (!strcmp(a, "--audio-offset"))
        return parse_seconds(a, v, &o->audio_offset, err);
    else if (!strcmp(a, "--start-time"))
        return parse_seconds(a, v, &o->start_time, err);
    else
        return read_list(o, v, err);
    return MMD_OK;
}

/* The command line into o; *help: --help was asked (nothing else done). */
static mmd_status parse_args(int argc, char **argv, concat_opts *o, bool *help, mmd_error *err)
{
    bool no_more = false;
    mmd_status st;
    for (int i = 1; i < argc; i++) {
        char *a = argv[i];
        if (no_more || a[0] != '-' || !a[1]) {
            if (!add_input(o, a))
                return mmd_fail(err, MMD_E_USAGE, "out of memory");
            continue;
        }
        if (!strcmp(a, "--")) {
            no_more = true;
            continue;
        }
        if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
            *help = true;
            return MMD_OK;
        }
        if (!strcmp(a, "-q") || !strcmp(a, "--quiet")) {
            o->quiet = true;
            continue;
        }
        bool takes = !strcmp(a, "-o") || !strcmp(a, "--output") || !strcmp(a, "--audio") ||
                     !strcmp(a, "--audio-offset") || !strcmp(a, "--start-time") || !strcmp(a, "--list");
        if (!takes)
            return mmd_fail(err, MMD_E_USAGE, "unknown option '%s' (see --help)", a);
        if (i + 1 >= argc)
            return mmd_fail(err, MMD_E_USAGE, "%s needs a value", a);
        if ((st = set_value(o, a, argv[++i], err)) != MMD_OK)
            return st;
    }
    if (!o->out)
        return mmd_fail(err, MMD_E_USAGE, "no output: -o OUT is required");
    if (!mmd_sink_video_is_video_path(o->out))
        return mmd_fail(err, MMD_E_USAGE, "%s: unknown container (use " MMD_CONTAINERS_SPACED ")", o->out);
    for (int i = 0; i <= o->input_count; i++) {
        const char *in = i < o->input_count ? o->inputs[i] : o->audio;
        if (in && mmd_same_file(in, o->out))
            return mmd_fail(err, MMD_E_USAGE, "the output '%s' is also an input ('%s')", o->out, in);
    }
    if (!o->input_count)
        return mmd_fail(err, MMD_E_USAGE, "no chunk videos given");
    return MMD_OK;
}

/* ---- pass 1: open, check and measure each chunk ------------------------- */

static mmd_status open_video(const char *path, AVFormatContext **ic, int *stream, mmd_error *err)
{
    char eb[128];
    mmd_status st = mmd_media_open(path, MMD_MEDIA_CHUNK, ic, err);
    if (st != MMD_OK)
        return st;
    int e = avformat_find_stream_info(*ic, NULL);
    if (e < 0)
        return mmd_fail(err, MMD_E_IO, "%s: cannot read: %s", path, averr(e, eb, sizeof eb));
    int s = av_find_best_stream(*ic, AVMEDIA_TYPE_VIDEO, -1, -1, NULL, 0);
    if (s < 0)
        return mmd_fail(err, MMD_E_BAD_VALUE, "%s: no video stream", path);
    *stream = s;
    return MMD_OK;
}

static AVRational stream_rate(const AVStream *st)
{
    if (st->avg_frame_rate.num > 0 && st->avg_frame_rate.den > 0)
        return st->avg_frame_rate;
    return st->r_frame_rate;
}

/* NULL when the parameters match, else a description of the first difference. */
static const char *params_differ(const AVCodecParameters *a, AVRational ra, const AVCodecParameters *b,
                                 AVRational rb, char *buf, size_t n)
{
#define DIFF_INT(field, fmt_a, fmt_b)                                                              \
    if (a->field != b->field) {                                                                    \
        snprintf(buf, n, #field " %s vs %s", fmt_a, fmt_b);                                         \
        return buf;                                                                                \
    }
    char x[64], y[64];
    snprintf(x, sizeof x, "%s", avcodec_get_name(a->codec_id));
    snprintf(y, sizeof y, "%s", avcodec_get_name(b->codec_id));
    DIFF_INT(codec_id, x, y)
    snprintf(x, sizeof x, "%dx%d", a->width, a->height);
    snprintf(y, sizeof y, "%dx%d", b->width, b->height);
    if (a->width != b->width || a->height != b->height) {
        snprintf(buf, n, "size %s vs %s", x, y);
        return buf;
    }
    const char *pa = av_get_pix_fmt_name((enum AVPixelFormat)a->format);
    const char *pb = av_get_pix_fmt_name((enum AVPixelFormat)b->format);
    DIFF_INT(format, pa ? pa : "?", pb ? pb : "?")
    if (av_cmp_q(ra, rb) != 0) {
        snprintf(buf, n, "frame rate %d/%d vs %d/%d", ra.num, ra.den, rb.num, rb.den);
        return buf;
    }
#define DIFF_NUM(field)                                                                            \
    snprintf(x, sizeof x, "%d", (int)a->field);                                                    \
    snprintf(y, sizeof y, "%d", (int)b->field);                                                    \
    DIFF_INT(field, x, y)
    DIFF_NUM(profile)
    DIFF_NUM(level)
    DIFF_NUM(field_order)
    DIFF_NUM(color_range)
    DIFF_NUM(color_primaries)
    DIFF_NUM(color_trc)
    DIFF_NUM(color_space)
    DIFF_NUM(chroma_location)
    DIFF_NUM(bits_per_raw_sample)
#undef DIFF_NUM
#undef DIFF_INT
    if (av_cmp_q(a->sample_aspect_ratio, b->sample_aspect_ratio) != 0 &&
        (a->sample_aspect_ratio.num || b->sample_aspect_ratio.num)) {
        snprintf(buf, n, "sample aspect ratio %d:%d vs %d:%d", a->sample_aspect_ratio.num,
                 a->sample_aspect_ratio.den, b->sample_aspect_ratio.num, b->sample_aspect_ratio.den);
        return buf;
    }
    if (a->extradata_size != b->extradata_size ||
        (a->extradata_size && memcmp(a->extradata, b->extradata, (size_t)a->extradata_size))) {
        snprintf(buf, n, "codec extradata (e.g. H.264 SPS/PPS: encoder settings) differ, %d vs %d bytes",
                 a->extradata_size, b->extradata_size);
        return buf;
    }
    return NULL;
}

/* Scan chunk c (packets only). first_par/first_rate: NULL for the first chunk
 * (then filled in), else compared against. */
static mmd_status scan_chunk(chunk *c, AVCodecParameters *first_par, AVRational *first_rate, bool first,
                             const char *first_path, mmd_error *err)
{
    AVFormatContext *ic = NULL;
    int s = -1;
    mmd_status st = open_video(c->path, &ic, &s, err);
    AVPacket *pkt = av_packet_alloc();
    if (st != MMD_OK || !pkt) {
        if (st == MMD_OK)
            st = mmd_fail(err, MMD_E_NOMEM, "out of memory");
        goto done;
    }
    AVStream *vs = ic->streams[s];
    AVRational rate = stream_rate(vs);
    snprintf(c->format, sizeof c->format, "%s", ic->iformat ? ic->iformat->name : "");
    const AVDictionaryEntry *tag = av_dict_get(ic->metadata, "comment", NULL, 0);
    c->tagged = tag && sscanf(tag->value, MMD_CHUNK_TAG_FORMAT, &c->index, &c->count, &c->first, &c->last,
                              &c->range_first, &c->range_last, &c->step, &c->fps_num, &c->fps_den) == 9;
    if (rate.num <= 0 || rate.den <= 0) {
        st = mmd_fail(err, MMD_E_BAD_VALUE, "%s: the video stream has no frame rate", c->path);
        goto done;
    }
    if (first) {
        if (avcodec_parameters_copy(first_par, vs->codecpar) < 0) {
            st = mmd_fail(err, MMD_E_NOMEM, "out of memory");
            goto done;
        }
        *first_rate = rate;
    } else {
        char buf[160];
        const char *d = params_differ(first_par, *first_rate, vs->codecpar, rate, buf, sizeof buf);
        if (d) {
            st = mmd_fail(err, MMD_E_BAD_VALUE, "%s: cannot join without re-encoding: %s differs from %s: %s", c->path,
                          "video", first_path, d);
            goto done;
        }
    }
    for (unsigned i = 0; i < ic->nb_streams; i++)
        if ((int)i != s && ic->streams[i]->codecpar->codec_type == AVMEDIA_TYPE_AUDIO)
            mmd_msg_print(stderr, "mmdrender concat: %s: warning: its audio stream is ignored\n", c->path);
    c->tb = vs->time_base;
    c->start = INT64_MAX;
    c->end = INT64_MIN;
    c->packets = 0;
    int64_t frame_dur = av_rescale_q(1, av_inv_q(rate), vs->time_base);
    char eb[128];
    for (;;) {
        int e = av_read_frame(ic, pkt);
        if (e == AVERROR_EOF)
            break;
        if (e < 0) {
            st = mmd_fail(err, MMD_E_IO, "%s: read error after %lld frames: %s", c->path, (long long)c->packets,
                          averr(e, eb, sizeof eb));
            goto done;
        }
        if (pkt->stream_index == s) {
            if (!c->packets && !(pkt->flags & AV_PKT_FLAG_KEY)) {
                st = mmd_fail(err, MMD_E_BAD_VALUE, "%s: does not start on a keyframe (not a chunk video?)", c->path);
                av_packet_unref(pkt);
                goto done;
            }
            int64_t pts = pkt->pts != AV_NOPTS_VALUE ? pkt->pts : pkt->dts;
            if (pts == AV_NOPTS_VALUE) {
                st = mmd_fail(err, MMD_E_BAD_VALUE, "%s: frame %lld has no timestamp", c->path, (long long)c->packets);
                av_packet_unref(pkt);
                goto done;
            }
            if (!c->packets)
                c->lead = pkt->dts != AV_NOPTS_VALUE ? pkt->dts : pts; /* start subtracted below */
            int64_t dur = pkt->duration > 0 ? pkt->duration : frame_dur;
            if (pts < c->start)
                c->start = pts;
            if (pts + dur > c->end)
                c->end = pts + dur;
            c->packets++;
        }
        av_packet_unref(pkt);
    }
    if (!c->packets) {
        st = mmd_fail(err, MMD_E_BAD_VALUE, "%s: no video frames", c->path);
    } else {
        c->lead = c->start - c->lead;
        if (c->lead < 0)
            c->lead = 0;
    }
done:
    av_packet_free(&pkt);
    mmd_media_close(&ic);
    return st;
}

/* True when the comma-separated list has the name. */
static bool has_name(const char *list, const char *name)
{
    size_t n = strlen(name);
    for (const char *p = list; p && *p; p = strchr(p, ',') ? strchr(p, ',') + 1 : NULL)
        if (!strncmp(p, name, n) && (p[n] == ',' || !p[n]))
            return true;
    return false;
}

/* The chunks, in the order given, must come from one container kind that the
 * output's muxer also is (MKV chunks in an MP4 gave non-monotonic timestamps)
 * and, when they carry the metadata render writes, form one contiguous
 * range: the same range, step, rate and chunk count, each chunk starting one
 * step after the previous one ended, the first at the range's start and the
 * last at its end, each complete (as many frames as it says). */
static mmd_status check_sequence(const chunk *c, int n, const char *out, mmd_error *err)
{
    const AVOutputFormat *of = av_guess_format(NULL, out, NULL);
    for (int i = 0; i < n; i++) {
        if (strcmp(c[i].format, c[0].format))
            return mmd_fail(err, MMD_E_BAD_VALUE, "%s: a %s file among %s chunks: join chunks of one container",
                            c[i].path, c[i].format, c[0].format);
        if (c[i].tagged != c[0].tagged)
            return mmd_fail(err, MMD_E_BAD_VALUE, "%s: %s chunk metadata, unlike %s (chunks of different renders?)",
                            c[i].path, c[i].tagged ? "has" : "has no", c[0].path);
    }
    if (of && !has_name(c[0].format, of->name))
        return mmd_fail(err, MMD_E_USAGE,
                        "%s: a %s output cannot take %s chunks without re-encoding: use the chunks' container", out,
                        of->name, c[0].format);
    if (!c[0].tagged)
        return MMD_OK; /* chunks from elsewhere: nothing to check the order against */
    for (int i = 0; i < n; i++) {
        const chunk *k = &c[i], *p = i ? &c[i - 1] : NULL;
        long long want = (k->last - k->first) / (k->step > 0 ? k->step : 1) + 1;
        if (k->range_first != c[0].range_first || k->range_last != c[0].range_last || k->step != c[0].step ||
            k->count != c[0].count || k->fps_num != c[0].fps_num || k->fps_den != c[0].fps_den)
            return mmd_fail(err, MMD_E_BAD_VALUE,
                            "%s: chunk of another render (range %lld-%lld step %d, %d chunks) than %s", k->path,
                            k->range_first, k->range_last, k->step, k->count, c[0].path);
        if (k->packets != want)
            return mmd_fail(err, MMD_E_BAD_VALUE, "%s: chunk %d/%d holds %lld of its %lld frames (interrupted?)",
                            k->path, k->index, k->count, (long long)k->packets, want);
        long long expect = p ? p->last + k->step : k->range_first;
        if (k->first != expect)
            return mmd_fail(err, MMD_E_BAD_VALUE, "%s: chunk %d/%d starts at frame %lld, expected %lld: %s", k->path,
                            k->index, k->count, k->first, expect,
                            !p                  ? "the range's first chunk is missing"
                            : k->first < expect ? "it overlaps the previous chunk"
                                                : "a chunk is missing before it");
    }
    /* the range's last frame on its step (0-23:2 ends at 22) */
    long long step = c[0].step > 0 ? c[0].step : 1;
    long long end = c[0].range_first + (c[0].range_last - c[0].range_first) / step * step;
    if (c[n - 1].last != end)
        return mmd_fail(err, MMD_E_BAD_VALUE,
                        "%s: the chunks end at frame %lld, the range at %lld: a chunk is missing at the end",
                        c[n - 1].path, c[n - 1].last, end);
    return MMD_OK;
}

/* ---- pass 2: the copy ---------------------------------------------------- */

typedef struct video_copy {
    const chunk *chunks;
    int count, cur;
    AVFormatContext *ic;
    int stream;
    AVPacket *pkt;
    bool have_pkt, done;
    AVRational tb0;    /* first chunk's time base: the offset's unit */
    int64_t lead0;     /* largest reorder delay of all chunks, tb0 */
    int64_t offset0;   /* start of the current chunk, tb0 */
    int64_t last_dts;  /* output tb */
    AVStream *ost;
    int64_t written;
} video_copy;

/* Make sure pkt holds the next video packet (opening chunks as needed). */
static mmd_status video_peek(video_copy *v, mmd_error *err)
{
    while (!v->have_pkt && !v->done) {
        if (!v->ic) {
            if (v->cur >= v->count) {
                v->done = true;
                break;
            }
            mmd_status st = open_video(v->chunks[v->cur].path, &v->ic, &v->stream, err);
            if (st != MMD_OK)
                return st;
        }
        int e = av_read_frame(v->ic, v->pkt);
        if (e == AVERROR_EOF) {
            const chunk *c = &v->chunks[v->cur];
            v->offset0 += av_rescale_q(c->end - c->start, c->tb, v->tb0);
            mmd_media_close(&v->ic);
            v->cur++;
            continue;
        }
        if (e < 0)
            return mmd_fail(err, MMD_E_IO, "%s: read error: %s", v->chunks[v->cur].path, av_err2str(e));
        if (v->pkt->stream_index != v->stream) {
            av_packet_unref(v->pkt);
            continue;
        }
        /* rebase into the output time base */
        const chunk *c = &v->chunks[v->cur];
        AVPacket *p = v->pkt;
        if (p->pts == AV_NOPTS_VALUE)
            p->pts = p->dts;
        if (p->dts == AV_NOPTS_VALUE)
            p->dts = p->pts;
        int64_t pts0 = av_rescale_q(p->pts - c->start, c->tb, v->tb0) + v->offset0;
        /* Chunks may start decoding at different delays before their first
         * picture (B-frames); decode times all get the largest delay, which
         * keeps them increasing across joins and never after presentation. */
        int64_t dts0 = av_rescale_q(p->dts - c->start + c->lead, c->tb, v->tb0) - v->lead0 + v->offset0;
        p->pts = av_rescale_q(pts0, v->tb0, v->ost->time_base);
        p->dts = av_rescale_q(dts0, v->tb0, v->ost->time_base);
        p->duration = av_rescale_q(p->duration, c->tb, v->ost->time_base);
        if (v->last_dts != AV_NOPTS_VALUE && p->dts <= v->last_dts) { /* rounding to a coarse tb */
            p->dts = v->last_dts + 1;
            if (p->pts < p->dts)
                p->pts = p->dts;
        }
        v->last_dts = p->dts;
        p->stream_index = v->ost->index;
        p->pos = -1;
        v->have_pkt = true;
    }
    return MMD_OK;
}

/* Pass 2: video packets and audio written in time order. */
static mmd_status interleave(video_copy *v, AVFormatContext *oc, AVStream *vst, mmd_audio *a, const char *out,
                             mmd_error *err)
{
    char eb[128];
    mmd_status st;
    int e;
    for (;;) {
        if ((st = video_peek(v, err)) != MMD_OK)
            return st;
        int64_t at = INT64_MAX; /* the next audio packet's time; INT64_MAX: none left */
        if (a && (st = mmd_audio_next_time(a, &at, err)) != MMD_OK)
            return st;
        if (v->done && at == INT64_MAX)
            return MMD_OK;
        if (!v->done && av_rescale_q(v->pkt->dts, vst->time_base, AV_TIME_BASE_Q) <= at) {
            v->have_pkt = false;
            v->written++;
            if ((e = av_interleaved_write_frame(oc, v->pkt)) < 0)
                return mmd_fail(err, MMD_E_OUTPUT, "%s: cannot write video: %s", out, averr(e, eb, sizeof eb));
        } else if ((st = mmd_audio_write_next(a, err)) != MMD_OK) {
            return st;
        }
    }
}

/* Trailer, close, and the temporary file renamed into place (removed on failure). */
static mmd_status finish_file(AVFormatContext *oc, const char *tmp, const char *out, mmd_error *err)
{
    char eb[128];
    int e;
    mmd_status st;
    if ((e = av_write_trailer(oc)) < 0) {
        st = mmd_fail(err, MMD_E_OUTPUT, "%s: cannot finish the file: %s", out, averr(e, eb, sizeof eb));
        avio_closep(&oc->pb);
    } else if ((e = avio_closep(&oc->pb)) < 0) {
        st = mmd_fail(err, MMD_E_OUTPUT, "%s: cannot close: %s", out, averr(e, eb, sizeof eb));
    } else if (mmd_temp_commit(tmp, out) != 0) {
        st = mmd_fail(err, MMD_E_OUTPUT, "%s: cannot rename %s into place: %s", out, tmp,
                      errno == ELOOP ? "the name is a symbolic link (not replaced)" : strerror(errno));
    } else {
        return MMD_OK;
    }
    unlink(tmp);
    return st;
}

/* The output container (written as the temporary *tmp, created exclusively:
 * *tmp_fd, removed by the signal handler) and its video stream, parameters
 * copied from the chunks. */
static mmd_status open_container(const char *out, const AVCodecParameters *par, AVRational tb0, AVRational rate,
                                 char **tmp, int *tmp_fd, AVFormatContext **oc, AVStream **vst, mmd_error *err)
{
    const AVOutputFormat *fmt = av_guess_format(NULL, out, NULL);
    if (!fmt)
        return mmd_fail(err, MMD_E_USAGE, "%s: unknown container (use .mp4 .mkv .mov .webm .avi)", out);
    if (avformat_query_codec(fmt, par->codec_id, FF_COMPLIANCE_NORMAL) == 0)
        return mmd_fail(err, MMD_E_USAGE, "%s: a %s container cannot hold %s video", out, fmt->name,
                        avcodec_get_name(par->codec_id));
    if ((*tmp_fd = mmd_temp_create(out, "part", tmp)) < 0)
        return mmd_fail(err, MMD_E_OUTPUT, "%s: cannot create: %s", out, strerror(errno));
    arm_cleanup(*tmp);
    if (avformat_alloc_output_context2(oc, fmt, NULL, *tmp) < 0 || !*oc)
        return mmd_fail(err, MMD_E_OUTPUT, "out of memory");
    (*oc)->flags |= AVFMT_FLAG_BITEXACT; /* as the video sink: no random Matroska id, no dates */
    AVStream *st = *vst = avformat_new_stream(*oc, NULL);
    if (!st || avcodec_parameters_copy(st->codecpar, par) < 0)
        return mmd_fail(err, MMD_E_OUTPUT, "out of memory");
    /* keep the chunks' tag when the output container knows it for this codec:
     * UtVideo's tag is its pixel format (ULRG RGB, ULRA RGBA), and with tag 0
     * the AVI muxer wrote the first of its table (ULRA) for RGB chunks */
    if (!fmt->codec_tag || av_codec_get_id(fmt->codec_tag, par->codec_tag) != par->codec_id)
        st->codecpar->codec_tag = 0;
    st->time_base = tb0;
    st->avg_frame_rate = rate;
    st->r_frame_rate = rate;
    st->sample_aspect_ratio = par->sample_aspect_ratio;
    return MMD_OK;
}

static mmd_status concat_run(const concat_opts *o, mmd_error *err)
{
    int n = o->input_count;
    chunk *chunks = calloc((size_t)n, sizeof *chunks);
    AVCodecParameters *par = avcodec_parameters_alloc();
    AVFormatContext *oc = NULL;
    char *tmp = NULL;
    int tmp_fd = -1;
    bool file_open = false, committed = false;
    mmd_audio *a = NULL;
    mmd_status st = MMD_OK;
    video_copy v = {0};
    AVRational rate = {0, 1};
    char eb[128];
    if (!chunks || !par) {
        st = mmd_fail(err, MMD_E_NOMEM, "out of memory");
        goto done;
    }
    /* pass 1 */
    int64_t total_frames = 0;
    for (int i = 0; i < n; i++) {
        chunks[i].path = o->inputs[i];
        if ((st = scan_chunk(&chunks[i], par, &rate, i == 0, o->inputs[0], err)) != MMD_OK)
            goto done;
        total_frames += chunks[i].packets;
    }
    if ((st = check_sequence(chunks, n, o->out, err)) != MMD_OK)
        goto done;
    AVRational tb0 = chunks[0].tb;
    int64_t total0 = 0; /* tb0 */
    int64_t lead0 = 0;
    for (int i = 0; i < n; i++) {
        total0 += av_rescale_q(chunks[i].end - chunks[i].start, chunks[i].tb, tb0);
        int64_t l = av_rescale_q(chunks[i].lead, chunks[i].tb, tb0);
        lead0 = l > lead0 ? l : lead0;
    }
    double video_s = (double)total0 * av_q2d(tb0);

    /* output */
    AVStream *vst = NULL;
    if ((st = open_container(o->out, par, tb0, rate, &tmp, &tmp_fd, &oc, &vst, err)) != MMD_OK)
        goto done;
    if (o->audio) {
        /* video time t plays file time start_time + t - audio_offset; copy only when
         * neither is given */
        /* AVI and the editing codecs carry PCM, as the video sink writes them */
        bool pcm = !strcmp(oc->oformat->name, "avi") || par->codec_id == AV_CODEC_ID_UTVIDEO ||
                   par->codec_id == AV_CODEC_ID_PRORES;
        mmd_audio_options ao = {.path = o->audio, .offset = o->audio_offset - o->start_time,
                                .allow_copy = !pcm && o->audio_offset == 0 && o->start_time == 0,
                                .max_packet_s = rate.num > 0 ? av_q2d(av_inv_q(rate)) : 0, .pcm = pcm};
        if ((st = mmd_audio_open(&a, oc, &ao, err)) != MMD_OK)
            goto done;
        mmd_audio_set_end(a, total0, tb0); /* cut to the video */
    }
    char fdpath[32];
    mmd_fd_path(tmp_fd, fdpath, sizeof fdpath); /* the file created above, whatever its name is now */
    int e = avio_open(&oc->pb, fdpath, AVIO_FLAG_WRITE);
    if (e < 0) {
        st = mmd_fail(err, MMD_E_OUTPUT, "%s: cannot create: %s", o->out, averr(e, eb, sizeof eb));
        goto done;
    }
    file_open = true;
    if ((e = mmd_mux_write_header(oc, fdpath)) < 0) {
        st = mmd_fail(err, MMD_E_OUTPUT, "%s: cannot write the header: %s", o->out, averr(e, eb, sizeof eb));
        goto done;
    }

    /* pass 2: interleave video packets and audio by time */
    v.chunks = chunks;
    v.count = n;
    v.tb0 = tb0;
    v.lead0 = lead0;
    v.ost = vst;
    v.last_dts = AV_NOPTS_VALUE;
    v.pkt = av_packet_alloc();
    if (!v.pkt) {
        st = mmd_fail(err, MMD_E_OUTPUT, "out of memory");
        goto done;
    }
    if ((st = interleave(&v, oc, vst, a, o->out, err)) != MMD_OK)
        goto done;
    file_open = false; /* finish_file closes it, or removes it on failure */
    if ((st = finish_file(oc, tmp, o->out, err)) != MMD_OK)
        goto done;
    committed = true;
    if (!o->quiet) {
        mmd_msg_print(stdout, "%s: %d chunks, %lld frames, %.3f s", o->out, n, (long long)total_frames, video_s);
        if (a)
            printf(", audio %s (%s)", mmd_audio_is_copy(a) ? "copied" : "encoded", mmd_audio_codec_name(a));
        printf("\n");
    }
done:
    if (oc && file_open)
        avio_closep(&oc->pb);
    disarm_cleanup();
    if (tmp && !committed)
        unlink(tmp);
    if (tmp_fd >= 0)
        close(tmp_fd);
    av_packet_free(&v.pkt);
    mmd_media_close(&v.ic);
    mmd_audio_free(a);
    avformat_free_context(oc);
    avcodec_parameters_free(&par);
    free(chunks);
    free(tmp);
    return st;
}

/* The one place concat's failures are printed and become its exit code (the status's class). */
int mmd_cmd_concat(int argc, char **argv)
{
    concat_opts o = {0};
    bool help = false;
    mmd_error e;
    mmd_status st = parse_args(argc, argv, &o, &help, &e);
    if (help)
        usage(stdout);
    if (st == MMD_OK && !help) {
        av_log_set_level(AV_LOG_ERROR);
        st = concat_run(&o, &e);
    }
    if (st != MMD_OK)
        mmd_msg_print(stderr, "mmdrender concat: %s\n", e.msg);
    free_opts(&o);
    return mmd_exit_code(st);
}
