/* renderer/cli/warn.c - where the warnings of the modules below the CLI are printed. */
#include <stdio.h>

#include "renderer/base/msg.h"
#include "renderer/cli/commands.h"

void mmd_cli_warn(void *ctx, const char *sentence)
{
    (void)ctx;
    mmd_msg_print(stderr, "mmdrender: warning: %s\n", sentence);
}
