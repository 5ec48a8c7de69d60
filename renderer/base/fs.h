/* renderer/base/fs.h - file-system helpers shared by the output writers.
 *
 *   mmd_temp_path(path, tag, out, cap)
 *   mmd_temp_path_dup(path, tag)
 *
 * Writers that must not leave a partial file write "<dir>/.<name>.<tag>-<pid>"
 * next to path "<dir>/<name>" (same folder, so the final rename is atomic;
 * hidden; one per process) and rename it onto path when complete.
 * mmd_temp_path writes that name into out (cap bytes) and returns true when
 * the name is not empty and the result fits. mmd_temp_path_dup returns it in
 * a malloc'ed string (the caller frees it), NULL when out of memory.
 * Thread-safe: no shared state.
 */
#ifndef MMD_RENDERER_FSUTIL_H
#define MMD_RENDERER_FSUTIL_H

#include <stdbool.h>
#include <stddef.h>

bool mmd_temp_path(const char *path, const char *tag, char *out, size_t cap);
char *mmd_temp_path_dup(const char *path, const char *tag);

#endif
