/* renderer/scene/effect_file.h - a MikuMikuEffect file read from disk and
 * parsed (core/fx.h), its #includes read relative to the including file with
 * the texture resolver's letter-case and '\' rules (image/texpath.h). An
 * effect is someone else's file (a downloaded pack): its includes are
 * confined to its root (mmd_texpath_effect_root: its folder raised up to two
 * folders, as ray-mmd's "../../ray.conf", but not out of where the naming
 * file has it; docs/limits.md "Effect files"), read only when regular files
 * of at most MMD_FX_MAX_SOURCE_BYTES; --allow-outside-assets lifts the root.
 * The one reader of effect files: `mmdrender effect`, the stage (an
 * accessory's effect, classified once per run) and the effects of a render. */
#ifndef MMD_RENDERER_SCENE_EFFECT_FILE_H
#define MMD_RENDERER_SCENE_EFFECT_FILE_H

#include <stdbool.h>

#include "core/fx.h"

/* Where an effect's reads may go: namer_dir is the folder of the file that
 * names the effect (a scene's or project's folder, "." for a name given on
 * the command line); allow_outside: --allow-outside-assets. */
typedef struct mmd_effect_reads {
    const char *namer_dir;
    bool allow_outside;
} mmd_effect_reads;

/* MMD_OK and *out (mmd_fx_free), or the file's or parser's status with
 * err->msg "FILE:LINE: what" (core/fx.h); an include outside the root:
 * MMD_E_UNSUPPORTED, 'FILE:LINE: #include "X" is outside ROOT
 * (--allow-outside-assets)'. */
mmd_status mmd_effect_file_load(const char *path, const mmd_effect_reads *reads, mmd_fx **out, mmd_error *err);

#endif
