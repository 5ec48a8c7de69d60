/* renderer/base/fs.c - file-system helpers (see fsutil.h). */
#include "renderer/base/fs.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

bool mmd_temp_path(const char *path, const char *tag, char *out, size_t cap)
{
    const char *slash = strrchr(path, '/');
    const char *name = slash ? slash + 1 : path;
    int dir_len = slash ? (int)(slash - path + 1) : 0;
    int k = snprintf(out, cap, "%.*s.%s.%s-%ld", dir_len, path, name, tag, (long)getpid());
    return *name && k > 0 && (size_t)k < cap;
}

char *mmd_temp_path_dup(const char *path, const char *tag)
{
    size_t n = strlen(path) + strlen(tag) + 32; /* ".", ".", "-", a pid, NUL */
    char *t = malloc(n);
    if (t)
        mmd_temp_path(path, tag, t, n);
    return t;
}
