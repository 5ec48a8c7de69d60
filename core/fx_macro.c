/* core/fx_macro.c - the effect preprocessor's macros: the table, and
 * expansion with # (stringize), ## (paste), argument pre-expansion and
 * rescanning. Replacement tokens take the file and line of the name they
 * replace, so errors point at the use. Every token made counts against
 * MMD_FX_MAX_TOKENS and argument expansion nests at most
 * MMD_FX_MAX_MACRO_DEPTH deep, so a macro bomb stops early and in time
 * proportional to the cap. */
#include <stdlib.h>
#include <string.h>

#include "core/fx_macro.h"

#define FX_T_POP 100 /* stack marker: the macro in .s ends here (re-enabled) */
#define BUCKETS 1024u

struct fx_macros {
    fx_macro *bucket[BUCKETS];
};

static uint32_t hash(const char *s, size_t n)
{
    uint32_t h = 2166136261u;
    for (size_t i = 0; i < n; i++)
        h = (h ^ (unsigned char)s[i]) * 16777619u;
    return h % BUCKETS;
}

fx_macro *fx_macro_find(fx_pre *p, const char *s, size_t n)
{
    struct fx_macros *m = p->macros;
    if (!m)
        return NULL;
    for (fx_macro *x = m->bucket[hash(s, n)]; x; x = x->next)
        if (x->defined && strlen(x->name) == n && memcmp(x->name, s, n) == 0)
            return x;
    return NULL;
}

fx_macro *fx_macro_add(fx_pre *p, const char *s, size_t n)
{
    if (!p->macros && !(p->macros = calloc(1, sizeof(struct fx_macros))))
        return NULL;
    struct fx_macros *m = p->macros;
    uint32_t h = hash(s, n);
    fx_macro *x = NULL;
    for (x = m->bucket[h]; x; x = x->next)
        if (strlen(x->name) == n && memcmp(x->name, s, n) == 0)
            break;
    if (!x) {
        x = mmd_arena_alloc(p->a, sizeof *x);
        if (!x || !(x->name = mmd_arena_strndup(p->a, s, n)))
            return NULL;
        x->next = m->bucket[h];
        m->bucket[h] = x;
    }
    x->defined = true;
    x->function_like = x->variadic = x->disabled = false;
    x->params = NULL;
    x->param_count = 0;
    x->body = NULL;
    x->body_count = 0;
    return x;
}

void fx_pre_release(fx_pre *p)
{
    free(p->macros);
    p->macros = NULL;
}

static mmd_status count_made(fx_pre *p, size_t n, const fx_tok *at)
{
    p->tokens_made += n;
    if (p->tokens_made > MMD_FX_MAX_TOKENS)
        return fx_fail(p->err, MMD_E_LIMIT, p->files[at->file], at->line,
                       "macro expansion makes more than %u tokens (a macro bomb?)", MMD_FX_MAX_TOKENS);
    return MMD_OK;
}

static mmd_status push(fx_pre *p, fx_toks *t, fx_tok tok)
{
    if (!fx_toks_push(t, tok))
        return fx_fail(p->err, MMD_E_NOMEM, p->files[tok.file], tok.line, "out of memory");
    return MMD_OK;
}

static int param_index(const fx_macro *m, const fx_tok *t)
{
    if (t->kind != FX_T_IDENT)
        return -1;
    for (uint32_t i = 0; i < m->param_count; i++)
        if (strlen(m->params[i]) == t->len && memcmp(m->params[i], t->s, t->len) == 0)
            return (int)i;
    return -1;
}

/* Arguments of one call: raw tokens, split, and each one's expansion (made on
 * demand); the arrays hold param_count + 2 entries. */
typedef struct call_args {
    fx_toks raw;
    size_t *start; /* arg i is raw[start[i], start[i+1]) */
    uint32_t count, cap;
    fx_toks *expanded;
    bool *have;
} call_args;

static bool args_init(call_args *c, uint32_t params)
{
    c->cap = params + 2;
    c->start = calloc(c->cap, sizeof *c->start);
    c->expanded = calloc(c->cap, sizeof *c->expanded);
    c->have = calloc(c->cap, sizeof *c->have);
    return c->start && c->expanded && c->have;
}

static void args_free(call_args *c)
{
    fx_toks_free(&c->raw);
    for (uint32_t i = 0; c->expanded && i < c->cap; i++)
        fx_toks_free(&c->expanded[i]);
    free(c->start);
    free(c->expanded);
    free(c->have);
}

static char *stringize(fx_pre *p, const fx_tok *t, size_t n, uint32_t *len)
{
    size_t need = 3;
    for (size_t i = 0; i < n; i++)
        need += t[i].len * 2 + 1;
    char *s = mmd_arena_alloc(p->a, need), *w = s;
    if (!s)
        return NULL;
    *w++ = '"';
    for (size_t i = 0; i < n; i++) {
        if (i > 0 && (t[i].flags & (FX_F_SPACE | FX_F_BOL)))
            *w++ = ' ';
        for (uint32_t k = 0; k < t[i].len; k++) {
            char c = t[i].s[k];
            if (t[i].kind == FX_T_STRING && (c == '"' || c == '\\'))
                *w++ = '\\';
            *w++ = c;
        }
    }
    *w++ = '"';
    *len = (uint32_t)(w - s);
    return s;
}

static mmd_status paste(fx_pre *p, fx_tok *left, const fx_tok *right)
{
    char *s = mmd_arena_alloc(p->a, (size_t)left->len + right->len + 1);
    if (!s)
        return fx_fail(p->err, MMD_E_NOMEM, p->files[left->file], left->line, "out of memory");
    memcpy(s, left->s, left->len);
    memcpy(s + left->len, right->s, right->len);
    left->s = s;
    left->len += right->len;
    unsigned char c = (unsigned char)s[0];
    if (c >= '0' && c <= '9')
        left->kind = FX_T_NUMBER;
    else if (c == '"')
        left->kind = FX_T_STRING;
    else if (c == '_' || c >= 0x80 || ((c | 0x20) >= 'a' && (c | 0x20) <= 'z'))
        left->kind = FX_T_IDENT;
    else
        left->kind = FX_T_PUNCT;
    return MMD_OK;
}

static mmd_status expand_list(fx_pre *p, const fx_tok *in, size_t n, fx_toks *out, int depth);

/* The tokens a use of parameter `pi` stands for: raw next to ## or #, else expanded. */
static mmd_status arg_tokens(fx_pre *p, call_args *c, uint32_t pi, bool raw, int depth, const fx_tok **t,
                             size_t *n)
{
    if (pi >= c->count) {
        *t = NULL;
        *n = 0;
        return MMD_OK;
    }
    const fx_tok *r = c->raw.v ? c->raw.v + c->start[pi] : NULL; /* no tokens: NULL */
    size_t rn = c->start[pi + 1] - c->start[pi];
    if (raw) {
        *t = r;
        *n = rn;
        return MMD_OK;
    }
    if (!c->have[pi]) {
        mmd_status st = expand_list(p, r, rn, &c->expanded[pi], depth + 1);
        if (st != MMD_OK)
            return st;
        c->have[pi] = true;
    }
    *t = c->expanded[pi].v;
    *n = c->expanded[pi].n;
    return MMD_OK;
}

/* Append tokens to the replacement, pasting the first onto the last when *paste_next. */
static mmd_status put(fx_pre *p, fx_toks *r, const fx_tok *t, size_t n, const fx_tok *at, bool *paste_next)
{
    for (size_t i = 0; i < n; i++) {
        fx_tok x = t[i];
        x.file = at->file;
        x.line = at->line;
        mmd_status st;
        if (*paste_next && r->n > 0)
            st = paste(p, &r->v[r->n - 1], &x);
        else
            st = push(p, r, x);
        if (st != MMD_OK)
            return st;
        *paste_next = false;
    }
    return MMD_OK;
}

/* Build the replacement of m (args when function-like) used at `at`. */
static mmd_status substitute(fx_pre *p, const fx_macro *m, call_args *c, const fx_tok *at, fx_toks *r,
                             int depth)
{
    bool paste_next = false;
    for (uint32_t i = 0; i < m->body_count; i++) {
        const fx_tok *b = &m->body[i];
        int pi = m->function_like ? param_index(m, b) : -1;
        mmd_status st = MMD_OK;
        if (fx_tok_is(b, "##") && i > 0 && i + 1 < m->body_count) {
            paste_next = true;
            continue;
        }
        if (m->function_like && fx_tok_is(b, "#") && i + 1 < m->body_count && param_index(m, &b[1]) >= 0) {
            const fx_tok *t;
            size_t n;
            fx_tok s = *b;
            st = arg_tokens(p, c, (uint32_t)param_index(m, &b[1]), true, depth, &t, &n);
            if (st == MMD_OK && !(s.s = stringize(p, t, n, &s.len)))
                return fx_fail(p->err, MMD_E_NOMEM, p->files[at->file], at->line, "out of memory");
            s.kind = FX_T_STRING;
            if (st == MMD_OK)
                st = put(p, r, &s, 1, at, &paste_next);
            i++;
        } else if (pi >= 0) {
            bool raw = paste_next || (i + 1 < m->body_count && fx_tok_is(&b[1], "##"));
            const fx_tok *t;
            size_t n;
            st = arg_tokens(p, c, (uint32_t)pi, raw, depth, &t, &n);
            if (st == MMD_OK)
                st = put(p, r, t, n, at, &paste_next);
            paste_next = false;
        } else {
            st = put(p, r, b, 1, at, &paste_next);
        }
        if (st != MMD_OK)
            return st;
    }
    if (r->n > 0)
        r->v[0].flags = (uint16_t)((r->v[0].flags & ~(FX_F_SPACE | FX_F_BOL)) | (at->flags & (FX_F_SPACE | FX_F_BOL)));
    return count_made(p, r->n, at);
}

/* The next real token on the stack (markers skipped), NULL when none. */
static const fx_tok *peek(const fx_toks *st)
{
    for (size_t i = st->n; i > 0; i--)
        if (st->v[i - 1].kind != FX_T_POP)
            return &st->v[i - 1];
    return NULL;
}

static void pop_marker(fx_tok t)
{
    ((fx_macro *)(uintptr_t)t.s)->disabled = false;
}

/* Collect the arguments of a call of m; the stack's next real token is '('. */
static mmd_status collect_args(fx_pre *p, const fx_macro *m, fx_toks *stack, const fx_tok *at, call_args *c)
{
    int level = 0;
    c->count = 0;
    while (stack->n > 0) {
        fx_tok t = stack->v[--stack->n];
        if (t.kind == FX_T_POP) {
            pop_marker(t);
            continue;
        }
        if (fx_tok_is(&t, "(") && level++ == 0)
            continue;
        if (fx_tok_is(&t, ")") && --level == 0) {
            if (c->raw.n > c->start[c->count] || c->count > 0 || m->param_count > 0)
                c->start[++c->count] = c->raw.n; /* count <= param_count (splits stop before) */
            if (c->count != m->param_count && !(m->variadic && c->count >= m->param_count - 1))
                return fx_fail(p->err, MMD_E_BAD_STRUCTURE, p->files[at->file], at->line,
                               "macro %s expects %u argument(s), got %u", m->name, m->param_count, c->count);
            return MMD_OK;
        }
        bool split = level == 1 && fx_tok_is(&t, ",") && !(m->variadic && c->count + 1 >= m->param_count);
        if (split) {
            if (c->count + 1 >= m->param_count)
                return fx_fail(p->err, MMD_E_BAD_STRUCTURE, p->files[at->file], at->line,
                               "macro %s expects %u argument(s), got more", m->name, m->param_count);
            c->start[++c->count] = c->raw.n;
            continue;
        }
        mmd_status st = push(p, &c->raw, t);
        if (st != MMD_OK)
            return st;
    }
    return fx_fail(p->err, MMD_E_BAD_STRUCTURE, p->files[at->file], at->line,
                   "unterminated call of macro %s: expected )", m->name);
}

/* Expand the macro named by t (whose next token, for a function-like one, is
 * '('): push its replacement and an end marker onto the stack. */
static mmd_status expand_one(fx_pre *p, fx_macro *m, const fx_tok *t, fx_toks *stack, int depth)
{
    call_args args = {0}, *c = &args;
    fx_toks r = {0};
    mmd_status st = MMD_OK;
    if (m->function_like && !args_init(c, m->param_count))
        st = fx_fail(p->err, MMD_E_NOMEM, p->files[t->file], t->line, "out of memory");
    if (st == MMD_OK && m->function_like)
        st = collect_args(p, m, stack, t, c);
    if (st == MMD_OK)
        st = substitute(p, m, c, t, &r, depth);
    fx_tok marker = {(const char *)(uintptr_t)m, 0, FX_T_POP, 0, t->file, t->line};
    if (st == MMD_OK)
        st = push(p, stack, marker);
    for (size_t i = r.n; st == MMD_OK && i > 0; i--)
        st = push(p, stack, r.v[i - 1]);
    if (st == MMD_OK)
        m->disabled = true;
    fx_toks_free(&r);
    args_free(c);
    return st;
}

static mmd_status expand_list(fx_pre *p, const fx_tok *in, size_t n, fx_toks *out, int depth)
{
    if (depth > MMD_FX_MAX_MACRO_DEPTH)
        return fx_fail(p->err, MMD_E_LIMIT, n ? p->files[in->file] : "?", n ? in->line : 0,
                       "macro arguments nest deeper than %d", MMD_FX_MAX_MACRO_DEPTH);
    fx_toks stack = {0};
    mmd_status st = MMD_OK;
    for (size_t i = n; st == MMD_OK && i > 0; i--)
        st = push(p, &stack, in[i - 1]);
    while (st == MMD_OK && stack.n > 0) {
        fx_tok t = stack.v[--stack.n];
        if (t.kind == FX_T_POP) {
            pop_marker(t);
            continue;
        }
        fx_macro *m = t.kind == FX_T_IDENT && !(t.flags & FX_F_NOEXPAND) ? fx_macro_find(p, t.s, t.len) : NULL;
        if (m && m->disabled)
            t.flags |= FX_F_NOEXPAND;
        else if (m && m->function_like) {
            const fx_tok *next = peek(&stack);
            if (next && fx_tok_is(next, "(")) {
                st = expand_one(p, m, &t, &stack, depth);
                continue;
            }
        } else if (m) {
            st = expand_one(p, m, &t, &stack, depth);
            continue;
        }
        st = push(p, out, t);
    }
    /* markers left (an error stopped the loop) re-enable their macros */
    for (size_t i = 0; i < stack.n; i++)
        if (stack.v[i].kind == FX_T_POP)
            pop_marker(stack.v[i]);
    fx_toks_free(&stack);
    return st;
}

mmd_status fx_macro_expand(fx_pre *p, const fx_tok *in, size_t n, fx_toks *out)
{
    mmd_status st = count_made(p, n, n ? in : &(fx_tok){0});
    return st == MMD_OK ? expand_list(p, in, n, out, 0) : st;
}
