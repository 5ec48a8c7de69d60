/* renderer/base/msg.h - small helpers shared by renderer modules.
 *
 *   mmd_msgf(msg, n, ret, fmt, ...)
 *   mmd_msg_warnings(f, prefix, file, list)
 *
 * mmd_msgf formats an error sentence into the caller's buffer msg of n bytes
 * (vsnprintf: always NUL-terminated, truncated to fit) and returns ret, so a
 * failing path reads `return mmd_msgf(msg, n, -1, "%s: ...", path);` whatever
 * the caller's error value is. msg NULL or n 0 writes nothing. Thread-safe.
 */
#ifndef MMD_RENDERER_MSG_H
#define MMD_RENDERER_MSG_H

#include <stddef.h>
#include <stdio.h>

#include "core/status.h"

int mmd_msgf(char *msg, size_t n, int ret, const char *fmt, ...) __attribute__((format(printf, 4, 5)));

/* A loaded file's repairs (core/status.h), one line per kind on f:
 * "<prefix>warning: <file>: offset 0x1a2b, pmx.material #3: what (and 4 more)",
 * plus a line for kinds beyond the list's capacity. Nothing when list is empty. */
void mmd_msg_warnings(FILE *f, const char *prefix, const char *file, const mmd_warning_list *list);

#endif
