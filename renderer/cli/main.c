/* renderer/cli/main.c - entry point: dispatch to a subcommand (see commands.h). */
#include <stdio.h>
#include <string.h>

#include "renderer/cli/commands.h"

int main(int argc, char **argv)
{
    if (argc >= 2) {
        const char *c = argv[1];
        if (!strcmp(c, "info"))
            return mmd_cmd_info(argc - 1, argv + 1);
        if (!strcmp(c, "pose"))
            return mmd_cmd_pose(argc - 1, argv + 1);
        if (!strcmp(c, "diff"))
            return mmd_cmd_diff(argc - 1, argv + 1);
        if (!strcmp(c, "concat"))
            return mmd_cmd_concat(argc - 1, argv + 1);
        if (!strcmp(c, "effect"))
            return mmd_cmd_effect(argc - 1, argv + 1);
        if (!strcmp(c, "export"))
            return mmd_cmd_export(argc - 1, argv + 1);
        if (!strcmp(c, "encode"))
            return mmd_cmd_encode(argc - 1, argv + 1);
    }
    int project = mmd_project_arg(argc, argv);
    if (project > 0)
        return mmd_cmd_render_project(argc, argv, project);
    return mmd_cmd_render(argc, argv);
}
