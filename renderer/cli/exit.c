/* renderer/cli/exit.c - the one place a status becomes an exit code (docs/cli.md, "Exit codes"). */
#include "renderer/cli/commands.h"

/* Every status has a row, so a new status must be placed here (the size check
 * below fails the build otherwise). Input statuses: the file could not be read,
 * or its bytes are wrong; the renderer's stage statuses keep their own codes. */
static const unsigned char k_exit[MMD_STATUS_COUNT] = {
    [MMD_OK] = MMD_EXIT_OK,
    [MMD_E_IO] = MMD_EXIT_INPUT,
    [MMD_E_NOMEM] = MMD_EXIT_INPUT,
    [MMD_E_LIMIT] = MMD_EXIT_INPUT,
    [MMD_E_UNSUPPORTED] = MMD_EXIT_INPUT,
    [MMD_E_TRUNCATED] = MMD_EXIT_INPUT,
    [MMD_E_BAD_MAGIC] = MMD_EXIT_INPUT,
    [MMD_E_BAD_VERSION] = MMD_EXIT_INPUT,
    [MMD_E_BAD_HEADER] = MMD_EXIT_INPUT,
    [MMD_E_BAD_COUNT] = MMD_EXIT_INPUT,
    [MMD_E_BAD_INDEX] = MMD_EXIT_INPUT,
    [MMD_E_BAD_STRING] = MMD_EXIT_INPUT,
    [MMD_E_BAD_VALUE] = MMD_EXIT_INPUT,
    [MMD_E_BAD_STRUCTURE] = MMD_EXIT_INPUT,
    [MMD_E_USAGE] = MMD_EXIT_USAGE,
    [MMD_E_GL] = MMD_EXIT_GL,
    [MMD_E_ENCODER] = MMD_EXIT_ENCODER,
    [MMD_E_OUTPUT] = MMD_EXIT_OUTPUT,
    [MMD_E_INTERRUPTED] = MMD_EXIT_INTERRUPTED,
};
_Static_assert(MMD_E_INTERRUPTED + 1 == MMD_STATUS_COUNT,
               "a new mmd_status needs its exit code in k_exit (renderer/cli/exit.c)");

int mmd_exit_code(mmd_status s)
{
    return (unsigned)s < MMD_STATUS_COUNT ? k_exit[s] : MMD_EXIT_INPUT;
}
