/* renderer/output/sink.h - where finished frames go: PNG files or a video.
 *
 * A sink takes RGBA8 frames (top row first) in order. write_frame may keep
 * the pointer only until it returns (copy if encoding later). close finalises
 * (video trailer, last PNGs flushed) and frees; abort removes what was not
 * complete and frees. Both return MMD_OK or a status with err filled (NULL
 * allowed): MMD_E_OUTPUT, MMD_E_ENCODER. frame_index is the scene frame number
 * (names PNG files).
 */
#ifndef MMD_RENDERER_SINK_H
#define MMD_RENDERER_SINK_H

#include <stddef.h>
#include <stdint.h>

#include "core/status.h"

typedef struct mmd_sink mmd_sink;

typedef struct mmd_sink_vtable {
    mmd_status (*write_frame)(mmd_sink *s, const uint8_t *rgba, int width, int height, size_t stride,
                              int64_t frame_index, mmd_error *err);
    mmd_status (*close)(mmd_sink *s, mmd_error *err);
    void (*abort)(mmd_sink *s);
} mmd_sink_vtable;

struct mmd_sink {
    const mmd_sink_vtable *vt;
    /* Called (from any thread, serialised) when a frame is complete on disk
     * or in the encoder: progress reporting. May be NULL. */
    void (*on_done)(void *user, int64_t frame_index);
    void *user;
};

static inline mmd_status mmd_sink_write(mmd_sink *s, const uint8_t *rgba, int w, int h, size_t stride,
                                        int64_t frame, mmd_error *err)
{
    return s->vt->write_frame(s, rgba, w, h, stride, frame, err);
}
static inline mmd_status mmd_sink_close(mmd_sink *s, mmd_error *err) { return s->vt->close(s, err); }
static inline void mmd_sink_abort(mmd_sink *s) { s->vt->abort(s); }

#endif
