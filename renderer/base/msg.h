/* renderer/base/msg.h - small helpers shared by renderer modules.
 *
 *   mmd_msgf(msg, n, ret, fmt, ...)
 *
 * mmd_msgf formats an error sentence into the caller's buffer msg of n bytes
 * (vsnprintf: always NUL-terminated, truncated to fit) and returns ret, so a
 * failing path reads `return mmd_msgf(msg, n, -1, "%s: ...", path);` whatever
 * the caller's error value is. msg NULL or n 0 writes nothing. Thread-safe.
 */
#ifndef MMD_RENDERER_MSG_H
#define MMD_RENDERER_MSG_H

#include <stddef.h>

int mmd_msgf(char *msg, size_t n, int ret, const char *fmt, ...) __attribute__((format(printf, 4, 5)));

#endif
