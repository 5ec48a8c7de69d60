/* renderer/image/texpath.h - find a model's texture file on disk.
 *
 *   mmd_status mmd_texpath_resolve(model_dir, stored, allow_outside, out, out_size, &err)
 *   int mmd_texpath_model_dir(model_path, dir, dir_size)
 *   mmd_status mmd_texpath_resolve_in(dir, root, stored, allow_outside, out, out_size, &err)
 *   int mmd_texpath_effect_root(effect_path, namer_dir, root, root_size)
 *
 * The one resolver: `info`, `info --json` and the renderer all call it, so
 * what `info` reports as found is what a render loads (and refuses what a
 * render refuses).
 *
 * stored is the path as the model names it (UTF-8 after conversion from
 * Shift-JIS/UTF-16), relative to the model's folder, with '\' or '/'
 * separators. Models come from Windows, so the file on disk often differs in
 * case, and archives extracted on Linux keep Shift-JIS byte names. Each
 * component is tried: exactly; then against the directory listing comparing
 * ASCII letters case-insensitively (other bytes exactly); then as its CP932
 * bytes (exact, then case-insensitive on the single-byte characters only).
 * Among several case-insensitive matches the smallest name (strcmp) wins, so
 * the result does not depend on readdir order.
 *
 * Unless allow_outside, paths that would leave model_dir are refused: absolute
 * paths (/x, C:\x, \\server), ".." components, and files whose realpath (after
 * symlinks) is not inside realpath(model_dir). With allow_outside, ".." and
 * absolute POSIX paths are followed (a Windows drive path is never found).
 *
 * On MMD_OK, out holds model_dir joined with the on-disk names. Otherwise
 * err (may be NULL) says what failed, its status the kind of failure:
 *   MMD_E_IO           missing: no such file (or it is not a regular file)
 *   MMD_E_UNSUPPORTED  refused: escapes model_dir and !allow_outside
 *   MMD_E_BAD_VALUE    empty name, path too long for out, bad arguments
 * Thread-safe (no shared state).
 */
#ifndef MMD_RENDERER_TEXPATH_H
#define MMD_RENDERER_TEXPATH_H

#include <stdbool.h>
#include <stddef.h>

#include "core/status.h"

/* The folder of a model file ("a/b/m.pmx" -> "a/b", "m.pmx" -> ".", "/m.pmx"
 * -> "/"): the model_dir that textures are resolved against and confined to.
 * Returns 0, or -1 when dir_size is too small. */
int mmd_texpath_model_dir(const char *model_path, char *dir, size_t dir_size);

mmd_status mmd_texpath_resolve(const char *model_dir, const char *stored, bool allow_outside, char *out,
                               size_t out_size, mmd_error *err);

/* An effect's reads (its #includes, its textures' ResourceName files) are
 * confined to one folder, its root (docs/limits.md "Effect files"): the
 * effect's folder raised MMD_EFFECT_ROOT_LEVELS folders (ray-mmd's
 * Materials/Skin/x.fx reaches ray-mmd/, where its "../../ray.conf" and
 * "../../Shader/" are), but never out of the folder the naming file has it
 * in: when the effect lies in the naming file's folder namer_dir (a scene's
 * or project's folder), not above namer_dir; else not into the folder the
 * two share (the shared folder's child on the effect's side is the highest).
 * namer_dir NULL (a name given on the command line): never "/" itself, its
 * child on the effect's side at the highest. realpath'd
 * (symlinks followed) into root. Returns 0, or -1 when effect_path cannot be
 * resolved or root_size is too small. */
#define MMD_EFFECT_ROOT_LEVELS 2
int mmd_texpath_effect_root(const char *effect_path, const char *namer_dir, char *root, size_t root_size);

/* stored resolved against dir as mmd_texpath_resolve does (letter case,
 * '\', Shift-JIS), confined to root instead of dir: ".." is followed while
 * every step, after symlinks, stays inside root; absolute paths and any step
 * outside root are refused (MMD_E_UNSUPPORTED, "texture 'X' is outside
 * ROOT (--allow-outside-assets)"). allow_outside: as mmd_texpath_resolve's. */
mmd_status mmd_texpath_resolve_in(const char *dir, const char *root, const char *stored, bool allow_outside,
                                  char *out, size_t out_size, mmd_error *err);
/* Whether the file open on fd is inside root (after symlinks): checked on
 * the opened file, so a path swapped after mmd_texpath_resolve_in's checks
 * is still refused. */
bool mmd_texpath_fd_inside(int fd, const char *root);

#endif
