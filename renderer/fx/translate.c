/* renderer/fx/translate.c - one pass of an effect to GLSL (renderer/fx/translate.h):
 * the HLSL text with an entry point per stage, glslang, then SPIRV-Cross
 * (renderer/fx/cross.c). */
#include "renderer/fx/translate.h"

#include <ctype.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "renderer/fx/translate_internal.h"

#define MAX_PARAMS 64 /* parameters of an entry function */

typedef struct span {
    const char *p;
    size_t n;
} span;

mmd_status mmd_fx_fail(mmd_error *err, mmd_status st, mmd_fx_loc at, const char *fmt, ...)
{
    if (!err)
        return st;
    char what[400];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(what, sizeof what, fmt, ap);
    va_end(ap);
    return mmd_error_set(err, st, "fx", at.line, -1, "%s:%d: %s", at.file, (int)at.line, what);
}

static bool ident_char(char c)
{
    return isalnum((unsigned char)c) || c == '_';
}

static span trim(const char *p, size_t n)
{
    while (n && isspace((unsigned char)*p))
        p++, n--;
    while (n && isspace((unsigned char)p[n - 1]))
        n--;
    return (span){p, n};
}

/* Split p[0..n) at top-level commas into out (at most cap); returns the
 * count, cap + 1 when there are more; "" gives 0. */
static size_t split_commas(const char *p, size_t n, span *out, size_t cap)
{
    if (!trim(p, n).n)
        return 0;
    size_t count = 0, start = 0;
    int depth = 0;
    for (size_t i = 0; i <= n; i++) {
        char c = i < n ? p[i] : ',';
        depth += (c == '(' || c == '[' || c == '{') - (c == ')' || c == ']' || c == '}');
        if (c == ',' && depth <= 0) {
            if (count == cap)
                return cap + 1;
            out[count++] = trim(p + start, i - start);
            start = i + 1;
        }
    }
    return count;
}

/* Whether s holds word as a whole identifier. */
static bool has_word(span s, const char *word)
{
    size_t w = strlen(word);
    for (size_t i = 0; i + w <= s.n; i++)
        if (!strncmp(s.p + i, word, w) && (i == 0 || !ident_char(s.p[i - 1])) &&
            (i + w == s.n || !ident_char(s.p[i + w])))
            return true;
    return false;
}

/* The parameter's name: the last identifier before its semantic, default or array. */
static span param_name(span s)
{
    size_t end = s.n;
    int depth = 0;
    for (size_t i = 0; i < s.n; i++) {
        depth += (s.p[i] == '(' || s.p[i] == '[') - (s.p[i] == ')' || s.p[i] == ']');
        if ((s.p[i] == ':' || s.p[i] == '=' || (s.p[i] == '[' && depth == 1)) && depth <= 1) {
            end = i;
            break;
        }
    }
    while (end && !ident_char(s.p[end - 1]))
        end--;
    size_t start = end;
    while (start && ident_char(s.p[start - 1]))
        start--;
    return (span){s.p + start, end - start};
}

/* The function text of entry F: where its name and its parameter list are. */
typedef struct fn_text {
    span ret, params, tail; /* "float4", "in float4 c : TEXCOORD0", " : COLOR" */
    bool is_void;
    bool declared; /* a prototype precedes it: glslang then takes the prototype for the entry */
} fn_text;

/* Where F's name and parameter list are in its text (the last definition
 * with a body); false when F has none. */
static bool find_function(const mmd_fx *fx, const char *name, fn_text *f)
{
    size_t len = strlen(name);
    f->declared = false;
    for (uint32_t i = 0; i < fx->code_count; i++)
        if (fx->code[i].kind == MMD_FX_CODE_FUNCTION && !strcmp(fx->code[i].name, name) &&
            !strchr(fx->code[i].text, '{'))
            f->declared = true;
    for (uint32_t i = fx->code_count; i-- > 0;) {
        const mmd_fx_code *c = &fx->code[i];
        if (c->kind != MMD_FX_CODE_FUNCTION || strcmp(c->name, name))
            continue;
        for (const char *p = strstr(c->text, name); p; p = strstr(p + 1, name)) {
            const char *q = p + len;
            while (isspace((unsigned char)*q))
                q++;
            if ((p > c->text && ident_char(p[-1])) || *q != '(')
                continue;
            int depth = 0;
            const char *close = q;
            for (; *close; close++) {
                depth += (*close == '(') - (*close == ')');
                if (!depth)
                    break;
            }
            const char *body = *close ? strchr(close, '{') : NULL;
            if (!body)
                break; /* a prototype: look further back */
            f->ret = trim(c->text, (size_t)(p - c->text));
            f->params = trim(q + 1, (size_t)(close - q - 1));
            f->tail = trim(close + 1, (size_t)(body - close - 1));
            f->is_void = has_word(f->ret, "void");
            if (f->params.n == 4 && !strncmp(f->params.p, "void", 4))
                f->params.n = 0;
            return true;
        }
    }
    return false;
}

void mmd_fx_text_add(mmd_fx_text *t, const char *s, size_t n)
{
    if (t->oom || !n)
        return;
    if (t->len + n + 1 > t->cap) {
        size_t cap = t->cap ? t->cap * 2 : 4096;
        while (cap < t->len + n + 1)
            cap *= 2;
        char *p = realloc(t->p, cap);
        if (!p) {
            t->oom = true;
            return;
        }
        t->p = p;
        t->cap = cap;
    }
    memcpy(t->p + t->len, s, n);
    t->len += n;
    t->p[t->len] = '\0';
}

void mmd_fx_text_printf(mmd_fx_text *t, const char *fmt, ...)
{
    char tmp[512];
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(tmp, sizeof tmp, fmt, ap);
    va_end(ap);
    if (n < 0 || (size_t)n >= sizeof tmp)
        t->oom = true;
    else
        mmd_fx_text_add(t, tmp, (size_t)n);
}

static void puts_(mmd_fx_text *t, const char *s)
{
    mmd_fx_text_add(t, s, strlen(s));
}

/* The entry point of one stage: F itself when `compile` passes nothing, F
 * has no uniform parameter and no prototype and the effect no deferred
 * static globals (core's MMD_FX_STATIC_INIT), else a wrapper appended to t
 * that runs MMD_FX_STATIC_INIT (if any) and calls F with the literal
 * arguments in the places of its uniform parameters. */
static mmd_status entry_point(const mmd_fx *fx, const mmd_fx_shader *sh, const char *wrapper, mmd_fx_loc at,
                              mmd_fx_text *t, const char **entry, mmd_error *err)
{
    fn_text f;
    if (!find_function(fx, sh->entry, &f))
        return mmd_fx_fail(err, MMD_E_UNSUPPORTED, at, "shader function %s not found", sh->entry);
    span params[MAX_PARAMS], args[MAX_PARAMS];
    size_t np = split_commas(f.params.p, f.params.n, params, MAX_PARAMS);
    size_t na = split_commas(sh->args, strlen(sh->args), args, MAX_PARAMS);
    if (np > MAX_PARAMS || na > MAX_PARAMS)
        return mmd_fx_fail(err, MMD_E_UNSUPPORTED, at, "%s: more than %d parameters", sh->entry, MAX_PARAMS);
    size_t uniforms = 0;
    for (size_t i = 0; i < np; i++)
        uniforms += has_word(params[i], "uniform");
    if (uniforms != na)
        return mmd_fx_fail(err, MMD_E_UNSUPPORTED, at,
                           "%s has %zu uniform parameter(s), compile passes %zu argument(s)", sh->entry, uniforms, na);
    if (!na && !f.declared && !fx->static_init) {
        *entry = sh->entry;
        return MMD_OK;
    }
    char line[64];
    snprintf(line, sizeof line, "\n#line %d \"", (int)at.line);
    puts_(t, line);
    puts_(t, at.file);
    puts_(t, "\"\n");
    mmd_fx_text_add(t, f.ret.p, f.ret.n);
    puts_(t, " ");
    puts_(t, wrapper);
    puts_(t, "(");
    for (size_t i = 0, k = 0; i < np; i++)
        if (!has_word(params[i], "uniform")) {
            puts_(t, k++ ? ", " : "");
            mmd_fx_text_add(t, params[i].p, params[i].n);
        }
    puts_(t, ") ");
    mmd_fx_text_add(t, f.tail.p, f.tail.n);
    puts_(t, fx->static_init ? " { " MMD_FX_STATIC_INIT "(); " : " { ");
    puts_(t, f.is_void ? "" : "return ");
    puts_(t, sh->entry);
    puts_(t, "(");
    for (size_t i = 0, k = 0; i < np; i++) {
        span v = has_word(params[i], "uniform") ? args[k++] : param_name(params[i]);
        puts_(t, i ? ", " : "");
        mmd_fx_text_add(t, v.p, v.n);
    }
    puts_(t, "); }\n");
    *entry = wrapper;
    return MMD_OK;
}

/* glslang's first error (status st) as err: it names FILE:LINE through the
 * #line markers; one without a place is given the pass's. */
static mmd_status compile_error(mmd_status st, const char *log, mmd_fx_loc at, mmd_error *err)
{
    for (const char *c = strchr(log, ':'); c && c - log < 300; c = strchr(c + 1, ':')) {
        const char *d = c + 1;
        while (isdigit((unsigned char)*d))
            d++;
        if (d > c + 1 && *d == ':') {
            long line = strtol(c + 1, NULL, 10);
            return mmd_error_set(err, st, "fx", line, -1, "%s", log);
        }
    }
    return mmd_fx_fail(err, st, at, "%s", log);
}

/* The HLSL each stage compiles: the effect's, and that stage's entry point
 * (so a vertex shader shared by passes is one text, one cache entry). */
static mmd_status build_sources(const mmd_fx *fx, const mmd_fx_pass *pass, mmd_fx_text t[2], const char *entries[2],
                                mmd_error *err)
{
    const char *pname = pass->name[0] ? pass->name : "(unnamed)";
    /* MME draws a pass without shaders with MMD's own shading (an object
     * effect's "pass DrawObject { }" under its fur or outline passes); a
     * pixel shader alone gets DX9's fixed-function vertex processing
     * (renderer/fx/fixed.c); a vertex shader alone, its fixed-function
     * texture stages (not seen in any corpus: refused). */
    if (!pass->vs.profile && !pass->ps.profile)
        return mmd_fx_fail(err, MMD_E_UNSUPPORTED, pass->loc,
                           "pass %s sets no shaders (MMD's own drawing of the object, not run by effects here)", pname);
    if (!pass->ps.profile)
        return mmd_fx_fail(err, MMD_E_UNSUPPORTED, pass->loc,
                           "pass %s sets no pixel shader (fixed-function pixel passes are not translated)", pname);
    static const char *const wrappers[2] = {"mmd_entry_vs", "mmd_entry_ps"};
    for (int i = 0; i < 2; i++) {
        mmd_fx_hlsl_rewrite(&t[i], fx->hlsl);
        mmd_status st = MMD_OK;
        if (!i && !pass->vs.profile) { /* a pixel shader alone: fixed-function vertex processing */
            mmd_fx_fixed_vs(fx, pass, &t[i]);
            entries[i] = MMD_FX_FIXED_VS;
        } else {
            st = entry_point(fx, i ? &pass->ps : &pass->vs, wrappers[i], pass->loc, &t[i], &entries[i], err);
        }
        if (st != MMD_OK)
            return st;
        if (t[i].oom)
            return mmd_fx_fail(err, MMD_E_NOMEM, pass->loc, "out of memory");
        if (t[i].len > MMD_FX_MAX_HLSL_BYTES)
            return mmd_fx_fail(err, MMD_E_LIMIT, pass->loc, "the pass's HLSL is %zu bytes (at most %u)", t[i].len,
                               MMD_FX_MAX_HLSL_BYTES);
    }
    return MMD_OK;
}

/* One stage to SPIR-V: from the cache, else from glslang (then cached). */
static mmd_status compile_stage(const mmd_fx_compile_job *job, const char *cache, mmd_fx_loc at, uint32_t **words,
                                size_t *count, mmd_error *err)
{
    if (mmd_fx_cache_get(cache, job, words, count)) {
        if (*count <= job->max_words)
            return MMD_OK;
        free(*words);
        *words = NULL;
        return mmd_fx_fail(err, MMD_E_LIMIT, at, "glslang made %zu words of SPIR-V (at most %zu)", *count,
                           job->max_words);
    }
    mmd_error e = {0};
    mmd_status st = mmd_fx_compile_isolated(job, words, count, &e);
    if (st != MMD_OK)
        return compile_error(st, e.msg, at, err);
    mmd_fx_cache_put(cache, job, *words, *count);
    return MMD_OK;
}

/* An option's bound: the default when 0 or above it. */
static size_t bound(size_t asked, size_t dflt)
{
    return asked && asked < dflt ? asked : dflt;
}

mmd_status mmd_fx_translate(const mmd_fx *fx, const mmd_fx_pass *pass, const mmd_fx_translate_options *opt,
                            mmd_fx_program **out, mmd_error *err)
{
    mmd_fx_text t[2] = {{0}, {0}};
    const char *entries[2] = {NULL, NULL};
    uint32_t *words[2] = {NULL, NULL};
    size_t count[2] = {0, 0};
    mmd_fx_program *p = NULL;
    mmd_status st = build_sources(fx, pass, t, entries, err);
    for (int i = 0; i < 2 && st == MMD_OK; i++) {
        mmd_fx_compile_job job = {t[i].p,
                                  t[i].len,
                                  pass->loc.file,
                                  entries[i],
                                  i ? MMD_FX_STAGE_FRAGMENT : MMD_FX_STAGE_VERTEX,
                                  (unsigned)bound(opt ? opt->compile_seconds : 0, MMD_FX_COMPILE_SECONDS),
                                  bound(opt ? opt->compile_memory : 0, MMD_FX_COMPILE_MEMORY),
                                  bound(opt ? opt->max_spirv_words : 0, MMD_FX_MAX_SPIRV_WORDS)};
        st = compile_stage(&job, opt ? opt->cache_dir : NULL, pass->loc, &words[i], &count[i], err);
    }
    if (st == MMD_OK) {
        mmd_arena *a = mmd_arena_create();
        p = a ? mmd_arena_alloc(a, sizeof *p) : NULL;
        if (!p) {
            mmd_arena_destroy(a);
            st = mmd_fx_fail(err, MMD_E_NOMEM, pass->loc, "out of memory");
        } else {
            memset(p, 0, sizeof *p);
            p->arena = a;
            st = mmd_fx_cross(words[0], count[0], words[1], count[1], fx, pass->loc, p, err);
        }
    }
    free(t[0].p);
    free(t[1].p);
    free(words[0]);
    free(words[1]);
    if (st != MMD_OK) {
        mmd_fx_program_free(p);
        return st;
    }
    *out = p;
    return MMD_OK;
}

void mmd_fx_program_free(mmd_fx_program *p)
{
    if (p)
        mmd_arena_destroy(p->arena);
}
