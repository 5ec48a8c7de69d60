/* core/fx_lex.c - effect-file text: decoding, tokens, spelling them back. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/fx_internal.h"
#include "core/text.h"

bool fx_toks_push(fx_toks *t, fx_tok tok)
{
    if (t->n == t->cap) {
        size_t cap = t->cap ? t->cap * 2 : 256;
        fx_tok *v = realloc(t->v, cap * sizeof *v);
        if (!v)
            return false;
        t->v = v;
        t->cap = cap;
    }
    t->v[t->n++] = tok;
    return true;
}

void fx_toks_free(fx_toks *t)
{
    free(t->v);
    t->v = NULL;
    t->n = t->cap = 0;
}

bool fx_tok_is(const fx_tok *t, const char *s)
{
    size_t n = strlen(s);
    return t->kind != FX_T_EOF && t->len == n && memcmp(t->s, s, n) == 0;
}

mmd_status fx_fail(mmd_error *err, mmd_status st, const char *file, int32_t line, const char *fmt, ...)
{
    char what[400];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(what, sizeof what, fmt, ap);
    va_end(ap);
    return mmd_error_set(err, st, "fx", line, -1, "%.100s:%d: %s", file ? file : "?", (int)line, what);
}

char *fx_decode(mmd_arena *a, const void *data, size_t size, size_t *len)
{
    const uint8_t *b = data;
    if (size >= 3 && b[0] == 0xEF && b[1] == 0xBB && b[2] == 0xBF) {
        b += 3;
        size -= 3;
    }
    mmd_text *t = mmd_text_create();
    if (!t)
        return NULL;
    unsigned bad = 0;
    char *s = mmd_text_utf8(t, a, b, size, &bad);
    if (s && bad) {
        unsigned bad_sjis = 0;
        char *j = mmd_text_sjis(t, a, b, size, &bad_sjis);
        if (j)
            s = j;
    }
    mmd_text_destroy(t);
    if (s)
        *len = strlen(s); /* a NUL in the file ends its text, as the effect compiler reads it */
    return s;
}

/* Lexer cursor over one file's text. */
typedef struct lexer {
    const char *p, *end, *file;
    int32_t line;
    uint16_t flags, fidx;
} lexer;

static bool is_ident(unsigned char c, bool first)
{
    return c == '_' || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c >= 0x80 ||
           (!first && c >= '0' && c <= '9');
}

static bool is_digit(char c)
{
    return c >= '0' && c <= '9';
}

/* Skip whitespace, comments and line splices; false on an unterminated comment. */
static bool skip_space(lexer *L, int32_t *comment_line)
{
    while (L->p < L->end) {
        char c = *L->p;
        if (c == '\n') {
            L->line++;
            L->p++;
            L->flags |= FX_F_BOL | FX_F_SPACE;
        } else if (c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v') {
            L->p++;
            L->flags |= FX_F_SPACE;
        } else if (c == '\\' && (L->p[1] == '\n' || (L->p[1] == '\r' && L->p[2] == '\n'))) {
            L->p += L->p[1] == '\n' ? 2 : 3;
            L->line++;
        } else if (c == '/' && L->p[1] == '/') {
            while (L->p < L->end && *L->p != '\n')
                L->p++;
            L->flags |= FX_F_SPACE;
        } else if (c == '/' && L->p[1] == '*') {
            const char *q = L->p + 2;
            *comment_line = L->line;
            for (; q < L->end && !(q[0] == '*' && q[1] == '/'); q++)
                L->line += *q == '\n';
            if (q >= L->end)
                return false;
            L->p = q + 2;
            L->flags |= FX_F_SPACE;
        } else {
            break;
        }
    }
    return true;
}

static const char *const k_punct3[] = {"<<=", ">>=", "..."};
static const char *const k_punct2[] = {"##", "<<", ">>", "<=", ">=", "==", "!=", "&&", "||", "++", "--",
                                       "+=", "-=", "*=", "/=", "%=", "&=", "|=", "^=", "::", "->"};

static size_t punct_len(const char *p, const char *end)
{
    size_t left = (size_t)(end - p);
    for (size_t i = 0; i < sizeof k_punct3 / sizeof *k_punct3; i++)
        if (left >= 3 && memcmp(p, k_punct3[i], 3) == 0)
            return 3;
    for (size_t i = 0; i < sizeof k_punct2 / sizeof *k_punct2; i++)
        if (left >= 2 && memcmp(p, k_punct2[i], 2) == 0)
            return 2;
    return 1;
}

/* One token at L->p (not whitespace). Returns its length, 0 for an unterminated string. */
static size_t token_len(const lexer *L, uint16_t *kind)
{
    const char *p = L->p, *q = p;
    unsigned char c = (unsigned char)*p;
    if (is_ident(c, true)) {
        while (q < L->end && is_ident((unsigned char)*q, false))
            q++;
        *kind = FX_T_IDENT;
    } else if (is_digit((char)c) || (c == '.' && p + 1 < L->end && is_digit(p[1]))) {
        for (q = p + 1; q < L->end; q++) {
            if ((*q == '+' || *q == '-') && (q[-1] == 'e' || q[-1] == 'E'))
                continue;
            if (!is_ident((unsigned char)*q, false) && *q != '.')
                break;
        }
        *kind = FX_T_NUMBER;
    } else if (c == '"') {
        for (q = p + 1; q < L->end && *q != '"' && *q != '\n'; q++)
            if (*q == '\\' && q + 1 < L->end && q[1] != '\n')
                q++;
        if (q >= L->end || *q != '"')
            return 0;
        q++;
        *kind = FX_T_STRING;
    } else {
        q = p + punct_len(p, L->end);
        *kind = FX_T_PUNCT;
    }
    return (size_t)(q - p);
}

mmd_status fx_lex(const char *text, size_t len, uint16_t file, const char *file_name, fx_toks *out,
                  mmd_error *err)
{
    lexer L = {text, text + len, file_name, 1, FX_F_BOL, file};
    for (;;) {
        int32_t start_line = L.line;
        if (!skip_space(&L, &start_line))
            return fx_fail(err, MMD_E_BAD_STRUCTURE, file_name, start_line, "unterminated comment: expected */");
        if (L.p >= L.end)
            break;
        uint16_t kind = FX_T_EOF;
        size_t n = token_len(&L, &kind);
        if (n == 0)
            return fx_fail(err, MMD_E_BAD_STRUCTURE, file_name, L.line,
                           "unterminated string: expected \" before the end of the line");
        fx_tok t = {L.p, (uint32_t)n, kind, L.flags, L.fidx, L.line};
        if (!fx_toks_push(out, t))
            return fx_fail(err, MMD_E_NOMEM, file_name, L.line, "out of memory");
        L.p += n;
        L.flags = 0;
    }
    return MMD_OK;
}

/* Whether two tokens written side by side would read as one. */
static bool would_join(const fx_tok *a, const fx_tok *b)
{
    bool wa = a->kind == FX_T_IDENT || a->kind == FX_T_NUMBER, wb = b->kind == FX_T_IDENT || b->kind == FX_T_NUMBER;
    if (wa && wb)
        return true;
    if (a->kind != FX_T_PUNCT || b->kind != FX_T_PUNCT)
        return false;
    char pair[3] = {a->s[a->len - 1], b->s[0], '\0'};
    return punct_len(pair, pair + 2) == 2 || strcmp(pair, "//") == 0 || strcmp(pair, "/*") == 0;
}

#define MAX_GAP 64 /* blank lines written out; a longer gap is a #line */

/* The break between two tokens: newlines keeping the line count, or a space. */
static size_t put_break(char *w, const fx_tok *prev, const fx_tok *t)
{
    int32_t gap = t->file == prev->file ? t->line - prev->line : 0;
    if (gap > MAX_GAP)
        return w ? (size_t)sprintf(w, "\n#line %d\n", (int)t->line) : 24;
    if (gap > 0) {
        if (w)
            memset(w, '\n', (size_t)gap);
        return (size_t)gap;
    }
    if ((t->flags & (FX_F_SPACE | FX_F_BOL)) || would_join(prev, t)) {
        if (w)
            *w = ' ';
        return 1;
    }
    return 0;
}

char *fx_spell(mmd_arena *ar, const fx_tok *t, size_t a, size_t b)
{
    size_t need = 1;
    for (size_t i = a; i < b; i++)
        need += t[i].len + (i > a ? put_break(NULL, &t[i - 1], &t[i]) : 0);
    char *s = mmd_arena_alloc(ar, need), *w = s;
    if (!s)
        return NULL;
    for (size_t i = a; i < b; i++) {
        if (i > a)
            w += put_break(w, &t[i - 1], &t[i]);
        memcpy(w, t[i].s, t[i].len);
        w += t[i].len;
    }
    *w = '\0';
    return s;
}
