/* renderer/output/sink_still.h - one PNG file: the frame of a one-frame range (-o still.png).
 *
 *   mmd_sink *s = mmd_sink_still_open("poster.png", alpha, &err);
 *   mmd_sink_write(s, rgba, w, h, stride, frame, &err); mmd_sink_close(s, &err);
 *
 * The frame is written at once, atomically (renderer/image/png.h: a temporary
 * renamed onto the path), as the PNG sequence writes each of its files: 8-bit
 * RGB, or RGBA with alpha. A second frame is refused (MMD_E_OUTPUT): the
 * caller gives a one-frame range (renderer/cli/outputs.c says so first).
 */
#ifndef MMD_RENDERER_SINK_STILL_H
#define MMD_RENDERER_SINK_STILL_H

#include <stdbool.h>
#include <stdint.h>

#include "renderer/output/sink.h"

/* NULL with err (MMD_E_NOMEM) only when out of memory; the file is created by write. */
mmd_sink *mmd_sink_still_open(const char *path, bool alpha, mmd_error *err);
/* What writing the one frame holds beside the caller's frame (it is encoded
 * in place): the row pointers and libpng's row buffers; --max-memory's
 * figure for a FILE.png output (renderer/cli/memory.h). */
uint64_t mmd_sink_still_memory(int width, int height);
/* True when path is a PNG that decodes completely at width x height (a size
 * <= 0 is not checked): --skip-existing. */
bool mmd_sink_still_exists(const char *path, int width, int height);

#endif
