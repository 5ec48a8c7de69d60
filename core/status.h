/* core/status.h - status codes and the error record every loader fills.
 *
 * One X-macro list generates the enum and the strings. A loader returns an
 * mmd_status and, when given a non-NULL mmd_error, describes where it failed:
 * section ("pmx.bone"), item index (-1 when not per element), byte offset
 * (-1 when not meaningful) and a human sentence.
 *
 * The renderer speaks the same vocabulary: the statuses after
 * MMD_E_BAD_STRUCTURE name the stage that failed outside the input files
 * (command line, GL, encoder, output file).
 *
 * Each row of the list is (id, sentence, class): the class says what kind of
 * failure the status is, so a status cannot be added without one. Core knows
 * no exit numbers; the CLI maps each class to its exit code in one switch
 * (renderer/cli/exit.c), which -Wswitch keeps complete.
 */
#ifndef MMD_CORE_STATUS_H
#define MMD_CORE_STATUS_H

#include <stddef.h>
#include <stdint.h>

/* What kind of failure a status is (the CLI's exit code, docs/cli.md). */
typedef enum mmd_status_class {
    MMD_CLASS_OK,          /* success */
    MMD_CLASS_INPUT,       /* an input file could not be read, or its bytes are wrong */
    MMD_CLASS_USAGE,       /* the command line or a setting asks for what cannot be done */
    MMD_CLASS_GL,          /* no GL context, or GL failed */
    MMD_CLASS_ENCODER,     /* the video/audio encoder failed */
    MMD_CLASS_OUTPUT,      /* an output cannot be written */
    MMD_CLASS_INTERRUPTED, /* stopped by a signal; outputs finalised */
} mmd_status_class;

#define MMD_STATUS_LIST(X)                                      \
    X(MMD_OK, "ok", MMD_CLASS_OK)                               \
    X(MMD_E_IO, "I/O error", MMD_CLASS_INPUT)                   \
    X(MMD_E_NOMEM, "out of memory", MMD_CLASS_INPUT)            \
    X(MMD_E_LIMIT, "limit exceeded", MMD_CLASS_INPUT)           \
    X(MMD_E_UNSUPPORTED, "unsupported", MMD_CLASS_INPUT)        \
    X(MMD_E_TRUNCATED, "truncated", MMD_CLASS_INPUT)            \
    X(MMD_E_BAD_MAGIC, "bad magic", MMD_CLASS_INPUT)            \
    X(MMD_E_BAD_VERSION, "bad version", MMD_CLASS_INPUT)        \
    X(MMD_E_BAD_HEADER, "bad header", MMD_CLASS_INPUT)          \
    X(MMD_E_BAD_COUNT, "bad count", MMD_CLASS_INPUT)            \
    X(MMD_E_BAD_INDEX, "index out of range", MMD_CLASS_INPUT)   \
    X(MMD_E_BAD_STRING, "bad string", MMD_CLASS_INPUT)          \
    X(MMD_E_BAD_VALUE, "bad value", MMD_CLASS_INPUT)            \
    X(MMD_E_BAD_STRUCTURE, "bad structure", MMD_CLASS_INPUT)    \
    X(MMD_E_USAGE, "bad usage", MMD_CLASS_USAGE)                \
    X(MMD_E_GL, "GL failure", MMD_CLASS_GL)                     \
    X(MMD_E_ENCODER, "encoder failure", MMD_CLASS_ENCODER)      \
    X(MMD_E_OUTPUT, "output not writable", MMD_CLASS_OUTPUT)    \
    X(MMD_E_INTERRUPTED, "interrupted", MMD_CLASS_INTERRUPTED)

typedef enum mmd_status {
#define MMD_X_ENUM(id, str, cls) id,
    MMD_STATUS_LIST(MMD_X_ENUM)
#undef MMD_X_ENUM
    MMD_STATUS_COUNT
} mmd_status;

/* The guard on the list, applied to every row by core/status.c at build time:
 * MMD_OK is 0 (callers test `if (st)`) and only MMD_OK has MMD_CLASS_OK, so a
 * status inserted anywhere in the list with the class OK does not compile
 * (tests/cli/status_guard.sh proves it), and every other status exits non-zero. */
#define MMD_X_STATUS_GUARD(id, str, cls)                                             \
    _Static_assert(((id) == MMD_OK) == ((cls) == MMD_CLASS_OK) && MMD_OK == 0,      \
                   #id ": only MMD_OK (0) has MMD_CLASS_OK, every failure a class that exits non-zero");

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
/* The class of a status, from its row in MMD_STATUS_LIST; a value outside the
 * list is MMD_CLASS_INPUT (never MMD_CLASS_OK). */
mmd_status_class mmd_status_class_of(mmd_status s);

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
