/* tests/util/fx_files.c - see fx_files.h. */
#include "tests/util/fx_files.h"

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "core/file.h"
#include "renderer/image/texpath.h"

static int ends_with(const char *s, const char *suffix)
{
    size_t a = strlen(s), b = strlen(suffix);
    return a >= b && strcmp(s + a - b, suffix) == 0;
}

void fx_files_find(const char *dir, char (*out)[512], int *count, int cap)
{
    DIR *d = opendir(dir);
    if (!d)
        return;
    struct dirent *e;
    while ((e = readdir(d)) != NULL) {
        if (e->d_name[0] == '.')
            continue;
        char path[512];
        snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
        struct stat sb;
        if (stat(path, &sb) != 0)
            continue;
        if (S_ISDIR(sb.st_mode))
            fx_files_find(path, out, count, cap);
        else if ((ends_with(path, ".fx") || ends_with(path, ".fxsub")) && *count < cap)
            snprintf(out[(*count)++], 512, "%s", path);
    }
    closedir(d);
}

static mmd_status disk_read(void *user, const char *dir, const char *name, void **data, size_t *size,
                            mmd_error *err)
{
    (void)user;
    char path[1024];
    mmd_status st = mmd_texpath_resolve(dir, name, true, path, sizeof path, err);
    return st == MMD_OK ? mmd_file_read(path, data, size, err) : st;
}

mmd_fx *fx_file_load(const char *path)
{
    void *data = NULL;
    size_t size = 0;
    mmd_error err = {0};
    mmd_fx *fx = NULL;
    mmd_fx_loader ld = {disk_read, NULL};
    if (mmd_file_read(path, &data, &size, &err) != MMD_OK || mmd_fx_load(data, size, path, &ld, &fx, &err) != MMD_OK)
        printf("#   %s: %s\n", path, err.msg);
    free(data);
    return fx;
}
