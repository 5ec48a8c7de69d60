/* renderer/fx/cache.c - glslang's SPIR-V by content hash (translate_internal.h).
 *
 * One file per compile: DIR/<32 hex digits>.spv, the digits two 64-bit
 * FNV-1a hashes (different offset bases) of everything the SPIR-V depends
 * on: this cache's format, glslang's version, the stage, the entry point and
 * the HLSL text (which names its files in its #line markers). A file is
 * "MMDFXSPV", u32 format, u32 word count, u64 FNV-1a of the words, the
 * words; one that is short, long or does not match its checksum is a miss
 * and is replaced. Files are written through a temporary made with O_EXCL
 * in DIR and renamed into place (base/fs.h, mmd_file_write_whole), so farm
 * processes sharing DIR never read half a file. DIR is made when absent
 * (one level); a cache that cannot be written is no error.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <glslang/build_info.h>

#include "renderer/base/fs.h"
#include "renderer/fx/translate_internal.h"

#define FORMAT    1u /* bump when the bridge's options change the SPIR-V */
#define HEADER    24

typedef struct hash128 {
    uint64_t a, b;
} hash128;

static void fnv(hash128 *h, const void *p, size_t n)
{
    const unsigned char *c = p;
    for (size_t i = 0; i < n; i++) {
        h->a = (h->a ^ c[i]) * 0x100000001b3ull;
        h->b = (h->b ^ c[i]) * 0x100000001b3ull;
    }
}

static uint64_t words_sum(const uint32_t *w, size_t n)
{
    hash128 h = {0xcbf29ce484222325ull, 0};
    fnv(&h, w, n * 4);
    return h.a;
}

/* DIR/<hash>.spv into path; false when it does not fit. */
static bool entry_path(const char *dir, const mmd_fx_compile_job *job, char *path, size_t size)
{
    hash128 h = {0xcbf29ce484222325ull, 0x84222325cbf29ce4ull};
    char head[96];
    int n = snprintf(head, sizeof head, "mmdrender-fx %u glslang %d.%d.%d%s stage %d", FORMAT, GLSLANG_VERSION_MAJOR,
                     GLSLANG_VERSION_MINOR, GLSLANG_VERSION_PATCH, GLSLANG_VERSION_FLAVOR, (int)job->stage);
    fnv(&h, head, (size_t)n + 1);
    fnv(&h, job->entry, strlen(job->entry) + 1);
    fnv(&h, job->hlsl, job->len);
    n = snprintf(path, size, "%s/%016llx%016llx.spv", dir, (unsigned long long)h.a, (unsigned long long)h.b);
    return n > 0 && (size_t)n < size;
}

bool mmd_fx_cache_get(const char *dir, const mmd_fx_compile_job *job, uint32_t **words, size_t *count)
{
    char path[4096];
    if (!dir || !entry_path(dir, job, path, sizeof path))
        return false;
    FILE *f = fopen(path, "rb");
    if (!f)
        return false;
    unsigned char head[HEADER];
    uint32_t format = 0, n = 0;
    uint64_t sum = 0;
    uint32_t *w = NULL;
    bool ok = fread(head, 1, HEADER, f) == HEADER && !memcmp(head, "MMDFXSPV", 8);
    if (ok) {
        memcpy(&format, head + 8, 4);
        memcpy(&n, head + 12, 4);
        memcpy(&sum, head + 16, 8);
        ok = format == FORMAT && n && n <= MMD_FX_MAX_SPIRV_WORDS && (w = malloc((size_t)n * 4)) != NULL;
    }
    ok = ok && fread(w, 4, n, f) == n && fgetc(f) == EOF && words_sum(w, n) == sum;
    fclose(f);
    if (!ok) {
        free(w);
        return false;
    }
    *words = w;
    *count = n;
    return true;
}

typedef struct entry {
    const uint32_t *words;
    uint32_t count;
} entry;

static int write_entry(FILE *f, void *ctx)
{
    const entry *e = ctx;
    uint32_t format = FORMAT;
    uint64_t sum = words_sum(e->words, e->count);
    bool ok = fwrite("MMDFXSPV", 1, 8, f) == 8 && fwrite(&format, 4, 1, f) == 1 && fwrite(&e->count, 4, 1, f) == 1 &&
              fwrite(&sum, 8, 1, f) == 1 && fwrite(e->words, 4, e->count, f) == e->count;
    return ok ? 0 : -1;
}

void mmd_fx_cache_put(const char *dir, const mmd_fx_compile_job *job, const uint32_t *words, size_t count)
{
    char path[4096];
    if (!dir || !count || count > MMD_FX_MAX_SPIRV_WORDS || !entry_path(dir, job, path, sizeof path))
        return;
    if (mkdir(dir, 0777) != 0 && errno != EEXIST)
        return;
    entry e = {words, (uint32_t)count};
    mmd_error err;
    (void)mmd_file_write_whole(path, write_entry, &e, &err); /* best effort: a cache */
}
