/* tests/fuzz/fuzz_scene.c - libFuzzer target: scene INI bytes -> mmd_scene_decode
 * (UTF-8, or Shift-JIS converted) -> mmd_scene_parse (check_files off: paths
 * are only resolved) -> free; the first line also goes
 * through each value parser the command line shares (size, fps, frames,
 * background, antialias). Seeds: corpus/scene/, dict: scene.dict. */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "renderer/scene/scene.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size > (1u << 20))
        return 0;
    char *text = malloc(size + 1);
    if (!text)
        return 0;
    memcpy(text, data, size);
    text[size] = 0;
    mmd_error err;
    mmd_scene *s = NULL;
    bool sjis = false;
    char *decoded = memchr(data, 0, size) ? NULL : mmd_scene_decode("fuzz/scene.ini", data, size, &sjis, &err);
    if (decoded && mmd_scene_parse(decoded, "fuzz/scene.ini", false, &s, &err) == 0)
        mmd_scene_free(s);
    free(decoded);
    s = NULL;
    if (mmd_scene_parse(text, "fuzz/scene.ini", false, &s, &err) == 0) {
        volatile size_t sink = strlen(s->path) + strlen(s->dir);
        for (int i = 0; i < s->model_count; i++) {
            sink += strlen(s->models[i].file);
            for (int k = 0; k < s->models[i].motion_count; k++)
                sink += strlen(s->models[i].motions[k]);
        }
        (void)sink;
        mmd_scene_free(s);
    }
    /* First line through the value parsers (NUL-terminated at the newline). */
    char *nl = memchr(text, '\n', size);
    if (nl)
        *nl = 0;
    int w, h, num, den, step, aa;
    int64_t first, last;
    float rgb[3];
    bool transparent;
    (void)mmd_scene_parse_size(text, &w, &h, &err);
    (void)mmd_scene_parse_fps(text, &num, &den, &err);
    (void)mmd_scene_parse_frames(text, &first, &last, &step, &err);
    (void)mmd_scene_parse_frames(text, &first, &last, NULL, &err);
    (void)mmd_scene_parse_background(text, rgb, &transparent, &err);
    (void)mmd_scene_parse_antialias(text, &aa, &err);
    free(text);
    return 0;
}
