/* renderer/image/png.h - PNG files in and out (libpng), for the PNG sink, the
 * diff tool and tests.
 *
 *   mmd_png_write_file(path, rgba, w, h, stride, alpha, level, &err)
 *   mmd_png_write_fp(f, rgba, w, h, stride, alpha, level, &err)
 *   mmd_png_read_file(path, &rgba, &w, &h, &err)
 *   mmd_png_read_file_max(path, max_pixels, &rgba, &w, &h, &err)
 *   mmd_png_file_complete(path)
 *
 * Writing uses zlib level 1..3 (default MMD_PNG_LEVEL_DEFAULT when level < 0;
 * 0..9 accepted) and only the UP filter: libpng's defaults (level 6, adaptive
 * choice among all five filters) cost about 4x the time for a few percent of
 * size (tools/bench_png prints the figures). alpha false writes 8-bit RGB (the
 * input's 4th byte is dropped), true writes 8-bit RGBA with straight alpha.
 * Input is RGBA8, top row first, rows stride bytes apart.
 *
 * mmd_png_write_file is atomic: it writes a temporary from mmd_temp_create, checks
 * every write, flush and close (ENOSPC, EFBIG, EIO...), then renames onto
 * path. On failure nothing is left behind: no temp file, no partial path.
 * Thread-safe: no shared state.
 *
 * All return MMD_OK, or a status with a sentence (naming the path) in err
 * (may be NULL): writing MMD_E_OUTPUT (cannot create, write, close, rename),
 * MMD_E_BAD_VALUE (bad arguments), MMD_E_NOMEM; reading MMD_E_IO (cannot
 * open), MMD_E_BAD_MAGIC (not a PNG), MMD_E_BAD_STRUCTURE (corrupt,
 * truncated or over the limits), MMD_E_LIMIT (over max_pixels), MMD_E_NOMEM.
 */
#ifndef MMD_RENDERER_PNG_IO_H
#define MMD_RENDERER_PNG_IO_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "core/status.h"

#define MMD_PNG_LEVEL_DEFAULT 2

mmd_status mmd_png_write_file(const char *path, const uint8_t *rgba, int width, int height,
                              size_t stride, bool alpha, int level, mmd_error *err);

/* Encode to an open stream (flushed, not closed); the caller checks fclose.
 * For tests and callers with their own file handling (e.g. /dev/full). */
mmd_status mmd_png_write_fp(FILE *f, const uint8_t *rgba, int width, int height, size_t stride,
                            bool alpha, int level, mmd_error *err);

/* Any PNG (palette, grey, 16-bit, interlaced...) to RGBA8, top row first,
 * *rgba malloc'd (free()), tightly packed. Sizes above the image limits of
 * renderer/image/decode.h are refused before allocating. */
mmd_status mmd_png_read_file(const char *path, uint8_t **rgba, int *width, int *height, mmd_error *err);
/* The same under a caller's cap: an image declaring more than max_pixels
 * pixels is MMD_E_LIMIT (the message names both figures), refused from its
 * header before any pixel is allocated or decoded. */
mmd_status mmd_png_read_file_max(const char *path, unsigned long long max_pixels, uint8_t **rgba, int *width,
                                 int *height, mmd_error *err);

/* True when path is a regular file that starts with the PNG signature and
 * ends with an IEND chunk: a finished PNG (a killed writer leaves none). */
bool mmd_png_file_complete(const char *path);

#endif
