/* renderer/fx/hlsl_spirv.h - HLSL (DirectX 9, as MikuMikuEffect writes it)
 * to SPIR-V through glslang's C++ API (renderer/fx/hlsl_spirv.cpp, the one
 * C++ file of the translator: glslang's C interface can set neither the
 * entry point nor hlsl_functionality1).
 *
 * The DX9 compatibility mode is on (sampler + tex2D, POSITION/VPOS/COLORn
 * as DX9 meant them), every interface variable and $Global member keeps its
 * semantic (SPV_GOOGLE_hlsl_functionality1, UserSemantic decorations), and
 * the SPIR-V is legalised by SPIRV-Tools (opaque types forwarded), so
 * SPIRV-Cross can turn it into GLSL. Thread-safe (glslang is initialised once). */
#ifndef MMD_RENDERER_FX_HLSL_SPIRV_H
#define MMD_RENDERER_FX_HLSL_SPIRV_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#include "core/status.h"

typedef enum mmd_fx_stage { MMD_FX_STAGE_VERTEX, MMD_FX_STAGE_FRAGMENT } mmd_fx_stage;

/* Compile len bytes of HLSL (name: the file errors name before the first
 * #line) with entry as the entry point. On MMD_OK *words is malloc'd SPIR-V
 * (the caller frees it); otherwise err->msg holds the first error as glslang
 * words it ("FILE:LINE: 'token' : what"): MMD_E_UNSUPPORTED, MMD_E_LIMIT (over
 * 2 GiB of text) or MMD_E_NOMEM. */
mmd_status mmd_fx_hlsl_to_spirv(const char *hlsl, size_t len, const char *name, const char *entry, mmd_fx_stage stage,
                                uint32_t **words, size_t *word_count, mmd_error *err);

/* Initialise glslang and build its HLSL symbol tables now, from fixed
 * shaders (once per process; mmd_fx_hlsl_to_spirv does it too): a process
 * that forks a child per compile calls it first, so each child inherits them. */
void mmd_fx_hlsl_warm(void);

#ifdef __cplusplus
}
#endif

#endif
