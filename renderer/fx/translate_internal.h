/* renderer/fx/translate_internal.h - the steps of renderer/fx/translate.c,
 * for the translator and its test only. */
#ifndef MMD_RENDERER_FX_TRANSLATE_INTERNAL_H
#define MMD_RENDERER_FX_TRANSLATE_INTERNAL_H

#include <stddef.h>
#include <stdint.h>

#include "renderer/fx/translate.h"

/* A growable string; oom is sticky (renderer/fx/translate.c). */
typedef struct mmd_fx_text {
    char *p;
    size_t len, cap;
    bool oom;
} mmd_fx_text;
void mmd_fx_text_add(mmd_fx_text *t, const char *s, size_t n);
void mmd_fx_text_printf(mmd_fx_text *t, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* hlsl appended to t with the rewrites glslang 12.0 needs (renderer/fx/rewrite.c:
 * matrix swizzles of several elements). */
void mmd_fx_hlsl_rewrite(mmd_fx_text *t, const char *hlsl);

/* err (may be NULL) = "FILE:LINE: what" at `at`, section "fx", item the
 * line; returns st. */
mmd_status mmd_fx_fail(mmd_error *err, mmd_status st, mmd_fx_loc at, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

/* One glslang compile (renderer/fx/hlsl_spirv.h's arguments). */
typedef struct mmd_fx_compile_job {
    const char *hlsl;
    size_t len;
    const char *name, *entry;
    mmd_fx_stage stage;
    unsigned seconds; /* glslang's time (the child's alarm) */
    size_t memory;    /* address space the child may add (no cap under ASan) */
    size_t max_words; /* SPIR-V words it may make: more is MMD_E_LIMIT */
} mmd_fx_compile_job;

/* mmd_fx_hlsl_to_spirv in a child process with the job's seconds and memory
 * (renderer/fx/isolate.c): MMD_OK with *words malloc'd (at most max_words),
 * or glslang's error (MMD_E_UNSUPPORTED) and a child that crashes
 * (MMD_E_UNSUPPORTED) or runs out of time or memory or makes more SPIR-V
 * than max_words (MMD_E_LIMIT), said in err. */
mmd_status mmd_fx_compile_isolated(const mmd_fx_compile_job *job, uint32_t **words, size_t *count, mmd_error *err);

/* The SPIR-V of job cached in dir (renderer/fx/cache.c): true with
 * *words malloc'd on a hit; false on a miss, a corrupt entry or dir NULL. */
bool mmd_fx_cache_get(const char *dir, const mmd_fx_compile_job *job, uint32_t **words, size_t *count);
/* Store it (best effort: nothing is said when dir cannot be written). */
void mmd_fx_cache_put(const char *dir, const mmd_fx_compile_job *job, const uint32_t *words, size_t count);

/* SPIR-V of both stages to p's GLSL and reflection (renderer/fx/cross.c);
 * at names the pass in errors. p->arena exists. */
mmd_status mmd_fx_cross(const uint32_t *vs, size_t vs_words, const uint32_t *fs, size_t fs_words, const mmd_fx *fx,
                        mmd_fx_loc at, mmd_fx_program *p, mmd_error *err);

/* glsl with DX9's arithmetic where GLSL's differs (renderer/fx/dx9.c: HLSL
 * fmod, pow, log, log2, sqrt, rsqrt, normalize as ps_3_0 computes them),
 * appended to out; false when out ran out of memory. */
bool mmd_fx_dx9_arithmetic(const char *glsl, mmd_fx_text *out);

/* A semantic as both stages' names use it: upper case, SV_TARGETn as COLORn,
 * TEXCOORD and COLOR always with their index, other families' index 0
 * dropped ("POSITION0" is "POSITION"). False when it is not an identifier
 * or does not fit out_size. */
bool mmd_fx_semantic_normalise(const char *sem, char *out, size_t out_size);

/* The vertex attribute location of a normalised semantic, -1 when it is no
 * vertex input the runtime feeds. */
int32_t mmd_fx_vertex_location(const char *sem);

/* The vertex shader of a pass that sets only a pixel shader
 * (renderer/fx/fixed.c): DX9's fixed-function vertex processing of MMD's
 * object (transformed by WORLDVIEWPROJECTION, lit as full.fx's Basic_VS:
 * COLOR0, TEXCOORD0 passed on), or the screen quad as given for a Draw=Buffer
 * pass, appended to t as the function MMD_FX_FIXED_VS. */
#define MMD_FX_FIXED_VS "mmd_ff_vs"
void mmd_fx_fixed_vs(const mmd_fx *fx, const mmd_fx_pass *pass, mmd_fx_text *t);

#endif
