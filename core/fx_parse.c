/* core/fx_parse.c - the effect grammar over the preprocessed tokens:
 * parameters with semantics and annotations, textures, samplers with
 * sampler_state, techniques and passes; functions, structs and typedefs are
 * kept as text (bodies skipped by bracket matching). Also mmd_fx_load and
 * the Script splitter. */
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "core/fx_internal.h"

typedef struct ps {
    mmd_arena *a;
    const fx_tok *t;
    size_t n, i;
    const char *const *files;
    mmd_error *err;
    mmd_status st;
    mmd_fx *fx;
    uint32_t cap_params, cap_textures, cap_samplers, cap_techniques, cap_code;
    struct fx_stateblock { /* stateblock NAME = stateblock_state { ... }: the '{' token */
        const char *name;
        size_t at;
    } *blocks;
    uint32_t block_count, cap_blocks;
} ps;

static const fx_tok k_eof = {"", 0, FX_T_EOF, 0, 0, 0};

static const fx_tok *cur(const ps *p)
{
    return p->i < p->n ? &p->t[p->i] : &k_eof;
}

static mmd_fx_loc loc_of(const ps *p, const fx_tok *t)
{
    const fx_tok *x = t->kind == FX_T_EOF && p->n ? &p->t[p->n - 1] : t;
    mmd_fx_loc l = {p->n ? p->files[x->file] : p->files[0], p->n ? x->line : 1};
    return l;
}

/* Fail once, naming what was expected and what came. */
static void expected(ps *p, const char *what)
{
    if (p->st != MMD_OK)
        return;
    const fx_tok *t = cur(p);
    mmd_fx_loc l = loc_of(p, t);
    if (t->kind == FX_T_EOF)
        p->st = fx_fail(p->err, MMD_E_BAD_STRUCTURE, l.file, l.line, "expected %s, got the end of the file", what);
    else
        p->st = fx_fail(p->err, MMD_E_BAD_STRUCTURE, l.file, l.line, "expected %s, got '%.*s'", what,
                        (int)(t->len < 40 ? t->len : 40), t->s);
}

static void nomem(ps *p)
{
    if (p->st == MMD_OK) {
        mmd_fx_loc l = loc_of(p, cur(p));
        p->st = fx_fail(p->err, MMD_E_NOMEM, l.file, l.line, "out of memory");
    }
}

static bool ieq(const fx_tok *t, const char *s)
{
    size_t n = strlen(s);
    if (t->kind != FX_T_IDENT || t->len != n)
        return false;
    for (size_t i = 0; i < n; i++) {
        char c = t->s[i];
        if ((c >= 'A' && c <= 'Z' ? c | 0x20 : c) != s[i])
            return false;
    }
    return true;
}

static bool accept(ps *p, const char *s)
{
    if (p->st == MMD_OK && p->i < p->n && fx_tok_is(&p->t[p->i], s) && p->t[p->i].kind == FX_T_PUNCT) {
        p->i++;
        return true;
    }
    return false;
}

static bool expect(ps *p, const char *s, const char *what)
{
    if (accept(p, s))
        return true;
    expected(p, what);
    return false;
}

static const char *ident(ps *p, const char *what)
{
    if (p->st == MMD_OK && cur(p)->kind == FX_T_IDENT) {
        const fx_tok *t = &p->t[p->i++];
        char *s = mmd_arena_strndup(p->a, t->s, t->len);
        if (!s)
            nomem(p);
        return s;
    }
    expected(p, what);
    return NULL;
}

static char *spell(ps *p, size_t a, size_t b)
{
    char *s = fx_spell(p->a, p->t, a, b);
    if (!s)
        nomem(p);
    return s;
}

/* Skip a bracketed run starting at the opening token; false (with an error) when unbalanced. */
static bool skip_balanced(ps *p, const char *open, const char *close, const char *what)
{
    size_t start = p->i;
    int level = 0;
    for (; p->i < p->n; p->i++) {
        const fx_tok *t = &p->t[p->i];
        if (t->kind != FX_T_PUNCT)
            continue;
        if (fx_tok_is(t, open))
            level++;
        else if (fx_tok_is(t, close) && --level == 0) {
            p->i++;
            return true;
        }
    }
    if (p->st == MMD_OK && start >= p->n) {
        expected(p, open);
    } else if (p->st == MMD_OK) {
        mmd_fx_loc l = loc_of(p, &p->t[start]);
        p->st = fx_fail(p->err, MMD_E_BAD_STRUCTURE, l.file, l.line, "expected %s to close the %s opened here",
                        close, what);
    }
    return false;
}

/* Tokens up to (not including) one of stops at bracket depth 0: [start, p->i). */
static void skip_to(ps *p, const char *stop1, const char *stop2)
{
    int level = 0;
    for (; p->i < p->n && p->st == MMD_OK; p->i++) {
        const fx_tok *t = &p->t[p->i];
        if (t->kind != FX_T_PUNCT)
            continue;
        if (level == 0 && (fx_tok_is(t, stop1) || (stop2 && fx_tok_is(t, stop2))))
            return;
        if (fx_tok_is(t, "(") || fx_tok_is(t, "{") || fx_tok_is(t, "["))
            level++;
        else if (fx_tok_is(t, ")") || fx_tok_is(t, "}") || fx_tok_is(t, "]"))
            level--;
        if (level < 0) {
            expected(p, stop1);
            return;
        }
    }
}

/* Append one element to an arena array that doubles. */
static void *grow(ps *p, void **v, uint32_t *n, uint32_t *cap, size_t size)
{
    if (*n == *cap) {
        uint32_t c = *cap ? *cap * 2 : 8;
        void *nv = mmd_arena_array(p->a, c, size);
        if (!nv) {
            nomem(p);
            return NULL;
        }
        if (*n)
            memcpy(nv, *v, (size_t)*n * size);
        *v = nv;
        *cap = c;
    }
    return (char *)*v + (size_t)(*n)++ * size;
}

/* A string literal's contents, escapes resolved. */
static char *unquote(ps *p, const fx_tok *t, char *into)
{
    size_t n = into ? strlen(into) : 0;
    char *s = mmd_arena_alloc(p->a, n + t->len + 1);
    if (!s) {
        nomem(p);
        return NULL;
    }
    if (into)
        memcpy(s, into, n);
    for (uint32_t k = 1; k + 1 < t->len; k++) {
        char c = t->s[k];
        if (c == '\\' && k + 2 < t->len) {
            c = t->s[++k];
            c = c == 'n' ? '\n' : c == 't' ? '\t' : c;
        }
        s[n++] = c;
    }
    s[n] = '\0';
    return s;
}

/* Numbers in tokens [a, b): up to 4, each optionally signed. */
static uint32_t numbers(const fx_tok *t, size_t a, size_t b, float out[4])
{
    uint32_t n = 0;
    for (size_t i = a; i < b && n < 4; i++) {
        if (t[i].kind != FX_T_NUMBER)
            continue;
        char buf[64];
        size_t len = t[i].len < sizeof buf - 1 ? t[i].len : sizeof buf - 1;
        memcpy(buf, t[i].s, len);
        buf[len] = '\0';
        float v = strtof(buf, NULL);
        if (len > 1 && buf[0] == '0' && (buf[1] == 'x' || buf[1] == 'X'))
            v = (float)strtoll(buf, NULL, 16);
        out[n++] = i > a && fx_tok_is(&t[i - 1], "-") ? -v : v;
    }
    return n;
}

static void annotation_value(ps *p, mmd_fx_annotation *an)
{
    if (cur(p)->kind == FX_T_STRING) {
        char *s = NULL;
        while (p->st == MMD_OK && cur(p)->kind == FX_T_STRING)
            s = unquote(p, &p->t[p->i++], s);
        an->kind = MMD_FX_VALUE_STRING;
        an->text = s;
        return;
    }
    size_t start = p->i;
    skip_to(p, ";", ">");
    if (p->st == MMD_OK && p->i == start)
        expected(p, "a value");
    if (p->st != MMD_OK)
        return;
    an->text = spell(p, start, p->i);
    if (p->i == start + 1 && (ieq(&p->t[start], "true") || ieq(&p->t[start], "false"))) {
        an->kind = MMD_FX_VALUE_BOOL;
        an->values[0] = ieq(&p->t[start], "true");
        an->value_count = 1;
        return;
    }
    an->value_count = numbers(p->t, start, p->i, an->values);
    an->kind = an->value_count ? MMD_FX_VALUE_NUMBER : MMD_FX_VALUE_OTHER;
}

/* < TYPE name = value; ... > (the '<' is current). */
static void annotations(ps *p, mmd_fx_annotation **list, uint32_t *count)
{
    uint32_t cap = 0;
    if (!accept(p, "<"))
        return;
    while (p->st == MMD_OK && !accept(p, ">")) {
        const char *type = ident(p, "an annotation type or >");
        const char *name = ident(p, "an annotation name");
        if (p->st == MMD_OK && fx_tok_is(cur(p), "["))
            skip_balanced(p, "[", "]", "annotation array");
        if (!expect(p, "=", "= after the annotation's name"))
            return;
        mmd_fx_annotation *an = grow(p, (void **)list, count, &cap, sizeof **list);
        if (!an)
            return;
        an->type = type;
        an->name = name;
        annotation_value(p, an);
        expect(p, ";", "; after the annotation's value");
    }
}

/* NAME[index] = value; until '}' (the '{' is current); compile values fill vs/ps when given. */
static void state_block(ps *p, mmd_fx_state **list, uint32_t *count, mmd_fx_shader *vs, mmd_fx_shader *ps_)
{
    uint32_t cap = 0;
    if (!expect(p, "{", "{"))
        return;
    while (p->st == MMD_OK && !accept(p, "}")) {
        int32_t line = cur(p)->line;
        const fx_tok *nt = cur(p);
        const char *name = ident(p, "a state name or }");
        int32_t index = -1;
        if (accept(p, "[")) {
            float v[4] = {0};
            size_t s = p->i;
            skip_to(p, "]", NULL);
            index = numbers(p->t, s, p->i, v) ? (int32_t)v[0] : 0;
            expect(p, "]", "]");
        }
        if (!expect(p, "=", "= after the state's name"))
            return;
        mmd_fx_shader *sh = ieq(nt, "vertexshader") ? vs : ieq(nt, "pixelshader") ? ps_ : NULL;
        if (sh && ieq(cur(p), "compile")) {
            p->i++;
            sh->profile = ident(p, "a shader profile after compile");
            sh->entry = ident(p, "the shader's function name");
            size_t s = p->i;
            if (p->st == MMD_OK && fx_tok_is(cur(p), "(") && skip_balanced(p, "(", ")", "argument list"))
                sh->args = spell(p, s + 1, p->i - 1);
            else if (p->st == MMD_OK)
                sh->args = "";
            expect(p, ";", "; after the shader");
            continue;
        }
        size_t s = p->i;
        skip_to(p, ";", "}");
        mmd_fx_state *st = p->st == MMD_OK ? grow(p, (void **)list, count, &cap, sizeof **list) : NULL;
        if (!st)
            return;
        st->name = name;
        st->index = index;
        st->line = line;
        size_t a = s, b = p->i;
        if (b - a == 3 && ((fx_tok_is(&p->t[a], "<") && fx_tok_is(&p->t[b - 1], ">")) ||
                           (fx_tok_is(&p->t[a], "(") && fx_tok_is(&p->t[b - 1], ")")))) {
            st->ref = true;
            a++;
            b--;
        }
        st->value = spell(p, a, b);
        expect(p, ";", "; after the state's value");
    }
}

/* A pass's `StateBlock = (NAME);` becomes the states and shaders of NAME's
 * stateblock_state block (parsed again from its tokens), in its place; the
 * pass's own shaders win. One level: a block naming another is kept as a state. */
static void apply_stateblocks(ps *p, mmd_fx_pass *pass)
{
    for (uint32_t k = 0; k < pass->state_count && p->st == MMD_OK; k++) {
        const mmd_fx_state *st = &pass->states[k];
        const struct fx_stateblock *b = NULL;
        for (uint32_t j = 0; j < p->block_count && !b; j++)
            if (!strcmp(p->blocks[j].name, st->value) && !strcasecmp(st->name, "StateBlock"))
                b = &p->blocks[j];
        if (!b)
            continue;
        mmd_fx_state *add = NULL;
        uint32_t add_count = 0;
        mmd_fx_shader vs = {0}, ps_ = {0};
        size_t back = p->i;
        p->i = b->at;
        state_block(p, &add, &add_count, &vs, &ps_);
        p->i = back;
        mmd_fx_state *all = mmd_arena_array(p->a, (size_t)pass->state_count + add_count, sizeof *all);
        if (!all) {
            nomem(p);
            return;
        }
        memcpy(all, pass->states, k * sizeof *all);
        if (add_count)
            memcpy(all + k, add, add_count * sizeof *all);
        memcpy(all + k + add_count, pass->states + k + 1, (pass->state_count - k - 1) * sizeof *all);
        pass->states = all;
        pass->state_count += add_count - 1;
        k += add_count - 1;
        if (!pass->vs.profile)
            pass->vs = vs;
        if (!pass->ps.profile)
            pass->ps = ps_;
    }
}

/* stateblock NAME = stateblock_state { ... }: remembered for the passes
 * that name it (apply_stateblocks); no parameter, no HLSL. */
static void stateblock(ps *p, const char *name)
{
    if (!expect(p, "=", "= after the stateblock's name"))
        return;
    if (!ieq(cur(p), "stateblock_state")) {
        expected(p, "stateblock_state");
        return;
    }
    p->i++;
    struct fx_stateblock *b = grow(p, (void **)&p->blocks, &p->block_count, &p->cap_blocks, sizeof *b);
    if (!b)
        return;
    b->name = name;
    b->at = p->i;
    if (p->st == MMD_OK && !fx_tok_is(cur(p), "{"))
        expected(p, "{ after stateblock_state");
    else
        skip_balanced(p, "{", "}", "stateblock");
}

static void pass(ps *p, mmd_fx_technique *tq, uint32_t *cap)
{
    mmd_fx_pass *ps_ = grow(p, (void **)&tq->passes, &tq->pass_count, cap, sizeof *ps_);
    if (!ps_)
        return;
    ps_->loc = loc_of(p, cur(p));
    p->i++; /* pass */
    ps_->name = cur(p)->kind == FX_T_IDENT ? ident(p, "") : "";
    annotations(p, &ps_->annotations, &ps_->annotation_count);
    state_block(p, &ps_->states, &ps_->state_count, &ps_->vs, &ps_->ps);
    apply_stateblocks(p, ps_);
}

static void technique(ps *p)
{
    mmd_fx *fx = p->fx;
    const fx_tok *kw = cur(p);
    if (ieq(kw, "technique10") || ieq(kw, "technique11")) {
        mmd_warn(&fx->warnings, &fx->warning_count, "fx.technique", kw->line, -1,
                 "technique10/11 is Direct3D 10/11, not MikuMikuEffect: skipped");
        mmd_fx_annotation *an = NULL;
        uint32_t n = 0;
        p->i++;
        if (cur(p)->kind == FX_T_IDENT)
            p->i++;
        annotations(p, &an, &n);
        if (p->st == MMD_OK && fx_tok_is(cur(p), "{"))
            skip_balanced(p, "{", "}", "technique");
        else
            expected(p, "{ after the technique's name");
        return;
    }
    mmd_fx_technique *tq = grow(p, (void **)&fx->techniques, &fx->technique_count, &p->cap_techniques, sizeof *tq);
    if (!tq)
        return;
    tq->loc = loc_of(p, kw);
    p->i++;
    tq->name = cur(p)->kind == FX_T_IDENT ? ident(p, "") : "";
    annotations(p, &tq->annotations, &tq->annotation_count);
    if (!expect(p, "{", "{ after the technique's name"))
        return;
    uint32_t cap = 0;
    while (p->st == MMD_OK && !accept(p, "}")) {
        if (!ieq(cur(p), "pass")) {
            expected(p, "pass or } in the technique");
            return;
        }
        pass(p, tq, &cap);
    }
}

static void add_code(ps *p, mmd_fx_code_kind kind, const char *name, size_t start)
{
    mmd_fx *fx = p->fx;
    if (p->st != MMD_OK)
        return;
    mmd_fx_code *c = grow(p, (void **)&fx->code, &fx->code_count, &p->cap_code, sizeof *c);
    if (!c)
        return;
    c->kind = kind;
    c->name = name ? name : "";
    c->text = spell(p, start, p->i);
    c->loc = loc_of(p, &p->t[start]);
    c->order = (uint32_t)start;
}

/* struct NAME { ... } [declarators] ; and typedef ... ; */
static void struct_or_typedef(ps *p)
{
    size_t start = p->i;
    if (ieq(cur(p), "typedef")) {
        skip_to(p, ";", NULL);
        if (expect(p, ";", "; after the typedef"))
            add_code(p, MMD_FX_CODE_TYPEDEF, "", start);
        return;
    }
    p->i++;
    const char *name = cur(p)->kind == FX_T_IDENT ? ident(p, "") : "";
    if (p->st == MMD_OK && !fx_tok_is(cur(p), "{")) {
        expected(p, "{ after the struct's name");
        return;
    }
    skip_balanced(p, "{", "}", "struct");
    skip_to(p, ";", NULL);
    if (expect(p, ";", "; after the struct"))
        add_code(p, MMD_FX_CODE_STRUCT, name, start);
}

static bool is_storage(const fx_tok *t)
{
    static const char *const k[] = {"static", "uniform", "shared", "const", "extern", "volatile", "inline",
                                    "row_major", "column_major", "precise", "groupshared", "nointerpolation"};
    for (size_t i = 0; i < sizeof k / sizeof *k; i++)
        if (fx_tok_is(t, k[i]))
            return true;
    return false;
}

static bool type_prefix(const char *type, const char *prefix)
{
    size_t n = strlen(prefix);
    if (strlen(type) < n)
        return false;
    for (size_t i = 0; i < n; i++)
        if ((type[i] >= 'A' && type[i] <= 'Z' ? type[i] | 0x20 : type[i]) != prefix[i])
            return false;
    return true;
}

/* After the name: [array] [: SEMANTIC] [<annotations>] [= init | sampler_state {...} | {...}] */
static void declarator(ps *p, mmd_fx_param *d, bool sampler)
{
    size_t s = p->i;
    if (fx_tok_is(cur(p), "[") && skip_balanced(p, "[", "]", "array size"))
        d->array = spell(p, s + 1, p->i - 1);
    if (accept(p, ":")) {
        s = p->i;
        ident(p, "a semantic after :");
        if (p->st == MMD_OK && fx_tok_is(cur(p), "("))
            skip_balanced(p, "(", ")", "register");
        d->semantic = p->st == MMD_OK ? spell(p, s, p->i) : NULL;
    }
    annotations(p, &d->annotations, &d->annotation_count);
    if (sampler && fx_tok_is(cur(p), "{")) { /* SamplerState s { ... } */
        state_block(p, &d->states, &d->state_count, NULL, NULL);
        return;
    }
    if (!accept(p, "="))
        return;
    if (ieq(cur(p), "sampler_state")) {
        p->i++;
        state_block(p, &d->states, &d->state_count, NULL, NULL);
        return;
    }
    s = p->i;
    skip_to(p, ";", ",");
    if (p->st == MMD_OK && p->i == s)
        expected(p, "an initializer after =");
    d->init = p->st == MMD_OK ? spell(p, s, p->i) : NULL;
}

/* [storage] TYPE NAME ...: a parameter (one per declarator) or a function. */
static void declaration(ps *p)
{
    mmd_fx *fx = p->fx;
    size_t start = p->i;
    while (p->i < p->n && is_storage(&p->t[p->i]))
        p->i++;
    const char *storage = spell(p, start, p->i);
    size_t ts = p->i;
    ident(p, "a declaration, technique or struct");
    if (p->st == MMD_OK && fx_tok_is(cur(p), "<")) /* vector<float, 4> */
        skip_balanced(p, "<", ">", "template arguments");
    const char *type = p->st == MMD_OK ? spell(p, ts, p->i) : NULL;
    for (;;) {
        const fx_tok *nt = cur(p);
        const char *name = ident(p, "a name after the type");
        if (p->st != MMD_OK)
            return;
        if (fx_tok_is(cur(p), "(")) { /* a function: (params) [: SEMANTIC] { body } or ; */
            skip_balanced(p, "(", ")", "parameter list");
            skip_to(p, "{", ";");
            if (p->st == MMD_OK && fx_tok_is(cur(p), "{"))
                skip_balanced(p, "{", "}", "function body");
            else
                expect(p, ";", "{ or ; after the function's parameters");
            add_code(p, MMD_FX_CODE_FUNCTION, name, start);
            return;
        }
        if (type_prefix(type, "stateblock") && !type[10]) {
            stateblock(p, name);
            if (accept(p, ","))
                continue;
            expect(p, ";", "; after the stateblock");
            return;
        }
        bool texture = type_prefix(type, "texture"), sampler = type_prefix(type, "sampler");
        mmd_fx_param *d = texture   ? grow(p, (void **)&fx->textures, &fx->texture_count, &p->cap_textures, sizeof *d)
                          : sampler ? grow(p, (void **)&fx->samplers, &fx->sampler_count, &p->cap_samplers, sizeof *d)
                                    : grow(p, (void **)&fx->params, &fx->param_count, &p->cap_params, sizeof *d);
        if (!d)
            return;
        d->storage = storage;
        d->type = type;
        d->name = name;
        d->loc = loc_of(p, nt);
        d->order = (uint32_t)(nt - p->t);
        declarator(p, d, sampler);
        if (accept(p, ","))
            continue;
        expect(p, ";", "; after the declaration");
        return;
    }
}

static void top_level(ps *p)
{
    while (p->st == MMD_OK && p->i < p->n) {
        const fx_tok *t = cur(p);
        if (accept(p, ";"))
            continue;
        if (ieq(t, "technique") || ieq(t, "technique10") || ieq(t, "technique11"))
            technique(p);
        else if (ieq(t, "struct") || ieq(t, "typedef"))
            struct_or_typedef(p);
        else
            declaration(p);
    }
}

mmd_status fx_parse_tokens(mmd_fx *fx, const fx_tok *t, size_t n, const char *const *files, mmd_error *err)
{
    ps p = {fx->arena, t, n, 0, files, err, MMD_OK, fx, 0, 0, 0, 0, 0, NULL, 0, 0};
    top_level(&p);
    return p.st;
}
