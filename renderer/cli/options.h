/* renderer/cli/options.h - the command line's options and commands, as one table.
 *
 * Each option is one row (FFmpeg's OptionDef idea): its long name, short
 * letter, value, help text and the commands that take it. From the table come
 * getopt's long options (mmd_cli_longopts), `--help` (mmd_cli_usage), the man
 * page (mmd_cli_man: roff, built by `make` as $(BUILD)/mmdrender.1) and which
 * options take a value (mmd_cli_takes_value: finding a .pmm among the render
 * arguments). A new option is a row here and a case in its command's switch.
 *
 *     struct option lo[MMD_CLI_MAX_OPTIONS + 1];
 *     mmd_cli_longopts(MMD_CLI_RENDER, lo);
 *     while ((c = getopt_long(argc, argv, ":o:qh", lo, NULL)) != -1) switch (c) { case MMD_OPT_FRAMES: ... }
 */
#ifndef MMD_RENDERER_OPTIONS_H
#define MMD_RENDERER_OPTIONS_H

#include <getopt.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "core/status.h"

/* Which command takes an option (a row's `commands` bits). */
enum { MMD_CLI_RENDER = 1, MMD_CLI_ENCODE = 2 };

/* getopt values of the long-only options (the others use their letter). */
enum {
    MMD_OPT_FRAMES = 256, MMD_OPT_SIZE, MMD_OPT_FPS, MMD_OPT_AA, MMD_OPT_BG, MMD_OPT_CODEC, MMD_OPT_CRF,
    MMD_OPT_THREADS, MMD_OPT_PROGRESS, MMD_OPT_GL, MMD_OPT_OUTSIDE, MMD_OPT_NOPHYS, MMD_OPT_CHUNK, MMD_OPT_SKIP,
    MMD_OPT_VERSION, MMD_OPT_NOAUDIO, MMD_OPT_STATS, MMD_OPT_PRESET, MMD_OPT_GLOW, MMD_OPT_SOFT_SHADOW,
    MMD_OPT_DIFFUSION, MMD_OPT_SSAA, MMD_OPT_FXAA, MMD_OPT_STRICT_FX, MMD_OPT_TEXMEM, MMD_OPT_SCENE, MMD_OPT_ASSET_ROOT,
    MMD_OPT_HELP_MAN, MMD_OPT_PRINT_PLAN, MMD_OPT_AUDIO, MMD_OPT_AUDIO_OFFSET, MMD_OPT_MAXMEM,
    MMD_OPT_TEXFILTER,
};

#define MMD_CLI_MAX_OPTIONS 40

/* Fills out (MMD_CLI_MAX_OPTIONS + 1 entries) with the getopt_long options
 * of a command (MMD_CLI_RENDER or MMD_CLI_ENCODE), ending with a zero entry. */
void mmd_cli_longopts(int command, struct option *out);
/* `--help` of a command. */
void mmd_cli_usage(int command, FILE *out);
/* A bad command line: "mmdrender[ encode]: " + fmt with arg (escaped) + the
 * --help hint, on stderr; returns MMD_E_USAGE (said: the caller prints nothing
 * more; its top turns it into exit 1 through mmd_exit_code). */
mmd_status mmd_cli_usage_error(int command, const char *fmt, const char *arg) __attribute__((format(printf, 2, 0)));
/* The man page, roff (man(7)): every command and option, the exit codes. */
void mmd_cli_man(FILE *out);
/* True when arg ("--frames", "-o") is an option of some command that takes
 * its value in the next argument. */
bool mmd_cli_takes_value(const char *arg);
/* An integer option's value (key: MMD_OPT_CRF, ...) within the range its row
 * gives; MMD_E_USAGE with "--crf: expected 0..63, got 'x'" in err. */
mmd_status mmd_cli_int(int key, const char *value, int *out, mmd_error *err);
/* `--version`: ours, then the libraries the output bytes depend on (Mesa as
 * the GL context reports it, libav*, Bullet, cglm, libpng, zlib). */
void mmd_cli_version(FILE *out);

#endif
