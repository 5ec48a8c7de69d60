/* renderer/image/texlib.h - the file side of a renderer's textures.
 *
 *   mmd_texlib *l = mmd_texlib_create(&config);            // NULL: no memory
 *   mmd_texlib_model(l, model, dir, take, ctx, ids, &err); // a model's materials
 *   long id = mmd_texlib_file(l, dir, name, repeat, warn, owner, &img); // one texture
 *   mmd_texlib_bytes(l, &count);
 *   mmd_texlib_free(l);
 *
 * Everything a texture needs before it reaches GL: which file a name means
 * (image/texpath: letter case, '\', Shift-JIS names, refused outside the
 * model's folder unless allow_outside), decoding (image/decode, in child
 * processes; a model's files side by side, which costs one fork per child
 * instead of one per file), one decode per file however many models and
 * materials name it (keyed by device and inode, and the wrap mode, since GL
 * keeps wrap and mip levels in the texture object), the decoded-bytes budget
 * (a texture that does not fit is halved until it does, or drawn white) and
 * the warnings, sent as sentences to config.warn. gl/ uploads the images it
 * hands out and binds them by id; it opens no file and prints nothing.
 *
 * An id names one (file, wrap): it is >= 0, handed out once with its pixels
 * (the caller uploads them), then again without; -1 means drawn white.
 */
#ifndef MMD_RENDERER_IMAGE_TEXLIB_H
#define MMD_RENDERER_IMAGE_TEXLIB_H

#include <stdbool.h>
#include <stddef.h>

#include "core/model.h"
#include "renderer/base/msg.h"
#include "renderer/image/decode.h"

typedef struct mmd_texlib_config {
    size_t budget;      /* decoded bytes of all textures together, mip levels included */
    bool allow_outside; /* texture paths may leave the model's folder */
    int workers;        /* decode children at once for a model's files (>= 1) */
    mmd_warn_fn warn;   /* where warnings go (NULL: nowhere) */
    void *warn_ctx;
} mmd_texlib_config;

typedef struct mmd_texlib mmd_texlib;

mmd_texlib *mmd_texlib_create(const mmd_texlib_config *c);
void mmd_texlib_free(mmd_texlib *l); /* NULL is a no-op */

/* The model textures material mt draws with, by slot: 0 the texture
 * (repeat, mipmapped), 1 the sphere map, 2 the toon (clamped); -1 when the
 * slot has none of the model's (no sphere, a shared toon). */
static inline void mmd_material_textures(const mmd_material *mt, int32_t idx[3])
{
    idx[0] = mt->texture;
    idx[1] = mt->sphere_mode != MMD_SPHERE_NONE ? mt->sphere_texture : -1;
    idx[2] = mt->toon_shared ? -1 : mt->toon;
}

/* Texture `name` relative to dir ("" or NULL: the current folder) with the
 * given wrap; repeat textures are mipmapped and cost their mip levels. Returns
 * its id, or -1 (drawn white) with a warning naming owner ("model \"X\"")
 * when warn. A new id comes with its pixels in *img, which the caller uploads
 * and frees (mmd_image_free); otherwise *img is zeroed. */
long mmd_texlib_file(mmd_texlib *l, const char *dir, const char *name, bool repeat, bool warn, const char *owner,
                     mmd_image *img);
/* mmd_texlib_file confined to root instead of dir (an effect's ResourceName:
 * image/texpath.h mmd_texpath_resolve_in; root NULL: mmd_texlib_file). */
long mmd_texlib_file_in(mmd_texlib *l, const char *dir, const char *root, const char *name, bool repeat, bool warn,
                        const char *owner, mmd_image *img);

/* take(ctx, id, img, repeat): upload a new id's pixels (img is freed after). */
typedef void (*mmd_texlib_take)(void *ctx, long id, const mmd_image *img, bool repeat);
/* Model m's textures, resolved relative to dir, material after material as
 * the colour pass draws them (mmd_material_textures: slot 0 repeat, 1 and 2
 * clamped). ids (material_count x 3) receives each slot's id, -1 for none or
 * white; take is called for each new id in that order. Files not seen before
 * are decoded together first. A model texture that fails warns once, however
 * many materials and wraps name it. MMD_E_NOMEM when there is no memory. */
mmd_status mmd_texlib_model(mmd_texlib *l, const mmd_model *m, const char *dir, mmd_texlib_take take, void *ctx,
                            long *ids, mmd_error *err);

/* Decoded bytes handed out (mip levels included): what the budget bounds; the
 * number of ids with pixels into *count (may be NULL). */
size_t mmd_texlib_bytes(const mmd_texlib *l, size_t *count);

/* Count bytes of a texture that is not a file's (an accessory's live
 * screen.bmp, frame-sized) against the budget; false, counting nothing, when
 * they do not fit beside what is handed out (the caller draws white). */
bool mmd_texlib_reserve(mmd_texlib *l, size_t bytes);

#endif
