/* renderer/output/bgvideo.h - MMD's background video (背景AVI) read frame by
 * frame with libavformat/libavcodec, as RGBA for the renderer's background.
 *
 *     mmd_bgvideo *v; mmd_error err;
 *     if (mmd_bgvideo_open("bg.avi", &v, &err) != MMD_OK) -> warn, render without it
 *     per frame: mmd_bgvideo_frame(v, seconds, &rgba, &w, &h, &changed, &err);
 *     mmd_bgvideo_free(v);
 *
 * The frame shown at a time is the last one whose presentation time is at or
 * before it (the first frame before the video starts, the last after it ends),
 * so a scene at the video's own rate shows frame f at frame f. Times may go
 * backwards or jump (chunked renders start mid-range): the reader seeks to the
 * key frame before and decodes forward, giving the frames a straight decode
 * gives. Pixels are converted to RGBA at the video's size (swscale, exact
 * for RGB codecs). Sizes above MMD_IMAGE_MAX_SIDE a side or MMD_IMAGE_MAX_PIXELS
 * are refused (MMD_E_LIMIT); an unreadable file is MMD_E_IO, one that is not a
 * video container (a playlist, a script: media_open.h) MMD_E_UNSUPPORTED, one
 * without a video stream or decoder MMD_E_BAD_STRUCTURE / MMD_E_UNSUPPORTED.
 */
#ifndef MMD_RENDERER_BGVIDEO_H
#define MMD_RENDERER_BGVIDEO_H

#include <stdbool.h>
#include <stdint.h>

#include "core/status.h"

typedef struct mmd_bgvideo mmd_bgvideo;

mmd_status mmd_bgvideo_open(const char *path, mmd_bgvideo **out, mmd_error *err);
/* *rgba (top row first, width * 4 bytes a row) belongs to v and stays valid
 * until the next call; *changed says whether it differs from the last call's
 * frame. A decode error past the first frame keeps the last good frame. */
mmd_status mmd_bgvideo_frame(mmd_bgvideo *v, double seconds, const uint8_t **rgba, int *w, int *h, bool *changed,
                             mmd_error *err);
void mmd_bgvideo_free(mmd_bgvideo *v); /* NULL is a no-op */

#endif
