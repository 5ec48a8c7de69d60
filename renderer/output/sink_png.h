/* renderer/output/sink_png.h - the PNG-sequence sink (implements renderer/output/sink.h).
 *
 *   mmd_sink_png_open(target, threads, alpha, err)      -> sink or NULL (err says why)
 *   mmd_sink_png_path(target, frame, out, n)            the file name a frame gets
 *   mmd_sink_png_frame_exists(target, frame)            a complete PNG is already there
 *
 * target is either a directory ("out/" or "out": frames become
 * out/frame_000000.png, out/frame_000001.png, ... numbered by scene frame
 * index) or a file pattern with exactly one %d / %0Nd in the file name
 * ("frames/f_%04d.png"; write %% for a literal %). The directory is created
 * if missing. A name ending in .png without a pattern is refused.
 *
 * write_frame copies the frame into a bounded queue (2 x threads frames at
 * most, so memory stays bounded) and returns; `threads` worker threads
 * (<= 0: one per online CPU, at most 16) encode (zlib level 2, UP filter) and
 * write in parallel, each file atomically (renderer/image/png.h), so encoding
 * overlaps the rendering of the next frames. on_done runs on a worker thread,
 * serialised, once a frame's file is complete. After a write fails, further
 * write_frame calls fail at once with that error; close waits for the queue
 * and returns the first error (MMD_E_OUTPUT, err) or MMD_OK; abort drops
 * queued frames, waits for the frames being encoded (whose temp files are
 * removed or completed), and frees. Frames must be RGBA8, top row first.
 */
#ifndef MMD_RENDERER_SINK_PNG_H
#define MMD_RENDERER_SINK_PNG_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "renderer/output/sink.h"

/* Every failure is MMD_E_OUTPUT (a bad pattern, a directory that cannot be made). */
mmd_sink *mmd_sink_png_open(const char *target, int threads, bool alpha, mmd_error *err);

/* MMD_OK, or MMD_E_OUTPUT (err) when the target is not a valid directory/pattern
 * or the name does not fit in out. */
mmd_status mmd_sink_png_path(const char *target, int64_t frame_index, char *out, size_t out_size,
                             mmd_error *err);

bool mmd_sink_png_frame_exists(const char *target, int64_t frame_index);

#endif
