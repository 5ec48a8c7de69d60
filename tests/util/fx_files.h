/* tests/util/fx_files.h - the effect files (.fx, .fxsub) under a folder, for
 * the tests that run the shared corpus (test_fx, test_fx_translate), and one
 * effect read from disk (the render tests' fixtures). */
#ifndef MMD_TESTS_UTIL_FX_FILES_H
#define MMD_TESTS_UTIL_FX_FILES_H

#include "core/fx.h"

/* Appends the path of every .fx / .fxsub below dir (recursively, in readdir
 * order, names starting with '.' skipped) to out while *count < cap. */
void fx_files_find(const char *dir, char (*out)[512], int *count, int cap);

/* The effect at path parsed, its #includes read relative to the including
 * file; NULL (with the reason printed as a TAP comment) when it does not load. */
mmd_fx *fx_file_load(const char *path);

#endif
