/* renderer/cli/cmd_diff.c - `mmdrender diff A B`: compare PNGs or directories of PNGs.
 *
 * Metrics per image (both decoded to RGBA8): max/mean error, PSNR, SSIM,
 * pixels over --threshold and their fraction, as defined in renderer/image/diff.h
 * (an infinite PSNR prints "inf", JSON null). --mask FILE.png hides regions and
 * --ignore-aa leaves anti-aliased edge pixels out of the count (diff.h).
 * An image passes when fraction_over <= --max-fraction. Defaults 0 and 0:
 * an exact match. The tolerant setting for other Mesa versions is
 * `--threshold 4 --max-fraction 0.01`. An image declaring more than
 * DIFF_MAX_PIXELS pixels is unusable (refused from its header, not decoded),
 * so any pair costs bounded time and memory.
 *
 * --html DIR writes a report folder (renderer/cli/diff_html.h): DIR/index.html
 * and DIR/img/ with A, B and the heatmap of every image that differs (every
 * image with --all). DIR and DIR/img are created, or must be real folders of
 * ours (mmd_dir_open_owned: never a symbolic link, never someone else's); every
 * file goes in through the opened folder, exclusively created, then renamed.
 * --junit FILE writes JUnit XML (diff_junit.h). A report that cannot be
 * written is exit 2. --approve copies B's file over A's for every image that
 * differs or is new (in B only), listing each ("approved: NAME (differs)").
 *
 * Exit: 0 every image passes, 1 some image differs beyond the thresholds,
 * 6 some name is on one side only (or a single file does not exist), 2
 * unusable input (not a PNG, too large, size mismatch, bad command line);
 * 2 wins over 6, which wins over 1. After --approve, approved images count as
 * passing.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/file.h"
#include "renderer/base/fs.h"
#include "renderer/base/msg.h"
#include "renderer/base/parse.h"
#include "renderer/cli/commands.h"
#include "renderer/cli/diff_html.h"
#include "renderer/cli/diff_junit.h"
#include "renderer/cli/json_out.h"
#include "renderer/image/diff.h"
#include "renderer/image/png.h"

enum { DIFF_PASS = 0, DIFF_FAIL = 1, DIFF_BAD = 2, DIFF_MISSING = MMD_EXIT_DIFF_MISSING };

/* Pixels per image: two images, a heatmap and three PNG encodes for the report
 * stay under 1 GB and 5 s (docs/limits.md); 4K (DCI and UHD) frames fit. */
#define DIFF_MAX_PIXELS (4096ull * 4096ull)

typedef struct diff_opts {
    int threshold;
    double max_fraction;
    bool json;
    const char *heatmap;
    const char *html;  /* report folder, NULL: none */
    bool all;          /* report rows for identical images too */
    const char *junit; /* JUnit XML file, NULL: none */
    const char *mask;  /* mask PNG, NULL: none */
    bool ignore_aa;
    bool approve;
} diff_opts;

/* The compared names as rows (names and errors owned), for the HTML report and JUnit. */
typedef struct report {
    mmd_diff_html_row *rows;
    size_t n, cap;
    int identical;
    bool failed; /* an image of the report could not be written */
    char msg[PATH_MAX + 64];
} html_report;

typedef struct tally {
    int worst, total, pass, fail, bad, missing, added, approved;
    bool first; /* JSON: no image printed yet */
} tally;

/* One run: options, the mask, the output folders and what was found so far. */
typedef struct diff_run {
    diff_opts o;
    const char *paths[2];
    uint8_t *mask;
    int mask_w, mask_h;
    int html_fd, img_fd, heat_fd; /* opened output folders, -1: none */
    html_report rep;
    tally t;
} diff_run;

typedef struct diff_result {
    mmd_imgdiff_result m;
    bool pass;
    mmd_diff_verdict verdict;
    bool approved;
    bool approve_failed; /* --approve could not copy B over A (said on stderr) */
    char error[PATH_MAX + 128]; /* non-empty: unusable input */
} diff_result;

static void usage(FILE *f)
{
    fprintf(f,
            "usage: mmdrender diff A B [--json] [--threshold T] [--max-fraction F] [--heatmap OUT]\n"
            "                          [--mask M.png] [--ignore-aa] [--html DIR [--all]] [--junit FILE]\n"
            "                          [--approve]\n"
            "  A, B            PNG files, or directories of PNGs matched by file name\n"
            "                  (A: the goldens, B: the new frames)\n"
            "  --threshold T   a pixel counts as different when a channel differs by more\n"
            "                  than T (0..255, default 0)\n"
            "  --max-fraction F  an image passes when at most this fraction of its pixels\n"
            "                  differ (0..1, default 0: exact match)\n"
            "  --mask M.png    ignore the pixels where M (same size) is neither black nor\n"
            "                  transparent\n"
            "  --ignore-aa     a differing pixel on an anti-aliased edge of A or B does not\n"
            "                  count\n"
            "  --heatmap OUT   write an amplified difference image (a directory of them when\n"
            "                  A and B are directories; only images that differ)\n"
            "  --html DIR      write DIR/index.html: a report with A, B and the heatmap of\n"
            "                  each image that differs, worst first (opens without a server)\n"
            "  --all           the report shows every image, identical ones too\n"
            "  --junit FILE    write JUnit XML: one testcase per image\n"
            "  --approve       copy B over A for each image that differs or is only in B\n"
            "  --json          machine-readable output\n"
            "Tolerant setting for other Mesa versions: --threshold 4 --max-fraction 0.01\n"
            "Images over %llu pixels are refused.\n"
            "Exit: 0 all pass, 1 some image differs, 6 some image is on one side only,\n"
            "      2 unusable input or bad command line.\n",
            DIFF_MAX_PIXELS);
}

/* Rank of an exit code: 2 wins over 6, which wins over 1. */
static int severity(int rc) { return rc == DIFF_PASS ? 0 : rc == DIFF_FAIL ? 1 : rc == DIFF_MISSING ? 2 : 3; }

/* The exit code one compared name asks for, from its verdict: an approved
 * image passes, one that could not be approved is unusable. */
static int pair_code(const diff_result *r)
{
    if (r->approve_failed)
        return DIFF_BAD;
    if (r->approved)
        return DIFF_PASS;
    switch (r->verdict) {
    case MMD_DIFF_PASS: return DIFF_PASS;
    case MMD_DIFF_DIFFERS: return DIFF_FAIL;
    case MMD_DIFF_MISSING:
    case MMD_DIFF_NEW: return DIFF_MISSING;
    case MMD_DIFF_UNUSABLE: break;
    }
    return DIFF_BAD;
}

/* The heatmap of diff.h, written as a PNG. */
static mmd_status write_heatmap(const char *path, const uint8_t *a, const uint8_t *b, int w, int h,
                                const mmd_imgdiff_opts *io, mmd_error *err)
{
    uint8_t *out = malloc((size_t)w * h * 4);
    if (!out)
        return mmd_fail(err, MMD_E_NOMEM, "out of memory");
    mmd_imgdiff_heatmap_opts(a, b, w, h, io, out);
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
    row->verdict = r->verdict;
    row->approved = r->approved;
    rep->n++;
    return row;
}

/* A, B and the heatmap of a compared pair into DIR/img/ (files named by row
 * number), through the opened folder. */
static mmd_status report_images(const diff_run *run, mmd_diff_html_row *row, size_t k, const uint8_t *a,
                                const uint8_t *b, const mmd_imgdiff_opts *io, mmd_error *err)
{
    char dir[32], path[64];
    int w = row->m.width, h = row->m.height;
    mmd_fd_path(run->img_fd, dir, sizeof dir);
    snprintf(row->img_a, sizeof row->img_a, "img/%06zu-a.png", k);
    snprintf(row->img_b, sizeof row->img_b, "img/%06zu-b.png", k);
    snprintf(row->img_heat, sizeof row->img_heat, "img/%06zu-heat.png", k);
    snprintf(path, sizeof path, "%s/%s", dir, row->img_a + 4);
    mmd_status st = mmd_png_write_file(path, a, w, h, (size_t)w * 4, true, MMD_PNG_LEVEL_DEFAULT, err);
    if (st != MMD_OK)
        return st;
    snprintf(path, sizeof path, "%s/%s", dir, row->img_b + 4);
    if ((st = mmd_png_write_file(path, b, w, h, (size_t)w * 4, true, MMD_PNG_LEVEL_DEFAULT, err)) != MMD_OK)
        return st;
    snprintf(path, sizeof path, "%s/%s", dir, row->img_heat + 4);
    return write_heatmap(path, a, b, w, h, io, err);
}

/* Records a compared name as a row (HTML report or JUnit); for the HTML
 * report, its images when it differs or --all asks; a, b (may be NULL) are
 * its pixels. */
static void report_pair(diff_run *run, const char *name, const diff_result *r, const uint8_t *a,
                        const uint8_t *b, const mmd_imgdiff_opts *io)
{
    html_report *rep = &run->rep;
    bool same = !r->error[0] && r->m.max_error == 0;
    rep->identical += same;
    if ((!run->o.html && !run->o.junit) || rep->failed)
        return;
    mmd_diff_html_row *row = report_add(rep, name, r);
    mmd_error e;
    if (!row) {
        rep->failed = true;
        snprintf(rep->msg, sizeof rep->msg, "out of memory");
    } else if (run->o.html && (!same || run->o.all) && a && b && !r->error[0] &&
               report_images(run, row, rep->n - 1, a, b, io, &e) != MMD_OK) {
        rep->failed = true;
        snprintf(rep->msg, sizeof rep->msg, "the images of %s: %s", name, e.msg);
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

/* Copies the file from over to (atomically: a temporary beside to, then rename). */
static mmd_status copy_file(const char *from, const char *to, mmd_error *err)
{
    mmd_error fe;
    FILE *in = mmd_file_fopen_regular(from, &fe);
    if (!in)
        return mmd_fail(err, MMD_E_IO, "%s: %s", from, fe.msg);
    char *tmp = NULL;
    int fd = mmd_temp_create(to, "tmp", &tmp);
    FILE *out = fd >= 0 ? fdopen(fd, "wb") : NULL;
    if (!out) {
        int e = errno;
        if (fd >= 0) {
            close(fd);
            unlink(tmp);
        }
        free(tmp);
        fclose(in);
        return mmd_fail(err, MMD_E_OUTPUT, "%s: cannot create: %s", to, strerror(e));
    }
    char buf[65536];
    size_t got;
    bool ok = true;
    while (ok && (got = fread(buf, 1, sizeof buf, in)) > 0)
        ok = fwrite(buf, 1, got, out) == got;
    ok = ok && !ferror(in);
    fclose(in);
    ok = fclose(out) == 0 && ok;
    if (!ok || mmd_temp_commit(tmp, to) != 0) {
        int e = errno;
        unlink(tmp);
        free(tmp);
        return mmd_fail(err, MMD_E_OUTPUT, "%s: cannot write: %s", to,
                        e == ELOOP ? "the name is a symbolic link (not replaced)" : strerror(e));
    }
    free(tmp);
    return MMD_OK;
}

/* --approve: B's file over A's for an image that differs or is new
 * (r->approved when copied, r->approve_failed when it could not be). */
static void approve(const char *pa, const char *pb, const char *name, diff_result *r)
{
    if (pair_code(r) != DIFF_FAIL && r->verdict != MMD_DIFF_NEW)
        return;
    mmd_error e;
    if (r->verdict == MMD_DIFF_NEW && !mmd_png_file_complete(pb)) {
        mmd_msg_print(stderr, "mmdrender diff: not approved: %s is not a finished PNG\n", pb);
        return;
    }
    if (copy_file(pb, pa, &e) != MMD_OK) {
        mmd_msg_print(stderr, "mmdrender diff: cannot approve %s: %s\n", name, e.msg);
        r->approve_failed = true;
        return;
    }
    r->approved = true;
}

/* Both images of a pair, under the pixel cap; false with r->error set. */
static bool read_pair(const char *pa, const char *pb, uint8_t **a, uint8_t **b, int *w, int *h, diff_result *r)
{
    int bw = 0, bh = 0;
    mmd_error e;
    if (mmd_png_read_file_max(pa, DIFF_MAX_PIXELS, a, w, h, &e) != MMD_OK ||
        mmd_png_read_file_max(pb, DIFF_MAX_PIXELS, b, &bw, &bh, &e) != MMD_OK) {
        snprintf(r->error, sizeof r->error, "%s", e.msg);
        return false;
    }
    if (*w != bw || *h != bh) {
        snprintf(r->error, sizeof r->error, "size mismatch: %dx%d vs %dx%d", *w, *h, bw, bh);
        return false;
    }
    return true;
}

/* Compare one pair present on both sides (the verdict in r). heat: heatmap
 * path or NULL; force_heat: write it even when identical. The pair goes into
 * the report as name. */
static void diff_files(diff_run *run, const char *pa, const char *pb, const char *name, const char *heat,
                      bool force_heat, diff_result *r)
{
    const diff_opts *o = &run->o;
    memset(r, 0, sizeof *r);
    r->verdict = MMD_DIFF_UNUSABLE;
    uint8_t *a = NULL, *b = NULL;
    int w = 0, h = 0;
    mmd_error e;
    mmd_imgdiff_opts io = {.threshold = o->threshold, .mask = run->mask, .ignore_aa = o->ignore_aa};
    if (!read_pair(pa, pb, &a, &b, &w, &h, r)) {
    } else if (run->mask && (run->mask_w != w || run->mask_h != h)) {
        snprintf(r->error, sizeof r->error, "the mask is %dx%d, the image %dx%d", run->mask_w, run->mask_h, w, h);
    } else {
        mmd_imgdiff_compare_opts(a, b, w, h, &io, &r->m);
        r->pass = r->m.fraction_over <= o->max_fraction;
        r->verdict = r->pass ? MMD_DIFF_PASS : MMD_DIFF_DIFFERS;
        if (heat && (force_heat || r->m.max_error > 0) && write_heatmap(heat, a, b, w, h, &io, &e) != MMD_OK) {
            snprintf(r->error, sizeof r->error, "heatmap: %s", e.msg);
            r->verdict = MMD_DIFF_UNUSABLE;
        }
    }
    if (o->approve)
        approve(pa, pb, name, r);
    report_pair(run, name, r, pair_code(r) == DIFF_BAD ? NULL : a, b, &io);
    free(a);
    free(b);
}

/* A name on one side only: in A only it is missing, in B only it is new. */
static void one_sided(diff_run *run, const char *pa, const char *pb, const char *name, bool in_a, const char *why,
                      diff_result *r)
{
    memset(r, 0, sizeof *r);
    r->verdict = in_a ? MMD_DIFF_MISSING : MMD_DIFF_NEW;
    snprintf(r->error, sizeof r->error, "%s", why);
    if (run->o.approve && !in_a)
        approve(pa, pb, name, r);
    report_pair(run, name, r, NULL, NULL, NULL);
}

static void report_json(const char *name, const diff_result *dr)
{
    const mmd_imgdiff_result *r = &dr->m;
    printf("{\"name\": ");
    mmd_json_str(stdout, name);
    printf(", \"status\": \"%s\"%s", mmd_diff_verdict_name(dr->verdict), dr->approved ? ", \"approved\": true" : "");
    if (dr->error[0]) {
        printf(", \"error\": ");
        mmd_json_str(stdout, dr->error);
        printf(", \"pass\": false}");
        return;
    }
    printf(", \"pixels_masked\": %lld, \"pixels_aa\": %lld", r->pixels_masked, r->pixels_aa);
    printf(", \"width\": %d, \"height\": %d, \"max_error\": %d, \"mean_error\": %.6f, "
           "\"psnr\": ",
           r->width, r->height, r->max_error, r->mean_error);
    if (isinf(r->psnr))
        printf("null");
    else
        printf("%.4f", r->psnr);
    printf(", \"ssim\": %.6f, \"pixels_over\": %lld, \"fraction_over\": %.8f, \"pass\": %s}", r->ssim,
           r->pixels_over, r->fraction_over, dr->pass ? "true" : "false");
}

static void report(const char *name, const diff_result *dr, const diff_opts *o, bool *first)
{
    const mmd_imgdiff_result *r = &dr->m;
    if (o->json) {
        printf("%s\n    ", *first ? "" : ",");
        *first = false;
        report_json(name, dr);
        return;
    }
    if (dr->error[0]) {
        mmd_msg_print(stdout, "%s: ERROR: %s\n", name, dr->error);
    } else {
        char psnr[32], extra[96] = "";
        if (isinf(r->psnr))
            snprintf(psnr, sizeof psnr, "inf");
        else
            snprintf(psnr, sizeof psnr, "%.2f dB", r->psnr);
        if (o->mask || o->ignore_aa)
            snprintf(extra, sizeof extra, " (%lld masked, %lld anti-aliasing)", r->pixels_masked, r->pixels_aa);
        mmd_msg_print(stdout, "%s: %dx%d max %d, mean %.4f, PSNR %s, SSIM %.5f, %lld px over %d (%.4f%%)%s: %s\n",
                      name, r->width, r->height, r->max_error, r->mean_error, psnr, r->ssim, r->pixels_over,
                      o->threshold, 100.0 * r->fraction_over, extra, dr->pass ? "ok" : "DIFFERS");
    }
    if (dr->approved)
        mmd_msg_print(stdout, "approved: %s (%s)\n", name, mmd_diff_verdict_name(dr->verdict));
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

/* Sorted PNG names in dir (malloc'd array of malloc'd strings). */
static mmd_status list_pngs(const char *dir, char ***out, size_t *count, mmd_error *err)
{
    DIR *d = opendir(dir);
    if (!d)
        return mmd_fail(err, MMD_E_IO, "cannot list directories: %s", strerror(errno));
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
    return MMD_OK;
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

/* An option with a value into o. */
static mmd_status set_value(diff_opts *o, const char *opt, const char *val, mmd_error *err)
{
    if (!strcmp(opt, "--threshold")) {
        long t;
        if (!mmd_parse_long(val, 0, 255, &t))
            return mmd_fail(err, MMD_E_USAGE, "--threshold wants an integer 0..255, got '%s'", val);
        o->threshold = (int)t;
    } else if (!strcmp(opt, "--max-fraction")) {
        if (!mmd_parse_double(val, 0.0, 1.0, &o->max_fraction))
            return mmd_fail(err, MMD_E_USAGE, "--max-fraction wants a number 0..1, got '%s'", val);
    } else if (!strcmp(opt, "--heatmap")) {
        o->heatmap = val;
    } else if (!strcmp(opt, "--html")) {
        o->html = val;
    } else if (!strcmp(opt, "--junit")) {
        o->junit = val;
    } else {
        o->mask = val;
    }
    return MMD_OK;
}

/* What parse_args asks of its caller besides its status. */
typedef struct args_end {
    bool help;  /* --help: usage on stdout, exit 0 */
    bool usage; /* the failure is followed by the usage on stderr */
} args_end;

/* Options into o and the two paths; MMD_E_USAGE with the sentence in err
 * (empty when the usage alone says it). */
static mmd_status parse_args(int argc, char **argv, diff_opts *o, const char *paths[2], args_end *end,
                             mmd_error *err)
{
    static const char *const valued[] = {"--threshold", "--max-fraction", "--heatmap", "--html", "--junit", "--mask"};
    int np = 0;
    mmd_status st;
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
        bool takes = false;
        for (size_t k = 0; k < sizeof valued / sizeof valued[0]; k++)
            takes = takes || !strcmp(opt, valued[k]);
        if (takes && !val) {
            if (i + 1 >= argc)
                return mmd_fail(err, MMD_E_USAGE, "%s needs a value", opt);
            val = argv[++i];
        }
        if (!strcmp(opt, "-h") || !strcmp(opt, "--help")) {
            end->help = true;
            return MMD_OK;
        } else if (takes) {
            if ((st = set_value(o, opt, val, err)) != MMD_OK)
                return st;
        } else if (!strcmp(opt, "--json")) {
            o->json = true;
        } else if (!strcmp(opt, "--all")) {
            o->all = true;
        } else if (!strcmp(opt, "--ignore-aa")) {
            o->ignore_aa = true;
        } else if (!strcmp(opt, "--approve")) {
            o->approve = true;
        } else if (a[0] == '-' && a[1]) {
            end->usage = true;
            return mmd_fail(err, MMD_E_USAGE, "unknown option '%s'", a);
        } else if (np < 2) {
            paths[np++] = a;
        } else {
            return mmd_fail(err, MMD_E_USAGE, "too many arguments ('%s')", a);
        }
    }
    if (np != 2) {
        end->usage = true;
        return mmd_fail(err, MMD_E_USAGE, "%s", "");
    }
    if (o->all && !o->html)
        return mmd_fail(err, MMD_E_USAGE, "--all applies to the --html report");
    return MMD_OK;
}

/* An output folder of ours (mmd_dir_open_owned) at name under at into *fd. */
static mmd_status open_dir(int at, const char *name, const char *shown, const char *what, int *fd, mmd_error *err)
{
    if ((*fd = mmd_dir_open_owned(at, name)) >= 0)
        return MMD_OK;
    if (errno == ELOOP)
        return mmd_fail(err, MMD_E_OUTPUT, "refusing %s directory '%s': it is a symbolic link", what, shown);
    if (errno == EPERM)
        return mmd_fail(err, MMD_E_OUTPUT,
                        "refusing %s directory '%s': not ours (another owner, or writable by others)", what, shown);
    return mmd_fail(err, MMD_E_OUTPUT, "cannot create %s directory '%s': %s", what, shown, strerror(errno));
}

/* The output folders and the mask. */
static mmd_status open_outputs(diff_run *run, bool dirs, mmd_error *err)
{
    const diff_opts *o = &run->o;
    mmd_status st;
    if (dirs && o->heatmap &&
        (st = open_dir(AT_FDCWD, o->heatmap, o->heatmap, "heatmap", &run->heat_fd, err)) != MMD_OK)
        return st;
    if (o->html) {
        char shown[PATH_MAX];
        snprintf(shown, sizeof shown, "%s/img", o->html);
        if ((st = open_dir(AT_FDCWD, o->html, o->html, "report", &run->html_fd, err)) != MMD_OK ||
            (st = open_dir(run->html_fd, "img", shown, "report", &run->img_fd, err)) != MMD_OK)
            return st;
    }
    if (o->mask && (st = mmd_png_read_file_max(o->mask, DIFF_MAX_PIXELS, &run->mask, &run->mask_w, &run->mask_h,
                                               err)) != MMD_OK) {
        char m[sizeof err->msg];
        snprintf(m, sizeof m, "%s", err->msg);
        return mmd_fail(err, st, "--mask: %.500s", m);
    }
    return MMD_OK;
}

static void count(tally *t, const diff_result *r)
{
    int rc = pair_code(r);
    t->total++;
    t->pass += r->verdict == MMD_DIFF_PASS;
    t->fail += r->verdict == MMD_DIFF_DIFFERS;
    t->bad += r->verdict >= MMD_DIFF_UNUSABLE; /* one-sided names too, as before the split */
    t->missing += r->verdict == MMD_DIFF_MISSING;
    t->added += r->verdict == MMD_DIFF_NEW;
    t->approved += r->approved;
    if (severity(rc) > severity(t->worst))
        t->worst = rc;
}

/* Two folders, matched by PNG name; MMD_E_IO when they cannot be listed. */
static mmd_status diff_dirs(diff_run *run, diff_result *r, mmd_error *err)
{
    const diff_opts *o = &run->o;
    const char *const *paths = run->paths;
    char **la = NULL, **lb = NULL;
    size_t na = 0, nb = 0;
    mmd_status st = list_pngs(paths[0], &la, &na, err);
    if (st != MMD_OK || (st = list_pngs(paths[1], &lb, &nb, err)) != MMD_OK) {
        free_list(la, na);
        return st;
    }
    size_t i = 0, j = 0;
    while (i < na || j < nb) {
        int c = i >= na ? 1 : j >= nb ? -1 : strcmp(la[i], lb[j]);
        const char *name = c <= 0 ? la[i] : lb[j];
        char pa[PATH_MAX], pb[PATH_MAX], ph[PATH_MAX], why[PATH_MAX + 16];
        snprintf(pa, sizeof pa, "%s/%s", paths[0], name);
        snprintf(pb, sizeof pb, "%s/%s", paths[1], name);
        if (c != 0) {
            snprintf(why, sizeof why, "only in %s", c < 0 ? paths[0] : paths[1]);
            one_sided(run, pa, pb, name, c < 0, why, r);
        } else {
            if (o->heatmap) {
                char dir[32];
                mmd_fd_path(run->heat_fd, dir, sizeof dir);
                snprintf(ph, sizeof ph, "%s/%s", dir, name);
            }
            diff_files(run, pa, pb, name, o->heatmap ? ph : NULL, false, r);
        }
        report(name, r, o, &run->t.first);
        count(&run->t, r);
        if (c <= 0)
            i++;
        if (c >= 0)
            j++;
    }
    if (run->t.total == 0) {
        if (!o->json)
            mmd_msg_print(stderr, "mmdrender diff: no PNG files in '%s' or '%s'\n", paths[0], paths[1]);
        run->t.worst = DIFF_BAD;
    }
    free_list(la, na);
    free_list(lb, nb);
    return MMD_OK;
}

/* Two single files; one that does not exist is missing (A) or new (B only). */
static void diff_single(diff_run *run, diff_result *r)
{
    const char *pa = run->paths[0], *pb = run->paths[1], *name = base_name(pa);
    bool ea = access(pa, F_OK) == 0 || errno != ENOENT, eb = access(pb, F_OK) == 0 || errno != ENOENT;
    char why[PATH_MAX + 32];
    if (!ea || !eb) {
        snprintf(why, sizeof why, "%s: no such file", !eb ? pb : pa);
        one_sided(run, pa, pb, name, !eb, why, r);
    } else {
        diff_files(run, pa, pb, name, run->o.heatmap, true, r);
    }
    report(name, r, &run->o, &run->t.first);
    count(&run->t, r);
}

/* index.html (rows that differ, or all with --all) into the opened report
 * folder; *shown: the rows written. The folder is named as given in err, not
 * by its /proc link. */
static mmd_status write_html(const diff_run *run, const mmd_diff_html_info *info, size_t *shown, mmd_error *err)
{
    const diff_opts *o = &run->o;
    const html_report *rep = &run->rep;
    mmd_diff_html_row *rows = malloc((rep->n ? rep->n : 1) * sizeof *rows);
    if (!rows)
        return mmd_fail(err, MMD_E_NOMEM, "out of memory");
    for (size_t i = 0; i < rep->n; i++)
        if (o->all || rep->rows[i].error || rep->rows[i].m.max_error > 0)
            rows[(*shown)++] = rep->rows[i];
    char dir[32];
    mmd_fd_path(run->html_fd, dir, sizeof dir);
    mmd_status st = mmd_diff_html_write(dir, info, rows, *shown, err);
    free(rows);
    size_t dl = strlen(dir);
    if (st != MMD_OK && !strncmp(err->msg, dir, dl)) {
        char m[sizeof err->msg];
        snprintf(m, sizeof m, "%s%s", o->html, err->msg + dl);
        memcpy(err->msg, m, sizeof m);
    }
    return st;
}

/* The JUnit file and index.html (when every image of the report was written). */
static mmd_status finish_report(const diff_run *run, mmd_error *err)
{
    const diff_opts *o = &run->o;
    const html_report *rep = &run->rep;
    const tally *t = &run->t;
    mmd_diff_html_info info = {.a = run->paths[0], .b = run->paths[1], .threshold = o->threshold,
                               .max_fraction = o->max_fraction, .all = o->all, .total = t->total,
                               .identical = rep->identical, .pass = t->pass, .fail = t->fail, .bad = t->bad};
    mmd_status st;
    size_t shown = 0;
    if (o->junit && (st = mmd_diff_junit_write(o->junit, &info, rep->rows, rep->n, err)) != MMD_OK)
        return st;
    if (o->html && (st = write_html(run, &info, &shown, err)) != MMD_OK)
        return st;
    if (!o->json && o->html)
        mmd_msg_print(stdout, "report: %s/index.html (%zu rows)\n", o->html, shown);
    return MMD_OK;
}

static void summary(const diff_run *run)
{
    const tally *t = &run->t;
    if (run->o.json) {
        printf("%s], \"pass\": %s, \"summary\": {\"compared\": %d, \"passed\": %d, \"failed\": %d, "
               "\"unusable\": %d, \"missing\": %d, \"new\": %d, \"approved\": %d}}\n",
               t->first ? "" : "\n  ", t->worst == DIFF_PASS ? "true" : "false", t->total - t->missing - t->added,
               t->pass, t->fail, t->bad - t->missing - t->added, t->missing, t->added, t->approved);
        return;
    }
    if (t->total > 1)
        mmd_msg_print(stdout, "%d images: %d ok, %d differ, %d unusable\n", t->total, t->pass, t->fail, t->bad);
    if (t->missing || t->added)
        mmd_msg_print(stdout, "%d missing (only in A), %d new (only in B)\n", t->missing, t->added);
    if (t->approved)
        mmd_msg_print(stdout, "%d approved (B copied over A)\n", t->approved);
}

static void run_free(diff_run *run)
{
    report_free(&run->rep);
    free(run->mask);
    const int fds[3] = {run->html_fd, run->img_fd, run->heat_fd};
    for (int i = 0; i < 3; i++)
        if (fds[i] >= 0)
            close(fds[i]);
}

/* Before any image: outputs are not inputs, both paths are files or both
 * folders (*dirs), and the output folders and the mask open. */
static mmd_status diff_setup(diff_run *run, bool *dirs, mmd_error *err)
{
    const diff_opts *o = &run->o;
    const char *outs[3] = {o->heatmap, o->html, o->junit};
    for (int i = 0; i < 2; i++) /* outputs are never inputs (by inode) */
        for (int k = 0; k < 3; k++)
            if (outs[k] && mmd_same_file(outs[k], run->paths[i]))
                return mmd_fail(err, MMD_E_USAGE, "the output '%s' is the input '%s'", outs[k], run->paths[i]);
    bool da = is_dir(run->paths[0]), db = is_dir(run->paths[1]);
    if (da != db)
        return mmd_fail(err, MMD_E_USAGE, "'%s' and '%s' must both be PNG files or both directories", run->paths[0],
                        run->paths[1]);
    *dirs = da;
    return open_outputs(run, da, err);
}

/* diff's exit code (its own contract, docs/cli.md): a failure of any status is
 * 2 (unusable input or bad command line: 1 and 6 are verdicts here, not the
 * status list's usage and output classes), else the worst verdict. */
static int diff_exit(mmd_status st, int worst) { return st == MMD_OK ? worst : DIFF_BAD; }

int mmd_cmd_diff(int argc, char **argv)
{
    diff_run run = {.html_fd = -1, .img_fd = -1, .heat_fd = -1, .t = {.worst = DIFF_PASS, .first = true}};
    diff_opts *o = &run.o;
    args_end end = {false, false};
    mmd_error e;
    bool dirs = false;
    diff_result *r = NULL;
    mmd_status st = parse_args(argc, argv, o, run.paths, &end, &e);
    if (end.help) {
        usage(stdout);
        return MMD_EXIT_OK;
    }
    if (st == MMD_OK && (st = diff_setup(&run, &dirs, &e)) == MMD_OK && !(r = malloc(sizeof *r)))
        st = mmd_fail(&e, MMD_E_NOMEM, "out of memory");
    if (st == MMD_OK) {
        if (o->json)
            printf("{\"threshold\": %d, \"max_fraction\": %g, \"images\": [", o->threshold, o->max_fraction);
        if (!dirs)
            diff_single(&run, r);
        else
            st = diff_dirs(&run, r, &e); /* (on failure, JSON: the document is left open, as before) */
    }
    free(r);
    if (st != MMD_OK) {
        if (e.msg[0])
            mmd_msg_print(stderr, "mmdrender diff: %s\n", e.msg);
        if (end.usage)
            usage(stderr);
        run_free(&run);
        return diff_exit(st, run.t.worst);
    }
    summary(&run);
    if ((o->html || o->junit) && (run.rep.failed || (st = finish_report(&run, &e)) != MMD_OK)) {
        mmd_msg_print(stderr, "mmdrender diff: report: %s\n", run.rep.failed ? run.rep.msg : e.msg);
        run.t.worst = DIFF_BAD;
    }
    run_free(&run);
    fflush(stdout);
    return diff_exit(MMD_OK, run.t.worst);
}
