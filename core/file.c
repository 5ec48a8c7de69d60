/* core/file.c - whole-file reads (see file.h). */
#include "core/file.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

mmd_status mmd_file_read(const char *path, void **data, size_t *size, mmd_error *err)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return mmd_error_set(err, MMD_E_IO, NULL, -1, -1, "cannot open: %s", strerror(errno));
    struct stat st;
    if (fstat(fileno(f), &st) != 0 || !S_ISREG(st.st_mode)) {
        fclose(f);
        return mmd_error_set(err, MMD_E_IO, NULL, -1, -1, "not a regular file");
    }
    if ((unsigned long long)st.st_size > MMD_MAX_FILE_BYTES) {
        fclose(f);
        return mmd_error_set(err, MMD_E_LIMIT, NULL, -1, -1, "file is %lld bytes, limit %zu",
                             (long long)st.st_size, MMD_MAX_FILE_BYTES);
    }
    size_t n = (size_t)st.st_size;
    unsigned char *buf = malloc(n ? n : 1);
    if (!buf) {
        fclose(f);
        return mmd_error_set(err, MMD_E_NOMEM, NULL, -1, -1, "cannot allocate %zu bytes", n);
    }
    size_t got = n ? fread(buf, 1, n, f) : 0;
    int bad = ferror(f);
    fclose(f);
    if (got != n || bad) {
        free(buf);
        return mmd_error_set(err, MMD_E_IO, NULL, -1, -1, "read error");
    }
    *data = buf;
    *size = n;
    return MMD_OK;
}
