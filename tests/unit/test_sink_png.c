/* tests/unit/test_sink_png.c - PNG read/write helpers (round trips, any PNG in,
 * atomic writes that leave nothing behind on failure) and the threaded PNG sink. */
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <png.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

#include "renderer/cli/commands.h"
#include "renderer/image/png.h"
#include "renderer/output/sink_png.h"
#include "tests/util/test.h"

TEST_STATE_DEFINE

static char root[64];

static void path_of(char *out, const char *rel) { snprintf(out, PATH_MAX, "%s/%s", root, rel); }

/* deterministic noisy RGBA (hard to compress) */
static uint8_t *noise(int w, int h, uint32_t seed)
{
    uint8_t *p = malloc((size_t)w * h * 4);
    uint32_t x = seed * 2654435761u + 1;
    for (size_t i = 0; i < (size_t)w * h * 4; i++) {
        x ^= x << 13;
        x ^= x >> 17;
        x ^= x << 5;
        p[i] = (uint8_t)x;
    }
    return p;
}

static int count_entries(const char *dir, const char *prefix)
{
    DIR *d = opendir(dir);
    if (!d)
        return -1;
    int n = 0;
    struct dirent *e;
    while ((e = readdir(d)))
        if (e->d_name[0] != '.' || (prefix && !strncmp(e->d_name, prefix, strlen(prefix))))
            if (strcmp(e->d_name, ".") && strcmp(e->d_name, "..") && strcmp(e->d_name, MMD_PNG_LOCK_NAME))
                n++; /* the folder's lock file is the sink's own, documented */
    closedir(d);
    return n;
}

TEST(round_trip_rgb_and_rgba)
{
    int w = 37, h = 23;
    uint8_t *px = noise(w, h, 1);
    char p[PATH_MAX];
    mmd_error pe;
    path_of(p, "rt_rgba.png");
    REQUIRE(mmd_png_write_file(p, px, w, h, (size_t)w * 4, true, 2, &pe) == 0);
    uint8_t *back = NULL;
    int bw = 0, bh = 0;
    REQUIRE(mmd_png_read_file(p, &back, &bw, &bh, &pe) == 0);
    CHECK_EQ_INT(bw, w);
    CHECK_EQ_INT(bh, h);
    CHECK(memcmp(back, px, (size_t)w * h * 4) == 0);
    free(back);
    CHECK(mmd_png_file_complete(p));

    const int levels[] = {1, 3, 9, -1};
    for (int li = 0; li < 4; li++) {
        path_of(p, "rt_rgb.png");
        REQUIRE(mmd_png_write_file(p, px, w, h, (size_t)w * 4, false, levels[li], &pe) == 0);
        REQUIRE(mmd_png_read_file(p, &back, &bw, &bh, &pe) == 0);
        int bad = 0;
        for (int i = 0; i < w * h; i++)
            bad += memcmp(back + i * 4, px + i * 4, 3) != 0 || back[i * 4 + 3] != 255;
        CHECK_EQ_INT(bad, 0);
        free(back);
    }
    /* an RGB file is 3 bytes per pixel: noise hardly compresses, so > 3*w*h, < 4*w*h */
    struct stat st;
    REQUIRE(stat(p, &st) == 0);
    CHECK(st.st_size > 3 * w * h && st.st_size < 4 * w * h);
    free(px);
}

TEST(stride_is_honoured)
{
    int w = 5, h = 4;
    size_t stride = 5 * 4 + 12;
    uint8_t *px = noise((int)stride / 4 + 1, h, 2);
    char p[PATH_MAX];
    mmd_error pe;
    path_of(p, "stride.png");
    REQUIRE(mmd_png_write_file(p, px, w, h, stride, true, 2, &pe) == 0);
    uint8_t *back;
    int bw, bh;
    REQUIRE(mmd_png_read_file(p, &back, &bw, &bh, &pe) == 0);
    for (int y = 0; y < h; y++)
        CHECK(memcmp(back + y * w * 4, px + y * stride, (size_t)w * 4) == 0);
    free(back);
    CHECK(mmd_png_write_file(p, px, w, h, 8, true, 2, &pe) == MMD_E_BAD_VALUE); /* stride < w*4 */
    free(px);
}

/* write a 16-bit grey+alpha interlaced PNG with libpng itself */
static void write_grey16(const char *path)
{
    FILE *f = fopen(path, "wb");
    png_structp png = png_create_write_struct(PNG_LIBPNG_VER_STRING, NULL, NULL, NULL);
    png_infop info = png_create_info_struct(png);
    png_init_io(png, f);
    png_set_IHDR(png, info, 3, 2, 16, PNG_COLOR_TYPE_GRAY_ALPHA, PNG_INTERLACE_ADAM7,
                 PNG_COMPRESSION_TYPE_BASE, PNG_FILTER_TYPE_BASE);
    png_write_info(png, info);
    /* big-endian 16-bit samples: grey = 0x1234 * x, alpha 0xffff / 0x8000 */
    uint8_t rows[2][12];
    for (int y = 0; y < 2; y++)
        for (int x = 0; x < 3; x++) {
            unsigned g = 0x4000u * (unsigned)x + 0x80u * (unsigned)y, a = y ? 0x8000u : 0xffffu;
            rows[y][x * 4 + 0] = (uint8_t)(g >> 8);
            rows[y][x * 4 + 1] = (uint8_t)g;
            rows[y][x * 4 + 2] = (uint8_t)(a >> 8);
            rows[y][x * 4 + 3] = (uint8_t)a;
        }
    png_bytep rp[2] = {rows[0], rows[1]};
    png_set_interlace_handling(png);
    png_write_image(png, rp);
    png_write_end(png, NULL);
    png_destroy_write_struct(&png, &info);
    fclose(f);
}

TEST(reads_any_png)
{
    char p[PATH_MAX];
    mmd_error pe;
    path_of(p, "grey16.png");
    write_grey16(p);
    uint8_t *px;
    int w, h;
    REQUIRE(mmd_png_read_file(p, &px, &w, &h, &pe) == 0);
    CHECK_EQ_INT(w, 3);
    CHECK_EQ_INT(h, 2);
    const uint8_t want[2][12] = {{0, 0, 0, 255, 0x40, 0x40, 0x40, 255, 0x80, 0x80, 0x80, 255},
                                 {0, 0, 0, 128, 0x40, 0x40, 0x40, 128, 0x80, 0x80, 0x80, 128}};
    CHECK(memcmp(px, want, 24) == 0);
    free(px);
    const char *real = MMD_SHARED_ASSETS "/gene/light/face.png";
    if (access(real, R_OK) == 0) {
        REQUIRE(mmd_png_read_file(real, &px, &w, &h, &pe) == 0);
        CHECK(w > 0 && h > 0);
        free(px);
    }
}

TEST(bad_pngs_fail_cleanly)
{
    char p[PATH_MAX];
    mmd_error pe;
    uint8_t *px = NULL;
    int w, h;
    CHECK(mmd_png_read_file("/nonexistent.png", &px, &w, &h, &pe) == MMD_E_IO);
    CHECK(strstr(pe.msg, "cannot open") != NULL);
    path_of(p, "notpng.png");
    FILE *f = fopen(p, "wb");
    fputs("GIF89a not a png at all", f);
    fclose(f);
    CHECK(mmd_png_read_file(p, &px, &w, &h, &pe) == MMD_E_BAD_MAGIC);
    CHECK(strstr(pe.msg, "not a PNG") != NULL);
    CHECK(!mmd_png_file_complete(p));
    /* every truncation of a real file: an error, never a crash; never "complete" */
    uint8_t *img = noise(16, 9, 3);
    path_of(p, "full.png");
    REQUIRE(mmd_png_write_file(p, img, 16, 9, 64, true, 2, &pe) == 0);
    free(img);
    f = fopen(p, "rb");
    uint8_t buf[4096];
    size_t n = fread(buf, 1, sizeof buf, f);
    fclose(f);
    char cut[PATH_MAX];
    path_of(cut, "cut.png");
    int ok_reads = 0;
    for (size_t k = 0; k < n; k++) {
        f = fopen(cut, "wb");
        fwrite(buf, 1, k, f);
        fclose(f);
        CHECK(!mmd_png_file_complete(cut));
        if (mmd_png_read_file(cut, &px, &w, &h, &pe) == 0) {
            ok_reads++; /* only possible once IDAT is complete (missing IEND) */
            free(px);
        }
    }
    CHECK(ok_reads <= 12);
    f = fopen(cut, "wb");
    fwrite(buf, 1, n, f);
    fclose(f);
    CHECK(mmd_png_file_complete(cut));
}

TEST(write_failures_leave_nothing)
{
    uint8_t *px = noise(64, 64, 4);
    char p[PATH_MAX];
    mmd_error pe;
    /* missing directory */
    path_of(p, "nodir/x.png");
    CHECK(mmd_png_write_file(p, px, 64, 64, 256, false, 2, &pe) == MMD_E_OUTPUT);
    CHECK(strstr(pe.msg, "nodir/x.png") != NULL && strstr(pe.msg, "No such file") != NULL);
    /* read-only directory (root ignores modes: use /sys, which refuses new files) */
    char ro[PATH_MAX];
    path_of(ro, "ro");
    mkdir(ro, 0555);
    chmod(ro, 0555);
    if (geteuid() == 0)
        snprintf(p, sizeof p, "/sys/mmd_test.png");
    else
        path_of(p, "ro/x.png");
    CHECK(mmd_png_write_file(p, px, 64, 64, 256, false, 2, &pe) == MMD_E_OUTPUT);
    CHECK(strstr(pe.msg, "cannot create") != NULL);
    printf("# read-only: %s\n", pe.msg);
    CHECK_EQ_INT(count_entries(ro, ".x.png"), 0);
    /* /dev/full: ENOSPC at flush */
    FILE *f = fopen("/dev/full", "wb");
    if (f) {
        mmd_status r = mmd_png_write_fp(f, px, 64, 64, 256, false, 2, &pe);
        int c = fclose(f);
        CHECK(r == MMD_E_OUTPUT || c != 0);
        if (r != MMD_OK)
            CHECK(strstr(pe.msg, "No space left") != NULL);
        printf("# /dev/full: %s\n", pe.msg);
    }
    /* a file-size limit (EFBIG) in the middle of the file, through the atomic path */
    char dir[PATH_MAX];
    path_of(dir, "fsize");
    mkdir(dir, 0755);
    path_of(p, "fsize/big.png");
    signal(SIGXFSZ, SIG_IGN);
    struct rlimit old, lim;
    getrlimit(RLIMIT_FSIZE, &old);
    lim = old;
    lim.rlim_cur = 5000;
    REQUIRE(setrlimit(RLIMIT_FSIZE, &lim) == 0);
    mmd_status r = mmd_png_write_file(p, px, 64, 64, 256, true, 2, &pe);
    setrlimit(RLIMIT_FSIZE, &old);
    CHECK_EQ_INT(r, MMD_E_OUTPUT);
    CHECK(strstr(pe.msg, "big.png") != NULL && strstr(pe.msg, "too large") != NULL);
    printf("# EFBIG: %s\n", pe.msg);
    CHECK_EQ_INT(count_entries(dir, "."), 0); /* no big.png, no .big.png.tmp-* */
    free(px);
}

/* ---- sink ---- */

typedef struct done_log {
    int count;
    unsigned char seen[64];
} done_log;

static void on_done(void *user, int64_t frame)
{
    done_log *d = user;
    d->count++;
    if (frame >= 0 && frame < 64)
        d->seen[frame]++;
}

static void fill(uint8_t *px, int w, int h, int frame)
{
    for (int i = 0; i < w * h; i++) {
        px[i * 4 + 0] = (uint8_t)(frame * 10);
        px[i * 4 + 1] = (uint8_t)i;
        px[i * 4 + 2] = (uint8_t)(i >> 8);
        px[i * 4 + 3] = 200;
    }
}

TEST(sink_directory_threads)
{
    char dir[PATH_MAX];
    mmd_error pe;
    mmd_error err;
    path_of(dir, "seq/sub/");
    mmd_sink *s = mmd_sink_png_open(dir, 3, false, &err);
    REQUIRE(s);
    done_log log;
    memset(&log, 0, sizeof log);
    s->on_done = on_done;
    s->user = &log;
    int w = 64, h = 48;
    size_t stride = (size_t)w * 4 + 16;
    uint8_t *px = calloc(stride * h, 1);
    uint8_t *tight = malloc((size_t)w * h * 4);
    for (int f = 0; f < 20; f++) {
        fill(tight, w, h, f);
        for (int y = 0; y < h; y++)
            memcpy(px + y * stride, tight + y * w * 4, (size_t)w * 4);
        CHECK_EQ_INT(mmd_sink_write(s, px, w, h, stride, f + 5, &err), 0);
        memset(px, 0xee, stride * h); /* the sink must have copied */
    }
    CHECK_EQ_INT(mmd_sink_close(s, &err), 0);
    CHECK_EQ_INT(log.count, 20);
    int once = 0;
    for (int f = 5; f < 25; f++)
        once += log.seen[f] == 1;
    CHECK_EQ_INT(once, 20);
    for (int f = 5; f < 25; f++) {
        char p[PATH_MAX];
        snprintf(p, sizeof p, "%s/seq/sub/frame_%06d.png", root, f);
        uint8_t *back;
        int bw, bh;
        REQUIRE(mmd_png_read_file(p, &back, &bw, &bh, &pe) == 0);
        fill(tight, w, h, f - 5);
        int bad = 0;
        for (int i = 0; i < w * h; i++)
            bad += memcmp(back + i * 4, tight + i * 4, 3) != 0 || back[i * 4 + 3] != 255;
        CHECK_EQ_INT(bad, 0);
        free(back);
        CHECK(mmd_sink_png_frame_exists(dir, f, w, h));
    }
    CHECK(!mmd_sink_png_frame_exists(dir, 4, 0, 0));
    CHECK(!mmd_sink_png_frame_exists(dir, 25, 0, 0));
    path_of(dir, "seq/sub");
    CHECK_EQ_INT(count_entries(dir, "."), 20);
    CHECK(mmd_sink_png_frame_exists(dir, 5, w, h)); /* same files without the trailing slash */
    CHECK(!mmd_sink_png_frame_exists(dir, 5, w + 1, h)); /* another size: not this render's frame */
    free(px);
    free(tight);
}

TEST(sink_pattern_and_alpha)
{
    char pat[PATH_MAX], p[PATH_MAX];
    mmd_error pe;
    mmd_error err;
    path_of(pat, "pat/f_%04d_100%%.png");
    mmd_sink *s = mmd_sink_png_open(pat, 1, true, &err);
    REQUIRE(s);
    uint8_t px[4 * 4 * 4];
    fill(px, 4, 4, 7);
    CHECK_EQ_INT(mmd_sink_write(s, px, 4, 4, 16, 7, &err), 0);
    CHECK_EQ_INT(mmd_sink_close(s, &err), 0);
    path_of(p, "pat/f_0007_100%.png");
    uint8_t *back;
    int w, h;
    REQUIRE(mmd_png_read_file(p, &back, &w, &h, &pe) == 0);
    CHECK(memcmp(back, px, sizeof px) == 0); /* alpha 200 kept */
    free(back);
    CHECK(mmd_sink_png_frame_exists(pat, 7, 4, 4));
    CHECK_EQ_INT(mmd_sink_png_path("o/x_%d.png", 12, p, sizeof p, &err), 0);
    CHECK_STR(p, "o/x_12.png");
    CHECK_EQ_INT(mmd_sink_png_path("o", 3, p, sizeof p, &err), 0);
    CHECK_STR(p, "o/frame_000003.png");
    CHECK_EQ_INT(mmd_sink_png_path("o/", 1234567, p, sizeof p, &err), 0);
    CHECK_STR(p, "o/frame_1234567.png");
    const char *bad[] = {"x.png", "a_%d_%d.png", "a_%s.png", "f%d/x.png", "a_%5.png", "50%.png", ""};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        err.msg[0] = 0;
        CHECK(mmd_sink_png_open(bad[i], 1, false, &err) == NULL);
        CHECK(err.msg[0] != 0 && err.status == MMD_E_USAGE); /* a bad pattern is the command line's fault */
    }
    char file[PATH_MAX];
    path_of(file, "afile");
    FILE *f = fopen(file, "w");
    fclose(f);
    path_of(pat, "afile/sub");
    CHECK(mmd_sink_png_open(pat, 1, false, &err) == NULL);
    CHECK(strstr(err.msg, "not a directory") != NULL);
}

/* One writer per folder: a second sink on it is refused while the first is
 * open (also through another spelling of the folder), and allowed after. */
TEST(sink_folder_lock)
{
    char dir[PATH_MAX], dir2[PATH_MAX + 8];
    mmd_error err;
    path_of(dir, "locked");
    mmd_sink *a = mmd_sink_png_open(dir, 1, false, &err);
    REQUIRE(a);
    snprintf(dir2, sizeof dir2, "%s//", dir);
    mmd_sink *b = mmd_sink_png_open(dir2, 1, false, &err);
    CHECK(b == NULL);
    CHECK_EQ_INT(err.status, MMD_E_OUTPUT);
    CHECK(strstr(err.msg, "another mmdrender") != NULL);
    printf("# second writer: %s\n", err.msg);
    if (b)
        mmd_sink_abort(b);
    CHECK_EQ_INT(mmd_sink_close(a, &err), 0);
    b = mmd_sink_png_open(dir, 1, false, &err);
    CHECK(b != NULL);
    if (b)
        mmd_sink_abort(b);
    /* farm chunks: disjoint ranges share the folder, an overlapping one is refused */
    a = mmd_sink_png_open_range(dir, 1, false, 0, 9, &err);
    b = mmd_sink_png_open_range(dir, 1, false, 10, 19, &err);
    mmd_sink *c = mmd_sink_png_open_range(dir, 1, false, 9, 10, &err);
    CHECK(a && b && !c);
    if (a)
        mmd_sink_abort(a);
    if (b)
        mmd_sink_abort(b);
    if (c)
        mmd_sink_abort(c);
}

TEST(sink_error_and_abort)
{
    char dir[PATH_MAX];
    mmd_error err;
    path_of(dir, "err");
    mmd_sink *s = mmd_sink_png_open(dir, 2, false, &err);
    REQUIRE(s);
    uint8_t *px = noise(128, 128, 9);
    signal(SIGXFSZ, SIG_IGN);
    struct rlimit old, lim;
    getrlimit(RLIMIT_FSIZE, &old);
    lim = old;
    lim.rlim_cur = 10000;
    setrlimit(RLIMIT_FSIZE, &lim);
    int first_err = 0;
    for (int f = 0; f < 40 && !first_err; f++)
        first_err = mmd_sink_write(s, px, 128, 128, 512, f, &err);
    int rc = mmd_sink_close(s, &err);
    setrlimit(RLIMIT_FSIZE, &old);
    CHECK_EQ_INT(rc, MMD_E_OUTPUT);
    CHECK(strstr(err.msg, "frame_0000") != NULL);
    printf("# sink error: %s (write_frame returned %d first)\n", err.msg, first_err);
    CHECK_EQ_INT(count_entries(dir, "."), 0);

    path_of(dir, "abort");
    s = mmd_sink_png_open(dir, 2, false, &err);
    REQUIRE(s);
    for (int f = 0; f < 10; f++)
        CHECK_EQ_INT(mmd_sink_write(s, px, 128, 128, 512, f, &err), 0);
    mmd_sink_abort(s);
    /* whatever is there is complete; no temp files */
    DIR *d = opendir(dir);
    struct dirent *e;
    int files = 0;
    while ((e = readdir(d))) {
        if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, "..") || !strcmp(e->d_name, MMD_PNG_LOCK_NAME))
            continue;
        CHECK(e->d_name[0] != '.');
        char p[PATH_MAX + 256];
        snprintf(p, sizeof p, "%s/%s", dir, e->d_name);
        CHECK(mmd_png_file_complete(p));
        files++;
    }
    closedir(d);
    printf("# abort left %d complete frames of 10\n", files);
    free(px);
}

int main(void)
{
    snprintf(root, sizeof root, "/tmp/test_sink_png_XXXXXX");
    if (!mkdtemp(root))
        return 1;
    RUN(round_trip_rgb_and_rgba);
    RUN(stride_is_honoured);
    RUN(reads_any_png);
    RUN(bad_pngs_fail_cleanly);
    RUN(write_failures_leave_nothing);
    RUN(sink_directory_threads);
    RUN(sink_pattern_and_alpha);
    RUN(sink_error_and_abort);
    RUN(sink_folder_lock);
    char cmd[256];
    snprintf(cmd, sizeof cmd, "chmod -R u+w '%s'; rm -rf '%s'", root, root);
    if (system(cmd) != 0)
        printf("# could not remove %s\n", root);
    return test_finish();
}
