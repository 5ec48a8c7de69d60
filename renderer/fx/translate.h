/* renderer/fx/translate.h - a MikuMikuEffect pass (core/fx.h) to a GLSL 330
 * program for Mesa: the pass's `compile vs_x_y F(args)` and `compile ps_x_y
 * G(args)` go through glslang's HLSL front end to SPIR-V
 * (renderer/fx/hlsl_spirv.h) and SPIRV-Cross's C API to GLSL, with a
 * reflection record the runtime binds by:
 *
 *     mmd_fx_program *p; mmd_error err;
 *     if (mmd_fx_translate(fx, &fx->techniques[t].passes[k], NULL, &p, &err) != MMD_OK)
 *         ... err.msg is "FILE:LINE: what" (the effect's own file and line) ...
 *     ... p->vs, p->fs; p->uniforms, p->samplers, p->inputs, p->outputs ...
 *     mmd_fx_program_free(p);
 *
 * What the GLSL looks like (docs/effects.md, "Translator"):
 * - the arguments of `compile` are constants: a generated entry point calls F
 *   with the literal arguments in the places of its `uniform` parameters;
 * - the globals (HLSL's $Global) are one plain struct uniform per stage,
 *   "mmd_vs" and "mmd_ps" (so the stages may differ in which globals they
 *   keep); a matrix is uploaded as D3D's row-major floats, untransposed
 *   (glUniformMatrix4fv(.., GL_FALSE, m)): GLSL's columns are HLSL's rows; a
 *   bool is a uint; a non-static `const` global is a uniform whose value is
 *   its initializer (core's mmd_fx_param.init);
 * - vertex inputs are "a_SEMANTIC" at the location k_vertex_inputs gives
 *   (POSITION 0, NORMAL 1, TEXCOORD0..7 2..9, ...), varyings "v_SEMANTIC"
 *   (every one a vec4, as DX9's registers: each side converts), fragment
 *   outputs "o_COLORn" at location n;
 * - VS POSITION is gl_Position; PS VPOS is gl_FragCoord.xy - 0.5 (DX9 puts
 *   pixel centres on integers; GL's y is upward, the runtime's to flip),
 *   VFACE is +-1 from gl_FrontFacing;
 * - samplers keep their HLSL names (sampler2D, sampler3D or samplerCube
 *   uniforms, no binding: the runtime sets the unit), each with the texture
 *   its sampler_state reads and its dimension; an untyped `sampler` takes
 *   its dimension from its texture's declared type (texture3D, textureCUBE),
 *   ResourceType annotation, or the tex3D / texCUBE calls that read it
 *   (core/fx.c), as D3DX's effect framework types it.
 *
 * Bounded: the HLSL of one pass is at most MMD_FX_MAX_HLSL_BYTES; glslang
 * (not hardened against hostile input: mutated effects crash it) runs in a
 * child process (renderer/fx/isolate.c) with MMD_FX_COMPILE_SECONDS and
 * MMD_FX_COMPILE_MEMORY, so a crash, hang or blow-up is an error of the pass;
 * SPIRV-Cross, which runs in this process, reads at most MMD_FX_MAX_SPIRV_WORDS
 * per stage (its work and memory grow with them, ~6 bytes of GLSL a word)
 * and the GLSL is at most MMD_FX_MAX_GLSL_BYTES. Errors: MMD_E_LIMIT (a cap,
 * glslang's time or memory), MMD_E_UNSUPPORTED (does not translate: glslang's
 * or our own first error, glslang crashed), MMD_E_NOMEM; err->section "fx",
 * err->item the line.
 */
#ifndef MMD_RENDERER_FX_TRANSLATE_H
#define MMD_RENDERER_FX_TRANSLATE_H

#include <stddef.h>
#include <stdint.h>

#include "core/arena.h"
#include "core/fx.h"
#include "core/status.h"
#include "renderer/fx/hlsl_spirv.h"

#define MMD_FX_MAX_HLSL_BYTES (1u << 20)     /* the HLSL text one pass compiles */
#define MMD_FX_COMPILE_SECONDS 20              /* glslang's time for one stage (its own process) */
#define MMD_FX_COMPILE_MEMORY (1024u << 20)    /* address space glslang's process may add */
#define MMD_FX_MAX_SPIRV_WORDS (1u << 20)      /* SPIR-V of one stage (4 MiB): what SPIRV-Cross reads here */
#define MMD_FX_MAX_GLSL_BYTES (8u << 20)       /* GLSL one stage becomes (what the GL driver compiles) */

/* A global the program reads (a member of HLSL's $Global). */
typedef struct mmd_fx_uniform {
    const char *name;     /* as in the effect */
    const char *glsl;     /* the uniform's name in the linked program: "mmd_vs.WorldViewProj" */
    const char *type;     /* as the effect declares it ("float4x4"); "" when not a declared global */
    const char *semantic; /* as written ("WORLDVIEWPROJECTION"), NULL when none */
    uint32_t offset;      /* byte offset in HLSL's packing of $Global (DX9 constant register * 16) */
    uint32_t size;        /* bytes */
    mmd_fx_stage stage;
} mmd_fx_uniform;

/* What a sampler reads, as the GLSL declares it. */
typedef enum mmd_fx_sampler_dim {
    MMD_FX_SAMPLER_2D,   /* sampler2D (also HLSL's sampler1D, read as a 2D row) */
    MMD_FX_SAMPLER_3D,   /* sampler3D: a volume texture */
    MMD_FX_SAMPLER_CUBE, /* samplerCube */
} mmd_fx_sampler_dim;

/* A sampler the program reads. */
typedef struct mmd_fx_sampler_use {
    const char *name;    /* the sampler, as in the effect and in the GLSL */
    const char *texture; /* the texture its sampler_state names, NULL when none */
    mmd_fx_sampler_dim dim;
    mmd_fx_stage stage;
} mmd_fx_sampler_use;

/* A vertex input or a fragment output. */
typedef struct mmd_fx_io {
    const char *semantic; /* "POSITION", "TEXCOORD0", "COLOR0" (upper case, index always given) */
    const char *glsl;     /* "a_TEXCOORD0", "o_COLOR0" */
    int32_t location;
} mmd_fx_io;

typedef struct mmd_fx_program {
    const char *vs, *fs; /* GLSL 330 core */
    mmd_fx_uniform *uniforms;
    uint32_t uniform_count;
    mmd_fx_sampler_use *samplers;
    uint32_t sampler_count;
    mmd_fx_io *inputs; /* vertex inputs */
    uint32_t input_count;
    mmd_fx_io *outputs; /* fragment outputs */
    uint32_t output_count;
    mmd_arena *arena;
} mmd_fx_program;

/* Zeroed: defaults. */
typedef struct mmd_fx_translate_options {
    /* A folder of glslang's SPIR-V by content hash (renderer/fx/cache.c), made
     * when absent; NULL: no cache. Safe for many processes at once. */
    const char *cache_dir;
    /* Lower bounds than the defaults (tests; 0: MMD_FX_COMPILE_SECONDS,
     * MMD_FX_COMPILE_MEMORY bytes, MMD_FX_MAX_SPIRV_WORDS); larger values are
     * taken as the defaults. */
    unsigned compile_seconds;
    size_t compile_memory;
    size_t max_spirv_words;
} mmd_fx_translate_options;

/* Translate one pass of fx (pass points into fx->techniques[..].passes);
 * opt may be NULL. */
mmd_status mmd_fx_translate(const mmd_fx *fx, const mmd_fx_pass *pass, const mmd_fx_translate_options *opt,
                            mmd_fx_program **out, mmd_error *err);
void mmd_fx_program_free(mmd_fx_program *p); /* NULL is a no-op */

/* A global the translator adds (the fixed-function vertex processing of a
 * pass with a pixel shader alone, renderer/fx/fixed.c) by its name in the
 * reflection, with the semantic the runtime binds it by; NULL for others. */
const mmd_fx_param *mmd_fx_fixed_param(const char *name);

#endif
