/* tests/unit/test_codecs.c - the container and codec tables (renderer/output/codecs.h)
 * against every list a user reads: messages, media_open's chunk list and
 * docs/cli.md (run from the repository root, as `make test` does). */
#include <libavformat/avformat.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "renderer/output/codecs.h"
#include "renderer/output/media_open.h"
#include "tests/util/test.h"

TEST_STATE_DEFINE

typedef struct container { const char *ext, *codec, *alpha; } container;
#define ROW(ext, codec, alpha) {ext, codec, alpha},
static const container k_rows[] = {MMD_CONTAINER_LIST(ROW, )};
#define N_ROWS (sizeof k_rows / sizeof k_rows[0])

static bool word_in(const char *list, const char *w, char sep)
{
    size_t n = strlen(w);
    for (const char *p = list; (p = strstr(p, w)); p += n)
        if ((p == list || p[-1] == sep) && (p[n] == sep || p[n] == 0))
            return true;
    return false;
}

static size_t words(const char *list)
{
    size_t n = 0;
    for (const char *p = list; *p; p++)
        n += (p == list || p[-1] == ' ') && *p != ' ';
    return n;
}

/* ".a/.b" at s (up to a character that is neither) as "a b"; its length in *used. */
static void slashed_exts(const char *s, char *out, size_t cap, size_t *used)
{
    size_t n = 0, i = 0;
    out[0] = 0;
    while (s[i] == '.') {
        size_t e = 1;
        while (s[i + e] >= 'a' && s[i + e] <= 'z')
            e++;
        n += (size_t)snprintf(out + n, cap > n ? cap - n : 0, "%s%.*s", n ? " " : "", (int)(e - 1), s + i + 1);
        i += e;
        if (s[i] == '/' && s[i + 1] == '.')
            i++;
    }
    *used = i;
}

/* Same words, any order. */
static bool same_set(const char *a, const char *b)
{
    if (words(a) != words(b))
        return false;
    char buf[128];
    snprintf(buf, sizeof buf, "%s", a);
    for (char *w = strtok(buf, " "); w; w = strtok(NULL, " "))
        if (!word_in(b, w, ' '))
            return false;
    return true;
}

TEST(rows_agree_with_each_other)
{
    char spaced[128] = "";
    for (size_t i = 0; i < N_ROWS; i++) {
        const container *c = &k_rows[i];
        CHECK(mmd_codec_is_container(c->ext));
        const mmd_codec *d = mmd_codec_find(c->codec);
        REQUIRE(d);
        CHECK(word_in(d->containers, c->ext, ' '));
        if (c->alpha) {
            const mmd_codec *a = mmd_codec_find(c->alpha);
            REQUIRE(a);
            CHECK(word_in(a->containers, c->ext, ' '));
            CHECK(a->pix_alpha[0] != AV_PIX_FMT_NONE);
        }
        snprintf(spaced + strlen(spaced), sizeof spaced - strlen(spaced), "%s.%s", i ? " " : "", c->ext);
    }
    CHECK_STR(MMD_CONTAINERS_SPACED, spaced);
    CHECK(!mmd_codec_is_container("png"));
    for (size_t k = 0; mmd_codec_at(k); k++) { /* a codec goes only in containers of the list */
        char list[64];
        snprintf(list, sizeof list, "%s", mmd_codec_at(k)->containers);
        for (char *w = strtok(list, " "); w; w = strtok(NULL, " "))
            CHECK(mmd_codec_is_container(w));
    }
}

/* The two messages written in reading order name exactly what the tables say. */
TEST(alpha_messages_match_the_tables)
{
    mmd_error err;
    REQUIRE(mmd_codec_pick("a.mp4", NULL, true, NULL, &err) == NULL);
    const char *use = strstr(err.msg, "use ");
    REQUIRE(use);
    size_t named = 0;
    for (size_t i = 0; i < N_ROWS; i++) {
        char want[64];
        snprintf(want, sizeof want, ".%s (%s)", k_rows[i].ext, k_rows[i].alpha ? k_rows[i].alpha : "");
        CHECK((strstr(use, want) != NULL) == (k_rows[i].alpha != NULL));
        named += k_rows[i].alpha != NULL;
    }
    size_t parens = 0;
    for (const char *p = use; *p; p++)
        parens += *p == '(';
    CHECK_EQ_INT(parens, named);
    REQUIRE(mmd_codec_pick("a.mp4", "h264", true, NULL, &err) == NULL);
    REQUIRE((use = strstr(err.msg, "use ")));
    size_t with_alpha = 0;
    for (size_t k = 0; mmd_codec_at(k); k++) {
        const mmd_codec *c = mmd_codec_at(k);
        char want[32];
        snprintf(want, sizeof want, "%s (", c->name);
        const char *at = strstr(use, want);
        CHECK((at != NULL) == (c->pix_alpha[0] != AV_PIX_FMT_NONE));
        if (!at)
            continue;
        with_alpha++;
        char exts[64];
        size_t used;
        slashed_exts(at + strlen(want), exts, sizeof exts, &used);
        CHECK(same_set(exts, c->containers));
    }
    parens = 0;
    for (const char *p = use; *p; p++)
        parens += *p == '(';
    CHECK_EQ_INT(parens, with_alpha);
    REQUIRE(mmd_codec_pick("a.mov", "qtrle", false, "slow", &err) == NULL);
    CHECK_STR(err.msg, "a preset applies to the x264/x265 codecs only (h264, h264-10, h264-444, x264rgb, hevc), "
                       "not to 'qtrle'");
    REQUIRE(mmd_codec_pick("a.xyz", NULL, false, NULL, &err) == NULL);
    CHECK_STR(err.msg, "a.xyz: unknown video container '.xyz' (expected .mp4 .mkv .mov .webm .avi)");
}

/* concat reads back every container a render writes. */
TEST(every_container_is_a_chunk_media_open_reads)
{
    char chunk[256];
    mmd_media_formats(MMD_MEDIA_CHUNK, chunk, sizeof chunk);
    for (size_t i = 0; i < N_ROWS; i++) {
        char name[16];
        snprintf(name, sizeof name, "x.%s", k_rows[i].ext);
        const AVOutputFormat *mux = av_guess_format(NULL, name, NULL);
        REQUIRE(mux);
        if (!word_in(chunk, mux->name, ','))
            printf("#   .%s: muxer %s not among %s\n", k_rows[i].ext, mux->name, chunk);
        CHECK(word_in(chunk, mux->name, ','));
    }
}

static char *slurp(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    char *b = calloc(1, 1 << 20);
    size_t n = b ? fread(b, 1, (1 << 20) - 1, f) : 0;
    fclose(f);
    (void)n;
    return b;
}

/* docs/cli.md: the -o line lists exactly the containers; every "`codec` (.a/.b"
 * and every row of the codec table names exactly the codec's containers. */
TEST(docs_cli_lists_the_tables)
{
    char *doc = slurp("docs/cli.md");
    REQUIRE(doc);
    CHECK(strstr(doc, "OUT is a video (`" MMD_CONTAINERS_SPACED "`") != NULL);
    int mentions = 0, rows = 0;
    for (size_t k = 0; mmd_codec_at(k); k++) {
        const mmd_codec *c = mmd_codec_at(k);
        char want[40], exts[64];
        size_t used;
        snprintf(want, sizeof want, "`%s` (.", c->name);
        for (const char *p = doc; (p = strstr(p, want)); p += strlen(want)) {
            slashed_exts(p + strlen(want) - 1, exts, sizeof exts, &used);
            CHECK(same_set(exts, c->containers));
            mentions++;
        }
        snprintf(want, sizeof want, "\n| `%s` ", c->name);
        for (const char *p = doc; (p = strstr(p, want)); p += strlen(want)) {
            const char *cell = strstr(p + strlen(want), "| ");
            const char *end = cell ? strstr(cell + 2, " |") : NULL;
            REQUIRE(end);
            char got[64] = "";
            for (const char *q = cell; q < end; q++)
                if (q[0] == '`' && q[1] == '.') {
                    size_t e = 2;
                    while (q[e] != '`')
                        e++;
                    snprintf(got + strlen(got), sizeof got - strlen(got), "%s%.*s", *got ? " " : "", (int)(e - 2),
                             q + 2);
                    q += e;
                }
            if (!same_set(got, c->containers))
                printf("#   docs/cli.md row %s: '%s', table '%s'\n", c->name, got, c->containers);
            CHECK(same_set(got, c->containers));
            rows++;
        }
    }
    printf("#   docs/cli.md: %d codec mentions with containers, %d table rows\n", mentions, rows);
    CHECK(mentions >= 5);
    CHECK(rows >= 5);
    free(doc);
}

int main(void)
{
    RUN(rows_agree_with_each_other);
    RUN(alpha_messages_match_the_tables);
    RUN(every_container_is_a_chunk_media_open_reads);
    RUN(docs_cli_lists_the_tables);
    return test_finish();
}
