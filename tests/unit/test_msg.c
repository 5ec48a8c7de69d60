/* tests/unit/test_msg.c - the printing funnel (renderer/base/msg.h): every %s
 * argument made printable, the format's own text and other conversions as
 * printf writes them. */
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "renderer/base/msg.h"
#include "tests/util/test.h"

TEST_STATE_DEFINE

static char g_out[4096];

/* mmd_msg_vprint into a temporary file; what it wrote is in g_out, NUL-terminated. */
static int printed(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static int printed(const char *fmt, ...)
{
    FILE *f = tmpfile();
    if (!f)
        return -2;
    va_list ap;
    va_start(ap, fmt);
    int rc = mmd_msg_vprint(f, fmt, ap);
    va_end(ap);
    rewind(f);
    size_t n = fread(g_out, 1, sizeof g_out - 1, f);
    fclose(f);
    g_out[n] = 0;
    return rc;
}

TEST(string_arguments_are_escaped)
{
    CHECK_EQ_INT(printed("model %s: %s\n", "\x1b[31mred\x07", "ok"), 26);
    CHECK_STR(g_out, "model \\x1b[31mred\\x07: ok\n");
    /* C1 in UTF-8 (U+009B, CSI) and DEL; other UTF-8 (ミク) kept */
    printed("%s|%s", "a\xc2\x9b" "1m\x7f", "\xe3\x83\x9f\xe3\x82\xaf");
    CHECK_STR(g_out, "a\\x9b1m\\x7f|\xe3\x83\x9f\xe3\x82\xaf");
    /* the format's own control characters are the program's: a progress bar's \r stays */
    printed("\r[%s]\n", "\r");
    CHECK_STR(g_out, "\r[\\x0d]\n");
}

TEST(width_and_precision)
{
    printed("[%-8s][%6s]", "a\x1b", "b");
    CHECK_STR(g_out, "[a\\x1b   ][     b]");
    printed("[%.3s][%.*s][%*s]", "abcdef", 2, "\x1bxyz", -4, "z");
    CHECK_STR(g_out, "[abc][\\x1bx][z   ]");
    /* a precision that cuts inside a C1 pair leaves its lead byte alone */
    printed("[%.1s]", "\xc2\x9b");
    CHECK_STR(g_out, "[\xc2]");
}

TEST(other_conversions_as_printf)
{
    char want[256];
    snprintf(want, sizeof want, "%d %u %ld %lld %zu %x %5.2f %c %% %g %03d %-3d| %jd %p", -3, 7u, -8L, 1LL << 40,
             (size_t)12, 255u, 3.14159, 'q', 1e-7, 5, 2, (intmax_t)-9, (void *)g_out);
    int rc = printed("%d %u %ld %lld %zu %x %5.2f %c %% %g %03d %-3d| %jd %p", -3, 7u, -8L, 1LL << 40, (size_t)12,
                     255u, 3.14159, 'q', 1e-7, 5, 2, (intmax_t)-9, (void *)g_out);
    CHECK_STR(g_out, want);
    CHECK_EQ_INT(rc, (long long)strlen(want));
    printed("%*d|%.*f|%s", 4, 7, 1, 2.25, "end");
    CHECK_STR(g_out, "   7|2.2|end");
}

TEST(printable_into_a_buffer)
{
    char b[16];
    CHECK_STR(mmd_printable("x\x1b[1m\xc2\x85y", b, sizeof b), "x\\x1b[1m\\x85y");
    CHECK_STR(mmd_printable("\x1b\x1b\x1b\x1b", b, 10), "\\x1b\\x1b"); /* whole escapes only */
    CHECK_STR(mmd_printable(NULL, b, sizeof b), "");
}

int main(void)
{
    RUN(string_arguments_are_escaped);
    RUN(width_and_precision);
    RUN(other_conversions_as_printf);
    RUN(printable_into_a_buffer);
    return test_finish();
}
