/* core/fx_pre.c - the effect preprocessor: directives, conditionals and
 * #include (through the caller's loader; core opens no file). Text between
 * directives is handed to the macro expander (core/fx_macro.c) as one run,
 * so a macro call's arguments may span lines. Caps: MMD_FX_MAX_INCLUDE_DEPTH,
 * MMD_FX_MAX_FILES, MMD_FX_MAX_SOURCE_BYTES, MMD_FX_MAX_NESTING (#if). */
#include <stdlib.h>
#include <string.h>

#include "core/fx_macro.h"

typedef struct cond {
    bool parent, active, taken, seen_else;
    int32_t line;
} cond;

/* One file being read. */
typedef struct file_ctx {
    fx_pre *p;
    uint16_t file, shown; /* index read from, index tokens carry (#line "name") */
    int32_t line_delta;   /* #line N */
    const char *name, *dir;
    int depth;
    const char *const *chain; /* names of the files including this one, outermost first */
    cond conds[MMD_FX_MAX_NESTING];
    int ncond;
    fx_toks pending;
    fx_toks *out;
} file_ctx;

static mmd_status process_file(fx_pre *p, const char *text, size_t len, const char *name, int depth,
                               const char *const *chain, fx_toks *out);

static bool active(const file_ctx *f)
{
    return f->ncond == 0 || f->conds[f->ncond - 1].active;
}

static mmd_status bad(const file_ctx *f, const fx_tok *at, const char *what, const fx_tok *got)
{
    if (got)
        return fx_fail(f->p->err, MMD_E_BAD_STRUCTURE, f->name, at->line, "%s, got '%.*s'", what,
                       (int)(got->len < 40 ? got->len : 40), got->s);
    return fx_fail(f->p->err, MMD_E_BAD_STRUCTURE, f->name, at->line, "%s", what);
}

static mmd_status add_file(fx_pre *p, const char *name, uint16_t *index)
{
    if (p->file_count >= MMD_FX_MAX_FILES)
        return fx_fail(p->err, MMD_E_LIMIT, name, 1, "more than %d files", MMD_FX_MAX_FILES);
    const char **v = mmd_arena_array(p->a, p->file_count + 1u, sizeof *v);
    char *copy = mmd_arena_strdup(p->a, name);
    if (!v || !copy)
        return fx_fail(p->err, MMD_E_NOMEM, name, 1, "out of memory");
    if (p->file_count)
        memcpy(v, p->files, p->file_count * sizeof *v);
    v[p->file_count] = copy;
    p->files = v;
    *index = (uint16_t)p->file_count++;
    return MMD_OK;
}

static mmd_status flush(file_ctx *f)
{
    mmd_status st = fx_macro_expand(f->p, f->pending.v, f->pending.n, f->out);
    f->pending.n = 0;
    return st;
}

/* #define NAME body / #define NAME(a, b, ...) body */
static mmd_status do_define(file_ctx *f, const fx_tok *d, size_t n)
{
    if (n < 1 || d[0].kind != FX_T_IDENT)
        return bad(f, &d[-1], "expected a macro name after #define", n ? &d[0] : NULL);
    fx_macro *m = fx_macro_add(f->p, d[0].s, d[0].len);
    if (!m)
        return fx_fail(f->p->err, MMD_E_NOMEM, f->name, d[0].line, "out of memory");
    size_t i = 1;
    if (n > 1 && fx_tok_is(&d[1], "(") && !(d[1].flags & FX_F_SPACE)) {
        m->function_like = true;
        m->params = mmd_arena_array(f->p->a, n, sizeof *m->params);
        if (!m->params)
            return fx_fail(f->p->err, MMD_E_NOMEM, f->name, d[0].line, "out of memory");
        for (i = 2; i < n && !fx_tok_is(&d[i], ")"); i++) {
            if (m->param_count > 0 && !fx_tok_is(&d[i++], ","))
                return bad(f, &d[0], "expected , or ) in the macro's parameters", &d[i - 1]);
            if (i < n && fx_tok_is(&d[i], "...")) {
                m->variadic = true;
                m->params[m->param_count++] = "__VA_ARGS__";
            } else if (i < n && d[i].kind == FX_T_IDENT && !m->variadic) {
                m->params[m->param_count++] = mmd_arena_strndup(f->p->a, d[i].s, d[i].len);
            } else {
                return bad(f, &d[0], "expected a parameter name", i < n ? &d[i] : NULL);
            }
        }
        if (i >= n)
            return bad(f, &d[0], "expected ) after the macro's parameters", NULL);
        i++;
    }
    m->body_count = (uint32_t)(n - i);
    m->body = mmd_arena_array(f->p->a, m->body_count + 1u, sizeof *m->body);
    if (!m->body)
        return fx_fail(f->p->err, MMD_E_NOMEM, f->name, d[0].line, "out of memory");
    memcpy(m->body, d + i, m->body_count * sizeof *m->body);
    return MMD_OK;
}

/* Replace defined X / defined(X), expand macros, remaining names are 0; evaluate. */
static mmd_status eval_if(file_ctx *f, const fx_tok *d, size_t n, int32_t line, bool *value)
{
    fx_toks a = {0}, b = {0};
    mmd_status st = MMD_OK;
    static const fx_tok k_one = {"1", 1, FX_T_NUMBER, 0, 0, 0}, k_zero = {"0", 1, FX_T_NUMBER, 0, 0, 0};
    for (size_t i = 0; st == MMD_OK && i < n; i++) {
        if (!fx_tok_is(&d[i], "defined")) {
            st = fx_toks_push(&a, d[i]) ? MMD_OK : MMD_E_NOMEM;
            continue;
        }
        bool paren = i + 1 < n && fx_tok_is(&d[i + 1], "(");
        size_t k = i + 1 + paren;
        if (k >= n || d[k].kind != FX_T_IDENT || (paren && (k + 1 >= n || !fx_tok_is(&d[k + 1], ")")))) {
            st = bad(f, &d[i], "#if: expected a name after defined", k < n ? &d[k] : NULL);
            break;
        }
        st = fx_toks_push(&a, fx_macro_find(f->p, d[k].s, d[k].len) ? k_one : k_zero) ? MMD_OK : MMD_E_NOMEM;
        i = k + paren;
    }
    if (st == MMD_E_NOMEM)
        st = fx_fail(f->p->err, MMD_E_NOMEM, f->name, line, "out of memory");
    if (st == MMD_OK)
        st = fx_macro_expand(f->p, a.v, a.n, &b);
    for (size_t i = 0; st == MMD_OK && i < b.n; i++)
        if (b.v[i].kind == FX_T_IDENT)
            b.v[i] = fx_tok_is(&b.v[i], "true") ? k_one : k_zero;
    long long v = 0;
    if (st == MMD_OK)
        st = fx_eval(b.v, b.n, f->name, line, &v, f->p->err);
    fx_toks_free(&a);
    fx_toks_free(&b);
    *value = v != 0;
    return st;
}

static mmd_status do_conditional(file_ctx *f, const fx_tok *dir, const fx_tok *d, size_t n)
{
    cond *top = f->ncond ? &f->conds[f->ncond - 1] : NULL;
    bool is_if = fx_tok_is(dir, "if"), is_ifdef = fx_tok_is(dir, "ifdef"), is_ifndef = fx_tok_is(dir, "ifndef");
    if (is_if || is_ifdef || is_ifndef) {
        if (f->ncond >= MMD_FX_MAX_NESTING)
            return fx_fail(f->p->err, MMD_E_LIMIT, f->name, dir->line, "#if nests deeper than %d", MMD_FX_MAX_NESTING);
        cond c = {active(f), false, false, false, dir->line};
        bool v = false;
        if (c.parent && is_if) {
            mmd_status st = eval_if(f, d, n, dir->line, &v);
            if (st != MMD_OK)
                return st;
        } else if (c.parent) {
            if (n < 1 || d[0].kind != FX_T_IDENT)
                return bad(f, dir, "expected a macro name", n ? &d[0] : NULL);
            v = (fx_macro_find(f->p, d[0].s, d[0].len) != NULL) == is_ifdef;
        }
        c.active = c.parent && v;
        c.taken = v;
        f->conds[f->ncond++] = c;
        return MMD_OK;
    }
    if (!top)
        return fx_fail(f->p->err, MMD_E_BAD_STRUCTURE, f->name, dir->line, "#%.*s without #if", (int)dir->len,
                       dir->s);
    if (fx_tok_is(dir, "endif")) {
        f->ncond--;
        return MMD_OK;
    }
    if (top->seen_else)
        return fx_fail(f->p->err, MMD_E_BAD_STRUCTURE, f->name, dir->line, "#%.*s after #else (line %d)",
                       (int)dir->len, dir->s, (int)top->line);
    bool v = !top->taken;
    if (fx_tok_is(dir, "else")) {
        top->seen_else = true;
        top->line = dir->line;
    } else if (top->parent && !top->taken) {
        mmd_status st = eval_if(f, d, n, dir->line, &v);
        if (st != MMD_OK)
            return st;
    }
    top->active = top->parent && v;
    top->taken = top->taken || v;
    return MMD_OK;
}

static bool same_name(const char *a, const char *b)
{
    for (; *a && *b; a++, b++) {
        char x = *a == '\\' ? '/' : *a, y = *b == '\\' ? '/' : *b;
        if ((x | (x >= 'A' && x <= 'Z' ? 0x20 : 0)) != (y | (y >= 'A' && y <= 'Z' ? 0x20 : 0)))
            return false;
    }
    return *a == *b;
}

/* The file name an include stands for: the includer's folder joined with it. */
static char *include_name(file_ctx *f, const char *name)
{
    bool here = strcmp(f->dir, ".") == 0;
    size_t n = (here ? 0 : strlen(f->dir) + 1) + strlen(name) + 1;
    char *s = mmd_arena_alloc(f->p->a, n);
    if (!s)
        return NULL;
    if (here)
        strcpy(s, name);
    else {
        strcpy(s, f->dir);
        strcat(s, "/");
        strcat(s, name);
    }
    for (char *c = s; *c; c++)
        if (*c == '\\')
            *c = '/';
    return s;
}

/* The name in #include "name" or <name> (after macro expansion when neither). */
static mmd_status include_target(file_ctx *f, const fx_tok *dir, const fx_tok *d, size_t n, char **name)
{
    fx_toks x = {0};
    mmd_status st = MMD_OK;
    if (n >= 1 && d[0].kind != FX_T_STRING && !fx_tok_is(&d[0], "<")) {
        st = fx_macro_expand(f->p, d, n, &x);
        d = x.v;
        n = x.n;
    }
    *name = NULL;
    if (st == MMD_OK && n >= 1 && d[0].kind == FX_T_STRING && d[0].len >= 2)
        *name = mmd_arena_strndup(f->p->a, d[0].s + 1, d[0].len - 2);
    else if (st == MMD_OK && n >= 3 && fx_tok_is(&d[0], "<") && fx_tok_is(&d[n - 1], ">"))
        *name = fx_spell(f->p->a, d, 1, n - 1);
    if (st == MMD_OK && !*name)
        st = bad(f, dir, "expected \"file\" or <file> after #include", n ? &d[0] : NULL);
    fx_toks_free(&x);
    return st;
}

static mmd_status do_include(file_ctx *f, const fx_tok *dir, const fx_tok *d, size_t n)
{
    fx_pre *p = f->p;
    char *name = NULL, *full = NULL;
    mmd_status st = include_target(f, dir, d, n, &name);
    if (st != MMD_OK)
        return st;
    if (!p->loader || !p->loader->read)
        return fx_fail(p->err, MMD_E_UNSUPPORTED, f->name, dir->line, "#include \"%s\": no loader for includes", name);
    if (f->depth + 1 >= MMD_FX_MAX_INCLUDE_DEPTH)
        return fx_fail(p->err, MMD_E_LIMIT, f->name, dir->line, "#include nests deeper than %d",
                       MMD_FX_MAX_INCLUDE_DEPTH);
    if (!(full = include_name(f, name)))
        return fx_fail(p->err, MMD_E_NOMEM, f->name, dir->line, "out of memory");
    for (int i = 0; i <= f->depth; i++)
        if (same_name(f->chain[i], full))
            return fx_fail(p->err, MMD_E_BAD_STRUCTURE, f->name, dir->line, "#include cycle: %s includes itself",
                           full);
    void *data = NULL;
    size_t size = 0;
    mmd_error lerr = {0};
    st = p->loader->read(p->loader->user, f->dir, name, &data, &size, &lerr);
    if (st != MMD_OK)
        return fx_fail(p->err, st, f->name, dir->line, "#include \"%s\"%s%s", name,
                       strncmp(lerr.msg, "is ", 3) ? ": " : " ", lerr.msg); /* "... is outside ROOT" */
    size_t len = 0;
    char *text = size <= MMD_FX_MAX_SOURCE_BYTES - p->source_bytes ? fx_decode(p->a, data, size, &len) : NULL;
    free(data);
    if (!text && size > MMD_FX_MAX_SOURCE_BYTES - p->source_bytes)
        return fx_fail(p->err, MMD_E_LIMIT, f->name, dir->line, "sources exceed %u bytes", MMD_FX_MAX_SOURCE_BYTES);
    if (!text)
        return fx_fail(p->err, MMD_E_NOMEM, f->name, dir->line, "out of memory");
    p->source_bytes += size;
    const char *chain[MMD_FX_MAX_INCLUDE_DEPTH + 1];
    memcpy(chain, f->chain, (size_t)(f->depth + 1) * sizeof *chain);
    chain[f->depth + 1] = full;
    return process_file(p, text, len, full, f->depth + 1, chain, f->out);
}

/* #line N ["file"] */
static mmd_status do_line(file_ctx *f, const fx_tok *dir, const fx_tok *d, size_t n)
{
    char buf[16];
    if (n < 1 || d[0].kind != FX_T_NUMBER || d[0].len >= sizeof buf)
        return bad(f, dir, "expected a line number after #line", n ? &d[0] : NULL);
    memcpy(buf, d[0].s, d[0].len);
    buf[d[0].len] = '\0';
    long v = strtol(buf, NULL, 10);
    if (v < 1 || v > 0x7fffffff)
        return bad(f, dir, "expected a line number from 1 after #line", &d[0]);
    f->line_delta = (int32_t)(v - (dir->line + 1));
    if (n >= 2 && d[1].kind == FX_T_STRING && d[1].len >= 2) {
        char *name = mmd_arena_strndup(f->p->a, d[1].s + 1, d[1].len - 2);
        if (!name)
            return fx_fail(f->p->err, MMD_E_NOMEM, f->name, dir->line, "out of memory");
        for (uint32_t i = 0; i < f->p->file_count; i++)
            if (strcmp(f->p->files[i], name) == 0) { /* a name given again: its entry */
                f->shown = (uint16_t)i;
                return MMD_OK;
            }
        return add_file(f->p, name, &f->shown);
    }
    return MMD_OK;
}

/* A directive: d[0] is '#', tokens [1, n) its name and rest. */
static mmd_status directive(file_ctx *f, const fx_tok *d, size_t n)
{
    if (n < 2)
        return MMD_OK; /* the null directive */
    const fx_tok *name = &d[1];
    static const char *const k_cond[] = {"if", "ifdef", "ifndef", "elif", "else", "endif"};
    for (size_t i = 0; i < sizeof k_cond / sizeof *k_cond; i++)
        if (fx_tok_is(name, k_cond[i]))
            return do_conditional(f, name, d + 2, n - 2);
    if (!active(f))
        return MMD_OK;
    mmd_status st = flush(f);
    if (st != MMD_OK)
        return st;
    if (fx_tok_is(name, "define"))
        return do_define(f, d + 2, n - 2);
    if (fx_tok_is(name, "undef")) {
        fx_macro *m = n > 2 ? fx_macro_find(f->p, d[2].s, d[2].len) : NULL;
        if (m)
            m->defined = false;
        return n > 2 && d[2].kind == FX_T_IDENT ? MMD_OK : bad(f, name, "expected a macro name after #undef", NULL);
    }
    if (fx_tok_is(name, "include"))
        return do_include(f, name, d + 2, n - 2);
    if (fx_tok_is(name, "line"))
        return do_line(f, name, d + 2, n - 2);
    if (fx_tok_is(name, "pragma"))
        return MMD_OK;
    if (fx_tok_is(name, "error")) {
        char *text = fx_spell(f->p->a, d, 2, n);
        return fx_fail(f->p->err, MMD_E_BAD_STRUCTURE, f->name, name->line, "#error %s", text ? text : "");
    }
    return bad(f, name, "unknown directive", name);
}

static mmd_status run_file(file_ctx *f, const fx_toks *toks)
{
    mmd_status st = MMD_OK;
    for (size_t i = 0; st == MMD_OK && i < toks->n;) {
        const fx_tok *t = &toks->v[i];
        if ((t->flags & FX_F_BOL) && fx_tok_is(t, "#")) {
            size_t e = i + 1;
            while (e < toks->n && !(toks->v[e].flags & FX_F_BOL))
                e++;
            st = directive(f, t, e - i);
            i = e;
            continue;
        }
        if (active(f)) {
            fx_tok x = *t;
            x.file = f->shown;
            x.line += f->line_delta;
            if (!fx_toks_push(&f->pending, x))
                st = fx_fail(f->p->err, MMD_E_NOMEM, f->name, t->line, "out of memory");
        }
        i++;
    }
    if (st == MMD_OK)
        st = flush(f);
    if (st == MMD_OK && f->ncond > 0)
        st = fx_fail(f->p->err, MMD_E_BAD_STRUCTURE, f->name, f->conds[f->ncond - 1].line,
                     "#if without #endif before the end of the file");
    return st;
}

static mmd_status process_file(fx_pre *p, const char *text, size_t len, const char *name, int depth,
                               const char *const *chain, fx_toks *out)
{
    file_ctx *f = calloc(1, sizeof *f);
    if (!f)
        return fx_fail(p->err, MMD_E_NOMEM, name, 1, "out of memory");
    f->p = p;
    f->name = name;
    f->depth = depth;
    f->chain = chain;
    f->out = out;
    const char *slash = strrchr(name, '/');
    f->dir = slash ? mmd_arena_strndup(p->a, name, slash == name ? 1 : (size_t)(slash - name)) : ".";
    fx_toks toks = {0};
    mmd_status st = f->dir ? add_file(p, name, &f->file) : fx_fail(p->err, MMD_E_NOMEM, name, 1, "out of memory");
    p->files_read++;
    f->shown = f->file;
    if (st == MMD_OK)
        st = fx_lex(text, len, f->file, name, &toks, p->err);
    if (st == MMD_OK)
        st = run_file(f, &toks);
    fx_toks_free(&toks);
    fx_toks_free(&f->pending);
    free(f);
    return st;
}

mmd_status fx_preprocess(fx_pre *p, const void *data, size_t size, const char *path, fx_toks *out)
{
    if (size > MMD_FX_MAX_SOURCE_BYTES)
        return fx_fail(p->err, MMD_E_LIMIT, path, 1, "sources exceed %u bytes", MMD_FX_MAX_SOURCE_BYTES);
    size_t len = 0;
    char *text = fx_decode(p->a, data, size, &len);
    if (!text)
        return fx_fail(p->err, MMD_E_NOMEM, path, 1, "out of memory");
    p->source_bytes = size;
    char *name = mmd_arena_strdup(p->a, path);
    if (!name)
        return fx_fail(p->err, MMD_E_NOMEM, path, 1, "out of memory");
    for (char *c = name; *c; c++)
        if (*c == '\\')
            *c = '/';
    const char *chain[1] = {name};
    return process_file(p, text, len, name, 0, chain, out);
}
