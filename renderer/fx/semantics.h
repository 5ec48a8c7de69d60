/* renderer/fx/semantics.h - the values of a MikuMikuEffect's parameters: one
 * table of semantics (docs/effects.md, "Runtime") and the initializers of
 * those without one. Pure data, no GL: the runtime (renderer/gl/fx_runtime.h)
 * uploads what this computes, for post effects now and object effects later.
 *
 *     mmd_fx_frame f = {.width = w, .height = h, .time = t, ...};
 *     float v[16];
 *     unsigned n = mmd_fx_param_value(&fx->params[i], &f, v);   (0: none)
 *
 * A row: semantic, the types it is given for, the annotation that picks its
 * object (Object = "Camera"/"Light", CONTROLOBJECT's name and item) and the
 * function computing it from the frame. A semantic outside the table, or a
 * type a row does not give, is 0 (MME's value for what it does not know). */
#ifndef MMD_RENDERER_FX_SEMANTICS_H
#define MMD_RENDERER_FX_SEMANTICS_H

#include <stdbool.h>

#include "core/fx.h"

/* What a CONTROLOBJECT names: an accessory's placement (Si, Tr, X/Y/Z,
 * Rx/Ry/Rz in radians, visibility) or a model's bone/morph. */
typedef struct mmd_fx_control {
    bool found;   /* false: no such object (bool false, values 0) */
    bool visible;
    float si, tr;
    float position[3], rotation[3];
} mmd_fx_control;

/* A model named object (its file name): without an item its visibility (1
 * value); a morph's weight (1); a bone's world matrix (16, D3D's order) when
 * type is a matrix, else its position (4: x, y, z, 1). Returns the count
 * written, 0 when there is no such model or item. */
typedef unsigned (*mmd_fx_control_item_fn)(void *user, const char *object, const char *item, const char *type,
                                           float out[16]);

/* The drawn material of an object effect: the model's values as the material
 * morphs leave them (semantics.c gives them to MME's semantics). */
typedef struct mmd_fx_material {
    float diffuse[4], ambient[3], specular[3], power;
    float toon[3];        /* TOONCOLOR: the toon texture's shade (its bottom row), white without one */
    float edge[4];        /* EDGECOLOR: colour and alpha */
    float ground_shadow[4]; /* GROUNDSHADOWCOLOR: the light's ground-shadow colour, alpha 0.5 when translucent */
    float texture_add[4], texture_mul[4], sphere_add[4], sphere_mul[4]; /* the material morphs' factors */
    /* MME's globals set by name (MMD_FX_MATERIAL_GLOBALS in semantics.c) */
    bool use_texture, use_spheremap, use_subtexture, use_toon, spadd, transp, opadd, parthf;
    int vertex_count, subset_count;
} mmd_fx_material;

/* The frame's state the semantics read. Matrices are D3D's row-major floats
 * (row vectors, left-handed: what an effect multiplies by). */
typedef struct mmd_fx_frame {
    int width, height;     /* the viewport in pixels */
    double time;           /* seconds: the frame's time (so reruns and chunks agree) */
    double elapsed;        /* seconds since the previous frame (1/fps) */
    float view[16], projection[16];
    float camera_position[3], camera_direction[3];
    float light_position[3], light_direction[3];
    float light_color[3];
    mmd_fx_control self;   /* the effect's own controller ("(self)": the same-named .x) */
    const char *self_name; /* the controller's file name ("FXAA.x"), NULL when none */
    const char *self_model; /* an object effect's model (its file name): "(self)" is it, through item */
    mmd_fx_control_item_fn item; /* NULL: no models */
    void *item_user;
    /* object effects (NULL / false for a post effect) */
    const float *world;             /* WORLD (16, D3D's order); NULL: the identity (a model's, as MME) */
    const mmd_fx_material *material; /* the drawn material: its values and MME's globals */
    bool light_matrices;            /* Object = "Light" matrices: light_view_projection (else the camera's) */
    float light_view_projection[16]; /* the self-shadow map's; VIEW gets it whole, PROJECTION the identity */
} mmd_fx_frame;

/* MMD's column-major GL camera matrices (core/camera.h mmd_camera_matrices)
 * as D3D's row-major left-handed ones into f->view and f->projection. */
void mmd_fx_frame_camera(mmd_fx_frame *f, const float gl_view[16], const float gl_proj[16]);

/* Whether a semantic (any case) is in the table. */
bool mmd_fx_semantic_known(const char *semantic);

/* p's value for frame f into out (up to 16 floats, D3D's order): its
 * semantic's, or its initializer's when it has no semantic; 0 when it has
 * neither or the table gives nothing for it. */
unsigned mmd_fx_param_value(const mmd_fx_param *p, const mmd_fx_frame *f, float out[16]);

/* The numbers of an initializer ("{0.5, 1}", "float4(1,0,0,1)", "true", "2")
 * into out (at most max); returns the count. */
unsigned mmd_fx_init_numbers(const char *init, float *out, unsigned max);

#endif
