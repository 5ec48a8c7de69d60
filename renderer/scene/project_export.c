/* renderer/scene/project_export.c - a project written as scene.ini + VMDs
 * (mmd_project_export, see project.h): its scene value (mmd_project_scene)
 * through the key table's writer (mmd_scene_write), its motions as VMDs.
 * `mmdrender project.pmm` renders what this writes (into a private temporary
 * folder), so the export of a project and the project render the same bytes.
 */
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/motion.h"
#include "core/vmd_write.h"
#include "renderer/base/fs.h"
#include "renderer/base/msg.h"
#include "renderer/scene/project.h"
#include "renderer/scene/scene.h"

/* The files the export writes, named once (the motions' names are the scene value's). */
static const char k_scene_ini[] = "scene.ini";

/* Exclusive temporary + rename (fs.h): a planted file or symlink is never
 * opened or followed, a symlink at path is never replaced. */
static mmd_status write_file(const char *path, const void *data, size_t size, mmd_error *err)
{
    char *tmp = NULL;
    int fd = mmd_temp_create(path, "export", &tmp); /* exclusive: a planted symlink is never followed */
    FILE *f = fd >= 0 ? fdopen(fd, "wb") : NULL;
    if (!f && fd >= 0)
        close(fd);
    bool ok = f && fwrite(data, 1, size, f) == size;
    ok = (f && fclose(f) == 0) && ok;
    if (!ok || mmd_temp_commit(tmp, path) != 0) {
        int e = errno;
        if (tmp)
            unlink(tmp);
        free(tmp);
        return mmd_fail(err, MMD_E_OUTPUT, "cannot write %s (%s)", path,
                        e == ELOOP ? "the name is a symbolic link (not replaced)" : strerror(e));
    }
    free(tmp);
    return MMD_OK;
}

static mmd_status write_motion(const mmd_motion *mo, const char *path, mmd_error *err)
{
    uint8_t *buf = NULL;
    size_t size = 0;
    if (!mo || mmd_vmd_write(mo, &buf, &size, err) != MMD_OK)
        return mmd_fail(err, MMD_E_OUTPUT, "%s: cannot build the motion", path);
    mmd_status st = write_file(path, buf, size, err);
    free(buf);
    return st;
}

/* Name of the k-th file the export writes into dir: k = 0 scene.ini, 1 the
 * camera VMD, then one VMD per found model (*model its position, else -1).
 * False past the last. */
static bool output_name(const mmd_project *p, const char *dir, uint32_t k, char *out, size_t cap, int64_t *model)
{
    char name[32];
    *model = -1;
    if (k < 2)
        snprintf(name, sizeof name, "%s", k ? MMD_PROJECT_CAMERA_MOTION : k_scene_ini);
    for (uint32_t i = 0, seen = 2; k >= 2 && *model < 0 && i < p->pmm->model_count; i++)
        if (p->model_files[i] && seen++ == k) {
            mmd_project_motion_name(i, name, sizeof name);
            *model = i;
        }
    if (k >= 2 && *model < 0)
        return false;
    snprintf(out, cap, "%s/%s", dir, name);
    return true;
}

/* Is out one of the project's files (the project, its .emm, what a render of
 * the export reads), by inode? *which names it. */
static bool is_input(const mmd_project *p, const char *out, const char **which)
{
    const mmd_pmm *m = p->pmm;
    const char *media[5] = {p->path, p->emm_file, p->audio_file, p->image_file, p->video_file};
    *which = NULL;
    for (int i = 0; i < 5 && !*which; i++)
        if (media[i] && mmd_same_file(out, media[i]))
            *which = media[i];
    for (uint32_t i = 0; i < m->model_count && !*which; i++)
        if (p->model_files[i] && mmd_same_file(out, p->model_files[i]))
            *which = p->model_files[i];
    for (uint32_t i = 0; i < m->accessory_count && !*which; i++)
        if (p->accessory_files[i] && mmd_same_file(out, p->accessory_files[i]))
            *which = p->accessory_files[i];
    return *which != NULL;
}

/* Before anything is written: no output is an input (render's rule, exit 1),
 * none is a symbolic link (not followed, not replaced; exit 5). */
static mmd_status check_outputs(const mmd_project *p, const char *dir, mmd_error *err)
{
    char path[PATH_MAX], a[200], b[200]; /* both in one sentence of mmd_error's 512 bytes */
    const char *in = NULL;
    struct stat st;
    int64_t model;
    for (uint32_t k = 0; output_name(p, dir, k, path, sizeof path, &model); k++) {
        if (is_input(p, path, &in)) {
            return mmd_fail(err, MMD_E_USAGE,
                            "the output '%s' is also an input of the project ('%s'): export into another folder",
                            mmd_printable(path, a, sizeof a), mmd_printable(in, b, sizeof b));
        }
        if (lstat(path, &st) == 0 && S_ISLNK(st.st_mode)) {
            return mmd_fail(err, MMD_E_OUTPUT, "cannot write %s (the name is a symbolic link (not replaced))",
                            mmd_printable(path, a, sizeof a));
        }
    }
    return MMD_OK;
}

/* The VMDs of the scene's motions in memory, then scene.ini (built first: a
 * project it cannot hold writes nothing). */
static mmd_status write_all(const mmd_scene *s, const char *dir, const char *text, size_t len, mmd_error *err)
{
    char path[PATH_MAX];
    for (int i = -1; i < s->model_count; i++) {
        const mmd_motion *mo = i < 0 ? s->camera_motion_data : s->models[i].motion_data[0];
        const char *name = i < 0 ? s->camera_motion : s->models[i].motions[0];
        snprintf(path, sizeof path, "%s/%s", dir, name);
        mmd_status st = write_motion(mo, path, err);
        if (st != MMD_OK)
            return st;
    }
    snprintf(path, sizeof path, "%s/%s", dir, k_scene_ini);
    return write_file(path, text, len, err);
}

mmd_status mmd_project_export(const mmd_project *p, const char *dir, mmd_error *err)
{
    mmd_error scratch;
    err = err ? err : &scratch;
    if (mkdir(dir, 0777) != 0 && errno != EEXIST)
        return mmd_fail(err, MMD_E_OUTPUT, "cannot create %s (%s)", dir, strerror(errno));
    char dir_real[PATH_MAX];
    if (!realpath(dir, dir_real))
        return mmd_fail(err, MMD_E_OUTPUT, "cannot open %s (%s)", dir, strerror(errno));
    mmd_status st = check_outputs(p, dir, err);
    if (st != MMD_OK)
        return st;
    mmd_scene *s = NULL;
    char comment[PATH_MAX + 64], *text = NULL;
    size_t len = 0;
    snprintf(comment, sizeof comment, "exported from %s by mmdrender export", p->path);
    st = mmd_project_scene(p, &s, err);
    if (st == MMD_OK)
        st = mmd_scene_write(s, dir, comment, &text, &len, err);
    if (st != MMD_OK && st != MMD_E_NOMEM)
        st = err->status = MMD_E_OUTPUT; /* a motion that cannot be built, a name a scene line cannot hold */
    if (st == MMD_OK)
        st = write_all(s, dir, text, len, err);
    free(text);
    mmd_scene_free(s);
    return st;
}
