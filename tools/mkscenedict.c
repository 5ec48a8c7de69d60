/* tools/mkscenedict.c - the scene fuzz dictionary: mkscenedict BASE.dict > OUT.dict
 *
 * BASE (tests/fuzz/scene.dict: sections, value shapes, hostile names) followed
 * by one line per key name of the scene key table (renderer/scene/scene_keys.h),
 * so a new key reaches the fuzzer without a line written here. `make fuzz`
 * writes build-fuzz/fuzz/scene.dict, which tests/fuzz/run.sh prefers.
 */
#include <stdio.h>

#include "renderer/scene/scene_keys.h"

int main(int argc, char **argv)
{
    if (argc != 2) {
        fprintf(stderr, "usage: mkscenedict BASE.dict > OUT.dict\n");
        return 2;
    }
    FILE *in = fopen(argv[1], "rb");
    if (!in) {
        perror(argv[1]);
        return 1;
    }
    char buf[4096];
    size_t n;
    while ((n = fread(buf, 1, sizeof buf, in)) > 0)
        fwrite(buf, 1, n, stdout);
    fclose(in);
    printf("# every key of the table (tools/mkscenedict)\n");
    mmd_scene_keys_dict(stdout);
    return ferror(stdout) ? 1 : 0;
}
