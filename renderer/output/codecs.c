/* renderer/output/codecs.c - the codec table (see codecs.h). */
#include "renderer/output/codecs.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>


#define NONE AV_PIX_FMT_NONE
#define X264 (MMD_CODEC_YUV | MMD_CODEC_PRESET | MMD_CODEC_ONE_THREAD)

/* One row per --codec NAME: {name, encoder, containers, pixel formats, with alpha,
 * MMD_CODEC_* flags, CRF, memory figures} (mmd_codec, codecs.h). A new codec is a
 * row here (its encoder options, if any, in mmd_codec_options), its output checked
 * in tests/cli/codecs.sh and its row in docs/cli.md (test_codecs checks the
 * containers written there). */
static const mmd_codec k_codecs[] = {
    {"h264", "libx264", "mp4 mov mkv", {AV_PIX_FMT_YUV420P, NONE}, {NONE}, X264, 18, 96, 0, 12},
    {"h264-10", "libx264", "mp4 mov mkv", {AV_PIX_FMT_YUV420P10LE, NONE}, {NONE}, X264, 18, 180, 0, 24},
    {"h264-444", "libx264", "mp4 mov mkv", {AV_PIX_FMT_YUV444P, NONE}, {NONE}, X264, 18, 188, 0, 24},
    {"x264rgb", "libx264rgb", "mp4 mov mkv", {AV_PIX_FMT_BGR0, AV_PIX_FMT_RGB24, AV_PIX_FMT_BGR24}, {NONE},
     MMD_CODEC_PRESET | MMD_CODEC_ONE_THREAD, -1, 84, 0, 24},
    {"hevc", "libx265", "mp4 mov mkv", {AV_PIX_FMT_YUV420P, NONE}, {NONE}, X264 | MMD_CODEC_HVC1, 22, 184, 0, 14},
    {"ffv1", "ffv1", "mkv", {AV_PIX_FMT_0RGB32, AV_PIX_FMT_GBRP, NONE}, {AV_PIX_FMT_RGB32, AV_PIX_FMT_GBRAP, NONE},
     0, -1, 220, 0, 0},
    {"vp9", "libvpx-vp9", "webm mkv", {AV_PIX_FMT_YUV420P, NONE}, {AV_PIX_FMT_YUVA420P, NONE}, MMD_CODEC_YUV, 24, 164, 336, 4},
    {"qtrle", "qtrle", "mov", {AV_PIX_FMT_RGB24, NONE}, {AV_PIX_FMT_ARGB, NONE}, 0, -1, 52, 0, 0},
    {"utvideo", "utvideo", "avi mkv", {AV_PIX_FMT_GBRP, NONE}, {AV_PIX_FMT_GBRAP, NONE}, MMD_CODEC_PCM, -1, 66, 0, 11},
    {"prores", "prores_ks", "mov mkv", {AV_PIX_FMT_YUV422P10LE, NONE}, {AV_PIX_FMT_YUVA444P10LE, NONE},
     MMD_CODEC_YUV | MMD_CODEC_PCM, -1, 80, 143, 3},
};
#define N_CODECS (sizeof k_codecs / sizeof k_codecs[0])

/* Container defaults: extension, codec, codec with alpha (NULL: none). */
#define CONTAINER_ROW(ext, codec, alpha) {ext, codec, alpha},
static const struct {
    const char *ext, *codec, *alpha;
} k_containers[] = {MMD_CONTAINER_LIST(CONTAINER_ROW, )};
#define N_CONTAINERS (sizeof k_containers / sizeof k_containers[0])

/* libx264's presets (libx265 has the same names), fastest first. */
static const char k_presets[] = "ultrafast superfast veryfast faster fast medium slow slower veryslow placebo";

static bool word_in(const char *list, const char *w)
{
    size_t n = strlen(w);
    if (!n)
        return false;
    for (const char *p = list; (p = strstr(p, w)); p += n)
        if ((p == list || p[-1] == ' ') && (p[n] == ' ' || p[n] == 0))
            return true;
    return false;
}

static int container_index(const char *ext)
{
    for (size_t i = 0; i < N_CONTAINERS; i++)
        if (!strcasecmp(ext, k_containers[i].ext))
            return (int)i;
    return -1;
}

bool mmd_codec_is_container(const char *ext) { return container_index(ext) >= 0; }

const mmd_codec *mmd_codec_at(size_t i) { return i < N_CODECS ? &k_codecs[i] : NULL; }

const mmd_codec *mmd_codec_find(const char *name)
{
    if (name && !strcmp(name, "libx264"))
        name = "h264";
    for (size_t i = 0; name && i < N_CODECS; i++)
        if (!strcmp(name, k_codecs[i].name))
            return &k_codecs[i];
    return NULL;
}

static const char *path_ext(const char *path)
{
    const char *slash = strrchr(path, '/');
    const char *dot = strrchr(slash ? slash : path, '.');
    return dot ? dot + 1 : "";
}

/* mmd_fail for functions that return a row. */
#define FAIL(...) (mmd_fail(err, MMD_E_USAGE, __VA_ARGS__), (const mmd_codec *)NULL)

const mmd_codec *mmd_codec_pick(const char *path, const char *name, bool alpha, const char *preset, mmd_error *err)
{
    /* Both lists in the order users read them: tests/unit/test_codecs.c checks them against the tables. */
    static const char alpha_help[] = "vp9 (.webm/.mkv), qtrle (.mov), ffv1 (.mkv), utvideo (.avi/.mkv) or "
                                     "prores (.mov/.mkv)";
    static const char alpha_containers[] = ".webm (vp9), .mov (qtrle), .mkv (ffv1) or .avi (utvideo)";
    const char *ext = path_ext(path);
    int ci = container_index(ext);
    if (ci < 0)
        return FAIL("%s: unknown video container '.%s' (expected %s)", path, ext, MMD_CONTAINERS_SPACED);
    if (name && !*name)
        name = NULL;
    if (!name && alpha && !k_containers[ci].alpha) {
        char up[8] = "";
        for (size_t i = 0; i + 1 < sizeof up && k_containers[ci].ext[i]; i++)
            up[i] = (char)toupper((unsigned char)k_containers[ci].ext[i]);
        return FAIL("%s: %s cannot hold a transparent video: use %s", path, up, alpha_containers);
    }
    if (!name)
        name = alpha ? k_containers[ci].alpha : k_containers[ci].codec;
    const mmd_codec *c = mmd_codec_find(name);
    if (!c)
        return FAIL("unknown codec '%s'", name);
    if (!word_in(c->containers, k_containers[ci].ext)) {
        char allowed[128] = "";
        for (size_t i = 0; i < N_CODECS; i++)
            if (word_in(k_codecs[i].containers, k_containers[ci].ext))
                snprintf(allowed + strlen(allowed), sizeof allowed - strlen(allowed), "%s%s", *allowed ? " " : "",
                         k_codecs[i].name);
        return FAIL("codec '%s' does not go in .%s (expected one of: %s)", c->name, ext, allowed);
    }
    if (preset && !(c->flags & MMD_CODEC_PRESET)) {
        char takes[128] = "";
        for (size_t i = 0; i < N_CODECS; i++)
            if (k_codecs[i].flags & MMD_CODEC_PRESET)
                snprintf(takes + strlen(takes), sizeof takes - strlen(takes), "%s%s", *takes ? ", " : "",
                         k_codecs[i].name);
        return FAIL("a preset applies to the x264/x265 codecs only (%s), not to '%s'", takes, c->name);
    }
    if (preset && !word_in(k_presets, preset))
        return FAIL("unknown x264 preset '%s' (expected one of: %s)", preset, k_presets);
    if (alpha && c->pix_alpha[0] == NONE)
        return FAIL("codec '%s' has no alpha: use %s", c->name, alpha_help);
    return c;
}

enum AVPixelFormat mmd_codec_pix_fmt(const mmd_codec *c, const AVCodec *enc, bool alpha)
{
    const enum AVPixelFormat *want = alpha ? c->pix_alpha : c->pix;
    for (int i = 0; i < 3 && want[i] != NONE; i++) {
        if (!enc->pix_fmts)
            return want[i];
        for (const enum AVPixelFormat *p = enc->pix_fmts; *p != NONE; p++)
            if (*p == want[i])
                return want[i];
    }
    return NONE;
}

int mmd_codec_threads(const mmd_codec *c, int threads)
{
    return (c->flags & MMD_CODEC_ONE_THREAD) && threads <= 0 ? 1 : threads;
}

/* libx265: its own thread pool, not AVCodecContext.thread_count. One frame
 * thread and no pool unless --threads asks for more than one: with frame threads, x265's rate
 * control sees its neighbours' progress, so bytes could depend on timing.
 * open-gop=0: chunks join (concat) at keyframes, as for x264. Its banner and
 * per-file statistics go to stderr unless the log level is error. */
static int x265_params(const mmd_codec_args *a, AVDictionary **d)
{
    char p[96];
    if (a->threads > 1)
        snprintf(p, sizeof p, "log-level=error:open-gop=0:pools=%d", a->threads);
    else
        snprintf(p, sizeof p, "log-level=error:open-gop=0:pools=none:frame-threads=1");
    return av_dict_set(d, "x265-params", p, 0);
}

int mmd_codec_options(const mmd_codec *c, const mmd_codec_args *a, AVDictionary **d)
{
    char num[32];
    int e = 0;
    if (c->crf >= 0) {
        snprintf(num, sizeof num, "%d", a->crf >= 0 ? a->crf : c->crf);
        e |= av_dict_set(d, "crf", num, 0);
    }
    if (c->flags & MMD_CODEC_PRESET)
        e |= av_dict_set(d, "preset", a->preset ? a->preset : "veryfast", 0);
    if (!strcmp(c->encoder, "libx264") || !strcmp(c->encoder, "libx264rgb"))
        e |= av_dict_set(d, "x264-params", "open-gop=0", 0);
    if (!strcmp(c->name, "x264rgb"))
        e |= av_dict_set(d, "qp", "0", 0);
    if (!strcmp(c->name, "hevc"))
        e |= x265_params(a, d);
    if (!strcmp(c->name, "vp9")) {
        e |= av_dict_set(d, "b", "0", 0);
        e |= av_dict_set(d, "deadline", "realtime", 0);
        e |= av_dict_set(d, "cpu-used", "8", 0);
        e |= av_dict_set(d, "row-mt", "1", 0);
    }
    if (!strcmp(c->name, "ffv1")) {
        e |= av_dict_set(d, "level", "3", 0);
        e |= av_dict_set(d, "g", "1", 0);
    }
    if (!strcmp(c->name, "prores")) /* 4444 carries the alpha; 422 HQ is the usual master otherwise */
        e |= av_dict_set(d, "profile", a->alpha ? "4444" : "hq", 0);
    return e < 0 ? -1 : 0;
}

int mmd_mux_write_header(AVFormatContext *oc, const char *fd_path)
{
    AVDictionary *opts = NULL;
    const char *mux = oc->oformat->name;
    if (!strcmp(mux, "mp4") || !strcmp(mux, "mov")) {
        char *url = av_strdup(fd_path);
        if (!url || av_dict_set(&opts, "movflags", "+faststart", 0) < 0) {
            av_free(url);
            return AVERROR(ENOMEM);
        }
        av_free(oc->url); /* the faststart pass reopens the file by this name */
        oc->url = url;
    }
    int e = avformat_write_header(oc, &opts);
    av_dict_free(&opts);
    return e;
}
