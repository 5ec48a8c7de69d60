/* core/look.h - MMD's per-model display switches (a project's model menu, a
 * scene's [model] keys), one struct for the scene, the project and the
 * renderer (mmd_renderer_set_look). */
#ifndef MMD_CORE_LOOK_H
#define MMD_CORE_LOOK_H

#include <stdbool.h>

typedef struct mmd_model_look {
    float edge_width; /* MMD's model edge width: multiplies every edge width of the model (0 = no edges) */
    bool add_blend;   /* MMD's 加算合成: colour and edge passes add onto what is behind them */
    bool self_shadow; /* casts into and receives MMD's self-shadow map (off: neither) */
} mmd_model_look;

/* MMD's default: edge width 1, no add-blend, self-shadow on. */
static inline mmd_model_look mmd_model_look_default(void)
{
    return (mmd_model_look){1.0f, false, true};
}

#endif
