/* renderer/cli/commands.h - the CLI's subcommands and exit codes.
 *
 * main.c only dispatches; each subcommand lives in its own cmd_*.c and
 * parses its own options. Exit codes are a contract (docs/cli.md, --help). The
 * library below the CLI returns mmd_status (core/status.h); mmd_exit_code
 * maps a status to its exit code through the class its row in MMD_STATUS_LIST
 * gives it (exit.c).
 */
#ifndef MMD_RENDERER_COMMANDS_H
#define MMD_RENDERER_COMMANDS_H

#include <stdbool.h>
#include <stddef.h>

#include "core/status.h"

enum {
    MMD_EXIT_OK = 0,
    MMD_EXIT_USAGE = 1,      /* bad command line */
    MMD_EXIT_INPUT = 2,      /* unreadable or invalid input file (model, motion, scene, audio) */
    MMD_EXIT_GL = 3,         /* no GL context / GL failure */
    MMD_EXIT_ENCODER = 4,    /* video/audio encoder failure */
    MMD_EXIT_OUTPUT = 5,     /* output cannot be written */
    MMD_EXIT_DIFF_MISSING = 6, /* diff only: an image on one side only (missing, or new) */
    MMD_EXIT_INTERRUPTED = 130, /* SIGINT/SIGTERM: outputs finalised */
};

#define MMD_VERSION "0.1.0"

/* The exit code for a status: MMD_OK 0, MMD_E_USAGE 1, input statuses
 * (I/O, truncated, bad ...) 2, MMD_E_GL 3, MMD_E_ENCODER 4, MMD_E_OUTPUT 5,
 * MMD_E_INTERRUPTED 130. */
int mmd_exit_code(mmd_status s);

/* The CLI's side of mmd_warn_fn (renderer/base/msg.h): a warning from a
 * module below it as "mmdrender: warning: SENTENCE" on stderr (ctx unused). */
void mmd_cli_warn(void *ctx, const char *sentence);

/* argv[0] is the subcommand name ("info", ...); return an exit code. */
int mmd_cmd_info(int argc, char **argv);
int mmd_cmd_pose(int argc, char **argv);
int mmd_cmd_diff(int argc, char **argv);
int mmd_cmd_concat(int argc, char **argv);
/* effect FILE.fx [--json]: what the effect parser reads (cmd_effect.c). */
int mmd_cmd_effect(int argc, char **argv);
/* argv[0] is the program name; argv[1..] the render command line. */
int mmd_cmd_render(int argc, char **argv);
/* The render command line over a scene value already in memory (a project's,
 * issue 26: no temporary export), which stays the caller's and takes the
 * command line's values; argv's SCENE argument is then its file (messages,
 * the output-is-input check). scene NULL: argv's SCENE is read, as
 * mmd_cmd_render does. An exit code. */
struct mmd_scene;
int mmd_cmd_render_scene(int argc, char **argv, struct mmd_scene *scene);
/* Projects (cmd_project.c): export PROJECT DIR; info on a project (argv as for
 * info); a render whose scene argument (argv[project_index], found by
 * mmd_project_arg: 0 when none) is a .pmm project. */
int mmd_cmd_export(int argc, char **argv);
int mmd_cmd_info_project(int argc, char **argv);
int mmd_project_arg(int argc, char **argv);
/* A project argument: a name ending in .pmm, or a file with PMM's signature. */
bool mmd_is_project(const char *path);
int mmd_cmd_render_project(int argc, char **argv, int project_index);
/* Loads a project, says its warnings and calls run with its scene value
 * (mmd_project_scene: the scene its export writes, motions in memory; freed
 * after run): rendering or encoding a project is rendering or encoding that
 * value, nothing is written to disk. run's exit code, or 2 (MMD_EXIT_INPUT)
 * for a project that cannot be loaded. */
struct mmd_project_search;
int mmd_project_run(const char *project, const struct mmd_project_search *search,
                    int (*run)(struct mmd_scene *scene, void *ctx), void *ctx);
/* `encode FRAMES --scene SCENE|PROJECT -o VIDEO` (cmd_encode.c). */
int mmd_cmd_encode(int argc, char **argv);
/* `pose --scene SCENE [--physics] [--allow-outside-assets]` (cmd_pose_scene.c): the
 * JSON on stdout, an exit code. */
int mmd_pose_scene(const char *scene_path, const double *frames, size_t frame_count, bool physics,
                   bool allow_outside);

#endif
