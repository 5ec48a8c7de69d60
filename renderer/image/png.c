/* renderer/image/png.c - libpng read/write helpers (see png.h). */
#include "renderer/image/png.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <setjmp.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <png.h>

#include "core/file.h"
#include "renderer/base/fs.h"
#include "renderer/image/decode.h"

/* libpng callbacks: remember the first error (with errno for I/O) and unwind. */
typedef struct io_ctx {
    FILE *f;
    char err[160];
} io_ctx;

static void on_error(png_structp png, png_const_charp what)
{
    io_ctx *c = png_get_error_ptr(png);
    if (c && !c->err[0])
        snprintf(c->err, sizeof c->err, "%s", what);
    png_longjmp(png, 1);
}

static void on_warning(png_structp png, png_const_charp what)
{
    (void)png;
    (void)what;
}

static void on_write(png_structp png, png_bytep data, size_t len)
{
    io_ctx *c = png_get_io_ptr(png);
    if (fwrite(data, 1, len, c->f) != len) {
        snprintf(c->err, sizeof c->err, "write error: %s", strerror(errno ? errno : EIO));
        png_error(png, c->err);
    }
}

static void on_flush(png_structp png)
{
    io_ctx *c = png_get_io_ptr(png);
    if (fflush(c->f) != 0) {
        snprintf(c->err, sizeof c->err, "write error: %s", strerror(errno ? errno : EIO));
        png_error(png, c->err);
    }
}

static void on_read(png_structp png, png_bytep data, size_t len)
{
    io_ctx *c = png_get_io_ptr(png);
    if (fread(data, 1, len, c->f) != len)
        png_error(png, ferror(c->f) ? "read error" : "file is truncated");
}

mmd_status mmd_png_write_fp(FILE *f, const uint8_t *rgba, int width, int height, size_t stride,
                            bool alpha, int level, mmd_error *err)
{
    if (!f || !rgba || width <= 0 || height <= 0 || stride < (size_t)width * 4)
        return mmd_fail(err, MMD_E_BAD_VALUE, "PNG: bad arguments (%dx%d, stride %zu)", width, height, stride);
    const int zlevel = level < 0 ? MMD_PNG_LEVEL_DEFAULT : level > 9 ? 9 : level;
    png_bytep *rows = malloc(sizeof *rows * (size_t)height);
    if (!rows)
        return mmd_fail(err, MMD_E_NOMEM, "PNG: out of memory");
    for (int y = 0; y < height; y++)
        rows[y] = (png_bytep)(rgba + (size_t)y * stride);
    io_ctx ctx = {f, ""};
    png_structp png = png_create_write_struct(PNG_LIBPNG_VER_STRING, &ctx, on_error, on_warning);
    png_infop info = png ? png_create_info_struct(png) : NULL;
    if (!png || !info) {
        png_destroy_write_struct(&png, &info);
        free(rows);
        return mmd_fail(err, MMD_E_NOMEM, "PNG: out of memory");
    }
    if (setjmp(png_jmpbuf(png))) {
        png_destroy_write_struct(&png, &info);
        free(rows);
        return mmd_fail(err, MMD_E_OUTPUT, "PNG: %s", ctx.err[0] ? ctx.err : "encoder error");
    }
    png_set_write_fn(png, &ctx, on_write, on_flush);
    png_set_compression_level(png, zlevel);
    png_set_filter(png, PNG_FILTER_TYPE_BASE, PNG_FILTER_UP);
    png_set_IHDR(png, info, (png_uint_32)width, (png_uint_32)height, 8,
                 alpha ? PNG_COLOR_TYPE_RGB_ALPHA : PNG_COLOR_TYPE_RGB, PNG_INTERLACE_NONE,
                 PNG_COMPRESSION_TYPE_BASE, PNG_FILTER_TYPE_BASE);
    png_write_info(png, info);
    if (!alpha)
        png_set_filler(png, 0, PNG_FILLER_AFTER); /* drop the 4th input byte */
    png_write_image(png, rows);
    png_write_end(png, info);
    on_flush(png);
    png_destroy_write_struct(&png, &info);
    free(rows);
    return MMD_OK;
}

mmd_status mmd_png_write_file(const char *path, const uint8_t *rgba, int width, int height,
                              size_t stride, bool alpha, int level, mmd_error *err)
{
    char *tmp = NULL;
    if (!path)
        return mmd_fail(err, MMD_E_OUTPUT, "(null): bad output file name");
    int fd = mmd_temp_create(path, "tmp", &tmp);
    if (fd < 0)
        return mmd_fail(err, MMD_E_OUTPUT, "%s: cannot create: %s", path,
                        errno == EINVAL ? "bad output file name" : strerror(errno));
    FILE *f = fdopen(fd, "wb");
    if (!f) {
        int e = errno;
        close(fd);
        unlink(tmp);
        free(tmp);
        return mmd_fail(err, MMD_E_OUTPUT, "%s: %s", path, strerror(e));
    }
    mmd_error inner;
    mmd_status r = mmd_png_write_fp(f, rgba, width, height, stride, alpha, level, &inner);
    int e = 0;
    if (fclose(f) != 0 && r == MMD_OK) {
        e = errno;
        r = mmd_fail(&inner, MMD_E_OUTPUT, "close failed: %s", strerror(e));
    }
    if (r == MMD_OK && mmd_temp_commit(tmp, path) != 0) {
        e = errno;
        r = mmd_fail(&inner, MMD_E_OUTPUT, "cannot rename the finished file into place: %s",
                     e == ELOOP ? "the name is a symbolic link (not replaced)" : strerror(e));
    }
    if (r != MMD_OK)
        unlink(tmp);
    free(tmp);
    return r != MMD_OK ? mmd_fail(err, r, "%s: %s", path, inner.msg) : MMD_OK;
}

mmd_status mmd_png_read_file(const char *path, uint8_t **rgba, int *width, int *height, mmd_error *err)
{
    return mmd_png_read_file_max(path, MMD_IMAGE_MAX_PIXELS, rgba, width, height, err);
}

mmd_status mmd_png_read_file_max(const char *path, unsigned long long max_pixels, uint8_t **rgba, int *width,
                                 int *height, mmd_error *err)
{
    mmd_error ferr;
    FILE *f = mmd_file_fopen_regular(path, &ferr);
    if (!f)
        return mmd_fail(err, MMD_E_IO, "%s: %s", path, ferr.msg);
    uint8_t sig[8];
    if (fread(sig, 1, 8, f) != 8 || png_sig_cmp(sig, 0, 8) != 0) {
        fclose(f);
        return mmd_fail(err, MMD_E_BAD_MAGIC, "%s: not a PNG file", path);
    }
    io_ctx ctx = {f, ""};
    png_structp png = png_create_read_struct(PNG_LIBPNG_VER_STRING, &ctx, on_error, on_warning);
    png_infop info = png ? png_create_info_struct(png) : NULL;
    if (!png || !info) {
        png_destroy_read_struct(&png, &info, NULL);
        fclose(f);
        return mmd_fail(err, MMD_E_NOMEM, "%s: out of memory", path);
    }
    /* Everything the error path frees is reachable through this volatile
     * holder, so longjmp cannot lose it. */
    struct {
        uint8_t *px;
        png_bytep *rows;
        unsigned long long over; /* pixels declared, when over max_pixels */
    } volatile held = {NULL, NULL, 0};
    if (setjmp(png_jmpbuf(png))) {
        png_destroy_read_struct(&png, &info, NULL);
        free(held.px);
        free(held.rows);
        fclose(f);
        if (held.over)
            return mmd_fail(err, MMD_E_LIMIT, "%s: %llu pixels is over the limit of %llu pixels (not decoded)",
                            path, held.over, max_pixels);
        return mmd_fail(err, MMD_E_BAD_STRUCTURE, "%s: bad PNG: %s", path, ctx.err[0] ? ctx.err : "decoder error");
    }
    png_set_read_fn(png, &ctx, on_read);
    png_set_sig_bytes(png, 8);
    png_set_user_limits(png, MMD_IMAGE_MAX_SIDE, MMD_IMAGE_MAX_SIDE);
    png_read_info(png, info);
    png_uint_32 w = png_get_image_width(png, info), h = png_get_image_height(png, info);
    if ((unsigned long long)w * h > MMD_IMAGE_MAX_PIXELS)
        png_error(png, "image is larger than the pixel limit");
    if ((unsigned long long)w * h > max_pixels) {
        held.over = (unsigned long long)w * h;
        png_error(png, "over the caller's pixel limit");
    }
    int type = png_get_color_type(png, info);
    if (png_get_bit_depth(png, info) == 16)
        png_set_strip_16(png);
    if (type == PNG_COLOR_TYPE_PALETTE)
        png_set_palette_to_rgb(png);
    if (type == PNG_COLOR_TYPE_GRAY || type == PNG_COLOR_TYPE_GRAY_ALPHA)
        png_set_gray_to_rgb(png);
    png_set_expand(png); /* low-bit grey to 8, tRNS to alpha */
    png_set_add_alpha(png, 0xff, PNG_FILLER_AFTER);
    png_set_interlace_handling(png);
    png_read_update_info(png, info);
    if (png_get_rowbytes(png, info) != (size_t)w * 4)
        png_error(png, "unexpected row size after conversion");
    held.px = malloc((size_t)w * h * 4);
    held.rows = malloc(sizeof(png_bytep) * h);
    if (!held.px || !held.rows)
        png_error(png, "out of memory");
    for (png_uint_32 y = 0; y < h; y++)
        held.rows[y] = held.px + (size_t)y * w * 4;
    png_read_image(png, held.rows);
    png_read_end(png, NULL);
    png_destroy_read_struct(&png, &info, NULL);
    fclose(f);
    free(held.rows);
    *rgba = held.px;
    *width = (int)w;
    *height = (int)h;
    return MMD_OK;
}

bool mmd_png_file_complete(const char *path)
{
    static const uint8_t iend[12] = {0, 0, 0, 0, 'I', 'E', 'N', 'D', 0xae, 0x42, 0x60, 0x82};
    FILE *f = mmd_file_fopen_regular(path, NULL);
    if (!f)
        return false;
    struct stat st;
    uint8_t head[8], tail[12];
    bool ok = fstat(fileno(f), &st) == 0 && S_ISREG(st.st_mode) && st.st_size >= 8 + 25 + 12 &&
              fread(head, 1, 8, f) == 8 && png_sig_cmp(head, 0, 8) == 0 &&
              fseeko(f, -12, SEEK_END) == 0 && fread(tail, 1, 12, f) == 12 &&
              memcmp(tail, iend, 12) == 0;
    fclose(f);
    return ok;
}
