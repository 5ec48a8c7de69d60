/* tests/util/scene_dump.h - every value of a scene (renderer/scene/scene.h)
 * as text, so that two scenes compare as strings: files by their real path,
 * motions by their file name (a scene built in memory names them only), line
 * numbers left out (a written scene has its own). malloc'd; NULL when out of
 * memory. */
#ifndef MMD_TEST_SCENE_DUMP_H
#define MMD_TEST_SCENE_DUMP_H

#include "renderer/scene/scene.h"

char *mmd_test_scene_dump(const mmd_scene *s);

#endif
