/* core/file.h - open and read input files safely.
 *
 *   mmd_file_open_regular(path, err)   fd of a regular file, opened for reading
 *   mmd_file_fopen_regular(path, err)  the same as a FILE* ("rb")
 *   mmd_file_check_regular(path, err)  the same check for libraries that open by name
 *   mmd_file_read(path, &data, &size, err)  the whole file, up to MMD_MAX_FILE_BYTES
 *   mmd_file_read_max(path, max, &data, &size, err)  the same, up to max bytes
 *   mmd_file_read_fd(fd, max, &data, &size, err)     the same from an fd opened above
 *
 * Every input file of every command is opened through these: a FIFO, socket or
 * device named as a model, motion, scene, texture, audio file or PNG would
 * block open() or read() forever (a FIFO without a writer) or never end
 * (/dev/zero). The file is opened with O_NONBLOCK (which makes open() of a
 * FIFO return at once), checked with fstat to be a regular file, and only
 * then switched back to blocking reads. Errors are MMD_E_IO with a sentence
 * naming what the path is ("a FIFO, not a regular file"). Thread-safe.
 */
#ifndef MMD_CORE_FILE_H
#define MMD_CORE_FILE_H

#include <stddef.h>
#include <stdio.h>

#include "core/status.h"

#define MMD_MAX_FILE_BYTES ((size_t)1 << 30) /* 1 GiB */

/* Returns an O_CLOEXEC read-only fd, or -1 with err filled. */
int mmd_file_open_regular(const char *path, mmd_error *err);
/* Returns a FILE* opened "rb", or NULL with err filled. */
FILE *mmd_file_fopen_regular(const char *path, mmd_error *err);
/* MMD_OK when path can be opened and is a regular file (closed again). */
mmd_status mmd_file_check_regular(const char *path, mmd_error *err);

/* *data is malloc'd (free with free()); MMD_E_IO when unreadable or not a
 * regular file, MMD_E_LIMIT when too large. */
mmd_status mmd_file_read(const char *path, void **data, size_t *size, mmd_error *err);
/* The same with a smaller cap (max <= MMD_MAX_FILE_BYTES), checked before
 * anything is read. */
mmd_status mmd_file_read_max(const char *path, size_t max, void **data, size_t *size, mmd_error *err);
/* The same from an fd of mmd_file_open_regular (closed here in any case). */
mmd_status mmd_file_read_fd(int fd, size_t max, void **data, size_t *size, mmd_error *err);

#endif
