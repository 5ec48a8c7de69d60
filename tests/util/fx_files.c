/* tests/util/fx_files.c - see fx_files.h. */
#include "tests/util/fx_files.h"

#include <dirent.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

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
