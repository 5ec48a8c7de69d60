/* renderer/base/msg.h - small helpers shared by renderer modules.
 *
 *   mmd_msg_print(f, fmt, ...)          the one way human-readable text reaches a terminal
 *   mmd_msg_warnings(f, prefix, file, list)
 *   mmd_warnf(fn, ctx, fmt, ...)
 *
 * Errors are not here: a function that can fail returns mmd_status with its
 * sentence in an mmd_error (core/status.h, docs/architecture.md "Errors").
 */
#ifndef MMD_RENDERER_MSG_H
#define MMD_RENDERER_MSG_H

#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>

#include "core/status.h"

/* Text from a file (model, bone, morph, texture names...) made safe to print
 * to a terminal: control characters (C0 bytes, DEL, and the UTF-8 encoded C1
 * range U+0080..U+009F, which terminals also obey) become \xNN, so a name
 * cannot carry escape sequences. Writes into buf (n bytes, truncated, always
 * NUL-terminated) and returns buf; s NULL gives "". For human-readable
 * output; JSON has its own escaping. */
const char *mmd_printable(const char *s, char *buf, size_t n);
/* printf to f for people (stdout, stderr): every %s argument goes through
 * mmd_printable (precision honoured, on the bytes before escaping), so a name
 * or error sentence from a file (models, textures, scenes, projects, .x,
 * .vac, images) cannot carry terminal escapes; the format's own text
 * (newlines, a progress bar's \r) is the program's and is written as is.
 * Other conversions are printf's. %n is not supported. Returns the bytes
 * written, or -1 on an output error. Not for JSON (renderer/cli/json_out.h)
 * or files we write (scenes, HTML). */
int mmd_msg_print(FILE *f, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
int mmd_msg_vprint(FILE *f, const char *fmt, va_list ap) __attribute__((format(printf, 2, 0)));
/* A loaded file's repairs (core/status.h), one line per kind on f:
 * "<prefix>warning: <file>: offset 0x1a2b, pmx.material #3: what (and 4 more)",
 * plus a line for kinds beyond the list's capacity. Nothing when list is empty. */
void mmd_msg_warnings(FILE *f, const char *prefix, const char *file, const mmd_warning_list *list);

/* How a module below the CLI tells the user something that does not stop the
 * work (a texture drawn white): one sentence, without the "mmdrender:
 * warning: " prefix, names from files already made printable. The CLI
 * supplies the function and prints; NULL drops the warning. */
typedef void (*mmd_warn_fn)(void *ctx, const char *sentence);
/* Format the sentence (up to 4 KiB, truncated) and hand it to fn(ctx, ...); nothing when fn is NULL. */
void mmd_warnf(mmd_warn_fn fn, void *ctx, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
/* A loaded file's repairs as sentences to fn, one per kind ("<file>: offset
 * 0x1a2b, pmx.material #3: what (and 4 more)"), plus one for kinds beyond the
 * list's capacity; mmd_msg_warnings prints the same lines. */
void mmd_warn_repairs(mmd_warn_fn fn, void *ctx, const char *file, const mmd_warning_list *list);

#endif
