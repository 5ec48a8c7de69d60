/* tests/util/scene_dump.h - every value of a scene (renderer/scene/scene.h)
 * as text, so that two scenes compare as strings: every typed row of the key
 * table by itself, the custom rows' fields by hand; files by their name (a
 * scene built in memory names its motions only), line numbers left out (a
 * written scene has its own). malloc'd; NULL when out of
 * memory. */
#ifndef MMD_TEST_SCENE_DUMP_H
#define MMD_TEST_SCENE_DUMP_H

#include "renderer/scene/scene.h"

char *mmd_test_scene_dump(const mmd_scene *s);

#endif
