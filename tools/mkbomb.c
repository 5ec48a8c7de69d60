/* tools/mkbomb.c - write the generated hostile files of tests/util/bombs.h.
 *
 *   mkbomb ik CHAINS LINKS LOOPS OUT.pmx
 *   mkbomb physics BODIES OUT.pmx
 *   mkbomb converge BODIES collide|through|hold OUT.pmx
 *   mkbomb far-vmd FRAME OUT.vmd | far-camera FRAME OUT.vmd
 *   mkbomb xzip VERTICES text|binary OUT.x
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tests/util/bombs.h"

static int put(const char *path, uint8_t *d, size_t n)
{
    FILE *f = d ? fopen(path, "wb") : NULL;
    int ok = f && fwrite(d, 1, n, f) == n;
    if (f && fclose(f) != 0)
        ok = 0;
    free(d);
    if (!ok)
        fprintf(stderr, "mkbomb: cannot write %s\n", path);
    return ok ? 0 : 1;
}

int main(int argc, char **argv)
{
    size_t n = 0;
    uint8_t *d;
    if (argc == 6 && !strcmp(argv[1], "ik")) {
        d = mmd_bomb_ik((uint32_t)strtoul(argv[2], NULL, 0), (uint32_t)strtoul(argv[3], NULL, 0),
                        (int32_t)strtol(argv[4], NULL, 0), &n);
        return put(argv[5], d, n);
    }
    if (argc == 4 && !strcmp(argv[1], "physics")) {
        d = mmd_bomb_physics((uint32_t)strtoul(argv[2], NULL, 0), &n);
        return put(argv[3], d, n);
    }
    if (argc == 5 && !strcmp(argv[1], "converge")) {
        d = mmd_bomb_physics_converge((uint32_t)strtoul(argv[2], NULL, 0), strcmp(argv[3], "through") != 0,
                                      strcmp(argv[3], "hold") != 0, &n);
        return put(argv[4], d, n);
    }
    if (argc == 4 && (!strcmp(argv[1], "far-vmd") || !strcmp(argv[1], "far-camera"))) {
        d = mmd_bomb_far_vmd((uint32_t)strtoul(argv[2], NULL, 0), argv[1][4] == 'c', &n);
        return put(argv[3], d, n);
    }
    if (argc == 5 && !strcmp(argv[1], "xzip")) {
        d = mmd_bomb_xzip((uint32_t)strtoul(argv[2], NULL, 0), !strcmp(argv[3], "binary"), &n);
        return put(argv[4], d, n);
    }
    fprintf(stderr, "usage: mkbomb ik CHAINS LINKS LOOPS OUT.pmx | physics BODIES OUT.pmx |\n"
                    "       converge BODIES collide|through|hold OUT.pmx |\n"
                    "       far-vmd FRAME OUT.vmd | far-camera FRAME OUT.vmd |\n"
                    "       xzip VERTICES text|binary OUT.x\n");
    return 2;
}
