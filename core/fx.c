/* core/fx.c - mmd_fx_load: preprocess, parse, then the HLSL text a compiler
 * needs; the Script splitter and annotation lookup. */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "core/fx_internal.h"

/* A growing text buffer (malloc'd) for the HLSL output. */
typedef struct sbuf {
    char *s;
    size_t n, cap;
    bool oom;
} sbuf;

static void put(sbuf *b, const char *s)
{
    size_t n = strlen(s);
    if (b->oom)
        return;
    if (b->n + n + 1 > b->cap) {
        size_t cap = (b->n + n + 1) * 2;
        char *ns = realloc(b->s, cap);
        if (!ns) {
            b->oom = true;
            return;
        }
        b->s = ns;
        b->cap = cap;
    }
    memcpy(b->s + b->n, s, n + 1);
    b->n += n;
}

static void put_line(sbuf *b, mmd_fx_loc l)
{
    char buf[48];
    snprintf(buf, sizeof buf, "#line %d \"", (int)l.line);
    put(b, buf);
    put(b, l.file);
    put(b, "\"\n");
}

/* Whether a function's text calls FAMILY* (tex3D, tex3Dlod, ...) with the
 * sampler `name` as its first argument. */
static bool reads_with(const char *text, const char *family, const char *name)
{
    size_t fl = strlen(family), nl = strlen(name);
    for (const char *p = strstr(text, family); p; p = strstr(p + 1, family)) {
        if (p > text && (isalnum((unsigned char)p[-1]) || p[-1] == '_'))
            continue;
        const char *q = p + fl;
        while (isalnum((unsigned char)*q) || *q == '_')
            q++; /* tex3Dlod, texCUBEbias ... */
        while (isspace((unsigned char)*q))
            q++;
        if (*q++ != '(')
            continue;
        while (isspace((unsigned char)*q))
            q++;
        if (!strncmp(q, name, nl) && !isalnum((unsigned char)q[nl]) && q[nl] != '_')
            return true;
    }
    return false;
}

/* The HLSL type an untyped `sampler` is declared with, as D3DX's effect
 * framework types it: by its texture's declared type (texture3D,
 * textureCUBE), that texture's ResourceType annotation ("3D", "VOLUME",
 * "CUBE"), or the tex3D / texCUBE calls that read it; otherwise as written
 * (glslang's DX9 mode reads a plain sampler as 2D). */
static const char *sampler_type(const mmd_fx *fx, const mmd_fx_param *d)
{
    if (strcasecmp(d->type, "sampler"))
        return d->type;
    const char *tex = NULL;
    for (uint32_t i = 0; i < d->state_count && !tex; i++)
        if (!strcasecmp(d->states[i].name, "Texture"))
            tex = d->states[i].value;
    for (uint32_t i = 0; tex && i < fx->texture_count; i++) {
        const mmd_fx_param *t = &fx->textures[i];
        if (strcmp(t->name, tex))
            continue;
        const mmd_fx_annotation *a = mmd_fx_annotation_find(t->annotations, t->annotation_count, "ResourceType");
        const char *rt = a && a->kind == MMD_FX_VALUE_STRING ? a->text : "";
        if (!strcasecmp(t->type, "texture3D") || !strcasecmp(rt, "3D") || !strcasecmp(rt, "VOLUME"))
            return "sampler3D";
        if (!strcasecmp(t->type, "textureCUBE") || !strcasecmp(rt, "CUBE"))
            return "samplerCUBE";
    }
    for (uint32_t i = 0; i < fx->code_count; i++) {
        if (fx->code[i].kind != MMD_FX_CODE_FUNCTION)
            continue;
        if (reads_with(fx->code[i].text, "tex3D", d->name))
            return "sampler3D";
        if (reads_with(fx->code[i].text, "texCUBE", d->name))
            return "samplerCUBE";
    }
    return d->type;
}

/* The elements of an initializer list "{a, f(b, c), {d}}" at its top level
 * (3; a trailing comma adds none); 0 when init is no list. */
static uint32_t list_count(const char *init)
{
    if (!init || init[0] != '{')
        return 0;
    uint32_t n = 0;
    int depth = 0;
    bool item = false;
    for (const char *c = init; *c; c++) {
        if (*c == '{' || *c == '(' || *c == '[')
            depth++;
        else if (*c == '}' || *c == ')' || *c == ']')
            depth--;
        if (depth == 1 && *c == ',') {
            n += item;
            item = false;
        } else if (depth >= 1 && !isspace((unsigned char)*c) && !(depth == 1 && *c == '{')) {
            item = true;
        }
        if (depth == 0)
            break;
    }
    return n + item;
}

/* The element count of an array global: its [N], or for "T X[] = {...}"
 * (DX9 sizes it by the list; glslang wants a size) its list's; 0 when
 * neither is a plain number. */
static uint32_t array_count(const mmd_fx_param *d)
{
    if (!d->array)
        return 0;
    if (!d->array[0])
        return list_count(d->init);
    char *end = NULL;
    unsigned long n = strtoul(d->array, &end, 10);
    return end && *end == 0 && n <= UINT32_MAX ? (uint32_t)n : 0;
}

static void put_dims(sbuf *b, const mmd_fx_param *d)
{
    if (!d->array)
        return;
    char n[16];
    uint32_t count = d->array[0] ? 0 : array_count(d);
    snprintf(n, sizeof n, "%u", count);
    put(b, "[");
    put(b, count ? n : d->array);
    put(b, "]");
}

static void put_static(sbuf *b, const mmd_fx_param *d, const char *init)
{
    put(b, "static ");
    put(b, d->type);
    put(b, " ");
    put(b, d->name);
    put_dims(b, d);
    put(b, init ? " = " MMD_FX_WRITTEN_PREFIX : "");
    put(b, init ? init : "");
    put(b, ";\n");
}

static bool is_ident_char(char c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
}

/* Past spaces and then the character want at *c; false when another comes. */
static bool skip_to(const char **c, char want)
{
    while (isspace((unsigned char)**c))
        (*c)++;
    if (**c != want)
        return false;
    (*c)++;
    while (isspace((unsigned char)**c))
        (*c)++;
    return true;
}

/* The components a vector type has: float4 4, half2 2, float 1; 0 for
 * matrices and what is no scalar or vector. */
static int vector_size(const char *type)
{
    static const char *const scalars[] = {"float", "half", "int", "bool", "double", "uint"};
    for (size_t i = 0; i < sizeof scalars / sizeof scalars[0]; i++) {
        size_t n = strlen(scalars[i]);
        if (strncmp(type, scalars[i], n))
            continue;
        if (!type[n])
            return 1;
        return type[n] >= '1' && type[n] <= '4' && !type[n + 1] ? type[n] - '0' : 0;
    }
    return 0;
}

/* DX9's array reinterpretation as a global's initializer,
 * "static float W[8] = (float[8])Weights;" with Weights a global float4[2]
 * (Ikeno's blur weights): glslang has no array casts, so the initializer
 * becomes the list of Weights' components in order, "{Weights[0].x, ...}".
 * Written to b (with " = "); false, nothing written, when init is no such
 * cast. */
static bool put_array_cast(sbuf *b, const mmd_fx *fx, const mmd_fx_param *d)
{
    if (!d->array || vector_size(d->type) != 1)
        return false;
    const char *c = d->init;
    size_t tn = strlen(d->type);
    if (!skip_to(&c, '(') || strncmp(c, d->type, tn) || is_ident_char(c[tn]))
        return false;
    c += tn;
    if (!skip_to(&c, '[') || !isdigit((unsigned char)*c))
        return false;
    unsigned long n = strtoul(c, (char **)&c, 10);
    if (!skip_to(&c, ']') || !skip_to(&c, ')') || n == 0 || n > MMD_FX_MAX_ARRAY_CAST || n != array_count(d))
        return false;
    while (isspace((unsigned char)*c))
        c++;
    const char *src = c;
    while (is_ident_char(*c))
        c++;
    size_t sn = (size_t)(c - src);
    while (isspace((unsigned char)*c))
        c++;
    const mmd_fx_param *from = NULL;
    for (uint32_t i = 0; i < fx->param_count && !*c && sn && !from; i++)
        from = strlen(fx->params[i].name) == sn && !memcmp(fx->params[i].name, src, sn) ? &fx->params[i] : NULL;
    int width = from ? vector_size(from->type) : 0;
    if (!width || (uint64_t)array_count(from) * (uint64_t)width < n)
        return false;
    put(b, " = {");
    for (unsigned long k = 0; k < n; k++) {
        char item[32];
        put(b, k ? ", " : "");
        put(b, from->name);
        snprintf(item, sizeof item, "[%lu]%s%.*s", k / (unsigned long)width, width > 1 ? "." : "", width > 1 ? 1 : 0,
                 "xyzw" + k % (unsigned long)width);
        put(b, item);
    }
    put(b, "}");
    return true;
}

/* One typed global as HLSL: [storage] TYPE NAME[array] [: SEMANTIC] [= init];
 * deferred: "static TYPE NAME[array];" (set in MMD_FX_STATIC_INIT); written:
 * the uniform as MMD_FX_WRITTEN_PREFIX NAME and "static TYPE NAME = it;". */
static void put_param(sbuf *b, const mmd_fx *fx, const mmd_fx_param *d, bool sampler, char mode)
{
    put_line(b, d->loc);
    if (mode == 'd') {
        put_static(b, d, NULL);
        return;
    }
    if (!sampler && d->storage[0]) {
        put(b, d->storage);
        put(b, " ");
    }
    put(b, sampler ? sampler_type(fx, d) : d->type);
    put(b, " ");
    put(b, mode == 'w' ? MMD_FX_WRITTEN_PREFIX : "");
    put(b, d->name);
    put_dims(b, d);
    if (d->semantic && !sampler) {
        put(b, " : ");
        put(b, d->semantic);
    }
    if (d->init && !sampler && !put_array_cast(b, fx, d)) {
        put(b, " = ");
        put(b, d->init);
    }
    put(b, ";\n");
    if (mode == 'w')
        put_static(b, d, d->name);
}

/* Whether s[0..n) names a function of the effect (call) or a deferred global. */
static bool names_deferred(const mmd_fx *fx, const bool *deferred, const char *s, size_t n, bool call)
{
    if (call)
        for (uint32_t i = 0; i < fx->code_count; i++)
            if (fx->code[i].kind == MMD_FX_CODE_FUNCTION && strlen(fx->code[i].name) == n &&
                !memcmp(fx->code[i].name, s, n))
                return true;
    for (uint32_t i = 0; i < fx->param_count; i++)
        if (deferred[i] && strlen(fx->params[i].name) == n && !memcmp(fx->params[i].name, s, n))
            return true;
    return false;
}

/* Whether a static global's initializer must run in MMD_FX_STATIC_INIT:
 * glslang 12.0 counts a call at global scope as a call from the function
 * above it ("Recursion detected: F calling F"), so an initializer calling a
 * function of the effect, or reading a global so set, is deferred (an
 * initializer list `{...}` cannot be assigned and is kept). */
static bool must_defer(const mmd_fx *fx, const mmd_fx_param *d, const bool *deferred)
{
    if (!d->init || d->init[0] == '{' || !strstr(d->storage, "static"))
        return false;
    for (const char *s = d->init; *s;) {
        if (!is_ident_char(*s)) {
            s++;
            continue;
        }
        const char *w = s;
        while (is_ident_char(*s))
            s++;
        const char *after = s;
        while (*after == ' ' || *after == '\t' || *after == '\n')
            after++;
        if (!(*w >= '0' && *w <= '9') && (w == d->init || w[-1] != '.') &&
            names_deferred(fx, deferred, w, (size_t)(s - w), *after == '('))
            return true;
    }
    return false;
}

/* Whether text assigns to the global `name` (NAME[.member|[i]] op= / ++ / --,
 * or ++NAME): not after '.', so a struct member of that name is not it. */
static bool assigns(const char *text, const char *name)
{
    size_t n = strlen(name);
    for (const char *p = strstr(text, name); p; p = strstr(p + 1, name)) {
        if ((p > text && (is_ident_char(p[-1]) || p[-1] == '.')) || is_ident_char(p[n]))
            continue;
        const char *q = p - 1;
        while (q >= text && (*q == ' ' || *q == '\t'))
            q--;
        if (q > text && ((q[0] == '+' && q[-1] == '+') || (q[0] == '-' && q[-1] == '-')))
            return true;
        const char *e = p + n;
        for (;;) { /* .member and [index] */
            while (*e == ' ' || *e == '\t')
                e++;
            if (*e == '.' && is_ident_char(e[1])) {
                for (e++; is_ident_char(*e); e++) {
                }
            } else if (*e == '[') {
                int depth = 0;
                for (; *e && (*e != ']' || --depth > 0); e++)
                    depth += *e == '[';
                e += *e == ']';
            } else
                break;
        }
        if ((e[0] == '=' && e[1] != '=') || ((e[0] == '+' || e[0] == '-') && e[1] == e[0]) ||
            (strchr("+-*/%&|^", e[0]) && e[0] && e[1] == '=') ||
            ((e[0] == '<' || e[0] == '>') && e[1] == e[0] && e[2] == '='))
            return true;
    }
    return false;
}

/* Whether a uniform global is assigned to in any function of the effect. */
static bool written(const mmd_fx *fx, const mmd_fx_param *d)
{
    if (strstr(d->storage, "static") || strstr(d->storage, "const"))
        return false;
    for (uint32_t i = 0; i < fx->code_count; i++)
        if (fx->code[i].kind == MMD_FX_CODE_FUNCTION && assigns(fx->code[i].text, d->name))
            return true;
    return false;
}

/* void MMD_FX_STATIC_INIT() { NAME = init; ... } for the deferred globals. */
static void put_static_init(sbuf *b, const mmd_fx *fx, const bool *deferred)
{
    put(b, "void " MMD_FX_STATIC_INIT "()\n{\n");
    for (uint32_t i = 0; i < fx->param_count; i++)
        if (deferred[i]) {
            put_line(b, fx->params[i].loc);
            put(b, fx->params[i].name);
            put(b, " = ");
            put(b, fx->params[i].init);
            put(b, ";\n");
        }
    put(b, "}\n");
}

static void put_code(sbuf *b, const mmd_fx_code *c)
{
    put_line(b, c->loc);
    put(b, c->text);
    put(b, "\n");
}

/* Structs, typedefs, functions, typed globals and samplers in the order the
 * effect declares them (as fxc reads it: a static global may call a function
 * above it, a function use a struct or global above it), each with its #line;
 * textures are the runtime's, not HLSL's. */
static mmd_status build_hlsl(mmd_fx *fx, mmd_error *err)
{
    sbuf b = {0};
    bool *deferred = fx->param_count ? calloc(fx->param_count, sizeof *deferred) : NULL;
    if (fx->param_count && !deferred)
        return mmd_error_set(err, MMD_E_NOMEM, "fx", -1, -1, "out of memory");
    for (uint32_t i = 0; i < fx->param_count; i++)
        fx->static_init |= deferred[i] = must_defer(fx, &fx->params[i], deferred);
    uint32_t c = 0, d = 0, s = 0;
    while (c < fx->code_count || d < fx->param_count || s < fx->sampler_count) {
        uint32_t oc = c < fx->code_count ? fx->code[c].order : UINT32_MAX;
        uint32_t od = d < fx->param_count ? fx->params[d].order : UINT32_MAX;
        uint32_t os = s < fx->sampler_count ? fx->samplers[s].order : UINT32_MAX;
        if (oc <= od && oc <= os)
            put_code(&b, &fx->code[c++]);
        else if (od <= os) {
            const mmd_fx_param *p = &fx->params[d];
            put_param(&b, fx, p, false, deferred[d] ? 'd' : written(fx, p) ? 'w' : 0);
            d++;
        } else
            put_param(&b, fx, &fx->samplers[s++], true, 0);
    }
    if (fx->static_init)
        put_static_init(&b, fx, deferred);
    free(deferred);
    put(&b, "");
    fx->hlsl = b.oom ? NULL : mmd_arena_strdup(fx->arena, b.s ? b.s : "");
    free(b.s);
    return fx->hlsl ? MMD_OK : mmd_error_set(err, MMD_E_NOMEM, "fx", -1, -1, "out of memory");
}

mmd_status mmd_fx_load(const void *data, size_t size, const char *path, const mmd_fx_loader *loader,
                       mmd_fx **out, mmd_error *err)
{
    if (!data && size)
        return mmd_error_set(err, MMD_E_BAD_VALUE, "fx", -1, -1, "no data");
    mmd_arena *a = mmd_arena_create();
    mmd_fx *fx = a ? mmd_arena_alloc(a, sizeof *fx) : NULL;
    if (!fx) {
        mmd_arena_destroy(a);
        return mmd_error_set(err, MMD_E_NOMEM, "fx", -1, -1, "out of memory");
    }
    fx->arena = a;
    fx_pre p = {.a = a, .loader = loader, .err = err};
    fx_toks toks = {0};
    mmd_status st = fx_preprocess(&p, data ? data : "", size, path ? path : "effect.fx", &toks);
    fx_pre_release(&p);
    if (st == MMD_OK)
        st = fx_parse_tokens(fx, toks.v, toks.n, p.files, err);
    fx_toks_free(&toks);
    fx->file_count = p.files_read;
    if (st == MMD_OK)
        st = build_hlsl(fx, err);
    if (st != MMD_OK) {
        mmd_arena_destroy(a);
        return st;
    }
    *out = fx;
    return MMD_OK;
}

void mmd_fx_free(mmd_fx *fx)
{
    if (fx)
        mmd_arena_destroy(fx->arena);
}

static bool name_eq(const char *a, const char *b)
{
    for (; *a && *b; a++, b++)
        if ((*a >= 'A' && *a <= 'Z' ? *a | 0x20 : *a) != (*b >= 'A' && *b <= 'Z' ? *b | 0x20 : *b))
            return false;
    return *a == *b;
}

const mmd_fx_annotation *mmd_fx_annotation_find(const mmd_fx_annotation *list, uint32_t count, const char *name)
{
    for (uint32_t i = 0; list && name && i < count; i++)
        if (list[i].name && name_eq(list[i].name, name))
            return &list[i];
    return NULL;
}

/* Skips blanks (what the lexer's spelling may put between tokens). */
static const char *blanks(const char *s)
{
    while (*s == ' ' || *s == '\t')
        s++;
    return s;
}

int mmd_fx_sampler_register(const mmd_fx_param *p)
{
    const char *s = p && p->semantic ? blanks(p->semantic) : "";
    if (strncasecmp(s, "register", 8))
        return -1;
    s = blanks(s + 8);
    if (*s != '(')
        return -1;
    s = blanks(s + 1);
    if (*s != 's' && *s != 'S')
        return -1;
    int n = 0, digits = 0;
    for (s++; *s >= '0' && *s <= '9' && digits < 3; s++, digits++)
        n = n * 10 + (*s - '0');
    s = blanks(s);
    return digits && digits < 3 && *s == ')' && !*blanks(s + 1) ? n : -1;
}

static char *trimmed(mmd_arena *a, const char *s, size_t n)
{
    while (n && (*s == ' ' || *s == '\t' || *s == '\r' || *s == '\n')) {
        s++;
        n--;
    }
    while (n && (s[n - 1] == ' ' || s[n - 1] == '\t' || s[n - 1] == '\r' || s[n - 1] == '\n'))
        n--;
    return mmd_arena_strndup(a, s, n);
}

mmd_status mmd_fx_script_parse(const char *script, mmd_arena *a, mmd_fx_script_cmd **cmds, uint32_t *count,
                               mmd_error *err)
{
    size_t slots = 1;
    for (const char *c = script; c && *c; c++)
        slots += *c == ';';
    mmd_fx_script_cmd *v = mmd_arena_array(a, slots, sizeof *v);
    if (!v)
        return mmd_error_set(err, MMD_E_NOMEM, "fx.script", -1, -1, "out of memory");
    uint32_t n = 0;
    for (const char *s = script ? script : ""; *s;) {
        const char *end = strchr(s, ';');
        size_t len = end ? (size_t)(end - s) : strlen(s);
        const char *eq = memchr(s, '=', len);
        char *whole = trimmed(a, s, len);
        if (!whole)
            return mmd_error_set(err, MMD_E_NOMEM, "fx.script", n, -1, "out of memory");
        if (whole[0] && !eq)
            return mmd_error_set(err, MMD_E_BAD_VALUE, "fx.script", n, -1,
                                 "script command \"%.100s\": expected NAME=VALUE", whole);
        if (whole[0]) {
            v[n].name = trimmed(a, s, (size_t)(eq - s));
            v[n].value = trimmed(a, eq + 1, len - (size_t)(eq - s) - 1);
            if (!v[n].name || !v[n].value)
                return mmd_error_set(err, MMD_E_NOMEM, "fx.script", n, -1, "out of memory");
            n++;
        }
        s += len + (end ? 1 : 0);
    }
    *cmds = v;
    *count = n;
    return MMD_OK;
}

static const char *const order_names[] = {
#define X(id, name) name,
    MMD_FX_ORDER_LIST(X)
#undef X
};

const char *mmd_fx_order_name(mmd_fx_order order)
{
    return (unsigned)order < MMD_FX_ORDER_COUNT ? order_names[order] : "";
}

mmd_fx_order mmd_fx_script_order(const mmd_fx *fx)
{
    for (uint32_t i = 0; fx && i < fx->param_count; i++) {
        const mmd_fx_param *p = &fx->params[i];
        if (!p->semantic || !name_eq(p->semantic, "STANDARDSGLOBAL"))
            continue;
        const mmd_fx_annotation *a = mmd_fx_annotation_find(p->annotations, p->annotation_count, "ScriptOrder");
        for (int k = 0; a && a->kind == MMD_FX_VALUE_STRING && k < MMD_FX_ORDER_COUNT; k++)
            if (name_eq(a->text, order_names[k]))
                return (mmd_fx_order)k;
        return MMD_FX_ORDER_STANDARD;
    }
    return MMD_FX_ORDER_STANDARD;
}
