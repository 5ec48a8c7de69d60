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
 *
 * The frames a sink will write are locked while it is open (an advisory
 * lock on MMD_PNG_LOCK_NAME in the folder, frame numbers as byte offsets,
 * released on close/abort or when the process ends): a second sink on the
 * same folder with an overlapping range, in this or another process, is
 * refused with MMD_E_OUTPUT; disjoint ranges (farm chunks) share the folder.
 * mmd_sink_png_open locks every frame. A bad target (pattern) is MMD_E_USAGE.
 */
#ifndef MMD_RENDERER_SINK_PNG_H
#define MMD_RENDERER_SINK_PNG_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "renderer/output/sink.h"

#define MMD_PNG_LOCK_NAME ".mmdrender.lock"

/* Bytes the sink holds for frames of width x height with `threads` (as
 * open takes it): its queue of 2 x threads RGBA frames. Pure. */
uint64_t mmd_sink_png_memory(int width, int height, int threads);

/* MMD_E_USAGE for a bad target, MMD_E_OUTPUT otherwise (a directory that
 * cannot be made, the folder locked by another writer). */
mmd_sink *mmd_sink_png_open(const char *target, int threads, bool alpha, mmd_error *err);
/* The same, locking only frames first..last (inclusive; first < 0: all). */
mmd_sink *mmd_sink_png_open_range(const char *target, int threads, bool alpha, int64_t first, int64_t last,
                                  mmd_error *err);

/* MMD_OK, or MMD_E_OUTPUT (err) when the target is not a valid directory/pattern
 * or the name does not fit in out. */
mmd_status mmd_sink_png_path(const char *target, int64_t frame_index, char *out, size_t out_size,
                             mmd_error *err);

/* True when writing frames to target would replace the file `path` (its
 * folder is the target's, by inode, and its name is the target's name for
 * some frame number, written to *frame): the check that no output frame
 * overwrites an input. */
bool mmd_sink_png_writes(const char *target, const char *path, int64_t *frame);

/* True when the frame's PNG exists, is a regular file, and decodes completely
 * (every chunk CRC, the image data to the end) at width x height (a size <= 0
 * is not checked): what --skip-existing trusts. */
bool mmd_sink_png_frame_exists(const char *target, int64_t frame_index, int width, int height);

#endif
