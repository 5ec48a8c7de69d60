/* renderer/image/diff.h - image comparison maths shared by `mmdrender diff` and
 * the golden-image tests.
 *
 * Both images are RGBA8, tightly packed (stride w*4), same size. Channels
 * compared: R, G, B, and A too when either image has a pixel with alpha != 255.
 *   max_error      largest absolute channel difference (0..255)
 *   mean_error     mean absolute difference over all compared channels
 *   psnr           10 log10(255^2 / MSE) in dB; INFINITY when identical
 *   ssim           mean SSIM of the luma (Rec.601: .299R + .587G + .114B) over
 *                  8x8 windows stepped by 4 pixels (uniform weights, as
 *                  ffmpeg's ssim filter), C1 = (0.01*255)^2, C2 = (0.03*255)^2;
 *                  an image smaller than 8 in a dimension is one window;
 *                  NAN when out of memory
 *   pixels_over    pixels with any channel differing by more than threshold
 *   fraction_over  pixels_over / (w * h)
 * Exact match: threshold 0, max fraction 0. Tolerant setting for another Mesa
 * version: MMD_IMGDIFF_TOLERANT_THRESHOLD / _MAX_FRACTION.
 */
#ifndef MMD_RENDERER_IMGDIFF_H
#define MMD_RENDERER_IMGDIFF_H

#include <stdint.h>

#define MMD_IMGDIFF_TOLERANT_THRESHOLD 4
#define MMD_IMGDIFF_TOLERANT_MAX_FRACTION 0.01

typedef struct mmd_imgdiff_result {
    int width, height;
    int max_error;
    double mean_error, psnr, ssim;
    long long pixels_over;
    double fraction_over;
} mmd_imgdiff_result;

/* Metrics of b against a (w, h >= 1; threshold 0..255). */
void mmd_imgdiff_compare(const uint8_t *a, const uint8_t *b, int w, int h, int threshold,
                         mmd_imgdiff_result *out);

/* Heatmap into out (w*h*4 RGBA, opaque): a dark grey copy of a with each
 * differing pixel in red, 64 + 12 x its max channel error (all four channels),
 * saturating at an error of 16, so a 1-level difference is visible. */
void mmd_imgdiff_heatmap(const uint8_t *a, const uint8_t *b, int w, int h, uint8_t *out);

#endif
