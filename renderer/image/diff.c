/* renderer/image/diff.c - see diff.h. */
#include "renderer/image/diff.h"

#include <math.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

static double luma(const uint8_t *p) { return 0.299 * p[0] + 0.587 * p[1] + 0.114 * p[2]; }

bool mmd_imgdiff_mask_hides(const uint8_t *m) { return (m[0] | m[1] | m[2]) && m[3]; }

/* B's pixel i as compared: A's where the mask hides it. */
static const uint8_t *b_px(const uint8_t *a, const uint8_t *b, const uint8_t *mask, size_t i)
{
    return mask && mmd_imgdiff_mask_hides(mask + i * 4) ? a + i * 4 : b + i * 4;
}

/* SSIM of one window; lumas are computed as read (no w*h buffers). */
static double ssim_window(const uint8_t *a, const uint8_t *b, const uint8_t *mask, int w, int x0, int y0,
                          int ww, int wh)
{
    const double c1 = (0.01 * 255) * (0.01 * 255), c2 = (0.03 * 255) * (0.03 * 255);
    double sa = 0, sb = 0, saa = 0, sbb = 0, sab = 0;
    for (int y = y0; y < y0 + wh; y++)
        for (int x = x0; x < x0 + ww; x++) {
            size_t i = (size_t)y * w + x;
            double la = luma(a + i * 4), lb = luma(b_px(a, b, mask, i));
            sa += la;
            sb += lb;
            saa += la * la;
            sbb += lb * lb;
            sab += la * lb;
        }
    double n = (double)ww * wh;
    double ma = sa / n, mb = sb / n;
    double va = saa / n - ma * ma, vb = sbb / n - mb * mb, cov = sab / n - ma * mb;
    return ((2 * ma * mb + c1) * (2 * cov + c2)) / ((ma * ma + mb * mb + c1) * (va + vb + c2));
}

static double ssim_luma(const uint8_t *a, const uint8_t *b, const uint8_t *mask, int w, int h)
{
    int ww = w < 8 ? w : 8, wh = h < 8 ? h : 8;
    double sum = 0;
    long count = 0;
    for (int y = 0; y + wh <= h; y += 4) {
        for (int x = 0; x + ww <= w; x += 4) {
            sum += ssim_window(a, b, mask, w, x, y, ww, wh);
            count++;
            if (ww < 8)
                break;
        }
        if (wh < 8)
            break;
    }
    return count ? sum / count : 1.0;
}

/* Neighbours of (x, y) inside the image with exactly its colour. */
static int equal_neighbours(const uint8_t *img, int w, int h, int x, int y)
{
    const uint8_t *p = img + ((size_t)y * w + x) * 4;
    int n = 0;
    for (int dy = -1; dy <= 1; dy++)
        for (int dx = -1; dx <= 1; dx++) {
            int nx = x + dx, ny = y + dy;
            if ((dx || dy) && nx >= 0 && ny >= 0 && nx < w && ny < h)
                n += !memcmp(p, img + ((size_t)ny * w + nx) * 4, 4);
        }
    return n;
}

static bool flat_in_both(const uint8_t *img, const uint8_t *other, int w, int h, int x, int y)
{
    return equal_neighbours(img, w, h, x, y) >= 3 && equal_neighbours(other, w, h, x, y) >= 3;
}

/* The anti-aliased edge rule of diff.h for pixel (x, y) of img; other is the
 * image it is compared with. */
static bool on_aa_edge(const uint8_t *img, const uint8_t *other, int w, int h, int x, int y)
{
    const uint8_t *p = img + ((size_t)y * w + x) * 4;
    double l = luma(p), lo = 0, hi = 0;
    int equal = 0, lox = 0, loy = 0, hix = 0, hiy = 0;
    for (int dy = -1; dy <= 1; dy++)
        for (int dx = -1; dx <= 1; dx++) {
            int nx = x + dx, ny = y + dy;
            if ((!dx && !dy) || nx < 0 || ny < 0 || nx >= w || ny >= h)
                continue;
            const uint8_t *q = img + ((size_t)ny * w + nx) * 4;
            if (!memcmp(p, q, 4)) {
                if (++equal > 2)
                    return false;
                continue;
            }
            double d = luma(q) - l;
            if (d < lo) {
                lo = d;
                lox = nx;
                loy = ny;
            } else if (d > hi) {
                hi = d;
                hix = nx;
                hiy = ny;
            }
        }
    if (lo == 0 || hi == 0)
        return false;
    return flat_in_both(img, other, w, h, lox, loy) || flat_in_both(img, other, w, h, hix, hiy);
}

static bool aa_pixel(const uint8_t *a, const uint8_t *b, int w, int h, size_t i)
{
    int x = (int)(i % (size_t)w), y = (int)(i / (size_t)w);
    return on_aa_edge(a, b, w, h, x, y) || on_aa_edge(b, a, w, h, x, y);
}

static int pixel_error(const uint8_t *pa, const uint8_t *pb, int ch)
{
    int pm = 0;
    for (int c = 0; c < ch; c++) {
        int d = abs((int)pa[c] - (int)pb[c]);
        pm = d > pm ? d : pm;
    }
    return pm;
}

void mmd_imgdiff_compare_opts(const uint8_t *a, const uint8_t *b, int w, int h, const mmd_imgdiff_opts *o,
                              mmd_imgdiff_result *out)
{
    size_t n = (size_t)w * h;
    bool use_alpha = false;
    for (size_t i = 0; i < n && !use_alpha; i++)
        use_alpha = a[i * 4 + 3] != 255 || b_px(a, b, o->mask, i)[3] != 255;
    int ch = use_alpha ? 4 : 3;
    unsigned long long sum = 0, sq = 0;
    int mx = 0;
    long long over = 0, masked = 0, aa = 0;
    for (size_t i = 0; i < n; i++) {
        const uint8_t *pa = a + i * 4, *pb = b_px(a, b, o->mask, i);
        if (pb == pa) {
            masked += pixel_error(pa, b + i * 4, ch) > o->threshold;
            continue;
        }
        for (int c = 0; c < ch; c++) {
            int d = abs((int)pa[c] - (int)pb[c]);
            sum += (unsigned)d;
            sq += (unsigned)(d * d);
        }
        int pm = pixel_error(pa, pb, ch);
        mx = pm > mx ? pm : mx;
        if (pm > o->threshold) {
            bool edge = o->ignore_aa && aa_pixel(a, b, w, h, i);
            aa += edge;
            over += !edge;
        }
    }
    double cnt = (double)n * ch;
    double mse = sq / cnt;
    out->width = w;
    out->height = h;
    out->max_error = mx;
    out->mean_error = sum / cnt;
    out->psnr = mse == 0 ? INFINITY : 10.0 * log10(255.0 * 255.0 / mse);
    out->ssim = mx == 0 ? 1.0 : ssim_luma(a, b, o->mask, w, h);
    out->pixels_over = over;
    out->fraction_over = (double)over / (double)n;
    out->pixels_masked = masked;
    out->pixels_aa = aa;
}

void mmd_imgdiff_compare(const uint8_t *a, const uint8_t *b, int w, int h, int threshold,
                         mmd_imgdiff_result *out)
{
    mmd_imgdiff_opts o = {.threshold = threshold};
    mmd_imgdiff_compare_opts(a, b, w, h, &o, out);
}

void mmd_imgdiff_heatmap_opts(const uint8_t *a, const uint8_t *b, int w, int h, const mmd_imgdiff_opts *o,
                              uint8_t *out)
{
    for (size_t i = 0; i < (size_t)w * h; i++) {
        const uint8_t *pa = a + i * 4, *pb = b_px(a, b, o->mask, i);
        int d = pixel_error(pa, pb, 4);
        uint8_t g = (uint8_t)(luma(pa) / 4);
        uint8_t *px = out + i * 4;
        if (d) {
            int red = 64 + 12 * d;
            bool edge = o->ignore_aa && d > o->threshold && aa_pixel(a, b, w, h, i);
            px[0] = (uint8_t)(red > 255 ? 255 : red);
            px[1] = edge ? px[0] : g / 2;
            px[2] = g / 2;
        } else {
            px[0] = px[1] = px[2] = g;
        }
        px[3] = 255;
    }
}

void mmd_imgdiff_heatmap(const uint8_t *a, const uint8_t *b, int w, int h, uint8_t *out)
{
    mmd_imgdiff_opts o = {0};
    mmd_imgdiff_heatmap_opts(a, b, w, h, &o, out);
}
