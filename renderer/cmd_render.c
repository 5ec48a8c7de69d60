/* renderer/cmd_render.c - `mmdrender SCENE -o OUT` (placeholder until the render issue lands). */
#include <stdio.h>
#include <string.h>

#include "renderer/commands.h"

int mmd_cmd_render(int argc, char **argv)
{
    if (argc >= 2 && !strcmp(argv[1], "--version")) {
        printf("mmdrender %s\n", MMD_VERSION);
        return MMD_EXIT_OK;
    }
    fprintf(stderr, "usage: mmdrender SCENE -o OUT | info FILE [--json] | pose MODEL ...\n");
    return MMD_EXIT_USAGE;
}
