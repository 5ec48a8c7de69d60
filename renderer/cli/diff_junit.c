/* renderer/cli/diff_junit.c - JUnit XML for `mmdrender diff` (see diff_junit.h). */
#include "renderer/cli/diff_junit.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "renderer/base/fs.h"
#include "renderer/base/msg.h"

/* s as XML attribute or text: terminal-safe first (mmd_printable), then the five entities. */
static void xml(FILE *f, const char *s)
{
    char buf[1024];
    for (const char *p = mmd_printable(s, buf, sizeof buf); *p; p++) {
        switch (*p) {
        case '&': fputs("&amp;", f); break;
        case '<': fputs("&lt;", f); break;
        case '>': fputs("&gt;", f); break;
        case '"': fputs("&quot;", f); break;
        case '\'': fputs("&apos;", f); break;
        default: fputc(*p, f);
        }
    }
}

static void figures(FILE *f, const mmd_diff_html_row *r, const mmd_diff_html_info *in)
{
    const mmd_imgdiff_result *m = &r->m;
    fprintf(f, "%lld px over %d (%.4f%%, the limit is %g%%); %dx%d, max %d, mean %.4f, PSNR ", m->pixels_over,
            in->threshold, 100.0 * m->fraction_over, 100.0 * in->max_fraction, m->width, m->height, m->max_error,
            m->mean_error);
    if (isinf(m->psnr))
        fputs("inf", f);
    else
        fprintf(f, "%.2f dB", m->psnr);
    fprintf(f, ", SSIM %.5f, %lld px masked, %lld px anti-aliasing", m->ssim, m->pixels_masked, m->pixels_aa);
}

static void testcase(FILE *f, const mmd_diff_html_row *r, const mmd_diff_html_info *in)
{
    fputs("    <testcase classname=\"mmdrender.diff\" name=\"", f);
    xml(f, r->name);
    fputs("\"", f);
    if (r->verdict == MMD_DIFF_PASS && !r->approved) {
        fputs("/>\n", f);
        return;
    }
    fputs(">\n", f);
    const char *v = mmd_diff_verdict_name(r->verdict);
    if (r->verdict == MMD_DIFF_DIFFERS) {
        fprintf(f, "      <failure type=\"%s\" message=\"", v);
        figures(f, r, in);
        fputs("\">", f);
        figures(f, r, in);
        fputs("</failure>\n", f);
    } else if (r->verdict != MMD_DIFF_PASS) {
        fprintf(f, "      <%s type=\"%s\" message=\"", r->verdict == MMD_DIFF_UNUSABLE ? "error" : "failure", v);
        xml(f, r->error);
        fputs("\"/>\n", f);
    }
    if (r->approved)
        fputs("      <system-out>approved: B copied over A</system-out>\n", f);
    fputs("    </testcase>\n", f);
}

/* What the XML lists (mmd_file_write_whole's context). */
typedef struct suite {
    const mmd_diff_html_info *info;
    const mmd_diff_html_row *rows;
    size_t n;
} suite;

static int write_xml(FILE *f, void *ctx)
{
    const suite *su = ctx;
    const mmd_diff_html_info *in = su->info;
    const mmd_diff_html_row *rows = su->rows;
    size_t n = su->n;
    int failures = 0, errors = 0;
    for (size_t i = 0; i < n; i++) {
        errors += rows[i].verdict == MMD_DIFF_UNUSABLE;
        failures += rows[i].verdict != MMD_DIFF_UNUSABLE && rows[i].verdict != MMD_DIFF_PASS;
    }
    char counts[96];
    snprintf(counts, sizeof counts, "tests=\"%zu\" failures=\"%d\" errors=\"%d\"", n, failures, errors);
    fprintf(f, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites name=\"mmdrender diff\" %s>\n"
               "  <testsuite name=\"mmdrender diff\" %s skipped=\"0\">\n    <properties>\n"
               "      <property name=\"a\" value=\"",
            counts, counts);
    xml(f, in->a);
    fputs("\"/>\n      <property name=\"b\" value=\"", f);
    xml(f, in->b);
    fprintf(f, "\"/>\n      <property name=\"threshold\" value=\"%d\"/>\n"
               "      <property name=\"max_fraction\" value=\"%g\"/>\n    </properties>\n",
            in->threshold, in->max_fraction);
    for (size_t i = 0; i < n; i++)
        testcase(f, &rows[i], in);
    fputs("  </testsuite>\n</testsuites>\n", f);
    return ferror(f) ? -1 : 0;
}

mmd_status mmd_diff_junit_write(const char *path, const mmd_diff_html_info *info, const mmd_diff_html_row *rows,
                                size_t n, mmd_error *err)
{
    suite su = {info, rows, n};
    return mmd_file_write_whole(path, write_xml, &su, err);
}
