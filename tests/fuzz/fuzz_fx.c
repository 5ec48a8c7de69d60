/* tests/fuzz/fuzz_fx.c - libFuzzer target: effect text -> mmd_fx_load (the
 * preprocessor with includes, the effect grammar) -> every Script string
 * split -> free. An #include of "self.fxsub" (in any folder) reads the input
 * again, any other name a small fixed file with a macro and a parameter, so
 * the include caps (depth, files, bytes) and cycle check are exercised.
 * Seeds: corpus/fx/ (tools/mkcorpus), dict: fx.dict. */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "core/fx.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

typedef struct input {
    const uint8_t *data;
    size_t size;
} input;

static const char k_other[] = "#define OTHER(x) x##_other\nfloat OTHER(p) : CONTROLOBJECT < string name = \"(self)\"; >;\n";

static mmd_status read_include(void *user, const char *dir, const char *name, void **data, size_t *size,
                               mmd_error *err)
{
    (void)dir;
    const input *in = user;
    size_t n = strlen(name);
    bool self = n >= 10 && strcmp(name + n - 10, "self.fxsub") == 0;
    const void *src = self ? (const void *)in->data : (const void *)k_other;
    size_t len = self ? in->size : sizeof k_other - 1;
    if (strstr(name, "missing"))
        return mmd_fail(err, MMD_E_IO, "no such file");
    *data = malloc(len ? len : 1);
    if (!*data)
        return mmd_fail(err, MMD_E_NOMEM, "out of memory");
    memcpy(*data, src, len);
    *size = len;
    return MMD_OK;
}

static void split_scripts(mmd_fx *fx, const mmd_fx_annotation *an, uint32_t count)
{
    const mmd_fx_annotation *s = mmd_fx_annotation_find(an, count, "Script");
    mmd_fx_script_cmd *cmds = NULL;
    uint32_t n = 0;
    mmd_error err;
    if (s && s->kind == MMD_FX_VALUE_STRING)
        (void)mmd_fx_script_parse(s->text, fx->arena, &cmds, &n, &err);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    input in = {data, size};
    mmd_fx_loader ld = {read_include, &in};
    mmd_fx *fx = NULL;
    mmd_error err;
    if (mmd_fx_load(data, size, "fuzz/root.fx", &ld, &fx, &err) != MMD_OK)
        return 0;
    for (uint32_t i = 0; i < fx->param_count; i++)
        split_scripts(fx, fx->params[i].annotations, fx->params[i].annotation_count);
    for (uint32_t i = 0; i < fx->technique_count; i++) {
        const mmd_fx_technique *t = &fx->techniques[i];
        split_scripts(fx, t->annotations, t->annotation_count);
        for (uint32_t k = 0; k < t->pass_count; k++)
            split_scripts(fx, t->passes[k].annotations, t->passes[k].annotation_count);
    }
    mmd_fx_free(fx);
    return 0;
}
