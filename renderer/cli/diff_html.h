/* renderer/cli/diff_html.h - the HTML report of `mmdrender diff A B --html DIR`.
 *
 *     mmd_diff_html_row rows[n];   // one per compared name, images already in DIR/img/
 *     mmd_diff_html_info info = {.a = "golden/", .b = "frames/", .threshold = 4, ...};
 *     st = mmd_diff_html_write("report", &info, rows, n, &err);
 *
 * Writes DIR/index.html (atomically: a hidden temporary, then rename): a
 * summary at the top (inputs, thresholds, counts, verdict, worst image), then
 * one table row per entry of rows, sorted worst first (unusable, then failing,
 * then by fraction over the threshold, max error, mean error, name). A row
 * shows the figures (max/mean error, PSNR, SSIM, pixels and fraction over the
 * threshold) and A, B and the heatmap side by side, plus a view that flips
 * between A and B (a slider wipes B over A; a button or the row's 'f' key
 * swaps them). Everything is inline (CSS, script) and the images are relative
 * files, so the page opens from the file system with no server and no network.
 * The script logs one line "mmd-diff-report: rows=R images=I loaded=L" once
 * the page has loaded, and a console error for an image that failed to load
 * (tests read those from a headless browser). rows is sorted in place.
 * Returns MMD_OK, or the failure with its sentence in err.
 */
#ifndef MMD_RENDERER_DIFF_HTML_H
#define MMD_RENDERER_DIFF_HTML_H

#include <stdbool.h>
#include <stddef.h>

#include "core/status.h"
#include "renderer/image/diff.h"

/* What became of one compared name (the JSON "status" and the JUnit result). */
typedef enum mmd_diff_verdict {
    MMD_DIFF_PASS,     /* within the thresholds */
    MMD_DIFF_DIFFERS,  /* beyond them */
    MMD_DIFF_UNUSABLE, /* not a PNG, too large, size mismatch, ... */
    MMD_DIFF_MISSING,  /* in A only (a golden without its frame) */
    MMD_DIFF_NEW,      /* in B only (a frame without its golden) */
} mmd_diff_verdict;

/* "pass", "differs", "unusable", "missing", "new". */
const char *mmd_diff_verdict_name(mmd_diff_verdict v);

typedef struct mmd_diff_html_row {
    const char *name;  /* file name compared (borrowed) */
    mmd_imgdiff_result m;
    bool pass;         /* within the thresholds */
    const char *error; /* non-NULL, non-empty: unusable input, no images */
    mmd_diff_verdict verdict;
    bool approved;     /* diff --approve copied B over A */
    char img_a[32], img_b[32], img_heat[32]; /* relative to DIR; "" when none */
} mmd_diff_html_row;

typedef struct mmd_diff_html_info {
    const char *a, *b;  /* the inputs as given */
    int threshold;
    double max_fraction;
    bool all;           /* rows include identical images */
    int total, identical, pass, fail, bad; /* counts over every compared name */
} mmd_diff_html_info;

mmd_status mmd_diff_html_write(const char *dir, const mmd_diff_html_info *info, mmd_diff_html_row *rows, size_t n,
                               mmd_error *err);

#endif
