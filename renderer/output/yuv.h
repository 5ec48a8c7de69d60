/* renderer/yuv.h - RGBA8 frames to BT.709 limited-range YUV 4:2:0 for the video encoders.
 *
 *     uint8_t *planes[3] = {y, u, v};
 *     int pitch[3] = {y_linesize, u_linesize, v_linesize};
 *     mmd_rgba_to_yuv420_bt709(rgba, width * 4, width, height, planes, pitch);
 *
 * Y per pixel; U and V from the mean of each 2x2 block (what swscale's RGB
 * input path does), 15/16-bit fixed point, rounded to nearest. Alpha is
 * ignored. width and height must be even and > 0. Pure function, thread-safe;
 * SSE2 on x86-64 and a portable loop elsewhere give the same bytes.
 */
#ifndef MMD_RENDERER_YUV_H
#define MMD_RENDERER_YUV_H

#include <stddef.h>
#include <stdint.h>

void mmd_rgba_to_yuv420_bt709(const uint8_t *rgba, size_t stride, int width, int height,
                              uint8_t *const planes[3], const int pitch[3]);

/* The portable loop alone (tests compare it with the default path). */
void mmd_rgba_to_yuv420_bt709_scalar(const uint8_t *rgba, size_t stride, int width, int height,
                                     uint8_t *const planes[3], const int pitch[3]);

#endif
