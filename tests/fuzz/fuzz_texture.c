/* tests/fuzz/fuzz_texture.c - libFuzzer target: texture bytes (BMP, PNG, TGA,
 * JPEG, GIF, DDS; detected by content) -> mmd_image_load_memory -> every level
 * read end to end -> mmd_image_free. Seeds: corpus/texture/, dict: texture.dict. */
#include <stddef.h>
#include <stdint.h>

#include "renderer/image/decode.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    mmd_image img;
    mmd_error ie = {0};
    if (mmd_image_load_memory(data, size, &img, &ie) != 0)
        return 0;
    if (img.levels < 1 || img.levels > MMD_IMAGE_MAX_LEVELS || img.width < 1 || img.height < 1 ||
        (img.format == MMD_IMAGE_RGBA8 &&
         img.level_size[0] != (size_t)img.width * (size_t)img.height * (size_t)(img.depth ? img.depth : 1) * 4) ||
        img.depth < 0 || img.depth > MMD_IMAGE_MAX_DEPTH)
        __builtin_trap(); /* decoded image breaks the header's contract */
    volatile unsigned sink = 0;
    for (int i = 0; i < img.levels; i++) {
        size_t off = img.level_offset[i], n = img.level_size[i];
        if (n && off + n <= img.size) /* the contract says always; ASan checks the reads */
            sink += img.data[off] + img.data[off + n - 1];
        else if (n)
            __builtin_trap(); /* a level outside data breaks the contract */
    }
    (void)sink;
    mmd_image_free(&img);
    return 0;
}
