/* tests/unit/test_exit.c - every status's exit code (docs/cli.md, "Exit codes"). */
#include "renderer/cli/commands.h"
#include "tests/util/test.h"

TEST_STATE_DEFINE

/* The contract, as docs/cli.md states it: 0 ok, 1 usage, 2 input, 3 GL,
 * 4 encoder, 5 output, 130 interrupted. Written as numbers on purpose: a
 * change to commands.h's enum must fail here too. */
TEST(codes_are_the_documented_ones)
{
    static const struct {
        mmd_status s;
        int code;
    } want[] = {
        {MMD_OK, 0},          {MMD_E_IO, 2},          {MMD_E_NOMEM, 2},        {MMD_E_LIMIT, 2},
        {MMD_E_UNSUPPORTED, 2}, {MMD_E_TRUNCATED, 2}, {MMD_E_BAD_MAGIC, 2},    {MMD_E_BAD_VERSION, 2},
        {MMD_E_BAD_HEADER, 2}, {MMD_E_BAD_COUNT, 2},  {MMD_E_BAD_INDEX, 2},    {MMD_E_BAD_STRING, 2},
        {MMD_E_BAD_VALUE, 2}, {MMD_E_BAD_STRUCTURE, 2}, {MMD_E_USAGE, 1},      {MMD_E_GL, 3},
        {MMD_E_ENCODER, 4},   {MMD_E_OUTPUT, 5},      {MMD_E_INTERRUPTED, 130},
    };
    for (size_t i = 0; i < sizeof want / sizeof want[0]; i++) {
        if (mmd_exit_code(want[i].s) != want[i].code)
            printf("#   %s: exit %d, want %d\n", mmd_status_str(want[i].s), mmd_exit_code(want[i].s), want[i].code);
        CHECK_EQ_INT(mmd_exit_code(want[i].s), want[i].code);
    }
    /* every status is in the table: a new one fails here until its code is written down */
    CHECK_EQ_INT((int)(sizeof want / sizeof want[0]), MMD_STATUS_COUNT);
    for (int s = 0; s < MMD_STATUS_COUNT; s++) {
        int seen = 0;
        for (size_t i = 0; i < sizeof want / sizeof want[0]; i++)
            seen += (int)want[i].s == s;
        if (seen != 1)
            printf("#   %s is in the table %d times\n", mmd_status_str((mmd_status)s), seen);
        CHECK_EQ_INT(seen, 1);
    }
}

/* Each class has its one code (exit.c's switch), whichever statuses have it:
 * the exit code of a status is its class's, so it comes from the list's row. */
TEST(code_follows_the_class)
{
    static const int by_class[] = {
        [MMD_CLASS_OK] = 0, [MMD_CLASS_INPUT] = 2, [MMD_CLASS_USAGE] = 1, [MMD_CLASS_GL] = 3,
        [MMD_CLASS_ENCODER] = 4, [MMD_CLASS_OUTPUT] = 5, [MMD_CLASS_INTERRUPTED] = 130,
    };
    for (int s = 0; s < MMD_STATUS_COUNT; s++) {
        mmd_status_class c = mmd_status_class_of((mmd_status)s);
        REQUIRE((unsigned)c < sizeof by_class / sizeof by_class[0]);
        CHECK_EQ_INT(mmd_exit_code((mmd_status)s), by_class[c]);
    }
    CHECK_EQ_INT((int)MMD_OK, 0); /* callers test `if (st)`; core/status.c asserts it at build time too */
}

/* Whatever is added to MMD_STATUS_LIST later: only MMD_OK exits 0, and every
 * code is one of the documented ones. A value outside the list exits 2. (A
 * row of class OK other than MMD_OK does not even compile: tests/cli/status_guard.sh.) */
TEST(every_failure_exits_non_zero)
{
    CHECK_EQ_INT(mmd_exit_code(MMD_OK), 0);
    CHECK_EQ_INT((int)mmd_status_class_of(MMD_OK), (int)MMD_CLASS_OK);
    for (int s = 1; s < MMD_STATUS_COUNT; s++) {
        int code = mmd_exit_code((mmd_status)s);
        if (code == 0)
            printf("#   %s exits 0\n", mmd_status_str((mmd_status)s));
        CHECK(code != 0);
        CHECK(code == 1 || code == 2 || code == 3 || code == 4 || code == 5 || code == 130);
        CHECK((int)mmd_status_class_of((mmd_status)s) != (int)MMD_CLASS_OK);
    }
    CHECK_EQ_INT(mmd_exit_code((mmd_status)MMD_STATUS_COUNT), 2);
    CHECK_EQ_INT(mmd_exit_code((mmd_status)-1), 2);
}

int main(void)
{
    RUN(codes_are_the_documented_ones);
    RUN(every_failure_exits_non_zero);
    RUN(code_follows_the_class);
    return test_finish();
}
