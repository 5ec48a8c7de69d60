/* renderer/cli/diff_html.c - the self-contained HTML report of `mmdrender diff` (see diff_html.h).
 *
 * Written by hand with fprintf: a page this small needs no template library,
 * and Debian has none for C that would make it shorter. */
#include "renderer/cli/diff_html.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "renderer/base/fs.h"
#include "renderer/base/msg.h"

/* Rows after this many load lazily (a report of every frame of a long render stays light). */
#define EAGER_ROWS 40

static const char k_style[] =
    "body{font:14px/1.4 system-ui,sans-serif;margin:1em 2em;background:#fafafa;color:#222}\n"
    "h1{font-size:1.4em;margin:.2em 0}\n"
    "table{border-collapse:collapse;width:100%}\n"
    "th,td{border-bottom:1px solid #ddd;padding:6px;vertical-align:top;text-align:left}\n"
    "th{background:#eee;position:sticky;top:0}\n"
    ".summary td,.summary th{border:none;padding:2px 12px 2px 0;position:static;background:none}\n"
    ".verdict{font-weight:bold;padding:2px 8px;border-radius:4px;color:#fff}\n"
    ".ok{background:#2a7d2a}.differs{background:#c0392b}.unusable{background:#7d3c98}.same{background:#888}\n"
    "td.img{width:20%}td.img img{width:100%;display:block;image-rendering:pixelated;"
    "background:repeating-conic-gradient(#ccc 0 25%,#fff 0 50%) 0 0/16px 16px}\n"
    ".fig{white-space:nowrap;font-variant-numeric:tabular-nums}\n"
    ".flip{position:relative}.flip img.b{position:absolute;left:0;top:0}\n"
    ".flip input{width:100%}.flip button{margin-top:2px}\n"
    ".name{font-family:monospace;word-break:break-all}\n";

/* The slider wipes B over A (clip-path); the button and the 'f' key swap
 * them. Load check: every eager image decoded, else a console error. */
static const char k_script[] =
    "(function(){\n"
    "function wipe(box,v){box.querySelector('img.b').style.clipPath='inset(0 0 0 '+v+'%)';}\n"
    "document.querySelectorAll('.flip').forEach(function(box){\n"
    "  var r=box.querySelector('input');\n"
    "  r.addEventListener('input',function(){wipe(box,r.value);});\n"
    "  box.querySelector('button').addEventListener('click',function(){\n"
    "    r.value=r.value>50?0:100;wipe(box,r.value);});\n"
    "  wipe(box,r.value);\n"
    "});\n"
    "document.addEventListener('keydown',function(e){\n"
    "  if(e.key!=='f')return;\n"
    "  document.querySelectorAll('.flip').forEach(function(box){box.querySelector('button').click();});\n"
    "});\n"
    "window.addEventListener('load',function(){\n"
    "  var imgs=document.querySelectorAll('img'),loaded=0,eager=0;\n"
    "  imgs.forEach(function(i){if(i.loading==='lazy')return;eager++;\n"
    "    if(i.complete&&i.naturalWidth>0)loaded++;else console.error('mmd-diff-report: image failed: '+i.src);});\n"
    "  document.body.dataset.loaded=loaded;\n"
    "  console.log('mmd-diff-report: rows='+document.querySelectorAll('tr.row').length+' images='+imgs.length+\n"
    "    ' loaded='+loaded+' eager='+eager);\n"
    "});\n"
    "})();\n";

const char *mmd_diff_verdict_name(mmd_diff_verdict v)
{
    static const char *const names[] = {"pass", "differs", "unusable", "missing", "new"};
    return (unsigned)v < sizeof names / sizeof names[0] ? names[v] : "unusable";
}

static void esc(FILE *f, const char *s)
{
    for (; s && *s; s++) {
        switch (*s) {
        case '&': fputs("&amp;", f); break;
        case '<': fputs("&lt;", f); break;
        case '>': fputs("&gt;", f); break;
        case '"': fputs("&quot;", f); break;
        case '\'': fputs("&#39;", f); break;
        default: fputc(*s, f);
        }
    }
}

static const char *psnr_text(double psnr, char *buf, size_t n)
{
    if (isinf(psnr))
        snprintf(buf, n, "inf");
    else
        snprintf(buf, n, "%.2f dB", psnr);
    return buf;
}

/* 0 unusable, 1 failing, 2 passing but not identical, 3 identical. */
static int rank(const mmd_diff_html_row *r)
{
    if (r->error && *r->error)
        return 0;
    if (!r->pass)
        return 1;
    return r->m.max_error > 0 ? 2 : 3;
}

static int cmp_double_desc(double x, double y) { return x > y ? -1 : x < y ? 1 : 0; }

static int cmp_rows(const void *pa, const void *pb)
{
    const mmd_diff_html_row *a = pa, *b = pb;
    int c = rank(a) - rank(b);
    if (!c)
        c = cmp_double_desc(a->m.fraction_over, b->m.fraction_over);
    if (!c)
        c = b->m.max_error - a->m.max_error;
    if (!c)
        c = cmp_double_desc(a->m.mean_error, b->m.mean_error);
    return c ? c : strcmp(a->name, b->name);
}

static const char *verdict_class(int rk) { return rk == 0 ? "unusable" : rk == 1 ? "differs" : rk == 2 ? "ok" : "same"; }
static const char *verdict_text(int rk) { return rk == 0 ? "UNUSABLE" : rk == 1 ? "DIFFERS" : rk == 2 ? "ok" : "identical"; }

static void write_summary(FILE *f, const mmd_diff_html_info *in, const mmd_diff_html_row *rows, size_t n)
{
    int rk = in->bad ? 0 : in->fail ? 1 : 2;
    fputs("<h1>mmdrender diff: ", f);
    fprintf(f, "<span class=\"verdict %s\">%s</span></h1>\n<table class=\"summary\">\n", verdict_class(rk),
            rk == 0 ? "unusable input" : rk == 1 ? "differs" : "all within thresholds");
    fputs("<tr><th>A</th><td class=\"name\">", f);
    esc(f, in->a);
    fputs("</td></tr>\n<tr><th>B</th><td class=\"name\">", f);
    esc(f, in->b);
    fprintf(f, "</td></tr>\n<tr><th>threshold</th><td>a pixel counts when a channel differs by more than %d; "
               "an image passes with at most %g of its pixels over</td></tr>\n",
            in->threshold, in->max_fraction);
    fprintf(f, "<tr><th>images</th><td id=\"counts\">%d compared: %d identical, %d within thresholds, "
               "%d differ, %d unusable</td></tr>\n",
            in->total, in->identical, in->pass - in->identical, in->fail, in->bad);
    if (n && rank(&rows[0]) < 3) {
        char p[32];
        fputs("<tr><th>worst</th><td><a href=\"#r0\" class=\"name\">", f);
        esc(f, rows[0].name);
        if (rank(&rows[0]) > 0)
            fprintf(f, "</a>: max %d, PSNR %s, SSIM %.5f, %.4f%% over", rows[0].m.max_error,
                    psnr_text(rows[0].m.psnr, p, sizeof p), rows[0].m.ssim, 100.0 * rows[0].m.fraction_over);
        else
            fputs("</a>: unusable", f);
        fputs("</td></tr>\n", f);
    }
    fprintf(f, "<tr><th>rows</th><td>%zu, worst first (%s); drag a slider or press <kbd>f</kbd> to flip "
               "between A and B</td></tr>\n</table>\n",
            n, in->all ? "every image" : "images that differ");
}

static void write_img(FILE *f, const char *src, const char *alt, const char *cls, bool lazy)
{
    fputs("<a href=\"", f);
    esc(f, src);
    fputs("\"><img src=\"", f);
    esc(f, src);
    fprintf(f, "\" alt=\"%s\"%s%s%s%s></a>", alt, cls ? " class=\"" : "", cls ? cls : "", cls ? "\"" : "",
            lazy ? " loading=\"lazy\"" : "");
}

static void write_row(FILE *f, const mmd_diff_html_row *r, size_t i, int threshold)
{
    int rk = rank(r);
    bool lazy = i >= EAGER_ROWS;
    fprintf(f, "<tr class=\"row\" id=\"r%zu\"><td><div class=\"name\">", i);
    esc(f, r->name);
    fprintf(f, "</div><span class=\"verdict %s\">%s</span></td>\n", verdict_class(rk), verdict_text(rk));
    if (rk == 0) {
        fputs("<td colspan=\"5\">", f);
        esc(f, r->error);
        fputs("</td></tr>\n", f);
        return;
    }
    char p[32];
    fprintf(f, "<td class=\"fig\">%dx%d<br>max %d<br>mean %.4f<br>PSNR %s<br>SSIM %.5f<br>"
               "%lld px over %d<br>(%.4f%%)</td>\n",
            r->m.width, r->m.height, r->m.max_error, r->m.mean_error, psnr_text(r->m.psnr, p, sizeof p), r->m.ssim,
            r->m.pixels_over, threshold, 100.0 * r->m.fraction_over);
    const char *srcs[3] = {r->img_a, r->img_b, r->img_heat};
    const char *alts[3] = {"A", "B", "heatmap"};
    for (int k = 0; k < 3; k++) {
        fputs("<td class=\"img\">", f);
        if (*srcs[k])
            write_img(f, srcs[k], alts[k], NULL, lazy);
        fprintf(f, "<div>%s</div></td>\n", alts[k]);
    }
    fputs("<td class=\"img\"><div class=\"flip\">", f);
    if (*r->img_a && *r->img_b) {
        write_img(f, r->img_a, "A", "a", lazy);
        write_img(f, r->img_b, "B", "b", lazy);
    }
    fputs("<input type=\"range\" min=\"0\" max=\"100\" value=\"50\" aria-label=\"wipe B over A\">"
          "<button type=\"button\">flip A/B</button></div><div>A | B (left A, right B)</div></td></tr>\n",
          f);
}

/* What the page shows (mmd_file_write_whole's context). */
typedef struct page {
    const mmd_diff_html_info *info;
    const mmd_diff_html_row *rows;
    size_t n;
} page;

static int write_page(FILE *f, void *ctx)
{
    const page *pg = ctx;
    const mmd_diff_html_info *in = pg->info;
    const mmd_diff_html_row *rows = pg->rows;
    size_t n = pg->n;
    fputs("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\n"
          "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; img-src 'self' file: data:; "
          "style-src 'unsafe-inline'; script-src 'unsafe-inline'\">\n"
          "<meta name=\"viewport\" content=\"width=device-width\">\n<title>mmdrender diff: ",
          f);
    esc(f, in->a);
    fputs(" vs ", f);
    esc(f, in->b);
    fprintf(f, "</title>\n<style>\n%s</style>\n</head><body>\n", k_style);
    write_summary(f, in, rows, n);
    fputs("<table class=\"rows\">\n<thead><tr><th>image</th><th>figures</th><th>A</th><th>B</th>"
          "<th>heatmap (red: differs)</th><th>flip</th></tr></thead>\n<tbody>\n",
          f);
    for (size_t i = 0; i < n; i++)
        write_row(f, &rows[i], i, in->threshold);
    if (!n)
        fputs("<tr><td colspan=\"6\">no image differs</td></tr>\n", f);
    fprintf(f, "</tbody></table>\n<script>\n%s</script>\n</body></html>\n", k_script);
    return ferror(f) ? -1 : 0;
}

mmd_status mmd_diff_html_write(const char *dir, const mmd_diff_html_info *info, mmd_diff_html_row *rows, size_t n,
                               mmd_error *err)
{
    if (n > 1)
        qsort(rows, n, sizeof *rows, cmp_rows);
    size_t len = strlen(dir) + sizeof "/index.html";
    char *path = malloc(len);
    if (!path)
        return mmd_fail(err, MMD_E_NOMEM, "out of memory");
    snprintf(path, len, "%s/index.html", dir);
    page pg = {info, rows, n};
    mmd_status st = mmd_file_write_whole(path, write_page, &pg, err);
    free(path);
    return st;
}
