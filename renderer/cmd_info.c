/* renderer/cmd_info.c - `mmdrender info` (placeholder until its issue lands). */
#include <stdio.h>

#include "renderer/commands.h"

int mmd_cmd_info(int argc, char **argv)
{
    (void)argc;
    fprintf(stderr, "mmdrender %s: not implemented yet\n", argv[0]);
    return MMD_EXIT_USAGE;
}
