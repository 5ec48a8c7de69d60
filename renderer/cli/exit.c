/* renderer/cli/exit.c - the one place a status becomes an exit code (docs/cli.md, "Exit codes").
 *
 * A status's class comes from its row in MMD_STATUS_LIST (core/status.h); here
 * each class gets its number. The switch has no default, so -Wswitch (with
 * -Werror) fails the build when a class is added without a code. */
#include "renderer/cli/commands.h"

int mmd_exit_code(mmd_status s)
{
    switch (mmd_status_class_of(s)) {
    case MMD_CLASS_OK: return MMD_EXIT_OK;
    case MMD_CLASS_INPUT: return MMD_EXIT_INPUT;
    case MMD_CLASS_USAGE: return MMD_EXIT_USAGE;
    case MMD_CLASS_GL: return MMD_EXIT_GL;
    case MMD_CLASS_ENCODER: return MMD_EXIT_ENCODER;
    case MMD_CLASS_OUTPUT: return MMD_EXIT_OUTPUT;
    case MMD_CLASS_INTERRUPTED: return MMD_EXIT_INTERRUPTED;
    }
    return MMD_EXIT_INPUT; /* not reached: mmd_status_class_of returns a listed class */
}
