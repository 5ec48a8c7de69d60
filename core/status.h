/* core/status.h - status codes and the error record every loader fills.
 *
 * One X-macro list generates the enum and the strings. A loader returns an
 * mmd_status and, when given a non-NULL mmd_error, describes where it failed:
 * section ("pmx.bone"), item index (-1 when not per element), byte offset
 * (-1 when not meaningful) and a human sentence.
 *
 * The renderer speaks the same vocabulary: the statuses after
 * MMD_E_BAD_STRUCTURE name the stage that failed outside the input files
 * (command line, GL, encoder, output file); the CLI maps every status to its
 * exit code in one table (renderer/cli/exit.c).
 */
#ifndef MMD_CORE_STATUS_H
#define MMD_CORE_STATUS_H

#include <stddef.h>
#include <stdint.h>

#define MMD_STATUS_LIST(X)                                  \
    X(MMD_OK, "ok")                                         \
    X(MMD_E_IO, "I/O error")                                \
    X(MMD_E_NOMEM, "out of memory")                         \
    X(MMD_E_LIMIT, "limit exceeded")                        \
    X(MMD_E_UNSUPPORTED, "unsupported")                     \
    X(MMD_E_TRUNCATED, "truncated")                         \
    X(MMD_E_BAD_MAGIC, "bad magic")                         \
    X(MMD_E_BAD_VERSION, "bad version")                     \
    X(MMD_E_BAD_HEADER, "bad header")                       \
    X(MMD_E_BAD_COUNT, "bad count")                         \
    X(MMD_E_BAD_INDEX, "index out of range")                \
    X(MMD_E_BAD_STRING, "bad string")                       \
    X(MMD_E_BAD_VALUE, "bad value")                         \
    X(MMD_E_BAD_STRUCTURE, "bad structure")                 \
    X(MMD_E_USAGE, "bad usage")                             \
    X(MMD_E_GL, "GL failure")                               \
    X(MMD_E_ENCODER, "encoder failure")                     \
    X(MMD_E_OUTPUT, "output not writable")                  \
    X(MMD_E_INTERRUPTED, "interrupted")

typedef enum mmd_status {
#define MMD_X_ENUM(id, str) id,
    MMD_STATUS_LIST(MMD_X_ENUM)
#undef MMD_X_ENUM
    MMD_STATUS_COUNT
} mmd_status;

typedef struct mmd_error {
    mmd_status status;
    int64_t offset;      /* byte offset in the input, -1 when none */
    const char *section; /* static string, e.g. "pmx.bone"; NULL when none */
    int64_t item;        /* element index within section, -1 when none */
    char msg[512];       /* room for two paths: renderer messages name files */
} mmd_error;

/* Repairs a loader made (docs/compat.md), one entry per kind: what was
 * repaired, where it first happened, how often. A kind is (section, what);
 * `what` is a static sentence ("sphere mode out of range: no sphere").
 * Kinds beyond MMD_MAX_WARNING_KINDS are counted in `more` only. */
#define MMD_MAX_WARNING_KINDS 24
typedef struct mmd_warning {
    const char *section; /* static, e.g. "pmx.material" */
    const char *what;    /* static sentence */
    int64_t item;        /* first element, -1 when none */
    int64_t offset;      /* its byte offset, -1 when unknown */
    uint32_t count;      /* elements repaired this way */
} mmd_warning;

typedef struct mmd_warning_list {
    mmd_warning kinds[MMD_MAX_WARNING_KINDS];
    uint32_t kind_count;
    uint32_t more;       /* repairs of kinds that did not fit */
} mmd_warning_list;

/* Record one repair in w (may be NULL) and add 1 to *total (may be NULL). */
void mmd_warn(mmd_warning_list *w, unsigned *total, const char *section, int64_t item, int64_t offset,
              const char *what);
/* One line: "offset 0x1a2b, pmx.material #3: what (and 4 more)". */
void mmd_warning_format(const mmd_warning *w, char *buf, size_t size);

/* Human name of a status ("truncated"). Never NULL. */
const char *mmd_status_str(mmd_status s);

/* Fill err (may be NULL) and return status. printf-style message. */
mmd_status mmd_error_set(mmd_error *err, mmd_status status, const char *section,
                         int64_t item, int64_t offset, const char *fmt, ...)
    __attribute__((format(printf, 6, 7)));

/* mmd_error_set without a place (no section, item or offset): the renderer's
 * errors, which are about files and stages, not bytes of an input. */
mmd_status mmd_fail(mmd_error *err, mmd_status status, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* Format "file: offset 0x1a2b, pmx.bone #57: message" into buf. */
void mmd_error_format(const mmd_error *err, const char *file, char *buf, size_t size);

#endif
