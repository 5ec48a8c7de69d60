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
 *                  an image smaller than 8 in a dimension is one window
 *   pixels_over    pixels with any channel differing by more than threshold,
 *                  less the masked and anti-aliasing pixels below
 *   fraction_over  pixels_over / (w * h)
 *   pixels_masked  pixels over threshold that the mask hides
 *   pixels_aa      pixels over threshold left out as anti-aliasing (ignore_aa)
 * No allocation: memory is the caller's two images (and the heatmap's output).
 *
 * Mask (mmd_imgdiff_opts.mask, RGBA8 of the same size, NULL: none): a pixel
 * whose mask pixel is not black (R, G or B above 0) and not fully transparent
 * is ignored: it counts as equal in every figure (B's value is taken as A's),
 * so paint white on black, or any colour on a transparent layer.
 *
 * Anti-aliasing (ignore_aa, after pixelmatch's idea): a pixel over threshold
 * is not counted in pixels_over when, in A or in B, it lies on an
 * anti-aliased edge: at most 2 of its 8 neighbours have its exact colour, it
 * has both a darker and a brighter neighbour (by luma), and its darkest or its
 * brightest neighbour sits in a flat area (3 or more neighbours of its exact
 * colour) in both images. It still counts in max/mean error, PSNR and SSIM.
 * Exact match: threshold 0, max fraction 0. Tolerant setting for another Mesa
 * version: MMD_IMGDIFF_TOLERANT_THRESHOLD / _MAX_FRACTION.
 */
#ifndef MMD_RENDERER_IMGDIFF_H
#define MMD_RENDERER_IMGDIFF_H

#include <stdbool.h>
#include <stdint.h>

#define MMD_IMGDIFF_TOLERANT_THRESHOLD 4
#define MMD_IMGDIFF_TOLERANT_MAX_FRACTION 0.01

typedef struct mmd_imgdiff_result {
    int width, height;
    int max_error;
    double mean_error, psnr, ssim;
    long long pixels_over;
    double fraction_over;
    long long pixels_masked, pixels_aa;
} mmd_imgdiff_result;

typedef struct mmd_imgdiff_opts {
    int threshold;       /* 0..255 */
    const uint8_t *mask; /* RGBA8 w*h, NULL: none (see above) */
    bool ignore_aa;      /* anti-aliased edge pixels do not count (see above) */
} mmd_imgdiff_opts;

/* Metrics of b against a (w, h >= 1; threshold 0..255). */
void mmd_imgdiff_compare(const uint8_t *a, const uint8_t *b, int w, int h, int threshold,
                         mmd_imgdiff_result *out);
void mmd_imgdiff_compare_opts(const uint8_t *a, const uint8_t *b, int w, int h, const mmd_imgdiff_opts *o,
                              mmd_imgdiff_result *out);

/* True when the mask pixel m (RGBA) hides its pixel. */
bool mmd_imgdiff_mask_hides(const uint8_t *m);

/* Heatmap into out (w*h*4 RGBA, opaque): a dark grey copy of a with each
 * differing pixel in red, 64 + 12 x its max channel error (all four channels),
 * saturating at an error of 16, so a 1-level difference is visible. With
 * options, a masked pixel stays grey and an anti-aliasing pixel over the
 * threshold is yellow (the red level in R and G). */
void mmd_imgdiff_heatmap(const uint8_t *a, const uint8_t *b, int w, int h, uint8_t *out);
void mmd_imgdiff_heatmap_opts(const uint8_t *a, const uint8_t *b, int w, int h, const mmd_imgdiff_opts *o,
                              uint8_t *out);

#endif
