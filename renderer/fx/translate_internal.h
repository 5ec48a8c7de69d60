/* renderer/fx/translate_internal.h - the steps of renderer/fx/translate.c,
 * for the translator and its test only. */
#ifndef MMD_RENDERER_FX_TRANSLATE_INTERNAL_H
#define MMD_RENDERER_FX_TRANSLATE_INTERNAL_H

#include <stddef.h>
#include <stdint.h>

#include "renderer/fx/translate.h"

/* SPIR-V of both stages to p's GLSL and reflection (renderer/fx/cross.c);
 * at names the pass in errors. p->arena exists. */
mmd_status mmd_fx_cross(const uint32_t *vs, size_t vs_words, const uint32_t *fs, size_t fs_words, const mmd_fx *fx,
                        mmd_fx_loc at, mmd_fx_program *p, mmd_error *err);

/* A semantic as both stages' names use it: upper case, SV_TARGETn as COLORn,
 * TEXCOORD and COLOR always with their index, other families' index 0
 * dropped ("POSITION0" is "POSITION"). False when it is not an identifier
 * or does not fit out_size. */
bool mmd_fx_semantic_normalise(const char *sem, char *out, size_t out_size);

/* The vertex attribute location of a normalised semantic, -1 when it is no
 * vertex input the runtime feeds. */
int32_t mmd_fx_vertex_location(const char *sem);

#endif
