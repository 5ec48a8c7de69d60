/* tests/fuzz/fuzz_fxpass.c - libFuzzer target: effect text -> mmd_fx_load
 * (#include as tests/fuzz/fx_input.h says) -> the first FUZZ_FX_PASSES passes
 * through the translator (renderer/fx/translate.h: our entry-point wrapper,
 * glslang, SPIRV-Tools' legalisation, SPIRV-Cross and our reflection, cross.c)
 * -> the reflection record checked against translate.h's promises -> free.
 *
 * `make fuzz` builds the library with MMD_FX_COMPILE_IN_PROCESS, so glslang
 * runs in this process (renderer/fx/isolate.c): fast enough for libFuzzer,
 * and a crash inside glslang is a finding to triage (replayed by the gcc
 * build, build/fuzz/replay_fxpass, it must be an error of the pass). The
 * replay program of `make test` runs the real path, glslang in its child.
 * Seeds: corpus/fx, tests/fx and ../shared/assets/fx (tests/fuzz/targets.sh);
 * dict: fx.dict + fxpass.dict (the Makefile joins them). */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "core/fx.h"
#include "renderer/fx/translate.h"
#include "tests/fuzz/fx_input.h"

#define FUZZ_FX_PASSES 4 /* passes translated per input: each is two glslang compiles */

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void check_io(const mmd_fx_io *io, uint32_t count)
{
    for (uint32_t i = 0; i < count; i++)
        if (!io[i].semantic || !io[i].glsl || io[i].location < 0 || !strstr(io[i].glsl, io[i].semantic))
            abort();
}

/* translate.h's promises about a program that translated. */
static void check_program(const mmd_fx_program *p)
{
    if (!p->vs || !p->fs || !strstr(p->vs, "#version 330") || !strstr(p->fs, "#version 330"))
        abort();
    for (uint32_t i = 0; i < p->uniform_count; i++) {
        const mmd_fx_uniform *u = &p->uniforms[i];
        if (!u->name || !u->glsl || !u->type || strncmp(u->glsl, u->stage ? "mmd_ps." : "mmd_vs.", 7))
            abort();
    }
    for (uint32_t i = 0; i < p->sampler_count; i++)
        if (!p->samplers[i].name)
            abort();
    check_io(p->inputs, p->input_count);
    check_io(p->outputs, p->output_count);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    mmd_fx *fx = fuzz_fx_parse(data, size);
    if (!fx)
        return 0;
    unsigned done = 0;
    for (uint32_t t = 0; t < fx->technique_count && done < FUZZ_FX_PASSES; t++)
        for (uint32_t k = 0; k < fx->techniques[t].pass_count && done < FUZZ_FX_PASSES; k++, done++) {
            mmd_fx_program *p = NULL;
            mmd_error err = {0};
            if (mmd_fx_translate(fx, &fx->techniques[t].passes[k], NULL, &p, &err) == MMD_OK)
                check_program(p);
            else if (!err.msg[0])
                abort(); /* every failure says why */
            mmd_fx_program_free(p);
        }
    mmd_fx_free(fx);
    return 0;
}
