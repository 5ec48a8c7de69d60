/* renderer/cli/cmd_diff.c - `mmdrender diff A B`: compare PNGs or directories of PNGs.
 *
 * Metrics per image (both decoded to RGBA8): max/mean error, PSNR, SSIM,
 * pixels over --threshold and their fraction, as defined in renderer/image/diff.h
 * (an infinite PSNR prints "inf", JSON null).
 * An image passes when fraction_over <= --max-fraction. Defaults 0 and 0:
 * an exact match. The tolerant setting for other Mesa versions is
 * `--threshold 4 --max-fraction 0.01`.
 *
 * --html DIR writes a report folder (renderer/cli/diff_html.h): DIR/index.html
 * and DIR/img/ with A, B and the heatmap of every image that differs (every
 * image with --all). A report that cannot be written is exit 2.
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

#include "renderer/base/fs.h"
#include "renderer/base/msg.h"
#include "renderer/base/parse.h"
#include "renderer/cli/commands.h"
#include "renderer/cli/diff_html.h"
#include "renderer/cli/json_out.h"
#include "renderer/image/diff.h"
#include "renderer/image/png.h"

enum { DIFF_PASS = 0, DIFF_FAIL = 1, DIFF_BAD = 2 };

typedef struct diff_opts {
    int threshold;
    double max_fraction;
    bool json;
    const char *heatmap;
    const char *html; /* report folder, NULL: none */
    bool all;         /* report rows for identical images too */
} diff_opts;

/* The report's rows as they are compared (names and errors owned). */
typedef struct report {
    mmd_diff_html_row *rows;
    size_t n, cap;
    int identical;
    bool failed; /* an image of the report could not be written */
    char msg[PATH_MAX + 64];
} html_report;

typedef struct diff_result {
    mmd_imgdiff_result m;
    bool pass;
    char error[PATH_MAX + 128]; /* non-empty: unusable input */
} diff_result;

static void usage(FILE *f)
{
    fprintf(f,
            "usage: mmdrender diff A B [--json] [--threshold T] [--max-fraction F] [--heatmap OUT]\n"
            "                          [--html DIR [--all]]\n"
            "  A, B            PNG files, or directories of PNGs matched by file name\n"
            "  --threshold T   a pixel counts as different when a channel differs by more\n"
            "                  than T (0..255, default 0)\n"
            "  --max-fraction F  an image passes when at most this fraction of its pixels\n"
            "                  differ (0..1, default 0: exact match)\n"
            "  --heatmap OUT   write an amplified difference image (a directory of them when\n"
            "                  A and B are directories; only images that differ)\n"
            "  --html DIR      write DIR/index.html: a report with A, B and the heatmap of\n"
            "                  each image that differs, worst first (opens without a server)\n"
            "  --all           the report shows every image, identical ones too\n"
            "  --json          machine-readable output\n"
            "Tolerant setting for other Mesa versions: --threshold 4 --max-fraction 0.01\n"
            "Exit: 0 all pass, 1 some image differs, 2 unusable input or bad command line.\n");
}

/* The heatmap of imgdiff.h, written as a PNG. */
static mmd_status write_heatmap(const char *path, const uint8_t *a, const uint8_t *b, int w, int h,
                                mmd_error *err)
{
    uint8_t *out = malloc((size_t)w * h * 4);
    if (!out)
        return mmd_fail(err, MMD_E_NOMEM, "out of memory");
    mmd_imgdiff_heatmap(a, b, w, h, out);
    mmd_status rc = mmd_png_write_file(path, out, w, h, (size_t)w * 4, false, MMD_PNG_LEVEL_DEFAULT, err);
    free(out);
    return rc;
}

/* A new report row for name (NULL when out of memory: the report fails). */
static mmd_diff_html_row *report_add(html_report *rep, const char *name, const diff_result *r)
{
    if (rep->n == rep->cap) {
        size_t cap = rep->cap ? rep->cap * 2 : 64;
        mmd_diff_html_row *nr = realloc(rep->rows, cap * sizeof *nr);
        if (!nr)
            return NULL;
        rep->rows = nr;
        rep->cap = cap;
    }
    mmd_diff_html_row *row = &rep->rows[rep->n];
    memset(row, 0, sizeof *row);
    row->name = strdup(name);
    row->error = r->error[0] ? strdup(r->error) : NULL;
    if (!row->name || (r->error[0] && !row->error)) {
        free((void *)row->name);
        free((void *)row->error);
        return NULL;
    }
    row->m = r->m;
    row->pass = r->pass;
    rep->n++;
    return row;
}

/* A, B and the heatmap of a compared pair into DIR/img/ (files named by row number). */
static mmd_status report_images(const diff_opts *o, mmd_diff_html_row *row, size_t k, const uint8_t *a,
                                const uint8_t *b, int w, int h, mmd_error *err)
{
    char path[PATH_MAX];
    snprintf(row->img_a, sizeof row->img_a, "img/%06zu-a.png", k);
    snprintf(row->img_b, sizeof row->img_b, "img/%06zu-b.png", k);
    snprintf(row->img_heat, sizeof row->img_heat, "img/%06zu-heat.png", k);
    snprintf(path, sizeof path, "%s/%s", o->html, row->img_a);
    mmd_status st = mmd_png_write_file(path, a, w, h, (size_t)w * 4, true, MMD_PNG_LEVEL_DEFAULT, err);
    if (st != MMD_OK)
        return st;
    snprintf(path, sizeof path, "%s/%s", o->html, row->img_b);
    if ((st = mmd_png_write_file(path, b, w, h, (size_t)w * 4, true, MMD_PNG_LEVEL_DEFAULT, err)) != MMD_OK)
        return st;
    snprintf(path, sizeof path, "%s/%s", o->html, row->img_heat);
    return write_heatmap(path, a, b, w, h, err);
}

/* Records a compared name in the report: a row when it differs, is unusable
 * or --all asks; a, b (may be NULL) are its pixels. */
static void report_pair(html_report *rep, const diff_opts *o, const char *name, const diff_result *r,
                        const uint8_t *a, const uint8_t *b)
{
    bool same = !r->error[0] && r->m.max_error == 0;
    rep->identical += same;
    if (!o->html || rep->failed || (same && !o->all))
        return;
    mmd_diff_html_row *row = report_add(rep, name, r);
    mmd_error e;
    if (!row) {
        rep->failed = true;
        snprintf(rep->msg, sizeof rep->msg, "out of memory");
    } else if (a && b && !r->error[0] &&
               report_images(o, row, rep->n - 1, a, b, r->m.width, r->m.height, &e) != MMD_OK) {
        rep->failed = true;
        snprintf(rep->msg, sizeof rep->msg, "%s", e.msg);
    }
}

static void report_free(html_report *rep)
{
    for (size_t i = 0; i < rep->n; i++) {
        free((void *)rep->rows[i].name);
        free((void *)rep->rows[i].error);
    }
    free(rep->rows);
}

/* Compare one pair; returns DIFF_*. heat: heatmap path or NULL; force_heat:
 * write it even when identical. The pair goes into the report as name. */
static int diff_files(const char *pa, const char *pb, const char *name, const diff_opts *o, const char *heat,
                      bool force_heat, diff_result *r, html_report *rep)
{
    memset(r, 0, sizeof *r);
    uint8_t *a = NULL, *b = NULL;
    int aw = 0, ah = 0, bw = 0, bh = 0;
    mmd_error e;
    int rc = DIFF_BAD;
    if (mmd_png_read_file(pa, &a, &aw, &ah, &e) != MMD_OK || mmd_png_read_file(pb, &b, &bw, &bh, &e) != MMD_OK) {
        snprintf(r->error, sizeof r->error, "%s", e.msg);
    } else if (aw != bw || ah != bh) {
        snprintf(r->error, sizeof r->error, "size mismatch: %dx%d vs %dx%d", aw, ah, bw, bh);
    } else {
        mmd_imgdiff_compare(a, b, aw, ah, o->threshold, &r->m);
        r->pass = r->m.fraction_over <= o->max_fraction;
        rc = r->pass ? DIFF_PASS : DIFF_FAIL;
        if (heat && (force_heat || r->m.max_error > 0) &&
            write_heatmap(heat, a, b, aw, ah, &e) != MMD_OK) {
            snprintf(r->error, sizeof r->error, "heatmap: %s", e.msg);
            rc = DIFF_BAD;
        }
    }
    report_pair(rep, o, name, r, rc == DIFF_BAD ? NULL : a, b);
    free(a);
    free(b);
    return rc;
}

static void report(const char *name, const diff_result *dr, const diff_opts *o, bool *first)
{
    const mmd_imgdiff_result *r = &dr->m;
    if (o->json) {
        printf("%s\n    {\"name\": ", *first ? "" : ",");
        *first = false;
        mmd_json_str(stdout, name);
        if (dr->error[0]) {
            printf(", \"error\": ");
            mmd_json_str(stdout, dr->error);
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
        mmd_msg_print(stdout, "%s: ERROR: %s\n", name, dr->error);
        return;
    }
    char psnr[32];
    if (isinf(r->psnr))
        snprintf(psnr, sizeof psnr, "inf");
    else
        snprintf(psnr, sizeof psnr, "%.2f dB", r->psnr);
    mmd_msg_print(stdout, "%s: %dx%d max %d, mean %.4f, PSNR %s, SSIM %.5f, %lld px over %d (%.4f%%): %s\n", name,
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

/* Options into o and the two paths; -1: exit with *rc (help or bad usage). */
static int parse_args(int argc, char **argv, diff_opts *o, const char *paths[2], int *rc)
{
    int np = 0;
    *rc = DIFF_BAD;
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
                     !strcmp(opt, "--heatmap") || !strcmp(opt, "--html");
        if (takes && !val) {
            if (i + 1 >= argc) {
                mmd_msg_print(stderr, "mmdrender diff: %s needs a value\n", opt);
                return -1;
            }
            val = argv[++i];
        }
        if (!strcmp(opt, "-h") || !strcmp(opt, "--help")) {
            usage(stdout);
            *rc = MMD_EXIT_OK;
            return -1;
        } else if (!strcmp(opt, "--json")) {
            o->json = true;
        } else if (!strcmp(opt, "--all")) {
            o->all = true;
        } else if (!strcmp(opt, "--threshold")) {
            long t;
            if (!mmd_parse_long(val, 0, 255, &t)) {
                mmd_msg_print(stderr, "mmdrender diff: --threshold wants an integer 0..255, got '%s'\n", val);
                return -1;
            }
            o->threshold = (int)t;
        } else if (!strcmp(opt, "--max-fraction")) {
            if (!mmd_parse_double(val, 0.0, 1.0, &o->max_fraction)) {
                mmd_msg_print(stderr, "mmdrender diff: --max-fraction wants a number 0..1, got '%s'\n", val);
                return -1;
            }
        } else if (!strcmp(opt, "--heatmap")) {
            o->heatmap = val;
        } else if (!strcmp(opt, "--html")) {
            o->html = val;
        } else if (a[0] == '-' && a[1]) {
            mmd_msg_print(stderr, "mmdrender diff: unknown option '%s'\n", a);
            usage(stderr);
            return -1;
        } else if (np < 2) {
            paths[np++] = a;
        } else {
            mmd_msg_print(stderr, "mmdrender diff: too many arguments ('%s')\n", a);
            return -1;
        }
    }
    if (np != 2) {
        usage(stderr);
        return -1;
    }
    if (o->all && !o->html) {
        mmd_msg_print(stderr, "mmdrender diff: --all applies to the --html report\n");
        return -1;
    }
    return 0;
}

/* A folder (and its img/ folder for the report); false with a message. */
static bool make_dir(const char *dir, const char *sub, const char *what)
{
    char p[PATH_MAX];
    snprintf(p, sizeof p, "%s%s%s", dir, sub ? "/" : "", sub ? sub : "");
    if (mkdir(p, 0777) != 0 && errno != EEXIST) {
        mmd_msg_print(stderr, "mmdrender diff: cannot create %s directory '%s': %s\n", what, p, strerror(errno));
        return false;
    }
    return true;
}

typedef struct tally {
    int worst, total, pass, fail, bad;
    bool first; /* JSON: no image printed yet */
} tally;

static void count(tally *t, int rc)
{
    t->total++;
    t->pass += rc == DIFF_PASS;
    t->fail += rc == DIFF_FAIL;
    t->bad += rc == DIFF_BAD;
    if (rc > t->worst)
        t->worst = rc;
}

/* Two folders, matched by PNG name; false when they cannot be listed. */
static bool diff_dirs(const char *const paths[2], const diff_opts *o, diff_result *r, html_report *rep, tally *t)
{
    char **la = NULL, **lb = NULL;
    size_t na = 0, nb = 0;
    if (list_pngs(paths[0], &la, &na) != 0 || list_pngs(paths[1], &lb, &nb) != 0) {
        mmd_msg_print(stderr, "mmdrender diff: cannot list directories: %s\n", strerror(errno));
        free_list(la, na);
        return false;
    }
    size_t i = 0, j = 0;
    while (i < na || j < nb) {
        int c = i >= na ? 1 : j >= nb ? -1 : strcmp(la[i], lb[j]);
        const char *name = c <= 0 ? la[i] : lb[j];
        int rc;
        if (c != 0) {
            memset(r, 0, sizeof *r);
            snprintf(r->error, sizeof r->error, "only in %s", c < 0 ? paths[0] : paths[1]);
            report_pair(rep, o, name, r, NULL, NULL);
            rc = DIFF_BAD;
        } else {
            char pa[PATH_MAX], pb[PATH_MAX], ph[PATH_MAX];
            snprintf(pa, sizeof pa, "%s/%s", paths[0], name);
            snprintf(pb, sizeof pb, "%s/%s", paths[1], name);
            if (o->heatmap)
                snprintf(ph, sizeof ph, "%s/%s", o->heatmap, name);
            rc = diff_files(pa, pb, name, o, o->heatmap ? ph : NULL, false, r, rep);
        }
        report(name, r, o, &t->first);
        count(t, rc);
        if (c <= 0)
            i++;
        if (c >= 0)
            j++;
    }
    if (t->total == 0) {
        if (!o->json)
            mmd_msg_print(stderr, "mmdrender diff: no PNG files in '%s' or '%s'\n", paths[0], paths[1]);
        t->worst = DIFF_BAD;
    }
    free_list(la, na);
    free_list(lb, nb);
    return true;
}

/* index.html from the collected rows; DIFF_BAD when it cannot be written. */
static int finish_report(const char *const paths[2], const diff_opts *o, html_report *rep, const tally *t)
{
    if (!rep->failed) {
        mmd_diff_html_info info = {.a = paths[0], .b = paths[1], .threshold = o->threshold,
                                   .max_fraction = o->max_fraction, .all = o->all, .total = t->total,
                                   .identical = rep->identical, .pass = t->pass, .fail = t->fail, .bad = t->bad};
        if (mmd_diff_html_write(o->html, &info, rep->rows, rep->n, rep->msg, sizeof rep->msg) != 0)
            rep->failed = true;
    }
    if (rep->failed) {
        mmd_msg_print(stderr, "mmdrender diff: report: %s\n", rep->msg);
        return DIFF_BAD;
    }
    if (!o->json)
        mmd_msg_print(stdout, "report: %s/index.html (%zu rows)\n", o->html, rep->n);
    return DIFF_PASS;
}

int mmd_cmd_diff(int argc, char **argv)
{
    diff_opts o = {0, 0.0, false, NULL, NULL, false};
    const char *paths[2] = {NULL, NULL};
    int rc;
    if (parse_args(argc, argv, &o, paths, &rc) != 0)
        return rc;
    for (int i = 0; i < 2; i++) /* outputs are never inputs (by inode) */
        if ((o.heatmap && mmd_same_file(o.heatmap, paths[i])) || (o.html && mmd_same_file(o.html, paths[i]))) {
            mmd_msg_print(stderr, "mmdrender diff: the output '%s' is the input '%s'\n",
                          o.heatmap && mmd_same_file(o.heatmap, paths[i]) ? o.heatmap : o.html, paths[i]);
            return DIFF_BAD;
        }
    bool da = is_dir(paths[0]), db = is_dir(paths[1]);
    if (da != db) {
        mmd_msg_print(stderr, "mmdrender diff: '%s' and '%s' must both be PNG files or both directories\n",
                      paths[0], paths[1]);
        return DIFF_BAD;
    }
    if ((da && o.heatmap && !make_dir(o.heatmap, NULL, "heatmap")) ||
        (o.html && (!make_dir(o.html, NULL, "report") || !make_dir(o.html, "img", "report"))))
        return DIFF_BAD;
    tally t = {.worst = DIFF_PASS, .first = true};
    html_report rep = {0};
    diff_result *r = malloc(sizeof *r);
    if (!r)
        return DIFF_BAD;
    if (o.json)
        printf("{\"threshold\": %d, \"max_fraction\": %g, \"images\": [", o.threshold, o.max_fraction);
    if (!da) {
        rc = diff_files(paths[0], paths[1], base_name(paths[0]), &o, o.heatmap, true, r, &rep);
        report(base_name(paths[0]), r, &o, &t.first);
        count(&t, rc);
    } else if (!diff_dirs(paths, &o, r, &rep, &t)) {
        t.worst = DIFF_BAD; /* (JSON: the document is left open, as before) */
        free(r);
        report_free(&rep);
        return DIFF_BAD;
    }
    free(r);
    if (o.json)
        printf("%s], \"pass\": %s}\n", t.first ? "" : "\n  ", t.worst == DIFF_PASS ? "true" : "false");
    else if (t.total > 1)
        printf("%d images: %d ok, %d differ, %d unusable\n", t.total, t.pass, t.fail, t.bad);
    if (o.html && finish_report(paths, &o, &rep, &t) != DIFF_PASS)
        t.worst = DIFF_BAD;
    report_free(&rep);
    fflush(stdout);
    return t.worst;
}
