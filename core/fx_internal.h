/* core/fx_internal.h - the effect parser's tokens, lexer and preprocessor,
 * shared by core/fx_lex.c, fx_pre.c, fx_expr.c, fx_parse.c and the unit test. */
#ifndef MMD_CORE_FX_INTERNAL_H
#define MMD_CORE_FX_INTERNAL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/arena.h"
#include "core/fx.h"
#include "core/status.h"

typedef enum fx_tok_kind { FX_T_EOF, FX_T_IDENT, FX_T_NUMBER, FX_T_STRING, FX_T_PUNCT } fx_tok_kind;

#define FX_F_BOL 1u      /* first token of a logical line */
#define FX_F_SPACE 2u    /* whitespace before it */
#define FX_F_NOEXPAND 4u /* an identifier its macro's own expansion produced (painted blue) */

typedef struct fx_tok {
    const char *s; /* spelling (not NUL-terminated) */
    uint32_t len;
    uint16_t kind, flags;
    uint16_t file;  /* index into the file table */
    int32_t line;
} fx_tok;

typedef struct fx_toks {
    fx_tok *v;
    size_t n, cap;
} fx_toks;

/* Append; false when out of memory. */
bool fx_toks_push(fx_toks *t, fx_tok tok);
void fx_toks_free(fx_toks *t);
bool fx_tok_is(const fx_tok *t, const char *s);

/* Tokenize UTF-8 text (NUL-terminated at text[len]) of file index `file`.
 * Comments become whitespace; backslash-newline joins lines. Errors
 * (unterminated comment or string) are MMD_E_BAD_STRUCTURE with the line. */
mmd_status fx_lex(const char *text, size_t len, uint16_t file, const char *file_name, fx_toks *out,
                  mmd_error *err);

/* The preprocessor's state, owned by mmd_fx_load. */
typedef struct fx_pre {
    mmd_arena *a;
    const mmd_fx_loader *loader;
    const char **files; /* file names by index */
    uint32_t file_count;  /* names in files (read, and given by #line) */
    uint32_t files_read;
    size_t source_bytes;
    size_t tokens_made;
    void *macros; /* fx_pre.c's table */
    mmd_error *err;
} fx_pre;

/* Run the preprocessor over the root file: out gets the expanded tokens. */
mmd_status fx_preprocess(fx_pre *p, const void *data, size_t size, const char *path, fx_toks *out);
void fx_pre_release(fx_pre *p);

/* Decode file bytes to an arena UTF-8 string (valid UTF-8 stays, else CP932). */
char *fx_decode(mmd_arena *a, const void *data, size_t size, size_t *len);

/* Fill err with "FILE:LINE: msg" (section "fx", item = line) and return st. */
mmd_status fx_fail(mmd_error *err, mmd_status st, const char *file, int32_t line, const char *fmt, ...)
    __attribute__((format(printf, 5, 6)));

/* Evaluate an #if expression (macros and defined() already replaced). */
mmd_status fx_eval(const fx_tok *t, size_t n, const char *file, int32_t line, long long *value, mmd_error *err);

/* Spell tokens [a, b) as text with the spacing and line breaks they had. */
char *fx_spell(mmd_arena *ar, const fx_tok *t, size_t a, size_t b);

/* The effect grammar over preprocessed tokens into fx (its arena). */
mmd_status fx_parse_tokens(mmd_fx *fx, const fx_tok *t, size_t n, const char *const *files, mmd_error *err);

#endif
