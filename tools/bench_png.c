/* tools/bench_png.c - PNG encode cost: our settings (zlib 1..3, UP filter) vs
 * libpng's defaults (zlib 6, adaptive choice among all filters), on synthetic
 * render-like RGB frames (gradient sky, shaded spheres, a textured floor,
 * anti-aliased edges) at 1920x1080 and 1280x720. Prints ms per frame (best of
 * N runs, one thread) and the compressed size. Encodes into memory. */
#include <math.h>
#include <png.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "renderer/image/png.h"

typedef struct sink_buf {
    size_t size;
} sink_buf;

static void count_write(png_structp png, png_bytep data, size_t len)
{
    (void)data;
    ((sink_buf *)png_get_io_ptr(png))->size += len;
}
static void no_flush(png_structp png) { (void)png; }

/* filters < 0: libpng default filter choice; level < 0: libpng default level */
static size_t encode(const uint8_t *rgba, int w, int h, int level, int filters)
{
    sink_buf b = {0};
    png_structp png = png_create_write_struct(PNG_LIBPNG_VER_STRING, NULL, NULL, NULL);
    png_infop info = png_create_info_struct(png);
    if (setjmp(png_jmpbuf(png))) {
        png_destroy_write_struct(&png, &info);
        return 0;
    }
    png_set_write_fn(png, &b, count_write, no_flush);
    if (level >= 0)
        png_set_compression_level(png, level);
    if (filters >= 0)
        png_set_filter(png, PNG_FILTER_TYPE_BASE, filters);
    png_set_IHDR(png, info, (png_uint_32)w, (png_uint_32)h, 8, PNG_COLOR_TYPE_RGB,
                 PNG_INTERLACE_NONE, PNG_COMPRESSION_TYPE_BASE, PNG_FILTER_TYPE_BASE);
    png_write_info(png, info);
    png_set_filler(png, 0, PNG_FILLER_AFTER);
    for (int y = 0; y < h; y++)
        png_write_row(png, (png_const_bytep)(rgba + (size_t)y * w * 4));
    png_write_end(png, info);
    png_destroy_write_struct(&png, &info);
    return b.size;
}

static double now_ms(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec * 1e3 + t.tv_nsec / 1e6;
}

static uint8_t clamp8(double v) { return (uint8_t)(v < 0 ? 0 : v > 255 ? 255 : v + 0.5); }

static uint8_t *make_frame(int w, int h)
{
    uint8_t *p = malloc((size_t)w * h * 4);
    const double sph[3][6] = {{0.35, 0.45, 0.16, 230, 120, 140}, {0.62, 0.55, 0.22, 120, 180, 230},
                              {0.8, 0.35, 0.09, 250, 220, 120}};
    for (int y = 0; y < h; y++)
        for (int x = 0; x < w; x++) {
            double u = (double)x / w, v = (double)y / h, r, g, b;
            if (v > 0.7) { /* floor with a checker texture and a soft shadow */
                int c = ((int)(u * 24) + (int)((v - 0.7) * 80)) & 1;
                double s = 0.8 + 0.2 * c;
                r = 180 * s, g = 170 * s, b = 160 * s;
            } else {
                r = 90 + 100 * v, g = 140 + 80 * v, b = 220 - 20 * v;
            }
            for (int k = 0; k < 3; k++) {
                double dx = (u - sph[k][0]) * w / h, dy = v - sph[k][1], rr = sph[k][2];
                double d2 = (dx * dx + dy * dy) / (rr * rr);
                if (d2 < 1.0) {
                    double nz = sqrt(1 - d2), lit = 0.25 + 0.75 * fmax(0, (-dx * 0.4 - dy * 0.5) / rr + nz * 0.75);
                    double cov = fmin(1.0, (1.0 - sqrt(d2)) * rr * h); /* ~1 px AA edge */
                    r = r * (1 - cov) + sph[k][3] * lit * cov;
                    g = g * (1 - cov) + sph[k][4] * lit * cov;
                    b = b * (1 - cov) + sph[k][5] * lit * cov;
                }
            }
            uint8_t *o = p + ((size_t)y * w + x) * 4;
            o[0] = clamp8(r);
            o[1] = clamp8(g);
            o[2] = clamp8(b);
            o[3] = 255;
        }
    return p;
}

/* The frame with a real texture (Gene's face.png, tiled) over its lower
 * half, when ../shared is there: closer to a textured model render. */
static void add_texture(uint8_t *f, int w, int h)
{
    const char *dir = getenv("SHARED_ASSETS");
    char path[1024];
    mmd_error err;
    snprintf(path, sizeof path, "%s/gene/light/face.png", dir ? dir : "../shared/assets");
    uint8_t *t;
    int tw, th;
    if (mmd_png_read_file(path, &t, &tw, &th, &err) != MMD_OK)
        return;
    for (int y = h / 2; y < h; y++)
        for (int x = w / 4; x < 3 * w / 4; x++)
            memcpy(f + ((size_t)y * w + x) * 4, t + ((size_t)(y % th) * tw + (x % tw)) * 4, 3);
    free(t);
}

int main(void)
{
    const int sizes[3][2] = {{1920, 1080}, {1280, 720}, {1920, 1080}};
    const int runs = 5;
    printf("PNG encode, RGB, one thread, best of %d (libpng %s)\n", runs, PNG_LIBPNG_VER_STRING);
    for (int s = 0; s < 3; s++) {
        int w = sizes[s][0], h = sizes[s][1];
        uint8_t *f = make_frame(w, h);
        if (s == 2) {
            char probe[1024];
            const char *dir = getenv("SHARED_ASSETS");
            snprintf(probe, sizeof probe, "%s/gene/light/face.png", dir ? dir : "../shared/assets");
            FILE *pf = fopen(probe, "rb");
            if (!pf) {
                free(f);
                break;
            }
            fclose(pf);
            add_texture(f, w, h);
            printf("  with a real texture (gene/light/face.png) over a quarter of the frame:\n");
        }
        struct {
            const char *name;
            int level, filters;
        } cfg[] = {{"level 1, UP", 1, PNG_FILTER_UP},
                   {"level 2, UP (ours)", 2, PNG_FILTER_UP},
                   {"level 3, UP", 3, PNG_FILTER_UP},
                   {"libpng default (6, all)", -1, -1}};
        double base = 0;
        for (int c = 0; c < 4; c++) {
            double best = 1e30;
            size_t size = 0;
            for (int r = 0; r < runs; r++) {
                double t0 = now_ms();
                size = encode(f, w, h, cfg[c].level, cfg[c].filters);
                double t = now_ms() - t0;
                best = t < best ? t : best;
            }
            if (c == 1)
                base = best;
            printf("  %4dx%-4d %-24s %7.1f ms  %8zu bytes%s", w, h, cfg[c].name, best, size,
                   c == 3 && base > 0 ? "" : "\n");
            if (c == 3 && base > 0)
                printf("  (%.1fx our time)\n", best / base);
        }
        /* the project's writer end to end (same settings as "ours"), to /dev/null */
        FILE *nul = fopen("/dev/null", "wb");
        if (nul) {
            double best = 1e30;
            mmd_error err;
            for (int r = 0; r < runs; r++) {
                double t0 = now_ms();
                mmd_png_write_fp(nul, f, w, h, (size_t)w * 4, false, MMD_PNG_LEVEL_DEFAULT, &err);
                double t = now_ms() - t0;
                best = t < best ? t : best;
            }
            fclose(nul);
            printf("  %4dx%-4d %-24s %7.1f ms\n", w, h, "mmd_png_write_fp", best);
        }
        free(f);
    }
    return 0;
}
