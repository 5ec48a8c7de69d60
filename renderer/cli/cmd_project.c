/* renderer/cli/cmd_project.c - MikuMikuDance projects on the command line:
 *
 *   mmdrender PROJECT.pmm -o OUT [render options] [--asset-root DIR]...
 *   mmdrender info PROJECT.pmm [--json] [--asset-root DIR]...
 *   mmdrender export PROJECT.pmm DIR [--asset-root DIR]...
 *
 * A render takes the project's scene value (mmd_project_scene: the very scene
 * its export writes, the motions in memory) and renders it with the same
 * options, which override the project; nothing is written to disk. So
 * rendering an export gives the same bytes as rendering the project.
 * JSON keys of `info` are a contract (docs/projects.md).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/sniff.h"
#include "renderer/base/msg.h"
#include "renderer/cli/commands.h"
#include "renderer/cli/options.h"
#include "renderer/scene/project.h"
#include "renderer/scene/scene.h"

/* Takes --asset-root DIR / --asset-root=DIR out of argv (compacting it) into
 * r; --allow-outside-assets is seen and left in place (render reads it too).
 * MMD_E_USAGE after saying why. */
static mmd_status take_roots(int *argc, char **argv, mmd_project_search *r)
{
    int w = 0;
    for (int i = 0; i < *argc; i++) {
        const char *v = NULL;
        if (!strcmp(argv[i], "--asset-root")) {
            if (i + 1 >= *argc) {
                mmd_msg_print(stderr, "mmdrender: --asset-root needs a folder\n");
                return MMD_E_USAGE;
            }
            v = argv[++i];
        } else if (!strncmp(argv[i], "--asset-root=", 13)) {
            v = argv[i] + 13;
        }
        r->allow_outside = r->allow_outside || !strcmp(argv[i], "--allow-outside-assets");
        if (!v) {
            argv[w++] = argv[i];
            continue;
        }
        if (r->root_count >= MMD_PROJECT_MAX_ROOTS) {
            mmd_msg_print(stderr, "mmdrender: at most %d --asset-root folders\n", MMD_PROJECT_MAX_ROOTS);
            return MMD_E_USAGE;
        }
        r->roots[r->root_count++] = v;
    }
    *argc = w;
    argv[w] = NULL;
    return MMD_OK;
}

static void print_warnings(const mmd_project *p)
{
    for (size_t i = 0; i < p->warning_count; i++)
        mmd_msg_print(stderr, "mmdrender: warning: %s: %s\n", p->path, p->warnings[i]);
}

/* One warning per effect file the scene does not carry: a model's or
 * accessory's found effect is the scene's (the stage warns for it), a missing
 * one was named by the project's own warnings. */
static void warn_effects(const mmd_project *p)
{
    for (size_t i = 0; i < p->effect_count; i++) {
        const mmd_project_effect *e = &p->effects[i];
        bool seen = e->whole || e->material >= 0;
        for (size_t j = 0; j < i && !seen; j++)
            seen = !p->effects[j].whole && p->effects[j].material < 0 && !strcmp(p->effects[j].file, e->file);
        if (!seen)
            mmd_msg_print(stderr, "mmdrender: warning: %s: effect %s (%s) is not applied: %s\n", p->emm_file, e->file,
                          e->object,
                          !e->main                 ? "an offscreen target's assignment (issue 27, part 2)"
                          : strchr(e->object, '[') ? "not one material index (MME's PmdN[k])"
                                                   : "Obj (every object's default) is not mapped yet");
    }
}

/* One line naming what the project sets that a render does not apply yet
 * (docs/projects.md), only what differs from MMD's defaults. */
static void warn_unapplied(const mmd_project *p)
{
    const mmd_pmm *m = p->pmm;
    char line[1024] = "";
    size_t n = 0;
#define NOTE(...) \
    do { \
        int k_ = snprintf(line + n, sizeof line - n, "%s", n ? ", " : ""); \
        n += k_ > 0 && (size_t)k_ < sizeof line - n ? (size_t)k_ : 0; \
        k_ = snprintf(line + n, sizeof line - n, __VA_ARGS__); \
        n += k_ > 0 && (size_t)k_ < sizeof line - n ? (size_t)k_ : 0; \
    } while (0)
    for (uint32_t i = 0; i < m->gravity_key_count; i++)
        if (m->gravity_keys[i].noise) { /* MMD's noise is random: no render could repeat it */
            NOTE("gravity noise");
            break;
        }
#undef NOTE
    if (n)
        mmd_msg_print(stderr, "mmdrender: warning: %s: not applied yet: %s\n", p->path, line);
}

/* Index of the project among the render arguments (not an option's value), or 0. */
int mmd_project_arg(int argc, char **argv)
{
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (a[0] == '-') {
            i += mmd_cli_takes_value(a); /* its value is not the project */
            continue;
        }
        if (mmd_is_project(a))
            return i;
    }
    return 0;
}

bool mmd_is_project(const char *path)
{
    const mmd_sniff_row *f = mmd_sniff_path(path);
    return (f && f->id == MMD_FILE_PMM) || mmd_project_is_pmm(path);
}

int mmd_project_run(const char *project, const mmd_project_search *search,
                    int (*run)(mmd_scene *scene, void *ctx), void *ctx)
{
    mmd_error err;
    mmd_project *p = NULL;
    if (mmd_project_load(project, search, &p, &err) != MMD_OK) {
        mmd_msg_print(stderr, "mmdrender: %s\n", err.msg);
        return MMD_EXIT_INPUT;
    }
    print_warnings(p);
    warn_effects(p);
    warn_unapplied(p);
    uint32_t found = 0;
    for (uint32_t i = 0; i < p->pmm->model_count; i++)
        found += p->model_files[i] != NULL;
    if (!found) {
        mmd_msg_print(stderr,
                      "mmdrender: %s: none of the project's %u models was found (see the warnings; --asset-root "
                      "DIR looks under DIR for paths with UserFile\\, --allow-outside-assets lets paths leave the "
                      "project's folder)\n", project, p->pmm->model_count);
        mmd_project_free(p);
        return MMD_EXIT_INPUT;
    }
    mmd_scene *scene = NULL;
    int rc;
    if (mmd_project_scene(p, &scene, &err) != MMD_OK) {
        mmd_msg_print(stderr, "mmdrender: %s: %s\n", project, err.msg);
        rc = MMD_EXIT_INPUT;
    } else {
        rc = run(scene, ctx);
    }
    mmd_scene_free(scene);
    mmd_project_free(p);
    return rc;
}

typedef struct render_argv {
    int argc;
    char **argv;
} render_argv;

/* The render command line over the project's scene value (argv keeps the
 * project's name: messages and the output-is-an-input check use it). */
static int render_scene(mmd_scene *scene, void *ctx)
{
    render_argv *r = ctx;
    return mmd_cmd_render_scene(r->argc, r->argv, scene);
}

int mmd_cmd_render_project(int argc, char **argv, int project_index)
{
    mmd_project_search r = {{0}, 0, false};
    char **args = malloc(((size_t)argc + 1) * sizeof *args);
    if (!args)
        return MMD_EXIT_INPUT;
    memcpy(args, argv, (size_t)argc * sizeof *args);
    args[argc] = NULL;
    int n = argc;
    mmd_status st = take_roots(&n, args, &r);
    if (st != MMD_OK) {
        free(args);
        return mmd_exit_code(st);
    }
    render_argv ra = {n, args};
    int rc = mmd_project_run(argv[project_index], &r, render_scene, &ra);
    free(args);
    return rc;
}

int mmd_cmd_export(int argc, char **argv)
{
    mmd_project_search r = {{0}, 0, false};
    mmd_status st = take_roots(&argc, argv, &r);
    if (st != MMD_OK)
        return mmd_exit_code(st);
    int w = 1; /* --allow-outside-assets is an option, not an operand */
    for (int i = 1; i < argc; i++)
        if (strcmp(argv[i], "--allow-outside-assets"))
            argv[w++] = argv[i];
    argc = w;
    if (argc != 3 || argv[1][0] == '-' || argv[2][0] == '-') {
        fprintf(argc == 2 && !strcmp(argv[1], "--help") ? stdout : stderr,
                "usage: mmdrender export PROJECT.pmm DIR [--asset-root DIR]... [--allow-outside-assets]\n"
                "  Write DIR/scene.ini, DIR/model_N.vmd (one per model found) and DIR/camera.vmd\n"
                "  (camera, light and self-shadow keys): rendering DIR/scene.ini gives the same\n"
                "  bytes as rendering the project. Files the project names must stay in its\n"
                "  folder or an asset root unless --allow-outside-assets. Nothing is written\n"
                "  when one of these names is a file of the project (exit 1) or a symbolic link.\n"
                "exit codes: 0 ok, 1 usage (or an output is an input), 2 bad project, 5 output cannot be written\n");
        return argc == 2 && !strcmp(argv[1], "--help") ? MMD_EXIT_OK : MMD_EXIT_USAGE;
    }
    mmd_error err;
    mmd_project *p = NULL;
    if (mmd_project_load(argv[1], &r, &p, &err) != MMD_OK) {
        mmd_msg_print(stderr, "mmdrender: %s\n", err.msg);
        return MMD_EXIT_INPUT;
    }
    print_warnings(p);
    warn_effects(p);
    int rc = MMD_EXIT_OK;
    st = mmd_project_export(p, argv[2], &err);
    if (st != MMD_OK) {
        mmd_msg_print(stderr, "mmdrender: export: %s\n", err.msg);
        rc = mmd_exit_code(st); /* MMD_E_USAGE: an output is an input (1); MMD_E_OUTPUT (5) */
    }
    mmd_project_free(p);
    return rc;
}
