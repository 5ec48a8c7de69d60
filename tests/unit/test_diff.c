/* tests/unit/test_diff.c - `mmdrender diff`: metrics (hand-computed), verdicts,
 * exit codes, directories, heatmaps, JSON; the imgdiff maths under them. */
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "renderer/cli/commands.h"
#include "renderer/image/diff.h"
#include "renderer/image/png.h"
#include "tests/util/test.h"

TEST_STATE_DEFINE

static char root[64];
static char out_text[65536];

static const char *P(const char *rel)
{
    static char buf[4][PATH_MAX];
    static int k;
    k = (k + 1) % 4;
    snprintf(buf[k], PATH_MAX, "%s/%s", root, rel);
    return buf[k];
}

/* Run mmd_cmd_diff with stdout captured into out_text. */
static int run(int argc, const char **argv)
{
    char cap[PATH_MAX];
    snprintf(cap, sizeof cap, "%s/stdout.txt", root);
    fflush(stdout);
    int saved = dup(1);
    FILE *f = fopen(cap, "w");
    dup2(fileno(f), 1);
    int rc = mmd_cmd_diff(argc, (char **)argv);
    fflush(stdout);
    dup2(saved, 1);
    close(saved);
    fclose(f);
    f = fopen(cap, "r");
    size_t n = fread(out_text, 1, sizeof out_text - 1, f);
    out_text[n] = 0;
    fclose(f);
    return rc;
}

/* run_diff(arg, ..., NULL): "diff" plus the arguments */
static int run_diff(const char *first, ...)
{
    const char *av[16] = {"diff", first};
    int ac = 2;
    va_list ap;
    va_start(ap, first);
    const char *a;
    while (ac < 15 && (a = va_arg(ap, const char *)) != NULL)
        av[ac++] = a;
    va_end(ap);
    return run(ac, av);
}
#define RUN_DIFF(...) run_diff(__VA_ARGS__, (const char *)NULL)

static uint8_t base_img[100 * 100 * 4];

static void write_img(const char *rel, const uint8_t *px, int w, int h)
{
    mmd_error pe;
    if (mmd_png_write_file(P(rel), px, w, h, (size_t)w * 4, false, 1, &pe) != 0)
        printf("# write %s: %s\n", rel, pe.msg);
}

static void setup(void)
{
    for (int i = 0; i < 100 * 100; i++) {
        base_img[i * 4 + 0] = (uint8_t)(i % 100 * 2);
        base_img[i * 4 + 1] = (uint8_t)(i / 100 * 2);
        base_img[i * 4 + 2] = 100;
        base_img[i * 4 + 3] = 255;
    }
    static uint8_t v[100 * 100 * 4];
    write_img("a.png", base_img, 100, 100);
    write_img("same.png", base_img, 100, 100);
    memcpy(v, base_img, sizeof v);
    v[(50 * 100 + 50) * 4 + 0] += 3; /* one pixel, red off by 3 */
    write_img("px3.png", v, 100, 100);
    memcpy(v, base_img, sizeof v);
    v[(10 * 100 + 20) * 4 + 1] += 10; /* one pixel, green off by 10 */
    write_img("px10.png", v, 100, 100);
    memcpy(v, base_img, sizeof v);
    for (int i = 0; i < 200; i++) /* 2% of pixels off by 5 */
        v[(i * 50) * 4 + 2] += 5;
    write_img("many.png", v, 100, 100);
    write_img("small.png", base_img, 50, 50);
    FILE *f = fopen(P("junk.png"), "w");
    fputs("not a png", f);
    fclose(f);
    mkdir(P("d1"), 0755);
    mkdir(P("d2"), 0755);
    write_img("d1/f_0001.png", base_img, 100, 100);
    write_img("d2/f_0001.png", base_img, 100, 100);
    write_img("d1/f_0002.png", base_img, 100, 100);
    write_img("d2/f_0002.png", v, 100, 100); /* "many" */
}

TEST(identical_exact_pass)
{
    CHECK_EQ_INT(RUN_DIFF(P("a.png"), P("same.png")), 0);
    CHECK_EQ_INT(RUN_DIFF(P("a.png"), P("same.png"), "--json"), 0);
    CHECK(strstr(out_text, "\"max_error\": 0,") != NULL);
    CHECK(strstr(out_text, "\"psnr\": null") != NULL);
    CHECK(strstr(out_text, "\"ssim\": 1.000000") != NULL);
    CHECK(strstr(out_text, "\"pixels_over\": 0,") != NULL);
    CHECK(strstr(out_text, "\"pass\": true}\n") != NULL);
    CHECK(strstr(out_text, "\"name\": \"a.png\"") != NULL);
    CHECK_EQ_INT(RUN_DIFF(P("a.png"), P("same.png")), 0);
    CHECK(strstr(out_text, "PSNR inf") != NULL);
}

TEST(one_pixel_metrics)
{
    /* one channel off by 10 in 100x100 RGB: mean = 10/30000, MSE = 100/30000,
     * PSNR = 10 log10(65025 * 300) = 72.9020 dB */
    CHECK_EQ_INT(RUN_DIFF(P("a.png"), P("px10.png"), "--json"), 1);
    printf("# %s", out_text);
    CHECK(strstr(out_text, "\"width\": 100, \"height\": 100, \"max_error\": 10,") != NULL);
    CHECK(strstr(out_text, "\"mean_error\": 0.000333,") != NULL);
    CHECK(strstr(out_text, "\"psnr\": 72.9020,") != NULL);
    CHECK(strstr(out_text, "\"pixels_over\": 1, \"fraction_over\": 0.00010000, \"pass\": false") != NULL);
    /* SSIM below 1 but close */
    const char *s = strstr(out_text, "\"ssim\": ");
    REQUIRE(s);
    double ssim = atof(s + 8);
    CHECK(ssim < 1.0 && ssim > 0.99);
}

TEST(exact_fails_tolerant_passes)
{
    CHECK_EQ_INT(RUN_DIFF(P("a.png"), P("px3.png")), 1);
    CHECK(strstr(out_text, "DIFFERS") != NULL);
    CHECK_EQ_INT(RUN_DIFF(P("a.png"), P("px3.png"), "--threshold", "4", "--max-fraction", "0.01"), 0);
    CHECK_EQ_INT(RUN_DIFF(P("a.png"), P("px3.png"), "--threshold=4"), 0); /* 3 <= 4 */
    /* off by 10 > 4, but 1 px = 0.01% <= 1% */
    CHECK_EQ_INT(RUN_DIFF(P("a.png"), P("px10.png"), "--threshold", "4", "--max-fraction", "0.01"), 0);
    CHECK_EQ_INT(RUN_DIFF(P("a.png"), P("px10.png"), "--threshold", "4"), 1);
    /* 2% of pixels off by 5 */
    CHECK_EQ_INT(RUN_DIFF(P("a.png"), P("many.png"), "--threshold", "4", "--max-fraction", "0.01"), 1);
    CHECK_EQ_INT(RUN_DIFF(P("a.png"), P("many.png"), "--threshold", "5"), 0);
    CHECK_EQ_INT(RUN_DIFF(P("a.png"), P("many.png"), "--max-fraction", "0.02"), 0);
    CHECK_EQ_INT(RUN_DIFF(P("a.png"), P("many.png"), "--max-fraction", "0.0199"), 1);
}

TEST(unusable_inputs)
{
    CHECK_EQ_INT(RUN_DIFF(P("a.png"), P("small.png")), 2);
    CHECK(strstr(out_text, "size mismatch: 100x100 vs 50x50") != NULL);
    CHECK_EQ_INT(RUN_DIFF(P("a.png"), P("junk.png")), 2);
    CHECK(strstr(out_text, "not a PNG") != NULL);
    CHECK_EQ_INT(RUN_DIFF(P("a.png"), P("missing.png")), 6); /* missing: its own code */
    CHECK(strstr(out_text, "missing.png: no such file") != NULL);
    CHECK_EQ_INT(RUN_DIFF(P("a.png"), P("d1")), 2);
    CHECK_EQ_INT(RUN_DIFF(P("a.png")), 2);
    CHECK_EQ_INT(RUN_DIFF(P("a.png"), P("a.png"), "--threshold", "300"), 2);
    CHECK_EQ_INT(RUN_DIFF(P("a.png"), P("a.png"), "--max-fraction", "x"), 2);
    CHECK_EQ_INT(RUN_DIFF(P("a.png"), P("a.png"), "--bogus"), 2);
    CHECK_EQ_INT(RUN_DIFF(P("a.png"), P("a.png"), "--threshold"), 2);
    CHECK_EQ_INT(RUN_DIFF("--help"), 0);
}

TEST(directories)
{
    CHECK_EQ_INT(RUN_DIFF(P("d1"), P("d2"), "--json"), 1);
    CHECK(strstr(out_text, "\"name\": \"f_0001.png\"") != NULL);
    CHECK(strstr(out_text, "\"name\": \"f_0002.png\"") != NULL);
    CHECK(strstr(out_text, "], \"pass\": false, \"summary\": {\"compared\": 2, \"passed\": 1, \"failed\": 1, "
                           "\"unusable\": 0, \"missing\": 0, \"new\": 0, \"approved\": 0}}") != NULL);
    CHECK_EQ_INT(RUN_DIFF(P("d1"), P("d2"), "--threshold", "5"), 0);
    CHECK(strstr(out_text, "2 images: 2 ok, 0 differ, 0 unusable") != NULL);
    /* heatmaps: only the differing image gets one */
    CHECK_EQ_INT(RUN_DIFF(P("d1"), P("d2"), "--heatmap", P("heat")), 1);
    CHECK(access(P("heat/f_0002.png"), F_OK) == 0);
    CHECK(access(P("heat/f_0001.png"), F_OK) != 0);
    uint8_t *px;
    int w, h;
    mmd_error pe;
    REQUIRE(mmd_png_read_file(P("heat/f_0002.png"), &px, &w, &h, &pe) == 0);
    CHECK_EQ_INT(px[0], 64 + 12 * 5); /* pixel 0 differs by 5 */
    CHECK(px[4 * 1 + 0] == px[4 * 1 + 1]); /* pixel 1 same: grey */
    free(px);
    /* a name on one side only: missing (6) even though others pass; 2 wins over 6 */
    write_img("d1/only.png", base_img, 100, 100);
    CHECK_EQ_INT(RUN_DIFF(P("d1"), P("d2"), "--threshold", "5"), 6);
    CHECK(strstr(out_text, "only.png: ERROR: only in") != NULL);
    CHECK(strstr(out_text, "1 missing (only in A), 0 new (only in B)") != NULL);
    CHECK_EQ_INT(RUN_DIFF(P("d1"), P("d2")), 6); /* 6 wins over 1 */
    write_img("d2/only.png", base_img, 50, 50);
    CHECK_EQ_INT(RUN_DIFF(P("d1"), P("d2"), "--threshold", "5"), 2); /* size mismatch */
    unlink(P("d2/only.png"));
    unlink(P("d1/only.png"));
    mkdir(P("e1"), 0755);
    mkdir(P("e2"), 0755);
    CHECK_EQ_INT(RUN_DIFF(P("e1"), P("e2")), 2); /* nothing to compare */
}

TEST(single_heatmap)
{
    CHECK_EQ_INT(RUN_DIFF(P("a.png"), P("px10.png"), "--heatmap", P("h.png")), 1);
    uint8_t *px;
    int w, h;
    mmd_error pe;
    REQUIRE(mmd_png_read_file(P("h.png"), &px, &w, &h, &pe) == 0);
    CHECK_EQ_INT(w, 100);
    CHECK_EQ_INT(px[(10 * 100 + 20) * 4], 64 + 120);
    free(px);
}

/* mmd_imgdiff_compare on two 2x1 images, every figure by hand:
 * a = (10,20,30) (0,0,0), b = (13,20,30) (0,0,10), all opaque (RGB only).
 * errors 3 and 10: max 10, mean 13/6, MSE 109/6, PSNR 10 log10(65025 / (109/6))
 * = 35.5381 dB; threshold 3 counts only the second pixel. SSIM: one 2x1
 * window over lumas (18.15, 0) and (19.047, 1.14) = 0.994495. */
TEST(imgdiff_compare_by_hand)
{
    const uint8_t a[8] = {10, 20, 30, 255, 0, 0, 0, 255};
    uint8_t b[8] = {13, 20, 30, 255, 0, 0, 10, 255};
    mmd_imgdiff_result r;
    mmd_imgdiff_compare(a, b, 2, 1, 3, &r);
    CHECK_EQ_INT(r.width, 2);
    CHECK_EQ_INT(r.height, 1);
    CHECK_EQ_INT(r.max_error, 10);
    CHECK_NEAR(r.mean_error, 13.0 / 6.0, 1e-12);
    CHECK_NEAR(r.psnr, 35.538051, 1e-5);
    CHECK_NEAR(r.ssim, 0.994495, 1e-6);
    CHECK(r.pixels_over == 1);
    CHECK_NEAR(r.fraction_over, 0.5, 1e-12);
    mmd_imgdiff_compare(a, b, 2, 1, 10, &r);
    CHECK(r.pixels_over == 0);
    /* identical: PSNR infinite, SSIM 1 */
    mmd_imgdiff_compare(a, a, 2, 1, 0, &r);
    CHECK(r.max_error == 0 && isinf(r.psnr) && r.ssim == 1.0 && r.pixels_over == 0);
    /* an alpha below 255 brings A into the figures: 4 channels, errors 3, 10, 200 */
    b[7] = 55;
    mmd_imgdiff_compare(a, b, 2, 1, 3, &r);
    CHECK_EQ_INT(r.max_error, 200);
    CHECK_NEAR(r.mean_error, 213.0 / 8.0, 1e-12);
    /* heatmap: red = 64 + 12 x error (saturating), grey = luma(a) / 4 (halved under red) */
    b[7] = 255;
    uint8_t h[8];
    mmd_imgdiff_heatmap(a, b, 2, 1, h);
    CHECK(h[0] == 100 && h[1] == 2 && h[2] == 2 && h[3] == 255); /* 18.15/4 = 4 -> 2 */
    CHECK(h[4] == 184 && h[5] == 0 && h[6] == 0 && h[7] == 255);
    mmd_imgdiff_heatmap(a, a, 2, 1, h);
    CHECK(h[0] == 4 && h[1] == 4 && h[2] == 4 && h[4] == 0);
    CHECK(MMD_IMGDIFF_TOLERANT_THRESHOLD == 4 && MMD_IMGDIFF_TOLERANT_MAX_FRACTION == 0.01);
}

/* 16x8: black left of x = 8, white right of it, an anti-aliasing grey column
 * at x = 8: `edge` grey; the pixel (3, 4) set to `dot`. */
static void edge_img(uint8_t *px, uint8_t edge, uint8_t dot)
{
    for (int y = 0; y < 8; y++)
        for (int x = 0; x < 16; x++) {
            uint8_t v = x < 8 ? 0 : x == 8 ? edge : 255;
            if (x == 3 && y == 4)
                v = dot;
            uint8_t *p = px + (y * 16 + x) * 4;
            p[0] = p[1] = p[2] = v;
            p[3] = 255;
        }
}

/* The anti-aliasing rule of diff.h: the grey column between two flat areas is
 * an edge in both images (2 equal neighbours, a darker and a brighter one, the
 * darkest in a flat black area); a lone pixel in a flat area is not. */
TEST(imgdiff_ignore_aa)
{
    static uint8_t a[16 * 8 * 4], b[16 * 8 * 4], c[16 * 8 * 4], heat[16 * 8 * 4];
    edge_img(a, 128, 0);
    edge_img(b, 100, 0);
    edge_img(c, 128, 255);
    mmd_imgdiff_opts o = {.threshold = 0};
    mmd_imgdiff_result r;
    mmd_imgdiff_compare_opts(a, b, 16, 8, &o, &r);
    CHECK(r.pixels_over == 8 && r.pixels_aa == 0);
    o.ignore_aa = true;
    mmd_imgdiff_compare_opts(a, b, 16, 8, &o, &r);
    CHECK(r.pixels_over == 0 && r.pixels_aa == 8);
    CHECK_EQ_INT(r.max_error, 28); /* still in the figures */
    CHECK_NEAR(r.mean_error, 28.0 * 8 / (16 * 8), 1e-12);
    mmd_imgdiff_compare_opts(a, c, 16, 8, &o, &r); /* a white dot in the black area */
    CHECK(r.pixels_over == 1 && r.pixels_aa == 0);
    o.threshold = 28; /* only pixels over the threshold are judged */
    mmd_imgdiff_compare_opts(a, b, 16, 8, &o, &r);
    CHECK(r.pixels_over == 0 && r.pixels_aa == 0);
    /* heatmap: an anti-aliasing pixel is yellow (red level in R and G), others red */
    o.threshold = 0;
    mmd_imgdiff_heatmap_opts(a, b, 16, 8, &o, heat);
    CHECK(heat[8 * 4 + 0] == 255 && heat[8 * 4 + 1] == 255);
    mmd_imgdiff_heatmap_opts(a, c, 16, 8, &o, heat);
    const uint8_t *dot = heat + (4 * 16 + 3) * 4;
    CHECK(dot[0] == 255 && dot[1] == 0 && dot[2] == 0);
}

/* The mask of diff.h on the 2x1 pair of imgdiff_compare_by_hand: pixel 1 is
 * hidden, so only pixel 0 (red off by 3) is left: max 3, mean 3/6. */
TEST(imgdiff_mask)
{
    const uint8_t a[8] = {10, 20, 30, 255, 0, 0, 0, 255};
    const uint8_t b[8] = {13, 20, 30, 255, 0, 0, 10, 255};
    const uint8_t mask[8] = {0, 0, 0, 255, 255, 255, 255, 255};
    mmd_imgdiff_opts o = {.threshold = 0, .mask = mask};
    mmd_imgdiff_result r;
    mmd_imgdiff_compare_opts(a, b, 2, 1, &o, &r);
    CHECK_EQ_INT(r.max_error, 3);
    CHECK_NEAR(r.mean_error, 0.5, 1e-12);
    CHECK(r.pixels_over == 1 && r.pixels_masked == 1);
    CHECK_NEAR(r.fraction_over, 0.5, 1e-12);
    CHECK_NEAR(r.psnr, 10 * log10(65025.0 / (9.0 / 6.0)), 1e-9);
    uint8_t h[8];
    mmd_imgdiff_heatmap_opts(a, b, 2, 1, &o, h);
    CHECK(h[0] == 100 && h[4] == 0 && h[5] == 0 && h[6] == 0); /* hidden: grey, not red */
    const uint8_t black[4] = {0, 0, 0, 255}, clear_white[4] = {255, 255, 255, 0}, faint_red[4] = {1, 0, 0, 1};
    CHECK(!mmd_imgdiff_mask_hides(black) && !mmd_imgdiff_mask_hides(clear_white) && mmd_imgdiff_mask_hides(faint_red));
}

static bool file_has(const char *path, const char *needle)
{
    static char buf[65536];
    FILE *f = fopen(path, "r");
    if (!f)
        return false;
    size_t n = fread(buf, 1, sizeof buf - 1, f);
    buf[n] = 0;
    fclose(f);
    return strstr(buf, needle) != NULL;
}

/* --mask and --ignore-aa through the command. */
TEST(cli_mask_and_aa)
{
    static uint8_t m[100 * 100 * 4];
    m[(10 * 100 + 20) * 4] = 255; /* the pixel px10 changes */
    write_img("mask.png", m, 100, 100);
    write_img("mask_small.png", m, 50, 50);
    CHECK_EQ_INT(RUN_DIFF(P("a.png"), P("px10.png"), "--mask", P("mask.png"), "--json"), 0);
    CHECK(strstr(out_text, "\"pixels_masked\": 1, \"pixels_aa\": 0,") != NULL);
    CHECK(strstr(out_text, "\"max_error\": 0,") != NULL);
    CHECK_EQ_INT(RUN_DIFF(P("a.png"), P("px3.png"), "--mask", P("mask.png")), 1); /* another pixel */
    CHECK(strstr(out_text, "(0 masked, 0 anti-aliasing)") != NULL);
    CHECK_EQ_INT(RUN_DIFF(P("a.png"), P("px10.png"), "--mask", P("mask_small.png")), 2);
    CHECK(strstr(out_text, "the mask is 50x50, the image 100x100") != NULL);
    CHECK_EQ_INT(RUN_DIFF(P("a.png"), P("px10.png"), "--mask", P("nope.png")), 2);
    static uint8_t e1[16 * 8 * 4], e2[16 * 8 * 4];
    edge_img(e1, 128, 0);
    edge_img(e2, 100, 0);
    write_img("edge1.png", e1, 16, 8);
    write_img("edge2.png", e2, 16, 8);
    CHECK_EQ_INT(RUN_DIFF(P("edge1.png"), P("edge2.png")), 1);
    CHECK_EQ_INT(RUN_DIFF(P("edge1.png"), P("edge2.png"), "--ignore-aa", "--json"), 0);
    CHECK(strstr(out_text, "\"pixels_masked\": 0, \"pixels_aa\": 8,") != NULL);
}

/* Summary counts, missing and new names, --approve and --junit. */
TEST(cli_summary_approve_junit)
{
    mkdir(P("g"), 0755);
    mkdir(P("n"), 0755);
    write_img("g/f1.png", base_img, 100, 100);
    write_img("n/f1.png", base_img, 100, 100);
    write_img("g/f2.png", base_img, 100, 100);
    uint8_t *px;
    int w, h;
    mmd_error pe;
    REQUIRE(mmd_png_read_file(P("px10.png"), &px, &w, &h, &pe) == 0);
    write_img("n/f2.png", px, w, h); /* differs */
    write_img("n/f3.png", px, w, h); /* new */
    write_img("g/f4.png", base_img, 100, 100); /* missing */
    free(px);
    CHECK_EQ_INT(RUN_DIFF(P("g"), P("n"), "--json", "--junit", P("j.xml")), 6);
    CHECK(strstr(out_text, "\"status\": \"missing\"") && strstr(out_text, "\"status\": \"new\"") &&
          strstr(out_text, "\"status\": \"differs\"") && strstr(out_text, "\"status\": \"pass\""));
    CHECK(strstr(out_text, "\"summary\": {\"compared\": 2, \"passed\": 1, \"failed\": 1, \"unusable\": 0, "
                           "\"missing\": 1, \"new\": 1, \"approved\": 0}}") != NULL);
    CHECK(file_has(P("j.xml"), "<testsuite name=\"mmdrender diff\" tests=\"4\" failures=\"3\" errors=\"0\""));
    CHECK(file_has(P("j.xml"), "<testcase classname=\"mmdrender.diff\" name=\"f1.png\"/>"));
    CHECK(file_has(P("j.xml"), "<failure type=\"differs\" message=\"1 px over 0 (0.0100%, the limit is 0%); "
                               "100x100, max 10, mean 0.0003, PSNR 72.90 dB"));
    CHECK(file_has(P("j.xml"), "<failure type=\"new\" message=\"only in "));
    CHECK(file_has(P("j.xml"), "<failure type=\"missing\" message=\"only in "));
    /* --approve: f2 (differs) and f3 (new) copied over; f4 stays missing */
    CHECK_EQ_INT(RUN_DIFF(P("g"), P("n"), "--approve"), 6);
    CHECK(strstr(out_text, "approved: f2.png (differs)\n") != NULL);
    CHECK(strstr(out_text, "approved: f3.png (new)\n") != NULL);
    CHECK(strstr(out_text, "2 approved (B copied over A)") != NULL);
    CHECK_EQ_INT(RUN_DIFF(P("g/f2.png"), P("n/f2.png")), 0);
    CHECK_EQ_INT(RUN_DIFF(P("g/f3.png"), P("n/f3.png")), 0);
    unlink(P("g/f4.png"));
    CHECK_EQ_INT(RUN_DIFF(P("g"), P("n")), 0);
    /* a single file: a missing golden is new, and --approve creates it */
    CHECK_EQ_INT(RUN_DIFF(P("g/f5.png"), P("n/f3.png"), "--approve"), 0);
    CHECK(strstr(out_text, "approved: f5.png (new)") != NULL);
    CHECK_EQ_INT(RUN_DIFF(P("g/f5.png"), P("n/f3.png")), 0);
}

/* --html writes only into folders of its own: a planted img symlink or a
 * folder writable by others is refused, and nothing is written there. */
TEST(cli_html_folders)
{
    mkdir(P("elsewhere"), 0755);
    mkdir(P("r1"), 0755);
    CHECK(symlink(P("elsewhere"), P("r1/img")) == 0);
    CHECK_EQ_INT(RUN_DIFF(P("d1"), P("d2"), "--html", P("r1")), 2);
    CHECK(access(P("elsewhere/000000-a.png"), F_OK) != 0 && access(P("r1/index.html"), F_OK) != 0);
    mkdir(P("r2"), 0755);
    mkdir(P("r2/img"), 0755);
    chmod(P("r2/img"), 0777);
    CHECK_EQ_INT(RUN_DIFF(P("d1"), P("d2"), "--html", P("r2")), 2);
    CHECK(access(P("r2/img/000000-a.png"), F_OK) != 0);
    CHECK(symlink(P("elsewhere"), P("r3")) == 0);
    CHECK_EQ_INT(RUN_DIFF(P("d1"), P("d2"), "--html", P("r3")), 2);
    /* a folder of ours is reused */
    CHECK_EQ_INT(RUN_DIFF(P("d1"), P("d2"), "--html", P("r4")), 1);
    CHECK_EQ_INT(RUN_DIFF(P("d1"), P("d2"), "--html", P("r4")), 1);
    CHECK(access(P("r4/img/000001-heat.png"), F_OK) == 0 && access(P("r4/index.html"), F_OK) == 0);
}

int main(void)
{
    snprintf(root, sizeof root, "/tmp/test_diff_XXXXXX");
    if (!mkdtemp(root))
        return 1;
    setup();
    RUN(identical_exact_pass);
    RUN(one_pixel_metrics);
    RUN(exact_fails_tolerant_passes);
    RUN(unusable_inputs);
    RUN(directories);
    RUN(single_heatmap);
    RUN(imgdiff_compare_by_hand);
    RUN(imgdiff_ignore_aa);
    RUN(imgdiff_mask);
    RUN(cli_mask_and_aa);
    RUN(cli_summary_approve_junit);
    RUN(cli_html_folders);
    char cmd[128];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", root);
    if (system(cmd) != 0)
        printf("# could not remove %s\n", root);
    return test_finish();
}
