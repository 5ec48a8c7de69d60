/* renderer/gl/effects.c - effect option defaults (effects.h). */
#include "renderer/gl/effects.h"

#include <string.h>

void mmd_effects_default(mmd_effects *e)
{
    memset(e, 0, sizeof *e);
    e->glow_strength = 1.0f;
    e->glow_radius = 1.0f;
    e->soft_shadow_radius = 2.0f;
    e->soft_shadow_mode = MMD_SOFT_SHADOW_PCF;
    e->diffusion_strength = 0.5f;
    e->diffusion_threshold = 0.6f;
    e->ssaa = 1;
}

bool mmd_effects_post(const mmd_effects *e)
{
    return e->glow || e->diffusion || e->fxaa || e->ssaa > 1;
}
