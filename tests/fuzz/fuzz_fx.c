/* tests/fuzz/fuzz_fx.c - libFuzzer target: effect text -> mmd_fx_load (the
 * preprocessor with includes, the effect grammar) -> every Script string
 * split -> MME's technique choice (renderer/fx/select.h: every pass kind for
 * a few materials, each technique's Subset), every sampler's register(sN)
 * read -> free. #include as tests/fuzz/fx_input.h says ("self.fxsub" reads the
 * input again: the include caps and the cycle check are exercised).
 * Seeds: corpus/fx/ (tools/mkcorpus), dict: fx.dict. */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "core/fx.h"
#include "renderer/fx/select.h"
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

/* The choice for each kind and material of 4 (hidden or not, with a
 * texture or not): an index in range or one of the two answers. */
static void choose(const mmd_fx *fx)
{
    for (int k = 0; k < MMD_FX_PASS_COUNT; k++)
        for (uint32_t m = 0; m < 4; m++) {
            mmd_fx_material_use use = {m & 1, m & 2, true, k == MMD_FX_PASS_OBJECT_SS};
            mmd_fx_select_query q = {(mmd_fx_pass_kind)k, use, m, 4, m == 3};
            int t = mmd_fx_select_technique(fx, &q);
            if (t >= (int)fx->technique_count || t < MMD_FX_SELECT_NOTHING)
                abort();
        }
    for (uint32_t i = 0; i < fx->technique_count; i++) {
        const mmd_fx_technique *t = &fx->techniques[i];
        const mmd_fx_annotation *s = mmd_fx_annotation_find(t->annotations, t->annotation_count, "Subset");
        if (s && s->kind == MMD_FX_VALUE_STRING)
            for (uint32_t m = 0; m < 3; m++)
                (void)mmd_fx_subset_has(s->text, m, 3);
    }
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
    choose(fx);
    mmd_fx_free(fx);
    return 0;
}
