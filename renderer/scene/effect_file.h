/* renderer/scene/effect_file.h - a MikuMikuEffect file read from disk and
 * parsed (core/fx.h), its #includes read relative to the including file with
 * the texture resolver's letter-case and '\' rules (image/texpath.h; an
 * include may leave the effect's folder, as "../shader/x.fxsub" does). The
 * one reader of effect files: `mmdrender effect`, the stage (an accessory's
 * effect, classified once per run) and the post effects of a render. */
#ifndef MMD_RENDERER_SCENE_EFFECT_FILE_H
#define MMD_RENDERER_SCENE_EFFECT_FILE_H

#include "core/fx.h"

/* MMD_OK and *out (mmd_fx_free), or the file's or parser's status with
 * err->msg "FILE:LINE: what" (core/fx.h). */
mmd_status mmd_effect_file_load(const char *path, mmd_fx **out, mmd_error *err);

#endif
