/* renderer/cli/json_out.c - JSON strings for info/pose/diff output (see json_out.h). */
#include "renderer/cli/json_out.h"

void mmd_json_str(FILE *f, const char *s)
{
    fputc('"', f);
    for (const unsigned char *p = (const unsigned char *)(s ? s : ""); *p; p++) {
        if (*p == '"' || *p == '\\')
            fprintf(f, "\\%c", *p);
        else if (*p < 0x20 || *p == 0x7F)
            fprintf(f, "\\u%04x", *p);
        else if (*p == 0xC2 && p[1] >= 0x80 && p[1] <= 0x9F) /* U+0080..U+009F: C1, obeyed by terminals */
            fprintf(f, "\\u%04x", *++p);
        else
            fputc(*p, f);
    }
    fputc('"', f);
}
