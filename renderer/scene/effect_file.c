/* renderer/scene/effect_file.c - an effect file and its includes (effect_file.h). */
#include "renderer/scene/effect_file.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/file.h"
#include "renderer/image/texpath.h"

/* The resolver speaks of textures ("texture 'X' not found: no 'sub' in
 * '.'"); the parser already names the include ('#include "X": '), so only
 * the reason stays: 'not found: no 'sub' in '.' (also tried ...)'. */
static void keep_reason(mmd_error *err, const char *name)
{
    char lead[sizeof err->msg];
    int n = snprintf(lead, sizeof lead, "texture '%s'", name);
    if (!err || n <= 0 || (size_t)n >= sizeof lead || strncmp(err->msg, lead, (size_t)n))
        return;
    const char *rest = err->msg + n;
    rest += strspn(rest, ": ");
    memmove(err->msg, rest, strlen(rest) + 1);
}

typedef struct include_ctx {
    const char *root; /* NULL: --allow-outside-assets */
} include_ctx;

static mmd_status read_include(void *user, const char *dir, const char *name, void **data, size_t *size,
                               mmd_error *err)
{
    const include_ctx *c = user;
    char path[4096];
    mmd_status st = c->root ? mmd_texpath_resolve_in(dir, c->root, name, false, path, sizeof path, err)
                            : mmd_texpath_resolve(dir, name, true, path, sizeof path, err);
    if (st != MMD_OK) {
        keep_reason(err, name);
        return st;
    }
    int fd = mmd_file_open_regular(path, err);
    if (fd < 0)
        return err ? err->status : MMD_E_IO;
    if (c->root && !mmd_texpath_fd_inside(fd, c->root)) { /* replaced since it was resolved */
        close(fd);
        return mmd_fail(err, MMD_E_UNSUPPORTED, "is outside %s (--allow-outside-assets)", c->root);
    }
    return mmd_file_read_fd(fd, MMD_FX_MAX_SOURCE_BYTES, data, size, err);
}

mmd_status mmd_effect_file_load(const char *path, const mmd_effect_reads *reads, mmd_fx **out, mmd_error *err)
{
    void *data = NULL;
    size_t size = 0;
    char root[4096];
    include_ctx c = {reads->allow_outside ? NULL : root};
    mmd_fx_loader ld = {read_include, &c};
    mmd_status st = mmd_file_read_max(path, MMD_FX_MAX_SOURCE_BYTES, &data, &size, err);
    if (st == MMD_OK && c.root && mmd_texpath_effect_root(path, reads->namer_dir, root, sizeof root) != 0)
        st = mmd_fail(err, MMD_E_IO, "%s: cannot resolve its folder", path);
    if (st == MMD_OK)
        st = mmd_fx_load(data, size, path, &ld, out, err);
    free(data);
    return st;
}
