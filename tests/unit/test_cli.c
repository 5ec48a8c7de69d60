/* tests/unit/test_cli.c - CLI helpers: plain progress lines for logs (renderer/cli/progress.h)
 * carry the frame count, percent, fps, elapsed time and ETA; the option table
 * (renderer/cli/options.h) says which options take the next argument as their value and
 * checks integer values against one range each; a usage error is said on stderr and comes
 * back as MMD_E_USAGE (one error convention below a command's top). */
#include <regex.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "renderer/cli/options.h"
#include "renderer/cli/progress.h"
#include "tests/util/test.h"

TEST_STATE_DEFINE

/* Every line of f matching the extended regex re; the count of lines. */
static int lines_matching(FILE *f, const char *re, int *total)
{
    regex_t r;
    char line[256];
    int n = 0;
    *total = 0;
    if (regcomp(&r, re, REG_EXTENDED | REG_NOSUB) != 0)
        return -1;
    rewind(f);
    while (fgets(line, sizeof line, f)) {
        line[strcspn(line, "\n")] = 0;
        (*total)++;
        n += regexec(&r, line, 0, NULL, 0) == 0;
    }
    regfree(&r);
    return n;
}

TEST(plain_lines_have_fps_elapsed_and_eta)
{
    FILE *f = tmpfile();
    REQUIRE(f != NULL);
    mmd_progress *p = mmd_progress_create(MMD_PROGRESS_PLAIN, f, 3);
    REQUIRE(p != NULL);
    for (int i = 0; i < 3; i++)
        mmd_progress_frame(p, 10 + i);
    mmd_progress_finish(p);
    mmd_progress_free(p);
    int total;
    /* the first frame is printed (its percent is new), then the last by finish */
    int n = lines_matching(f, "^frame [0-9]+/3 [0-9]+% [0-9]+\\.[0-9]{2} fps elapsed [0-9]+:[0-9]{2}:[0-9]{2} "
                              "ETA [0-9]+:[0-9]{2}:[0-9]{2}$", &total);
    CHECK(total >= 1);
    CHECK_EQ_INT(n, total);
    CHECK_EQ_INT(lines_matching(f, "^frame 3/3 100% .* elapsed 0:00:00 ETA 0:00:00$", &total), 1);
    fclose(f);
}

TEST(option_table_says_which_options_take_a_value)
{
    CHECK(mmd_cli_takes_value("--frames"));
    CHECK(mmd_cli_takes_value("-o"));
    CHECK(mmd_cli_takes_value("--texture-memory"));
    CHECK(mmd_cli_takes_value("--scene"));
    CHECK(!mmd_cli_takes_value("--glow"));
    CHECK(!mmd_cli_takes_value("--soft-shadow")); /* its value is optional: --soft-shadow=contact */
    CHECK(!mmd_cli_takes_value("-q"));
    CHECK(!mmd_cli_takes_value("--bogus"));
    CHECK(!mmd_cli_takes_value("scene.pmm"));
}

TEST(integer_options_have_one_range)
{
    mmd_error e;
    int v = -5;
    CHECK(mmd_cli_int(MMD_OPT_CRF, "63", &v, &e) == MMD_OK && v == 63);
    CHECK_EQ_INT(mmd_cli_int(MMD_OPT_CRF, "64", &v, &e), MMD_E_USAGE);
    CHECK_STR(e.msg, "--crf: expected 0..63, got '64'");
    CHECK(mmd_cli_int(MMD_OPT_THREADS, "0", &v, &e) == MMD_OK && v == 0);
    CHECK_EQ_INT(mmd_cli_int(MMD_OPT_TEXMEM, "0", &v, &e), MMD_E_USAGE);
    CHECK_STR(e.msg, "--texture-memory: expected 1..1048576, got '0'");
    CHECK_EQ_INT(mmd_cli_int(MMD_OPT_THREADS, "2x", &v, NULL), MMD_E_USAGE);
    CHECK_EQ_INT(mmd_cli_int(MMD_OPT_GL, "1", &v, &e), MMD_E_USAGE); /* not an integer option */
    CHECK(strstr(e.msg, "has no range in the table") != NULL);
}

/* A bad command line: the sentence (arg escaped) and the --help hint on
 * stderr, MMD_E_USAGE back, which the command's top turns into exit 1. */
TEST(usage_error_is_said_and_returns_a_status)
{
    FILE *f = tmpfile();
    REQUIRE(f != NULL);
    fflush(stderr);
    int saved = dup(2);
    REQUIRE(saved >= 0 && dup2(fileno(f), 2) == 2);
    mmd_status st = mmd_cli_usage_error(MMD_CLI_ENCODE, "unknown option '%s'", "--b\033[2Jogus");
    mmd_status st2 = mmd_cli_usage_error(MMD_CLI_RENDER, "%s", "missing SCENE.ini");
    fflush(stderr);
    dup2(saved, 2);
    close(saved);
    CHECK_EQ_INT(st, MMD_E_USAGE);
    CHECK_EQ_INT(st2, MMD_E_USAGE);
    char text[512] = "";
    rewind(f);
    size_t n = fread(text, 1, sizeof text - 1, f);
    text[n] = 0;
    fclose(f);
    CHECK_STR(text, "mmdrender encode: unknown option '--b\\x1b[2Jogus'\n(mmdrender encode --help for the options)\n"
                    "mmdrender: missing SCENE.ini\n(mmdrender --help for the options)\n");
}

int main(void)
{
    RUN(plain_lines_have_fps_elapsed_and_eta);
    RUN(option_table_says_which_options_take_a_value);
    RUN(integer_options_have_one_range);
    RUN(usage_error_is_said_and_returns_a_status);
    return test_finish();
}
