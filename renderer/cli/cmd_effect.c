/* renderer/cli/cmd_effect.c - `mmdrender effect FILE.fx [--json]`: what the
 * effect parser (core/fx.h) reads in a MikuMikuEffect file: techniques and
 * their passes (shaders, states), parameters with semantics and annotations,
 * textures, samplers. Includes are read relative to the including file with
 * the texture resolver's letter-case and '\' rules (and may leave its folder,
 * as "../shader/x.fxsub" does). Each pass is translated (renderer/fx/translate.h)
 * and linked on a GL context made here (renderer/gl/fx_program.h): `ok` and
 * the first error (FILE:LINE: what) per pass. The file is read by
 * renderer/scene/effect_file.h, as a render reads it. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/fx.h"
#include "renderer/base/msg.h"
#include "renderer/cli/commands.h"
#include "renderer/cli/json_out.h"
#include "renderer/fx/translate.h"
#include "renderer/gl/context.h"
#include "renderer/gl/fx_program.h"
#include "renderer/scene/effect_file.h"

static void usage(FILE *f)
{
    fprintf(f, "usage: mmdrender effect FILE.fx [--json] [--fx-cache DIR] [--allow-outside-assets]\n"
               "  Parse a MikuMikuEffect file (.fx, .fxsub) and print its techniques and\n"
               "  passes (shaders, render states), parameters (type, semantic, annotations),\n"
               "  textures and samplers; a syntax error names its file and line. Each pass is\n"
               "  translated (HLSL to GLSL) and linked here: ok, or its first error.\n"
               "  --json   one JSON object on stdout instead of text\n"
               "  --fx-cache DIR  keep glslang's SPIR-V in DIR by content hash (made when\n"
               "           absent; shared safely by many processes)\n"
               "  --allow-outside-assets  let #include leave the effect's root (its folder\n"
               "           and up to two above it: docs/limits.md \"Effect files\")\n"
               "exit codes: 0 ok, 1 usage, 2 unreadable file or effect that does not parse\n");
}

/* Whether each pass translates and links here, in technique order. */
typedef struct pass_result {
    bool ok;
    char error[1024];
} pass_result;

/* Translate and link one pass on ctx (NULL: no context, why in ctx_err). */
static void check_pass(const mmd_fx *fx, const mmd_fx_pass *pass, const mmd_fx_translate_options *opt,
                       mmd_gl_context *ctx, const char *ctx_err, pass_result *r)
{
    mmd_error err = {0};
    mmd_fx_program *p = NULL;
    if (mmd_fx_translate(fx, pass, opt, &p, &err) != MMD_OK) {
        snprintf(r->error, sizeof r->error, "%s", err.msg);
        return;
    }
    GLuint prog = 0;
    if (!ctx)
        snprintf(r->error, sizeof r->error, "%.300s:%d: translates; not linked: %.400s", pass->loc.file,
                 (int)pass->loc.line, ctx_err);
    else if (mmd_gl_fx_program_link(mmd_gl_context_api(ctx), p->vs, p->fs, &prog, &err) != MMD_OK)
        snprintf(r->error, sizeof r->error, "%.300s:%d: GLSL from the translator: %.400s", pass->loc.file,
                 (int)pass->loc.line, err.msg);
    else {
        mmd_gl_context_api(ctx)->DeleteProgram(prog);
        r->ok = true;
    }
    mmd_fx_program_free(p);
}

/* Results of every pass (NULL when out of memory or none). */
static pass_result *check_passes(const mmd_fx *fx, const mmd_fx_translate_options *opt)
{
    size_t n = 0;
    for (uint32_t i = 0; i < fx->technique_count; i++)
        n += fx->techniques[i].pass_count;
    pass_result *r = n ? calloc(n, sizeof *r) : NULL;
    if (!r)
        return NULL;
    mmd_gl_context *ctx = NULL;
    mmd_error err = {0};
    if (mmd_gl_context_create(mmd_gl_default_backend(), 1, &ctx, &err) != MMD_OK)
        ctx = NULL;
    size_t k = 0;
    for (uint32_t i = 0; i < fx->technique_count; i++)
        for (uint32_t j = 0; j < fx->techniques[i].pass_count; j++)
            check_pass(fx, &fx->techniques[i].passes[j], opt, ctx, err.msg, &r[k++]);
    mmd_gl_context_free(ctx);
    return r;
}

static void json_annotations(FILE *f, const mmd_fx_annotation *a, uint32_t n)
{
    fputs("[", f);
    for (uint32_t i = 0; i < n; i++) {
        fprintf(f, "%s{\"name\":", i ? "," : "");
        mmd_json_str(f, a[i].name);
        fputs(",\"type\":", f);
        mmd_json_str(f, a[i].type);
        fputs(",\"value\":", f);
        if (a[i].kind == MMD_FX_VALUE_BOOL)
            fputs(a[i].values[0] != 0 ? "true" : "false", f);
        else if (a[i].kind == MMD_FX_VALUE_NUMBER && a[i].value_count == 1)
            fprintf(f, "%.9g", a[i].values[0]);
        else if (a[i].kind == MMD_FX_VALUE_NUMBER) {
            for (uint32_t k = 0; k < a[i].value_count; k++)
                fprintf(f, "%s%.9g", k ? "," : "[", a[i].values[k]);
            fputs("]", f);
        } else
            mmd_json_str(f, a[i].text);
        fputs("}", f);
    }
    fputs("]", f);
}

static void json_states(FILE *f, const mmd_fx_state *s, uint32_t n)
{
    fputs("[", f);
    for (uint32_t i = 0; i < n; i++) {
        fprintf(f, "%s{\"name\":", i ? "," : "");
        mmd_json_str(f, s[i].name);
        if (s[i].index >= 0)
            fprintf(f, ",\"index\":%d", (int)s[i].index);
        fputs(",\"value\":", f);
        mmd_json_str(f, s[i].value);
        fprintf(f, ",\"line\":%d}", (int)s[i].line);
    }
    fputs("]", f);
}

static void json_shader(FILE *f, const char *key, const mmd_fx_shader *s)
{
    fprintf(f, ",\"%s\":", key);
    if (!s->profile) {
        fputs("null", f);
        return;
    }
    fputs("{\"profile\":", f);
    mmd_json_str(f, s->profile);
    fputs(",\"entry\":", f);
    mmd_json_str(f, s->entry);
    fputs(",\"args\":", f);
    mmd_json_str(f, s->args);
    fputs("}", f);
}

static void json_loc(FILE *f, mmd_fx_loc l)
{
    fputs(",\"file\":", f);
    mmd_json_str(f, l.file);
    fprintf(f, ",\"line\":%d", (int)l.line);
}

/* "KEY":[{name, type, semantic, annotations, ...}] for one kind of global. */
static void json_params(FILE *f, const char *key, const mmd_fx_param *p, uint32_t n)
{
    fprintf(f, ",\"%s\":[", key);
    for (uint32_t i = 0; i < n; i++) {
        fprintf(f, "%s{\"name\":", i ? "," : "");
        mmd_json_str(f, p[i].name);
        fputs(",\"type\":", f);
        mmd_json_str(f, p[i].type);
        fputs(",\"semantic\":", f);
        if (p[i].semantic)
            mmd_json_str(f, p[i].semantic);
        else
            fputs("null", f);
        fputs(",\"annotations\":", f);
        json_annotations(f, p[i].annotations, p[i].annotation_count);
        if (p[i].state_count) {
            fputs(",\"states\":", f);
            json_states(f, p[i].states, p[i].state_count);
        }
        json_loc(f, p[i].loc);
        fputs("}", f);
    }
    fputs("]", f);
}

static void print_json(FILE *f, const char *path, const mmd_fx *fx, const pass_result *res)
{
    fputs("{\"file\":", f);
    mmd_json_str(f, path);
    fprintf(f, ",\"files_read\":%u,\"techniques\":[", fx->file_count);
    for (uint32_t i = 0; i < fx->technique_count; i++) {
        const mmd_fx_technique *t = &fx->techniques[i];
        fprintf(f, "%s{\"name\":", i ? "," : "");
        mmd_json_str(f, t->name);
        fputs(",\"annotations\":", f);
        json_annotations(f, t->annotations, t->annotation_count);
        fputs(",\"passes\":[", f);
        for (uint32_t k = 0; k < t->pass_count; k++) {
            const mmd_fx_pass *p = &t->passes[k];
            fprintf(f, "%s{\"name\":", k ? "," : "");
            mmd_json_str(f, p->name);
            fputs(",\"annotations\":", f);
            json_annotations(f, p->annotations, p->annotation_count);
            fputs(",\"states\":", f);
            json_states(f, p->states, p->state_count);
            json_shader(f, "vs", &p->vs);
            json_shader(f, "ps", &p->ps);
            const pass_result *r = res ? res++ : NULL;
            fprintf(f, ",\"ok\":%s,\"error\":", r && r->ok ? "true" : "false");
            if (r && r->ok)
                fputs("null", f);
            else
                mmd_json_str(f, r ? r->error : "out of memory");
            json_loc(f, p->loc);
            fputs("}", f);
        }
        fputs("]", f);
        json_loc(f, t->loc);
        fputs("}", f);
    }
    fputs("]", f);
    json_params(f, "parameters", fx->params, fx->param_count);
    json_params(f, "textures", fx->textures, fx->texture_count);
    json_params(f, "samplers", fx->samplers, fx->sampler_count);
    fprintf(f, ",\"functions\":%u,\"warning_count\":%u}\n", fx->code_count, fx->warning_count);
}

static void print_text(FILE *f, const char *path, const mmd_fx *fx, const pass_result *res)
{
    mmd_msg_print(f, "%s: effect, %u technique(s), %u parameter(s), %u texture(s), %u sampler(s), %u file(s) read\n",
            path, fx->technique_count, fx->param_count, fx->texture_count, fx->sampler_count, fx->file_count);
    for (uint32_t i = 0; i < fx->technique_count; i++) {
        const mmd_fx_technique *t = &fx->techniques[i];
        const mmd_fx_annotation *mp = mmd_fx_annotation_find(t->annotations, t->annotation_count, "MMDPass");
        mmd_msg_print(f, "technique %s%s%s (%s:%d)\n", t->name[0] ? t->name : "(unnamed)", mp ? " MMDPass=" : "",
                mp ? mp->text : "", t->loc.file, (int)t->loc.line);
        for (uint32_t k = 0; k < t->pass_count; k++) {
            const mmd_fx_pass *p = &t->passes[k];
            mmd_msg_print(f, "  pass %s: vs %s %s, ps %s %s, %u state(s)\n", p->name[0] ? p->name : "(unnamed)",
                    p->vs.profile ? p->vs.profile : "-", p->vs.entry ? p->vs.entry : "",
                    p->ps.profile ? p->ps.profile : "-", p->ps.entry ? p->ps.entry : "", p->state_count);
            const pass_result *r = res ? res++ : NULL;
            mmd_msg_print(f, "    %s%s\n", r && r->ok ? "ok: translates and links" : "error: ",
                    r && r->ok ? "" : r ? r->error : "out of memory");
        }
    }
    const mmd_fx_param *lists[] = {fx->params, fx->textures, fx->samplers};
    const uint32_t counts[] = {fx->param_count, fx->texture_count, fx->sampler_count};
    for (int l = 0; l < 3; l++)
        for (uint32_t i = 0; i < counts[l]; i++) {
            const mmd_fx_param *p = &lists[l][i];
            mmd_msg_print(f, "%s %s%s%s, %u annotation(s)\n", p->type, p->name, p->semantic ? " : " : "",
                    p->semantic ? p->semantic : "", p->annotation_count);
        }
    for (uint32_t i = 0; i < fx->warnings.kind_count; i++)
        mmd_msg_print(f, "warning: line %lld: %s\n", (long long)fx->warnings.kinds[i].item, fx->warnings.kinds[i].what);
}

int mmd_cmd_effect(int argc, char **argv)
{
    const char *path = NULL;
    bool json = false;
    mmd_effect_reads reads = {NULL, false}; /* named on the command line, by no file */
    mmd_fx_translate_options opt = {0};
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (!strcmp(a, "--json"))
            json = true;
        else if (!strcmp(a, "--allow-outside-assets"))
            reads.allow_outside = true;
        else if (!strcmp(a, "--fx-cache")) {
            if (i + 1 >= argc || !argv[i + 1][0]) {
                mmd_msg_print(stderr, "mmdrender effect: --fx-cache needs a folder\n");
                return MMD_EXIT_USAGE;
            }
            opt.cache_dir = argv[++i];
        }
        else if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
            usage(stdout);
            return MMD_EXIT_OK;
        } else if (a[0] == '-' && a[1]) {
            mmd_msg_print(stderr, "mmdrender effect: unknown option '%s'\n", a);
            usage(stderr);
            return MMD_EXIT_USAGE;
        } else if (path) {
            mmd_msg_print(stderr, "mmdrender effect: one FILE only ('%s' and '%s')\n", path, a);
            return MMD_EXIT_USAGE;
        } else
            path = a;
    }
    if (!path) {
        mmd_msg_print(stderr, "mmdrender effect: missing FILE\n");
        usage(stderr);
        return MMD_EXIT_USAGE;
    }
    mmd_error err = {0};
    mmd_fx *fx = NULL;
    mmd_status st = mmd_effect_file_load(path, &reads, &fx, &err);
    if (st != MMD_OK) {
        mmd_msg_print(stderr, "mmdrender effect: %s\n", err.msg);
        return mmd_exit_code(st);
    }
    pass_result *res = check_passes(fx, &opt);
    if (json)
        print_json(stdout, path, fx, res);
    else
        print_text(stdout, path, fx, res);
    free(res);
    mmd_fx_free(fx);
    return MMD_EXIT_OK;
}
