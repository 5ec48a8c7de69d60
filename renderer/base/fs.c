/* renderer/base/fs.c - file-system helpers (see fs.h). */
#include "renderer/base/fs.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <unistd.h>

int mmd_temp_create(const char *path, const char *tag, char **tmp)
{
    static const char alphabet[] = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";
    const char *slash = path ? strrchr(path, '/') : NULL;
    const char *name = slash ? slash + 1 : path;
    if (!path || !*name || !tag) {
        errno = EINVAL;
        return -1;
    }
    int dir_len = slash ? (int)(slash - path + 1) : 0;
    size_t cap = strlen(path) + strlen(tag) + 48;
    char *t = malloc(cap);
    if (!t)
        return -1;
    for (int attempt = 0; attempt < 100; attempt++) {
        unsigned char rnd[6];
        if (getrandom(rnd, sizeof rnd, 0) != (ssize_t)sizeof rnd) {
            unsigned long x = (unsigned long)getpid() * 2654435761u + (unsigned long)attempt * 40503u;
            for (int i = 0; i < 6; i++)
                rnd[i] = (unsigned char)(x >> (i * 5));
        }
        char suffix[7];
        for (int i = 0; i < 6; i++)
            suffix[i] = alphabet[rnd[i] % (sizeof alphabet - 1)];
        suffix[6] = 0;
        snprintf(t, cap, "%.*s.%s.%s-%ld-%s", dir_len, path, name, tag, (long)getpid(), suffix);
        int fd = open(t, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0666);
        if (fd >= 0) {
            *tmp = t;
            return fd;
        }
        if (errno != EEXIST)
            break;
    }
    int e = errno;
    free(t);
    errno = e;
    return -1;
}

int mmd_temp_commit(const char *tmp, const char *path)
{
    struct stat st;
    if (lstat(path, &st) == 0 && S_ISLNK(st.st_mode)) {
        errno = ELOOP;
        return -1;
    }
    return rename(tmp, path);
}

mmd_status mmd_file_write_whole(const char *path, int (*write)(FILE *f, void *ctx), void *ctx, mmd_error *err)
{
    char *tmp = NULL;
    int fd = mmd_temp_create(path, "tmp", &tmp); /* exclusive: a planted symlink is never followed */
    FILE *f = fd >= 0 ? fdopen(fd, "w") : NULL;
    if (!f) {
        mmd_status st = mmd_fail(err, MMD_E_OUTPUT, "%s: cannot write: %s", path, strerror(errno));
        if (fd >= 0) {
            close(fd);
            unlink(tmp);
        }
        free(tmp);
        return st;
    }
    int rc = write(f, ctx);
    mmd_status st = MMD_OK;
    if (fclose(f) != 0 || rc != 0 || mmd_temp_commit(tmp, path) != 0) {
        st = mmd_fail(err, MMD_E_OUTPUT, "%s: cannot write: %s", path,
                      errno == ELOOP ? "the name is a symbolic link (not replaced)" : strerror(errno));
        unlink(tmp);
    }
    free(tmp);
    return st;
}

bool mmd_same_file(const char *a, const char *b)
{
    struct stat sa, sb;
    if (stat(a, &sa) == 0 && stat(b, &sb) == 0)
        return sa.st_dev == sb.st_dev && sa.st_ino == sb.st_ino;
    return !strcmp(a, b);
}

void mmd_fd_path(int fd, char *out, size_t cap)
{
    snprintf(out, cap, "/proc/self/fd/%d", fd);
}

int mmd_dir_open_owned(int at, const char *name)
{
    bool made = mkdirat(at, name, 0777) == 0;
    if (!made && errno != EEXIST)
        return -1;
    int fd = openat(at, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
    if (fd < 0) {
        if (errno == ENOTDIR) { /* a symbolic link, or not a folder */
            struct stat st;
            if (fstatat(at, name, &st, AT_SYMLINK_NOFOLLOW) == 0 && S_ISLNK(st.st_mode))
                errno = ELOOP;
        }
        return -1;
    }
    struct stat st;
    int e = fstat(fd, &st) != 0 ? errno : !made && (st.st_uid != geteuid() || (st.st_mode & S_IWOTH)) ? EPERM : 0;
    if (e) {
        close(fd);
        errno = e;
        return -1;
    }
    return fd;
}
