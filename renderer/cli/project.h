/* renderer/cli/project.h - a MikuMikuDance project (.pmm) on disk: its files
 * found, its effects listed, and the project written out as a scene.
 *
 *     mmd_project *p;
 *     if (mmd_project_load("a/song.pmm", roots, nroots, &p, msg, sizeof msg)) -> error
 *     mmd_project_export(p, "out/", msg, sizeof msg);   // scene.ini + VMDs
 *     mmd_project_free(p);
 *
 * Paths as MMD writes them (absolute Windows paths, "UserFile\..." relative to
 * MMD's folder, Shift-JIS, backslashes, other letter case) are looked up:
 * 1. as written, relative to the project's folder (Windows drive paths never match);
 * 2. the part after "UserFile\" under each asset root (--asset-root, in order),
 *    then under the project's folder;
 * 3. the file name alone in the project's folder.
 * Each step goes through mmd_texpath_resolve, so every component also matches
 * case-insensitively and as its CP932 bytes. A file not found is a warning
 * (mmd_project.warnings, printed once by the caller); the model or accessory
 * is left out of the scene (a missing model's motion with it).
 *
 * The effect file `<project name>.emm` beside the project (MME) is read: its
 * [Effect...] assignments are listed; effects are not applied.
 */
#ifndef MMD_RENDERER_PROJECT_H
#define MMD_RENDERER_PROJECT_H

#include <stdbool.h>
#include <stddef.h>

#include "core/pmm.h"

#define MMD_PROJECT_MAX_ROOTS 16

typedef struct mmd_project_effect {
    char *object;   /* "Pmd1", "Acs2", "Controller", ... */
    char *file;     /* as written */
} mmd_project_effect;

typedef struct mmd_project {
    char *path, *dir;
    mmd_pmm *pmm;
    char **model_files;      /* [model_count]: found file, NULL when missing */
    char **accessory_files;  /* [accessory_count] */
    char *audio_file;        /* NULL when none or missing */
    char *image_file;        /* background image, NULL when none or missing */
    char *video_file;        /* background video */
    char *emm_file;          /* NULL when there is none */
    mmd_project_effect *effects;
    size_t effect_count;
    char **warnings;         /* one sentence per missing file or oddity */
    size_t warning_count;
} mmd_project;

/* Returns 0, or -1 with "path: offset 0x..., section: what" in msg (exit 2). */
int mmd_project_load(const char *path, const char *const *roots, int root_count, mmd_project **out,
                     char *msg, size_t msg_size);
void mmd_project_free(mmd_project *p); /* NULL is a no-op */

/* Frame range of the project in 30 fps frames: begin/end when enabled, else
 * 0 .. the last key of any track. */
void mmd_project_range(const mmd_project *p, int64_t *first, int64_t *last);

/* Writes dir/scene.ini, dir/model_N.vmd per found model (N = model position),
 * dir/camera.vmd (camera, light and self-shadow keys). dir is created when
 * missing. Returns 0, or -1 with msg. The scene names files by their path
 * relative to dir when that is shorter than the absolute one. */
int mmd_project_export(const mmd_project *p, const char *dir, char *msg, size_t msg_size);

/* Is path a project (by content: the "Polygon Movie maker" signature)? */
bool mmd_project_is_pmm(const char *path);

#endif
