/* renderer/scene/project.h - a MikuMikuDance project (.pmm) on disk: its files
 * found, its effects listed, and the project written out as a scene.
 *
 *     mmd_project *p;
 *     mmd_project_search s = {{"assets"}, 1, false};   // --asset-root, --allow-outside-assets
 *     mmd_error err;
 *     if (mmd_project_load("a/song.pmm", &s, &p, &err) != MMD_OK) -> err.msg
 *     mmd_project_export(p, "out/", &err);   // scene.ini + VMDs: MMD_OK or a status
 *     mmd_project_free(p);
 *
 * Paths as MMD writes them (absolute Windows paths, "UserFile\..." relative to
 * MMD's folder, Shift-JIS, backslashes, other letter case) are looked up:
 * 1. as written, relative to the project's folder (Windows drive paths never match);
 * 2. the part after "UserFile\" under each asset root (--asset-root, in order),
 *    then under the project's folder;
 * 3. the file name alone in the project's folder.
 * Each step goes through mmd_texpath_resolve, so every component also matches
 * case-insensitively and as its CP932 bytes, and follows the texture rule:
 * unless search->allow_outside (--allow-outside-assets), a step's file must
 * stay inside that step's folder (no absolute path, no "..", its realpath
 * inside the folder's), so no path in a project reaches a file outside the
 * project's folder and the asset roots. A file not found, or found only
 * outside (refused), or whose real path a scene line cannot hold (a control
 * character: mmd_scene_can_hold; the render reads the project as a scene) is
 * one warning (mmd_project.warnings, printed once by the caller); the model or
 * accessory is left out of the scene (a missing model's motion with it).
 *
 * The effect file `<project name>.emm` beside the project (MME) is read: its
 * [Effect...] assignments are listed; those of [Effect] itself naming a
 * whole model (PmdN, the project's Nth model) or accessory (AcsN) are found
 * like the project's other files and become that model's or accessory's
 * `effect` in mmd_project_scene (docs/projects.md ".emm"); those naming one
 * material (PmdN[k], AcsN[k], a file or "none") its `material_effect`.
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
    char *found;    /* the file found (project.h, top), NULL when missing, refused or not mapped */
    bool main;      /* from [Effect] itself (not an offscreen target's [Effect@NAME]) */
    bool whole;     /* main and a whole model's or accessory's (PmdN, AcsN): looked for (found or warned) */
    int64_t material; /* PmdN[k] / AcsN[k] of [Effect]: k (looked for as whole ones are); -1 otherwise */
    bool none;      /* the value is "none" (kept for a material: its built-in look) */
} mmd_project_effect;


/* Where a project's files are looked up (project.h, top). */
typedef struct mmd_project_search {
    const char *roots[MMD_PROJECT_MAX_ROOTS]; /* --asset-root, in order */
    int root_count;
    bool allow_outside;                       /* --allow-outside-assets */
} mmd_project_search;

/* Why a file of the project is NULL: none named, not found, or refused. */
typedef enum mmd_project_file_state {
    MMD_PROJECT_FILE_NONE, MMD_PROJECT_FILE_FOUND, MMD_PROJECT_FILE_MISSING, MMD_PROJECT_FILE_REFUSED
} mmd_project_file_state;

typedef struct mmd_project {
    char *path, *dir;
    mmd_pmm *pmm;
    char **model_files;      /* [model_count]: found file, NULL when missing or refused */
    char **accessory_files;  /* [accessory_count] */
    char *audio_file;        /* NULL when none, missing or refused */
    char *image_file;        /* background image, NULL when none, missing or refused */
    char *video_file;        /* background video */
    mmd_project_file_state *model_states, *accessory_states; /* [model_count], [accessory_count] */
    mmd_project_file_state audio_state, image_state, video_state;
    char *emm_file;          /* NULL when there is none */
    mmd_project_effect *effects;
    size_t effect_count;
    char **warnings;         /* one sentence per missing file or oddity */
    size_t warning_count;
} mmd_project;

/* Returns MMD_OK, or the file's or the reader's status with "path: offset
 * 0x..., section: what" in err->msg (err may be NULL; the CLI exits 2). */
mmd_status mmd_project_load(const char *path, const mmd_project_search *search, mmd_project **out, mmd_error *err);
void mmd_project_free(mmd_project *p); /* NULL is a no-op */
/* The found effect file of [Effect]'s `<prefix><n>` ("Pmd", 1 = the first
 * model), NULL when none. */
const char *mmd_project_effect_of(const mmd_project *p, const char *prefix, uint32_t n);
/* Whether entry e is [Effect]'s `<prefix><n>[k]` (a material's, k in e->material). */
bool mmd_project_effect_is_material(const mmd_project_effect *e, const char *prefix, uint32_t n);

/* Frame range of the project in 30 fps frames: begin/end when enabled, else
 * 0 .. the last key of any track. */
void mmd_project_range(const mmd_project *p, int64_t *first, int64_t *last);

/* The project as the scene value a scene.ini gives (renderer/scene/scene.h):
 * [output] from the project's size, rate, range and appearance; the camera's
 * follow keys; one [model:NAME] per found model in draw order (NAME the MMD
 * name when a scene can hold it and it is unique, else mN) with its look,
 * calculation order and outside-parent keys; one [accessory:aN] per found
 * accessory (its key, or its keys as a track, its parents over time); the
 * background image and video, gravity when not MMD's default, the song.
 * Motions are in memory: each model's in motion_data[0] named
 * mmd_project_motion_name (model_N.vmd, N its project position), the camera's
 * (camera, light and self-shadow keys) in camera_motion_data named camera.vmd.
 * Values are brought into the keys' ranges (docs/projects.md). Returns MMD_OK
 * with *out (mmd_scene_free), or the status with err (MMD_E_NOMEM,
 * MMD_E_LIMIT, a motion's). */
struct mmd_scene;
mmd_status mmd_project_scene(const mmd_project *p, struct mmd_scene **out, mmd_error *err);
/* What export names the camera's motion, and (mmd_project_motion_name)
 * "model_N.vmd" for the project's model (0-based). */
#define MMD_PROJECT_CAMERA_MOTION "camera.vmd"
void mmd_project_motion_name(uint32_t model, char *out, size_t cap);

/* mmd_project_scene written into dir: dir/scene.ini through the key table's
 * writer (mmd_scene_write), dir/model_N.vmd per found model (N = model position),
 * dir/camera.vmd (camera, light and self-shadow keys). dir is created when
 * missing. The scene names files by their path relative to dir when that is
 * shorter than the absolute one. Before anything is written, every name it
 * writes is checked: MMD_E_USAGE when one is a file of the project (the
 * project, its .emm, a model, accessory, song, image or video, by inode);
 * MMD_E_OUTPUT when one is a symbolic link (never followed nor replaced).
 * Each file is written to a new temporary in dir (O_EXCL|O_NOFOLLOW) and
 * renamed (renderer/base/fs.h). A name or value the scene cannot hold
 * (mmd_scene_can_hold, a line's length) is MMD_E_OUTPUT, as is a failed
 * write. Returns MMD_OK, or the status with err (may be NULL). */
mmd_status mmd_project_export(const mmd_project *p, const char *dir, mmd_error *err);

/* Is path a project (by content: the "Polygon Movie maker" signature)? */
bool mmd_project_is_pmm(const char *path);

#endif
