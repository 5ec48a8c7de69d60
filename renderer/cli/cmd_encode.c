/* renderer/cli/cmd_encode.c - `mmdrender encode FRAMES --scene SCENE|PROJECT -o OUT.mp4`.
 *
 * PNG frames (a farm's PNG output: a folder or a %0Nd pattern, as render
 * writes them) into a video, the stitch a farm needs: the scene gives the
 * rate and the song (its [audio] file and offset; a .pmm project's own song),
 * --frames A-B[:STEP] (or the scene's [output] frames, else the frames found)
 * the range. The sink is opened from the same request a render opens
 * (mmd_output_request_for: rate fps / STEP, the song placed at the range's
 * first frame), so encoding the PNGs of a render gives the bytes of that
 * render's own video. Every frame of the range must be there: a missing or
 * unreadable frame is exit 2, named, before anything is written.
 */
#include <dirent.h>
#include <getopt.h>
#include <libavutil/log.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "renderer/base/msg.h"
#include "renderer/base/parse.h"
#include "renderer/cli/commands.h"
#include "renderer/cli/memory.h"
#include "renderer/cli/options.h"
#include "renderer/cli/outputs.h"
#include "renderer/scene/plan.h"
#include "renderer/cli/progress.h"
#include "renderer/scene/project.h"
#include "renderer/scene/scene.h"
#include "renderer/image/png.h"
#include "renderer/output/codecs.h"
#include "renderer/output/sink_png.h"

/* CLI-only: set by SIGINT/SIGTERM, polled between frames; the video is finalised. */
static volatile sig_atomic_t g_encode_stop;

static void on_encode_signal(int sig)
{
    g_encode_stop = sig;
}

typedef struct encode_args {
    const char *frames_in, *scene, *out, *frames, *fps, *codec, *preset, *audio, *ignored;
    double audio_offset;
    int ignored_count;
    mmd_project_search search; /* --asset-root, --allow-outside-assets (a project's) */
    int crf, threads, progress, max_memory_mib;
    bool no_audio, quiet;
} encode_args;

/* The command line into *a. MMD_E_USAGE after saying why; *done after --help or --version. */
static mmd_status parse_args(int argc, char **argv, encode_args *a, bool *done)
{
    struct option longopts[MMD_CLI_MAX_OPTIONS + 1];
    mmd_cli_longopts(MMD_CLI_ENCODE | MMD_CLI_RENDER, longopts); /* a farm passes the render's options */
    mmd_error ierr; /* an integer option out of its range */
    memset(a, 0, sizeof *a);
    a->crf = -1;
    a->max_memory_mib = MMD_MAX_MEMORY_DEFAULT_MIB;
    a->progress = MMD_PROGRESS_AUTO;
    opterr = 0;
    optind = 1;
    int c, li = -1;
    while ((c = getopt_long(argc, argv, ":o:qh", longopts, &li)) != -1) {
        switch (c) {
        case 'o': a->out = optarg; break;
        case MMD_OPT_SCENE: a->scene = optarg; break;
        case MMD_OPT_FRAMES: a->frames = optarg; break;
        case MMD_OPT_FPS: a->fps = optarg; break;
        case MMD_OPT_CODEC: a->codec = optarg; break;
        case MMD_OPT_PRESET: a->preset = optarg; break;
        case MMD_OPT_CRF:
        case MMD_OPT_THREADS:
        case MMD_OPT_MAXMEM: { /* the video's queue and encoder count against --max-memory */
            int *v = c == MMD_OPT_CRF ? &a->crf : c == MMD_OPT_THREADS ? &a->threads : &a->max_memory_mib;
            if (mmd_cli_int(c, optarg, v, &ierr) != MMD_OK)
                return mmd_cli_usage_error(MMD_CLI_ENCODE, "%s", ierr.msg);
            break;
        }
        case MMD_OPT_NOAUDIO: a->no_audio = true; break;
        case MMD_OPT_AUDIO: a->audio = optarg; break;
        case MMD_OPT_AUDIO_OFFSET:
            if (!mmd_parse_double(optarg, -86400, 86400, &a->audio_offset))
                return mmd_cli_usage_error(MMD_CLI_ENCODE, "--audio-offset: expected seconds, got '%s'", optarg);
            break;
        case MMD_OPT_ASSET_ROOT:
            if (a->search.root_count >= MMD_PROJECT_MAX_ROOTS)
                return mmd_cli_usage_error(MMD_CLI_ENCODE, "too many --asset-root folders (at most 16), at '%s'", optarg);
            a->search.roots[a->search.root_count++] = optarg;
            break;
        case MMD_OPT_OUTSIDE: a->search.allow_outside = true; break;
        case MMD_OPT_PROGRESS:
            if ((a->progress = mmd_progress_parse_mode(optarg)) < 0)
                return mmd_cli_usage_error(MMD_CLI_ENCODE, "--progress: expected bar, plain, json or none, got '%s'", optarg);
            break;
        case 'q': a->quiet = true; break;
        case 'h': mmd_cli_usage(MMD_CLI_ENCODE, stdout); return *done = true, MMD_OK;
        case MMD_OPT_VERSION: mmd_cli_version(stdout); return *done = true, MMD_OK;
        case ':': return mmd_cli_usage_error(MMD_CLI_ENCODE, "option %s needs a value", argv[optind - 1]);
        case '?': return mmd_cli_usage_error(MMD_CLI_ENCODE, "unknown option '%s'", argv[optind - 1]);
        default: /* a render option: the frames are made already */
            if (!a->ignored_count++ && li >= 0)
                a->ignored = longopts[li].name;
        }
        li = -1;
    }
    for (; optind < argc; optind++) {
        if (a->frames_in)
            return mmd_cli_usage_error(MMD_CLI_ENCODE, "unexpected argument '%s' (one FRAMES folder or pattern)", argv[optind]);
        a->frames_in = argv[optind];
    }
    if (a->ignored_count && !a->quiet)
        mmd_msg_print(stderr,
                      "mmdrender encode: %d render option(s) ignored (--%s%s): the frames are rendered already\n",
                      a->ignored_count, a->ignored ? a->ignored : "?", a->ignored_count > 1 ? ", ..." : "");
    if (!a->frames_in)
        return mmd_cli_usage_error(MMD_CLI_ENCODE, "%s", "missing FRAMES (the PNG folder/ or pattern the frames were rendered to)");
    if (!a->scene)
        return mmd_cli_usage_error(MMD_CLI_ENCODE, "%s", "missing --scene SCENE.ini|PROJECT.pmm (the frames' rate, range and song)");
    if (!a->out)
        return mmd_cli_usage_error(MMD_CLI_ENCODE, "%s", "missing -o OUT (a " MMD_CONTAINERS_SLASHED " file)");
    return MMD_OK;
}

/* FRAMES is not a name render writes frames to: err's sentence, as a usage error. */
static mmd_status bad_frames_name(mmd_error *err)
{
    return err->status = MMD_E_USAGE;
}

/* The range of the frames found in FRAMES' folder: first, last and the
 * largest step that reaches each of them from the first. MMD_E_USAGE for a
 * FRAMES that names no frames, MMD_E_IO for a folder without any. */
static mmd_status found_range(const char *frames, int64_t *first, int64_t *last, int *step, mmd_error *err)
{
    char path[PATH_MAX], dir[PATH_MAX];
    if (mmd_sink_png_path(frames, 0, path, sizeof path, err) != MMD_OK)
        return bad_frames_name(err);
    const char *slash = strrchr(path, '/');
    snprintf(dir, sizeof dir, "%.*s", slash ? (int)(slash - path) : 1, slash ? path : ".");
    DIR *d = opendir(dir);
    if (!d)
        return mmd_fail(err, MMD_E_IO, "%s: cannot read the folder", dir);
    int64_t lo = -1, hi = -1, g = 0, f;
    struct dirent *e;
    while ((e = readdir(d))) {
        int k = snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
        if (k <= 0 || (size_t)k >= sizeof path || !mmd_sink_png_writes(frames, path, &f))
            continue;
        if (lo >= 0) { /* g: gcd of the distances from the first */
            int64_t x = f > lo ? f - lo : lo - f, y = g;
            while (y) {
                int64_t t = x % y;
                x = y;
                y = t;
            }
            g = x;
        }
        lo = lo < 0 || f < lo ? f : lo;
        hi = f > hi ? f : hi;
    }
    closedir(d);
    if (lo < 0)
        return mmd_fail(err, MMD_E_IO, "no frames in %s (names as `-o %s` writes them)", dir, frames);
    *first = lo;
    *last = hi;
    *step = g > 0 && g <= 1000000 ? (int)g : 1;
    return MMD_OK;
}

/* Every frame of the plan is a file; else MMD_E_IO (exit 2), the first ten
 * missing ones named on stderr before the sentence. */
static mmd_status check_frames(const char *frames, const mmd_render_plan *p, mmd_error *err)
{
    char path[PATH_MAX];
    int64_t missing = 0;
    for (int64_t f = p->begin; f <= p->end; f += p->step) {
        struct stat st;
        if (mmd_sink_png_path(frames, f, path, sizeof path, err) != MMD_OK)
            return bad_frames_name(err);
        if (stat(path, &st) == 0 && S_ISREG(st.st_mode))
            continue;
        if (missing++ < 10)
            mmd_msg_print(stderr, "mmdrender encode: missing frame %lld: %s\n", (long long)f, path);
    }
    if (!missing)
        return MMD_OK;
    return mmd_fail(err, MMD_E_IO, "%lld of the %lld frames of %lld-%lld:%d are missing: nothing written",
                    (long long)missing, (long long)p->frames, (long long)p->first, (long long)p->last, p->step);
}

/* --audio FILE [--audio-offset S] in place of the scene's [audio]; MMD_E_IO
 * when the file is not there. */
static mmd_status replace_audio(mmd_scene *s, const char *file, double offset, mmd_error *err)
{
    struct stat st;
    if (stat(file, &st) != 0 || !S_ISREG(st.st_mode))
        return mmd_fail(err, MMD_E_IO, "--audio %s: no such file", file);
    s->audio_file = (char *)file; /* scene strings live in its arena: this one is argv's */
    s->audio_offset = offset;
    return MMD_OK;
}

/* The scene's rate and range after --fps and --frames, the range found in
 * FRAMES when neither gives one; the plan over it. A bad --fps or --frames
 * is MMD_E_USAGE; frames or a song not there MMD_E_IO. */
static mmd_status make_plan(mmd_scene *s, const encode_args *a, mmd_render_plan *p, mmd_error *err)
{
    int step = 1;
    mmd_status st;
    if ((a->fps && mmd_scene_parse_fps(a->fps, &s->fps_num, &s->fps_den, err)) ||
        (a->frames && mmd_scene_parse_frames(a->frames, &s->frame_first, &s->frame_last, &step, err)))
        return err->status = MMD_E_USAGE;
    s->has_frames |= a->frames != NULL;
    if (!s->has_frames) {
        if ((st = found_range(a->frames_in, &s->frame_first, &s->frame_last, &step, err)) != MMD_OK)
            return st;
        if (!a->quiet)
            mmd_msg_print(stderr, "mmdrender encode: frames %lld-%lld:%d (found in %s)\n",
                          (long long)s->frame_first, (long long)s->frame_last, step, a->frames_in);
    }
    if (a->audio && (st = replace_audio(s, a->audio, a->audio_offset, err)) != MMD_OK)
        return st;
    if (a->no_audio)
        s->audio_file = NULL;
    mmd_plan_input in = {.has_frames = true, .frame_first = s->frame_first, .frame_last = s->frame_last,
                         .step = step, .fps_num = s->fps_num, .fps_den = s->fps_den, .chunk_count = 1};
    mmd_render_plan_make(&in, p);
    if (p->video_rate_kept && !a->quiet)
        mmd_msg_print(stderr, "mmdrender encode: warning: step %d: fps / step does not fit a video's rate, so the "
                      "video keeps %d/%d fps and plays %d times faster than the song\n", step, s->fps_num,
                      s->fps_den, step);
    return check_frames(a->frames_in, p, err);
}

static void on_frame_done(void *user, int64_t frame)
{
    mmd_progress_frame(user, frame);
}

/* The frame's PNG into *rgba (malloc'd), checked against the video's size
 * (*w, *h: 0 takes the first frame's). MMD_E_IO for a frame that does not
 * read, MMD_E_BAD_VALUE for one of another size. */
static mmd_status read_frame(const char *frames, int64_t f, int *w, int *h, uint8_t **rgba, mmd_error *err)
{
    char path[PATH_MAX];
    int fw, fh;
    mmd_error e;
    *rgba = NULL;
    if (mmd_sink_png_path(frames, f, path, sizeof path, &e) != MMD_OK ||
        mmd_png_read_file(path, rgba, &fw, &fh, &e) != MMD_OK)
        return mmd_fail(err, MMD_E_IO, "frame %lld: %s", (long long)f, e.msg);
    if (*w && (fw != *w || fh != *h)) {
        free(*rgba);
        *rgba = NULL;
        return mmd_fail(err, MMD_E_BAD_VALUE, "%s is %dx%d, the frames before it %dx%d", path, fw, fh, *w, *h);
    }
    *w = fw;
    *h = fh;
    return MMD_OK;
}

/* The frames into the sink, in order; the first is already read.
 * MMD_E_INTERRUPTED (no sentence) when a signal stopped it. */
static mmd_status write_frames(mmd_sink *sink, const char *frames, const mmd_render_plan *p, uint8_t *rgba, int w,
                               int h, mmd_error *err)
{
    mmd_error e;
    mmd_status st = MMD_OK;
    for (int64_t f = p->begin; f <= p->end && !g_encode_stop; f += p->step) {
        if (!rgba && (st = read_frame(frames, f, &w, &h, &rgba, err)) != MMD_OK)
            return st;
        st = mmd_sink_write(sink, rgba, w, h, (size_t)w * 4, f, &e);
        free(rgba);
        rgba = NULL;
        if (st != MMD_OK)
            return mmd_fail(err, st, "frame %lld: %s", (long long)f, e.msg);
    }
    free(rgba);
    if (!g_encode_stop)
        return MMD_OK;
    err->msg[0] = 0; /* stopped as asked: nothing to say */
    return MMD_E_INTERRUPTED;
}

/* The video's sink for scene s and plan p into *sink, at the size of the
 * first frame (read into *first). MMD_E_USAGE for an OUT that is no video. */
static mmd_status open_video(mmd_scene *s, const encode_args *a, const mmd_render_plan *p, uint8_t **first,
                             mmd_sink **sink, mmd_error *err)
{
    const mmd_output_kind *kind = mmd_output_kind_for(a->out);
    if (!kind || !kind->encodes)
        return mmd_fail(err, MMD_E_USAGE, "-o %s: expected a video (%s)", a->out, "a " MMD_CONTAINERS_SLASHED " file");
    int w = 0, h = 0;
    mmd_status st = read_frame(a->frames_in, p->begin, &w, &h, first, err);
    if (st != MMD_OK)
        return st;
    s->width = w; /* the frames' size, whatever --size the render had */
    s->height = h;
    mmd_output_request r = mmd_output_request_for(s, p, a->out);
    r.codec = a->codec;
    r.preset = a->preset;
    r.crf = a->crf;
    r.threads = a->threads;
    r.cancel = &g_encode_stop;
    if ((st = kind->check(&r, err)) == MMD_OK &&
        (st = mmd_memory_check_output(kind, &r, (uint64_t)a->max_memory_mib << 20, NULL, err)) == MMD_OK &&
        !(*sink = kind->open(&r, err)))
        st = err->status;
    return st;
}

/* err's sentence on stderr (none after an interrupt); st's exit code. */
static int said(mmd_status st, const mmd_error *err)
{
    if (st != MMD_OK && err->msg[0])
        mmd_msg_print(stderr, "mmdrender encode: %s\n", err->msg);
    return mmd_exit_code(st);
}

/* Encodes over the scene value s (the caller's: a project's, or the --scene
 * file's): the command's top for one scene, the one that prints an error. */
static int encode_scene(mmd_scene *s, void *ctx)
{
    const encode_args *a = ctx;
    mmd_error err = {.msg = ""};
    av_log_set_level(a->quiet ? AV_LOG_QUIET : AV_LOG_ERROR);
    mmd_render_plan p;
    uint8_t *first = NULL;
    mmd_sink *sink = NULL;
    mmd_status st = make_plan(s, a, &p, &err);
    if (st == MMD_OK)
        st = open_video(s, a, &p, &first, &sink, &err);
    if (st != MMD_OK) {
        free(first);
        return said(st, &err);
    }
    mmd_progress *prog = mmd_progress_create(a->quiet ? MMD_PROGRESS_NONE : (mmd_progress_mode)a->progress,
                                             stderr, p.frames);
    sink->on_done = on_frame_done;
    sink->user = prog;
    g_encode_stop = 0;
    struct sigaction sa = {.sa_handler = on_encode_signal};
    sigemptyset(&sa.sa_mask);
    sigaction(SIGINT, &sa, NULL);
    sigaction(SIGTERM, &sa, NULL);
    st = write_frames(sink, a->frames_in, &p, first, s->width, s->height, &err);
    int rc = said(st, &err); /* before the sink closes or aborts, as the frame fails */
    if (st == MMD_OK || st == MMD_E_INTERRUPTED) {
        mmd_status cs = mmd_sink_close(sink, &err);
        if (cs != MMD_OK)
            rc = said(cs, &err);
        else
            mmd_progress_finish(prog);
    } else {
        mmd_sink_abort(sink);
    }
    signal(SIGINT, SIG_DFL);
    signal(SIGTERM, SIG_DFL);
    mmd_progress_free(prog);
    if (rc == MMD_EXIT_OK && !a->quiet)
        mmd_msg_print(stderr, "mmdrender encode: %lld frame(s) of %lld-%lld:%d at %d/%d fps%s -> %s\n",
                      (long long)p.frames, (long long)p.first, (long long)p.last, p.step, p.video_fps_num,
                      p.video_fps_den, s->audio_file ? " with the song" : "", a->out);
    return rc;
}

int mmd_cmd_encode(int argc, char **argv)
{
    encode_args a;
    bool done = false;
    mmd_status st = parse_args(argc, argv, &a, &done);
    if (st != MMD_OK || done)
        return mmd_exit_code(st);
    if (mmd_is_project(a.scene))
        return mmd_project_run(a.scene, &a.search, encode_scene, &a);
    if (a.search.root_count)
        return mmd_exit_code(
            mmd_cli_usage_error(MMD_CLI_ENCODE, "--asset-root %s: only a .pmm project has asset roots", a.search.roots[0]));
    mmd_scene *s = NULL;
    mmd_error err;
    if (mmd_scene_load_file(a.scene, &s, &err) != MMD_OK) {
        mmd_msg_print(stderr, "mmdrender encode: %s\n", err.msg);
        return mmd_exit_code(err.status);
    }
    int rc = encode_scene(s, &a);
    mmd_scene_free(s);
    return rc;
}
