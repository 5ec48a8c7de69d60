/* renderer/cli/options.c - the option and command tables (see options.h). */
#include "renderer/cli/options.h"

#include <cglm/version.h>
#include <libavcodec/avcodec.h>
#include <libavformat/avformat.h>
#include <libavutil/avutil.h>
#include <libswresample/swresample.h>
#include <libswscale/swscale.h>
#include <png.h>
#include <string.h>
#include <zlib.h>

#include "core/physics.h"
#include "renderer/base/parse.h"
#include "renderer/output/codecs.h"
#include "renderer/cli/commands.h"
#include "renderer/cli/memory.h"
#include "renderer/gl/context.h"

typedef struct cli_option {
    const char *name; /* long name, without -- */
    int key;          /* getopt value: the short letter or an MMD_OPT_* */
    int has_arg;      /* no_argument, required_argument, optional_argument */
    const char *arg;  /* the value's name in the help; optional_argument: "[=contact]" */
    int commands;     /* MMD_CLI_* bits; 0: hidden (not in the help or the man page) */
    const char *help; /* '\n' breaks the --help lines; the man page joins them */
} cli_option;

#define R MMD_CLI_RENDER
#define E MMD_CLI_ENCODE
static const cli_option k_options[] = {
    {"output", 'o', required_argument, "OUT", R | E, "where the frames go (required)"},
    {"scene", MMD_OPT_SCENE, required_argument, "SCENE", E,
     "encode: the scene.ini or .pmm project the frames were rendered\nfrom (rate, range, song)"},
    {"frames", MMD_OPT_FRAMES, required_argument, "A-B[:STEP]", R | E,
     "inclusive output-frame range; STEP renders every STEP-th\nframe (frame f shows motion time f*30/fps); "
     "a video of a\nSTEP range plays at fps/STEP, so motion and song stay in sync"},
    {"size", MMD_OPT_SIZE, required_argument, "WxH", R, "image size in pixels"},
    {"fps", MMD_OPT_FPS, required_argument, "N", R | E, "output rate: 30, 60, 29.97 or 30000/1001"},
    {"aa", MMD_OPT_AA, required_argument, "N", R, "MSAA samples: 1, 2 or 4"},
    {"background", MMD_OPT_BG, required_argument, "C", R, "#rrggbb or transparent"},
    {"glow", MMD_OPT_GLOW, no_argument, NULL, R, "AutoLuminous-style glow of AL-marked materials"},
    {"soft-shadow", MMD_OPT_SOFT_SHADOW, optional_argument, "[=contact]", R,
     "soft self-shadow edges (PCF); =contact: contact-hardening\n(sharp where the shadow touches)"},
    {"diffusion", MMD_OPT_DIFFUSION, no_argument, NULL, R, "soft bloom of the whole frame (Diffusion style)"},
    {"ssaa", MMD_OPT_SSAA, required_argument, "N", R, "supersampling: render N times larger (2, 3 or 4), filter down"},
    {"fxaa", MMD_OPT_FXAA, no_argument, NULL, R, "post-process edge anti-aliasing (cheap)"},
    {"strict-effects", MMD_OPT_STRICT_FX, no_argument, NULL, R,
     "a post effect (or an accessory's effect) that does not\nparse, translate or link is an error (exit 2) instead of a\nwarning and skipped"},
    {"codec", MMD_OPT_CODEC, required_argument, "NAME", R | E,
     "h264 (default), h264-10, h264-444, x264rgb, hevc, ffv1,\nvp9, qtrle, utvideo (.avi default), prores (4444 with\n"
     "alpha, else 422 HQ)"},
    {"crf", MMD_OPT_CRF, required_argument, "N", R | E, "quality for h264* (default 18), hevc (22), vp9 (24)"},
    {"preset", MMD_OPT_PRESET, required_argument, "NAME", R | E,
     "x264/x265 speed for h264*, x264rgb, hevc: ultrafast,\nsuperfast, veryfast (default), faster, fast, medium, ..."},
    {"threads", MMD_OPT_THREADS, required_argument, "N", R | E,
     "render and encoder threads (0 = all cores; x264 and\nx265 then encode on one thread: same bytes anywhere)"},
    {"chunk", MMD_OPT_CHUNK, required_argument, "I/N", R,
     "render only chunk I of N (0-based, contiguous) of the\nframe range; auto/N takes I from SLURM_ARRAY_TASK_ID,\n"
     "JOB_COMPLETION_INDEX or AWS_BATCH_JOB_ARRAY_INDEX"},
    {"skip-existing", MMD_OPT_SKIP, no_argument, NULL, R, "PNG: do not render frames whose PNG is complete"},
    {"no-physics", MMD_OPT_NOPHYS, no_argument, NULL, R, "turn physics off for every model"},
    {"no-audio", MMD_OPT_NOAUDIO, no_argument, NULL, R | E, "ignore the scene's [audio]"},
    {"audio", MMD_OPT_AUDIO, required_argument, "FILE", E, "encode: this song instead of the scene's"},
    {"audio-offset", MMD_OPT_AUDIO_OFFSET, required_argument, "S", E,
     "encode: seconds into the scene where --audio starts"},
    {"gl", MMD_OPT_GL, required_argument, "osmesa|egl|egl-gpu", R,
     "GL backend (default osmesa; egl in a build without OSMesa;\negl-gpu: a hardware EGL device, an error without one)"},
    {"allow-outside-assets", MMD_OPT_OUTSIDE, no_argument, NULL, R, "let texture paths leave the model's folder, an effect's reads its root, a project's paths its folder and asset roots"},
    {"asset-root", MMD_OPT_ASSET_ROOT, required_argument, "DIR", R | E,
     ".pmm: look under DIR for the project's UserFile\\ paths\n(repeatable)"},
    {"progress", MMD_OPT_PROGRESS, required_argument, "MODE", R | E,
     "bar (terminal default), plain (frame, fps, elapsed, ETA),\njson or none"},
    {"quiet", 'q', no_argument, NULL, R | E, "no progress, warnings or summary"},
    {"stats", MMD_OPT_STATS, no_argument, NULL, R, "print a JSON timing summary at the end (benchmarks)"},
    {"print-plan", MMD_OPT_PRINT_PLAN, no_argument, NULL, R,
     "print the frames a render would make as one JSON line and\nexit (nothing is rendered; farms size their arrays from it)"},
    {"texture-memory", MMD_OPT_TEXMEM, required_argument, "MIB", R,
     "decoded textures of all models together (default 2048);\nlarger textures are scaled down, then dropped (white)"},
    {"max-memory", MMD_OPT_MAXMEM, required_argument, "MIB", R | E,
     "refuse a render whose targets, effects, frames and\noutput queue would hold more (default "
     MMD_MAX_MEMORY_STR(MMD_MAX_MEMORY_DEFAULT_MIB) ", " MMD_MAX_MEMORY_RANGE ");\n"
     "textures get what it leaves, up to --texture-memory;\nencode: its frame, video queue and encoder"},
    {"texture-filter", MMD_OPT_TEXFILTER, required_argument, "mmd|aniso4|trilinear", R,
     "how textures shrink: mmd (default) samples them\nanisotropically, MikuMikuDance's look; trilinear costs\n"
     "a third of the CPU on a textured scene (llvmpipe), thin\ntranslucent strands more opaque, grazing detail "
     "blurred;\naniso4: 4 taps in the shader, near MMD's look at 1.2x\ntrilinear's cost"},
    {"help", 'h', no_argument, NULL, R | E, "this text"},
    {"version", MMD_OPT_VERSION, no_argument, NULL, R,
     "the version, with Mesa, libav*, Bullet and cglm (the output\nbytes depend on them)"},
    {"help-man", MMD_OPT_HELP_MAN, no_argument, NULL, 0, "the man page (roff)"},
};
#undef R
#undef E

/* The integer options' ranges (mmd_cli_int), beside their rows. */
static const struct {
    int key, min, max;
} k_int_ranges[] = {
    {MMD_OPT_CRF, 0, 63}, {MMD_OPT_THREADS, 0, 256}, {MMD_OPT_TEXMEM, 1, 1 << 20},
    {MMD_OPT_MAXMEM, MMD_MAX_MEMORY_MIN_MIB, MMD_MAX_MEMORY_MAX_MIB},
};

_Static_assert(sizeof k_options / sizeof *k_options <= MMD_CLI_MAX_OPTIONS, "raise MMD_CLI_MAX_OPTIONS");

typedef struct cli_command {
    int command;          /* MMD_CLI_* whose options it takes; 0: its own (its --help) */
    const char *synopsis; /* after "mmdrender " */
    const char *what;
} cli_command;

static const cli_command k_commands[] = {
    {MMD_CLI_RENDER, "SCENE.ini|PROJECT.pmm -o OUT [options]",
     "render a scene file or a MikuMikuDance project (.pmm)"},
    {MMD_CLI_ENCODE, "encode FRAMES/ --scene SCENE.ini|PROJECT.pmm -o OUT.mp4 [options]",
     "PNG frames (a farm's) into a video at the scene's rate and step,\nwith its song cut to the range; "
     "it takes the render's options\ntoo (a farm passes the same line) and ignores those that make\nthe picture"},
    {0, "info FILE [--json]", "summary of a model, motion, pose, accessory or project"},
    {0, "pose MODEL [--motion VMD]... --frames LIST [--json]", "bone matrices as text or JSON"},
    {0, "diff A B [--json] [--html DIR]", "compare PNGs or folders of PNGs"},
    {0, "concat CHUNK... -o OUT [--audio FILE]", "join chunk videos without re-encoding"},
    {0, "export PROJECT.pmm DIR", "a .pmm project as scene.ini + VMDs"},
    {0, "effect FILE.fx [--json]", "techniques, passes and parameters of a MikuMikuEffect file"},
};

static const char k_outputs[] =
    "OUT is a video (" MMD_CONTAINERS_SPACED "), a PNG folder (ending in /), a PNG\n"
    "pattern with %0Nd (frames/%05d.png) or, for a one-frame range, a FILE.png;\n"
    "'null' renders without writing.";

static const char k_encode_about[] =
    "FRAMES is the PNG folder/ or %0Nd pattern a render wrote; OUT a video. The range\n"
    "is --frames, else the scene's [output] frames, else the frames found; every frame\n"
    "of it must be there (else exit 2, nothing written). The render's options are taken\n"
    "and ignored, so a farm passes one option line to render and encode.";

static const char k_exit_codes[] =
    "exit codes: 0 ok, 1 usage, 2 bad input (scene, model, motion, audio, frames),\n"
    "            3 GL, 4 encoder, 5 output not writable, 130 interrupted (outputs finalised)";

void mmd_cli_longopts(int command, struct option *out)
{
    size_t n = 0;
    for (size_t i = 0; i < sizeof k_options / sizeof *k_options; i++) {
        const cli_option *o = &k_options[i];
        if (o->commands && !(o->commands & command))
            continue;
        out[n++] = (struct option){o->name, o->has_arg, NULL, o->key};
    }
    out[n] = (struct option){NULL, 0, NULL, 0};
}

bool mmd_cli_takes_value(const char *arg)
{
    for (size_t i = 0; i < sizeof k_options / sizeof *k_options; i++) {
        const cli_option *o = &k_options[i];
        if (o->has_arg != required_argument)
            continue;
        if ((arg[0] == '-' && arg[1] == '-' && !strcmp(arg + 2, o->name)) ||
            (o->key < 256 && arg[0] == '-' && arg[1] == o->key && !arg[2]))
            return true;
    }
    return false;
}

mmd_status mmd_cli_int(int key, const char *value, int *out, mmd_error *err)
{
    for (size_t i = 0; i < sizeof k_int_ranges / sizeof *k_int_ranges; i++) {
        if (k_int_ranges[i].key != key)
            continue;
        if (mmd_parse_int(value, k_int_ranges[i].min, k_int_ranges[i].max, out))
            return MMD_OK;
        for (size_t k = 0; k < sizeof k_options / sizeof *k_options; k++)
            if (k_options[k].key == key)
                return mmd_fail(err, MMD_E_USAGE, "--%s: expected %d..%d, got '%s'", k_options[k].name,
                                k_int_ranges[i].min, k_int_ranges[i].max, value);
        break;
    }
    return mmd_fail(err, MMD_E_USAGE, "option %d has no range in the table", key); /* a programmer's error */
}

/* "-o, --output OUT", "--soft-shadow[=contact]" */
static void option_label(const cli_option *o, char *buf, size_t n)
{
    const char *sep = !o->arg ? "" : o->has_arg == optional_argument ? "" : " ";
    if (o->key < 256)
        snprintf(buf, n, "-%c, --%s%s%s", o->key, o->name, sep, o->arg ? o->arg : "");
    else
        snprintf(buf, n, "--%s%s%s", o->name, sep, o->arg ? o->arg : "");
}

/* text with each '\n' followed by `indent` spaces */
static void put_indented(FILE *out, const char *text, int indent)
{
    for (const char *c = text; *c; c++) {
        fputc(*c, out);
        if (*c == '\n')
            fprintf(out, "%*s", indent, "");
    }
}

void mmd_cli_usage(int command, FILE *out)
{
    const char *lead = "usage: ";
    for (size_t i = 0; i < sizeof k_commands / sizeof *k_commands; i++) {
        if (command == MMD_CLI_ENCODE && k_commands[i].command != MMD_CLI_ENCODE)
            continue;
        fprintf(out, "%smmdrender %s\n", lead, k_commands[i].synopsis);
        lead = "       ";
    }
    if (command == MMD_CLI_RENDER) {
        fputs("\ncommands (each has its own --help):\n", out);
        for (size_t i = 1; i < sizeof k_commands / sizeof *k_commands; i++) {
            char name[32];
            snprintf(name, sizeof name, "%.*s", (int)strcspn(k_commands[i].synopsis, " "), k_commands[i].synopsis);
            fprintf(out, "  %-22s", name);
            put_indented(out, k_commands[i].what, 24);
            fputc('\n', out);
        }
    }
    if (command == MMD_CLI_ENCODE)
        fprintf(out, "\n%s\n\noptions:\n", k_encode_about);
    else
        fprintf(out, "\n%s\n\noptions (override the scene file):\n", k_outputs);
    for (size_t i = 0; i < sizeof k_options / sizeof *k_options; i++) {
        const cli_option *o = &k_options[i];
        if (!(o->commands & command))
            continue;
        char label[64];
        option_label(o, label, sizeof label);
        if (strlen(label) >= 22)
            fprintf(out, "  %s\n%*s", label, 24, "");
        else
            fprintf(out, "  %-22s", label);
        put_indented(out, o->help, 24);
        fputc('\n', out);
    }
    fprintf(out, "\n%s\n", k_exit_codes);
}

mmd_status mmd_cli_usage_error(int command, const char *fmt, const char *arg)
{
    const char *who = command == MMD_CLI_ENCODE ? "mmdrender encode" : "mmdrender";
    mmd_msg_print(stderr, "%s: ", who);
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wformat-nonliteral"
    mmd_msg_print(stderr, fmt, arg);
#pragma GCC diagnostic pop
    mmd_msg_print(stderr, "\n(%s --help for the options)\n", who);
    return MMD_E_USAGE;
}

/* roff text on one line: '\n' becomes a space, '-' and '\\' are escaped, a
 * leading '.' or '\'' is guarded. */
static void put_roff(FILE *out, const char *text)
{
    if (*text == '.' || *text == '\'')
        fputs("\\&", out);
    for (const char *c = text; *c; c++) {
        if (*c == '-')
            fputs("\\-", out);
        else if (*c == '\\')
            fputs("\\e", out);
        else
            fputc(*c == '\n' ? ' ' : *c, out);
    }
}

static void man_options(FILE *out, int command)
{
    for (size_t i = 0; i < sizeof k_options / sizeof *k_options; i++) {
        const cli_option *o = &k_options[i];
        if (!(o->commands & command))
            continue;
        char label[64];
        option_label(o, label, sizeof label);
        fputs(".TP\n.B ", out);
        put_roff(out, label);
        fputc('\n', out);
        put_roff(out, o->help);
        fputc('\n', out);
    }
}

void mmd_cli_man(FILE *out)
{
    fprintf(out, ".TH MMDRENDER 1 \"\" \"mmdrender %s\" \"User Commands\"\n.SH NAME\n"
                 "mmdrender \\- headless batch renderer for MikuMikuDance scenes\n.SH SYNOPSIS\n", MMD_VERSION);
    for (size_t i = 0; i < sizeof k_commands / sizeof *k_commands; i++) {
        fputs(".B mmdrender\n", out);
        put_roff(out, k_commands[i].synopsis);
        fputs("\n.br\n", out);
    }
    fputs(".SH DESCRIPTION\n", out);
    put_roff(out, k_outputs);
    fputs("\n.SH COMMANDS\n", out);
    for (size_t i = 0; i < sizeof k_commands / sizeof *k_commands; i++) {
        fputs(".TP\n.B mmdrender ", out);
        put_roff(out, k_commands[i].synopsis);
        fputc('\n', out);
        put_roff(out, k_commands[i].what);
        fputs(k_commands[i].command ? "\n" : " (see its \\-\\-help).\n", out);
    }
    fputs(".SH OPTIONS\nOptions override the scene file.\n", out);
    man_options(out, MMD_CLI_RENDER);
    fputs(".SH ENCODE OPTIONS\n", out);
    put_roff(out, k_encode_about);
    fputc('\n', out);
    man_options(out, MMD_CLI_ENCODE);
    fputs(".SH EXIT STATUS\n", out);
    put_roff(out, k_exit_codes);
    fputs("\n.SH SEE ALSO\nREADME.md and docs/*.md in the source tree (docs/cli.md, docs/farms.md).\n", out);
}

/* "61.3.100" from an AV_VERSION_INT. */
static void put_av(FILE *out, const char *name, unsigned v)
{
    fprintf(out, " %s %u.%u.%u", name, v >> 16, (v >> 8) & 0xff, v & 0xff);
}

void mmd_cli_version(FILE *out)
{
    fprintf(out, "mmdrender %s\n", MMD_VERSION);
    mmd_gl_context *c = NULL;
    mmd_error err;
    if (mmd_gl_context_create(mmd_gl_default_backend(), 1, &c, &err) == MMD_OK)
        fprintf(out, "GL: %s\n", mmd_gl_context_version(c));
    else
        fprintf(out, "GL: no context (%s)\n", err.msg);
    mmd_gl_context_free(c);
    fprintf(out, "FFmpeg %s:", av_version_info());
    put_av(out, "libavcodec", avcodec_version());
    put_av(out, "libavformat", avformat_version());
    put_av(out, "libavutil", avutil_version());
    put_av(out, "libswscale", swscale_version());
    put_av(out, "libswresample", swresample_version());
    int b = mmd_physics_bullet_version();
    fprintf(out, "\nBullet %d.%02d, cglm %d.%d.%d, libpng %s, zlib %s\n", b / 100, b % 100, CGLM_VERSION_MAJOR,
            CGLM_VERSION_MINOR, CGLM_VERSION_PATCH, png_get_libpng_ver(NULL), zlibVersion());
}
