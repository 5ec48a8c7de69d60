/* core/file.h - read a whole file into memory with a size cap. */
#ifndef MMD_CORE_FILE_H
#define MMD_CORE_FILE_H

#include <stddef.h>

#include "core/status.h"

#define MMD_MAX_FILE_BYTES ((size_t)1 << 30) /* 1 GiB */

/* *data is malloc'd (free with free()); MMD_E_IO when unreadable, MMD_E_LIMIT when too large. */
mmd_status mmd_file_read(const char *path, void **data, size_t *size, mmd_error *err);

#endif
