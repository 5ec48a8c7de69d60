/* renderer/image/diff.c - see imgdiff.h. */
#include "renderer/image/diff.h"

#include <math.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdlib.h>

static double luma(const uint8_t *p) { return 0.299 * p[0] + 0.587 * p[1] + 0.114 * p[2]; }

static double ssim_window(const double *ya, const double *yb, int w, int x0, int y0, int ww, int wh)
{
    const double c1 = (0.01 * 255) * (0.01 * 255), c2 = (0.03 * 255) * (0.03 * 255);
    double sa = 0, sb = 0, saa = 0, sbb = 0, sab = 0;
    for (int y = y0; y < y0 + wh; y++)
        for (int x = x0; x < x0 + ww; x++) {
            double a = ya[(size_t)y * w + x], b = yb[(size_t)y * w + x];
            sa += a;
            sb += b;
            saa += a * a;
            sbb += b * b;
            sab += a * b;
        }
    double n = (double)ww * wh;
    double ma = sa / n, mb = sb / n;
    double va = saa / n - ma * ma, vb = sbb / n - mb * mb, cov = sab / n - ma * mb;
    return ((2 * ma * mb + c1) * (2 * cov + c2)) / ((ma * ma + mb * mb + c1) * (va + vb + c2));
}

static double ssim_luma(const uint8_t *a, const uint8_t *b, int w, int h)
{
    size_t n = (size_t)w * h;
    double *ya = malloc(n * sizeof *ya), *yb = malloc(n * sizeof *yb);
    if (!ya || !yb) {
        free(ya);
        free(yb);
        return NAN;
    }
    for (size_t i = 0; i < n; i++) {
        ya[i] = luma(a + i * 4);
        yb[i] = luma(b + i * 4);
    }
    int ww = w < 8 ? w : 8, wh = h < 8 ? h : 8;
    double sum = 0;
    long count = 0;
    for (int y = 0; y + wh <= h; y += 4) {
        for (int x = 0; x + ww <= w; x += 4) {
            sum += ssim_window(ya, yb, w, x, y, ww, wh);
            count++;
            if (ww < 8)
                break;
        }
        if (wh < 8)
            break;
    }
    free(ya);
    free(yb);
    return count ? sum / count : 1.0;
}

void mmd_imgdiff_compare(const uint8_t *a, const uint8_t *b, int w, int h, int threshold,
                         mmd_imgdiff_result *out)
{
    size_t n = (size_t)w * h;
    bool use_alpha = false;
    for (size_t i = 0; i < n && !use_alpha; i++)
        use_alpha = a[i * 4 + 3] != 255 || b[i * 4 + 3] != 255;
    int ch = use_alpha ? 4 : 3;
    unsigned long long sum = 0, sq = 0;
    int mx = 0;
    long long over = 0;
    for (size_t i = 0; i < n; i++) {
        int pm = 0;
        for (int c = 0; c < ch; c++) {
            int d = abs((int)a[i * 4 + c] - (int)b[i * 4 + c]);
            sum += (unsigned)d;
            sq += (unsigned)(d * d);
            if (d > pm)
                pm = d;
        }
        if (pm > mx)
            mx = pm;
        if (pm > threshold)
            over++;
    }
    double cnt = (double)n * ch;
    double mse = sq / cnt;
    out->width = w;
    out->height = h;
    out->max_error = mx;
    out->mean_error = sum / cnt;
    out->psnr = mse == 0 ? INFINITY : 10.0 * log10(255.0 * 255.0 / mse);
    out->ssim = mx == 0 ? 1.0 : ssim_luma(a, b, w, h);
    out->pixels_over = over;
    out->fraction_over = (double)over / (double)n;
}

void mmd_imgdiff_heatmap(const uint8_t *a, const uint8_t *b, int w, int h, uint8_t *out)
{
    for (size_t i = 0; i < (size_t)w * h; i++) {
        const uint8_t *pa = a + i * 4, *pb = b + i * 4;
        int d = 0;
        for (int c = 0; c < 4; c++) {
            int e = abs((int)pa[c] - (int)pb[c]);
            d = e > d ? e : d;
        }
        uint8_t g = (uint8_t)(luma(pa) / 4);
        uint8_t *o = out + i * 4;
        if (d) {
            int red = 64 + 12 * d;
            o[0] = (uint8_t)(red > 255 ? 255 : red);
            o[1] = o[2] = g / 2;
        } else {
            o[0] = o[1] = o[2] = g;
        }
        o[3] = 255;
    }
}
