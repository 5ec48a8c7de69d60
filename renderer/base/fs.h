/* renderer/base/fs.h - file-system helpers shared by the output writers.
 *
 *   fd = mmd_temp_create(path, tag, &tmp)   new hidden temporary next to path
 *   mmd_temp_commit(tmp, path)              rename it onto path when complete
 *   fd = mmd_dir_open_owned(at, name)       an output folder, never a symlink
 *   mmd_file_write_whole(path, write, ctx, &err)   a small file written whole or not at all
 *
 * Writers that must not leave a partial file write a temporary in the
 * destination's folder (so the final rename is atomic) and rename it onto
 * path when complete. The temporary is "<dir>/.<name>.<tag>-<pid>-<6 random
 * characters>", created with O_CREAT|O_EXCL|O_NOFOLLOW (mkstemp-style, retried
 * on a clash, mode 0666 less the umask): a file or symlink planted at a
 * predictable name is never opened or followed. mmd_temp_create returns the
 * O_CLOEXEC write fd and sets *tmp (malloc'd; the caller frees it), or -1
 * with errno. Libraries that open by name (libavformat) are given
 * mmd_fd_path(fd), the /proc/self/fd link to the very file created here.
 *
 * mmd_temp_commit refuses (-1, errno ELOOP) to rename over a final name that
 * is a symbolic link, so a link planted at the output name is reported
 * instead of replaced; otherwise it is rename(2) (-1 with errno).
 * Thread-safe: no shared state.
 */
#ifndef MMD_RENDERER_FSUTIL_H
#define MMD_RENDERER_FSUTIL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "core/status.h"

int mmd_temp_create(const char *path, const char *tag, char **tmp);
int mmd_temp_commit(const char *tmp, const char *path);
/* Writes path through a temporary (above): write(f, ctx) fills it (0 or -1 on
 * a write error), then it is renamed onto path; on any failure nothing is left
 * and err names path and why (a symbolic link at path is not replaced). */
mmd_status mmd_file_write_whole(const char *path, int (*write)(FILE *f, void *ctx), void *ctx, mmd_error *err);
/* True when a and b name the same file (same device and inode, through any
 * link or spelling); when either does not exist, when their paths are equal.
 * Every command checks its outputs against its inputs with this. */
bool mmd_same_file(const char *a, const char *b);

/* The folder name (relative to the folder at, or AT_FDCWD) opened for writing
 * outputs into, never through a symbolic link: created when absent (mode 0777
 * less the umask); an existing one must be a real folder, owned by the
 * effective user and not writable by others. Returns an O_DIRECTORY|O_CLOEXEC
 * fd, or -1 with errno: ELOOP (name is a symbolic link), ENOTDIR (not a
 * folder), EPERM (someone else's, or writable by others), or mkdir's. Files
 * go in through mmd_fd_path(fd) + "/name", which stays on this very folder
 * even if name is replaced afterwards. */
int mmd_dir_open_owned(int at, const char *name);

/* "/proc/self/fd/N" for fd into out (cap >= 32). */
void mmd_fd_path(int fd, char *out, size_t cap);

#endif
