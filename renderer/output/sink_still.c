/* renderer/output/sink_still.c - one PNG file (see sink_still.h). */
#include "renderer/output/sink_still.h"

#include <stdlib.h>
#include <string.h>

#include "renderer/image/png.h"

typedef struct still_sink {
    mmd_sink base; /* first: mmd_sink * <-> still_sink * */
    char *path;
    bool alpha, written;
} still_sink;

static mmd_status still_write(mmd_sink *s, const uint8_t *rgba, int width, int height, size_t stride,
                              int64_t frame_index, mmd_error *err)
{
    still_sink *st = (still_sink *)s;
    if (st->written)
        return mmd_fail(err, MMD_E_OUTPUT, "%s: one PNG file holds one frame (frame %lld is a second one)", st->path,
                        (long long)frame_index);
    mmd_status r = mmd_png_write_file(st->path, rgba, width, height, stride, st->alpha, -1, err);
    if (r != MMD_OK)
        return r;
    st->written = true;
    if (s->on_done)
        s->on_done(s->user, frame_index);
    return MMD_OK;
}

static void still_abort(mmd_sink *s)
{
    still_sink *st = (still_sink *)s;
    free(st->path);
    free(st);
}

static mmd_status still_close(mmd_sink *s, mmd_error *err)
{
    (void)err;
    still_abort(s);
    return MMD_OK;
}

static const mmd_sink_vtable k_still_vt = {still_write, still_close, still_abort};

mmd_sink *mmd_sink_still_open(const char *path, bool alpha, mmd_error *err)
{
    still_sink *st = calloc(1, sizeof *st);
    if (!st || !(st->path = strdup(path))) {
        free(st);
        mmd_fail(err, MMD_E_NOMEM, "out of memory");
        return NULL;
    }
    st->base.vt = &k_still_vt;
    st->alpha = alpha;
    return &st->base;
}

uint64_t mmd_sink_still_memory(int width, int height)
{
    /* mmd_png_write_fp: one pointer per row; libpng: the filtered row and the previous one (+1 filter byte each) */
    return (uint64_t)height * sizeof(void *) + 2u * ((uint64_t)width * 4u + 1u);
}

bool mmd_sink_still_exists(const char *path, int width, int height)
{
    uint8_t *rgba = NULL;
    int w, h;
    if (!mmd_png_file_complete(path) || mmd_png_read_file(path, &rgba, &w, &h, NULL) != MMD_OK)
        return false;
    free(rgba);
    return (width <= 0 || w == width) && (height <= 0 || h == height);
}
