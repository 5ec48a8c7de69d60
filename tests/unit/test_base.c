/* tests/unit/test_base.c - arena, reader and text basics. */
#include "core/arena.h"
#include "core/reader.h"
#include "core/text.h"
#include "renderer/base/filemap.h"
#include "tests/util/test.h"

TEST_STATE_DEFINE

TEST(arena_alignment_and_overflow)
{
    mmd_arena *a = mmd_arena_create();
    REQUIRE(a);
    for (int i = 1; i < 100; i++) {
        void *p = mmd_arena_alloc(a, (size_t)i * 7);
        CHECK(p && ((uintptr_t)p % 32) == 0);
    }
    CHECK(mmd_arena_array(a, SIZE_MAX / 2, 4) == NULL);
    void *big = mmd_arena_alloc(a, 1u << 20);
    CHECK(big != NULL);
    mmd_arena_destroy(a);
    mmd_arena_destroy(NULL);
}

TEST(reader_sticky_error)
{
    const uint8_t d[] = {1, 0, 0, 0, 0xff};
    mmd_error e;
    mmd_reader r;
    mmd_reader_init(&r, d, sizeof d, &e);
    CHECK_EQ_INT(mmd_rd_u32(&r), 1);
    CHECK_EQ_INT(mmd_rd_u32(&r), 0);
    CHECK_EQ_INT(e.status, MMD_E_TRUNCATED);
    CHECK_EQ_INT(e.offset, 4);
    CHECK_EQ_INT(mmd_rd_u8(&r), 0); /* sticky: no more reads */
    CHECK_EQ_INT(r.pos, 4);
}

TEST(reader_count_bounds)
{
    const uint8_t d[] = {3, 0, 0, 0, 1, 2, 3, 4, 5, 6, 7, 8};
    mmd_error e;
    mmd_reader r;
    mmd_reader_init(&r, d, sizeof d, &e);
    CHECK_EQ_INT(mmd_rd_count(&r, 4, 100), 0); /* 3 records of 4 bytes > 8 left */
    CHECK_EQ_INT(e.status, MMD_E_BAD_COUNT);
    const uint8_t neg[] = {0xff, 0xff, 0xff, 0xff};
    mmd_reader_init(&r, neg, 4, &e);
    mmd_rd_count(&r, 1, 100);
    CHECK_EQ_INT(e.status, MMD_E_BAD_COUNT);
}

TEST(reader_index_widths)
{
    const uint8_t d[] = {0xff, 0xff, 0xff, 5, 0};
    mmd_error e;
    mmd_reader r;
    mmd_reader_init(&r, d, sizeof d, &e);
    CHECK_EQ_INT(mmd_rd_index(&r, 1, 10, true, "bone"), -1);
    CHECK_EQ_INT(mmd_rd_index(&r, 2, 10, true, "bone"), -1);
    CHECK_EQ_INT(mmd_rd_index(&r, 2, 10, true, "bone"), 5);
    mmd_reader_init(&r, d, sizeof d, &e);
    CHECK_EQ_INT(mmd_rd_vertex_index(&r, 1, 300), 255); /* vertex indices are unsigned */
    const uint8_t big[] = {9};
    mmd_reader_init(&r, big, 1, &e);
    mmd_rd_index(&r, 1, 5, false, "bone");
    CHECK_EQ_INT(e.status, MMD_E_BAD_INDEX);
}

TEST(text_sjis_and_cut_names)
{
    mmd_text *t = mmd_text_create();
    mmd_arena *a = mmd_arena_create();
    /* "センター" in CP932 */
    const uint8_t center[] = {0x83, 0x5A, 0x83, 0x93, 0x83, 0x5E, 0x81, 0x5B, 0, 0xFD};
    CHECK_STR(mmd_text_sjis(t, a, center, sizeof center, NULL), "センター");
    /* cut after a lead byte: the partial character is dropped */
    CHECK_STR(mmd_text_sjis(t, a, center, 7, NULL), "センタ");
    uint8_t out[16];
    size_t n = mmd_text_to_sjis(t, "センター", out, 15);
    CHECK_EQ_INT(n, 8);
    CHECK(memcmp(out, center, 8) == 0);
    n = mmd_text_to_sjis(t, "センター", out, 7); /* MMD cuts bytes, even mid-character */
    CHECK_EQ_INT(n, 7);
    const uint8_t u16[] = {0xBB, 0x30, 0xF3, 0x30, 'A', 0};
    CHECK_STR(mmd_text_utf16le(t, a, u16, sizeof u16, NULL), "セン" "A");
    unsigned bad = 0;
    const uint8_t lone[] = {0x00, 0xD8, 'B', 0}; /* unpaired surrogate */
    char *s = mmd_text_utf16le(t, a, lone, sizeof lone, &bad);
    CHECK(s && bad >= 1);
    mmd_arena_destroy(a);
    mmd_text_destroy(t);
}

/* The texture cache's file map: 200,000 keys that differ in device, inode or
 * tag (the wrap mode) all come back with their values, absent keys give -1,
 * a second put replaces the value without growing the count. */
TEST(file_map_keys_and_values)
{
    mmd_file_map m = {0};
    CHECK_EQ_INT((int)mmd_file_map_get(&m, 1, 2, 0), -1); /* empty, never allocated */
    for (long i = 0; i < 200000; i++)
        REQUIRE(mmd_file_map_put(&m, (unsigned long long)(i % 7), (unsigned long long)(i / 14), (int)(i / 7 % 2), i));
    CHECK_EQ_INT((int)m.count, 200000);
    int wrong = 0;
    for (long i = 0; i < 200000; i++)
        wrong += mmd_file_map_get(&m, (unsigned long long)(i % 7), (unsigned long long)(i / 14), (int)(i / 7 % 2)) != i;
    CHECK_EQ_INT(wrong, 0);
    CHECK_EQ_INT((int)mmd_file_map_get(&m, 7, 0, 0), -1);
    CHECK_EQ_INT((int)mmd_file_map_get(&m, 0, 0, 2), -1);
    REQUIRE(mmd_file_map_put(&m, 3, 5, 1, 42));
    CHECK_EQ_INT((int)mmd_file_map_get(&m, 3, 5, 1), 42);
    CHECK_EQ_INT((int)m.count, 200000);
    mmd_file_map_free(&m);
    CHECK(m.slots == NULL && m.count == 0);
}

int main(void)
{
    RUN(arena_alignment_and_overflow);
    RUN(reader_sticky_error);
    RUN(reader_count_bounds);
    RUN(reader_index_widths);
    RUN(text_sjis_and_cut_names);
    RUN(file_map_keys_and_values);
    return test_finish();
}
