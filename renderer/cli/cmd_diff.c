/* renderer/cli/cmd_diff.c - `mmdrender diff A B`: compare PNGs or directories of PNGs.
 *
 * Metrics per image (both decoded to RGBA8): max/mean error, PSNR, SSIM,
 * pixels over --threshold and their fraction, as defined in renderer/image/diff.h
 * (an infinite PSNR prints "inf", JSON null).
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

#include "renderer/base/parse.h"
#include "renderer/cli/commands.h"
#include "renderer/image/diff.h"
#include "renderer/image/png.h"

enum { DIFF_PASS = 0, DIFF_FAIL = 1, DIFF_BAD = 2 };

typedef struct diff_opts {
    int threshold;
    double max_fraction;
    bool json;
    const char *heatmap;
} diff_opts;

typedef struct diff_result {
    mmd_imgdiff_result m;
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

/* The heatmap of imgdiff.h, written as a PNG. */
static int write_heatmap(const char *path, const uint8_t *a, const uint8_t *b, int w, int h,
                         char *msg, size_t n)
{
    uint8_t *out = malloc((size_t)w * h * 4);
    if (!out) {
        snprintf(msg, n, "out of memory");
        return -1;
    }
    mmd_imgdiff_heatmap(a, b, w, h, out);
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
        mmd_imgdiff_compare(a, b, aw, ah, o->threshold, &r->m);
        r->pass = r->m.fraction_over <= o->max_fraction;
        rc = r->pass ? DIFF_PASS : DIFF_FAIL;
        if (heat && (force_heat || r->m.max_error > 0) &&
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

static void report(const char *name, const diff_result *dr, const diff_opts *o, bool *first)
{
    const mmd_imgdiff_result *r = &dr->m;
    if (o->json) {
        printf("%s\n    {\"name\": ", *first ? "" : ",");
        *first = false;
        json_str(name);
        if (dr->error[0]) {
            printf(", \"error\": ");
            json_str(dr->error);
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
               r->ssim, r->pixels_over, r->fraction_over, dr->pass ? "true" : "false");
        return;
    }
    if (dr->error[0]) {
        printf("%s: ERROR: %s\n", name, dr->error);
        return;
    }
    char psnr[32];
    if (isinf(r->psnr))
        snprintf(psnr, sizeof psnr, "inf");
    else
        snprintf(psnr, sizeof psnr, "%.2f dB", r->psnr);
    printf("%s: %dx%d max %d, mean %.4f, PSNR %s, SSIM %.5f, %lld px over %d (%.4f%%): %s\n", name,
           r->width, r->height, r->max_error, r->mean_error, psnr, r->ssim, r->pixels_over,
           o->threshold, 100.0 * r->fraction_over, dr->pass ? "ok" : "DIFFERS");
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
            if (!mmd_parse_long(val, 0, 255, &t)) {
                fprintf(stderr, "mmdrender diff: --threshold wants an integer 0..255, got '%s'\n", val);
                return DIFF_BAD;
            }
            o.threshold = (int)t;
        } else if (!strcmp(opt, "--max-fraction")) {
            if (!mmd_parse_double(val, 0.0, 1.0, &o.max_fraction)) {
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
