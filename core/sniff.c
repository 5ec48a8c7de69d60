/* core/sniff.c - the format table (see sniff.h). */
#include "core/sniff.h"

#include <stdio.h>
#include <string.h>
#include <strings.h>

#define LOADER_MODEL(name) NULL
#define LOADER_MOTION(name) NULL
#define LOADER_PLACEMENT(name) NULL
#define LOADER_PROJECT(name) NULL
#define LOADER_ACCESSORY(name) mmd_##name##_accessory_load
#define ROW(id, name, kind, label, sig, bom, ext) \
    {MMD_FILE_##id, #name, MMD_KIND_##kind, label, sig, sizeof sig - 1, bom, ext, LOADER_##kind(name)},

static const mmd_sniff_row k_rows[MMD_FILE_FORMAT_COUNT] = {MMD_SNIFF_LIST(ROW)};

static const unsigned char k_bom[3] = {0xEF, 0xBB, 0xBF};

const mmd_sniff_row *mmd_sniff_row_of(mmd_file_format id)
{
    return (unsigned)id < MMD_FILE_FORMAT_COUNT ? &k_rows[id] : NULL;
}

const mmd_sniff_row *mmd_sniff(const void *data, size_t size)
{
    const unsigned char *d = data;
    if (!d)
        return NULL;
    size_t bom = size >= sizeof k_bom && !memcmp(d, k_bom, sizeof k_bom) ? sizeof k_bom : 0;
    for (size_t i = 0; i < MMD_FILE_FORMAT_COUNT; i++) {
        const mmd_sniff_row *f = &k_rows[i];
        size_t at = f->bom ? bom : 0, n = f->signature_len;
        if (n && size - at >= n && !memcmp(d + at, f->signature, n))
            return f;
    }
    return NULL;
}

const mmd_sniff_row *mmd_sniff_path(const char *path)
{
    size_t n = path ? strlen(path) : 0;
    for (size_t i = 0; i < MMD_FILE_FORMAT_COUNT; i++) {
        size_t e = strlen(k_rows[i].ext);
        if (n > e && !strcasecmp(path + n - e, k_rows[i].ext))
            return &k_rows[i];
    }
    return NULL;
}

/* The labels (or extensions) of the signed rows of kinds, ", " between, last_sep before the last. */
static const char *join(unsigned kinds, bool exts, const char *last_sep, char *buf, size_t cap)
{
    size_t n = 0, left = 0;
    for (size_t i = 0; i < MMD_FILE_FORMAT_COUNT; i++)
        left += (k_rows[i].kind & kinds) && k_rows[i].signature_len;
    if (cap)
        buf[0] = '\0';
    for (size_t i = 0; i < MMD_FILE_FORMAT_COUNT && n < cap; i++) {
        if (!(k_rows[i].kind & kinds) || !k_rows[i].signature_len)
            continue;
        left--;
        int w = snprintf(buf + n, cap - n, "%s%s", exts ? k_rows[i].ext : k_rows[i].label,
                         left > 1 ? ", " : left ? last_sep : "");
        n += w > 0 ? (size_t)w : 0;
    }
    return buf;
}

const char *mmd_sniff_labels(unsigned kinds, char *buf, size_t cap) { return join(kinds, false, " or ", buf, cap); }

const char *mmd_sniff_exts(unsigned kinds, char *buf, size_t cap) { return join(kinds, true, ", ", buf, cap); }
