/* renderer/cmd_diff.c - `mmdrender diff A B`: compare PNGs or directories of PNGs.
 *
 * Metrics per image (both decoded to RGBA8). Channels compared: R, G, B, and
 * A too when either image has a pixel with alpha != 255.
 *   max_error      largest absolute channel difference (0..255)
 *   mean_error     mean absolute difference over all compared channels
 *   psnr           10 log10(255^2 / MSE) in dB; infinite when identical
 *                  (printed "inf", JSON null)
 *   ssim           mean SSIM of the luma (Rec.601: .299R + .587G + .114B) over
 *                  8x8 windows stepped by 4 pixels (uniform weights, as
 *                  ffmpeg's ssim filter), C1 = (0.01*255)^2, C2 = (0.03*255)^2;
 *                  an image smaller than 8 in a dimension is one window
 *   pixels_over    pixels with any channel differing by more than --threshold
 *   fraction_over  pixels_over / (width * height)
 * An image passes when fraction_over <= --max-fraction. Defaults 0 and 0:
 * an exact match. The tolerant setting for other Mesa versions is
 * `--threshold 4 --max-fraction 0.01`.
 *
 * Exit: 0 every image passes, 1 some image differs beyond the thresholds,
 * 2 unusable input (missing file, not a PNG, size mismatch, a name present in
 * only one directory, bad command line); 2 wins over 1.
 */
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "renderer/commands.h"
#include "renderer/png_io.h"

enum { DIFF_PASS = 0, DIFF_FAIL = 1, DIFF_BAD = 2 };

typedef struct diff_opts {
    int threshold;
    double max_fraction;
    bool json;
    const char *heatmap;
} diff_opts;

typedef struct diff_result {
    int width, height;
    int max_error;
    double mean_error, psnr, ssim;
    long long pixels_over;
    double fraction_over;
    bool pass;
    char error[PATH_MAX + 128]; /* non-empty: unusable input */
} diff_result;

static void usage(FILE *f)
{
    fprintf(f,
            "usage: mmdrender diff A B [--json] [--threshold T] [--max-fraction F] [--heatmap OUT]\n"
            "  A, B            PNG files, or directories of PNGs matched by file name\n"
            "  --threshold T   a pixel counts as different when a channel differs by more\n"
            "                  than T (0..255, default 0)\n"
            "  --max-fraction F  an image passes when at most this fraction of its pixels\n"
            "                  differ (0..1, default 0: exact match)\n"
            "  --heatmap OUT   write an amplified difference image (a directory of them when\n"
            "                  A and B are directories; only images that differ)\n"
            "  --json          machine-readable output\n"
            "Tolerant setting for other Mesa versions: --threshold 4 --max-fraction 0.01\n"
            "Exit: 0 all pass, 1 some image differs, 2 unusable input or bad command line.\n");
}

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

static void compare(const uint8_t *a, const uint8_t *b, int w, int h, const diff_opts *o,
                    diff_result *r)
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
        if (pm > o->threshold)
            over++;
    }
    double cnt = (double)n * ch;
    double mse = sq / cnt;
    r->width = w;
    r->height = h;
    r->max_error = mx;
    r->mean_error = sum / cnt;
    r->psnr = mse == 0 ? INFINITY : 10.0 * log10(255.0 * 255.0 / mse);
    r->ssim = mx == 0 ? 1.0 : ssim_luma(a, b, w, h);
    r->pixels_over = over;
    r->fraction_over = (double)over / (double)n;
    r->pass = r->fraction_over <= o->max_fraction;
}

/* A dark grey copy of A with differences in red: red = 64 + 12 x max channel
 * error (saturating at an error of 16), so a 1-level difference is visible. */
static int write_heatmap(const char *path, const uint8_t *a, const uint8_t *b, int w, int h,
                         char *msg, size_t n)
{
    uint8_t *out = malloc((size_t)w * h * 4);
    if (!out)
        return -1;
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
    int rc = mmd_png_write_file(path, out, w, h, (size_t)w * 4, false, MMD_PNG_LEVEL_DEFAULT, msg, n);
    free(out);
    return rc;
}

/* Compare one pair; returns DIFF_*. heat: heatmap path or NULL; force_heat:
 * write it even when identical. */
static int diff_files(const char *pa, const char *pb, const diff_opts *o, const char *heat,
                      bool force_heat, diff_result *r)
{
    memset(r, 0, sizeof *r);
    uint8_t *a = NULL, *b = NULL;
    int aw, ah, bw, bh;
    char msg[PATH_MAX + 64];
    if (mmd_png_read_file(pa, &a, &aw, &ah, msg, sizeof msg) != 0) {
        snprintf(r->error, sizeof r->error, "%s", msg);
        return DIFF_BAD;
    }
    if (mmd_png_read_file(pb, &b, &bw, &bh, msg, sizeof msg) != 0) {
        free(a);
        snprintf(r->error, sizeof r->error, "%s", msg);
        return DIFF_BAD;
    }
    int rc;
    if (aw != bw || ah != bh) {
        snprintf(r->error, sizeof r->error, "size mismatch: %dx%d vs %dx%d", aw, ah, bw, bh);
        rc = DIFF_BAD;
    } else {
        compare(a, b, aw, ah, o, r);
        rc = r->pass ? DIFF_PASS : DIFF_FAIL;
        if (heat && (force_heat || r->max_error > 0) &&
            write_heatmap(heat, a, b, aw, ah, msg, sizeof msg) != 0) {
            snprintf(r->error, sizeof r->error, "heatmap: %s", msg);
            rc = DIFF_BAD;
        }
    }
    free(a);
    free(b);
    return rc;
}

static void json_str(const char *s)
{
    putchar('"');
    for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
        if (*p == '"' || *p == '\\')
            printf("\\%c", *p);
        else if (*p < 0x20)
            printf("\\u%04x", *p);
        else
            putchar(*p);
    }
    putchar('"');
}

static void report(const char *name, const diff_result *r, const diff_opts *o, bool *first)
{
    if (o->json) {
        printf("%s\n    {\"name\": ", *first ? "" : ",");
        *first = false;
        json_str(name);
        if (r->error[0]) {
            printf(", \"error\": ");
            json_str(r->error);
            printf(", \"pass\": false}");
            return;
        }
        printf(", \"width\": %d, \"height\": %d, \"max_error\": %d, \"mean_error\": %.6f, "
               "\"psnr\": ",
               r->width, r->height, r->max_error, r->mean_error);
        if (isinf(r->psnr))
            printf("null");
        else
            printf("%.4f", r->psnr);
        printf(", \"ssim\": %.6f, \"pixels_over\": %lld, \"fraction_over\": %.8f, \"pass\": %s}",
               r->ssim, r->pixels_over, r->fraction_over, r->pass ? "true" : "false");
        return;
    }
    if (r->error[0]) {
        printf("%s: ERROR: %s\n", name, r->error);
        return;
    }
    char psnr[32];
    if (isinf(r->psnr))
        snprintf(psnr, sizeof psnr, "inf");
    else
        snprintf(psnr, sizeof psnr, "%.2f dB", r->psnr);
    printf("%s: %dx%d max %d, mean %.4f, PSNR %s, SSIM %.5f, %lld px over %d (%.4f%%): %s\n", name,
           r->width, r->height, r->max_error, r->mean_error, psnr, r->ssim, r->pixels_over,
           o->threshold, 100.0 * r->fraction_over, r->pass ? "ok" : "DIFFERS");
}

static bool is_dir(const char *p)
{
    struct stat st;
    return stat(p, &st) == 0 && S_ISDIR(st.st_mode);
}

static bool png_name(const char *n)
{
    size_t l = strlen(n);
    return n[0] != '.' && l > 4 && n[l - 4] == '.' && (n[l - 3] | 32) == 'p' &&
           (n[l - 2] | 32) == 'n' && (n[l - 1] | 32) == 'g';
}

static int cmp_str(const void *x, const void *y)
{
    return strcmp(*(char *const *)x, *(char *const *)y);
}

/* Sorted PNG names in dir (malloc'd array of malloc'd strings); -1 on error. */
static int list_pngs(const char *dir, char ***out, size_t *count)
{
    DIR *d = opendir(dir);
    if (!d)
        return -1;
    char **v = NULL;
    size_t n = 0, cap = 0;
    struct dirent *e;
    while ((e = readdir(d))) {
        if (!png_name(e->d_name))
            continue;
        if (n == cap) {
            cap = cap ? cap * 2 : 64;
            char **nv = realloc(v, cap * sizeof *v);
            if (!nv)
                break;
            v = nv;
        }
        v[n] = strdup(e->d_name);
        if (v[n])
            n++;
    }
    closedir(d);
    if (n)
        qsort(v, n, sizeof *v, cmp_str);
    *out = v;
    *count = n;
    return 0;
}

static void free_list(char **v, size_t n)
{
    for (size_t i = 0; i < n; i++)
        free(v[i]);
    free(v);
}

static const char *base_name(const char *p)
{
    const char *s = strrchr(p, '/');
    return s && s[1] ? s + 1 : p;
}

static bool parse_int(const char *s, long lo, long hi, long *out)
{
    char *end;
    errno = 0;
    long v = strtol(s, &end, 10);
    if (errno || end == s || *end || v < lo || v > hi)
        return false;
    *out = v;
    return true;
}

static bool parse_double(const char *s, double lo, double hi, double *out)
{
    char *end;
    errno = 0;
    double v = strtod(s, &end);
    if (errno || end == s || *end || !(v >= lo && v <= hi))
        return false;
    *out = v;
    return true;
}

int mmd_cmd_diff(int argc, char **argv)
{
    diff_opts o = {0, 0.0, false, NULL};
    const char *paths[2] = {NULL, NULL};
    int np = 0;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        const char *val = NULL;
        const char *eq = strchr(a, '=');
        char opt[32] = "";
        if (!strncmp(a, "--", 2) && eq && (size_t)(eq - a) < sizeof opt) {
            snprintf(opt, sizeof opt, "%.*s", (int)(eq - a), a);
            val = eq + 1;
        } else {
            snprintf(opt, sizeof opt, "%s", a);
        }
        bool takes = !strcmp(opt, "--threshold") || !strcmp(opt, "--max-fraction") ||
                     !strcmp(opt, "--heatmap");
        if (takes && !val) {
            if (i + 1 >= argc) {
                fprintf(stderr, "mmdrender diff: %s needs a value\n", opt);
                return DIFF_BAD;
            }
            val = argv[++i];
        }
        if (!strcmp(opt, "-h") || !strcmp(opt, "--help")) {
            usage(stdout);
            return MMD_EXIT_OK;
        } else if (!strcmp(opt, "--json")) {
            o.json = true;
        } else if (!strcmp(opt, "--threshold")) {
            long t;
            if (!parse_int(val, 0, 255, &t)) {
                fprintf(stderr, "mmdrender diff: --threshold wants an integer 0..255, got '%s'\n", val);
                return DIFF_BAD;
            }
            o.threshold = (int)t;
        } else if (!strcmp(opt, "--max-fraction")) {
            if (!parse_double(val, 0.0, 1.0, &o.max_fraction)) {
                fprintf(stderr, "mmdrender diff: --max-fraction wants a number 0..1, got '%s'\n", val);
                return DIFF_BAD;
            }
        } else if (!strcmp(opt, "--heatmap")) {
            o.heatmap = val;
        } else if (a[0] == '-' && a[1]) {
            fprintf(stderr, "mmdrender diff: unknown option '%s'\n", a);
            usage(stderr);
            return DIFF_BAD;
        } else if (np < 2) {
            paths[np++] = a;
        } else {
            fprintf(stderr, "mmdrender diff: too many arguments ('%s')\n", a);
            return DIFF_BAD;
        }
    }
    if (np != 2) {
        usage(stderr);
        return DIFF_BAD;
    }

    bool da = is_dir(paths[0]), db = is_dir(paths[1]);
    if (da != db) {
        fprintf(stderr, "mmdrender diff: '%s' and '%s' must both be PNG files or both directories\n",
                paths[0], paths[1]);
        return DIFF_BAD;
    }
    int worst = DIFF_PASS;
    int n_total = 0, n_pass = 0, n_fail = 0, n_bad = 0;
    bool first = true;
    if (o.json)
        printf("{\"threshold\": %d, \"max_fraction\": %g, \"images\": [", o.threshold, o.max_fraction);
    diff_result *r = malloc(sizeof *r);
    if (!r)
        return DIFF_BAD;

    if (!da) {
        int rc = diff_files(paths[0], paths[1], &o, o.heatmap, true, r);
        report(base_name(paths[0]), r, &o, &first);
        worst = rc;
        n_total = 1;
        n_pass = rc == DIFF_PASS;
        n_fail = rc == DIFF_FAIL;
        n_bad = rc == DIFF_BAD;
    } else {
        char **la = NULL, **lb = NULL;
        size_t na = 0, nb = 0;
        if (list_pngs(paths[0], &la, &na) != 0 || list_pngs(paths[1], &lb, &nb) != 0) {
            fprintf(stderr, "mmdrender diff: cannot list directories: %s\n", strerror(errno));
            free_list(la, na);
            free(r);
            return DIFF_BAD;
        }
        if (o.heatmap && mkdir(o.heatmap, 0777) != 0 && errno != EEXIST) {
            fprintf(stderr, "mmdrender diff: cannot create heatmap directory '%s': %s\n", o.heatmap,
                    strerror(errno));
            free_list(la, na);
            free_list(lb, nb);
            free(r);
            return DIFF_BAD;
        }
        size_t i = 0, j = 0;
        while (i < na || j < nb) {
            int c = i >= na ? 1 : j >= nb ? -1 : strcmp(la[i], lb[j]);
            const char *name = c <= 0 ? la[i] : lb[j];
            int rc;
            if (c != 0) {
                memset(r, 0, sizeof *r);
                snprintf(r->error, sizeof r->error, "only in %s", c < 0 ? paths[0] : paths[1]);
                rc = DIFF_BAD;
            } else {
                char pa[PATH_MAX], pb[PATH_MAX], ph[PATH_MAX];
                snprintf(pa, sizeof pa, "%s/%s", paths[0], name);
                snprintf(pb, sizeof pb, "%s/%s", paths[1], name);
                if (o.heatmap)
                    snprintf(ph, sizeof ph, "%s/%s", o.heatmap, name);
                rc = diff_files(pa, pb, &o, o.heatmap ? ph : NULL, false, r);
            }
            report(name, r, &o, &first);
            n_total++;
            n_pass += rc == DIFF_PASS;
            n_fail += rc == DIFF_FAIL;
            n_bad += rc == DIFF_BAD;
            if (rc > worst)
                worst = rc;
            if (c <= 0)
                i++;
            if (c >= 0)
                j++;
        }
        if (n_total == 0) {
            if (!o.json)
                fprintf(stderr, "mmdrender diff: no PNG files in '%s' or '%s'\n", paths[0], paths[1]);
            worst = DIFF_BAD;
        }
        free_list(la, na);
        free_list(lb, nb);
    }
    free(r);
    if (o.json)
        printf("%s], \"pass\": %s}\n", first ? "" : "\n  ", worst == DIFF_PASS ? "true" : "false");
    else if (n_total > 1)
        printf("%d images: %d ok, %d differ, %d unusable\n", n_total, n_pass, n_fail, n_bad);
    fflush(stdout);
    return worst;
}
