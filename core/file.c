/* core/file.c - regular-file opens and whole-file reads (see file.h). */
#include "core/file.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static const char *kind_of(mode_t m)
{
    if (S_ISDIR(m))
        return "a directory";
    if (S_ISFIFO(m))
        return "a FIFO";
    if (S_ISSOCK(m))
        return "a socket";
    if (S_ISCHR(m))
        return "a character device";
    if (S_ISBLK(m))
        return "a block device";
    return "not a plain file";
}

int mmd_file_open_regular(const char *path, mmd_error *err)
{
    if (!path || !*path) {
        mmd_error_set(err, MMD_E_IO, NULL, -1, -1, "cannot open: empty path");
        return -1;
    }
    /* O_NONBLOCK: open() of a FIFO with no writer returns at once instead of waiting. */
    int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY);
    if (fd < 0) {
        mmd_error_set(err, MMD_E_IO, NULL, -1, -1, "cannot open: %s", strerror(errno));
        return -1;
    }
    struct stat st;
    if (fstat(fd, &st) != 0) {
        mmd_error_set(err, MMD_E_IO, NULL, -1, -1, "cannot stat: %s", strerror(errno));
        close(fd);
        return -1;
    }
    if (!S_ISREG(st.st_mode)) {
        mmd_error_set(err, MMD_E_IO, NULL, -1, -1, "%s, not a regular file", kind_of(st.st_mode));
        close(fd);
        return -1;
    }
    int fl = fcntl(fd, F_GETFL);
    if (fl < 0 || fcntl(fd, F_SETFL, fl & ~O_NONBLOCK) != 0) {
        mmd_error_set(err, MMD_E_IO, NULL, -1, -1, "cannot open: %s", strerror(errno));
        close(fd);
        return -1;
    }
    return fd;
}

FILE *mmd_file_fopen_regular(const char *path, mmd_error *err)
{
    int fd = mmd_file_open_regular(path, err);
    if (fd < 0)
        return NULL;
    FILE *f = fdopen(fd, "rb");
    if (!f) {
        mmd_error_set(err, MMD_E_IO, NULL, -1, -1, "cannot open: %s", strerror(errno));
        close(fd);
    }
    return f;
}

mmd_status mmd_file_check_regular(const char *path, mmd_error *err)
{
    int fd = mmd_file_open_regular(path, err);
    if (fd < 0)
        return err ? err->status : MMD_E_IO;
    close(fd);
    return MMD_OK;
}

mmd_status mmd_file_read(const char *path, void **data, size_t *size, mmd_error *err)
{
    return mmd_file_read_max(path, MMD_MAX_FILE_BYTES, data, size, err);
}

mmd_status mmd_file_read_max(const char *path, size_t max, void **data, size_t *size, mmd_error *err)
{
    mmd_error local;
    if (!err)
        err = &local;
    int fd = mmd_file_open_regular(path, err);
    return fd < 0 ? err->status : mmd_file_read_fd(fd, max, data, size, err);
}

mmd_status mmd_file_read_fd(int fd, size_t max, void **data, size_t *size, mmd_error *err)
{
    mmd_error local;
    if (!err)
        err = &local;
    FILE *f = fdopen(fd, "rb");
    if (!f) {
        close(fd);
        return mmd_error_set(err, MMD_E_IO, NULL, -1, -1, "cannot open: %s", strerror(errno));
    }
    struct stat st;
    if (fstat(fileno(f), &st) != 0) {
        fclose(f);
        return mmd_error_set(err, MMD_E_IO, NULL, -1, -1, "cannot stat: %s", strerror(errno));
    }
    if ((unsigned long long)st.st_size > max) {
        fclose(f);
        return mmd_error_set(err, MMD_E_LIMIT, NULL, -1, -1, "file is %lld bytes, limit %zu",
                             (long long)st.st_size, max);
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
