/* tests/fuzz/fuzz_fx.c - libFuzzer target: effect text -> mmd_fx_load (the
 * preprocessor with includes, the effect grammar) -> every Script string
 * split, every sampler's register(sN) read -> free. #include as tests/fuzz/fx_input.h says ("self.fxsub" reads the
 * input again: the include caps and the cycle check are exercised).
 * Seeds: corpus/fx/ (tools/mkcorpus), dict: fx.dict. */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "core/fx.h"
#include "tests/fuzz/fx_input.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

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
    mmd_fx *fx = fuzz_fx_parse(data, size);
    if (!fx)
        return 0;
    for (uint32_t i = 0; i < fx->param_count; i++)
        split_scripts(fx, fx->params[i].annotations, fx->params[i].annotation_count);
    for (uint32_t i = 0; i < fx->sampler_count; i++) {
        int reg = mmd_fx_sampler_register(&fx->samplers[i]);
        if (reg < -1 || reg > 99)
            abort(); /* the header's promise */
    }
    for (uint32_t i = 0; i < fx->technique_count; i++) {
        const mmd_fx_technique *t = &fx->techniques[i];
        split_scripts(fx, t->annotations, t->annotation_count);
        for (uint32_t k = 0; k < t->pass_count; k++)
            split_scripts(fx, t->passes[k].annotations, t->passes[k].annotation_count);
    }
    mmd_fx_free(fx);
    return 0;
}
